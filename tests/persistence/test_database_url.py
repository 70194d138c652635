"""A database URL that names no database to keep is said in one line (persistence's
``url_problem``), with the URL shown as far as it may be: its password left out, wherever
the URL puts it, and nothing else."""

from __future__ import annotations

import pytest

from persistence.database import url_problem


@pytest.mark.parametrize(
    ("url", "shown"),
    [
        # a user with no password: the user and the host are shown as given
        ("postgresql+asyncpg://bob@db:x/stackbot", "postgresql+asyncpg://bob@db:x/stackbot"),
        # a password, even one holding ':', '/' or '@', is left out (up to the last '@')
        ("postgresql+asyncpg://u:s3:c/r@et@db:x/stackbot", "postgresql+asyncpg://u:…@db:x/stackbot"),
        ("postgresql+asyncpg//u:s3cret@127.0.0.1/db", "postgresql+asyncpg//u:…@127.0.0.1/db"),
        # a password given as a query parameter
        ("postgresql+asyncpg://h:5x/db?user=u&password=s3cret", "postgresql+asyncpg://h:5x/db?user=u&password=…"),
    ],
)  # fmt: skip
def test_a_url_that_names_no_database_is_shown_without_its_password(url: str, shown: str) -> None:
    problem = url_problem(url)
    assert problem is not None
    assert shown in problem, problem
    assert "s3" not in problem and "et@" not in problem, problem
