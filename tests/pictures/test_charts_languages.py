"""The charts in every language: each label said in the language spoken where the chart is
drawn (the picture worker speaks its job's), its Japanese drawn with a font that has its
glyphs, and every text inside the picture, none over another."""

from __future__ import annotations

import warnings
from itertools import combinations

import pytest
from matplotlib.figure import Figure
from matplotlib.text import Text

import catalog
from pictures.charts import (
    WIDTH,
    Chart,
    GameChart,
    PlayedGame,
    RatingChart,
    StatsChart,
    chart_figure,
    chart_size,
    draw_chart,
    sample_game,
    sample_stats,
)
from tests.pictures.test_charts import FONTS_INSTALLED, HOSTILE, png_size

RATINGS = ((25.0, 25 / 3), (27.5, 7.1), (26.0, 6.4), (30.2, 5.9))
GAME = sample_game(4, 12, seed=7, names=HOSTILE[:4])
WON = GameChart(GAME.names, GAME.rounds, GAME.target, GAME.winners)
RUNNING = GameChart(GAME.names, GAME.rounds, 10_000)
ONE_ROUND = sample_game(2, 1)

# what each chart says, by language: (chart, words it shows)
SAID: dict[str, list[tuple[Chart, set[str]]]] = {
    "en": [
        (WON, {"How the game went", "12 rounds", "round", "target 200"}),
        (RUNNING, {"Running totals", "12 rounds", "target 10,000"}),
        (ONE_ROUND, {"1 round"}),
        (sample_stats(), {"won 2 of 10", "oldest → newest · - - target 200"}),
        (sample_stats(1), {"won 0 of 1", "last game · - - target 200"}),
        (StatsChart("a", ()), {"No finished games yet", "Last games"}),
        (
            StatsChart("a", sample_stats().games, game="Stack"),
            {"a", "Last games of Stack", "won 2 of 10"},
        ),
        (
            RatingChart("a", RATINGS, game="Stack Up!"),
            {"a", "Rating in Stack Up!", "now 12.5 ± 5.9", "oldest → newest · band: ± uncertainty"},
        ),
    ],
    "ja": [
        (WON, {"ゲームの流れ", "12ラウンド", "ラウンド", "目標 200"}),
        (RUNNING, {"得点の推移", "12ラウンド", "目標 10,000"}),
        (ONE_ROUND, {"1ラウンド"}),
        (sample_stats(), {"10戦2勝", "古い → 新しい · - - 目標 200"}),
        (sample_stats(1), {"1戦0勝", "前回のゲーム · - - 目標 200"}),
        (StatsChart("a", ()), {"終わったゲームはまだありません", "直近のゲーム"}),
        (
            StatsChart("a", sample_stats().games, game="スタック"),
            {"a", "スタックの直近のゲーム", "10戦2勝"},
        ),
        (
            RatingChart("a", RATINGS, game="スタックアップ！"),
            {
                "a",
                "スタックアップ！のレーティング",
                "現在 12.5 ± 5.9",
                "古い → 新しい · 帯：± 不確かさ",
            },
        ),
    ],
}
CASES = [(language, chart, words) for language, said in SAID.items() for chart, words in said]
IDS = [f"{language}-{type(chart).__name__}-{i}" for i, (language, chart, _) in enumerate(CASES)]


def texts(figure: Figure) -> list[Text]:
    return [t for t in figure.findobj(Text) if t.get_text() and t.get_visible()]


@pytest.mark.parametrize(("language", "chart", "words"), CASES, ids=IDS)
def test_a_charts_labels_are_said_in_the_language_spoken(
    language: str, chart: Chart, words: set[str]
) -> None:
    with catalog.speaking(language):
        shown = {t.get_text() for t in texts(chart_figure(chart))}
    assert words <= shown


def test_a_chart_is_drawn_in_the_language_spoken_when_it_is_drawn_not_when_it_is_made() -> None:
    with catalog.speaking("ja"):
        chart = sample_stats()
    english = {t.get_text() for t in texts(chart_figure(chart))}
    assert "won 2 of 10" in english and "10戦2勝" not in english


LONG_TITLE = GameChart(GAME.names, GAME.rounds, 200, title="The longest table title " * 4)
# a rating chart of the longest names (32 characters: Latin, wide, Japanese and Latin
# mixed), in the game of the longest title, its rating the widest
LOW = tuple((mu - 130.0, 12.3) for mu, _ in RATINGS)
LONG_NAMES = ("W" * 32, "李" * 32, "ボブ Bob ボブ Bob 😀 ボブ Bob ボブ Bob")
LONG_RATINGS = [
    (language, RatingChart(name, LOW, game=title), set())
    for language, title in (("en", "Color Stack"), ("ja", "カラースタック"))
    for name in LONG_NAMES
]
# a stats chart of the same names, in the same game, its wins the widest
MANY = tuple(PlayedGame(1000 + 9 * i, True, 200) for i in range(10))
LONG_STATS = [
    (language, StatsChart(name, MANY, game=title), set())
    for language, title in (("en", "Color Stack"), ("ja", "カラースタック"))
    for name in LONG_NAMES
]
LAYOUTS = [
    *CASES,
    *((language, LONG_TITLE, set()) for language in SAID),
    *LONG_RATINGS,
    *LONG_STATS,
]
LAYOUT_IDS = [
    *IDS,
    *(f"{lang}-long-title" for lang in SAID),
    *(f"{lang}-long-rating-{i}" for i, (lang, _, _) in enumerate(LONG_RATINGS)),
    *(f"{lang}-long-stats-{i}" for i, (lang, _, _) in enumerate(LONG_STATS)),
]


@pytest.mark.parametrize(("language", "chart", "words"), LAYOUTS, ids=LAYOUT_IDS)
def test_every_text_of_a_chart_is_inside_it_and_none_over_another(
    language: str, chart: Chart, words: set[str]
) -> None:
    with catalog.speaking(language):
        assert png_size(draw_chart(chart)) == chart_size(chart)
        figure = chart_figure(chart)
        renderer = figure.canvas.get_renderer()  # type: ignore[attr-defined]
        figure.draw(renderer)
        boxes = [(t.get_text(), t.get_window_extent(renderer)) for t in texts(figure)]
        # the chart's own lines (title, round count, captions, the legend's names and
        # totals; not the tick labels and numbers on the plot, which sit there by design)
        labels = [
            (t.get_text(), t.get_window_extent(renderer)) for t in figure.texts if t.get_text()
        ]
    width, height = chart_size(chart)
    assert width == WIDTH
    for text, box in boxes:
        assert box.x0 >= 0 and box.x1 <= width, text
        assert box.y0 >= 0 and box.y1 <= height, text
    for (a, box_a), (b, box_b) in combinations(labels, 2):
        assert not box_a.overlaps(box_b), (a, b)


@pytest.mark.skipif(not FONTS_INSTALLED, reason="DejaVu, Noto CJK or Symbola not installed")
def test_japanese_labels_draw_without_a_missing_glyph() -> None:
    with warnings.catch_warnings(record=True) as caught, catalog.speaking("ja"):
        warnings.simplefilter("always")
        for chart, _ in SAID["ja"]:
            draw_chart(chart)
    glyphs = [str(w.message) for w in caught if "missing from" in str(w.message)]
    assert glyphs == []
