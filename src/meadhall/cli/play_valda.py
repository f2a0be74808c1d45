"""Valda in the terminal: the god areas, the players' boards, cards, dice and events.

:class:`ValdaRenderer` is the :class:`~meadhall.cli.play.Renderer` that
:class:`~meadhall.cli.play.TerminalGame` uses for ``meadhall play valda``. The functions
below render a seat's *view* (never a state) with the game's content pack (god, card and
god-weapon names and texts); they can be used on their own.

Every decision is one action in Valda notation (``take:gold``, ``play:scout``,
``build:odin``, ``attack:raid``, ``done`` ...) or the number ``hint`` gives it. A
response window (a moment where a god weapon may answer) that offers a person nothing
but ``pass`` is passed for them without a prompt: the engine asks every seat with a part
in the moment, holding a weapon or not, so that nobody learns who holds one.
"""

from __future__ import annotations

import re
import textwrap
from collections.abc import Callable, Hashable, Mapping, Sequence
from typing import Any

from meadhall.cli.play import CONTINUE, Command, Renderer, TerminalGame, numbered_or_notation, plural
from meadhall.core.game import Action, Event, GameState
from meadhall.games.valda.content import Content, amount_text, default_content, describe_card
from meadhall.games.valda.game import content_of
from meadhall.games.valda.notation import PASS, ValdaAction
from meadhall.games.valda.state import RACE_GOAL, SAFE_ZONES, SITES

DEFAULT_SAVE = "meadhall-valda-save.json"
WIDTH = 100
RESOURCES = ("drop", "gold", "diamond")
PHASE_NAMES = {
    "setup": "Setup",
    "resources": "Resources phase",
    "game": "Game phase",
    "building": "Building phase",
    "attack": "Attack phase",
    "followers": "Followers phase",
    "over": "Game over",
}
BUILDING_NAMES = {"mine": "mine", "drill": "blood drill"}
#: Why a free building that waited can no longer go up (the free-build-lapsed event's reason).
LOST_ROOM = {
    "full": "its area's five sites are taken",
    "locked": "another player locked its area",
    "no-temples": "no temple figure is left",
    "limit": "the limit of mines or blood drills is reached",
}
WINDOW_WORDS = {
    "rolled": "dice were rolled",
    "announced": "an attack was announced",
    "defended": "a defence held",
    "building": "a last building was announced",
}
#: ``hint`` groups: (group, action kinds, note).
HINT_GROUPS: tuple[tuple[str, frozenset[str], str], ...] = (
    ("cards", frozenset({"play", "use", "buy", "keep", "attack", "defend", "discard", "card"}), "cards"),
    ("resources", frozenset({"take", "trade", "swap", "choose", "steal"}), "resources"),
    ("build", frozenset({"build", "destroy", "move"}), "buildings"),
    ("followers", frozenset({"thor", "thor2", "odin", "odin2", "loki", "convert"}), "followers"),
    ("choices", frozenset({"seat", "god", "face"}), "a player, a god or a die"),
    ("weapons", frozenset({"weapon"}), "god weapons, no action"),
    ("end", frozenset({"draw", "done", "pass", "yield"}), ""),
)

NOTATION_HELP = """\
Valda moves (type one per line, or the number 'hint' gives it):
  trade:gold>drop      resources phase: 4 gold for 1 divine blood (drop, gold, diamond)
  swap:gold>drop       Heimdall's ability: 2 (or 1) of a resource for 1 of another
  choose:gold          a resource of your choice (a die face, a card, a discount)
  take:gold            game phase: one resource for one action
  play:scout           game phase: a yellow card from your hand; use:scout from the open cards
  draw                 game phase: two cards from the base deck for two actions
  buy:raid             Freya's ability: an open card into your hand for one action
  build:mine           building phase: build:mine, build:drill or build:GOD (a temple)
  keep:CARD            of the two god cards you look at, keep this one (for a locked area: it joins the open cards)
  attack:raid / pass   attack the player whose turn it is, or not
  defend:CARD / yield  add a defence card, or stop defending
  steal:gold  destroy:mine  destroy:GOD  move:GOD>GOD   an attack's impact
  thor:gold  thor2:gold  odin  odin2  loki  convert      followers phase
  seat:N  god:GOD  card:CARD  face:DIE>FACE              a choice (seats from 0)
  weapon:OPTION        play an option of a god weapon you hold (no action)
  done                 end the phase (or stop repeating an effect)"""

COMMANDS_HELP = """\
Commands:
  hint [GROUP]  your legal moves, numbered (groups: cards, resources, build, followers, weapons)
  board / map   the god areas; scores / players: everyone's board; hand: your cards
  cards [CARD]  the text of a card (or of every card in your hand and the open cards)
  gods          the gods, temple costs and abilities
  log [all]     what happened; save FILE, load FILE, help, quit"""

GOD_ABILITIES = {
    "heimdall": "resources phase: 2 of a resource for 1 of another (two temples: 1 for 1)",
    "freya": "the open cards are yours alone to see; buy an open card for an action (two temples: 3 open cards)",
    "surtur": "your attacks +1 (two or three players: +2; two temples: more)",
    "tyr": "your defence +1 (two temples: more)",
    "thor": "followers phase: 3 gold or 3 diamonds for a follower (two temples: 2)",
    "odin": "followers phase: 2 divine blood for a follower (two temples: also 3 for 2)",
    "loki": "followers phase: roll white dice for followers (one per temple)",
}


# --- names -------------------------------------------------------------------------------------


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


def option_name(content: Content, option: str) -> str:
    """A god weapon option's name: ``Crown of Fortune``."""
    for card in content.cards.values():
        for choice in card.options:
            if choice.id == option:
                return choice.name
    return option


def building_name(content: Content, building: str) -> str:
    """``mine``, ``blood drill``, ``temple of Odin``."""
    if building in content.gods:
        return f"temple of {god_name(content, building)}"
    return BUILDING_NAMES.get(building, building)


def resources_text(resources: Mapping[str, int]) -> str:
    """``2 divine blood, 3 gold, 0 diamonds``."""
    return ", ".join(amount_text(name, int(resources.get(name, 0))) for name in RESOURCES)


def cost_text(cost: Mapping[str, int]) -> str:
    """A cost with only its non-zero parts: ``2 gold, 2 diamonds``."""
    return ", ".join(amount_text(name, int(cost[name])) for name in RESOURCES if cost.get(name)) or "nothing"


def why_text(content: Content, why: Any) -> str:
    """The reason an event names, for people: a card, a weapon, or a phrase with gods' names."""
    text = str(why)
    if text in content.cards:
        return card_name(content, text)
    named = option_name(content, text)
    if named != text:
        return named
    if text in content.gods:
        return f"{god_name(content, text)}'s ability"
    return re.sub(r"\b[a-z]+\b", lambda m: god_name(content, m.group(0)) if m.group(0) in content.gods else m.group(0),
                  text)  # fmt: skip


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


# --- the board -----------------------------------------------------------------------------------


def render_areas(view: Mapping[str, Any], content: Content, labels: Sequence[str]) -> list[str]:
    """The seven god areas: temple cost, the five sites (seat numbers), locks."""
    lines = ["God areas (sites: the seat number of each temple, . = free):"]
    for god, owners in view["sites"].items():
        sites = " ".join([str(int(s) + 1) for s in owners] + ["."] * (SITES - len(owners)))
        lock = view["locks"].get(god)
        locked = f"  locked by {labels[int(lock)]}" if lock is not None else ""
        lent = "  (lent this turn)" if god in view.get("lent", []) else ""
        name = god_name(content, god)
        lines.append(f"  {name:<9} [{sites}]  cost {cost_text(content.gods[god].temple_cost)}{locked}{lent}")
    return lines


def round_text(number: int, last_round: int, race: bool) -> str:
    """``Round 3 of 6``; in Race to the Gods, whose rounds go on until 20 followers: ``Round 8 of at most 20``."""
    return f"Round {number} of {'at most ' if race else ''}{last_round}"


def render_turn(view: Mapping[str, Any], content: Content, labels: Sequence[str]) -> list[str]:
    """Round, whose turn, phase, actions and builds left, the dice, the open cards."""
    race = bool((view.get("options") or {}).get("race-to-the-gods"))
    rounds = round_text(int(view["round"]), int(view["last_round"]), race)
    if view["finished"]:
        return [f"{rounds}: the game is over."]
    current = view["current"]
    phase = PHASE_NAMES.get(view["phase"], view["phase"])
    lines = [f"{rounds}, {labels[current]}'s turn: {phase}."]
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
        lines.append(f"  Open cards: {view['open_count']}, seen by {labels[current]} alone (Freya).")
    attack = view.get("attack") or {}
    if attack.get("card"):
        lines.append(
            f"  Attack: {labels[int(attack['attacker'])]} on {labels[int(attack['target'])]} with "
            f"{card_name(content, attack['card'])}, power {attack.get('power', 0)}, "
            f"defence {attack.get('defence', 0)}."
        )
    return lines


def die_text(content: Content, colour: str, face: int) -> str:
    """``yellow: 2 gold``: a die as rolled."""
    shown = content.dice[colour][face]
    parts = []
    for name, amount in shown.resources.items():
        parts.append(f"{amount} of choice" if name == "choice" else amount_text(name, amount))
    if shown.followers:
        parts.append(f"{shown.followers:+d} follower" + ("s" if abs(shown.followers) != 1 else ""))
    return f"{colour} {', '.join(parts) or 'blank'}"


def render_seats(view: Mapping[str, Any], content: Content, labels: Sequence[str]) -> list[str]:
    """Every player's board: followers (and safe zone), resources, buildings, cards in hand."""
    lines = ["Players (followers on Yggdrasil; safe zones at " + ", ".join(map(str, SAFE_ZONES)) + "):"]
    for seat in view["order"]:
        info = view["seats"][seat]
        temples = ", ".join(f"{god_name(content, g)} {n}" for g, n in info["temples"].items() if n) or "none"
        safe = f" (safe at {info['floor']})" if info["floor"] else ""
        mark = ">" if seat == view["current"] and not view["finished"] else " "
        lines.append(f" {mark}{labels[seat]}: {plural(info['followers'], 'follower')}{safe}")
        lines.append(
            f"     {resources_text(info['resources'])}; {plural(info['mines'], 'mine')}, "
            f"{plural(info['drills'], 'blood drill')}; temples: {temples}; {plural(info['hand'], 'card')} in hand"
        )
        known = (view.get("known") or [])[seat] if seat != view.get("seat") else []
        if known:
            lines.append("     known to be in that hand: " + ", ".join(card_name(content, c) for c in known))
    return lines


def render_hand(view: Mapping[str, Any], content: Content, label: str) -> list[str]:
    """The viewer's hand with every card's text, and the cards it knows lie under the decks."""
    hand = view.get("hand") or []
    lines = (
        [f"Your hand, {label} ({plural(len(hand), 'card')}):", *card_lines(content, hand)]
        if hand
        else [f"Your hand, {label}: no cards."]
    )
    under = []  # cards the viewer saw go under a deck ("?": one it did not see)
    for deck, cards in (view.get("bottoms") or {}).items():
        if any(cards):
            name = "base deck" if deck == "base" else f"{god_name(content, deck)}'s deck"
            under.append(f"{name}: " + ", ".join(card_name(content, c) if c else "?" for c in cards))
    if under:
        lines.append("Under the decks, from the bottom: " + "; ".join(under))
    return lines


# --- decisions ---------------------------------------------------------------------------------


def instructions(view: Mapping[str, Any], content: Content, legal: Sequence[Action], labels: Sequence[str]) -> str:
    """What the decision is, in words, with the notation to type."""
    decision = view.get("decision") or {}
    kind = decision.get("kind")
    why = why_text(content, decision["why"]) if decision.get("why") else ""
    weapons = any(isinstance(a, ValdaAction) and a.kind == "weapon" for a in legal)
    extra = (
        " A god weapon may be played now (weapon:OPTION, see 'hint weapons')." if weapons and kind != "window" else ""
    )
    texts: dict[str, Callable[[], str]] = {
        "resources": lambda: (
            "Trade 4 of a resource for 1 of another (trade:gold>drop)"
            + (" or use Heimdall (swap:gold>drop)" if any(getattr(a, "kind", "") == "swap" for a in legal) else "")
            + ", or 'done'."
        ),
        "choose": lambda: f"Choose a resource ({why}): choose:drop, choose:gold or choose:diamond.",
        "game": lambda: (
            f"{plural(int(view['actions']), 'action')} left: play:CARD, use:CARD (an open card), take:gold, "
            "draw (two actions)"
            + (", buy:CARD" if any(getattr(a, "kind", "") == "buy" for a in legal) else "")
            + ", or 'done'."
        ),
        "hand-limit": lambda: (
            f"You hold more than 10 cards: discard one (discard:CARD; {len(view.get('hand') or [])} now)."
        ),
        "build": lambda: f"Build ({view['builds']} left): build:mine, build:drill, build:GOD (a temple), or 'done'.",
        "keep": lambda: (
            (f"{why}: " if why else f"Temple of {god_name(content, str(decision.get('god')))}: ")
            + f"of the top cards of {god_name(content, str(decision.get('god')))}'s deck, keep one in your hand, "
            "the other goes under the deck (keep:CARD): "
            + ", ".join(f"{c} ({card_name(content, c)})" for c in decision.get("cards") or [])
            + "."
        ),
        "lock-card": lambda: (
            f"Your locked area of {god_name(content, str(decision.get('god')))}: of the top cards of its deck, "
            "choose the one that joins your open cards, the other goes under the deck (keep:CARD): "
            + ", ".join(f"{c} ({card_name(content, c)})" for c in decision.get("cards") or [])
            + "."
        ),
        "attack": lambda: (
            f"Attack {labels[int(decision.get('target', 0))]} with an attack card (attack:CARD), or 'pass'."
        ),
        "defend": lambda: "You are attacked: add a defence card (defend:CARD) or 'yield'.",
        "free-build": lambda: f"{why}: build one building now (build:...), or 'done' to give it up.",
        "waive": lambda: f"{why}: choose a resource the discount waives (choose:...).",
        "convert": lambda: (
            f"{why}: change {amount_text(str(decision.get('give')), int(decision.get('amount', 0)))} into "
            f"{plural(int(decision.get('followers', 0)), 'follower')} once more ('convert'), or 'done'."
        ),
        "look": lambda: f"{why}: whose hand do you look at? seat:N.",
        "peek": lambda: (
            f"{why}: take one of these cards (card:CARD): "
            + ", ".join(f"{c} ({card_name(content, c)})" for c in decision.get("cards") or [])
            + "."
        ),
        "switch": lambda: f"{why}: which open card goes back for the top card of the base deck? card:CARD.",
        "lend": lambda: f"{why}: which god lends you a 1-temple ability this turn? god:GOD.",
        "destroy": lambda: f"{why}: destroy one of {labels[int(decision.get('target', 0))]}'s buildings (destroy:...).",
        "move": lambda: f"{why}: move one of {labels[int(decision.get('target', 0))]}'s temples (move:GOD>GOD).",
        "god-draw": lambda: f"{why}: draw from which god deck? god:GOD.",
        "discard-pick": lambda: f"{why}: take which card from the discard pile? card:CARD.",
        "steal": lambda: f"{why}: take which resource from {labels[int(decision.get('target', 0))]}? steal:...",
        "followers": lambda: (
            "Followers phase: thor:gold, thor2:gold, odin, odin2, loki (where your temples allow), or 'done'."
        ),
        "thief": lambda: "Thief: take a card at random from a player's hand (seat:N) or an open card (card:CARD).",
        "hammer": lambda: "Hammertime: which of your yellow cards is played twice? card:CARD.",
        "face": lambda: "Crown of Fortune: turn which die to which face? face:DIE>FACE (both counted from 0).",
        "redirect": lambda: "Vanished: which player must be attacked instead? seat:N.",
        "window": lambda: (
            f"A god weapon may answer now ({WINDOW_WORDS.get(str(decision.get('window')), 'a moment')}): "
            "weapon:OPTION, or 'pass'."
        ),
    }
    text = texts.get(str(kind))
    return (text() if text is not None else "Type a move ('hint' lists them).") + extra


def hint_group(action: Action) -> str:
    """The group ``hint`` lists an action under."""
    kind = action.kind if isinstance(action, ValdaAction) else str(action)
    for group, kinds, _ in HINT_GROUPS:
        if kind in kinds:
            return group
    return "other"


def ordered_actions(legal: Sequence[Action]) -> list[Action]:
    """``legal`` in the order ``hint`` lists and numbers them."""
    order = {group: index for index, (group, _, _) in enumerate(HINT_GROUPS)}
    return sorted(legal, key=lambda a: order.get(hint_group(a), len(order)))


def describe_choice(action: Action, view: Mapping[str, Any], content: Content, labels: Sequence[str]) -> str:
    """A few words after an action in ``hint``."""
    if not isinstance(action, ValdaAction):
        return ""
    kind, a, b = action.kind, action.name, action.to
    if kind in ("play", "use", "buy", "keep", "attack", "defend", "discard", "card") and a:
        return card_name(content, a)
    if kind == "build":
        cost = content.gods[a].temple_cost if a in content.gods else content.buildings.get(a, {})
        return f"{building_name(content, a)}, {cost_text(cost)}"
    if kind in ("destroy",):
        return building_name(content, a)
    if kind == "move":
        return f"{god_name(content, a)} to {god_name(content, b)}"
    if kind == "god":
        return god_name(content, a)
    if kind == "seat":
        return labels[int(a)] if int(a) < len(labels) else ""
    if kind == "weapon":
        return option_name(content, a)
    if kind == "face":
        dice = view.get("dice") or []
        index = int(a)
        if index < len(dice):
            return f"{die_text(content, dice[index][0], dice[index][1])} -> {die_text(content, dice[index][0], int(b))}"
    if kind in ("thor", "thor2"):
        return f"{3 if kind == 'thor' else 2} {'gold' if a == 'gold' else 'diamonds'} for a follower"
    if kind == "odin":
        return "2 divine blood for a follower"
    if kind == "odin2":
        return "3 divine blood for 2 followers"
    return ""


def format_hint(
    legal: Sequence[Action], only: str | None, view: Mapping[str, Any], content: Content, labels: Sequence[str]
) -> list[str]:
    """``legal`` grouped and numbered (the numbers can be typed); ``only`` keeps one group."""
    notes = {group: note for group, _, note in HINT_GROUPS}
    groups: dict[str, list[str]] = {}
    for number, action in enumerate(ordered_actions(legal), start=1):
        group = hint_group(action)
        if only is not None and only.lower() not in (group, str(getattr(action, "kind", ""))):
            continue
        words = describe_choice(action, view, content, labels)
        groups.setdefault(group, []).append(f"{number}) {action}" + (f" ({words})" if words else ""))
    lines = [f"Legal moves ({sum(len(v) for v in groups.values())}); type one, or its number:"]
    for group, items in groups.items():
        head = f"  {group} ({notes[group]}): " if notes.get(group) else f"  {group}: "
        current = head
        for item in items:
            if current != head and len(current) + len(item) + 2 > WIDTH:
                lines.append(current.rstrip())
                current = " " * 6
            current += item + "  "
        lines.append(current.rstrip())
    if not groups:
        lines.append(f"  none in the group {only!r}")
    return lines


# --- events ------------------------------------------------------------------------------------

#: Public counterparts of private events: a viewer who saw the private one skips them.
_PUBLIC_TWINS = {"drew-count": "seat", "stole-count": "seat", "god-cards": "seat", "opened-closed": "seat"}


def followers_text(who: str, data: Mapping[str, Any], why: str) -> str:
    """A gain or loss of followers in words.

    A loss carries ``shielded``, what was not lost: kept by the safe zone the player stands
    on (the new total), or not there to lose (a total of 0).
    """
    change, total = int(data["change"]), int(data["total"])
    if "shielded" not in data:
        paid = f" for {cost_text(data['paid'])}" if data.get("paid") else ""
        return f"{who} gains {plural(change, 'follower')}{paid} ({why}): {total}."
    lost, shielded = -change, int(data["shielded"])
    if total == 0:
        if not lost:
            return f"{who} has no followers to lose ({why})."
        return f"{who} loses {'their last follower' if lost == 1 else f'all {lost} of their followers'} ({why}): 0."
    saved = f"the safe zone at {total} saves {plural(shielded, 'follower')}" if shielded else ""
    if not lost:
        return f"{who} loses no followers ({why})" + (f": {saved}." if saved else ".")
    return f"{who} loses {plural(lost, 'follower')} ({why}): {total}" + (f"; {saved}." if saved else ".")


def format_event(event: Event, content: Content, labels: Sequence[str], viewer: int | None) -> list[str]:
    """Lines for one event, as ``viewer`` sees it (the caller filters by audience)."""
    d = event.data
    kind = event.kind

    def name(key: str = "seat") -> str:
        return labels[int(d[key])]

    def why() -> str:
        return why_text(content, d.get("why", ""))

    def cards(key: str = "cards") -> str:
        return ", ".join(card_name(content, c) for c in d[key]) or "nothing"

    if kind in _PUBLIC_TWINS and viewer is not None and viewer == d.get(_PUBLIC_TWINS[kind]):
        return []  # the viewer saw the private event with the cards themselves
    if kind == "stole-count" and viewer == d.get("target"):
        return []
    match kind:
        case "round":
            order = ", ".join(labels[int(s)] for s in d["order"])
            return [f"{round_text(int(d['round']), int(d['last_round']), bool(d.get('race')))} begins: {order}."]
        case "turn":
            return [f"{name()}'s turn."]
        case "rolled":
            dice = ", ".join(die_text(content, c, int(f)) for c, f in d["dice"])
            return [f"{name()} rolls ({why()}): {dice}."]
        case "turned-die":
            return [f"{name()} turns die {int(d['die']) + 1} to {die_text(content, d['colour'], int(d['face']))}."]
        case "gained":
            return [f"{name()} takes {amount_text(d['resource'], int(d['amount']))} ({why()})."]
        case "traded":
            via = " with Heimdall" if d.get("why") == "heimdall" else ""
            given = amount_text(d["give"], int(d["amount"]))
            return [f"{name()} trades {given} for {amount_text(d['get'], 1)}{via}."]
        case "followers":
            return [followers_text(name(), d, why())]
        case "opened":
            return [f"Open cards for {name()}: {cards()}."]
        case "opened-closed":
            return [f"{name()} turns up {plural(int(d['count']), 'open card')}, seen by them alone (Freya)."]
        case "reshuffled":
            return [f"The discard pile is shuffled into a new base deck ({plural(int(d['cards']), 'card')})."]
        case "played":
            twice = " twice (Hammertime)" if d.get("twice") else ""
            return [f"{name()} plays {card_name(content, d['card'])}{twice}."]
        case "drew":
            return [f"{name()} draws {cards()} ({why()})."]
        case "drew-count":
            return [f"{name()} draws {plural(int(d['count']), 'card')} ({why()})."]
        case "bought":
            return [f"{name()} buys {card_name(content, d['card'])} from the open cards."]
        case "discarded":
            return [f"{name()} discards {cards()} ({why()})."]
        case "built":
            paid = cost_text(d.get("paid") or {})
            return [f"{name()} builds a {building_name(content, d['building'])} for {paid} ({why()})."]
        case "build-negated":
            return [f"Backstab: {name()}'s {building_name(content, d['building'])} is not built."]
        case "free-build-lapsed":
            building = building_name(content, d["building"])
            lost = LOST_ROOM.get(str(d.get("reason", "unpaid")))
            if lost:
                return [f"{name()} can no longer build the free {building} ({why()}): {lost}; it is not built."]
            return [f"{name()} can no longer pay for the free {building} ({why()}): it is not built."]
        case "locked":
            return [f"{name()} locks the area of {god_name(content, d['god'])} with a third temple."]
        case "unlocked":
            return [f"The area of {god_name(content, d['god'])} is no longer locked."]
        case "looked":
            return [f"{name()} looks at {god_name(content, d['god'])}'s cards ({why()}): {cards()}."]
        case "god-cards":
            deck = f"{god_name(content, d['god'])}'s deck"
            return [f"{name()} looks at the top {plural(int(d['count']), 'card')} of {deck} ({why()})."]
        case "kept":
            where = " for the open cards" if d.get("to") == "open" else ""
            return [f"{name()} keeps {card_name(content, d['card'])}{where}; the other goes under the deck."]
        case "passed":
            return [f"{name()} does not attack."]
        case "attacked":
            return [f"{name()} attacks {name('target')} with {card_name(content, d['card'])} (power {d['power']})."]
        case "attack-power":
            return [f"The attack's power is now {d['power']}."]
        case "attack-redirected":
            return [f"Vanished: {name()} passes the attack on to {name('target')}."]
        case "attack-cancelled":
            return [f"{name()} cancels the attack ({card_name(content, d['card'])})."]
        case "defended":
            return [f"{name()} defends with {card_name(content, d['card'])}: {d['defence']} against {d['power']}."]
        case "attack-held":
            return [f"{name('target')} holds off {name('attacker')}'s {card_name(content, d['card'])}."]
        case "attack-through":
            return [f"{name('attacker')}'s {card_name(content, d['card'])} gets through to {name('target')}."]
        case "stole":
            return [f"{name()} takes {amount_text(d['resource'], 1)} from {name('target')} ({why()})."]
        case "stole-cards":
            return [f"{name()} takes {cards()} from {name('target')}'s hand ({why()})."]
        case "stole-count":
            return [f"{name()} takes {plural(int(d['count']), 'card')} from {name('target')}'s hand ({why()})."]
        case "stole-open":
            return [f"{name()} takes the open card {card_name(content, d['card'])} (Thief)."]
        case "destroyed":
            return [f"{name('target')}'s {building_name(content, d['building'])} is destroyed ({why()})."]
        case "moved-temple":
            return [
                f"{name('target')}'s temple moves from {god_name(content, d['source'])} to "
                f"{god_name(content, d['dest'])} ({why()})."
            ]
        case "looked-at-hand":
            return [f"You look at {name('target')}'s hand: {cards()}."]
        case "looked-at":
            return [f"{name()} looks at {name('target')}'s hand."]
        case "peeked":
            return [f"{name()} looks at the top of the base deck: {cards()}."]
        case "took-peeked":
            return [f"{name()} takes {card_name(content, d['card'])}."]
        case "switched":
            new = f" for {card_name(content, d['card'])}" if d.get("card") else ""
            return [f"{name()} swaps the open card {card_name(content, d['out'])}{new}."]
        case "took-from-discard":
            return [f"{name()} takes {card_name(content, d['card'])} from the discard pile."]
        case "lent":
            return [f"{god_name(content, d['god'])} lends {name()} a 1-temple ability this turn."]
        case "weapon":
            return [
                f"{name()} plays the god weapon {card_name(content, d['card'])}: {option_name(content, d['option'])}."
            ]
        case "game-over":
            how = {
                "race": "Race to the Gods is won",
                "round limit": f"Nobody reached {RACE_GOAL} followers by the last round of the race",
            }.get(str(d.get("why")), "The sixth round is over")
            return [f"{how}: the game ends."]
    return [f"{kind}: {d}"]


# --- the end -----------------------------------------------------------------------------------


def final_ranking_lines(view: Mapping[str, Any], labels: Sequence[str]) -> list[str]:
    """The ranking with followers and buildings (the tie-break)."""
    places = view.get("places") or [1] * len(labels)
    lines = ["Final ranking (most followers, then most buildings):"]
    for seat in sorted(range(len(labels)), key=lambda s: (places[s], s)):
        info = view["seats"][seat]
        buildings = int(info["mines"]) + int(info["drills"]) + sum(int(n) for n in info["temples"].values())
        racer = f" (reached {RACE_GOAL} followers first)" if view.get("winner") == seat else ""
        lines.append(
            f"  {places[seat]}. {labels[seat]}: {plural(int(info['followers']), 'follower')}, "
            f"{plural(buildings, 'building')}{racer}"
        )
    winners = [labels[s] for s in range(len(labels)) if places[s] == 1]
    lines.append(("Winner: " if len(winners) == 1 else "Winners, sharing the place: ") + " and ".join(winners) + ".")
    return lines


# --- commands ------------------------------------------------------------------------------------


def _renderer(terminal: TerminalGame) -> ValdaRenderer:
    renderer = terminal.renderer
    assert isinstance(renderer, ValdaRenderer)
    return renderer


def cmd_cards(terminal: TerminalGame, rest: str) -> str:
    """``cards``: the texts of the hand and the open cards; ``cards CARD``: one card."""
    content = _renderer(terminal).content
    if rest:
        card = rest.strip().lower()
        if card not in content.cards:
            terminal.say(f"There is no card {card!r}; card names look like raid or gold-vein.")
        else:
            terminal.say_lines(card_lines(content, [card], ""))
        return CONTINUE
    view = terminal.view()
    terminal.say_lines(
        render_hand(view, content, terminal.label(terminal.viewer) if terminal.viewer is not None else "")
    )
    if view.get("open"):
        terminal.say("Open cards:")
        terminal.say_lines(card_lines(content, view["open"]))
    return CONTINUE


def cmd_gods(terminal: TerminalGame, rest: str) -> str:
    """``gods``: temple costs and divine abilities."""
    del rest
    content = _renderer(terminal).content
    for god in content.gods.values():
        terminal.say(f"  {god.name:<9} temple {cost_text(god.temple_cost)}; {GOD_ABILITIES.get(god.id, '')}")
    return CONTINUE


def _board(terminal: TerminalGame, rest: str) -> str:
    return terminal.cmd_board(rest)


def _scores(terminal: TerminalGame, rest: str) -> str:
    return terminal.cmd_scores(rest)


# --- the renderer ------------------------------------------------------------------------------


class ValdaRenderer(Renderer):
    """Valda in the terminal: a person's turn is every decision until someone else must decide."""

    default_save = DEFAULT_SAVE
    private_word = "cards"
    notation_help = NOTATION_HELP
    commands_help = COMMANDS_HELP
    empty_input = "Type a move such as take:gold or a number from 'hint', or 'help'."
    malformed_help = "Moves look like take:gold, play:scout, build:odin or a number from 'hint'; see 'help'."
    after_game_commands = ("save", "board", "map", "scores", "players", "score", "status", "log", "help", "cards",
                           "gods", "?")  # fmt: skip
    after_game_help = "The game is over. Commands now: save FILE, map, players, log, cards, gods, quit."
    preset_question = "Which variant? standard, turnaround, race-to-the-gods ('?' lists them) [{default}] "

    def __init__(self, game: Any) -> None:
        super().__init__(game)
        self.content: Content = default_content()
        self.shown_round = 0  # the last round whose start was shown to spectators

    def bind(self, state: GameState[Any]) -> None:
        """Read the content pack of the game."""
        self.content = content_of(state.options)

    def setup_line(self, state: GameState[Any]) -> str:
        """``Valda: 3 players, The Turnaround.``."""
        named = (("turnaround", "The Turnaround"), ("race-to-the-gods", "Race to the Gods"))
        variants = [title for name, title in named if state.options.get(name)]
        how = ", ".join(variants) or "six rounds"
        return f"{self.game.info.title}: {plural(state.num_players, 'player')}, {how}."

    def option_lines(self, state: GameState[Any]) -> list[str]:
        """The content pack."""
        del state
        return [f"  cards and dice: {self.content.label}"]

    def where(self, state: GameState[Any]) -> str:
        """``round 3, Building phase``."""
        view = state.view(None)
        return f"round {view['round']}, {PHASE_NAMES.get(view['phase'], view['phase'])}"

    def turn_key(self, state: GameState[Any]) -> Hashable:
        """Round, turn and phase: a new phase is a new screen."""
        view = state.view(None)
        return (view["round"], view["turn"], view["phase"])

    def turn_header(self, view: Mapping[str, Any], seat: int, label: str) -> str:
        """``=== Round 2, Seat 1's turn, Game phase: Seat 2 (You) ===``."""
        phase = PHASE_NAMES.get(view["phase"], view["phase"])
        whose = "your turn" if view["current"] == seat else f"Seat {int(view['current']) + 1}'s turn"
        return f"=== Round {view['round']}, {whose}, {phase}: {label} ==="

    def bot_header(self, view: Mapping[str, Any], seat: int, label: str) -> str | None:
        """A heading when a bot's own turn starts; none for its answers in others' turns."""
        if view["current"] != seat or view["phase"] != "resources":
            return None
        return f"--- Round {view['round']}: {label} ---"

    def board_lines(self, view: Mapping[str, Any], labels: Sequence[str]) -> list[str]:
        """The god areas and the turn."""
        return [*render_areas(view, self.content, labels), *render_turn(view, self.content, labels)]

    def status_lines(self, view: Mapping[str, Any], labels: Sequence[str]) -> list[str]:
        """Every player's board."""
        return render_seats(view, self.content, labels)

    def hand_lines(self, view: Mapping[str, Any], label: str) -> list[str]:
        """The hand with texts."""
        return render_hand(view, self.content, label)

    def turn_start_lines(self, view: Mapping[str, Any], labels: Sequence[str]) -> list[str]:
        """The areas, the turn and the players."""
        return ["", *self.board_lines(view, labels), "", *self.status_lines(view, labels)]

    def continue_lines(self, view: Mapping[str, Any], labels: Sequence[str]) -> list[str]:
        """After a step: the turn line and the player's own board line."""
        return ["", *render_turn(view, self.content, labels)]

    def prompt_lines(self, view: Mapping[str, Any], legal: Sequence[Action], label: str) -> list[str]:
        """The hand (where cards matter), then the decision in words."""
        kind = (view.get("decision") or {}).get("kind")
        labels = [f"Seat {i + 1}" for i in range(len(view["seats"]))]
        lines: list[str] = []
        if kind in ("game", "attack", "defend", "hand-limit"):
            lines = render_hand(view, self.content, label)
        seat = view.get("seat")
        if isinstance(seat, int):
            mine = view["seats"][seat]
            lines.append(f"You have {resources_text(mine['resources'])}; {plural(mine['followers'], 'follower')}.")
        return [*lines, instructions(view, self.content, legal, labels)]

    def spectator_lines(self, view: Mapping[str, Any], labels: Sequence[str]) -> list[str]:
        """With only bots playing: the areas and players once a round, as it begins."""
        if view["round"] != self.shown_round and not view["finished"]:
            self.shown_round = view["round"]
            return [*render_areas(view, self.content, labels), "", *render_seats(view, self.content, labels)]
        return []

    def end_lines(self, view: Mapping[str, Any], labels: Sequence[str]) -> list[str]:
        """Areas, players and the ranking."""
        return [
            *render_areas(view, self.content, labels),
            "",
            *render_seats(view, self.content, labels),
            "",
            *final_ranking_lines(view, labels),
        ]

    def format_event(self, event: Event, labels: Sequence[str], viewer: int | None) -> list[str]:
        """See :func:`format_event`."""
        return format_event(event, self.content, labels, viewer)

    def hint_lines(
        self, legal: Sequence[Action], only: str | None, view: Mapping[str, Any], labels: Sequence[str]
    ) -> list[str]:
        """See :func:`format_hint`."""
        return format_hint(legal, only, view, self.content, labels)

    def parse_input(self, text: str, legal: Sequence[Action]) -> Sequence[Action]:
        """Notation, or the number ``hint`` gives a move."""
        return numbered_or_notation(self.game, text, ordered_actions(legal), noun="move")

    def automatic(self, view: Mapping[str, Any], legal: Sequence[Action]) -> Action | None:
        """A response window offering nothing but ``pass`` is passed for the person."""
        if (view.get("decision") or {}).get("kind") == "window" and list(legal) == [PASS]:
            return PASS
        return None

    def commands(self) -> dict[str, Command]:
        """``map``, ``players``, ``cards`` and ``gods``."""
        return {"map": _board, "players": _scores, "cards": cmd_cards, "gods": cmd_gods}
