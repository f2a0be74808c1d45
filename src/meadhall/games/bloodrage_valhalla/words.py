"""Blood Rage: Valhalla's words: how its actions, decisions, events, cards and results read for people.

Every interface (the terminal, the browser through the server, replays) shows these and
words nothing of Blood Rage itself. Everything here reads a view, the notation of legal
actions or an event, never a state (see :mod:`meadhall.core.words`); names and card
texts come from the view's content pack (:mod:`meadhall.games.bloodrage_valhalla.content`),
refusals are the engine's :class:`~meadhall.core.errors.IllegalAction` messages.

Seats are written as placeholders (``{1}``); each seat plays a clan (Bear, Raven, ...),
named in its seat line.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from meadhall.core.game import Event
from meadhall.core.words import (
    ActionWords,
    ComponentWords,
    EventWords,
    PackWords,
    Preview,
    ResultWords,
    joined,
    literal,
    name_of,
    plural,
    seat_label,
    standings,
    ties,
)
from meadhall.games.bloodrage_valhalla.content import (
    STATS,
    Card,
    Content,
    describe_card,
    describe_condition,
    describe_effect,
)
from meadhall.games.bloodrage_valhalla.decisions import TOKEN_CLOSES
from meadhall.games.bloodrage_valhalla.notation import BRAction, parse_action
from meadhall.games.bloodrage_valhalla.packs import content_of, default_content
from meadhall.games.bloodrage_valhalla.state import KEEP_AT_AGE_END, SLOTS

#: The clan each seat plays, by seat (the board plugin draws each in its colour).
CLANS = ("Bear", "Raven", "Wolf", "Stag", "Serpent")
#: Each clan's colour, by seat, as the board draws its figures and its sheet (``Game.content``).
CLAN_COLOURS = ("#9c3b24", "#5b3c99", "#2f6aa8", "#3b7f3b", "#b8860b")
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

#: The groups ``hint`` and the browser list actions under, by action kind, in this order.
_GROUPS: dict[str, str] = {
    "pick": "Pick (keep one card of your pack)",
    "play": "Play (your battle card, face down)",
    "drop": "Drop or keep (remove a card from the game; keep the rest)",
    "keep": "Drop or keep (remove a card from the game; keep the rest)",
    "summon": "Summon (1 Rage, monsters free; into a common region)",
    "march": "March (1 Rage; then move its figures one by one)",
    "move": "Move (a marching figure; done ends the march)",
    "done": "Move (a marching figure; done ends the march)",
    "upgrade": "Upgrade (costs its STR in Rage)",
    "quest": "Quest (free; face down)",
    "contest": "Contest (free; where you have a figure)",
    "join": "Join (Call to Battle: one figure in, or stay)",
    "stay": "Join (Call to Battle: one figure in, or stay)",
    "raise": "Raise (one step; none: no raise)",
    "destroy": "Destroy (an enemy figure in the battle)",
    "kill": "Kill (an enemy figure anywhere; skip stops)",
    "reinforce": "Reinforce (from your reserve into the battle; skip stops)",
    "pass": "Pass (your Rage drops to 0)",
}

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


# --- names -------------------------------------------------------------------------------


def content_for(view: Mapping[str, Any]) -> Content:
    """The content pack a view plays with (named in its options)."""
    return content_of(view.get("options") or {})


def clan_name(seat: int) -> str:
    """``Bear``: the clan seat ``seat`` plays."""
    return CLANS[seat] if 0 <= seat < len(CLANS) else f"Clan {seat + 1}"


def region_name(content: Content, region: str) -> str:
    """``Gladsheim`` (braces doubled: a text)."""
    found = content.regions.get(region)
    return literal(found.name if found is not None else region)


def card_name(content: Content, card: str | None) -> str:
    """``Giant-Slayer`` (``no card`` for None or ``none``)."""
    if card is None or card == "none":
        return "no card"
    found = content.cards.get(card)
    return literal(found.name if found is not None else card)


def god_name(content: Content, god: str) -> str:
    """``Thor``."""
    found = content.gods.get(god)
    return literal(found.name if found is not None else god)


def figure_name(content: Content, kind: str) -> str:
    """``Warrior``, ``Elite`` or a monster's name."""
    if kind in ("warrior", "elite"):
        return kind.capitalize()
    monster = content.monsters.get(kind)
    return literal(monster.name if monster is not None else kind)


def a_figure(content: Content, kind: str) -> str:
    """``a Warrior``, ``an Elite``, ``an Ogre Chieftain``."""
    name = figure_name(content, kind)
    return ("an " if name[:1].lower() in "aeiou" else "a ") + name


def figures_text(content: Content, kinds: Iterable[str]) -> str:
    """``2 warriors, 1 elite, Draugr and Ogre Chieftain`` (``none`` if empty)."""
    listed = list(kinds)
    counts = [plural(listed.count(kind), kind) for kind in ("warrior", "elite") if kind in listed]
    monsters = sorted(figure_name(content, k) for k in listed if k not in ("warrior", "elite"))
    return joined(counts + monsters) or "none"


def effects_text(effects: Iterable[Any]) -> str:
    """Effects in words, joined: ``raise a stat of your choice one step; gain 4 Glory``."""
    texts = [describe_effect(e) for e in effects]
    return literal("; ".join(t[:1].lower() + t[1:] for t in texts))


def card_text(content: Content, card: str) -> str:
    """``Giant-Slayer [Thor]: Battle, STR +2. When revealed: ...``."""
    found = content.cards.get(card)
    if found is None:
        return literal(card)
    owner = god_name(content, found.god) if found.god else "monster"
    return f"{literal(found.name)} [{owner}]: {literal(describe_card(found, content))}"


def quest_condition(content: Content, card: str) -> str:
    """A quest card's condition in words."""
    found = content.cards.get(card)
    return literal(describe_condition(found.condition or {}, content)) if found is not None else ""


def _seat(value: Any) -> str:
    return name_of(value) if isinstance(value, int) else "Someone"


# --- strength (as the view gives it) ---------------------------------------------------------


def _owner(owner: int | None) -> int:
    """The seat whose figure a destroy or kill action takes (those actions always name one)."""
    assert owner is not None, "a destroy or kill action names the seat of its figure"
    return owner


def region_strength(view: Mapping[str, Any], region: str, seat: int) -> int:
    """A clan's STR in a region, as the engine counts it (the view carries it)."""
    return int((view.get("strength") or {}).get(region, {}).get(str(seat), 0))


def battle_card(view: Mapping[str, Any], seat: int) -> str | None:
    """The card ``seat`` played into the battle, once the cards are revealed."""
    battle = view.get("battle") or {}
    if not battle.get("revealed"):
        return None
    card = (battle.get("cards") or {}).get(str(seat))
    return str(card) if card else None


def _battle_card_strength(content: Content, card: str | None) -> int:
    found = content.cards.get(card) if card else None
    return found.strength if found is not None and found.kind == "battle" else 0


def battle_strength(content: Content, view: Mapping[str, Any], seat: int) -> int:
    """A participant's STR in the battle: figures, effects and (once revealed) its card."""
    battle = view["battle"]
    total = region_strength(view, battle["region"], seat) + int(battle["bonus"].get(str(seat), 0))
    return total + _battle_card_strength(content, battle_card(view, seat))


def battle_lines(view: Mapping[str, Any]) -> list[str]:
    """The battle in progress: region, participants, who has chosen, revealed cards and STR."""
    battle = view.get("battle")
    if not battle:
        return []
    content = content_for(view)
    region = str(battle["region"])
    where = region_name(content, region)
    attacker = name_of(int(battle["attacker"]))
    board = view["board"][region]
    if view.get("phase") == "call":
        lines = [f"Contest in {where}, started by {attacker}: Call to Battle."]
        calls = [name_of(int(s)) for s in battle.get("calls") or []]
        if calls:
            lines.append("  Still to answer, in order: " + ", ".join(calls))
        for seat in sorted({int(o) for o, _ in board}):
            kinds = [str(k) for o, k in board if o == seat]
            moved = int((battle.get("joined") or {}).get(str(seat), 0))
            line = f"  {name_of(seat)}: {figures_text(content, kinds)}, STR {region_strength(view, region, seat)}"
            lines.append(line + (f" ({moved} moved in)" if moved else ""))
        return lines
    lines = [f"Battle in {where}, started by {attacker}:"]
    chosen = {int(s) for s in battle.get("chosen") or []}
    empty = {int(s) for s in battle.get("empty") or []}
    for seat in battle.get("participants") or []:
        seat = int(seat)
        kinds = [str(k) for o, k in board if o == seat]
        figures = region_strength(view, region, seat)
        if battle.get("revealed"):
            card = battle_card(view, seat)
            bonus = int(battle["bonus"].get(str(seat), 0))
            parts = [f"figures {figures}"]
            parts.append(f"{card_name(content, card)} +{_battle_card_strength(content, card)}" if card else "no card")
            if bonus:
                parts.append(f"effects +{bonus}")
            said = " + ".join(parts) + f" = {battle_strength(content, view, seat)} STR"
        else:
            if seat in empty:
                status = "no cards: plays none"
            elif seat in chosen:
                status = "has chosen a card"
            else:
                status = "choosing a card"
            bonus = int(battle["bonus"].get(str(seat), 0))
            extra = f", +{bonus} from effects" if bonus else ""
            said = f"STR {figures} before cards{extra}; {status}"
        lines.append(f"  {name_of(seat)}: {figures_text(content, kinds)}; {said}")
    return lines


def stat_text(content: Content, clan: Mapping[str, Any], stat: str) -> str:
    """``Axes 4 (step 2 of 6)``; ``(step 4 of 6: +10 Glory at the end)`` once it would give a legendary bonus."""
    step = int(clan["steps"][stat])
    track = content.tracks[stat]
    text = f"{STAT_NAMES[stat]} {clan['stats'][stat]} (step {step + 1} of {len(track)}"
    bonus = step_bonus(content, stat, step)
    if bonus:
        text += f": +{bonus} Glory at the end"
    return text + ")"


def step_bonus(content: Content, stat: str, step: int) -> int:
    """The Glory a stat on ``step`` (from 0) gives at the end: the top step's, a legendary step's (4 or 5), or none."""
    if step == len(content.tracks[stat]) - 1:
        return content.legendary["top"]
    return content.legendary["high"] if step >= 3 else 0


def dealt_text(data: Mapping[str, Any]) -> str:
    """The log line of a deal: six cards each, or fewer when the deck ran short (ruling r)."""
    age, direction, cards = data["age"], data["direction"], int(data.get("pack_size", 6))
    if cards == 0:
        return f"Age {age}: the deck is too short for a draft; no cards are dealt."
    if cards < 6:
        return (
            f"Age {age}: the deck is short, so {cards} cards are dealt to each clan "
            f"(keep {cards - 1}); the packs pass {direction}."
        )
    return f"Age {age}: six cards dealt to each clan; the packs pass {direction}."


# --- actions ---------------------------------------------------------------------------------


def _target(action: BRAction) -> dict[str, Any]:
    """Where the board plugin picks an action: its kind and the region, card, figure, seat or stat it names."""
    kind, a, b, owner = action
    if kind in ("summon", "join"):
        return {"kind": kind, "figure": a, "region": b}
    if kind == "move":
        return {"kind": kind, "figure": a, "region": b}
    if kind in ("march", "contest"):
        return {"kind": kind, "region": a}
    if kind == "kill":
        return {"kind": kind, "region": a, "seat": owner, "figure": b}
    if kind == "destroy":
        return {"kind": kind, "seat": owner, "figure": a}
    if kind in ("pick", "upgrade", "quest", "drop") or (kind == "play" and a != "none"):
        return {"kind": kind, "card": a}
    if kind == "raise":
        return {"kind": kind, "stat": None if a == "none" else a}
    if kind == "reinforce":
        return {"kind": kind, "figure": a}
    return {"kind": kind}


def _label(action: BRAction, view: Mapping[str, Any], content: Content) -> str:
    kind, a, b, owner = action
    if kind == "summon":
        cost = "free" if a in content.monsters else "1 Rage"
        return f"Summon {a_figure(content, a)} into {region_name(content, b)} ({cost})"
    if kind == "march":
        return f"March from {region_name(content, a)}"
    if kind == "move":
        return f"Move the {figure_name(content, a)} to {region_name(content, b)}"
    if kind == "done":
        return "End the march"
    if kind == "upgrade":
        found = content.cards.get(a)
        cost = f" ({found.strength} Rage)" if found is not None else ""
        return f"Upgrade: {card_name(content, a)}{cost}"
    if kind == "quest":
        return f"Quest: {card_name(content, a)} (face down)"
    if kind == "contest":
        return f"Contest {region_name(content, a)}"
    if kind == "pass":
        return "Pass (your Rage drops to 0)"
    if kind == "join":
        return f"Join the battle with {a_figure(content, a)} from {region_name(content, b)}"
    if kind == "stay":
        return "Stay out of the battle"
    if kind == "pick":
        return f"Keep {card_name(content, a)}"
    if kind == "play":
        return "Play no card (your hand is empty)" if a == "none" else f"Play {card_name(content, a)}"
    if kind == "drop":
        return f"Remove {card_name(content, a)} from the game"
    if kind == "keep":
        return "Keep the rest of your hand"
    if kind == "raise":
        if a == "none":
            return "Raise no stat"
        return f"Raise {STAT_NAMES.get(a, a)}{raise_text(view, content, a)}"
    if kind == "destroy":
        return f"Destroy {name_of(_owner(owner))}'s {figure_name(content, a)}"
    if kind == "kill":
        return f"Destroy {name_of(_owner(owner))}'s {figure_name(content, b)} in {region_name(content, a)}"
    if kind == "reinforce":
        return f"Summon {a_figure(content, a)} into the battle"
    if kind == "skip":
        return "Stop here"
    return literal(str(action))


def raise_text(view: Mapping[str, Any], content: Content, stat: str) -> str:
    """`` (3 to 4)``: what raising ``stat`` one step does for the view's clan (empty if unknown)."""
    seat = view.get("seat")
    if not isinstance(seat, int) or stat not in STATS:
        return ""
    clan = view["clans"][seat]
    step = int(clan["steps"][stat])
    track = content.tracks[stat]
    return f" ({clan['stats'][stat]} to {track[min(step + 1, len(track) - 1)]})"


def _card_kind(view: Mapping[str, Any], card: str) -> str:
    """What a card of the hand (or the pack) would be played as now: the action a board asks about for it."""
    phase = view.get("phase")
    if phase == "draft":
        return "pick"
    if phase == "keep":
        return "drop"
    found = content_for(view).cards.get(card)
    if phase == "action" and found is not None and found.kind in ("upgrade", "quest"):
        return found.kind
    return "play"


def _cost(action: BRAction, content: Content) -> str:
    """What an action costs in Rage, in words (empty: nothing to pay)."""
    if action.kind == "summon":
        return "free (a monster)" if action.a in content.monsters else "1 Rage"
    if action.kind == "march":
        return "1 Rage"
    if action.kind == "upgrade":
        found = content.cards.get(action.a)
        return f"{found.strength} Rage" if found is not None else ""
    return ""


def _group(action: BRAction, view: Mapping[str, Any]) -> str:
    if action.kind == "skip":
        decision = (view.get("decision") or {}).get("type")
        return _GROUPS["reinforce" if decision == "reinforce" else "kill"]
    return _GROUPS.get(action.kind, "Other")


def describe_action(action: BRAction, view: Mapping[str, Any], seat: int | None) -> str:
    """What ``action`` would do, in words (whether it is legal now is for the engine to say)."""
    content = content_for(view)
    kind, a, b, owner = action
    if kind == "pick":
        return f"Keep {card_text(content, a)} The rest of the pack passes on."
    if kind == "summon":
        cost = "free (a monster)" if a in content.monsters else "1 Rage"
        return f"Summon {a_figure(content, a)} from your reserve into {region_name(content, b)}: {cost}."
    if kind == "march":
        found = content.regions.get(a)
        near = ", ".join(region_name(content, n) for n in found.neighbours) if found is not None else "?"
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
            god = content.gods.get(gods_at[a])
            reward = effects_text(god.bonus) if god is not None else "its god's favour"
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
        return f"Remove {card_name(content, a)} from the game (end of the Age: keep up to {KEEP_AT_AGE_END} cards)."
    if kind == "keep":
        return f"Keep the cards left in your hand (up to {KEEP_AT_AGE_END}) for the next Age; the others are gone."
    if kind == "raise":
        if a == "none":
            return "Raise no stat (a fulfilled quest's raise is yours to take or not); its Glory comes all the same."
        seen = dict(view, seat=seat)
        return f"Raise {STAT_NAMES.get(a, a)} one step{raise_text(seen, content, a)}."
    if kind == "destroy":
        return f"Destroy {name_of(_owner(owner))}'s {figure_name(content, a)} in the battle."
    if kind == "kill":
        return f"Destroy {name_of(_owner(owner))}'s {figure_name(content, b)} in {region_name(content, a)}."
    if kind == "reinforce":
        return f"Summon {a_figure(content, a)} from your reserve into the battle."
    if kind == "skip":
        return "Stop: take no more of these."
    return literal(str(action))


# --- the words -------------------------------------------------------------------------------


class BloodRageWords(PackWords[Content]):
    """Blood Rage: Valhalla's words (see the module docstring).

    Events name cards, regions and monsters by id: ``content`` is the pack that names them
    (:meth:`for_options` binds a table's).
    """

    hand_word = "cards"
    component_word = "cards"
    notation = NOTATION_HELP
    turn_rule = "one line holds one action, or a march with its moves"

    def default_pack(self) -> Content:
        """Blood Rage: Valhalla's own pack."""
        return default_content()

    def pack_of(self, options: Mapping[str, Any]) -> Content:
        """The pack a table's options name."""
        return content_of(options)

    # actions and decisions ----------------------------------------------------------

    def actions(self, view: Mapping[str, Any], legal: Sequence[str]) -> list[ActionWords]:
        """Label, group and target of each legal action."""
        content = content_for(view)
        result: list[ActionWords] = []
        for notation in legal:
            action = parse_action(notation)
            result.append(
                {
                    "notation": notation,
                    "label": _label(action, view, content),
                    "group": _group(action, view),
                    "target": _target(action),
                }
            )
        return result

    def target_notation(self, view: Mapping[str, Any], target: Mapping[str, Any]) -> str | None:
        """The action a board target names (the inverse of its ``target``), legal now or not."""
        kind = target.get("kind")

        def text(key: str) -> str:
            value = target.get(key)
            return value if isinstance(value, str) else ""

        if kind is None and text("card"):
            kind = _card_kind(view, text("card"))
        if not isinstance(kind, str):
            return None
        seat = target.get("seat")
        owner = seat if isinstance(seat, int) and not isinstance(seat, bool) else None
        if kind in ("done", "pass", "stay", "skip", "keep"):
            action = BRAction(kind)
        elif kind in ("summon", "join", "move"):
            action = BRAction(kind, text("figure"), text("region"))
        elif kind in ("march", "contest"):
            action = BRAction(kind, text("region"))
        elif kind == "kill":
            action = BRAction(kind, text("region"), text("figure"), owner)
        elif kind == "destroy":
            action = BRAction(kind, text("figure"), owner=owner)
        elif kind in ("pick", "upgrade", "quest", "drop", "play"):
            action = BRAction(kind, text("card") or "none")
        elif kind == "raise":
            action = BRAction(kind, text("stat") or "none")
        elif kind == "reinforce":
            action = BRAction(kind, text("figure"))
        else:
            return None
        return str(action)

    def preview(self, view: Mapping[str, Any], legal: Sequence[str], notation: str) -> Preview:
        """The action's cost (Rage) and effect in words, as the terminal's ``explain`` says it."""
        content = content_for(view)
        action = parse_action(notation)
        seat = view.get("seat")
        found: Preview = {
            "legal": True,
            "title": _label(action, view, content),
            "lines": [describe_action(action, view, seat if isinstance(seat, int) else None)],
        }
        cost = _cost(action, content)
        if cost:
            found["cost"] = cost
        return found

    def place(self, view: Mapping[str, Any], target: Mapping[str, Any], legal: Sequence[str]) -> Preview | None:
        """A region with no move of the seat's on it: its reward or god, its figures, and why nothing is done there."""
        region_id = target.get("region")
        content = content_for(view)
        if set(target) != {"region"} or not isinstance(region_id, str) or region_id not in content.regions:
            return None
        region = content.regions[region_id]
        god = (view.get("gods_at") or {}).get(region_id)
        lines = []
        if god is not None and god in content.gods:
            bonus = "; ".join(_lower(describe_effect(e)) for e in content.gods[god].bonus)
            lines.append(f"{god_name(content, god)} stands here: win a contest here to {bonus}.")
        else:
            lines.append(f"Win a contest here to raise {REWARD_WORDS.get(region.reward, '?')[1:]}.")
        figures = (view.get("board") or {}).get(region_id) or []
        lines.append(f"Here: {_pile_text(content, figures)}." if figures else "No figure stands here.")
        near = [region_name(content, n) for n in region.neighbours if n in content.regions]
        lines.append(f"Borders {', '.join(near)}.")
        closed = region_id in (view.get("region_tokens") or [])
        if region_id in (view.get("claimed") or []):
            lines.append("Its reward was claimed this Age: it cannot be contested again before the next Age.")
        if not legal:
            why = "It is not your decision now: nothing can be done here until you are asked."
        elif closed:
            why = (
                f"Its region token ({region.token}) closes it this Age: {TOKEN_CLOSES}, "
                "and no figure may be summoned there."
            )
        elif region.valhalla or god is not None:
            why = (
                f"No figure may be summoned into {region.name}; none of your choices now is played here: "
                f"{self.prompt(view, legal)}"
            )
        else:
            why = f"None of your choices now is played here: {self.prompt(view, legal)}"
        return {"legal": False, "title": region.name, "lines": lines, "refusal": why}

    def prompt(self, view: Mapping[str, Any], legal: Sequence[str]) -> str:
        """The decision the view's seat faces, in words."""
        content = content_for(view)
        actions = [parse_action(notation) for notation in legal]
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
                why = literal(str(data[2])) if len(data) > 2 else ""
                if len(data) > 3 and data[3]:
                    return f"You may raise one of your stats one step ({why}), or none."
                return f"Raise one of your stats one step ({why})."
            if kind == "destroy":
                count, why = (data[2], literal(str(data[4]))) if len(data) > 4 else (1, "A card's effect")
                return f"{why}: destroy an enemy figure in the battle in {where} ({count} to go)."
            if kind == "reinforce":
                count = data[3] if len(data) > 3 else 1
                return f"Summon a figure from your reserve into the battle in {where} ({count} to go), or stop."
            if kind == "kill":
                count = data[2] if len(data) > 2 else 1
                return f"Destroy an enemy figure in any region ({count} to go), or stop."
            return "Decide."
        if phase == "draft":
            direction = "right" if int(view["age"]) == 2 else "left"
            pick = len(view.get("my_drafted") or []) + 1
            pack = len(view.get("pack") or [])
            return (
                f"Draft: keep 1 of the {pack} cards in your pack (card {pick} of {view['draft_keep']} you keep "
                f"this Age); the rest passes {direction} once everybody has chosen."
            )
        if phase == "action":
            rage = clan.get("rage", 0)
            if all(action.kind == "pass" for action in actions):
                return f"You have {rage} Rage but nothing to do: pass."
            return f"Your action, with {rage} Rage: summon, march, upgrade, quest, contest or pass."
        if phase == "march":
            march = view.get("march") or {}
            origin = str(march.get("from", ""))
            found = content.regions.get(origin)
            near = ", ".join(region_name(content, n) for n in found.neighbours) if found is not None else ""
            left = figures_text(content, march.get("left") or [])
            text = (
                f"March from {region_name(content, origin)}: move a figure to an adjacent region ({near}); "
                f"still there: {left}."
            )
            if int(march.get("moved", 0)):
                text += " Or end the march."
            return text
        if phase == "call":
            count = "up to two figures" if clan.get("call_two") else "one figure"
            return f"Call to Battle in {where}: move {count} in from an adjacent region, or stay out."
        if phase == "battle":
            if actions and all(action.a == "none" for action in actions):
                return f"Battle in {where}: your hand is empty, so you fight without a card."
            return f"Battle in {where}: choose the card you fight with, face down. All cards are revealed together."
        if phase == "keep":
            drops = int(clan.get("drops", 0))
            # Say what choosing a card does: it removes the card (the cards kept are the rest).
            start = (
                f"End of Age {view['age']}: your discards are back in your hand, and at most "
                f"{KEEP_AT_AGE_END} go on to the next Age. Choosing a card removes it from the game"
            )
            if drops:
                return start + f": remove {plural(drops, 'more card')}."
            return start + "; or keep the cards you hold."
        return "Decide."

    # events --------------------------------------------------------------------------

    def event(self, event: Event, viewer: int | None) -> EventWords | None:
        """Every event the engine emits, as ``viewer`` reads it."""
        text, details, heading = self._event(event, viewer)
        if text is None:
            return None
        said: EventWords = {"text": text, "details": details}
        if heading:
            said["heading"] = True
        return said

    def _event(self, event: Event, viewer: int | None) -> tuple[str | None, list[str], bool]:
        data = event.data
        content = self.content
        seat = data.get("seat")
        mine = isinstance(seat, int) and seat == viewer
        who = _seat(seat)
        kind = event.kind

        def region(key: str = "region") -> str:
            return region_name(content, str(data.get(key, "")))

        def figure(key: str = "figure") -> str:
            return figure_name(content, str(data.get(key, "")))

        def article() -> str:
            return a_figure(content, str(data.get("figure", "")))

        def why() -> str:
            return literal(str(data.get("why", "")))

        if kind == "god-arrives":
            return f"Age {data['age']}: {god_name(content, str(data['god']))} arrives in {region()}.", [], False
        if kind == "dealt":
            return dealt_text(data), [], False
        if kind == "packs-passed":
            return f"The packs pass {data['direction']}.", [], False
        if kind == "picked":
            return f"You keep {card_name(content, str(data['card']))}.", [], False
        if kind == "chose":
            what = data.get("what")
            if what == "pick":
                return ("You have picked your card." if mine else f"{who} has picked a card."), [], False
            if what == "play":
                return (
                    ("You have chosen your battle card." if mine else f"{who} has chosen a battle card, face down."),
                    [],
                    False,
                )
            return f"{who} has chosen.", [], False
        if kind == "my-card":
            card = data.get("card")
            if card in (None, "none"):
                return "You play no card: your hand is empty.", [], False
            return f"You play {card_name(content, str(card))}, face down.", [], False
        if kind == "draft-over":
            return f"The draft of Age {data['age']} is over: every clan takes its cards into hand.", [], False
        if kind == "turn":
            return f"Age {data['age']}, Action phase: {who} to act", [], True
        if kind == "summoned":
            return f"{who} summons {article()} into {region()}.", [], False
        if kind == "march":
            return f"{who} marches from {region()}.", [], False
        if kind == "moved":
            return f"{who} moves {article()} from {region('from')} to {region('to')}.", [], False
        if kind == "upgraded":
            return f"{who} plays the upgrade {card_text(content, str(data['card']))}", [], False
        if kind == "committed":
            return f"{who} commits to a quest, face down.", [], False
        if kind == "committed-card":
            card = str(data["card"])
            return f"Your quest: {card_name(content, card)} ({quest_condition(content, card)}).", [], False
        if kind == "passed":
            return f"{who} passes: Rage drops to 0.", [], False
        if kind == "contest":
            return f"{who} starts a contest in {region()}: Call to Battle.", [], False
        if kind == "joined":
            return f"{who} moves {article()} from {region('from')} into {region()}.", [], False
        if kind == "stayed":
            return f"{who} stays out of the battle in {region()}.", [], False
        if kind == "no-battle":
            return f"No enemy in {region()}: no battle, the contest goes to {who}.", [], False
        if kind == "revealed":
            parts = []
            for key, card in (data.get("cards") or {}).items():
                found = content.cards.get(str(card)) if card else None
                bonus = f" (+{found.strength})" if found is not None and found.kind == "battle" else ""
                parts.append(f"{name_of(int(key))}: {card_name(content, card)}{bonus}")
            return f"Battle cards revealed in {region()}.", parts, False
        if kind == "strength":
            return f"{who} gets +{data['amount']} STR ({why()}).", [], False
        if kind == "battle":
            totals = [f"{name_of(int(k))}: {v} STR" for k, v in (data.get("strength") or {}).items()]
            winner = data.get("winner")
            if isinstance(winner, int):
                return f"Battle in {region()}: {name_of(winner)} wins.", totals, False
            return f"Battle in {region()}: a tie, every clan in it loses.", totals, False
        if kind == "killed":
            owner, by = data.get("owner"), data.get("by")
            monster = content.monsters.get(str(data.get("figure")))
            if monster is not None and any(e.do == "returns_when_killed" for e in monster.abilities):
                goes = "back to its reserve"
            elif isinstance(by, int):
                goes = f"to {name_of(by)}'s kill pile"
            else:
                goes = "to the Feast Hall"
            if data.get("why") == "Prove Valor":  # no death: the figure proves its valor
                return f"{_seat(owner)}'s {figure()} in {region()} goes to the Feast Hall (Prove Valor).", [], False
            return f"{_seat(owner)}'s {figure()} in {region()} is killed ({why()}) and goes {goes}.", [], False
        if kind == "saved":
            return f"{who}'s {figure()} goes back to the reserve instead of dying.", [], False
        if kind == "spent":
            return f"{who}'s {card_name(content, str(data['card']))} is spent: it is removed from the game.", [], False
        if kind == "reinforced":
            return f"{who} summons {article()} into the battle in {region()}.", [], False
        if kind == "claimed":
            return f"{who} wins the contest in {region()} and claims its reward.", [], False
        if kind == "glory":
            return f"{who} gains {data['amount']} Glory ({why()}): {data['total']} in all.", [], False
        if kind == "raised":
            stat = STAT_NAMES.get(str(data["stat"]), literal(str(data["stat"])))
            steps = len(content.tracks.get(str(data["stat"]), ())) or 6
            text = f"{who} raises {stat} to {data['value']} (step {int(data['step']) + 1}/{steps}; {why()})."
            return text, [], False
        if kind == "rage":
            amount = int(data["amount"])
            verb = f"gains {amount}" if amount >= 0 else f"loses {-amount}"
            return f"{who} {verb} Rage ({why()}).", [], False
        if kind == "drew":
            return f"You draw {card_name(content, str(data['card']))}.", [], False
        if kind == "drew-count":
            count = plural(int(data.get("count", 1)), "card")
            return (f"You draw {count}." if mine else f"{who} draws {count}."), [], False
        if kind == "quest-phase":
            return f"Quest phase of Age {data['age']}: every committed quest is revealed.", [], False
        if kind == "quest":
            card = str(data["card"])
            result = "fulfilled" if data.get("fulfilled") else "not fulfilled"
            text = f"{who} reveals the quest {card_name(content, card)} ({quest_condition(content, card)}): {result}."
            return text, [], False
        if kind == "valor":
            figures = plural(int(data["figures"]), "figure")
            return f"{who} proves valor in {region()}: {figures} go to the Feast Hall.", [], False
        if kind == "release":
            return f"End of Age {data['age']}: the kill piles and the Feast Hall go back to their clans.", [], False
        if kind == "dropped":
            return f"You remove {card_name(content, str(data['card']))} from the game.", [], False
        if kind == "kept":
            return f"{who} keeps {plural(int(data.get('count', 0)), 'card')} for the next Age.", [], False
        if kind == "no-raise":
            return f"{who} raises no stat ({why()}).", [], False
        if kind == "game-over":
            scores = list(data.get("scores") or [])
            places = list(data.get("places") or [])
            details = [
                f"{name_of(s)}: {plural(int(scores[s]), 'Glory', 'Glory')}, place {places[s]}"
                for s in range(min(len(scores), len(places)))
            ]
            return "Ragnarök: the game is over.", details, True
        return None, [], False

    # beside the board ------------------------------------------------------------------

    def heading(self, view: Mapping[str, Any]) -> str:
        """``Age 1, Action phase: {2}``, ``Age 1, draft, pick 2 of 5``, ``End of Age 1: ...``."""
        age = view["age"]
        phase = view.get("phase")
        seat = view.get("seat")
        movers = list(view.get("to_move") or [])
        deciding = isinstance(seat, int) and seat in movers
        content = content_for(view)
        where = region_name(content, str((view.get("battle") or {}).get("region", "")))
        decision = view.get("decision")
        if view.get("finished"):
            return "Ragnarök: the game is over"
        if decision is not None:
            what = {"raise": "a stat to raise", "destroy": "a figure to destroy", "kill": "a figure to destroy"}
            chooser = name_of(int(decision.get("seat", movers[0] if movers else 0)))
            return f"Age {age}: {chooser} chooses {what.get(decision.get('type'), 'figures to summon')}"
        if phase == "draft":
            drafted = [int(clan["drafted"]) for clan in view["clans"]]
            pick = (min(drafted) if drafted else 0) + 1
            text = f"Age {age}, draft, pick {pick} of {view['draft_keep']}"
            return text + (f": {name_of(seat)}" if deciding and isinstance(seat, int) else "")
        if phase == "call":
            caller = f": {name_of(int(movers[0]))}" if movers else ""
            return f"Age {age}, Call to Battle in {where}{caller}"
        if phase in ("battle", "resolving"):
            if deciding and isinstance(seat, int):
                return f"Age {age}, battle in {where}: {name_of(seat)} chooses a card"
            return f"Age {age}, battle in {where}"
        if phase == "keep":
            if deciding and isinstance(seat, int):
                return f"End of Age {age}: {name_of(seat)} keeps up to {KEEP_AT_AGE_END} cards"
            return f"End of Age {age}: every clan keeps up to {KEEP_AT_AGE_END} cards"
        if phase in ("action", "march"):
            current = view.get("current")
            return f"Age {age}, Action phase: {_seat(current)}"
        return f"Age {age}, {PHASE_NAMES.get(str(phase), literal(str(phase)))}"

    def status(self, view: Mapping[str, Any]) -> list[str]:
        """The Age, phase, gods and deck; the battle; the kill piles, Feast Hall, spent cards; the stat legend."""
        content = content_for(view)
        phase = str(view.get("phase"))
        age = int(view["age"])
        first = f"Age {age} · {PHASE_NAMES.get(phase, literal(phase))} · deck {plural(int(view['deck']), 'card')}"
        if view.get("finished"):
            first = f"Ragnarök: the game is over · Age {age}"
        lines = [first]
        gods = []
        where = {god: region for region, god in (view.get("gods_at") or {}).items()}
        for number, god in enumerate(view.get("gods") or [], start=1):
            place = f", in {region_name(content, where[god])}" if god in where else ""
            gods.append(f"{god_name(content, god)} (Age {number}{place})")
        if gods:
            lines.append("Gods: " + ", ".join(gods))
        if view.get("content_label"):
            lines.append(f"Cards and map: {literal(str(view['content_label']))}.")
        if "first" in view and not view.get("finished"):
            lines.append(f"{name_of(int(view['first']))} went first this Age.")
        closed = [
            f"{region_name(content, r)} (token {content.regions[r].token})"
            for r in view.get("region_tokens") or []
            if r in content.regions
        ]
        if closed:
            lines.append("Closed this Age (no summoning, no contest): " + ", ".join(closed))
        if view.get("claimed"):
            lines.append("Won this Age: " + ", ".join(region_name(content, str(r)) for r in view["claimed"]))
        lines.extend(battle_lines(view))
        piles = []
        for holder, pile in enumerate(view.get("killpiles") or []):
            if pile:
                piles.append(f"{name_of(holder)} holds {_pile_text(content, pile)}")
        if piles:
            lines.append("Kill piles: " + "; ".join(piles) + " (back to their clans at the end of the Age)")
        if view.get("feast"):
            lines.append(f"Feast Hall: {_pile_text(content, view['feast'])}")
        if view.get("spent"):
            lines.append(
                "Spent (removed from the game): " + ", ".join(card_name(content, str(c)) for c in view["spent"])
            )
        if view.get("monsters_in_play"):
            lines.append(
                "Monsters in this game: " + ", ".join(figure_name(content, str(m)) for m in view["monsters_in_play"])
            )
        high, top = content.legendary["high"], content.legendary["top"]
        lines.append(f"Stats: at the end a stat on step 4 or 5 of its track gives +{high} Glory, on step 6 +{top}.")
        return lines

    def seat_count(self, view: Mapping[str, Any]) -> int:
        """One clan sheet per seat."""
        return len(view["clans"])

    def seat(self, view: Mapping[str, Any], seat: int) -> str:
        """``Bear clan · Glory 12 · 3 Rage left to spend · stats: Rage 6 (step 1 of 6), ... · reserve 6 warriors``.

        In words, not shorthand: a newcomer reads the Players panel without a legend.
        """
        content = content_for(view)
        clan = view["clans"][seat]
        phase = str(view.get("phase"))
        stats = ", ".join(stat_text(content, clan, stat) for stat in STATS)
        # The Rage a clan has left this Age and its Rage stat are both "Rage": say which is which.
        parts = [
            f"{clan_name(seat)} clan",
            f"Glory {clan['glory']}",
            f"{clan['rage']} Rage left to spend",
            f"stats: {stats}",
        ]
        if clan.get("passed") and phase in ("action", "march", "call"):
            parts.append("passed")
        upgrades = [card_name(content, str(c)) for c in clan["upgrades"]]
        used = len(clan["upgrades"]) + int(clan["quests"])
        parts.append(f"upgrades {used} of {SLOTS} slots: " + (", ".join(upgrades) if upgrades else "none"))
        parts.append(f"quests {clan['quests']} face down")
        parts.append(f"hand {clan['hand']}")
        reserve = clan["reserve"]
        kinds = ["warrior"] * int(reserve["warrior"]) + ["elite"] * int(reserve["elite"]) + list(reserve["monsters"])
        parts.append(f"reserve {figures_text(content, kinds)}")
        if phase == "draft":
            picked = view.get("picked") or []
            parts.append(f"drafted {clan['drafted']}" + (" +1 picked" if seat < len(picked) and picked[seat] else ""))
            if clan.get("saved"):
                parts.append(f"kept {clan['saved']} from the last Age")
        if phase == "keep" and clan.get("keeping"):
            drops = int(clan.get("drops", 0))
            parts.append(f"must drop {drops}" if drops else "choosing the cards to keep")
        if clan.get("known") and seat != view.get("seat"):
            parts.append("known in hand: " + ", ".join(card_name(content, str(c)) for c in clan["known"]))
        if clan.get("discards"):
            parts.append("discards: " + ", ".join(card_name(content, str(c)) for c in clan["discards"]))
        record = []
        if clan.get("battles_won"):
            record.append(f"won {plural(int(clan['battles_won']), 'battle')}")
        if clan.get("battles_lost"):
            record.append(f"lost {plural(int(clan['battles_lost']), 'battle')}")
        if clan.get("contests_won"):
            record.append(f"won {plural(int(clan['contests_won']), 'contest')}")
        if record:
            parts.append(", ".join(record) + " this Age")
        return " · ".join(parts)

    def places(self, view: Mapping[str, Any]) -> dict[str, str]:
        """Each region with figures, by its id: every clan's STR there, a line each (``{0}: STR 5``)."""
        return {
            region: "\n".join(f"{name_of(int(seat))}: STR {total}" for seat, total in by_seat.items())
            for region, by_seat in (view.get("strength") or {}).items()
            if by_seat
        }

    def titles(self, view: Mapping[str, Any]) -> dict[str, str]:
        """The map's name, the last battle's heading and, for a seat, the headings of its cards.

        ``cards``: the pack it drafts from while it has one, else its hand, with their count;
        ``slots``: its upgrades and quests.
        """
        titles = {"map": "The map", "battle": "Last battle"}
        if view.get("seat") is not None:
            pack = view.get("pack") or []
            drafting = view.get("phase") == "draft" and pack
            titles["cards"] = f"Your pack ({len(pack)})" if drafting else f"Your hand ({len(view.get('hand') or [])})"
            titles["slots"] = "Your upgrades and quests"
        return titles

    def result(self, view: Mapping[str, Any]) -> ResultWords:
        """Places, Glory and Rage left; how each tie was broken (most Glory, then the most Rage left)."""
        clans = list(view["clans"])
        keys = [(-int(c["glory"]), -int(c["rage"])) for c in clans]
        places: list[int] = list(view.get("places") or [1 + sum(1 for o in keys if o < k) for k in keys])
        placed = standings(places, lambda s: f"{clans[s]['glory']} Glory ({clans[s]['rage']} Rage left)")
        notes: list[str] = []
        for glory, tied in ties([entry["seat"] for entry in placed], lambda s: int(clans[s]["glory"])):
            names = joined([name_of(s) for s in tied])
            rages = [int(clans[s]["rage"]) for s in tied]
            if len(set(rages)) == 1:
                notes.append(f"Tie: {names} have {glory} Glory and {rages[0]} Rage left each: they share the place.")
                continue
            detail = ", ".join(f"{name_of(s)} {clans[s]['rage']}" for s in tied)
            notes.append(
                f"Tie-break: {names} have {glory} Glory each; the most Rage left places higher ({detail}), "
                f"so {name_of(tied[0])} places higher."
            )
        notes.append("Legendary stat bonuses are included in the Glory above; the game log lists every gain.")
        return {"standings": placed, "notes": notes}

    def components(self, options: Mapping[str, Any] | None = None) -> list[ComponentWords]:
        """The gods, monsters, cards and regions of the content pack; the clans; the stat tracks and their steps.

        Keys: ``clan:<seat>`` (the clan a seat plays), ``track:<stat>`` (a stat track) and
        ``track:<stat>:<step>`` (a step of it, from 0: its value, and the Glory it gives at
        the end); the board plugin draws the clan sheets from them.
        """
        content = content_of(options or {})
        parts: list[ComponentWords] = []
        for seat, clan in enumerate(CLANS):
            parts.append(
                {
                    "key": f"clan:{seat}",
                    "name": clan,
                    "value": "",
                    "facts": "clan",
                    "text": f"{seat_label(seat)} plays {clan}.",
                }
            )
        for stat in STATS:
            track = content.tracks[stat]
            parts.append(
                {
                    "key": f"track:{stat}",
                    "name": STAT_NAMES[stat],
                    "value": "",
                    "facts": f"stat track, {len(track)} steps: " + " ".join(str(value) for value in track),
                    "text": f"A stat on step 4 or 5 gives +{content.legendary['high']} Glory at the end, "
                    f"on step {len(track)} +{content.legendary['top']}.",
                }
            )
            for step, value in enumerate(track):
                bonus = step_bonus(content, stat, step)
                parts.append(
                    {
                        "key": f"track:{stat}:{step}",
                        "name": f"{STAT_NAMES[stat]} {value}",
                        "value": str(value),
                        "facts": f"step {step + 1}/{len(track)}",
                        "text": f"+{bonus} Glory at the end." if bonus else "No Glory at the end.",
                    }
                )
        for reward, said in REWARD_WORDS.items():
            parts.append(
                {
                    "key": f"reward:{reward}",
                    "name": f"Reward: {said}",
                    "value": said,
                    "facts": "a region's reward",
                    "text": f"Win a contest in a region with this reward to raise {said[1:]} one step.",
                }
            )
        for god in content.gods.values():
            cards = len(content.god_cards(god.id))
            parts.append(
                {
                    "key": god.id,
                    "name": god.name,
                    "value": "",
                    "facts": f"god · {god.theme}; {cards} cards",
                    "text": "Win a contest in its region to "
                    + "; ".join(_lower(describe_effect(e)) for e in god.bonus),
                }
            )
        for monster in content.monsters.values():
            parts.append(
                {
                    "key": monster.id,
                    "name": monster.name,
                    "value": f"STR {monster.strength}",
                    "facts": f"monster · STR {monster.strength}, {monster.base} base, costs {monster.cost} Rage",
                    "text": " ".join(describe_effect(e) + "." for e in monster.abilities),
                }
            )
        for card in content.cards.values():
            parts.append(_card_component(content, card))
        for region in content.regions.values():
            near = ", ".join(content.regions[n].name for n in region.neighbours if n in content.regions)
            if region.valhalla:
                facts = f"valor, {REWARD_WORDS.get(region.reward, region.reward)}"
            else:
                facts = f"common, {REWARD_WORDS.get(region.reward, region.reward)} · token {region.token}"
            parts.append(
                {"key": region.id, "name": region.name, "value": "", "facts": facts, "text": f"Borders {near}."}
            )
        return parts


def _lower(text: str) -> str:
    return text[:1].lower() + text[1:]


def _card_component(content: Content, card: Card) -> ComponentWords:
    owner = content.gods[card.god].name if card.god and card.god in content.gods else "monster card"
    if card.kind == "battle":
        value, kind = f"+{card.strength}", f"battle card, STR +{card.strength}"
    elif card.kind == "upgrade":
        value, kind = f"{card.strength} Rage", f"{card.upgrade or 'clan'} upgrade, costs {card.strength} Rage"
    else:
        value, kind = "quest", "quest"
    return {
        "key": card.id,
        "name": card.name,
        "value": value,
        "facts": f"{owner} · {kind}",
        "text": describe_card(card, content),
    }


def _pile_text(content: Content, pile: Sequence[Sequence[Any]]) -> str:
    owners = sorted({int(owner) for owner, _ in pile})
    return ", ".join(
        f"{name_of(o)} {figures_text(content, [str(k) for owner, k in pile if owner == o])}" for o in owners
    )


WORDS = BloodRageWords()
