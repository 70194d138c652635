"""`stackbot web --demo`: the command serves the index of its three live tables, with no
token and no Discord, and stops on Ctrl-C."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path
from typing import Any

import pytest

from tests.signals import sigint_as_a_terminal_gives_it, sigterm_ignored_as_pid_1_has_it

ROOT = Path(__file__).resolve().parents[2]
WAIT = 120.0  # how long the command may take to start on a loaded machine (not a measure)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def test_web_needs_demo_for_now() -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "bot.cli", "web"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    assert proc.returncode == 2
    assert "--demo" in proc.stderr


def test_web_demo_serves_every_games_live_table_without_discord() -> None:
    port = free_port()
    env = {k: v for k, v in os.environ.items() if k != "DISCORD_TOKEN"}
    proc = subprocess.Popen(
        [sys.executable, "-m", "bot.cli", "web", "--demo", "--port", str(port)],
        cwd=ROOT,
        env={**env, "PYTHONPATH": str(ROOT)},
        preexec_fn=sigint_as_a_terminal_gives_it,  # whatever the shell running the tests left
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        deadline = time.monotonic() + WAIT
        page = ""
        while time.monotonic() < deadline and proc.poll() is None:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=5) as answer:
                    page = answer.read().decode()
                break
            except OSError:
                time.sleep(0.3)
        for title in ("Stack", "Stack Up!", "Color Stack"):
            assert f"<b>{title}</b>" in page
        assert page.count('href="/tables/') == 3
    finally:
        proc.send_signal(signal.SIGINT)
        try:
            out, err = proc.communicate(timeout=60)
        except subprocess.TimeoutExpired:
            proc.kill()  # no server left behind by a failing test
            proc.communicate()
            raise
    assert proc.returncode == 0, err
    assert f"http://127.0.0.1:{port}/" in out


def test_web_demo_lang_or_the_environment_chooses_the_demos_tables_language(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import web.demo
    from bot.cli import LANGUAGE_VARIABLES, main

    asked: list[str] = []

    def run(port: int, host: str, pace: float, language: str, **_: Any) -> int:
        asked.append(language)
        return 0

    monkeypatch.setattr(web.demo, "run", run)
    for variable in LANGUAGE_VARIABLES:
        monkeypatch.delenv(variable, raising=False)
    assert main(["web", "--demo"]) == 0 and asked[-1] == "en"
    assert main(["web", "--demo", "--lang", "ja"]) == 0 and asked[-1] == "ja"
    monkeypatch.setenv("LANG", "ja_JP.UTF-8")
    assert main(["web", "--demo"]) == 0 and asked[-1] == "ja"
    assert main(["web", "--demo", "--lang", "en"]) == 0 and asked[-1] == "en"
    monkeypatch.setenv("LC_ALL", "C")  # LC_ALL comes first, and we do not speak C: English
    assert main(["web", "--demo"]) == 0 and asked[-1] == "en"


def web_demo(*options: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "bot.cli", "web", "--demo", *options],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
        timeout=WAIT,
        env={**os.environ, "PYTHONPATH": str(ROOT), "LC_ALL": "C"},
    )


def test_web_demo_on_a_port_in_use_or_an_unknown_host_says_so_in_one_line() -> None:
    """A port another program listens on, or a host that is none, stopped the demo with
    a traceback (OSError, socket.gaierror); it is one line naming the address, exit 1."""
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        proc = web_demo("--port", str(port))
    assert proc.returncode == 1, proc.stderr[-2000:]
    assert proc.stderr.strip() == (
        f"stackbot web --demo: cannot listen on 127.0.0.1:{port}: Address already in use"
    )
    proc = web_demo("--host", "nohost.invalid", "--port", str(free_port()))
    assert proc.returncode == 1, proc.stderr[-2000:]
    assert len(proc.stderr.strip().splitlines()) == 1, proc.stderr[-2000:]
    assert proc.stderr.startswith("stackbot web --demo: cannot listen on nohost.invalid:")


def test_web_demo_names_an_ipv6_address_as_a_url_writes_it() -> None:
    """``--host ::1`` was said as '::1:8080', which reads as another address."""
    try:
        taken = socket.socket(socket.AF_INET6)
        taken.bind(("::1", 0))
    except OSError:
        pytest.skip("no IPv6 loopback here")
    with taken:
        taken.listen()
        port = taken.getsockname()[1]
        proc = web_demo("--host", "::1", "--port", str(port))
    assert proc.returncode == 1, proc.stderr[-2000:]
    assert proc.stderr.startswith(f"stackbot web --demo: cannot listen on [::1]:{port}:"), (
        proc.stderr
    )


@pytest.mark.parametrize("port", ["99999", "-1"])
def test_web_demo_port_that_is_none_is_refused_by_its_option(port: str) -> None:
    """``--port 99999`` was an OverflowError traceback once the demo had started."""
    proc = web_demo("--port", port)
    assert proc.returncode == 2, proc.stderr[-2000:]
    assert "Traceback" not in proc.stderr
    assert proc.stderr.strip().splitlines()[-1] == (
        f"stackbot web: error: argument --port: {port} is not a port number (0 to 65535; "
        "0: any free one)"
    )


# `stackbot` as installed (pyproject's script, bot.entry:main), and the same with a line
# said once SIGTERM's handling is set: the earliest moment a signal can be the command's
# (before it, in Python's own start-up, no code of ours has run)
AS_INSTALLED = "import sys; from bot.entry import main; sys.exit(main())"
CAUGHT = (
    "import sys; from bot import stop_signal; stop_signal.catch_for(sys.argv[1:]); "
    "print('CAUGHT', flush=True); from bot.cli import main; sys.exit(main())"
)


@pytest.mark.parametrize("when", ["at once", "serving"])
def test_web_demo_started_as_pid_1_stops_on_sigterm_with_status_0(when: str) -> None:
    """``stackbot web --demo`` had no SIGTERM handler: as PID 1 (``docker run``), which
    Linux gives no default action, ``docker stop`` waited 10 s and killed it. Started with
    SIGTERM ignored (what PID 1's is without a handler), it stops on SIGTERM, at once
    after its start or once it serves, with status 0 (a service stopped as asked) and
    no traceback."""
    env = {k: v for k, v in os.environ.items() if k != "DISCORD_TOKEN"}
    proc = subprocess.Popen(
        [
            sys.executable,
            "-c",
            CAUGHT if when == "at once" else AS_INSTALLED,
            "web",
            "--demo",
            "--port",
            "0",
        ],
        cwd=ROOT,
        env={**env, "PYTHONPATH": str(ROOT), "LC_ALL": "C"},
        preexec_fn=sigterm_ignored_as_pid_1_has_it,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert proc.stdout is not None
        first = proc.stdout.readline()  # (it ends when the process does, if it fails)
        assert first.startswith("CAUGHT" if when == "at once" else "stackbot web --demo: http"), (
            first
        )
        proc.send_signal(signal.SIGTERM)
        try:  # generous: it stops in a second or so
            _, err = proc.communicate(timeout=60)
        except subprocess.TimeoutExpired:
            raise AssertionError(
                "stackbot web --demo did not stop within 60 s of SIGTERM"
            ) from None
    finally:
        if proc.poll() is None:
            proc.kill()  # no server left behind by a failing test
            proc.communicate()
    assert proc.returncode == 0, err[-3000:]
    assert "Traceback" not in err, err[-3000:]
