"""Blood Rage: Valhalla drawn as text for the terminal: the map, the battle, your cards, ``explain``.

Pure functions of a view (see :mod:`meadhall.core.text`) with the view's content pack;
everything else the terminal shows of Blood Rage is its words
(:mod:`meadhall.games.bloodrage_valhalla.words`).
"""

from __future__ import annotations

import textwrap
from collections.abc import Mapping, Sequence
from typing import Any

from meadhall.core.errors import MalformedAction
from meadhall.core.game import Action
from meadhall.core.text import GameText, TextCommand, TextHost
from meadhall.core.words import fill
from meadhall.games.bloodrage_valhalla.content import Content, Region
from meadhall.games.bloodrage_valhalla.notation import parse_action
from meadhall.games.bloodrage_valhalla.words import (
    REWARD_WORDS,
    battle_lines,
    card_name,
    card_text,
    content_for,
    describe_action,
    effects_text,
    figure_name,
    god_name,
    region_name,
    region_strength,
)

WIDTH = 110


def _plain(text: str) -> str:
    """A text of the words (placeholders and doubled braces) as it is printed, with no seat in it."""
    return fill(text, ())


def short_seat(seat: int) -> str:
    """``Seat1`` (the compact form on the map)."""
    return f"Seat{seat + 1}"


def _hub(content: Content) -> bool:
    """True if Valhalla borders every other region (the default map)."""
    valhalla = content.valhalla
    return all(valhalla in r.neighbours for r in content.regions.values() if not r.valhalla)


def region_marks(view: Mapping[str, Any], content: Content, region: Region) -> str:
    """``common, +Rage``, ``god Thor, valor``, ``closed (token 3)``, with ``, claimed``."""
    rid = region.id
    gods_at = view.get("gods_at") or {}
    if rid in (view.get("region_tokens") or []):
        marks = f"closed (token {region.token})"
    elif rid in gods_at:
        marks = f"god {_plain(god_name(content, gods_at[rid]))}, valor"
    elif region.valhalla:
        marks = f"valor, {REWARD_WORDS.get(region.reward, region.reward)}"
    else:
        marks = f"common, {REWARD_WORDS.get(region.reward, region.reward)}"
    if rid in (view.get("claimed") or []):
        marks += ", claimed"
    return marks


def figures_short(content: Content, kinds: Sequence[str]) -> str:
    """``2W 1E + Ogre Chieftain`` (``W`` warriors, ``E`` elites): the map's compact form, ``-`` if empty."""
    warriors, elites = kinds.count("warrior"), kinds.count("elite")
    counts = " ".join(([f"{warriors}W"] if warriors else []) + ([f"{elites}E"] if elites else []))
    monsters = sorted(_plain(figure_name(content, k)) for k in kinds if k not in ("warrior", "elite"))
    return " + ".join(([counts] if counts else []) + monsters) or "-"


def region_figures(view: Mapping[str, Any], content: Content, region: str) -> str:
    """``Seat1 2W 1E =3, Seat3 Ogre Chieftain =3`` (``=N``: the clan's STR there)."""
    figures = view["board"][region]
    parts = []
    for seat in sorted({int(owner) for owner, _ in figures}):
        kinds = [str(kind) for owner, kind in figures if owner == seat]
        parts.append(f"{short_seat(seat)} {figures_short(content, kinds)} ={region_strength(view, region, seat)}")
    return ", ".join(parts) if parts else "-"


def _pile_text(content: Content, pile: Sequence[Sequence[Any]]) -> str:
    owners = sorted({int(owner) for owner, _ in pile})
    return ", ".join(
        f"{short_seat(o)} {figures_short(content, [str(k) for owner, k in pile if owner == o])}" for o in owners
    )


def gods_lines(view: Mapping[str, Any], content: Content) -> list[str]:
    """Where each god of the game is (or which Age it comes in) and what its favour gives."""
    where = {god: region for region, god in (view.get("gods_at") or {}).items()}
    lines = []
    for age, god in enumerate(view.get("gods") or [], start=1):
        found = content.gods.get(god)
        bonus = _plain(effects_text(found.bonus)) if found is not None else "?"
        name = _plain(god_name(content, god))
        if god in where:
            text = f"{name} (Age {age}) in {_plain(region_name(content, where[god]))}: win a contest there to {bonus}."
            lines.extend(textwrap.wrap(text, WIDTH, initial_indent="  ", subsequent_indent="    "))
        else:
            lines.append(f"  {name} arrives in Age {age}.")
    return lines


def render_map(view: Mapping[str, Any]) -> list[str]:
    """The regions: neighbours, markers and every clan's figures; then the gods, kill piles and spent cards."""
    content = content_for(view)
    hub = _hub(content)
    rows: list[tuple[str, str, str, str]] = []
    for region in content.regions.values():
        if region.valhalla and hub:
            near = "~ every region"
        else:
            near = "~ " + ", ".join(
                _plain(region_name(content, n)) for n in region.neighbours if not (hub and n == content.valhalla)
            )
        rows.append((region.name, near, region_marks(view, content, region), region_figures(view, content, region.id)))
    name_width = max(len(row[0]) for row in rows)
    near_width = max(len(row[1]) for row in rows)
    mark_width = max(len(row[2]) for row in rows)
    head = f"Map, Age {view['age']}"
    if hub:
        head += " (Valhalla borders every region; ~ lists a region's other neighbours)"
    lines = [head + ":"]
    for name, near, marks, figures in rows:
        lines.append(f"  {name.ljust(name_width)}  {near.ljust(near_width)}  {marks.ljust(mark_width)} : {figures}")
    age = int(view["age"])
    valor = content.valor_glory[age - 1] if 1 <= age <= 3 else 0
    legend = (
        "W Warrior, E Elite, =N a clan's STR there. Summon only into common regions; +X is what winning a "
        f"contest there raises; valor: Prove Valor at the end of the Age, {valor} Glory a figure."
    )
    lines.extend(textwrap.wrap(legend, WIDTH, initial_indent="  ", subsequent_indent="    "))
    lines.extend(gods_lines(view, content))
    piles = [
        f"{short_seat(holder)} holds {_pile_text(content, pile)}"
        for holder, pile in enumerate(view.get("killpiles") or [])
        if pile
    ]
    if view.get("feast"):
        piles.append(f"Feast Hall: {_pile_text(content, view['feast'])}")
    if piles:
        lines.append("  Kill piles: " + "; ".join(piles) + " (back to their clans at the end of the Age)")
    if view.get("spent"):
        spent = ", ".join(_plain(card_name(content, str(card))) for card in view["spent"])
        lines.append(f"  Spent (removed from the game): {spent}")
    return lines


def card_lines(content: Content, card: str, prefix: str = "  ") -> list[str]:
    """A card with its id, name and text, wrapped."""
    text = f"{prefix}{card}  {_plain(card_text(content, card))}"
    return textwrap.wrap(text, WIDTH, subsequent_indent=" " * (len(prefix) + 4)) or [text]


def _cards(content: Content, cards: Sequence[str]) -> list[str]:
    return [line for card in cards for line in card_lines(content, card)]


def render_hand(view: Mapping[str, Any], name: str) -> list[str]:
    """The viewer's hand with names, STR and texts; quests, kept and drafted cards; the battle card."""
    content = content_for(view)
    hand = list(view.get("hand") or [])
    lines = [f"Your hand, {name}: " + (f"{len(hand)} card{'' if len(hand) == 1 else 's'}" if hand else "empty")]
    lines += _cards(content, hand)
    if view.get("my_quests"):
        lines.append("Your quests, face down on your clan sheet:")
        lines += _cards(content, list(view["my_quests"]))
    if view.get("my_saved"):
        lines.append("Kept from the last Age (they join your hand after the draft):")
        lines += _cards(content, list(view["my_saved"]))
    if view.get("my_drafted"):
        lines.append(f"Drafted this Age ({len(view['my_drafted'])} of {view['draft_keep']}):")
        lines += _cards(content, list(view["my_drafted"]))
    if "my_card" in view:
        lines.append(f"Your card in the battle, face down: {_plain(card_name(content, view.get('my_card')))}")
    return lines


def render_pack(view: Mapping[str, Any]) -> list[str]:
    """The draft pack in front of the viewer."""
    pack = list(view.get("pack") or [])
    if not pack:
        return []
    content = content_for(view)
    age = int(view["age"])
    direction = "right" if age == 2 else "left"
    pick = len(view.get("my_drafted") or []) + 1
    lines = [f"Your pack (Age {age}, pick {pick} of {view['draft_keep']}; the rest passes {direction}):"]
    lines += _cards(content, pack)
    if view.get("my_pick"):
        lines.append(f"Your pick this round: {_plain(card_name(content, view['my_pick']))} (waiting for the others)")
    return lines


def cmd_explain(host: TextHost, rest: str) -> None:
    """``explain ACTION``: what it does and whether it may be played now; ``explain``: the last turn."""
    if not rest:
        host.show_last_turn("Nothing has been played yet. Try 'explain summon:warrior@gladsheim'.")
        return
    try:
        steps: list[Action] = [parse_action(token) for token in rest.split()]
    except MalformedAction as error:
        host.say(f"Cannot read that action: {error}")
        return
    view = host.public_view()
    seat = host.seat_to_move()
    for step in steps:
        host.say(f"{step}: {_plain(describe_action(parse_action(str(step)), view, seat))}")
    if seat is None:
        host.say("It is nobody's decision at this device now.")
        return
    problem = host.check_steps(seat, steps)
    host.say("You can do it now." if problem is None else f"But you cannot do it now: {problem}")


class BloodRageText(GameText):
    """Blood Rage in the terminal: the map (and the battle in progress), your cards and pack."""

    numbers_actions = True  # kill:valhalla:1:warrior is long to type: 'hint' numbers the actions

    def board(self, view: Mapping[str, Any], names: Sequence[str]) -> list[str]:
        """The map; the battle in progress below it."""
        battle = [fill(line, names) for line in battle_lines(view)]
        return [*render_map(view), *(["", *battle] if battle else [])]

    def hand(self, view: Mapping[str, Any], name: str) -> list[str]:
        """The hand, quests, kept and drafted cards; the pack while drafting."""
        lines = render_hand(view, name)
        if view.get("phase") == "draft":
            lines += render_pack(view)
        return lines

    def commands(self) -> dict[str, TextCommand]:
        """``explain``."""
        return {"explain": cmd_explain}

    def commands_help(self) -> list[str]:
        """The two forms of ``explain``."""
        return [
            "  explain ACTION   what ACTION would do now, and whether you may",
            "  explain          the last turn again",
        ]


TEXT = BloodRageText()
