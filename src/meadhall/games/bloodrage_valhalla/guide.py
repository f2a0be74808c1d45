"""Blood Rage: Valhalla's guided first game: a script of prompts against bots, on a fixed deal.

Three players (the fewest the game allows), the first-game preset, seed 1: the learner
(seat 0) drafts the five cards of the first Age with the others, each pick teaching a kind
of card (battle, monster, upgrade, quest); then, in the Action phase, plays an upgrade and
summons an Elite, and fights the battle the others start over the region it stands in.
The draft and the battle cards are chosen by every clan at once: the others' choices are
scripted per seat (:mod:`meadhall.core.guide`), so every host shows the same game
whichever clan decides first. After the script the greedy bots play on. Targets are Blood
Rage's action targets (a card, a region), which the board highlights.
``tests/bloodrage_valhalla/test_guide.py`` checks the script.
"""

from __future__ import annotations

from meadhall.core.guide import Guide, GuideStep

GUIDE = Guide(
    title="Learn to play Blood Rage: Valhalla",
    intro=(
        "Welcome to Blood Rage: Valhalla. You lead a clan against {1} and {2} over three Ages. "
        "Each Age begins with a draft of the gods' cards, then clans take turns spending Rage on "
        "actions: summon figures, march, upgrade, commit to quests, contest regions. Glory "
        "decides the winner. This guide plays your first Age's draft and first actions with "
        "you; you can skip it or start again at any time."
    ),
    steps=(
        GuideStep(
            say=(
                "The draft: every clan keeps 1 card of its pack at the same time, then passes the "
                "rest to the left, until each has kept 5. Keep Crushing Advance, a battle card: in "
                "a battle it adds 4 to your strength, and when revealed it destroys an enemy "
                "Warrior there. What you pass on, the next clan may keep."
            ),
            target={"kind": "pick", "card": "tyr-06"},
            expect=("pick:tyr-06",),
            then=("pick:thor-03", "pick:tyr-01"),
        ),
        GuideStep(
            say=(
                "A new pack came from your right: the clan there kept one of its cards. Keep "
                "Lightning Warrior, a monster: played as an upgrade (3 Rage) it joins your reserve, "
                "and it is summoned for no Rage, a figure of strength 3."
            ),
            target={"kind": "pick", "card": "monster-lightning-warrior"},
            expect=("pick:monster-lightning-warrior",),
            then=("pick:thor-02", "pick:tyr-15"),
        ),
        GuideStep(
            say=(
                "Keep Champions of Thrudheim, an Elite upgrade: for 1 Rage your Elites fight with "
                "+1 strength. Elites and Warriors start at strength 1."
            ),
            target={"kind": "pick", "card": "thor-11"},
            expect=("pick:thor-11",),
            then=("pick:tyr-03", "pick:loki-01"),
        ),
        GuideStep(
            say=(
                "Keep Overwhelming Host, a quest: commit to it face down (no Rage), and if at the "
                "Quest phase you have more figures on the board than every other clan, you raise a "
                "clan stat and gain Glory equal to your Horns."
            ),
            target={"kind": "pick", "card": "tyr-25"},
            expect=("pick:tyr-25",),
            then=("pick:loki-14", "pick:loki-04"),
        ),
        GuideStep(
            say=(
                "The last pick: keep Sky-Treading Shoes, a clan upgrade. The card left over goes "
                "to the bottom of the deck."
            ),
            target={"kind": "pick", "card": "loki-16"},
            expect=("pick:loki-16",),
            then=("pick:loki-05", "pick:loki-11"),
        ),
        GuideStep(
            say=(
                "The Action phase: you start it with 6 Rage, your Rage stat. Each turn you take one "
                "action and pay its Rage; with no Rage left you take no more actions. Play "
                "Champions of Thrudheim as an upgrade (1 Rage): from now on your Elites have "
                "strength 2."
            ),
            target={"kind": "upgrade", "card": "thor-11"},
            expect=("upgrade:thor-11",),
            then=("summon:elite@folkvang", "summon:elite@thrudheim"),
        ),
        GuideStep(
            say=(
                "{1} summoned an Elite into Folkvang, {2} one into Thrudheim. Summon your Elite "
                "into Thrudheim too (1 Rage): a region's reward goes to the clan that wins a "
                "contest there, and your Elite is stronger than theirs."
            ),
            target={"kind": "summon", "figure": "elite", "region": "thrudheim"},
            expect=("summon:elite@thrudheim",),
            then=("summon:elite@bilskirnir", "contest:thrudheim", "join:elite@folkvang"),
        ),
        GuideStep(
            say=(
                "{2} contests Thrudheim and {1} joined the battle with their Elite from Folkvang. "
                "Every clan in the battle now chooses one card face down; all are revealed at once. "
                "Play Crushing Advance: your Elite (2) and its +4 make 6. The highest strength "
                "wins; the losers' figures die, and the winner gains Glory equal to their Axes."
            ),
            target={"kind": "play", "card": "tyr-06"},
            expect=("play:tyr-06",),
            then=("play:loki-14", "play:loki-04"),
        ),
        GuideStep(
            say=(
                "You won with 6 against {2}'s 5 and {1}'s 1: both their Elites die, and you gain 3 "
                "Glory, your Axes. {2} started the contest and lost, so Thrudheim's reward stays "
                "for a later contest. From here on every choice is yours: spend your Rage well."
            ),
        ),
    ),
    done=(
        "You have finished the guided game: you know the draft, Rage and actions, upgrades, "
        "quests and battles. Play on against the bots to the end of the third Age."
    ),
    wrong="The guide asks for another move here. {step}",
    players=3,
    seed=1,
    options={"preset": "first-game"},
    seat=0,
    bot="greedy",
)
