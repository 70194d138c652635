"""A server's language (``guild_settings.language``, revision 0008): chosen or not, kept
whatever the game, and read back at start-up for every server that chose one."""

from __future__ import annotations

import pytest
from sqlalchemy import select

from persistence import InvalidSettings, Store
from persistence.database import make_engine
from persistence.schema import guild_settings
from tests.persistence.conftest import Backend
from tests.persistence.helpers import GUILD, column_names, downgrade_to, migrate


async def test_a_server_has_no_language_until_it_chooses_one(store: Store) -> None:
    assert (await store.guild_settings(GUILD)).language is None
    await store.set_turn_timer(GUILD, 45)  # a row of other settings: still not chosen
    assert (await store.guild_settings(GUILD)).language is None
    assert await store.guild_languages() == {}


async def test_the_chosen_language_is_the_servers_for_every_game(store: Store) -> None:
    await store.set_language(GUILD, "ja")
    assert (await store.guild_settings(GUILD)).language == "ja"
    assert (await store.guild_settings(GUILD, 5, game="colorstack")).language == "ja"
    assert (await store.guild_settings(GUILD + 1)).language is None


async def test_choosing_none_returns_to_the_servers_locale(store: Store) -> None:
    await store.set_language(GUILD, "ja")
    await store.set_language(GUILD, None)
    assert (await store.guild_settings(GUILD)).language is None
    assert await store.guild_languages() == {}


async def test_the_languages_chosen_are_read_back_after_a_restart(backend: Backend) -> None:
    async with backend.opened() as store:
        await store.set_language(GUILD, "ja")
        await store.set_language(GUILD + 1, "en")
        await store.set_theme(GUILD + 2, "light")  # no language chosen
    async with backend.opened() as store:
        assert await store.guild_languages() == {GUILD: "ja", GUILD + 1: "en"}


@pytest.mark.parametrize("wrong", ["", "Japanese", "JA", "ja_JP.UTF-8", "x" * 20, 7])
async def test_what_is_not_a_language_code_is_refused(store: Store, wrong: object) -> None:
    with pytest.raises(InvalidSettings, match="language code"):
        await store.set_language(GUILD, wrong)  # type: ignore[arg-type]
    assert (await store.guild_settings(GUILD)).language is None


async def test_0008_adds_the_column_empty_and_its_downgrade_drops_it(backend: Backend) -> None:
    async with backend.opened() as store:
        await store.set_theme(GUILD, "light")
        await store.set_language(GUILD, "ja")
    engine = make_engine(backend.url, **backend.engine_options)
    try:
        async with engine.begin() as conn:
            await conn.run_sync(downgrade_to, "0007")
            columns = await conn.run_sync(column_names, "guild_settings")
            assert "language" not in columns and "theme" in columns
        async with engine.begin() as conn:
            await conn.run_sync(migrate, "0008")
            rows = (
                await conn.execute(
                    select(
                        guild_settings.c.guild_id, guild_settings.c.theme, guild_settings.c.language
                    )
                )
            ).all()
            # the server's other settings are kept; its language is "not chosen" again
            assert [tuple(r) for r in rows] == [(GUILD, "light", None)]
    finally:
        await engine.dispose()
    async with backend.opened() as store:
        assert (await store.guild_settings(GUILD)).language is None
        assert (await store.guild_settings(GUILD)).theme == "light"
