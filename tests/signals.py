"""What a test that signals a child process sets up in that child first."""

from __future__ import annotations

import signal


def sigint_as_a_terminal_gives_it() -> None:
    """In the child, before it runs (``Popen(preexec_fn=...)``): SIGINT's default action
    back. A job started in the background by a shell (``pytest &``, CI runners) has SIGINT
    ignored, and a child inherits that: Python then leaves Ctrl-C ignored instead of raising
    KeyboardInterrupt, and the child never stops on it."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)
