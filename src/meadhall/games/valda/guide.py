"""Valda's guided first game: a script of prompts against a bot, on a fixed deal.

Two players, the default content, seed 1: the learner (seat 0) is the start player. The
script is the learner's whole first turn, phase by phase: the dice are rolled (the
resource phase), three actions in the game phase (two yellow cards and a resource), a
temple of Odin in the building phase and the god card it brings, the other player's attack
held off with a defence card, and Odin's ability in the followers phase. The other
player's attack is scripted, so every host shows the same game; windows where a seat can
only pass are played for it (:mod:`meadhall.core.guide`). After the script the greedy bot
plays on. Targets are Valda's action targets (a card, a god area, a resource), which the
board highlights. ``tests/valda/test_guide.py`` checks the script.
"""

from __future__ import annotations

from meadhall.core.guide import Guide, GuideStep

GUIDE = Guide(
    title="Learn to play Valda",
    intro=(
        "Welcome to Valda. For six rounds you and {1} take turns; a turn has five phases: "
        "resources (your mines roll the dice), game (three actions), building (up to two "
        "buildings), attack (the other player may attack you) and followers. Followers are the "
        "score: whoever has the most after the sixth round wins. This guide plays your first "
        "turn with you; you can skip it or start again at any time."
    ),
    steps=(
        GuideStep(
            say=(
                "Your two mines have rolled their dice: look at your stock, 2 divine blood, 3 gold "
                "and 2 diamonds. Now the game phase: you have 3 actions. A yellow card costs one "
                "action. Play Blood Offering: it gives 2 divine blood, where taking a resource "
                "would give only one."
            ),
            target={"kind": "play", "card": "blood-offering"},
            expect=("play:blood-offering",),
        ),
        GuideStep(
            say=(
                "Second action: play Prayer, a yellow card that gains you a follower. Followers "
                "are the score, and the track has safe marks at 5, 12 and 20 that an attack "
                "cannot take you below."
            ),
            target={"kind": "play", "card": "prayer"},
            expect=("play:prayer",),
        ),
        GuideStep(
            say=(
                "Last action: take 1 resource of your choice. Take a diamond: with 4 divine "
                "blood, 3 gold and 3 diamonds you can pay for a temple of Odin (2 divine blood, "
                "3 gold, 3 diamonds) in the building phase. The open cards you did not use go to "
                "the discard pile when the phase ends."
            ),
            target={"kind": "take", "resource": "diamond"},
            expect=("take:diamond",),
        ),
        GuideStep(
            say=(
                "Building phase: you may build up to two buildings. Build a temple in Odin's area: "
                "a temple brings a follower at once and a card from its god's deck, and Odin's "
                "ability: in your followers phase, 2 divine blood become 1 follower (up to 3 "
                "times)."
            ),
            target={"kind": "build", "god": "odin"},
            expect=("build:odin",),
        ),
        GuideStep(
            say=(
                "You look at the top two cards of Odin's deck: keep one, the other goes under the "
                "deck. Keep Valkyrie Host, a defence card of 4: the attack phase comes next, and "
                "there {1} may attack you with a card from their hand."
            ),
            target={"kind": "keep", "card": "valkyrie-host"},
            expect=("keep:valkyrie-host",),
            then=("attack:desecration",),
        ),
        GuideStep(
            say=(
                "{1} attacks you with Desecration, attack power 4: if you do not hold it off, they "
                "destroy one of your temples. Defence cards hold off an attack when their defence "
                "ties or beats its power. Defend with Valkyrie Host: 4 against 4 is a tie, so "
                "your temple stands."
            ),
            target={"kind": "defend", "card": "valkyrie-host"},
            expect=("defend:valkyrie-host",),
        ),
        GuideStep(
            say=(
                "Followers phase: use Odin's ability, your 2 divine blood for 1 follower. You end "
                "your first turn with 3 followers: Prayer's, the temple's and Odin's."
            ),
            target={"kind": "odin"},
            expect=("odin",),
        ),
        GuideStep(
            say=(
                "Now {1} plays their turn. In its attack phase you may attack them with an attack "
                "card from your hand (Cutpurse), or not attack; when nothing in your hand answers "
                "a moment, the table passes for you. From here on every choice is yours."
            ),
        ),
    ),
    done=(
        "You have finished the guided game: you know the five phases of a turn, how temples "
        "bring followers and abilities, and how a defence holds off an attack. Play on against "
        "the bot to the end of the sixth round."
    ),
    wrong="The guide asks for another move here. {step}",
    players=2,
    seed=1,
    options={},
    seat=0,
    bot="greedy",
)
