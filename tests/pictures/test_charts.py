"""Game and stats charts: their size, a line per player, the target, the winners, any name
drawn as text (never mathtext) with a font that has its glyphs."""

from __future__ import annotations

import itertools
import pickle
import warnings
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from matplotlib.patches import Rectangle
from matplotlib.text import Text

import catalog
from catalog import games as catalog_games
from engine import games as engine_games
from persistence.records import RecentGame, ScoreSheet
from pictures import fonts
from pictures.charts import (
    TITLE,
    WIDTH,
    GameChart,
    RatingChart,
    StatsChart,
    chart_figure,
    chart_size,
    draw_chart,
    sample_game,
    sample_stats,
    shown,
)

PNG = b"\x89PNG\r\n\x1a\n"
HOSTILE = (
    "$x$ **bold** _it_",
    "Ālīce ✨",
    "ボブ",
    "😀",
    "`code` ~~no~~ ||spoiler||",
    "$\\frac{1}{2}$ $$ \\$",
    "W" * 32,
    "@everyone <@123>",
)
FONTS_INSTALLED = all(
    any(face.name.startswith(family) for face in fonts.faces("regular"))
    for family in ("DejaVu Sans", "Noto Sans CJK", "Symbola")
)


def png_size(png: bytes) -> tuple[int, int]:
    assert png.startswith(PNG)
    return int.from_bytes(png[16:20], "big"), int.from_bytes(png[20:24], "big")


def lines_by_gid(chart: GameChart | StatsChart) -> dict[str, Any]:
    figure = chart_figure(chart)
    (ax,) = figure.axes
    return {str(a.get_gid()): a for a in ax.get_children() if a.get_gid() is not None}


@st.composite
def game_charts(draw: st.DrawFn) -> GameChart:
    seats = draw(st.integers(2, 8))
    rounds = draw(st.integers(0, 70))
    scores = st.integers(-20, 400)
    table = tuple(tuple(draw(scores) for _ in range(seats)) for _ in range(rounds))
    names = tuple(draw(st.text(min_size=1, max_size=32)) for _ in range(seats))
    winners = tuple(sorted(draw(st.sets(st.integers(0, seats - 1), max_size=2))))
    teams = None
    if seats % 2 == 0 and seats >= 4 and draw(st.booleans()):
        teams = tuple(s % (seats // 2) for s in range(seats))
    return GameChart(
        names=names,
        rounds=table,
        target=draw(st.integers(1, 10_000)),
        winners=winners,
        teams=teams,
        theme=draw(st.sampled_from(["dark", "light"])),
        title=draw(st.text(max_size=40)),
    )


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(game_charts())
def test_a_game_chart_is_a_png_of_its_size_for_any_game(chart: GameChart) -> None:
    png = draw_chart(chart)
    assert png_size(png) == chart_size(chart)
    assert chart_size(chart)[0] == WIDTH


def test_a_game_chart_grows_by_a_legend_row_per_player_and_team() -> None:
    two = chart_size(sample_game(2, 5))
    eight = chart_size(sample_game(8, 5))
    game = sample_game(4, 5)
    teams = chart_size(GameChart(game.names, game.rounds, 200, teams=(0, 1, 0, 1)))
    row = (eight[1] - two[1]) / 6
    assert row > 30  # a row of legend text readable on a phone
    assert teams[1] - chart_size(game)[1] == 2 * row


def test_every_player_has_a_line_of_running_totals_from_zero() -> None:
    chart = sample_game(8, 12, seed=4)
    found = lines_by_gid(chart)
    for seat in range(8):
        xs, ys = found[f"seat-{seat}"].get_data()
        assert list(xs) == list(range(13))
        expected = [0]
        for r in chart.rounds:
            expected.append(expected[-1] + r[seat])
        assert list(ys) == expected


def test_a_team_game_draws_each_teams_combined_total() -> None:
    game = sample_game(4, 6, seed=2)
    chart = GameChart(game.names, game.rounds, 100, winners=(1, 3), teams=(0, 1, 0, 1))
    found = lines_by_gid(chart)
    running = chart.running()
    for team, (a, b) in enumerate(((0, 2), (1, 3))):
        _, ys = found[f"team-{team}"].get_data()
        assert list(ys) == [x + y for x, y in zip(running[a], running[b], strict=True)]
        assert f"seat-{a}" in found and f"seat-{b}" in found
    _, star = found["winner"].get_data()
    assert list(star) == [running[1][-1] + running[3][-1]]


def test_the_target_line_is_drawn_at_the_target() -> None:
    chart = GameChart(("a", "b"), ((5, 3),), 10_000)
    _, ys = lines_by_gid(chart)["target"].get_data()
    assert list(ys) == [10_000, 10_000]


def test_the_winner_is_starred_at_the_last_point_and_a_running_game_has_no_star() -> None:
    chart = GameChart(("a", "b", "c"), ((100, 20, 5), (120, 10, 90)), 200, winners=(0,))
    xs, ys = lines_by_gid(chart)["winner"].get_data()
    assert (list(xs), list(ys)) == ([2], [220])
    running = GameChart(("a", "b"), ((1, 2),), 200)
    assert "winner" not in lines_by_gid(running)


def test_of_sheet_maps_winner_names_to_seats() -> None:
    sheet = ScoreSheet(7, ("ann", "bob", "cy"), ((90, 120, 3),), (90, 120, 3), 100, True, ("bob",))
    chart = GameChart.of_sheet(sheet, theme="light")
    assert chart.winners == (1,) and chart.target == 100 and chart.theme == "light"
    assert chart.rounds == sheet.rounds and chart.names == sheet.names
    unfinished = ScoreSheet(8, ("ann", "bob"), (), (0, 0), 200, False, None)
    assert GameChart.of_sheet(unfinished).winners == ()


@pytest.mark.parametrize(
    "chart",
    [
        sample_game(2, 1),
        sample_game(2, 0),
        sample_game(3, 80, target=10_000),
        sample_game(8, 60),
        GameChart(("a", "b", "c", "d"), ((1, 2, 3, 4),) * 3, 5, (0, 2), teams=(0, 1, 0, 1)),
        GameChart(("a", "b"), ((-30, -5), (-10, 0)), 200),
    ],
    ids=["1 round", "no round", "80 rounds", "8 players", "teams", "below zero"],
)
def test_edge_games_draw(chart: GameChart) -> None:
    assert png_size(draw_chart(chart)) == chart_size(chart)


def test_names_with_dollars_and_markdown_are_text_not_mathtext(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from matplotlib import mathtext

    def refuse(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("mathtext was used")

    monkeypatch.setattr(mathtext.MathTextParser, "parse", refuse)
    chart = sample_game(8, 10, names=HOSTILE)
    chart = GameChart(chart.names, chart.rounds, 200, chart.winners, title="$5$ **t**")
    for theme in ("dark", "light"):
        game = GameChart(chart.names, chart.rounds, 200, chart.winners, theme=theme)
        assert draw_chart(game).startswith(PNG)
    assert draw_chart(StatsChart("$x$ **bold**", sample_stats().games)).startswith(PNG)
    texts = [t.get_text() for t in chart_figure(chart).findobj(Text)]
    assert "$x$ **bold** _it_" in texts  # drawn as written


@pytest.mark.skipif(not FONTS_INSTALLED, reason="DejaVu, Noto CJK or Symbola not installed")
def test_names_in_any_script_draw_without_a_missing_glyph() -> None:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        for theme in ("dark", "light"):
            game = sample_game(8, 10, names=HOSTILE)
            draw_chart(GameChart(game.names, game.rounds, 200, (0,), theme=theme, title="ボブ ✨"))
            draw_chart(StatsChart("Ālīce ✨ ボブ 😀", sample_stats().games, theme=theme))
    glyphs = [str(w.message) for w in caught if "missing from" in str(w.message)]
    assert glyphs == []


def recent(totals: list[int], target: int = 200) -> tuple[RecentGame, ...]:
    start = datetime(2025, 1, 1, tzinfo=UTC)
    return tuple(
        RecentGame(i, start - timedelta(days=i), 0, t, t >= target, target, 5, ("a", "b"))
        for i, t in enumerate(totals)
    )


@pytest.mark.parametrize(
    "games",
    [(), recent([210]), recent([120, 250, -4, 9_999, 0, 5, 60, 210, 199, 200])],
    ids=["none", "one", "ten"],
)
def test_a_stats_chart_is_a_png_of_its_size(games: tuple[RecentGame, ...]) -> None:
    chart = StatsChart("Ālīce ✨", games)
    assert png_size(draw_chart(chart)) == chart_size(chart)


def test_a_stats_chart_draws_a_bar_per_game_oldest_first_and_the_targets() -> None:
    games = recent([120, 250, 80])  # newest first, as PlayerStats.recent gives them
    (ax,) = chart_figure(StatsChart("a", games)).axes
    heights = [bar.get_height() for bar in ax.patches if isinstance(bar, Rectangle)]
    assert heights == [80, 250, 120]
    _, ys = lines_by_gid(StatsChart("a", games))["target"].get_data()
    assert list(ys) == [200, 200]
    mixed = StatsChart("a", recent([50], 100) + recent([300], 500))
    assert "target" in lines_by_gid(mixed)


RATINGS = ((25.0, 25 / 3), (27.5, 7.1), (26.0, 6.4), (30.2, 5.9))


@pytest.mark.parametrize("count", [0, 1, 2, 4], ids=["none", "one", "two", "four"])
def test_a_rating_chart_is_a_png_of_its_size(count: int) -> None:
    chart = RatingChart("Ālīce ✨", RATINGS[:count])
    assert png_size(draw_chart(chart)) == chart_size(chart)


def test_a_rating_chart_draws_the_ordinal_after_each_game_oldest_first() -> None:
    (ax,) = chart_figure(RatingChart("a", RATINGS)).axes
    (line,) = ax.get_lines()
    xs, ys = line.get_data()
    assert list(xs) == [0, 1, 2, 3]
    assert list(ys) == pytest.approx([mu - 3 * sigma for mu, sigma in RATINGS])
    (band,) = ax.collections  # ± sigma around the line
    lows = [mu - 4 * sigma for mu, sigma in RATINGS]
    highs = [mu - 2 * sigma for mu, sigma in RATINGS]
    corners = band.get_paths()[0].vertices[:, 1]
    assert min(corners) == pytest.approx(min(lows)) and max(corners) == pytest.approx(max(highs))


def test_a_rating_chart_writes_a_negative_rating_with_a_real_minus_sign() -> None:
    figure = chart_figure(RatingChart("a", ((25.0, 25 / 3), (20.0, 8.0))))
    shown = {t.get_text() for t in figure.findobj(Text)}
    assert {"−4.0", "now −4.0 ± 8.0"} <= shown
    assert not any(text.startswith("-") for text in shown)


MARKED = "**__@everyone__**~~`<@123>`~~||x"  # 32 characters of markdown and mentions
LONG_CJK = "李小龍" * 10 + "ab"  # 32 characters, 30 of them wide


def headed(kind: str, name: str, game: str) -> RatingChart | StatsChart:
    """A chart whose heading says what it shows: ``kind`` ``rating`` or ``stats``."""
    if kind == "rating":
        return RatingChart(name, RATINGS, game=game)
    return StatsChart(name, sample_stats().games, game=game)


@pytest.mark.parametrize("kind", ["rating", "stats"])
@pytest.mark.parametrize("language", ["en", "ja"])
@pytest.mark.parametrize("name", ["Ālīce ✨", "W" * 32, LONG_CJK, "ボブ Bob " * 4, MARKED])
def test_a_rating_or_stats_chart_says_whose_and_in_which_game_its_words_whole(
    name: str, language: str, kind: str
) -> None:
    # the picture alone (shared, in a thread) tells what it is: the name on the first
    # line (cut with … to the picture's width when long), then what it shows (the
    # rating in the game, the last games of the game), whole, a figure at its right
    for game in engine_games.names():
        with catalog.speaking(language):
            title = catalog_games.words(game).title()
            what = catalog.t(f"charts.{kind}.title", game=title)
            figure = chart_figure(headed(kind, name, title))
            figure.canvas.draw()  # type: ignore[no-untyped-call]
        texts = {t.get_text(): t for t in figure.texts}
        assert what in texts and title in what, (what, list(texts))
        (first,) = [t for t in figure.texts if t.get_fontsize() == TITLE]
        drawn = first.get_text()
        assert drawn == shown(name) or (
            drawn.endswith("…") and shown(name).startswith(drawn.removesuffix("…"))
        ), drawn
        assert drawn.endswith("…") == (name in ("W" * 32, LONG_CJK)), drawn
        for text in figure.texts:
            box = text.get_window_extent()
            assert box.x0 >= 0 and box.x1 <= WIDTH, text.get_text()
        name_box, what_box = first.get_window_extent(), texts[what].get_window_extent()
        assert name_box.y0 > what_box.y1, "the name above what the chart shows"
        (aside,) = [t for t in figure.texts if t.get_position()[1] == texts[what].get_position()[1]
                    and t is not texts[what]]  # fmt: skip
        assert aside.get_window_extent().x0 > what_box.x1, "the figure right of what it shows"


def test_a_stats_chart_of_no_known_game_says_it_shows_the_last_games() -> None:
    for language, words in (("en", "Last games"), ("ja", "直近のゲーム")):
        with catalog.speaking(language):
            drawn = {
                t.get_text() for t in chart_figure(StatsChart("a", sample_stats().games)).texts
            }
        assert words in drawn, drawn


@pytest.mark.parametrize("name", HOSTILE)
def test_a_rating_charts_name_is_text_not_mathtext(name: str) -> None:
    figure = chart_figure(RatingChart(name, RATINGS[:2]))
    texts = [t for t in figure.texts if isinstance(t, Text)]
    assert all(not t.get_parse_math() for t in texts)


def test_charts_pickle_for_the_worker() -> None:
    for chart in (sample_game(3, 4), sample_stats(), RatingChart("a", RATINGS)):
        assert pickle.loads(pickle.dumps(chart)) == chart


def test_a_right_to_left_name_is_written_from_the_right_its_arabic_letters_joined() -> None:
    # matplotlib lays text out left to right: the chart gives it the letters in drawn order
    texts = {t.get_text() for t in chart_figure(StatsChart("שלום 2", recent([120]))).texts}
    assert "2 םולש" in texts, texts
    texts = {t.get_text() for t in chart_figure(RatingChart("محمد", RATINGS[:2])).texts}
    # meem, hah, meem, dal: joined (initial, medial, medial, final), from the right
    assert "\ufeaa\ufee4\ufea4\ufee3" in texts, texts
    long = "שלום עולם " * 6
    legend = {t.get_text() for t in chart_figure(sample_game(2, 3, names=(long, "a"))).texts}
    (cut,) = [text for text in legend if "ם" in text]
    assert cut.startswith("…") and cut.endswith("שלום"[::-1]), "its beginning kept, rightmost"


@pytest.mark.parametrize("last", [47.9, -11.4, 104.9, -123.4])
def test_a_rating_charts_last_value_is_written_whole_inside_the_picture(last: float) -> None:
    points = tuple((last + 6 - (9 - game) * 0.1, 2.0) for game in range(10))  # ten games
    figure = chart_figure(RatingChart("Ālīce ✨", points))
    figure.canvas.draw()  # type: ignore[no-untyped-call]
    (ax,) = figure.axes
    (value,) = ax.texts
    assert value.get_text() == f"{last:.1f}".replace("-", "−")
    box = value.get_window_extent()
    assert box.x0 >= 0 and box.x1 <= WIDTH, (box.x0, box.x1)


def test_a_teams_row_names_its_members_in_their_marks_order_whatever_their_script() -> None:
    names = ("שלום", "Bob", "محمد", "Ann")  # teams: the first and third, the second and fourth
    chart = GameChart(names, ((5, 4, 3, 2),), 200, teams=(0, 1, 0, 1))
    texts = [t.get_text() for t in chart_figure(chart).texts]
    (row,) = [text for text in texts if "&" in text and "ם" in text]
    hebrew, arabic = shown("שלום"), shown("محمد")
    assert row == f"{hebrew} & {arabic}", "the first member (first mark) leftmost"
    assert "Bob & Ann" in texts


def _target_dashes(ax: Any) -> list[tuple[float, float, float, float]]:
    """Each target dash of a stats chart's plot in pixels: from x, to x, y, half its width."""
    from matplotlib.collections import LineCollection
    from matplotlib.lines import Line2D

    dashes = []
    for artist in ax.get_children():
        if artist.get_gid() != "target":
            continue
        if isinstance(artist, Line2D):
            plot = ax.get_window_extent()
            (y,) = {float(y) for _, y in artist.get_transform().transform(artist.get_xydata())}
            dashes.append((plot.x0, plot.x1, y, artist.get_linewidth() / 2))
        else:
            assert isinstance(artist, LineCollection)
            for path in artist.get_paths():
                (x0, y), (x1, _) = ax.transData.transform(path.vertices)
                dashes.append((x0, x1, y, artist.get_linewidths()[0] / 2))
    return dashes


@pytest.mark.parametrize(
    "games",
    [
        recent([190, 185, 205, 196, 120, 210, 150, 193, 60, 230]),  # near the one target
        recent([201, 199, 200, 203, 197, 1, 202, 198]),  # on it, wins starred in their bars
        recent([190, 96, 290], 200) + recent([185], 190) + recent([120, 296], 300),
        recent([1_180, 995, 1_230, 1_010], 1_000),  # compact numbers ('1.2k')
        recent([-4, -30, 195], 200),  # under zero
        recent([int(200 * k / 10) for k in range(10)]),  # ten games, every height
        recent([999, -999, 998, 997, 996, -995, 994, 993, 992, 991], 1_000),  # wide numbers
    ],
    ids=["near-one-target", "on-it", "mixed-targets", "compact", "negative", "ten", "wide"],
)
def test_a_stats_charts_numbers_are_clear_of_the_target_dash_and_of_each_other(
    games: tuple[RecentGame, ...],
) -> None:
    from pictures.chart_labels import painted_box

    figure = chart_figure(StatsChart("Ālīce ✨", games, game="Stack"))
    figure.canvas.draw()  # type: ignore[no-untyped-call]
    (ax,) = figure.axes
    renderer = figure.canvas.get_renderer()  # type: ignore[attr-defined]
    dashes = _target_dashes(ax)
    assert dashes
    plot = ax.get_window_extent()
    labels = [text for text in ax.texts if text.get_text()]
    assert len([t for t in labels if t.get_text() != "★"]) == len(games)
    for label in labels:
        box = painted_box(label, renderer)
        for x0, x1, y, half in dashes:
            if x0 < box.x1 and box.x0 < x1:  # the dash runs under the label
                assert not box.y0 - half < y < box.y1 + half, (label.get_text(), box, y)
        assert plot.y0 <= box.y0 and box.y1 <= plot.y1, (label.get_text(), "inside the plot")
    numbers = sorted(
        (painted_box(label, renderer) for label in labels if label.get_text() != "★"),
        key=lambda box: box.x0,
    )
    for left, right in itertools.pairwise(numbers):
        assert left.x1 + 2 <= right.x0 or left.y1 <= right.y0 or right.y1 <= left.y0


@pytest.mark.skipif(not FONTS_INSTALLED, reason="the Debian fonts are not installed")
def test_emoji_sequences_in_a_charts_names_are_drawn_whole_never_cut_inside() -> None:
    family, flag, rainbow = "👨\u200d👩\u200d👧\u200d👦", "🇯🇵", "🏳\ufe0f\u200d🌈"
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        figure = chart_figure(StatsChart(family * 40, sample_stats().games))
        title = figure.texts[0].get_text()
        assert title.endswith("…") and set(title[:-1]) == {"👪"}, title
        names = (f"Bo {flag}", f"Al {rainbow}", f"Cy {family}", (flag + rainbow) * 20)
        game = sample_game(4, 5, names=names)
        texts = [t.get_text() for t in chart_figure(game).texts]
        draw_chart(game)
    assert "Bo 🅹🅿" in texts and "Al 🏳🌈" in texts and "Cy 👪" in texts
    (cut,) = [t for t in texts if t.endswith("…")]
    assert cut.removesuffix("…").replace("🅹🅿🏳🌈", "") == "", cut
    assert [str(w.message) for w in caught if "missing from" in str(w.message)] == []
