"""``/rules`` for Color Stack: the rule book (``docs/colorstack-rules.md``) in
brief, in English and in Japanese, with how to play it on Discord.

The printed game is Japanese, and the rule book follows the Japanese original where the
English translation strays; the Japanese brief reuses the original's own words
(前後左右に自由に, 積む, 同じあるいは上回っている, 下のサイコロは上のサイコロと一緒に動きます,
一度通ったマスは通れません, 同じ色のサイコロを積むことはできません, 積んだ上のサイコロも目を
変えられます). Both say the same rules: the board, the colours, a turn (move or set), the
stacking rule (strength with 6 beating 1, colours, the first-turn ban), winning, the
skip, the draws, resignation, and the notation. Commands and buttons keep their English
names (``/move``, **My move**): that is what a Japanese player sees on Discord.
"""

from __future__ import annotations

__all__ = ["RULES_EN", "RULES_JA", "is_japanese", "rules_brief"]

RULES_EN = (
    "**Color Stack** (2 players, 6 dice each: the first to build a stack of all four "
    "colours wins)\n"
    "**Board**: cards of 3×3 squares, 9 columns `a`–`i` × 6 rows (heavy: 9); black squares "
    "are walls. Row 1 is the first player's side. Each player owns two colours (🟥 red, "
    "🟦 blue, 🟨 yellow, 🟩 green); a stack is the piece of whoever owns its top die.\n"
    "**Your turn**, one of (no passing):\n"
    "① **Move** a piece showing *n* exactly *n* steps forward, back, left or right — it may "
    "turn; no square twice, never back to its start, no black square, and only the last "
    "step may land on a stack. The dice under it move with it.\n"
    "② **Set** a piece's top die to another number (dice under it never change).\n"
    "**Stacking** your *m* on a stack showing *t*: *m* must be as strong or stronger — "
    "smaller is stronger (1 > 2 > … > 6), but 6 beats 1. The two stacks may share no "
    "colour, unless together they hold all four: that wins at once. Nothing stacks on the "
    "first player's first turn.\n"
    "A player with no piece is skipped. A position seen a third time, or the turn limit, "
    "is a draw. Either player may resign at any time.\n"
    "**Playing here**: press **My move**, choose a piece, then a destination or a new "
    "number (or Resign). Or type `/move c1-e3`, `/set c1 4`, `/move resign`. "
    "`/hint`: the greedy AI's move."
)

RULES_JA = (
    "**カラースタック**（2人用・サイコロ各6個：4色すべてがそろった山を先に作った人の勝ち）\n"
    "**盤**：3×3マスのカードを並べた横9列（`a`〜`i`）×縦6行（ヘビーは9行）。黒いマスは"
    "通れません。1行目が先手の側です。2人は4色（🟥赤・🟦青・🟨黄・🟩緑）を2色ずつ持ちます。"
    "積んだ山は、いちばん上のサイコロの持ち主のコマです。\n"
    "**手番**：次のどちらか1つを必ず行います（パスはできません）。\n"
    "① **移動**：自分のコマを、上の目の数ちょうどのマスだけ前後左右に自由に動かします"
    "（途中で曲がれます）。一度通ったマスは通れず、出発したマスにも戻れません。黒いマスや"
    "盤の外には出られず、サイコロのあるマスに入れるのは最後の一歩だけです。"
    "下のサイコロは上のサイコロと一緒に動きます。\n"
    "② **目を変える**：自分のコマのいちばん上のサイコロを別の目にします"
    "（積んだ上のサイコロも目を変えられます。下のサイコロの目は変わりません）。\n"
    "**積む**：最後の一歩で山に乗ると、その上に積みます。動かすコマの目が相手の目と同じ"
    "あるいは上回っていること（小さいほど強い：1＞2＞…＞6。ただし6は1に勝ちます）。"
    "同じ色のサイコロを積むことはできません。ただし両方の山を合わせて4色そろうときは積めて、"
    "その場で勝ちです。先手の最初の手番では積めません。\n"
    "コマが1つもない人は手番を飛ばされます。同じ局面が3回目になるか、手数の上限に達すると"
    "引き分け。投了はどちらの人もいつでもできます。\n"
    "**ここでの遊び方**：**My move** を押してコマを選び、行き先か新しい目を選びます"
    "（Resign で投了）。または `/move c1-e3`（c1からe3へ移動）・`/set c1 4`"
    "（c1の目を4に）・`/move resign`（投了）と入力します。`/hint` で貪欲AIの一手が"
    "見られます。"
)


def is_japanese(locale: str | None) -> bool:
    """Whether a Discord locale (``"ja"``, ``"en-US"``…) is Japanese."""
    return locale is not None and locale.lower().split("-")[0] == "ja"


def rules_brief(locale: str | None) -> str:
    """The brief in the reader's language: Japanese for ``ja``, English otherwise."""
    return RULES_JA if is_japanese(locale) else RULES_EN
