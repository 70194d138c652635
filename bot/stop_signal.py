"""SIGTERM, caught from the first moment of a ``stackbot`` command (:mod:`bot.entry`
installs :func:`catch` before anything else is imported).

``docker stop`` (and Kubernetes, systemd, ``kill``) ask a process to stop with SIGTERM. Its
default action kills the process (exit status 143, no shutdown steps); a process that is
PID 1, as the image's ``stackbot`` is, does not even get that: Linux ignores a signal PID 1
has no handler for, and ``docker stop`` waits 10 s, then kills it. So every command
handles SIGTERM itself, from start-up on:

* ``run``, ``web`` and ``sync`` (:func:`catch`): a SIGTERM is noted (:func:`noted`) until
  the command's event loop takes the signal over (:func:`stop_on`), which then does at once
  what that SIGTERM asked: the command stops as it would have had the signal come later.
  The signal is caught even if the process was started with it ignored: for these commands
  it is *the* way to stop them, and ignored is what PID 1's SIGTERM is anyway.
* ``play`` (:func:`as_default`): the game's table handles the stop signals while it is
  played (:mod:`terminal.table`); before and after, a SIGTERM ends the process as its
  default action does outside PID 1 (exit status 143), as PID 1 too.
"""

from __future__ import annotations

import contextlib
import os
import signal
from collections.abc import Callable
from types import FrameType
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # (not imported at run time: this module is imported first of all)
    import asyncio

INTERRUPTED_EXIT = 130  # as a shell reports a process ended by SIGINT (Ctrl-C)
# the SIGTERM received before the command's own handling took it over, if any
_noted: signal.Signals | None = None
_catching = False  # catch() was called: this process is a command's


def _note(signum: int, frame: FrameType | None) -> None:
    global _noted
    if _noted is None:
        _noted = signal.Signals(signum)


def catch() -> None:
    """From now on SIGTERM is noted (:func:`noted`), not acted on, until an event loop
    takes it over (:func:`stop_on`), or again after (:func:`catch_again`)."""
    global _catching
    _catching = True
    signal.signal(signal.SIGTERM, _note)


def catch_again() -> None:
    """:func:`catch` again if it was called (by the command: not in a test's process):
    an event loop that took SIGTERM over gives it its default action back as it closes."""
    if _catching:
        catch()


def noted() -> signal.Signals | None:
    """The SIGTERM noted by :func:`catch`'s handler, if one came."""
    return _noted


def stop_on(loop: asyncio.AbstractEventLoop, stop: Callable[[signal.Signals], object]) -> None:
    """From now on SIGTERM calls ``stop(signal)`` on ``loop``; if one was noted already
    (:func:`catch`), ``stop`` is called now."""
    with contextlib.suppress(NotImplementedError):  # (Windows' loops have no signals)
        loop.add_signal_handler(signal.SIGTERM, stop, signal.SIGTERM)
    if _noted is not None:
        stop(_noted)


def _default(signum: int, frame: FrameType | None) -> None:
    signal.signal(signum, signal.SIG_DFL)
    os.kill(os.getpid(), signum)  # the default action: the process ends here...
    os._exit(128 + signum)  # ...unless it is PID 1, which ignores it: the same status


def as_default() -> None:
    """SIGTERM does its default action, even in PID 1 (which would ignore it); unless the
    process was started with it ignored (``nohup``-like): it stays ignored."""
    if signal.getsignal(signal.SIGTERM) is not signal.SIG_IGN:
        signal.signal(signal.SIGTERM, _default)


def catch_for(argv: list[str]) -> None:
    """SIGTERM's handling for the command ``argv`` (``stackbot``'s arguments): the
    player's ``play`` keeps it as its default; any other command catches it."""
    if argv[:1] == ["play"]:
        as_default()
    else:
        catch()
