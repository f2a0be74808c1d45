"""Blood Rage: Valhalla in the terminal: map, clan sheets, cards, battles and events.

:class:`BloodRageRenderer` is the :class:`~meadhall.cli.play.Renderer` that
:class:`~meadhall.cli.play.TerminalGame` uses for ``meadhall play bloodrage-valhalla``.
The functions below it render a seat's *view* (never a state) with the game's content
pack (region, card and monster names and texts); they can be used on their own.

Every decision is one action in Blood Rage notation (``summon:warrior@gladsheim``,
``pick:thor-07``, ...) or the number ``hint`` gives it; a march fits in one line
(``march:gladsheim move:warrior>valhalla done``). Simultaneous decisions (draft picks,
battle cards, the cards kept at the end of an Age) are made one person at a time behind the
pass-the-device screen; the engine keeps each choice hidden until all have chosen.
"""

from __future__ import annotations

import json
import textwrap
from collections.abc import Hashable, Iterable, Mapping, Sequence
from typing import Any

from meadhall.cli.play import CONTINUE, Command, Renderer, TerminalGame, numbered_or_notation, ordinal, plural
from meadhall.core.errors import MalformedAction
from meadhall.core.game import Action, Event, GameState
from meadhall.games.bloodrage_valhalla.content import (
    STATS,
    Content,
    Region,
    describe_card,
    describe_condition,
    describe_effect,
)
from meadhall.games.bloodrage_valhalla.game import content_of, default_content
from meadhall.games.bloodrage_valhalla.notation import BRAction
from meadhall.games.bloodrage_valhalla.state import KEEP_AT_AGE_END, SLOTS

DEFAULT_SAVE = "meadhall-bloodrage-save.json"
WIDTH = 110

STAT_NAMES = {"rage": "Rage", "axes": "Axes", "horns": "Horns"}
REWARD_WORDS = {"rage": "+Rage", "axes": "+Axes", "horns": "+Horns", "choice": "+any stat", "all": "+all stats"}
PHASE_NAMES = {
    "setup": "setup",
    "draft": "draft",
    "action": "Action phase",
    "march": "Action phase",
    "call": "Call to Battle",
    "battle": "battle",
    "resolving": "battle",
    "quest": "Quest phase",
    "valor": "Prove Valor",
    "keep": "end of the Age",
    "over": "game over",
}
#: Events after which the seat that acted has finished its turn even if it decides next.
TURN_BOUNDARIES = frozenset({"turn", "packs-passed", "draft-over", "dealt", "quest-phase", "game-over"})

#: How ``hint`` groups actions: (group, action kinds, what it costs or means), in order.
HINT_GROUPS: tuple[tuple[str, tuple[str, ...], str], ...] = (
    ("pick", ("pick",), "keep one card of your pack"),
    ("play", ("play",), "your battle card, face down"),
    ("drop", ("drop", "keep"), "remove a card from the game; keep the rest"),
    ("summon", ("summon",), "1 Rage, monsters free; into a common region"),
    ("march", ("march",), "1 Rage; then move its figures one by one"),
    ("move", ("move", "done"), "move a marching figure; done ends the march"),
    ("upgrade", ("upgrade",), "costs its STR in Rage"),
    ("quest", ("quest",), "free; face down"),
    ("contest", ("contest",), "free; where you have a figure"),
    ("join", ("join", "stay"), "Call to Battle: one figure in, or stay"),
    ("raise", ("raise",), "one step; none: no raise"),
    ("destroy", ("destroy",), "an enemy figure in the battle"),
    ("kill", ("kill",), "an enemy figure anywhere"),
    ("reinforce", ("reinforce",), "from your reserve into the battle"),
    ("skip", ("skip",), "stop"),
    ("pass", ("pass",), "your Rage drops to 0"),
)

NOTATION_HELP = """\
Actions (Blood Rage notation; or type the number 'hint' shows next to an action):
  pick:thor-07                 draft: keep this card of your pack (the rest passes on)
  summon:warrior@gladsheim     summon a warrior, elite or monster (by id) into a common region
  march:gladsheim              march from a region (1 Rage), then
  move:elite>valhalla          move its figures one at a time to adjacent regions, and
  done                         end the march; a march fits in one line:
                                 march:gladsheim move:warrior>valhalla move:elite>glitnir done
  upgrade:CARD / quest:CARD    play an upgrade (its STR in Rage) / commit to a quest (free)
  contest:folkvang             start a contest where you have a figure
  pass                         pass: your Rage drops to 0 for the rest of the Action phase
  join:warrior@gladsheim       Call to Battle: move a figure in from an adjacent region ...
  stay                         ... or not
  play:CARD / play:none        the card you put into a battle, face down
  drop:CARD / keep             end of an Age: remove a card from the game / keep the rest (three at most)
  raise:axes / raise:none      raise a stat of your choice (rage, axes, horns) / none (a quest's raise)
  destroy:SEAT:KIND            destroy an enemy figure in the battle (SEAT counts from 0: 1 = Seat 2)
  kill:REGION:SEAT:KIND / skip destroy an enemy figure anywhere (Tyr), or stop
  reinforce:KIND / skip        summon a figure from your reserve into the battle, or stop"""

COMMANDS_HELP = """\
Commands:
  hint [GROUP]     your legal actions, numbered (GROUP: summon, march, upgrade, quest, contest, pick, ...)
  explain ACTION   what ACTION would do now, and whether you may (ACTION may be a number from 'hint')
  explain          the last turn again
  map              the map: regions, neighbours, gods, tokens, claims and every clan's figures (or 'board')
  clans            every clan sheet: Glory, Rage, stats, upgrades, quests, cards, reserve (or 'scores')
  hand             your cards (and your pack while drafting)
  battle           the battle in progress
  cards [GOD|CARD|monsters]   a god's deck, one card, or the monsters
  log [N|all]      the last N events you may see (default 20)
  save FILE        save the game (the file holds the seed: it replays every hand)
  load FILE        load a saved game
  help             this text
  quit             leave (you are offered to save)"""


# --- names -------------------------------------------------------------------------------


def region_name(content: Content, region: str) -> str:
    """``Gladsheim``."""
    found = content.regions.get(region)
    return found.name if found is not None else region


def card_name(content: Content, card: str | None) -> str:
    """``Giant-Slayer`` (``no card`` for None)."""
    if card is None or card == "none":
        return "no card"
    found = content.cards.get(card)
    return found.name if found is not None else card


def god_name(content: Content, god: str) -> str:
    """``Thor``."""
    found = content.gods.get(god)
    return found.name if found is not None else god


def figure_name(content: Content, kind: str) -> str:
    """``Warrior``, ``Elite`` or a monster's name."""
    if kind in ("warrior", "elite"):
        return kind.capitalize()
    monster = content.monsters.get(kind)
    return monster.name if monster is not None else kind


def figures_text(content: Content, kinds: Iterable[str]) -> str:
    """``2W 1E + Ogre Chieftain + Draugr``."""
    listed = list(kinds)
    warriors = listed.count("warrior")
    elites = listed.count("elite")
    counts = " ".join(([f"{warriors}W"] if warriors else []) + ([f"{elites}E"] if elites else []))
    parts = ([counts] if counts else []) + sorted(
        figure_name(content, k) for k in listed if k not in ("warrior", "elite")
    )
    return " + ".join(parts) if parts else "none"


def a_figure(content: Content, kind: str) -> str:
    """``a Warrior``, ``an Elite``, ``an Ogre Chieftain``."""
    name = figure_name(content, kind)
    return ("an " if name[:1].lower() in "aeiou" else "a ") + name


def effects_text(effects: Iterable[Any]) -> str:
    """Effects in words, joined: ``raise a stat of your choice one step; gain 4 Glory``."""
    texts = [describe_effect(e) for e in effects]
    return "; ".join(t[:1].lower() + t[1:] for t in texts)


def short_seat(seat: int) -> str:
    """``Seat1`` (the compact form on the map)."""
    return f"Seat{seat + 1}"


def card_text(content: Content, card: str) -> str:
    """``Giant-Slayer [Thor]: Battle, STR +2. When revealed: ...``."""
    found = content.cards.get(card)
    if found is None:
        return card
    owner = god_name(content, found.god) if found.god else "monster"
    return f"{found.name} [{owner}]: {describe_card(found, content)}"


def card_lines(content: Content, card: str, prefix: str = "  ") -> list[str]:
    """A card with its id, name and text, wrapped."""
    text = f"{prefix}{card}  {card_text(content, card)}"
    return textwrap.wrap(text, WIDTH, subsequent_indent=" " * (len(prefix) + 4)) or [text]


# --- strength (from the view, as the engine counts it) ----------------------------------------


def region_strength(content: Content, view: Mapping[str, Any], region: str, seat: int) -> int:
    """A clan's STR in a region, as the engine counts it (figures, upgrades, monsters' auras)."""
    del content
    return int((view.get("strength") or {}).get(region, {}).get(str(seat), 0))


def battle_card(view: Mapping[str, Any], seat: int) -> str | None:
    """The card ``seat`` played into the battle, once the cards are revealed."""
    battle = view.get("battle") or {}
    if not battle.get("revealed"):
        return None
    card = (battle.get("cards") or {}).get(str(seat))
    return str(card) if card else None


def battle_strength(content: Content, view: Mapping[str, Any], seat: int) -> int:
    """A participant's STR in the battle: figures, effects and (once revealed) its card."""
    battle = view["battle"]
    total = region_strength(content, view, battle["region"], seat) + int(battle["bonus"].get(str(seat), 0))
    card = battle_card(view, seat)
    if card is not None:
        found = content.cards.get(card)
        if found is not None and found.kind == "battle":
            total += found.strength
    return total


# --- the map ---------------------------------------------------------------------------


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
        marks = f"god {god_name(content, gods_at[rid])}, valor"
    elif region.valhalla:
        marks = f"valor, {REWARD_WORDS.get(region.reward, region.reward)}"
    else:
        marks = f"common, {REWARD_WORDS.get(region.reward, region.reward)}"
    if rid in (view.get("claimed") or []):
        marks += ", claimed"
    return marks


def region_figures(view: Mapping[str, Any], content: Content, region: str) -> str:
    """``Seat1 2W 1E =3, Seat3 Ogre Chieftain =3`` (``=N``: the clan's STR there)."""
    figures = view["board"][region]
    owners = sorted({int(owner) for owner, _ in figures})
    parts = []
    for seat in owners:
        kinds = [str(kind) for owner, kind in figures if owner == seat]
        parts.append(
            f"{short_seat(seat)} {figures_text(content, kinds)} ={region_strength(content, view, region, seat)}"
        )
    return ", ".join(parts) if parts else "-"


def render_map(view: Mapping[str, Any], content: Content) -> list[str]:
    """The 9 regions: neighbours, markers and every clan's figures; then gods and kill piles."""
    regions = list(content.regions.values())
    hub = _hub(content)
    rows: list[tuple[str, str, str, str]] = []
    for region in regions:
        if region.valhalla and hub:
            near = "~ every region"
        else:
            near = "~ " + ", ".join(
                region_name(content, n) for n in region.neighbours if not (hub and n == content.valhalla)
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
    piles = []
    for holder, pile in enumerate(view.get("killpiles") or []):
        if pile:
            piles.append(f"{short_seat(holder)} holds {_pile_text(content, pile)}")
    if view.get("feast"):
        piles.append(f"Feast Hall: {_pile_text(content, view['feast'])}")
    if piles:
        lines.append("  Kill piles: " + "; ".join(piles) + " (back to their clans at the end of the Age)")
    if view.get("spent"):
        spent = ", ".join(card_name(content, str(card)) for card in view["spent"])
        lines.append(f"  Spent (removed from the game): {spent}")
    return lines


def _pile_text(content: Content, pile: Sequence[Sequence[Any]]) -> str:
    owners = sorted({int(owner) for owner, _ in pile})
    return ", ".join(
        f"{short_seat(o)} {figures_text(content, [str(k) for owner, k in pile if owner == o])}" for o in owners
    )


def gods_lines(view: Mapping[str, Any], content: Content) -> list[str]:
    """Where each god of the game is (or which Age it comes in) and what its favour gives."""
    where = {god: region for region, god in (view.get("gods_at") or {}).items()}
    parts = []
    for age, god in enumerate(view.get("gods") or [], start=1):
        found = content.gods.get(god)
        bonus = effects_text(found.bonus) if found is not None else "?"
        if god in where:
            text = (
                f"{god_name(content, god)} (Age {age}) in {region_name(content, where[god])}: win a contest there to "
            )
            parts.extend(textwrap.wrap(text + bonus + ".", WIDTH, initial_indent="  ", subsequent_indent="    "))
        else:
            parts.append(f"  {god_name(content, god)} arrives in Age {age}.")
    return parts


# --- clan sheets -----------------------------------------------------------------------------


def stat_text(content: Content, clan: Mapping[str, Any], stat: str) -> str:
    """``Axes 4 (2/6)``; ``(4/6 +10)`` once it would give a legendary bonus."""
    step = int(clan["steps"][stat])
    track = content.tracks[stat]
    text = f"{STAT_NAMES[stat]} {clan['stats'][stat]} ({step + 1}/{len(track)}"
    if step == len(track) - 1:
        text += f" +{content.legendary['top']}"
    elif step >= 3:
        text += f" +{content.legendary['high']}"
    return text + ")"


def render_clans(view: Mapping[str, Any], content: Content, labels: Sequence[str]) -> list[str]:
    """Every clan sheet: Glory, Rage, stats, upgrades, quests, cards and reserve."""
    phase = str(view.get("phase"))
    to_move = set(view.get("to_move") or [])
    width = max(len(label) for label in labels)
    first = int(view.get("first", 0))
    lines = [f"Clans (Age {view['age']}, {PHASE_NAMES.get(phase, phase)}; {labels[first]} went first this Age):"]
    for clan in view["clans"]:
        seat = int(clan["seat"])
        pointer = ">" if seat in to_move else " "
        stats = ", ".join(stat_text(content, clan, stat) for stat in STATS)
        lines.append(
            f" {pointer} {labels[seat].ljust(width)}  Glory {clan['glory']:>3} | Rage {clan['rage']:>2} left"
            f" | {stats}" + (" | passed" if clan.get("passed") and phase in ("action", "march", "call") else "")
        )
        upgrades = [card_name(content, c) for c in clan["upgrades"]]
        used = len(clan["upgrades"]) + int(clan["quests"])
        reserve = clan["reserve"]
        reserve_text = figures_text(
            content, ["warrior"] * int(reserve["warrior"]) + ["elite"] * int(reserve["elite"]) + reserve["monsters"]
        )
        details = [
            f"upgrades {used}/{SLOTS} slots: " + (", ".join(upgrades) if upgrades else "none"),
            f"quests {clan['quests']} face down",
            f"hand {clan['hand']}",
            f"reserve {reserve_text}",
        ]
        if phase == "draft":
            picked = (view.get("picked") or [])[seat] if seat < len(view.get("picked") or []) else False
            details.append(f"drafted {clan['drafted']}" + (" +1 picked" if picked else ""))
            if clan.get("saved"):
                details.append(f"kept {clan['saved']} from the last Age")
        if phase == "keep" and clan.get("keeping"):
            drops = int(clan.get("drops", 0))
            details.append(f"must drop {drops}" if drops else "choosing the cards to keep")
        lines.append("      " + " | ".join(details))
        extra = []
        if clan.get("known"):
            extra.append("known in hand: " + ", ".join(card_name(content, c) for c in clan["known"]))
        if clan.get("discards"):
            extra.append("discards: " + ", ".join(card_name(content, c) for c in clan["discards"]))
        record = []
        if clan.get("battles_won"):
            record.append(f"won {plural(int(clan['battles_won']), 'battle')}")
        if clan.get("battles_lost"):
            record.append(f"lost {plural(int(clan['battles_lost']), 'battle')}")
        if clan.get("contests_won"):
            record.append(f"won {plural(int(clan['contests_won']), 'contest')}")
        if record:
            extra.append(", ".join(record) + " this Age")
        if extra:
            lines.append("      " + " | ".join(extra))
    high, top = content.legendary["high"], content.legendary["top"]
    lines.append(f"  Stats: value (step/6); at the end a stat on step 4 or 5 gives +{high} Glory, on step 6 +{top}.")
    return lines


# --- the viewer's own cards --------------------------------------------------------------------


def _numbers(legal: Sequence[Action] | None, kind: str) -> dict[str, int]:
    """The number ``hint`` gives each card that an action of ``kind`` names."""
    if not legal:
        return {}
    return {
        action.a: index
        for index, action in enumerate(ordered_actions(legal), start=1)
        if isinstance(action, BRAction) and action.kind == kind
    }


def dealt_line(data: Mapping[str, Any]) -> str:
    """The log line of a deal: six cards each, or fewer when the deck ran short (ruling r)."""
    age, direction, cards = data["age"], data["direction"], int(data.get("pack_size", 6))
    if cards == 0:
        return f"Age {age}: the deck is too short for a draft; no cards are dealt."
    if cards < 6:
        return (
            f"Age {age}: the deck is short, so {cards} cards are dealt to each clan "
            f"(keep {cards - 1}); packs pass {direction}."
        )
    return f"Age {age}: six cards are dealt to each clan; packs pass {direction}."


def _numbered(content: Content, cards: Sequence[str], numbers: Mapping[str, int]) -> list[str]:
    lines: list[str] = []
    for card in cards:
        prefix = f"  {numbers[card]:>2}) " if card in numbers else "      " if numbers else "  "
        lines.extend(card_lines(content, card, prefix))
    return lines


def render_hand(
    view: Mapping[str, Any], content: Content, label: str, legal: Sequence[Action] | None = None
) -> list[str]:
    """The viewer's hand with names, STR and texts; quests, kept and drafted cards.

    With ``legal`` (battle cards, discards), the cards carry their numbers from ``hint``.
    """
    hand = list(view.get("hand") or [])
    phase = view.get("phase")
    kind = "play" if phase == "battle" else "drop" if phase == "keep" else ""
    lines = [f"Your hand, {label}: " + (plural(len(hand), "card") if hand else "empty")]
    lines += _numbered(content, hand, _numbers(legal, kind) if kind else {})
    if view.get("my_quests"):
        lines.append("Your quests, face down on your clan sheet:")
        lines += _numbered(content, list(view["my_quests"]), {})
    if view.get("my_saved"):
        lines.append("Kept from the last Age (they join your hand after the draft):")
        lines += _numbered(content, list(view["my_saved"]), {})
    if view.get("my_drafted"):
        lines.append(f"Drafted this Age ({len(view['my_drafted'])} of {view['draft_keep']}):")
        lines += _numbered(content, list(view["my_drafted"]), {})
    card = view.get("my_card")
    if "my_card" in view:
        lines.append(f"Your card in the battle, face down: {card_name(content, card)}")
    return lines


def render_pack(view: Mapping[str, Any], content: Content, legal: Sequence[Action] | None = None) -> list[str]:
    """The draft pack in front of the viewer, numbered as ``hint`` numbers the picks."""
    pack = list(view.get("pack") or [])
    if not pack:
        return []
    age = int(view["age"])
    direction = "right" if age == 2 else "left"
    pick = len(view.get("my_drafted") or []) + 1
    lines = [f"Your pack (Age {age}, pick {pick} of {view['draft_keep']}; the rest passes {direction}):"]
    lines += _numbered(content, pack, _numbers(legal, "pick"))
    if view.get("my_pick"):
        lines.append(f"Your pick this round: {card_name(content, view['my_pick'])} (waiting for the others)")
    return lines


# --- the battle ----------------------------------------------------------------------------


def render_battle(view: Mapping[str, Any], content: Content, labels: Sequence[str]) -> list[str]:
    """The battle in progress: region, participants, who has chosen, revealed cards and STR."""
    battle = view.get("battle")
    if not battle:
        return ["No battle is being fought now."]
    region = str(battle["region"])
    attacker = int(battle["attacker"])
    name = region_name(content, region)
    width = max(len(label) for label in labels)
    lines = []
    if view.get("phase") == "call":
        calls = [labels[int(s)] for s in battle.get("calls") or []]
        lines.append(f"Contest in {name}, started by {labels[attacker]}: Call to Battle.")
        if calls:
            lines.append("  Still to answer, in order: " + ", ".join(calls))
        owners = sorted({int(o) for o, _ in view["board"][region]})
        for seat in owners:
            kinds = [str(k) for o, k in view["board"][region] if o == seat]
            moved = int((battle.get("joined") or {}).get(str(seat), 0))
            lines.append(
                f"  {labels[seat].ljust(width)}  {figures_text(content, kinds):<24} STR "
                f"{region_strength(content, view, region, seat):>2}" + (f"  ({moved} moved in)" if moved else "")
            )
        return lines
    lines.append(f"Battle in {name}, started by {labels[attacker]}:")
    chosen = {int(s) for s in battle.get("chosen") or []}
    empty = {int(s) for s in battle.get("empty") or []}
    for seat in battle.get("participants") or []:
        seat = int(seat)
        kinds = [str(k) for o, k in view["board"][region] if o == seat]
        figures = region_strength(content, view, region, seat)
        if battle.get("revealed"):
            card = battle_card(view, seat)
            found = content.cards.get(card) if card else None
            card_str = found.strength if found is not None and found.kind == "battle" else 0
            bonus = int(battle["bonus"].get(str(seat), 0))
            parts = [f"figures {figures}"]
            parts.append(f"{card_name(content, card)} +{card_str}" if card else "no card")
            if bonus:
                parts.append(f"effects +{bonus}")
            state_text = " + ".join(parts) + f" = {battle_strength(content, view, seat)} STR"
        else:
            if seat in empty:
                status = "no cards: plays none"
            elif seat in chosen:
                status = "has chosen a card"
            else:
                status = "choosing a card"
            state_text = f"STR {figures} before cards; {status}"
        lines.append(f"  {labels[seat].ljust(width)}  {figures_text(content, kinds):<24} {state_text}")
    return lines


# --- what to decide ------------------------------------------------------------------------


def _region_list(content: Content, regions: Iterable[str]) -> str:
    return ", ".join(region_name(content, r) for r in regions)


def instructions(view: Mapping[str, Any], content: Content, legal: Sequence[Action]) -> str:
    """The decision ``view``'s seat faces, in words."""
    phase = view.get("phase")
    seat = view.get("seat")
    clan = view["clans"][seat] if isinstance(seat, int) else {}
    decision = view.get("decision")
    battle = view.get("battle") or {}
    where = region_name(content, str(battle.get("region", "")))
    if decision is not None:
        data = list(decision.get("data") or [])
        kind = decision.get("type")
        if kind == "raise":
            why = data[2] if len(data) > 2 else ""
            options = " or ".join(str(a) for a in legal)
            if len(data) > 3 and data[3]:
                return f"You may raise one of your stats one step ({why}), or none: {options}."
            return f"Raise one of your stats one step ({why}): {options}."
        if kind == "destroy":
            count, why = (data[2], data[4]) if len(data) > 4 else (1, "")
            return (
                f"{why}: destroy an enemy figure in the battle in {where} ({count} to go): destroy:SEAT:KIND "
                "(SEAT counts from 0), or its number from 'hint'."
            )
        if kind == "reinforce":
            count = data[3] if len(data) > 3 else 1
            return (
                f"Summon a figure from your reserve into the battle in {where} ({count} to go): reinforce:KIND, "
                "or skip."
            )
        if kind == "kill":
            count = data[2] if len(data) > 2 else 1
            return (
                f"Destroy an enemy figure in any region ({count} to go): kill:REGION:SEAT:KIND (SEAT counts from 0; "
                "'hint' numbers them), or skip."
            )
        return "Decide: 'hint' lists your options."
    if phase == "draft":
        direction = "right" if int(view["age"]) == 2 else "left"
        pick = len(view.get("my_drafted") or []) + 1
        return (
            f"Draft, pick {pick} of {view['draft_keep']}: keep one card of your pack (its number, or pick:CARD); "
            f"the rest passes {direction}."
        )
    if phase == "action":
        if all(isinstance(a, BRAction) and a.kind == "pass" for a in legal):
            return f"You have {clan.get('rage', 0)} Rage but nothing to do: type pass."
        return (
            f"Your action, with {clan.get('rage', 0)} Rage: summon, march, upgrade, quest, contest or pass "
            "('hint' lists them, numbered)."
        )
    if phase == "march":
        march = view.get("march") or {}
        origin = str(march.get("from", ""))
        near = _region_list(content, content.regions[origin].neighbours) if origin in content.regions else ""
        left = figures_text(content, march.get("left") or [])
        text = (
            f"March from {region_name(content, origin)}: move a figure to an adjacent region ({near}) "
            f"with move:KIND>REGION; still there: {left}."
        )
        if int(march.get("moved", 0)):
            text += " Type done to end the march."
        return text
    if phase == "call":
        count = "up to two figures" if clan.get("call_two") else "one figure"
        return f"Call to Battle: move {count} into {where}, or stay (join:KIND@REGION, stay, or a number from 'hint')."
    if phase == "battle":
        if legal and all(isinstance(a, BRAction) and a.a == "none" for a in legal):
            return f"Battle in {where}: your hand is empty; type play:none."
        return f"Battle in {where}: choose the card you play, face down (its number, or play:CARD)."
    if phase == "keep":
        drops = int(clan.get("drops", 0))
        start = f"End of Age {view['age']}: your discards are back in your hand; keep up to {KEEP_AT_AGE_END} cards. "
        if drops:
            return start + f"Remove {plural(drops, 'more card')} from the game (its number, or drop:CARD)."
        return start + "Remove more cards from the game (drop:CARD), or keep the rest: keep."
    return "Decide: 'hint' lists your options."


# --- hints -----------------------------------------------------------------------------------


def hint_group(action: Action) -> str:
    """The group ``hint`` lists an action under."""
    kind = action.kind if isinstance(action, BRAction) else str(action)
    for group, kinds, _ in HINT_GROUPS:
        if kind in kinds:
            return group
    return "other"


def ordered_actions(legal: Sequence[Action]) -> list[Action]:
    """``legal`` in the order ``hint`` lists and numbers them (grouped; stable within groups)."""
    order = {group: index for index, (group, _, _) in enumerate(HINT_GROUPS)}
    return sorted(legal, key=lambda a: order.get(hint_group(a), len(order)))


def describe_choice(action: Action, view: Mapping[str, Any], content: Content) -> str:
    """A few words after an action in ``hint``: the card's name, whose figure."""
    if not isinstance(action, BRAction):
        return ""
    kind = action.kind
    if kind in ("pick", "play", "drop", "quest"):
        return card_name(content, action.a)
    if kind == "upgrade":
        found = content.cards.get(action.a)
        return f"{card_name(content, action.a)}, {found.strength} Rage" if found is not None else action.a
    if kind == "join":
        return f"{figure_name(content, action.a)} from {region_name(content, action.b)}"
    if kind == "destroy":
        return f"Seat {(action.owner or 0) + 1}'s {figure_name(content, action.a)}"
    if kind == "kill":
        return f"Seat {(action.owner or 0) + 1}'s {figure_name(content, action.b)} in {region_name(content, action.a)}"
    if kind == "raise":
        seat = view.get("seat")
        if isinstance(seat, int) and action.a in STATS:
            clan = view["clans"][seat]
            step = int(clan["steps"][action.a])
            track = content.tracks[action.a]
            return f"{clan['stats'][action.a]} to {track[min(step + 1, len(track) - 1)]}"
    return ""


def format_hint(
    legal: Sequence[Action], only: str | None, view: Mapping[str, Any], content: Content, width: int = 100
) -> list[str]:
    """``legal`` grouped and numbered (the numbers can be typed); ``only`` keeps one group."""
    ordered = ordered_actions(legal)
    notes = {group: note for group, _, note in HINT_GROUPS}
    groups: dict[str, list[str]] = {}
    for number, action in enumerate(ordered, start=1):
        group = hint_group(action)
        if only is not None and only.lower() not in (group, str(getattr(action, "kind", ""))):
            continue
        words = describe_choice(action, view, content)
        groups.setdefault(group, []).append(f"{number}) {action}" + (f" ({words})" if words else ""))
    total = sum(len(items) for items in groups.values())
    lines = [f"Legal actions ({total}); type one, or its number:"]
    for group, items in groups.items():
        head = f"  {group} ({notes[group]}): " if group in notes else f"  {group}: "
        current = head
        for item in items:
            if current != head and len(current) + len(item) + 2 > width:
                lines.append(current.rstrip())
                current = " " * 6
            current += item + "  "
        lines.append(current.rstrip())
    if not groups:
        lines.append(f"  none in the group {only!r}")
    return lines


# --- events ----------------------------------------------------------------------------------


def format_event(event: Event, content: Content, labels: Sequence[str], viewer: int | None) -> list[str]:
    """Lines for one event, as seen by ``viewer`` (the caller filters by audience)."""
    data = event.data
    seat = data.get("seat")
    mine = isinstance(seat, int) and seat == viewer

    def name_of(index: Any) -> str:
        return labels[index] if isinstance(index, int) and 0 <= index < len(labels) else "Someone"

    who = name_of(seat)
    kind = event.kind

    def region(key: str = "region") -> str:
        return region_name(content, str(data.get(key, "")))

    def figure(key: str = "figure") -> str:
        return figure_name(content, str(data.get(key, "")))

    def article() -> str:
        return a_figure(content, str(data.get("figure", "")))

    if kind == "god-arrives":
        return [f"Age {data['age']}: {god_name(content, str(data['god']))} arrives in {region()}."]
    if kind == "dealt":
        return [dealt_line(data)]
    if kind == "packs-passed":
        return [f"The packs pass {data['direction']}."]
    if kind == "picked":
        return [f"You keep {card_name(content, str(data['card']))}."]
    if kind == "chose":
        what = data.get("what")
        if what == "pick":
            return [] if mine else [f"{who} has picked a card."]
        if what == "play":
            return [] if mine else [f"{who} has chosen a battle card, face down."]
        return [f"{who} has chosen."]
    if kind == "my-card":
        card = data.get("card")
        if card in (None, "none"):
            return ["You play no card: your hand is empty."]
        return [f"You play {card_name(content, str(card))}, face down."]
    if kind == "draft-over":
        return [f"The draft of Age {data['age']} is over: every clan takes its cards into hand."]
    if kind == "turn":
        return []
    if kind == "summoned":
        return [f"{who} summons {article()} into {region()}."]
    if kind == "march":
        return [f"{who} marches from {region()}."]
    if kind == "moved":
        return [f"  {who} moves {article()} from {region('from')} to {region('to')}."]
    if kind == "upgraded":
        card = str(data["card"])
        return [f"{who} plays the upgrade {card_text(content, card)}"]
    if kind == "committed":
        return [f"{who} commits to a quest, face down."]
    if kind == "committed-card":
        card = str(data["card"])
        found = content.cards.get(card)
        condition = describe_condition(found.condition or {}, content) if found is not None else ""
        return [f"Your quest: {card_name(content, card)} ({condition})."]
    if kind == "passed":
        return [f"{who} passes: Rage drops to 0."]
    if kind == "contest":
        return [f"{who} starts a contest in {region()}: Call to Battle."]
    if kind == "joined":
        return [f"  {who} moves {article()} from {region('from')} into {region()}."]
    if kind == "stayed":
        return [f"  {who} stays out."]
    if kind == "no-battle":
        return [f"No enemy in {region()}: no battle, the contest goes to {who}."]
    if kind == "revealed":
        cards = data.get("cards") or {}
        parts = []
        for key, card in cards.items():
            found = content.cards.get(str(card)) if card else None
            bonus = f" (+{found.strength})" if found is not None and found.kind == "battle" else ""
            parts.append(f"{name_of(int(key))} {card_name(content, card)}{bonus}")
        return [f"Battle cards revealed in {region()}: " + ", ".join(parts) + "."]
    if kind == "strength":
        return [f"  {who} gets +{data['amount']} STR ({data.get('why', '')})."]
    if kind == "battle":
        totals = ", ".join(f"{name_of(int(k))} {v} STR" for k, v in (data.get("strength") or {}).items())
        winner = data.get("winner")
        result = f"{name_of(winner)} wins." if isinstance(winner, int) else "a tie: every clan in it loses."
        return [f"Battle in {region()}: {totals}; {result}"]
    if kind == "killed":
        why = str(data.get("why", ""))
        if why == "Prove Valor":
            return []  # the valor event says it once for all the figures
        owner, by = data.get("owner"), data.get("by")
        monster = content.monsters.get(str(data.get("figure")))
        if monster is not None and any(e.do == "returns_when_killed" for e in monster.abilities):
            where = "back to its reserve"
        elif isinstance(by, int):
            where = f"to {name_of(by)}'s kill pile"
        else:
            where = "to the Feast Hall"
        return [f"  {name_of(owner)}'s {figure()} in {region()} is killed ({why}) and goes {where}."]
    if kind == "saved":
        return [f"  {who}'s {figure()} goes back to the reserve instead of dying."]
    if kind == "spent":
        return [f"  {who}'s {card_name(content, str(data['card']))} is spent: it is removed from the game."]
    if kind == "reinforced":
        return [f"  {who} summons {article()} into the battle in {region()}."]
    if kind == "claimed":
        return [f"{who} wins the contest in {region()} and claims its reward."]
    if kind == "glory":
        return [f"  {who} gains {data['amount']} Glory ({data.get('why', '')}): {data['total']} in all."]
    if kind == "raised":
        stat = STAT_NAMES.get(str(data["stat"]), str(data["stat"]))
        steps = len(content.tracks.get(str(data["stat"]), ())) or 6
        return [
            f"  {who} raises {stat} to {data['value']} (step {int(data['step']) + 1}/{steps}; {data.get('why', '')})."
        ]
    if kind == "rage":
        amount = int(data["amount"])
        verb = f"gains {amount}" if amount >= 0 else f"loses {-amount}"
        return [f"  {who} {verb} Rage ({data.get('why', '')})."]
    if kind == "drew":
        return [f"You draw {card_name(content, str(data['card']))}."]
    if kind == "drew-count":
        return [] if mine else [f"  {who} draws {plural(int(data.get('count', 1)), 'card')}."]
    if kind == "quest-phase":
        return [f"Quest phase of Age {data['age']}: every committed quest is revealed."]
    if kind == "quest":
        card = str(data["card"])
        found = content.cards.get(card)
        condition = describe_condition(found.condition or {}, content) if found is not None else ""
        result = "fulfilled" if data.get("fulfilled") else "not fulfilled"
        return [f"{who} reveals the quest {card_name(content, card)} ({condition}): {result}."]
    if kind == "valor":
        return [f"{who} proves valor in {region()}: {plural(int(data['figures']), 'figure')} go to the Feast Hall."]
    if kind == "release":
        return [f"End of Age {data['age']}: the kill piles and the Feast Hall go back to their clans."]
    if kind == "dropped":
        return [f"You remove {card_name(content, str(data['card']))} from the game."]
    if kind == "kept":
        return [f"{who} keeps {plural(int(data.get('count', 0)), 'card')} for the next Age."]
    if kind == "no-raise":
        return [f"  {who} raises no stat ({data.get('why', '')})."]
    if kind == "game-over":
        return ["Ragnarök: the game is over."]
    return [f"{kind}: {json.dumps(dict(data), ensure_ascii=False)}"]


#: Every event kind :func:`format_event` words.
WORDED_EVENTS = frozenset(
    {
        "god-arrives", "dealt", "packs-passed", "picked", "chose", "my-card", "draft-over", "turn", "summoned",
        "march", "moved", "upgraded", "committed", "committed-card", "passed", "contest", "joined", "stayed",
        "no-battle", "revealed", "strength", "battle", "killed", "saved", "spent", "reinforced", "claimed", "glory",
        "raised", "rage", "drew", "drew-count", "quest-phase", "quest", "valor", "release", "dropped", "kept",
        "no-raise", "game-over",
    }
)  # fmt: skip


# --- explaining an action ----------------------------------------------------------------------


def describe_action(action: BRAction, view: Mapping[str, Any], content: Content) -> str:
    """What ``action`` does, in words (whether it is legal now is for the engine to say)."""
    kind, a, b, owner = action
    if kind == "pick":
        return f"Keep {card_text(content, a)} The rest of the pack passes on."
    if kind == "summon":
        cost = "free (a monster)" if a in content.monsters else "1 Rage"
        return f"Summon {a_figure(content, a)} from your reserve into {region_name(content, b)}: {cost}."
    if kind == "march":
        near = _region_list(content, content.regions[a].neighbours) if a in content.regions else "?"
        return (
            f"March from {region_name(content, a)} (1 Rage): then move its figures one at a time to adjacent "
            f"regions ({near}) and type done."
        )
    if kind == "move":
        return f"Move the marching {figure_name(content, a)} to {region_name(content, b)}."
    if kind == "done":
        return "End the march."
    if kind == "upgrade":
        return f"Play the upgrade {card_text(content, a)}"
    if kind == "quest":
        return f"Commit to the quest {card_text(content, a)} It lies face down until the Quest phase."
    if kind == "contest":
        gods_at = view.get("gods_at") or {}
        if a in gods_at:
            found = content.gods.get(gods_at[a])
            reward = effects_text(found.bonus) if found is not None else "its god's favour"
        else:
            region = content.regions.get(a)
            reward = f"raise {REWARD_WORDS.get(region.reward, '?')[1:]}" if region is not None else "?"
        return (
            f"Contest {region_name(content, a)}: a Call to Battle (every clan may move one figure in from an "
            f"adjacent region, you last), then a battle if enemies are there. If you win: {reward}."
        )
    if kind == "pass":
        return "Pass: your Rage drops to 0 and you take no more actions this Age (you still answer Calls to Battle)."
    if kind == "join":
        return f"Move your {figure_name(content, a)} from {region_name(content, b)} into the battle."
    if kind == "stay":
        return "Move no figure into the battle."
    if kind == "play":
        if a == "none":
            return "Play no card (only when your hand is empty)."
        return f"Play {card_text(content, a)} Face down until every clan in the battle has chosen."
    if kind == "drop":
        return f"Remove {card_name(content, a)} from the game (end of the Age: keep up to three cards)."
    if kind == "keep":
        return f"Keep the cards left in your hand (up to {KEEP_AT_AGE_END}) for the next Age; the others are gone."
    if kind == "raise":
        if a == "none":
            return "Raise no stat (a fulfilled quest's raise is yours to take or not); its Glory comes all the same."
        return f"Raise {STAT_NAMES.get(a, a)} one step ({describe_choice(action, view, content)})."
    if kind == "destroy":
        return f"Destroy Seat {(owner or 0) + 1}'s {figure_name(content, a)} in the battle."
    if kind == "kill":
        return f"Destroy Seat {(owner or 0) + 1}'s {figure_name(content, b)} in {region_name(content, a)}."
    if kind == "reinforce":
        return f"Summon {a_figure(content, a)} from your reserve into the battle."
    if kind == "skip":
        return "Stop: take no more of these."
    return str(action)


# --- the end ---------------------------------------------------------------------------------


def final_ranking_lines(view: Mapping[str, Any], labels: Sequence[str]) -> list[str]:
    """Places, Glory, Rage left, the winner and how any tie was broken (most Glory, then Rage)."""
    clans = list(view["clans"])
    keys = [(-int(c["glory"]), -int(c["rage"])) for c in clans]
    places: list[int] = list(view.get("places") or [1 + sum(1 for o in keys if o < k) for k in keys])
    order = sorted(range(len(clans)), key=lambda s: (places[s], s))
    width = max(len(label) for label in labels)
    lines = ["Final ranking (most Glory; a tie goes to the clan with the most Rage left):"]
    for seat in order:
        clan = clans[seat]
        lines.append(
            f"  {ordinal(places[seat]):>4}  {labels[seat].ljust(width)}  {clan['glory']:>3} Glory  "
            f"{clan['rage']:>2} Rage left"
        )
    by_glory: dict[int, list[int]] = {}
    for seat in order:
        by_glory.setdefault(int(clans[seat]["glory"]), []).append(seat)
    for glory, tied in by_glory.items():
        if len(tied) < 2:
            continue
        names = " and ".join(labels[s] for s in tied)
        rages = [int(clans[s]["rage"]) for s in tied]
        if len(set(rages)) == 1:
            lines.append(f"Tie: {names} have {glory} Glory and {rages[0]} Rage left each: they share the place.")
            continue
        detail = ", ".join(f"{labels[s]} {clans[s]['rage']}" for s in tied)
        lines.append(
            f"Tie-break: {names} have {glory} Glory each; the most Rage left places higher ({detail}), "
            f"so {labels[tied[0]]} places higher."
        )
    winners = [labels[s] for s in order if places[s] == 1]
    lines.append(("Winner: " if len(winners) == 1 else "Winners: ") + " and ".join(winners) + ".")
    return lines


# --- commands of their own -------------------------------------------------------------------


def _renderer(terminal: TerminalGame) -> BloodRageRenderer:
    renderer = terminal.renderer
    assert isinstance(renderer, BloodRageRenderer)
    return renderer


def cmd_battle(terminal: TerminalGame, rest: str) -> str:
    """``battle``: the battle in progress."""
    del rest
    terminal.say_lines(render_battle(terminal.view(), _renderer(terminal).content, terminal.labels))
    return CONTINUE


def cmd_cards(terminal: TerminalGame, rest: str) -> str:
    """``cards [GOD|CARD|monsters]``."""
    content = _renderer(terminal).content
    view = terminal.state.view(None)
    wanted = rest.strip().lower()
    if not wanted:
        for age, god in enumerate(view["gods"], start=1):
            found = content.gods.get(god)
            theme = found.theme if found is not None else ""
            terminal.say(f"  {god_name(content, god)} (Age {age}): {theme}; {len(content.god_cards(god))} cards")
        terminal.say(
            "The deck holds these gods' cards and monster cards (three per player). "
            "Type 'cards thor' for a god's deck, 'cards monsters', or 'cards CARD' for one card."
        )
        return CONTINUE
    if wanted in ("monsters", "monster"):
        for monster in content.monsters.values():
            text = " ".join(describe_effect(e) + "." for e in monster.abilities)
            line = f"  {monster.id:<20} {monster.name}: STR {monster.strength}, {monster.base} base. {text}"
            terminal.say(line.rstrip())
        return CONTINUE
    gods = {god: god for god in content.gods} | {g.name.lower(): g.id for g in content.gods.values()}
    if wanted in gods:
        for card in content.god_cards(gods[wanted]):
            terminal.say_lines(card_lines(content, card))
        return CONTINUE
    matches = [c.id for c in content.cards.values() if wanted in (c.id, c.name.lower())]
    if not matches:
        matches = [c.id for c in content.cards.values() if wanted in c.name.lower()]
    if not matches:
        terminal.say(f"No card, god or monster called {rest.strip()!r}. Try 'cards', 'cards thor' or 'cards monsters'.")
    for card in matches[:20]:
        terminal.say_lines(card_lines(content, card))
    return CONTINUE


def cmd_explain(terminal: TerminalGame, rest: str) -> str:
    """``explain ACTION``: what it does and whether it may be played; ``explain``: the last turn."""
    if not rest:
        terminal.show_last_turn("Nothing has been played yet. Try 'explain summon:warrior@gladsheim'.")
        return CONTINUE
    renderer = _renderer(terminal)
    seat = terminal.seat_to_move()
    legal = terminal.state.legal_actions(seat) if seat is not None else []
    try:
        steps = renderer.parse_input(rest, legal)
    except MalformedAction as error:
        terminal.say(f"Cannot read that action: {error}")
        return CONTINUE
    view = terminal.state.view(seat)
    for step in steps:
        if isinstance(step, BRAction):
            terminal.say(f"{step}: {describe_action(step, view, renderer.content)}")
    if seat is None:
        terminal.say("It is nobody's decision at this device now.")
        return CONTINUE
    problem = terminal.check_steps(seat, steps)
    terminal.say("You can do it now." if problem is None else f"But you cannot do it now: {problem}")
    return CONTINUE


# --- the renderer ----------------------------------------------------------------------------


class BloodRageRenderer(Renderer):
    """Blood Rage: Valhalla in the terminal; a turn is one action (a march with its moves)."""

    default_save = DEFAULT_SAVE
    private_word = "cards"
    notation_help = NOTATION_HELP
    commands_help = COMMANDS_HELP
    empty_input = "Type an action such as summon:warrior@gladsheim or a number from 'hint', or 'help'."
    malformed_help = "Actions look like summon:warrior@gladsheim, pick:thor-07 or a number from 'hint'; see 'help'."
    after_game_commands = (
        "save", "board", "map", "scores", "score", "status", "clans", "log", "explain", "help", "cards", "?",
    )  # fmt: skip
    after_game_help = "The game is over. Commands now: save FILE, map, clans, log, explain, cards, quit."
    preset_question = "Which gods? random-gods, first-game ('?' lists them) [{default}] "

    def __init__(self, game: Any) -> None:
        super().__init__(game)
        self.content: Content = default_content()

    def bind(self, state: GameState[Any]) -> None:
        """Read the content pack of the game."""
        self.content = content_of(state.options)

    # setting up

    def setup_line(self, state: GameState[Any]) -> str:
        """``Blood Rage: Valhalla: 3 players; gods Thor (Age 1), ... (first-game).``."""
        view = state.view(None)
        gods = ", ".join(f"{god_name(self.content, g)} (Age {i})" for i, g in enumerate(view["gods"], start=1))
        chosen = state.options.get("gods")
        preset = {"random": "random-gods", "first-game": "first-game"}.get(chosen) if isinstance(chosen, str) else None
        how = self.game.info.preset_titles.get(preset, preset) + f" ({preset})" if preset else "chosen gods"
        return f"{self.game.info.title}: {plural(state.num_players, 'player')}; gods {gods}: {how}."

    def option_lines(self, state: GameState[Any]) -> list[str]:
        """The content pack, starting Glory and Rainbow Bridge rewards."""
        lines = [f"  cards: {self.content.label}"]
        if state.options.get("starting-glory"):
            lines.append(f"  starting Glory from Blood Rage placings: {state.options['starting-glory']}")
        if state.options.get("rainbow-rewards"):
            lines.append(f"  Rainbow Bridge rewards: {state.options['rainbow-rewards']}")
        return lines

    def where(self, state: GameState[Any]) -> str:
        """``Age 2, Action phase``."""
        view = state.view(None)
        return f"Age {view['age']}, {PHASE_NAMES.get(view['phase'], view['phase'])}"

    # turns

    def turn_key(self, state: GameState[Any]) -> Hashable:
        """Turns end by events (:data:`TURN_BOUNDARIES`), not by a counter."""
        del state
        return None

    def turn_over(self, state: GameState[Any], seat: int, key: Hashable, events: Sequence[Event]) -> bool:
        """Over when the seat need not decide, or a new turn, pack or phase began."""
        del key
        if state.is_terminal() or seat not in state.to_move():
            return True
        return any(event.kind in TURN_BOUNDARIES for event in events)

    def too_many_steps(self, done: str, step: str) -> str:
        """Only a march's moves (and its done) follow in one line."""
        return (
            f"your turn is over after {done}, so {step} cannot follow "
            "(one line holds one action, or a march with its moves)"
        )

    def turn_header(self, view: Mapping[str, Any], seat: int, label: str) -> str:
        """``=== Age 1, Action phase: Seat 1 (You) ===`` and the like."""
        del seat
        age = view["age"]
        phase = view.get("phase")
        where = region_name(self.content, str((view.get("battle") or {}).get("region", "")))
        decision = view.get("decision")
        if decision is not None:
            what = {"raise": "a stat to raise", "destroy": "a figure to destroy", "kill": "a figure to destroy"}
            return f"=== Age {age}: {label} chooses {what.get(decision.get('type'), 'figures to summon')} ==="
        if phase == "draft":
            pick = len(view.get("my_drafted") or []) + 1
            return f"=== Age {age}, draft, pick {pick} of {view['draft_keep']}: {label} ==="
        if phase == "call":
            return f"=== Age {age}, Call to Battle in {where}: {label} ==="
        if phase == "battle":
            return f"=== Age {age}, battle in {where}: {label} chooses a card ==="
        if phase == "keep":
            return f"=== End of Age {age}: {label} keeps up to {KEEP_AT_AGE_END} cards ==="
        return f"=== Age {age}, Action phase: {label} ==="

    def bot_header(self, view: Mapping[str, Any], seat: int, label: str) -> str | None:
        """A heading for a bot's action turn; none for its picks, cards and calls."""
        if view.get("phase") != "action" or view.get("decision") is not None or view.get("current") != seat:
            return None
        rage = view["clans"][seat]["rage"]
        return f"--- Age {view['age']}, Action phase: {label}, {rage} Rage ---"

    # what is on the screen

    def board_lines(self, view: Mapping[str, Any], labels: Sequence[str]) -> list[str]:
        """The map."""
        del labels
        return render_map(view, self.content)

    def status_lines(self, view: Mapping[str, Any], labels: Sequence[str]) -> list[str]:
        """The clan sheets."""
        return render_clans(view, self.content, labels)

    def hand_lines(self, view: Mapping[str, Any], label: str) -> list[str]:
        """The hand (and the pack while drafting)."""
        lines = render_hand(view, self.content, label)
        if view.get("phase") == "draft":
            lines += render_pack(view, self.content)
        return lines

    def turn_start_lines(self, view: Mapping[str, Any], labels: Sequence[str]) -> list[str]:
        """What a decision starts with: the map and clans, or the battle."""
        phase = view.get("phase")
        decision = (view.get("decision") or {}).get("type")
        mapped = ["", *render_map(view, self.content)]
        clans = ["", *render_clans(view, self.content, labels)]
        battle = ["", *render_battle(view, self.content, labels)]
        if decision in ("destroy", "reinforce"):
            return battle
        if decision == "kill":
            return mapped
        if decision == "raise":
            return clans
        if phase == "draft":
            first_pick = not view.get("my_drafted")
            return [*(mapped if first_pick and int(view["age"]) > 1 else []), *(clans if first_pick else [])]
        if phase == "call":
            return [*mapped, *battle]
        if phase in ("battle", "resolving"):
            return battle
        if phase == "keep":
            return clans
        return [*mapped, *clans]

    def continue_lines(self, view: Mapping[str, Any], labels: Sequence[str]) -> list[str]:
        """After a step of the same turn: the map (a march), or the battle."""
        phase = view.get("phase")
        decision = (view.get("decision") or {}).get("type")
        if decision in ("destroy", "reinforce") or phase in ("call", "battle", "resolving"):
            return ["", *render_battle(view, self.content, labels)]
        if phase in ("keep", "draft") or decision == "raise":
            return []
        return ["", *render_map(view, self.content)]

    def prompt_lines(self, view: Mapping[str, Any], legal: Sequence[Action], label: str) -> list[str]:
        """The cards the decision is about, then the decision in words."""
        phase = view.get("phase")
        lines: list[str] = []
        if view.get("decision") is None:
            if phase == "draft":
                lines = render_pack(view, self.content, legal)
                if view.get("my_drafted"):
                    drafted = ", ".join(card_name(self.content, c) for c in view["my_drafted"])
                    lines.append(f"Drafted so far: {drafted}")
                if view.get("my_saved"):
                    lines.append(
                        "Kept from the last Age: " + ", ".join(card_name(self.content, c) for c in view["my_saved"])
                    )
            elif phase in ("action", "battle", "keep"):
                lines = render_hand(view, self.content, label, legal)
        return [*lines, instructions(view, self.content, legal)]

    def spectator_lines(self, view: Mapping[str, Any], labels: Sequence[str]) -> list[str]:
        """With only bots playing: the map and clans as each Age's draft begins."""
        fresh = (
            view.get("phase") == "draft"
            and not any(view.get("picked") or [])
            and not any(c["drafted"] for c in view["clans"])
        )
        return [*render_map(view, self.content), "", *render_clans(view, self.content, labels)] if fresh else []

    def end_lines(self, view: Mapping[str, Any], labels: Sequence[str]) -> list[str]:
        """The final map, clans and ranking."""
        return [
            *render_map(view, self.content),
            "",
            *render_clans(view, self.content, labels),
            "",
            *final_ranking_lines(view, labels),
        ]

    # events and actions

    def format_event(self, event: Event, labels: Sequence[str], viewer: int | None) -> list[str]:
        """See :func:`format_event`."""
        return format_event(event, self.content, labels, viewer)

    def hint_lines(
        self, legal: Sequence[Action], only: str | None, view: Mapping[str, Any], labels: Sequence[str]
    ) -> list[str]:
        """See :func:`format_hint`."""
        del labels
        return format_hint(legal, only, view, self.content)

    def parse_input(self, text: str, legal: Sequence[Action]) -> Sequence[Action]:
        """Notation, or the number ``hint`` gives an action."""
        return numbered_or_notation(self.game, text, ordered_actions(legal))

    def commands(self) -> dict[str, Command]:
        """``map``, ``clans``, ``battle``, ``cards`` and ``explain``."""
        return {
            "map": _board,
            "clans": _scores,
            "battle": cmd_battle,
            "cards": cmd_cards,
            "explain": cmd_explain,
        }


def _board(terminal: TerminalGame, rest: str) -> str:
    return terminal.cmd_board(rest)


def _scores(terminal: TerminalGame, rest: str) -> str:
    return terminal.cmd_scores(rest)
