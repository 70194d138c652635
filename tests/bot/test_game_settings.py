"""House rules and table options per game (issue 9): ``/houserules show|set|reset game:``
keys of the chosen game (autocompleted) beside the server's timer, expiry and theme, a
key or value the game does not take refused by name and changing nothing; ``/rules
game:`` shows the rules in force for that game; ``/table new`` takes Stack Up!'s
``turn_limit`` and refuses an option of another game, naming the game's own."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot import games
from bot.channel_games import ChannelGames
from bot.cogs.info import COMMON_KEYS
from bot.cogs.table import foreign_options
from engine.stack.rules import HouseRules
from engine.stackup.rules import DEFAULT_TURN_LIMIT, StackUpHouseRules, StackUpSettings
from tests.bot.conftest import World, table_text_of
from tests.bot.test_leaderboard_words import a_color_stack_game_resigned

STACK_KEYS = list(HouseRules.model_fields)
STACK_UP_KEYS = list(StackUpSettings.model_fields)
COLOR_STACK_KEYS = list(games.get("colorstack").game.settings.model_fields)
TABLE_OPTIONS = {"teams": True, "target": 100, "dice": 3, "turn_limit": 40}


def live_of(world: World, channel: Any = None) -> Any:
    return world.bot.tables.service.by_channel.get((channel or world.channel).id)


async def rules_of(world: World, game: str, channel: Any = None) -> Any:
    """The rules in force for ``game`` in ``channel`` (default: the test's), as stored."""
    settings = await world.bot.tables.store.guild_settings(
        world.guild.id, (channel or world.channel).id, game=game
    )
    return settings.effective


async def said(world: World, command: str, **options: Any) -> str:
    """The admin runs a command; its ephemeral answer."""
    result = await world.admin.slash(world.channel, command, **options)
    assert result.ephemeral, result.response.content
    return str(result.response.content)


async def keys_offered(world: World, typed: str = "", **filled: Any) -> list[str]:
    choices = await world.admin.autocomplete(
        world.channel, "houserules set", "key", typed, **filled
    )
    return [c["value"] for c in choices]


async def stack_up_lobby(world: World, **options: Any) -> Any:
    opened = await world.alice.slash(world.channel, "table new", game="stackup", **options)
    assert opened.response is not None and not opened.ephemeral, opened.response.content
    return opened.response


# ---------------------------------------------------------------------------- keys


async def test_houserules_set_offers_the_chosen_games_keys_and_every_games_keys(
    world: World,
) -> None:
    assert await keys_offered(world, game="stackup") == [*STACK_UP_KEYS, *COMMON_KEYS]
    assert await keys_offered(world, game="stack") == [*STACK_KEYS, *COMMON_KEYS]
    assert await keys_offered(world) == [*STACK_KEYS, *COMMON_KEYS]  # Stack by default
    assert await keys_offered(world, "TURN", game="stackup") == ["turn_limit", "turn_timer"]
    described = await world.admin.autocomplete(
        world.channel, "houserules set", "key", "limit", game="stackup"
    )
    assert described[0]["name"].startswith("turn_limit · turns after which the game ends")
    assert all(len(c["name"]) <= 100 for c in described)


async def test_houserules_default_to_the_channels_tables_game(world: World) -> None:
    await stack_up_lobby(world)
    assert await keys_offered(world) == [*STACK_UP_KEYS, *COMMON_KEYS]
    done = await said(world, "houserules set", key="turn_limit", value="50")
    assert done.startswith("This server's `turn_limit` is now 50.")
    assert (await rules_of(world, "stackup")).turn_limit == 50
    shown = await said(world, "houserules show")
    assert shown.startswith("**Stack Up! house rules for this server**")
    assert "`turn_limit` = 50" in shown and "target_score" not in shown
    rules = await world.alice.slash(world.channel, "rules")
    assert rules.response.content.startswith("**Stack Up!**")


async def test_the_key_autocomplete_asks_the_store_once_not_at_every_keystroke(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Discord asks for the keys at every keystroke and wants them within 3 s: with no
    table in the channel, the game last finished there is read once and remembered; a
    game ending in the channel is remembered too, so its keys come next, still unread."""
    store = world.bot.tables.store
    read = store.last_finished
    reads: list[int] = []

    async def counted(channel_id: int) -> Any:
        reads.append(channel_id)
        return await read(channel_id)

    monkeypatch.setattr(store, "last_finished", counted)
    for typed in ("t", "tu", "tur", "turn", "turn_"):
        assert await keys_offered(world, typed) == [
            k for k in [*STACK_KEYS, *COMMON_KEYS] if typed in k
        ]
    assert reads == [world.channel.id]
    await a_color_stack_game_resigned(world)  # alice and bob: it ends, here
    assert await keys_offered(world, "") == [*COLOR_STACK_KEYS, *COMMON_KEYS]
    assert reads == [world.channel.id]
    done = await said(world, "houserules set", key="board", value="heavy")  # a command reads
    assert done.startswith("This server's `board` is now heavy."), done
    assert reads == [world.channel.id] * 2


def test_a_remembered_channel_game_is_read_again_after_a_while_and_few_are_kept() -> None:
    now = [0.0]
    known = ChannelGames(size=2, max_age=600.0, clock=lambda: now[0])
    known.learnt(1, "stackup")
    known.learnt(2, None)
    assert known.known(2) and known.game(2) is None  # none finished: the default's keys
    assert known.known(1) and known.game(1) == "stackup"
    known.learnt(3, "colorstack")  # 2 was used least recently
    assert known.known(1) and not known.known(2) and known.known(3)
    now[0] = 601.0
    assert not known.known(1) and not known.known(3)


# ---------------------------------------------------------------------------- set, show


async def test_a_stack_up_house_rule_is_set_shown_and_opens_the_next_table(
    world: World,
) -> None:
    done = await said(world, "houserules set", game="stackup", key="turn_limit", value=" 40 ")
    assert done == (
        "This server's `turn_limit` is now 40. It applies to Stack Up! tables opened from now on."
    )
    assert (await rules_of(world, "stackup")).turn_limit == 40
    assert await rules_of(world, "stack") == HouseRules()  # Stack's rules untouched
    shown = await said(world, "houserules show", game="stackup")
    assert shown.startswith("**Stack Up! house rules for this server**\n`turn_limit` = 40")
    for key in COMMON_KEYS:
        assert f"`{key}` = " in shown
    stack = await said(world, "houserules show", game="stack")
    assert stack.startswith("**Stack house rules for this server**")
    assert "`target_score` = 200" in stack and "turn_limit" not in stack
    rules = await world.bob.slash(world.channel, "rules", game="stackup")
    assert "**Stack Up! house rules for this server**\n`turn_limit` = 40" in (
        rules.response.content
    )
    lobby = await stack_up_lobby(world)
    assert "The game ends after 40 turns" in table_text_of(lobby)


async def test_a_bad_key_or_value_for_the_game_is_refused_and_changes_nothing(
    world: World,
) -> None:
    common = "every game's: `turn_timer`, `lobby_timeout`, `idle_timeout`, `theme`, `language`."
    other_game = await said(
        world, "houserules set", game="stackup", key="target_score", value="100"
    )
    assert other_game == (
        "`target_score` is a house rule of Stack, not of Stack Up! (choose it with `game:`). "
        f"Stack Up!'s house rules: `turn_limit`; {common}"
    )
    back = await said(world, "houserules set", key="turn_limit", value="100")
    assert back.startswith(
        "`turn_limit` is a house rule of Stack Up! and Color Stack, not of Stack"
    )
    assert "Stack's house rules: `target_score`, `dice_per_player`" in back
    unknown = await said(world, "houserules set", game="stackup", key="@everyone", value="1")
    assert unknown.startswith("There's no house rule called '@\u200beveryone' for Stack Up!.")
    assert unknown.endswith(f"Stack Up!'s house rules: `turn_limit`; {common}")
    too_low = await said(world, "houserules set", game="stackup", key="turn_limit", value="0")
    assert too_low == "`turn_limit` must be at least 1, not 0."
    for game in ("stackup", "colorstack"):  # past what a table is set up with (or stored)
        huge = await said(world, "houserules set", game=game, key="turn_limit", value="9" * 25)
        assert huge == f"`turn_limit` must be at most 10000, not {'9' * 25}.", huge
    most = await said(world, "houserules set", game="stackup", key="turn_limit", value="10000")
    assert "10000" in most
    assert await rules_of(world, "stackup") == StackUpHouseRules(turn_limit=10_000)
    await said(world, "houserules reset", game="stackup")
    words = await said(world, "houserules set", game="stackup", key="turn_limit", value="lots")
    assert words == "`turn_limit` takes a whole number, not 'lots'."
    assert await rules_of(world, "stackup") == StackUpHouseRules()
    assert await rules_of(world, "stack") == HouseRules()


async def test_one_games_rules_leave_the_others_alone_and_reset_is_per_game(
    world: World,
) -> None:
    await said(world, "houserules set", key="target_score", value="150")
    await said(world, "houserules set", game="stackup", key="turn_limit", value="40")
    reset = await said(world, "houserules reset", game="stackup")
    assert reset == (
        "Stack Up!'s house rules are back to the defaults on this server, "
        "and so is the turn timer, which every game shares: 120 s."
    )
    assert (await rules_of(world, "stackup")).turn_limit == DEFAULT_TURN_LIMIT
    assert (await rules_of(world, "stack")).target_score == 150
    await said(world, "houserules set", game="stackup", key="turn_limit", value="40")
    await said(world, "houserules reset", game="stack")
    assert (await rules_of(world, "stack")).target_score == 200
    assert (await rules_of(world, "stackup")).turn_limit == 40


async def test_a_reset_puts_the_turn_timer_back_too_on_the_server_as_in_a_channel(
    world: World,
) -> None:
    """``show`` lists ``turn_timer`` among a game's rules: ``reset`` puts it back to the
    default as it does the rules, server-wide as ``here`` (where it always removed the
    channel's timer), and says so, the timer being every game's."""
    await said(world, "houserules set", key="turn_timer", value="90")
    await said(world, "houserules set", key="target_score", value="150")
    await said(world, "houserules set", game="stackup", key="turn_limit", value="40")
    reset = await said(world, "houserules reset")
    assert reset == (
        "Stack's house rules are back to the defaults on this server, "
        "and so is the turn timer, which every game shares: 120 s."
    )
    shown = await said(world, "houserules show")
    assert "`turn_timer` = 120 s" in shown and "`target_score` = 200" in shown, shown
    assert (await rules_of(world, "stackup")).turn_limit == 40  # another game's rules stay
    # a channel's reset: its timer goes too (the server's then applies), and the reply
    # says so with the server's timer now in force here
    await said(world, "houserules set", key="turn_timer", value="45")
    await said(world, "houserules set", key="turn_timer", value="30", here=True)
    await said(world, "houserules set", key="target_score", value="80", here=True)
    gone = await said(world, "houserules reset", here=True)
    assert gone == (
        "This channel's override is gone: the server's Stack rules apply here, "
        "and the server's turn timer (45 s) to every game here."
    )
    shown = await said(world, "houserules show")
    assert "`turn_timer` = 45 s\n" in shown, shown  # the server's, not "(this channel)"


async def test_a_server_reset_says_the_servers_timer_not_the_channels_override(
    world: World,
) -> None:
    """A server reset asked in a channel with its own timer says the server's timer put
    back to the default (it said the channel's own, which the reset leaves, as the
    default every game shares)."""
    await said(world, "houserules set", key="turn_timer", value="90")
    await said(world, "houserules set", key="turn_timer", value="30", here=True)
    reset = await said(world, "houserules reset")
    assert reset == (
        "Stack's house rules are back to the defaults on this server, "
        "and so is the turn timer, which every game shares: 120 s."
    )
    shown = await said(world, "houserules show")
    assert "`turn_timer` = 30 s" in shown, shown  # the channel's override stays


async def test_a_channel_override_is_the_games_and_show_names_the_servers_values(
    world: World,
) -> None:
    other = world.guild.create_text_channel("elsewhere")
    await said(world, "houserules set", game="stackup", key="turn_limit", value="40")
    here = await said(
        world, "houserules set", game="stackup", key="turn_limit", value="60", here=True
    )
    assert here.startswith("This channel's `turn_limit` is now 60.")
    shown = await said(world, "houserules show", game="stackup")
    assert shown.startswith("**Stack Up! house rules for this channel**\n`turn_limit` = 60")
    assert "The server's own values, overridden here: `turn_limit` = 40" in shown
    assert (await rules_of(world, "stackup", other)).turn_limit == 40
    assert (await said(world, "houserules show", game="stack")).startswith(
        "**Stack house rules for this server**"
    )
    gone = await said(world, "houserules reset", game="stackup", here=True)
    assert gone.startswith("This channel's override is gone")
    assert (await rules_of(world, "stackup")).turn_limit == 40


async def test_the_servers_keys_are_every_games(world: World) -> None:
    timer = await said(world, "houserules set", game="stackup", key="turn_timer", value="30")
    assert timer == "Turn timer: 30 s on this server. It applies from the next turn on."
    theme = await said(world, "houserules set", game="stackup", key="theme", value="light")
    assert theme.startswith("`theme` is now light on this server")
    kept = await said(
        world, "houserules set", game="stackup", key="idle_timeout", value="2h", here=True
    )
    assert kept == "`idle_timeout` is kept for the whole server; set it without `here`."
    for game in ("stack", "stackup"):
        shown = await said(world, "houserules show", game=game)
        assert "`turn_timer` = 30 s" in shown and "`theme` = light" in shown
        assert "`idle_timeout` = 1d (server)" in shown


async def test_a_timer_takes_a_duration_as_the_timeouts_do(world: World) -> None:
    """``turn_timer`` takes seconds, ``off``, or a duration (``2m``, ``1m30s``), and a
    timeout takes a duration of several parts (``1h30m``)."""
    for typed, seconds in (("2m", 120), ("1m30s", 90), ("90s", 90), ("45", 45), ("off", 0)):
        done = await said(world, "houserules set", key="turn_timer", value=typed)
        shown = f"{seconds} s" if seconds else "off"
        assert done.startswith(f"Turn timer: {shown} on this server."), (typed, done)
    bad = await said(world, "houserules set", key="turn_timer", value="2 minutes")
    assert bad == "`turn_timer` takes seconds (90), a duration (2m, 1m30s) or off, not '2 minutes'."
    lobby = await said(world, "houserules set", key="lobby_timeout", value="1h30m")
    assert lobby.startswith("`lobby_timeout` is now 90m on this server"), lobby


async def test_a_duration_too_long_is_refused_with_its_bounds_not_as_no_duration(
    world: World,
) -> None:
    """``99999999`` seconds is seconds all the same: too long, said with the bounds."""
    timer = await said(world, "houserules set", key="turn_timer", value="99999999")
    assert timer == "The turn timer must be 0 (off) to 3600 seconds.", timer
    lobby = await said(world, "houserules set", key="lobby_timeout", value="12345678m")
    assert lobby == "The lobby timeout must be 1 minute to 7 days (60 to 604800 seconds).", lobby
    idle = await said(world, "houserules set", key="idle_timeout", value="9" * 30)
    assert idle == "The idle timeout must be 1 hour to 30 days (3600 to 2592000 seconds).", idle


# ---------------------------------------------------------------------------- /table new


async def test_table_new_takes_turn_limit_for_stack_up_and_the_lobby_and_rules_show_it(
    world: World,
) -> None:
    lobby = await stack_up_lobby(world, turn_limit=30)
    assert "The game ends after 30 turns (fewest cards win)." in table_text_of(lobby)
    live = live_of(world)
    assert live.info.game == "stackup" and live.info.options == {"turn_limit": 30}
    rules = await world.bob.slash(world.channel, "rules", game="stackup")
    assert "This channel's table: `turn_limit` = 30" in rules.response.content
    stack_rules = await world.bob.slash(world.channel, "rules", game="stack")
    assert "This channel's table" not in stack_rules.response.content
    await world.alice.click(lobby, label="Add AI")
    await world.alice.click(lobby, label="Start")
    assert live_of(world).state.turn_limit == 30


async def test_an_option_of_another_game_is_refused_by_name_and_opens_nothing(
    world: World,
) -> None:
    cases = [
        (
            {"game": "stackup", "target": 100},
            "`target` is a Stack option; Stack Up! takes `turn_limit`.",
        ),
        (
            {"game": "stackup", "target": 100, "dice": 3, "teams": False},
            "`teams`, `target` and `dice` are Stack options; Stack Up! takes `turn_limit`.",
        ),
        (
            {"turn_limit": 40},
            "`turn_limit` is a Stack Up! and Color Stack option; Stack takes `teams`, `target`, `dice`.",
        ),
        (
            {"game": "stack", "dice": 3, "turn_limit": 40},
            "`turn_limit` is a Stack Up! and Color Stack option; Stack takes `teams`, `target`, `dice`.",
        ),
    ]
    for options, refusal in cases:
        result = await world.alice.slash(world.channel, "table new", **options)
        assert result.ephemeral and result.response.content == refusal, options
        assert live_of(world) is None
    assert not world.channel.history()


def test_turn_limit_is_a_whole_number_of_at_least_one_on_discord(world: World) -> None:
    new = world.bot.tree.get_command("table").get_command("new")  # type: ignore[union-attr]
    option = next(p for p in new.parameters if p.name == "turn_limit")
    assert option.min_value == 1 and not option.required
    assert option.description.startswith("Stack Up!")


@given(
    given_options=st.sets(st.sampled_from(sorted(TABLE_OPTIONS))),
    name=st.sampled_from(["stack", "stackup"]),
)
def test_table_options_are_refused_exactly_when_one_is_another_games(
    given_options: set[str], name: str
) -> None:
    played = games.get(name)
    options = {o: (TABLE_OPTIONS[o] if o in given_options else None) for o in TABLE_OPTIONS}
    refusal = foreign_options(played, options)
    foreign = given_options - set(played.table_options)
    assert (refusal is None) == (not foreign)
    if refusal is not None:
        for option in TABLE_OPTIONS:
            assert (f"`{option}`" in refusal.split(";")[0]) == (option in foreign)
        assert refusal.endswith(
            f"{played.title} takes " + ", ".join(f"`{o}`" for o in played.table_options) + "."
        )


async def test_table_new_takes_the_board_for_color_stack_and_refuses_it_elsewhere(
    world: World,
) -> None:
    opened = await world.alice.slash(world.channel, "table new", game="colorstack", board="heavy")
    assert opened.response is not None and not opened.ephemeral, opened.response.content
    live = live_of(world)
    assert live.info.game == "colorstack" and live.info.options == {"board": "heavy"}
    await world.alice.click(opened.response, label="Add AI")
    await world.alice.click(opened.response, label="Start")
    state = live_of(world).state
    assert state.settings.board == "heavy" and state.rows == 9
    other = world.guild.create_text_channel("other")
    refused = await world.bob.slash(other, "table new", board="heavy")
    assert refused.ephemeral
    assert refused.response.content == (
        "`board` is a Color Stack option; Stack takes `teams`, `target`, `dice`."
    )


async def test_a_channel_override_holds_only_its_rules_and_the_others_follow_the_server(
    world: World,
) -> None:
    """``here:true`` sets that one rule for the channel: the server's later changes of the
    other rules reach the channel's next table, and ``show`` names only the rule set here;
    ``reset here:true`` removes that rule alone, leaving the server's."""
    await said(world, "houserules set", key="target_score", value="30", here=True)
    server = await said(world, "houserules set", key="dice_per_player", value="3")
    assert "applies to Stack tables opened from now on" in server, server
    shown = await said(world, "houserules show")
    assert "`target_score` = 30" in shown and "`dice_per_player` = 3" in shown, shown
    assert "The server's own values, overridden here: `target_score` = 200\n" in shown, shown
    opened = await world.alice.slash(world.channel, "table new")
    assert opened.response is not None and not opened.ephemeral, opened.response.content
    assert "lobby · first to 30 · 3 dice each" in table_text_of(opened.response)
    # the server changes again: still reaches the channel, whose own rule stays
    await said(world, "houserules set", key="target_score", value="150")
    await said(world, "houserules set", key="capture_penalty", value="on")
    here = await rules_of(world, "stack")
    assert (here.target_score, here.dice_per_player, here.capture_penalty) == (30, 3, True)
    # a second rule set here joins the first
    await said(world, "houserules set", key="tie_break", value="shared", here=True)
    shown = await said(world, "houserules show")
    # as the house rules above list it (`tie_break` = shared): not escaped, the same word
    assert "overridden here: `target_score` = 150, `tie_break` = extra_round\n" in shown, shown
    await said(world, "houserules reset", here=True)
    here = await rules_of(world, "stack")
    assert (here.target_score, here.dice_per_player, here.tie_break) == (150, 3, "extra_round")
