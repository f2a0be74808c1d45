"""Valda's words: how its actions, decisions, events, components and results read for people.

Every interface (the terminal, the browser through the server, replays) shows these and
words nothing of Valda itself. Everything here reads a view, the notation of legal
actions or an event, never a state (see :mod:`meadhall.core.words`); names and card texts
come from the content pack the view's options name (:func:`~meadhall.games.valda.content.content_of`),
card texts from the cards' effects (:func:`~meadhall.games.valda.content.describe_card`).
Refusals are the engine's :class:`~meadhall.core.errors.IllegalAction` messages.

The words were gathered from the terminal (``cli/play_valda.py``) and the browser plugin,
which each had their own until issue 20; where the two said it differently the clearer
is kept here.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
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
    standings,
)
from meadhall.games.valda.content import (
    CARD_KINDS,
    RESOURCES,
    Content,
    amount_text,
    content_of,
    default_content,
    describe_card,
)
from meadhall.games.valda.notation import ValdaAction, parse_action
from meadhall.games.valda.state import HAND_LIMIT, RACE_GOAL, SAFE_ZONES, SITES

PHASE_NAMES = {
    "setup": "Setup",
    "resources": "Resources phase",
    "game": "Game phase",
    "building": "Building phase",
    "attack": "Attack phase",
    "followers": "Followers phase",
    "over": "Game over",
}
#: The five phases of a turn, in order, with what happens in each (the phase strip's legend).
PHASES: tuple[tuple[str, str, str], ...] = (
    ("resources", "Resources", "Roll a die per mine and blood drill and take what they show; trade 4 for 1."),
    ("game", "Game", "Three actions: play a yellow card, take a resource, or draw two cards for two actions."),
    ("building", "Building", "Build up to two buildings: mines, blood drills, temples in the god areas."),
    ("attack", "Attack", "Each other player, in turn, may attack the player whose turn it is."),
    ("followers", "Followers", "Turn resources into followers with Thor, Odin and Loki."),
)
BUILDING_NAMES = {"mine": "mine", "drill": "blood drill"}
BUILDING_TEXTS = {
    "mine": "rolls a yellow die in your resources phase (at most 4 mines)",
    "drill": "rolls a blue die in your resources phase (at most 3 blood drills)",
}
#: Why a free building that waited can no longer go up (the free-build-lapsed event's reason).
LOST_ROOM = {
    "full": "its area's five sites are taken",
    "locked": "another player locked its area",
    "no-temples": "no temple figure is left",
    "limit": "the limit of mines or blood drills is reached",
}
#: The moments a god weapon may answer (a response window's ``window``).
WINDOW_WORDS = {
    "rolled": "dice were rolled",
    "announced": "an attack was announced",
    "defended": "a defence held",
    "building": "a last building was announced",
}
GOD_ABILITIES = {
    "heimdall": "Resources phase: 2 of a resource for 1 of another (two temples: 1 for 1).",
    "freya": "The open cards are yours alone to see; buy an open card for an action (two temples: 3 open cards).",
    "surtur": "Your attacks +1 (two or three players: +2; two temples: more).",
    "tyr": "Your defence +1 (two temples: more).",
    "thor": "Followers phase: 3 gold or 3 diamonds for a follower (two temples: 2).",
    "odin": "Followers phase: 2 divine blood for a follower (two temples: also 3 for 2).",
    "loki": "Followers phase: roll a white die per temple for followers.",
}
#: Groups of actions, for menus and ``hint WORD``: (group, action kinds).
GROUPS: tuple[tuple[str, frozenset[str]], ...] = (
    ("Cards", frozenset({"play", "use", "buy", "keep", "attack", "defend", "discard", "card"})),
    ("Resources", frozenset({"take", "trade", "swap", "choose", "steal"})),
    ("Build", frozenset({"build"})),
    ("Their buildings", frozenset({"destroy", "move"})),
    ("Followers", frozenset({"thor", "thor2", "odin", "odin2", "loki", "convert"})),
    ("Choose a player, a god or a die", frozenset({"seat", "god", "face"})),
    ("God weapons (no action)", frozenset({"weapon"})),
    ("Turn", frozenset({"draw", "done", "pass", "yield"})),
)
_GROUP_OF = {kind: group for group, kinds in GROUPS for kind in kinds}
#: Actions on a card, and where that card lies to be picked: the hand, the open cards, or
#: the cards the decision shows its seat (god cards to keep, the top of the deck).
_CARD_KINDS = frozenset({"play", "use", "buy", "keep", "attack", "defend", "discard", "card"})
_OPEN_KINDS = frozenset({"use", "buy"})

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


def content_for(view: Mapping[str, Any]) -> Content:
    """The content pack of a view's options (the default pack without options)."""
    options = view.get("options")
    return content_of(options) if options else default_content()


# --- names ------------------------------------------------------------------------------------


class Names:
    """Names from a content pack, as they appear in texts (braces doubled: see :func:`literal`)."""

    def __init__(self, content: Content) -> None:
        self.content = content
        self.options = {o.id: o for card in content.cards.values() for o in card.options}

    def god(self, god: Any) -> str:
        """``Odin``."""
        found = self.content.gods.get(str(god))
        return literal(found.name if found is not None else str(god))

    def card(self, card: Any) -> str:
        """A card's name (its id if the pack does not know it)."""
        found = self.content.cards.get(str(card))
        return literal(found.name if found is not None else str(card))

    def cards(self, cards: Any) -> str:
        """``Raid, Scout`` (``nothing`` for none)."""
        return ", ".join(self.card(c) for c in cards or ()) or "nothing"

    def option(self, option: Any) -> str:
        """A god weapon option's name: ``Crown of Fortune``."""
        found = self.options.get(str(option))
        return literal(found.name if found is not None else str(option))

    def building(self, building: Any) -> str:
        """``mine``, ``blood drill``, ``temple of Odin``."""
        if building in self.content.gods:
            return f"temple of {self.god(building)}"
        return BUILDING_NAMES.get(str(building), literal(str(building)))

    def why(self, why: Any) -> str:
        """The reason an event or a decision names: a card, a weapon, or a phrase with gods' names."""
        text = str(why)
        if text in self.content.cards:
            return self.card(text)
        if text in self.options:
            return self.option(text)
        if text in self.content.gods:
            return f"{self.god(text)}'s ability"
        return re.sub(r"\b[a-z]+\b", lambda m: self.god(m.group(0)) if m.group(0) in self.content.gods else m.group(0),
                      literal(text))  # fmt: skip

    def die(self, colour: str, face: int) -> str:
        """What a die shows: ``2 gold``, ``+1 follower``, ``blank``."""
        return literal(die_face(self.content, colour, face))


def die_face(content: Content, colour: str, face: int) -> str:
    """What a die of ``content`` shows on ``face`` (from 0), in plain words: ``2 gold``, ``+1 follower``, ``blank``."""
    faces = content.dice.get(colour) or ()
    if not 0 <= face < len(faces):
        return f"face {face + 1}"
    shown = faces[face]
    parts = [f"{n} of choice" if r == "choice" else amount_text(r, n) for r, n in shown.resources.items()]
    if shown.followers:
        parts.append(f"{shown.followers:+d} follower" + ("s" if abs(shown.followers) != 1 else ""))
    return ", ".join(parts) or "blank"


_NAMES: dict[int, Names] = {}


def names_for(content: Content) -> Names:
    """The names of ``content`` (kept per pack: a server words many views of one pack)."""
    found = _NAMES.get(id(content))
    if found is None or found.content is not content:
        if len(_NAMES) > 16:
            _NAMES.clear()
        found = _NAMES[id(content)] = Names(content)
    return found


def resource_one(resource: str) -> str:
    """``divine blood``, ``gold``, ``diamond``: one of a resource."""
    return amount_text(resource, 1).split(" ", 1)[1]


def resource_many(resource: str) -> str:
    """``divine blood``, ``gold``, ``diamonds``: a resource counted."""
    return amount_text(resource, 2).split(" ", 1)[1]


def resources_text(resources: Mapping[str, int]) -> str:
    """``2 divine blood, 3 gold, 0 diamonds``."""
    return ", ".join(amount_text(name, int(resources.get(name, 0))) for name in RESOURCES)


def cost_text(cost: Mapping[str, int]) -> str:
    """A cost with only its non-zero parts: ``2 gold, 2 diamonds``."""
    return ", ".join(amount_text(name, int(cost[name])) for name in RESOURCES if cost.get(name)) or "nothing"


def round_text(number: int, last_round: int, race: bool) -> str:
    """``Round 3 of 6``; in Race to the Gods, whose rounds go on until 20 followers: ``Round 8 of at most 20``."""
    return f"Round {number} of {'at most ' if race else ''}{last_round}"


def _round_of(view: Mapping[str, Any]) -> str:
    race = bool((view.get("options") or {}).get("race-to-the-gods"))
    return round_text(int(view["round"]), int(view["last_round"]), race)


def buildings_of(info: Mapping[str, Any]) -> int:
    """A seat's buildings (the tie-break): mines, blood drills and temples."""
    return int(info["mines"]) + int(info["drills"]) + sum(int(n) for n in info["temples"].values())


# --- actions ------------------------------------------------------------------------------------


def _label(action: ValdaAction, view: Mapping[str, Any], names: Names) -> str:
    kind, a, b = action.kind, action.name, action.to
    decision = view.get("decision") or {}
    deciding = decision.get("kind")
    target = decision.get("target")
    them = name_of(int(target)) if isinstance(target, int) else "them"
    content = names.content
    if kind == "trade":
        return f"Trade 4 {resource_many(a)} for 1 {resource_one(b)}"
    if kind == "swap":
        seat = view.get("seat")
        temples = int(view["seats"][seat]["temples"].get("heimdall", 0)) if isinstance(seat, int) else 1
        return f"Heimdall: {amount_text(a, 1 if temples >= 2 else 2)} for 1 {resource_one(b)}"
    if kind == "choose":
        if deciding == "waive":
            return f"The discount waives 1 {resource_one(a)}"
        return f"Take 1 {resource_one(a)}"
    if kind == "take":
        return f"Take 1 {resource_one(a)} (an action)"
    if kind == "steal":
        return f"Take 1 {resource_one(a)} from {them}"
    if kind == "play":
        return f"Play {names.card(a)}"
    if kind == "use":
        return f"Play the open card {names.card(a)}"
    if kind == "buy":
        return f"Buy {names.card(a)} from the open cards (an action)"
    if kind == "draw":
        return "Draw 2 cards (two actions)"
    if kind == "discard":
        return f"Discard {names.card(a)}"
    if kind == "build":
        cost = content.gods[a].temple_cost if a in content.gods else content.buildings.get(a, {})
        return f"Build a {names.building(a)} ({cost_text(cost)})"
    if kind == "keep":
        if deciding == "lock-card":
            return f"Put {names.card(a)} among your open cards"
        return f"Keep {names.card(a)}"
    if kind == "attack":
        return f"Attack {them} with {names.card(a)}"
    if kind == "defend":
        return f"Defend with {names.card(a)}"
    if kind == "destroy":
        return f"Destroy {them}'s {names.building(a)}"
    if kind == "move":
        return f"Move {them}'s temple from {names.god(a)} to {names.god(b)}"
    if kind in ("thor", "thor2"):
        return f"Thor: {3 if kind == 'thor' else 2} {resource_many(a)} for a follower"
    if kind == "odin":
        return "Odin: 2 divine blood for a follower"
    if kind == "odin2":
        return "Odin: 3 divine blood for 2 followers"
    if kind == "loki":
        return "Roll Loki's follower dice"
    if kind == "convert":
        if decision.get("give"):
            give = amount_text(str(decision["give"]), int(decision.get("amount", 0)))
            return f"Change {give} into {plural(int(decision.get('followers', 0)), 'follower')} once more"
        return "Convert once more"
    if kind == "seat":
        seat = name_of(int(a))
        return {
            "look": f"Look at {seat}'s hand",
            "thief": f"Take a card at random from {seat}'s hand",
            "redirect": f"Attack {seat} instead",
        }.get(str(deciding), seat)
    if kind == "god":
        return {
            "lend": f"{names.god(a)} lends you a 1-temple ability",
            "god-draw": f"Draw from {names.god(a)}'s deck",
        }.get(str(deciding), names.god(a))
    if kind == "card":
        return {
            "switch": f"Put the open card {names.card(a)} back for the top card of the base deck",
            "discard-pick": f"Take {names.card(a)} from the discard pile",
            "thief": f"Take the open card {names.card(a)}",
            "hammer": f"Play {names.card(a)} twice",
            "peek": f"Take {names.card(a)}",
        }.get(str(deciding), names.card(a))
    if kind == "weapon":
        return f"God weapon: {names.option(a)}"
    if kind == "face":
        dice = view.get("dice") or []
        index = int(a)
        if index < len(dice):
            colour, face = dice[index]
            return f"Turn die {index + 1} ({colour}, {names.die(colour, int(face))}) to {names.die(colour, int(b))}"
        return f"Turn die {index + 1} to face {int(b) + 1}"
    if kind == "pass":
        return "Do not attack" if deciding == "attack" else "Pass"
    if kind == "yield":
        return "Stop defending"
    if kind == "done":
        return {
            "resources": "End the resources phase",
            "game": "End the game phase",
            "build": "Stop building",
            "followers": "End the followers phase",
            "free-build": "Give up the free building",
            "convert": "Stop converting",
        }.get(str(deciding), "Done")
    return literal(str(action))


def _target(action: ValdaAction, view: Mapping[str, Any]) -> dict[str, Any]:
    """Where the board plugin picks it: ``kind``; ``card`` and ``place``, ``god`` (``source``), ``die``, ``face`` ..."""
    kind, a, b = action.kind, action.name, action.to
    target: dict[str, Any] = {"kind": kind}
    if kind in _CARD_KINDS:
        decision = view.get("decision") or {}
        shown = decision.get("cards")
        if isinstance(shown, list) and a in shown and decision.get("seat") == view.get("seat"):
            place = "shown"
        elif kind in _OPEN_KINDS or (kind == "card" and a in (view.get("open") or ())):
            place = "open"
        else:
            place = "hand"
        target.update(card=a, place=place)
    elif kind in ("build", "destroy"):
        if a in (view.get("sites") or {}):
            target["god"] = a
        else:
            target["building"] = a
    elif kind == "move":
        target.update(god=b, source=a)
    elif kind == "god":
        target["god"] = a
    elif kind == "seat":
        target["seat"] = int(a)
    elif kind == "face":
        target.update(die=int(a), face=int(b))
    elif kind == "weapon":
        target["option"] = a
    elif a:
        target["resource"] = a
        if b:
            target["to"] = b
    return target


# --- prompts ------------------------------------------------------------------------------------


def _prompt(view: Mapping[str, Any], kinds: set[str], names: Names) -> str:
    decision = view.get("decision") or {}
    kind = str(decision.get("kind"))
    why = names.why(decision["why"]) if decision.get("why") else ""
    because = f" ({why})" if why else ""
    target = decision.get("target")
    them = name_of(int(target)) if isinstance(target, int) else "them"
    god = names.god(decision.get("god"))
    shown = decision.get("cards")
    cards = names.cards(shown) if isinstance(shown, list) else ""

    def game_phase() -> str:
        free = f", {plural(int(view['free_yellow']), 'free yellow card')}" if view.get("free_yellow") else ""
        buy = ", buy an open card" if "buy" in kinds else ""
        return (
            f"Game phase: {plural(int(view['actions']), 'action')} left{free}. Play a yellow card (from your hand or "
            f"the open cards), take a resource, draw two cards{buy}, or end the phase."
        )

    def defend() -> str:
        attack = view.get("attack") or {}
        attacker = attack.get("attacker")
        by = name_of(int(attacker)) if isinstance(attacker, int) else "someone"
        return (
            f"You are attacked by {by} with {names.card(attack.get('card'))} (power {attack.get('power', 0)}, "
            f"your defence {attack.get('defence', 0)}): add a defence card, or stop defending."
        )

    texts: dict[str, Callable[[], str]] = {
        "resources": lambda: (
            "Resources phase: trade 4 of a resource for 1 of another as often as you like"
            + (" (or use Heimdall: fewer for 1)" if "swap" in kinds else "")
            + ", then end the phase."
        ),
        "choose": lambda: f"Choose a resource{because}.",
        "game": game_phase,
        "hand-limit": lambda: (
            f"You hold more than {HAND_LIMIT} cards: discard one ({len(view.get('hand') or [])} now)."
        ),
        "build": lambda: (
            f"Building phase: {plural(int(view['builds']), 'building')} left. Build a temple in a god area, "
            "a mine or a blood drill, or stop building."
        ),
        "keep": lambda: (
            (f"{why}: " if why else f"Temple of {god}: ")
            + f"of the top cards of {god}'s deck, keep one in your hand; the other goes under the deck"
            + (f": {cards}." if cards else ".")
        ),
        "lock-card": lambda: (
            f"Your locked area of {god}: of the top cards of its deck, choose the one that joins your open cards; "
            "the other goes under the deck" + (f": {cards}." if cards else ".")
        ),
        "attack": lambda: f"Attack {them} with an attack card from your hand, or do not attack.",
        "defend": defend,
        "free-build": lambda: f"Build one building now{because}, or give it up.",
        "waive": lambda: f"The discount{because}: choose a resource of the cost it waives.",
        "convert": lambda: (
            f"Change {amount_text(str(decision.get('give')), int(decision.get('amount', 0)))} into "
            f"{plural(int(decision.get('followers', 0)), 'follower')} once more{because}, or stop."
        ),
        "look": lambda: f"Whose hand do you look at{because}?",
        "peek": lambda: f"Take one of these cards{because}" + (f": {cards}." if cards else "."),
        "switch": lambda: f"Which open card goes back for the top card of the base deck{because}?",
        "lend": lambda: f"Which god lends you a 1-temple ability this turn{because}?",
        "destroy": lambda: f"Destroy one of {them}'s buildings{because}.",
        "move": lambda: f"Move one of {them}'s temples to another god area{because}.",
        "god-draw": lambda: f"Draw from which god deck{because}?",
        "discard-pick": lambda: f"Take a card from the discard pile{because}.",
        "steal": lambda: f"Take a resource from {them}{because}.",
        "followers": lambda: (
            "Followers phase: convert with Thor and Odin, roll Loki's dice (where your temples allow), "
            "then end the phase."
        ),
        "thief": lambda: "Thief: take a card at random from a player's hand, or an open card.",
        "hammer": lambda: "Hammertime: which of your yellow cards is played twice?",
        "face": lambda: "Crown of Fortune: turn a die to the face of your choice.",
        "redirect": lambda: "Vanished: which player must be attacked instead?",
        "window": lambda: (
            f"A god weapon may answer now: {WINDOW_WORDS.get(str(decision.get('window')), 'a moment')}. "
            "Play one, or pass."
        ),
    }
    text = texts.get(kind)
    said = text() if text is not None else "Your decision."
    if "weapon" in kinds and kind != "window":
        said += " You may also play a god weapon (no action)."
    return said


# --- events -------------------------------------------------------------------------------------


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


def _heading(view: Mapping[str, Any], *, yours: bool) -> str:
    """``Round 2 of 6, {1}'s turn: Game phase`` (``your turn`` when ``yours``); at the end, the last round."""
    rounds = _round_of(view)
    if view.get("finished"):
        return f"{rounds}: the game is over"
    whose = "your" if yours else f"{name_of(int(view['current']))}'s"
    return f"{rounds}, {whose} turn: {PHASE_NAMES.get(view['phase'], view['phase'])}"


def _event_text(event: Event, viewer: int | None, names: Names) -> tuple[str, list[str]]:
    d = event.data
    kind = event.kind

    def name(key: str = "seat") -> str:
        return name_of(int(d[key]))

    def why() -> str:
        return names.why(d.get("why", ""))

    def mine(key: str = "seat") -> bool:
        return viewer is not None and viewer == d.get(key)

    match kind:
        case "round":
            order = [name_of(int(s)) for s in d["order"]]
            begins = round_text(int(d["round"]), int(d["last_round"]), bool(d.get("race")))
            return f"{begins} begins.", [f"Turn order: {', '.join(order)}."]
        case "turn":
            return ("Your turn." if mine() else f"{name()}'s turn."), []
        case "rolled":
            dice = ", ".join(f"{c} {names.die(c, int(f))}" for c, f in d["dice"])
            return f"{name()} rolls ({why()}): {dice}.", []
        case "turned-die":
            return f"{name()} turns die {int(d['die']) + 1} to {names.die(str(d['colour']), int(d['face']))}.", []
        case "gained":
            return f"{name()} takes {amount_text(str(d['resource']), int(d['amount']))} ({why()}).", []
        case "traded":
            via = " with Heimdall" if d.get("why") == "heimdall" else ""
            given = amount_text(str(d["give"]), int(d["amount"]))
            return f"{name()} trades {given} for {amount_text(str(d['get']), 1)}{via}.", []
        case "followers":
            return followers_text(name(), d, why()), []
        case "opened":
            return f"Open cards for {name()}: {names.cards(d['cards'])}.", []
        case "opened-closed":
            count = plural(int(d["count"]), "open card")
            if mine():
                return f"The others see {count} turned up for your eyes alone (Freya).", []
            return f"{name()} turns up {count}, seen by them alone (Freya).", []
        case "reshuffled":
            return f"The discard pile is shuffled into a new base deck ({plural(int(d['cards']), 'card')}).", []
        case "played":
            twice = " twice (Hammertime)" if d.get("twice") else ""
            return f"{name()} plays {names.card(d['card'])}{twice}.", []
        case "drew":
            who = "You draw" if mine() else f"{name()} draws"
            return f"{who} {names.cards(d['cards'])} ({why()}).", []
        case "drew-count":
            count = plural(int(d["count"]), "card")
            if mine():
                return f"The others see you draw {count} ({why()}).", []
            return f"{name()} draws {count} ({why()}).", []
        case "bought":
            return f"{name()} buys {names.card(d['card'])} from the open cards.", []
        case "discarded":
            return f"{name()} discards {names.cards(d['cards'])} ({why()}).", []
        case "built":
            paid = cost_text(d.get("paid") or {})
            return f"{name()} builds a {names.building(d['building'])} for {paid} ({why()}).", []
        case "build-negated":
            return f"Backstab: {name()}'s {names.building(d['building'])} is not built.", []
        case "free-build-lapsed":
            building = names.building(d["building"])
            lost = LOST_ROOM.get(str(d.get("reason", "unpaid")))
            if lost:
                return f"{name()} can no longer build the free {building} ({why()}): {lost}; it is not built.", []
            return f"{name()} can no longer pay for the free {building} ({why()}): it is not built.", []
        case "locked":
            return f"{name()} locks the area of {names.god(d['god'])} with a third temple.", []
        case "unlocked":
            return f"The area of {names.god(d['god'])} is no longer locked.", []
        case "looked":
            who = "You look" if mine() else f"{name()} looks"
            return f"{who} at {names.god(d['god'])}'s cards ({why()}): {names.cards(d['cards'])}.", []
        case "god-cards":
            top = f"the top {plural(int(d['count']), 'card')} of {names.god(d['god'])}'s deck"
            if mine():
                return f"The others see you look at {top} ({why()}).", []
            return f"{name()} looks at {top} ({why()}).", []
        case "kept":
            who = "You keep" if mine() else f"{name()} keeps"
            where = " for the open cards" if d.get("to") == "open" else ""
            return f"{who} {names.card(d['card'])}{where}; the other goes under the deck.", []
        case "passed":
            return f"{name()} does not attack.", []
        case "attacked":
            return f"{name()} attacks {name('target')} with {names.card(d['card'])} (power {d['power']}).", []
        case "attack-power":
            return f"The attack's power is now {d['power']}.", []
        case "attack-redirected":
            return f"Vanished: {name()} passes the attack on to {name('target')}.", []
        case "attack-cancelled":
            return f"{name()} cancels the attack ({names.card(d['card'])}).", []
        case "defended":
            card = names.card(d["card"])
            return f"{name()} defends with {card}: {d['defence']} against {d['power']}.", []
        case "attack-held":
            return f"{name('target')} holds off {name('attacker')}'s {names.card(d['card'])}.", []
        case "attack-through":
            return f"{name('attacker')}'s {names.card(d['card'])} gets through to {name('target')}.", []
        case "stole":
            return f"{name()} takes {amount_text(str(d['resource']), 1)} from {name('target')} ({why()}).", []
        case "stole-cards":
            return f"{name()} takes {names.cards(d['cards'])} from {name('target')}'s hand ({why()}).", []
        case "stole-count":
            count = plural(int(d["count"]), "card")
            if mine():
                return f"The others see you take {count} from {name('target')}'s hand ({why()}).", []
            if mine("target"):
                return f"The others see {name()} take {count} from your hand ({why()}).", []
            return f"{name()} takes {count} from {name('target')}'s hand ({why()}).", []
        case "stole-open":
            return f"{name()} takes the open card {names.card(d['card'])} (Thief).", []
        case "destroyed":
            return f"{name('target')}'s {names.building(d['building'])} is destroyed ({why()}).", []
        case "moved-temple":
            return (
                f"{name('target')}'s temple moves from {names.god(d['source'])} to {names.god(d['dest'])} ({why()}).",
                [],
            )
        case "looked-at-hand":
            who = "You look" if mine() else f"{name()} looks"
            return f"{who} at {name('target')}'s hand: {names.cards(d['cards'])}.", []
        case "looked-at":
            return f"{name()} looks at {name('target')}'s hand.", []
        case "peeked":
            who = "You look" if mine() else f"{name()} looks"
            return f"{who} at the top of the base deck: {names.cards(d['cards'])}.", []
        case "took-peeked":
            who = "You take" if mine() else f"{name()} takes"
            return f"{who} {names.card(d['card'])}.", []
        case "switched":
            new = f" for {names.card(d['card'])}" if d.get("card") else ""
            return f"{name()} swaps the open card {names.card(d['out'])}{new}.", []
        case "took-from-discard":
            return f"{name()} takes {names.card(d['card'])} from the discard pile.", []
        case "lent":
            return f"{names.god(d['god'])} lends {name()} a 1-temple ability this turn.", []
        case "weapon":
            option = names.options.get(str(d["option"]))
            details = [literal(option.text)] if option is not None else []
            return f"{name()} plays the god weapon {names.card(d['card'])}: {names.option(d['option'])}.", details
        case "game-over":
            how = {
                "race": "Race to the Gods is won",
                "round limit": f"Nobody reached {RACE_GOAL} followers by the last round of the race",
            }.get(str(d.get("why")), "The sixth round is over")
            places = list(d.get("places") or [])
            followers = list(d.get("followers") or [])
            details = [
                f"{name_of(seat)}: {plural(int(followers[seat]), 'follower')}, place {place}"
                for seat, place in enumerate(places)
                if seat < len(followers)
            ]
            return f"{how}: the game ends.", details
    return "", []


# --- the words ----------------------------------------------------------------------------------


class ValdaWords(PackWords[Content]):
    """Valda's words (see the module docstring).

    ``content`` is the pack whose names events are worded with (:meth:`for_options` binds a
    table's; by default meadhall's). Everything else reads the pack the view names.
    """

    hand_word = "cards"
    notation = NOTATION_HELP

    def default_pack(self) -> Content:
        """Valda's own pack."""
        return default_content()

    def pack_of(self, options: Mapping[str, Any]) -> Content:
        """The pack a table's options name."""
        return content_of(options)

    def actions(self, view: Mapping[str, Any], legal: Sequence[str]) -> list[ActionWords]:
        """Label, group and target of each legal action, in the order of :data:`GROUPS`."""
        names = names_for(content_for(view))
        found: list[ActionWords] = []
        for notation in legal:
            action = parse_action(notation)
            found.append(
                {
                    "notation": notation,
                    "label": _label(action, view, names),
                    "group": _GROUP_OF.get(action.kind, "Other"),
                    "target": _target(action, view),
                }
            )
        return found

    def target_notation(self, view: Mapping[str, Any], target: Mapping[str, Any]) -> str | None:
        """The action a board target names (the inverse of its ``target``), legal now or not."""
        del view
        kind = target.get("kind")

        def text(key: str) -> str:
            value = target.get(key)
            return value if isinstance(value, str) else ""

        if kind is None and text("card"):
            kind = "play"  # a card of the hand, asked about as such: playing it
        if not isinstance(kind, str):
            return None

        def number(key: str) -> int | None:
            value = target.get(key)
            return value if isinstance(value, int) and not isinstance(value, bool) else None

        if kind in ("done", "draw", "pass", "yield", "convert", "odin", "odin2", "loki"):
            return kind
        if kind in _CARD_KINDS:
            return str(ValdaAction(kind, text("card")))
        if kind in ("build", "destroy"):
            return str(ValdaAction(kind, text("god") or text("building")))
        if kind == "move":
            return str(ValdaAction(kind, text("source"), text("god")))
        if kind == "god":
            return str(ValdaAction(kind, text("god")))
        if kind == "seat":
            seat = number("seat")
            return None if seat is None else str(ValdaAction(kind, seat))
        if kind == "face":
            die, face = number("die"), number("face")
            return None if die is None or face is None else str(ValdaAction(kind, die, face))
        if kind == "weapon":
            return str(ValdaAction(kind, text("option")))
        if kind in ("trade", "swap"):
            return str(ValdaAction(kind, text("resource"), text("to")))
        return str(ValdaAction(kind, text("resource")))

    def preview(self, view: Mapping[str, Any], legal: Sequence[str], notation: str) -> Preview:
        """The action's cost and effect in words: a card's text, a building's cost, what a trade gives."""
        content = content_for(view)
        names = names_for(content)
        action = parse_action(notation)
        found: Preview = {"legal": True, "title": _label(action, view, names), "lines": []}
        kind, a = action.kind, action.name
        card = content.cards.get(a) if kind in _CARD_KINDS or kind == "card" else None
        if card is not None:
            found["lines"].append(f"{names.card(a)}: {literal(describe_card(card))}")
        if kind == "build":
            cost = content.gods[a].temple_cost if a in content.gods else content.buildings.get(a, {})
            found["cost"] = cost_text(cost)
        elif kind == "trade":
            found["cost"] = f"4 {resource_many(a)}"
        elif kind in ("take", "buy"):
            found["cost"] = "1 action"
        elif kind == "draw":
            found["cost"] = "2 actions"
        return found

    def place(self, view: Mapping[str, Any], target: Mapping[str, Any], legal: Sequence[str]) -> Preview | None:
        """A god area with no move of the seat's on it: its temple's cost, its power, who built there, and why."""
        god_id = target.get("god")
        content = content_for(view)
        names = names_for(content)
        if set(target) != {"god"} or not isinstance(god_id, str) or god_id not in content.gods:
            return None
        god = content.gods[god_id]
        owners = [int(owner) for owner in (view.get("sites") or {}).get(god_id, [])]
        ability = GOD_ABILITIES.get(god_id, literal(god.deck_theme))
        lines = [f"A temple here costs {cost_text(god.temple_cost)}.", ability]
        built = joined([f"{name_of(seat)} {plural(owners.count(seat), 'temple')}" for seat in sorted(set(owners))])
        free = f"No temple yet ({SITES} free sites)."
        lines.append(f"Built: {built} ({len(owners)} of {SITES} sites)." if owners else free)
        lock = (view.get("locks") or {}).get(god_id)
        if not legal:
            why = "It is not your decision now: nothing can be done here until you are asked."
        elif lock is not None:
            why = f"{name_of(int(lock))} locked this area with a third temple: no one else builds here."
        elif len(owners) >= SITES:
            why = f"All {SITES} sites are taken: no temple can go up here."
        else:
            why = f"None of your choices now is played here: {self.prompt(view, legal)}"
        return {"legal": False, "title": names.god(god_id), "lines": lines, "refusal": why}

    def prompt(self, view: Mapping[str, Any], legal: Sequence[str]) -> str:
        """What the seat decides now (the decision in the view), and that a god weapon may be played."""
        kinds = {parse_action(notation).kind for notation in legal}
        return _prompt(view, kinds, names_for(content_for(view)))

    def turn_over(self, done: str, step: str) -> str:
        """Another seat decides after ``done``."""
        return f"your decision is over after {done} (someone else decides now), so {step} cannot follow"

    def event(self, event: Event, viewer: int | None) -> EventWords | None:
        """Every event the engine emits, as ``viewer`` reads it; a turn's start is a heading."""
        text, details = _event_text(event, viewer, names_for(self.content))
        if not text:
            return None
        said: EventWords = {"text": text, "details": details}
        if event.kind == "turn":
            said["heading"] = True
        return said

    def heading(self, view: Mapping[str, Any]) -> str:
        """``Round 2 of 6, {1}'s turn: Game phase``; at the end, the last round.

        The same for every viewer: hosts compare headings to tell a new part of the game.
        """
        return _heading(view, yours=False)

    def status(self, view: Mapping[str, Any]) -> list[str]:
        """The turn in a line, then the decks, the attack, the variants and the content pack.

        The line says ``your turn`` in the view of the seat whose turn it is (a web page's
        status line); the heading says whose turn it is for every viewer alike.
        """
        options = view.get("options") or {}
        names = names_for(content_for(view))
        lines = [_heading(view, yours=view.get("seat") is not None and view.get("seat") == view.get("current"))]
        if not view.get("finished"):
            if view.get("phase") == "game":
                free = f", {plural(int(view['free_yellow']), 'free yellow card')}" if view.get("free_yellow") else ""
                lines[0] += f" · {plural(int(view['actions']), 'action')} left{free}"
            elif view.get("phase") == "building":
                lines[0] += f" · {plural(int(view['builds']), 'building')} left"
        discard = len(view.get("discard") or [])
        lines.append(f"Base deck: {plural(int(view['base']), 'card')} · discard pile: {discard}.")
        attack = view.get("attack") or {}
        if attack.get("card") and not view.get("finished"):
            lines.append(
                f"Attack: {name_of(int(attack['attacker']))} on {name_of(int(attack['target']))} with "
                f"{names.card(attack['card'])}, power {attack.get('power', 0)}, defence {attack.get('defence', 0)}."
            )
        for god, lock in (view.get("locks") or {}).items():
            lines.append(f"The area of {names.god(god)} is locked by {name_of(int(lock))}.")
        if view.get("lent"):
            lines.append(f"Lent this turn: {joined([names.god(god) for god in view['lent']])}.")
        lines.append(f"Safe zones on Yggdrasil at {joined([str(z) for z in SAFE_ZONES])} followers.")
        if options.get("race-to-the-gods"):
            lines.append(f"Race to the Gods: the first to {RACE_GOAL} followers wins.")
        if options.get("turnaround"):
            lines.append("The Turnaround: the highest roll starts; the last round goes back.")
        lines.append(f"Cards and dice: {literal(names.content.label)}.")
        return lines

    def titles(self, view: Mapping[str, Any]) -> dict[str, str]:
        """The world map's name and the headings of the cards: a decision's, the open ones and the hand.

        ``open``: the open cards, or how many there are while they are hidden from the viewer;
        ``hand``: the viewer's hand with its count (a spectator watches).
        """
        open_cards = "Open cards"
        hidden = f"{open_cards}: {view.get('open_count', 0)}, hidden from you"
        return {
            "map": "The world map: the god areas",
            "decision": "Cards for you to choose from",
            "open": open_cards if view.get("open") is not None else hidden,
            "hand": "You are watching" if view.get("seat") is None else f"Your hand ({len(view.get('hand') or [])})",
        }

    def seat(self, view: Mapping[str, Any], seat: int) -> str:
        """Followers, resources, buildings, cards in hand, and the cards the viewer knows of that hand."""
        info = view["seats"][seat]
        names = names_for(content_for(view))
        safe = f" (safe at {info['floor']})" if info.get("floor") else ""
        temples = ", ".join(f"{names.god(g)} {n}" for g, n in info["temples"].items() if n) or "none"
        parts = [
            f"{plural(int(info['followers']), 'follower')}{safe}",
            resources_text(info["resources"]),
            f"{plural(int(info['mines']), 'mine')}, {plural(int(info['drills']), 'blood drill')}",
            f"temples: {temples}",
            f"{plural(int(info['hand']), 'card')} in hand",
        ]
        if view.get("start") == seat:
            parts.append("start player")
        if seat == view.get("seat"):
            under = [
                ("base deck" if deck == "base" else f"{names.god(deck)}'s deck")
                + ": "
                + ", ".join(names.card(c) if c else "?" for c in cards)
                for deck, cards in (view.get("bottoms") or {}).items()
                if any(cards)
            ]
            if under:
                parts.append("you saw go under the decks (from the bottom): " + "; ".join(under))
        known = (view.get("known") or [])[seat] if seat != view.get("seat") and view.get("known") else []
        if known:
            parts.append("known in hand: " + names.cards(known))
        return " · ".join(parts)

    def result(self, view: Mapping[str, Any]) -> ResultWords:
        """Places by followers, then buildings; who won a tie on buildings; a race won."""
        seats = list(view["seats"])
        places: list[int] = list(view.get("places") or [])
        if not places:
            places = [
                1 + sum(1 for o in seats if (o["followers"], buildings_of(o)) > (s["followers"], buildings_of(s)))
                for s in seats
            ]
        placed = standings(
            places,
            lambda s: f"{plural(int(seats[s]['followers']), 'follower')}, {plural(buildings_of(seats[s]), 'building')}",
        )
        order = [entry["seat"] for entry in placed]
        notes: list[str] = []
        winner = view.get("winner")
        for s in order:
            tied = [o for o in order if o != s and seats[o]["followers"] == seats[s]["followers"]]
            if tied and any(places[o] > places[s] for o in tied) and winner != s:
                notes.append(
                    f"{name_of(s)} wins the tie on {plural(int(seats[s]['followers']), 'follower')} with more "
                    f"buildings ({buildings_of(seats[s])})."
                )
        if isinstance(winner, int):
            notes.append(f"{name_of(winner)} reached {RACE_GOAL} followers first: Race to the Gods.")
        notes.append("Most followers win; a tie goes to the most buildings (mines, blood drills and temples).")
        return {"standings": placed, "notes": notes}

    def components(self, options: Mapping[str, Any] | None = None) -> list[ComponentWords]:
        """The board (phases, Yggdrasil's safe zones, the sites of a god area), gods, buildings, dice and cards.

        Keys say the kind: ``phase:game``, ``safe:5``, ``site``, ``god:odin``, ``building:mine``,
        ``resource:gold``, ``die:yellow:0`` (a face, from 0), ``kind:attack`` (a kind of card),
        ``card:raid``, ``weapon:bullseye`` (a god weapon's option); ``track`` and ``dice`` name
        the board's follower track and its row of dice (their headings on the page).
        """
        content = content_for({"options": options} if options else {})
        parts: list[ComponentWords] = [
            {
                "key": f"phase:{phase}",
                "name": name,
                "value": "",
                "facts": f"phase {index} of {len(PHASES)}",
                "text": about,
            }
            for index, (phase, name, about) in enumerate(PHASES, start=1)
        ]
        parts += [
            {
                "key": f"safe:{zone}",
                "name": f"Safe zone at {zone}",
                "value": str(zone),
                "facts": f"on Yggdrasil, at {plural(zone, 'follower')}",
                "text": f"A player at or past {zone} followers never drops below {zone}.",
            }
            for zone in SAFE_ZONES
        ]
        parts.append(
            {
                "key": "track",
                "name": "Yggdrasil, the follower track",
                "value": "",
                "facts": f"safe zones at {joined([str(zone) for zone in SAFE_ZONES])} followers",
                "text": "Each player's token stands on the number of followers they have.",
            }
        )
        parts.append(
            {
                "key": "site",
                "name": "Construction site",
                "value": str(SITES),
                "facts": f"{SITES} in each god area",
                "text": "A temple goes up on a free site of its god's area; a player with three temples in an area "
                "locks it.",
            }
        )
        parts += [
            {
                "key": f"god:{god.id}",
                "name": god.name,
                "value": "",
                "facts": f"temple: {cost_text(god.temple_cost)}",
                "text": GOD_ABILITIES.get(god.id, god.deck_theme),
            }
            for god in content.gods.values()
        ]
        parts += [
            {
                "key": f"building:{building}",
                "name": BUILDING_NAMES.get(building, building).capitalize(),
                "value": "",
                "facts": f"costs {cost_text(cost)}",
                "text": BUILDING_TEXTS.get(building, ""),
            }
            for building, cost in content.buildings.items()
        ]
        # The resources and the kinds of card, named for the board's icons and the rules page's gallery.
        parts += [
            {
                "key": f"resource:{resource}",
                "name": resource_many(resource).capitalize(),
                "value": "",
                "facts": "resource",
                "text": "",
            }
            for resource in RESOURCES
        ]
        parts += [
            {
                "key": f"kind:{kind}",
                "name": f"{kind.capitalize()} card",
                "value": "",
                "facts": "kind of card",
                "text": "",
            }
            for kind in CARD_KINDS
        ]
        parts.append(
            {
                "key": "dice",
                "name": "Dice",
                "value": "",
                "facts": "as last rolled",
                "text": "Each die shows the face it was rolled or turned to.",
            }
        )
        for colour, faces in content.dice.items():
            for face in range(len(faces)):
                parts.append(
                    {
                        "key": f"die:{colour}:{face}",
                        "name": f"{colour.capitalize()} die",
                        "value": die_face(content, colour, face),
                        "facts": f"face {face + 1} of {len(faces)}",
                        "text": "",
                    }
                )
        for card in content.cards.values():
            deck = f"{content.gods[card.god].name}'s deck" if card.god in content.gods else "base deck"
            power = f" {card.power}" if card.power else ""
            parts.append(
                {
                    "key": f"card:{card.id}",
                    "name": card.name,
                    "value": str(card.power) if card.power else "",
                    "facts": f"{card.kind}{power} · {deck} · {plural(card.count, 'copy', 'copies')}",
                    "text": describe_card(card),
                }
            )
            for option in card.options:
                parts.append(
                    {
                        "key": f"weapon:{option.id}",
                        "name": option.name,
                        "value": "",
                        "facts": f"an option of {card.name} (when {WINDOW_WORDS.get(option.window, option.window)})",
                        "text": option.text,
                    }
                )
        return parts


WORDS = ValdaWords()
