"""What a test that signals a child process sets up in that child first."""

from __future__ import annotations

import signal


def sigint_as_a_terminal_gives_it() -> None:
    """In the child, before it runs (``Popen(preexec_fn=...)``): SIGINT's default action
    back. A job started in the background by a shell (``pytest &``, CI runners) has SIGINT
    ignored, and a child inherits that: Python then leaves Ctrl-C ignored instead of raising
    KeyboardInterrupt, and the child never stops on it."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def sigterm_ignored_as_pid_1_has_it() -> None:
    """In the child, before it runs (``Popen(preexec_fn=...)``): SIGTERM ignored, which is
    what it is to PID 1 (``docker run``'s process) while the process has no handler of its
    own: Linux gives PID 1 no default action. A child that stops on SIGTERM so started
    handles the signal itself (Python keeps an inherited SIG_IGN)."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    signal.signal(signal.SIGTERM, signal.SIG_IGN)


def sigterm_as_default() -> None:
    """In the child, before it runs: SIGINT and SIGTERM at their default actions, whatever
    the process running the tests left."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
