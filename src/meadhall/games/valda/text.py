"""Valda drawn as text for the terminal: the god areas, the turn, the hand; ``cards`` and ``gods``.

Pure functions of a view (see :mod:`meadhall.core.text`); everything else the terminal
shows of Valda is its words (:mod:`meadhall.games.valda.words`). Names given are the
host's seat names (``Seat 2 (Ann)``).
"""

from __future__ import annotations

import textwrap
from collections.abc import Mapping, Sequence
from typing import Any

from meadhall.core.text import GameText, TextCommand, TextHost
from meadhall.games.valda.content import Content, describe_card
from meadhall.games.valda.state import SITES
from meadhall.games.valda.words import (
    GOD_ABILITIES,
    PHASE_NAMES,
    content_for,
    cost_text,
    die_face,
    resources_text,
    round_text,
)

WIDTH = 100


def god_name(content: Content, god: str) -> str:
    """``Odin``."""
    found = content.gods.get(god)
    return found.name if found is not None else god


def card_name(content: Content, card: str | None) -> str:
    """A card's name (its id if the pack does not know it)."""
    if card is None:
        return "no card"
    found = content.cards.get(card)
    return found.name if found is not None else card


def die_text(content: Content, colour: str, face: int) -> str:
    """``yellow 2 gold``: a die as rolled."""
    return f"{colour} {die_face(content, colour, face)}"


def card_text(content: Content, card: str) -> str:
    """``Raid: Attack 2: if not defended, ...``."""
    found = content.cards.get(card)
    if found is None:
        return card
    god = f" ({god_name(content, found.god)})" if found.god else ""
    return f"{found.name}{god}: {describe_card(found)}"


def card_lines(content: Content, cards: Sequence[str], prefix: str = "  ") -> list[str]:
    """Cards with their texts, wrapped."""
    lines: list[str] = []
    for card in cards:
        lines += textwrap.wrap(
            f"{card} = {card_text(content, card)}", WIDTH, initial_indent=prefix, subsequent_indent=prefix + "    "
        )
    return lines


def render_areas(view: Mapping[str, Any], content: Content, names: Sequence[str]) -> list[str]:
    """The seven god areas: temple cost, the five sites (seat numbers), locks."""
    lines = ["God areas (sites: the seat number of each temple, . = free):"]
    for god, owners in view["sites"].items():
        sites = " ".join([str(int(s) + 1) for s in owners] + ["."] * (SITES - len(owners)))
        lock = view["locks"].get(god)
        locked = f"  locked by {names[int(lock)]}" if lock is not None else ""
        lent = "  (lent this turn)" if god in view.get("lent", []) else ""
        cost = cost_text(content.gods[god].temple_cost) if god in content.gods else "?"
        lines.append(f"  {god_name(content, god):<9} [{sites}]  cost {cost}{locked}{lent}")
    return lines


def render_turn(view: Mapping[str, Any], content: Content, names: Sequence[str]) -> list[str]:
    """Round, whose turn, phase, actions and builds left, the dice, the open cards, the attack."""
    race = bool((view.get("options") or {}).get("race-to-the-gods"))
    rounds = round_text(int(view["round"]), int(view["last_round"]), race)
    if view["finished"]:
        return [f"{rounds}: the game is over."]
    current = int(view["current"])
    phase = PHASE_NAMES.get(view["phase"], view["phase"])
    lines = [f"{rounds}, {names[current]}'s turn: {phase}."]
    if view["phase"] == "game":
        free = f", {view['free_yellow']} free yellow" if view["free_yellow"] else ""
        lines.append(f"  Actions left: {view['actions']}{free}.")
    if view["phase"] == "building":
        lines.append(f"  Buildings left this phase: {view['builds']}.")
    if view["dice"]:
        lines.append("  Dice: " + ", ".join(die_text(content, colour, face) for colour, face in view["dice"]) + ".")
    if view["open"] is not None and view["open"]:
        lines.append("  Open cards: " + ", ".join(f"{c} ({card_name(content, c)})" for c in view["open"]) + ".")
    elif view["open_count"]:
        lines.append(f"  Open cards: {view['open_count']}, seen by {names[current]} alone (Freya).")
    attack = view.get("attack") or {}
    if attack.get("card"):
        lines.append(
            f"  Attack: {names[int(attack['attacker'])]} on {names[int(attack['target'])]} with "
            f"{card_name(content, attack['card'])}, power {attack.get('power', 0)}, "
            f"defence {attack.get('defence', 0)}."
        )
    return lines


def render_hand(view: Mapping[str, Any], content: Content, name: str) -> list[str]:
    """The viewer's resources, hand with every card's text, and the cards it knows lie under the decks."""
    hand = view.get("hand") or []
    lines = (
        [f"Your hand, {name} ({len(hand)} card{'' if len(hand) == 1 else 's'}):", *card_lines(content, hand)]
        if hand
        else [f"Your hand, {name}: no cards."]
    )
    under = []  # cards the viewer saw go under a deck ("?": one it did not see)
    for deck, cards in (view.get("bottoms") or {}).items():
        if any(cards):
            where = "base deck" if deck == "base" else f"{god_name(content, deck)}'s deck"
            under.append(f"{where}: " + ", ".join(card_name(content, c) if c else "?" for c in cards))
    if under:
        lines.append("Under the decks, from the bottom: " + "; ".join(under))
    seat = view.get("seat")
    if isinstance(seat, int) and view.get("seats"):
        mine = view["seats"][seat]
        followers = int(mine["followers"])
        lines.append(
            f"You have {resources_text(mine['resources'])}; {followers} follower{'' if followers == 1 else 's'}."
        )
    return lines


def cmd_cards(host: TextHost, rest: str) -> None:
    """``cards CARD``: one card's text; ``cards``: the open cards' texts (your hand: ``hand``)."""
    view = host.public_view()
    content = content_for(view)
    if rest:
        wanted = rest.strip().lower()
        card = next((c.id for c in content.cards.values() if wanted in (c.id, c.name.lower())), None)
        if card is None:
            host.say(f"There is no card {rest.strip()!r}; card names look like raid or gold-vein.")
        else:
            for line in card_lines(content, [card], ""):
                host.say(line)
        return
    if view.get("open"):
        host.say("Open cards:")
        for line in card_lines(content, view["open"]):
            host.say(line)
    elif view.get("open_count"):
        host.say(f"The {view['open_count']} open cards are seen by the player whose turn it is alone (Freya).")
    else:
        host.say("There are no open cards.")
    host.say("Your own cards, with their texts: 'hand'. One card: 'cards CARD'.")


def cmd_gods(host: TextHost, rest: str) -> None:
    """``gods``: temple costs and divine abilities."""
    del rest
    content = content_for(host.public_view())
    for god in content.gods.values():
        host.say(f"  {god.name:<9} temple {cost_text(god.temple_cost)}; {GOD_ABILITIES.get(god.id, god.deck_theme)}")


class ValdaText(GameText):
    """Valda in the terminal: the god areas and the turn; the hand with every card's text."""

    numbers_actions = True  # ``move:odin>thor``, ``defend:round-shield``: a number is quicker to type

    def board(self, view: Mapping[str, Any], names: Sequence[str]) -> list[str]:
        """The god areas, then the turn (dice, open cards, an attack)."""
        content = content_for(view)
        return [*render_areas(view, content, names), *render_turn(view, content, names)]

    def hand(self, view: Mapping[str, Any], name: str) -> list[str]:
        """``Your hand, Seat 1 (You) (6 cards):`` and each card's text; your resources."""
        return render_hand(view, content_for(view), name)

    def commands(self) -> dict[str, TextCommand]:
        """``cards`` and ``gods``."""
        return {"cards": cmd_cards, "gods": cmd_gods}

    def commands_help(self) -> list[str]:
        """The two commands."""
        return [
            "  cards [CARD]     the text of a card (or of every open card)",
            "  gods             the gods: temple costs and abilities",
        ]


TEXT = ValdaText()
