"""Völuspá's guided first game: a script of prompts against a bot, on a fixed deal.

Two players, the base game, seed 7: the learner (seat 0) holds Odin, Thor, Troll, Valkyrie
and Loki, and Skadi starts the board. Three scripted turns teach how a line scores, what
Loki, the Valkyrie's bookend and Fenrir's pack do, and what the other player can answer;
the fourth turn is the learner's own. The other player's answers are scripted (the moves
the greedy bot plays on this deal), so every host shows the same game; after the script
the greedy bot plays on. Targets are Völuspá's action targets (``{"cell": [x, y]}`` and the
tile), which the board highlights. ``tests/voluspa/test_guide.py`` checks the script.
"""

from __future__ import annotations

from meadhall.core.guide import Guide, GuideStep

GUIDE = Guide(
    title="Learn to play Völuspá",
    intro=(
        "Welcome to Völuspá. You and {1} take turns placing one tile from your hand next to the "
        "tiles on the table. A tile scores when it is the strongest tile of its row or column: "
        "you then score one point for every tile in that unbroken line. This guide picks your "
        "first three moves with you; you can skip it or start again at any time."
    ),
    steps=(
        GuideStep(
            say=(
                "Look at the board: Skadi (3) stands alone at 0,0. Loki is weak (1), but every "
                "tile beside him counts as 0. Place Loki at 1,0, right of Skadi: Skadi drops "
                "to 0, Loki is the strongest of the row, and the row's 2 tiles give you 2 points."
            ),
            target={"kind": "place", "tile": "LO", "cell": [1, 0]},
            expect=("LO@1,0",),
            then=("VA@-1,0",),
        ),
        GuideStep(
            say=(
                "{1} answered with a Valkyrie (2) at -1,0: 2 beats Loki's 1, so they took the whole "
                "row, 3 points. That is what the other player can always do: add a stronger tile "
                "to your line. Answer in kind: a Valkyrie at the other end, 2,0. Valkyries at "
                "both ends of a line (a bookend) dominate it whatever lies between: 4 points."
            ),
            target={"kind": "place", "tile": "VA", "cell": [2, 0]},
            expect=("VA@2,0",),
            then=("FE@-2,0",),
        ),
        GuideStep(
            say=(
                "{1} played Fenrir (4) at -2,0 and took the 5 tiles of the row. Fenrirs in one "
                "line hunt as a pack: their values add up. Place your Fenrir beside theirs at "
                "-3,0: the pack is worth 8, the strongest of the row, and the 6 tiles are yours. "
                "Mind that {1} may add a Fenrir of their own."
            ),
            target={"kind": "place", "tile": "FE", "cell": [-3, 0]},
            expect=("FE@-3,0",),
            then=("FE@3,0",),
        ),
        GuideStep(
            say=(
                "{1} did add a Fenrir, at 3,0: the pack of three is worth 12 and the row of 7 "
                "is theirs. Your turn, your choice: start a new line or take one back. Point at "
                "a cell first: the board tells you what a tile there would score."
            ),
        ),
    ),
    done=(
        "You have finished the guided game: you know how lines score, and what Loki, Valkyries "
        "and Fenrirs do. Play on against the bot, or read the rules for the other tiles."
    ),
    wrong="The guide asks for another move here. {step}",
    players=2,
    seed=7,
    options={"preset": "base"},
    seat=0,
    bot="greedy",
)
