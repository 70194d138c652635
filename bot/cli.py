"""The ``stackbot`` command: ``run`` the Discord bot, ``sync`` its slash commands,
``play`` a game in the terminal, or serve the ``web`` pages of a demo (no Discord needed).

``run``, ``sync`` and ``web`` are the operator's and speak English. ``play`` is a player's:
its help, its errors and the whole game are said in ``--lang``'s language, or else the
environment's (``LC_ALL``, ``LC_MESSAGES``, ``LANG``, as POSIX orders them), or else English
(:func:`play_language`)."""

from __future__ import annotations

import argparse
import io
import logging
import os
import shlex
import signal
import sys
import threading
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pydantic import ValidationError

import catalog
from bot import stop_signal
from catalog import games as game_words
from engine import games
from engine.echo import cut
from engine.game import Game
from engine.stack.rules import MAX_DICE_PER_PLAYER, MAX_HOUSE_TARGET, HouseRules, StackRules
from terminal.words import argparse_text, bad_option_text

if TYPE_CHECKING:  # the terminal front end is play's alone: imported by it, not by run
    from terminal.table import Resumed

# Libraries whose INFO lines are noise at start-up: Alembic's "Context impl SQLiteImpl.",
# "Will assume non-transactional DDL." and "Running upgrade" (persistence.migrate logs one
# line of its own when it upgrades the schema).
QUIET_LOGGERS = ("alembic",)
# `stackbot play` options, by the rules field they set.
PLAY_OPTIONS = {"dice_per_player": "--dice", "target_score": "--target"}

# where the language of `stackbot play` is read when --lang is not given, first first
LANGUAGE_VARIABLES = ("LC_ALL", "LC_MESSAGES", "LANG")


def play_language(argv: Sequence[str], environ: Mapping[str, str] | None = None) -> str:
    """The language ``stackbot play`` speaks: ``--lang``'s, or else that of the first of
    :data:`LANGUAGE_VARIABLES` set (``ja_JP.UTF-8`` -> ``ja``; a locale we do not speak,
    ``C`` or ``POSIX``: English), or else English."""
    given = argparse.ArgumentParser(add_help=False)
    given.add_argument("--lang", default=None)
    known, _ = given.parse_known_args(list(argv))
    if known.lang in catalog.LANGUAGES:
        return str(known.lang)
    env = os.environ if environ is None else environ
    for variable in LANGUAGE_VARIABLES:
        if env.get(variable):
            return catalog.language_of(env[variable])
    return catalog.DEFAULT


class PlayHelp(argparse.HelpFormatter):
    """``stackbot play --help`` with argparse's own words (usage, options) in the
    language spoken."""

    def add_usage(self, usage: Any, actions: Any, groups: Any, prefix: str | None = None) -> None:
        super().add_usage(usage, actions, groups, catalog.t("terminal.cli.usage"))

    def start_section(self, heading: str | None) -> None:
        super().start_section(catalog.t("terminal.cli.options") if heading else heading)


def _play_error(parser: argparse.ArgumentParser) -> Any:
    """``parser.error`` for ``stackbot play``: argparse's message in the language spoken."""

    def error(message: str) -> Any:
        parser.print_usage(sys.stderr)
        said = catalog.t(
            "terminal.argparse.error", prog=parser.prog, message=argparse_text(message)
        )
        parser.exit(2, said + "\n")

    return error


def _names(text: str) -> list[str]:
    names = [n.strip() for n in text.split(",") if n.strip()]
    if not names:
        raise argparse.ArgumentTypeError(catalog.t("terminal.cli.no_names"))
    return names


def _port(text: str) -> int:
    """``--port``: 0 (any free one) to 65535."""
    try:
        port = int(text)
    except ValueError:
        port = -1
    if not 0 <= port <= 65535:
        raise argparse.ArgumentTypeError(
            f"{text} is not a port number (0 to 65535; 0: any free one)"
        )
    return port


def _pace(text: str) -> float:
    """``--pace``: seconds, 0 or more (-1 and nan were taken, the tables playing flat out)."""
    try:
        pace = float(text)
    except ValueError:
        pace = -1.0
    if not 0 <= pace <= 3600:
        raise argparse.ArgumentTypeError(f"{text} is not a number of seconds (0 to 3600)")
    return pace


def _guild(text: str) -> int:
    """``--guild``: a server's id. 0 was taken for no guild (every guild, an hour's wait)."""
    from bot.config import MAX_SNOWFLAKE  # here: bot.config loads pydantic-settings and redis

    try:
        guild = int(text)
    except ValueError:
        guild = 0
    if not 1 <= guild <= MAX_SNOWFLAKE:
        raise argparse.ArgumentTypeError(
            f"{text} is not a server id (Copy Server ID in Discord, with Developer Mode on)"
        )
    return guild


def ai_levels() -> list[str]:
    """Every hosted game's AI levels (each game refuses a level it does not have)."""
    return sorted({level for game in games.all_games() for level in game.ai_levels})


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="stackbot",
        description="The Discord bot of the table games Stack, Stack Up! and Color Stack "
        "(or play them in this terminal).",
    )
    sub = parser.add_subparsers(dest="command", required=True)
    r = sub.add_parser("run", help="run the Discord bot (needs DISCORD_TOKEN)")
    r.add_argument(
        "--shards",
        default=None,
        help="one process of several: the shards it serves when it can, e.g. 0-3 or 0,2,5-7 "
        "(none: it only takes over); needs --shard-count, PostgreSQL and Redis",
    )
    r.add_argument(
        "--shard-count",
        type=int,
        default=None,
        help="the total number of shards, the same for every process",
    )
    s = sub.add_parser("sync", help="publish the slash commands to Discord")
    s.add_argument("--guild", type=_guild, default=None, help="only to this guild (instant)")
    w = sub.add_parser(
        "web", help="serve the tables' web pages: --demo, tables played by AI (no Discord needed)"
    )
    w.add_argument(
        "--demo",
        action="store_true",
        required=True,
        help="one table of each game played by AI players at a human pace",
    )
    w.add_argument(
        "--port", type=_port, default=8080, help="the port (default 8080; 0: any free one)"
    )
    w.add_argument("--host", default="127.0.0.1", help="the address (default 127.0.0.1)")
    w.add_argument(
        "--pace", type=_pace, default=1.5, help="seconds between two moves of a table (default 1.5)"
    )
    w.add_argument(
        "--lang",
        choices=catalog.LANGUAGES,
        default=None,
        help="the language of the demo's own tables (default: LC_ALL, LC_MESSAGES or LANG's, "
        "else English); a visitor's table speaks its page's",
    )
    _play_parser(sub)
    return parser


def _play_parser(sub: Any) -> None:
    """``stackbot play``'s options, their help in the language spoken."""

    def say(key: str, **facts: Any) -> str:
        return catalog.t(f"terminal.cli.{key}", **facts)

    p = sub.add_parser("play", help=say("play"), formatter_class=PlayHelp, add_help=False)
    p.error = _play_error(p)
    p.add_argument("-h", "--help", action="help", help=say("help"))
    p.add_argument(
        "--game", choices=games.names(), default=games.DEFAULT, help=say("game", default="stack")
    )
    p.add_argument("--players", type=_names, default=[], help=say("players"))
    p.add_argument("--bots", type=int, default=0, help=say("bots"))
    p.add_argument("--level", choices=ai_levels(), default="greedy", help=say("level"))
    p.add_argument("--seed", type=int, default=None, help=say("seed"))
    p.add_argument("--target", type=int, default=200, help=say("target", most=MAX_HOUSE_TARGET))
    p.add_argument("--dice", type=int, default=14, help=say("dice", most=MAX_DICE_PER_PLAYER))
    p.add_argument("--turn-limit", type=int, default=None, help=say("turn_limit"))
    p.add_argument("--board", default=None, help=say("board"))
    p.add_argument("--export", type=Path, default=None, help=say("export"))
    p.add_argument("--save", type=Path, default=None, help=say("save"))
    p.add_argument(
        "--lang",
        choices=catalog.LANGUAGES,
        default=None,
        help=say("lang", languages=", ".join(catalog.LANGUAGES)),
    )


# `stackbot sync` stopped by SIGTERM before it was done: as a shell reports a process that
# SIGTERM ended (a task cut short; `run` and `web`, services that SIGTERM stops as asked,
# exit 0)
STOPPED_EXIT = 128 + signal.SIGTERM
SYNC_STOPPED = (
    "stackbot sync: stopped by SIGTERM; the slash commands may not all be published "
    "(run stackbot sync again)."
)

NO_TOKEN = """stackbot: no DISCORD_TOKEN is set.
Create an application and its bot at https://discord.com/developers/applications, copy the
bot's token, and put it in the environment or in .env (see .env.example):
    DISCORD_TOKEN=...
Without a token you can still play in this terminal: stackbot play --players you --bots 3"""


def configure_logging(level: str) -> None:
    """Log at ``level`` to stderr, without the libraries' start-up noise."""
    logging.basicConfig(level=level, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    quiet = max(logging.getLevelName(level), logging.WARNING)
    for name in QUIET_LOGGERS:
        logging.getLogger(name).setLevel(quiet)
    # discord.py warns once per process that voice needs PyNaCl (and davey): this bot has
    # no voice, so the warning says nothing to an operator.
    from discord.voice_client import VoiceClient

    VoiceClient.warn_nacl = False
    VoiceClient.warn_dave = False


def quiet_late_sqlite_threads() -> None:
    """aiosqlite finishes a connection's last operation on a thread of its own; when the
    bot stops at start-up (a database it cannot use, said in one line), that operation
    may end after the event loop closed, and the thread would print a traceback under the
    one line. Only that one error of those threads is silenced; any other still prints."""
    default = threading.excepthook

    def hook(args: threading.ExceptHookArgs) -> None:
        thread = args.thread.name if args.thread is not None else ""
        if (
            isinstance(args.exc_value, RuntimeError)
            and str(args.exc_value) == "Event loop is closed"
            and "_connection_worker_thread" in thread
        ):
            return
        default(args)

    threading.excepthook = hook


def _one_line(err: BaseException, most: int = 200) -> str:
    """The first line of an error's message (or its type's name), cut to a short line."""
    lines = str(err).strip().splitlines()
    return cut(lines[0] if lines else type(err).__name__, most)


def cluster_config(settings: Any, shards: str | None, shard_count: int | None) -> Any:
    """The :class:`~host.cluster.ClusterConfig` of ``stackbot run --shards S --shard-count
    N`` (``None``: one process, no cluster); raises ``ValueError`` saying what is wrong."""
    from host.cluster import ClusterConfig, parse_shards
    from persistence.config import database_url
    from persistence.leases import MAX_SHARDS

    if shard_count is None:
        if shards is not None:
            raise ValueError(
                "--shards needs --shard-count (the total number of shards, the same for "
                "every process)"
            )
        return None
    if not 1 <= shard_count <= MAX_SHARDS:
        raise ValueError(f"--shard-count must be 1 to {MAX_SHARDS}, not {shard_count}")
    try:
        home = parse_shards(shards if shards is not None else "none", shard_count)
    except ValueError as err:
        raise ValueError(f"bad --shards {shards!r}: {err}") from None
    if not database_url(settings.database_url).startswith("postgresql"):
        raise ValueError(
            "several processes share PostgreSQL, not a SQLite file: set "
            "DATABASE_URL=postgresql+asyncpg://user:password@host:5432/stackbot"
        )
    if settings.redis_url is None:
        raise ValueError("several processes meet in Redis: set REDIS_URL=redis://host:6379/0")
    return ClusterConfig(
        shard_count,
        home,
        settings.redis_url,
        prefix=settings.cluster_prefix,
        name=settings.node_name or "stackbot",
    )


def _bot_command(
    command: str, guild: int | None, shards: str | None = None, shard_count: int | None = None
) -> int:
    import asyncio

    from bot.config import Settings, env_file_mistake, settings_mistake

    mistake = env_file_mistake()
    if mistake is not None:
        print(f"stackbot: {mistake}", file=sys.stderr)
        return 2
    try:
        settings = Settings()
    except ValidationError as err:
        print(f"stackbot: {settings_mistake(err)}", file=sys.stderr)
        return 2
    try:
        cluster = cluster_config(settings, shards, shard_count)
    except ValueError as err:
        print(f"stackbot {command}: {err}", file=sys.stderr)
        return 2
    if settings.discord_token is None:
        print(NO_TOKEN, file=sys.stderr)
        return 2
    from bot.webfront import ListenRefused, check_listen

    try:  # a port in use, before the database is created and Discord logged in to
        if command == "run":
            for setting, host, port in (
                ("HEALTH_PORT", settings.health_host, settings.health_port),
                ("WEB_PORT", settings.web_host, settings.web_port),
            ):
                if port is not None:
                    check_listen(setting, host, port)
    except ListenRefused as err:
        print(f"stackbot: {err}.", file=sys.stderr)
        return 1
    configure_logging(settings.log_level)
    quiet_late_sqlite_threads()
    import aiohttp
    import discord

    from bot.client import ShardedStackBot, StackBot
    from persistence.errors import DatabaseRefused, DatabaseUnavailable

    token = settings.discord_token.get_secret_value()
    bot = (
        StackBot(settings, sync_only=command == "sync")
        if cluster is None
        else ShardedStackBot(settings, cluster=cluster)
    )

    async def sync() -> bool:
        """Publish the commands; ``False``: stopped by SIGTERM before it was done. A
        SIGTERM once Discord took them (as the client closes) stops nothing left to do."""
        task = asyncio.current_task()
        assert task is not None
        stopped: list[signal.Signals] = []
        synced: list[Any] | None = None

        def stop(sig: signal.Signals) -> None:
            if stopped:  # one stop under way: the client's close is not cut short
                return
            stopped.append(sig)
            task.cancel()

        stop_signal.stop_on(asyncio.get_running_loop(), stop)
        try:
            async with bot:
                await bot.login(token)  # runs setup_hook: the commands, no database
                target = discord.Object(guild) if guild else None
                if target is not None:
                    bot.tree.copy_global_to(guild=target)
                synced = await bot.tree.sync(guild=target)
        except asyncio.CancelledError:
            if not stopped:
                raise
            task.uncancel()  # (ours: the close, shielded, goes on; waited for here)
            await bot.close()
            if synced is None:
                return False
        where = f"guild {guild}" if guild else "every guild (may take up to an hour)"
        print(f"synced {len(synced)} commands to {where}")
        return True

    try:
        if command == "sync":
            if not asyncio.run(sync()):
                print(SYNC_STOPPED, file=sys.stderr)
                return STOPPED_EXIT
        else:
            bot.run(token, log_handler=None)
            stop_signal.catch_again()  # its event loop closed gave SIGTERM its default back
    except (DatabaseRefused, DatabaseUnavailable) as err:  # found before logging in
        print(f"stackbot: {_one_line(err, 400)}", file=sys.stderr)
        return 1
    except discord.LoginFailure:
        print("stackbot: Discord refused the token (DISCORD_TOKEN).", file=sys.stderr)
        return 1
    except discord.PrivilegedIntentsRequired:
        print(
            "stackbot: Discord refused the bot's gateway intents; enable them for the bot at "
            "https://discord.com/developers/applications.",
            file=sys.stderr,
        )
        return 1
    except ListenRefused as err:  # a port of the settings in use: not Discord's fault
        print(f"stackbot: {err}.", file=sys.stderr)
        return 1
    except (
        OSError,
        TimeoutError,
        aiohttp.ClientError,
        discord.GatewayNotFound,
        discord.ConnectionClosed,
        discord.HTTPException,
    ) as err:
        print(f"stackbot: cannot reach Discord: {_one_line(err)}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("stackbot: interrupted.", file=sys.stderr)
        return stop_signal.INTERRUPTED_EXIT
    return 0


def _refuse(key: str, **facts: Any) -> None:
    """Say on stderr why ``stackbot play`` cannot start (``terminal.cli.<key>``)."""
    print(
        catalog.t("terminal.error", error=catalog.t(f"terminal.cli.{key}", **facts)),
        file=sys.stderr,
    )


def _say(error: str) -> None:
    """Say on stderr why ``stackbot play`` cannot start (``error`` already in words)."""
    print(catalog.t("terminal.error", error=error), file=sys.stderr)


def _title(game: Game[Any]) -> str:
    return game_words.words(game.name).title()


# the options a saved game keeps as they were (--players … --board), by their dest
SAVED_OPTIONS = (
    "game",
    "players",
    "bots",
    "level",
    "seed",
    "target",
    "dice",
    "turn_limit",
    "board",
)


def _play_command(args: argparse.Namespace) -> int:
    from terminal.table import NotASave, play, resume_saved  # (play's alone: see the top)

    # The host's and storage's log records are an operator's (the bot's: LOG_LEVEL); a
    # player's terminal shows none of them. Unhandled, logging's last resort wrote its
    # warnings and errors on stderr (a save failing under a game: the SQL and 'move not
    # stored…' above the one line that says so). Logging someone set up is left as it is.
    if not logging.getLogger().handlers:
        logging.getLogger().addHandler(logging.NullHandler())
    if args.save is not None:
        if args.export is not None and _same_file(args.save, args.export):
            _refuse("save_is_export", path=args.save)
            return 2
        try:
            resumed = resume_saved(args.save)  # (an AI's turn owed may be played: Ctrl-C)
        except NotASave as err:
            _say(str(err))
            return 2
        except KeyboardInterrupt:
            print(file=sys.stderr)
            _refuse("interrupted")
            return stop_signal.INTERRUPTED_EXIT
        if resumed is not None:
            return _resume_command(args, resumed)
        if not args.players and not args.bots:  # a save whose game is over, or none
            _refuse("save_over", path=args.save, quoted=shlex.quote(str(args.save)))
            return 2
        if not args.players:
            _refuse("save_no_human")
            return 2
    game = games.get(args.game)
    if not 0 <= args.bots <= game.max_players:
        _refuse("bots_range", most=game.max_players)
        return 2
    if args.level not in game.ai_levels:
        _refuse("no_level", title=_title(game), level=args.level)
        return 2
    options = _stack_options(args) if game.name == "stack" else _other_options(args, game)
    if options is None:
        return 2
    if not args.players and not args.bots:  # `stackbot play` alone: say how to start
        _refuse("nobody", least=game.min_players)
        return 2
    return _played(
        lambda: play(
            args.players,
            args.bots,
            seed=args.seed,
            level=args.level,
            stdin=sys.stdin,
            stdout=sys.stdout,
            export=args.export,
            save=args.save,
            **options,
        )
    )


def _resume_command(args: argparse.Namespace, resumed: Resumed) -> int:
    """``stackbot play --save FILE`` with a game in play in FILE: it goes on as it was
    saved; an option that would set it up otherwise is refused (exit 2)."""
    from terminal.table import resume

    defaults = _parser().parse_args(["play"])
    given = [
        "--" + name.replace("_", "-")
        for name in SAVED_OPTIONS
        if getattr(args, name) != getattr(defaults, name)
        and not _as_saved(name, getattr(args, name), resumed)
    ]
    if given:
        game = games.get(resumed.table.game)
        players = catalog.t("list.comma").join(catalog.isolate(s.name) for s in resumed.seats)
        resumed.table.close()
        _refuse(
            "saved_options",
            path=args.save,
            title=_title(game),
            players=players,
            options=catalog.t("list.comma").join(given),
        )
        return 2
    return _played(
        lambda: resume(
            resumed, save=args.save, stdin=sys.stdin, stdout=sys.stdout, export=args.export
        )
    )


def _as_saved(option: str, value: Any, resumed: Resumed) -> bool:
    """Whether ``--option value`` says what the saved game is already (the command that
    started it, typed again): its game, its humans, its number of AI seats and their
    level, its rules. ``--seed`` is taken as said for a seeded game: its chance goes on
    from where its save kept it (:meth:`terminal.hosting.HostedTable.resume`); a game
    saved without one is not made repeatable by it (nor do its AIs search as a seeded
    game's), so it is not."""
    humans = sorted(s.name for s in resumed.seats if s.level is None)
    levels = [s.level for s in resumed.seats if s.level is not None]
    rules = resumed.state.rules if resumed.table.game == "stack" else resumed.table.rules
    field = {"target": "target_score", "dice": "dice_per_player"}.get(option, option)
    if option == "game":
        return bool(value == resumed.table.game)
    if option == "players":
        return sorted(value) == humans
    if option == "bots":
        return bool(value == len(levels))
    if option == "level":
        return all(level == value for level in levels)
    if option == "seed":
        return bool(resumed.table.seeded)
    saved = getattr(rules, field, None)
    return str(getattr(saved, "value", saved)) == str(value)


def _same_file(a: Path, b: Path) -> bool:
    """Whether ``a`` and ``b`` name one file (it need not exist yet)."""
    try:
        return a.resolve() == b.resolve() or (a.exists() and b.exists() and a.samefile(b))
    except OSError:
        return False


def _played(game: Callable[[], int]) -> int:
    """Play ``game`` (it returns the exit code), and stop quietly when Ctrl-C strikes
    outside it, or standard output's reader goes away."""
    try:
        code = game()
        sys.stdout.flush()  # here, where a reader gone away is caught (not at exit)
        return code
    except KeyboardInterrupt:
        print(file=sys.stderr)
        _refuse("interrupted")
        return stop_signal.INTERRUPTED_EXIT
    except BrokenPipeError:  # its reader went away (`stackbot play … | head`): stop quietly
        # what is still buffered for stdout goes nowhere (Python's own advice)
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        from terminal.table import BROKEN_PIPE_EXIT

        return BROKEN_PIPE_EXIT


def _game_options(args: argparse.Namespace) -> dict[str, Any]:
    """The options of games other than Stack, by their settings key."""
    return {"turn_limit": args.turn_limit, "board": args.board}


def _stack_options(args: argparse.Namespace) -> dict[str, Any] | None:
    """Stack's rules from ``--target`` and ``--dice`` for :func:`play`; ``None`` (the
    error said) when they are wrong or another game's option is given."""
    foreign = [f"--{k.replace('_', '-')}" for k, v in _game_options(args).items() if v is not None]
    if foreign:
        _refuse("not_stack_options", options=catalog.join(foreign, "or_code"))
        return None
    try:
        # the table is set up with these as its house rules (Stack's settings): their bounds
        HouseRules(target_score=args.target, dice_per_player=args.dice)
        rules = StackRules(target_score=args.target, dice_per_player=args.dice)
    except ValidationError as err:
        first = err.errors()[0]
        field = str(first["loc"][0]) if first["loc"] else ""
        option = PLAY_OPTIONS.get(field, field)
        _say(bad_option_text(option, first["input"], first))
        return None
    return {"rules": rules}


def _other_options(args: argparse.Namespace, game: Game[Any]) -> dict[str, Any] | None:
    """A game other than Stack: its options by key, for the generic terminal front end;
    ``None`` (the error said) when one is wrong or not the game's."""
    if args.target != 200 or args.dice != 14:
        _refuse("stack_options")
        return None
    given = {k: v for k, v in _game_options(args).items() if v is not None}
    foreign = [f"--{k.replace('_', '-')}" for k in given if k not in game.settings.model_fields]
    if foreign:
        _refuse("no_options", title=_title(game), options=catalog.join(foreign, "or_code"))
        return None
    try:
        game.settings.model_validate(given)
    except ValidationError as err:
        first = err.errors()[0]
        option = "--" + str(first["loc"][0]).replace("_", "-") if first["loc"] else "option"
        _say(bad_option_text(option, first["input"], first))
        return None
    return {"game": game.name, "settings": given}


def writes_anything(stream: Any) -> None:
    """Let ``stream`` write what its encoding cannot (a Latin-1 terminal, or Windows
    writing to a file or a pipe in its ANSI code page) as ``?``: the game's squares, dice
    and emoji, a Japanese game, a player's name, stopped ``stackbot play`` with a
    UnicodeEncodeError traceback at its first line."""
    if isinstance(stream, io.TextIOWrapper) and stream.errors == "strict":
        stream.reconfigure(errors="replace")


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv[:1] == ["play"]:  # a player's command: all of it in their language
        writes_anything(sys.stdout)
        with catalog.speaking(play_language(argv[1:])):
            parser = _parser()
            parser.error = _play_error(parser)  # type: ignore[method-assign]
            parser.formatter_class = PlayHelp  # its usage line, before an error, too
            args = parser.parse_args(argv)
            return _play_command(args)
    args = _parser().parse_args(argv)
    if args.command in ("run", "sync"):
        return _bot_command(
            args.command,
            getattr(args, "guild", None),
            getattr(args, "shards", None),
            getattr(args, "shard_count", None),
        )
    if args.command == "play":  # after options of the command itself (none today)
        with catalog.speaking(play_language(argv)):
            return _play_command(args)
    if args.command == "web":
        from web.demo import run

        # the demo's tables: --lang's language, else the environment's (as play's)
        try:
            return run(
                args.port,
                args.host,
                args.pace,
                args.lang or play_language([]),
                stop_on=stop_signal.stop_on,  # a SIGTERM since the command started too
            )
        finally:
            stop_signal.catch_again()  # its event loop closed gave SIGTERM its default back
    return 2  # pragma: no cover - argparse requires a command


if __name__ == "__main__":  # (the installed command is bot.entry's, which catches it sooner)
    stop_signal.catch_for(sys.argv[1:])
    sys.exit(main())
