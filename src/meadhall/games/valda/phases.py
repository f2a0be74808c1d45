"""Valda's rounds, turns and five phases: resources, game, building, attack, followers.

A turn is a queue of steps (``("resource_phase",)``, ``("game_phase",)``, ...): each
phase's step sets it up and asks the player whose turn it is (or, in the attack phase,
each other player in the attack order); the decisions (:mod:`meadhall.games.valda.decisions`)
queue what follows.
"""

from __future__ import annotations

from meadhall.core.flow import Step
from meadhall.games.valda.data import ACTIONS, BUILDS, CONVERSIONS, HAND_LIMIT, LOCK, MAX_DRILLS, MAX_MINES, R
from meadhall.games.valda.decisions import Attack, HandLimit
from meadhall.games.valda.effects import ValdaEffects
from meadhall.games.valda.notation import DONE, DRAW, ValdaAction


class ValdaPhases(ValdaEffects):
    """Rounds, turns and the five phases."""

    # Rounds and turns -------------------------------------------------------------------------

    def _begin_round(self) -> None:
        n = self.num_players
        if self.config.turnaround and self.round == self.config.last_round:
            # The last round begins with the player on the start player's right and goes
            # counter-clockwise, ending with the start player (with Race to the Gods, the
            # last round there can be).
            self.order = [(self.start - 1 - i) % n for i in range(n)]
        else:
            self.order = [(self.start + i) % n for i in range(n)]
        self.turn = 0
        self._event("round", round=self.round, order=list(self.order), last_round=self.config.last_round,
                    race=self.config.race)  # fmt: skip
        self.queue.append(("turn",))

    def _step_turn(self) -> None:
        self.actions = ACTIONS
        self.free_yellow = 0
        self.builds = BUILDS
        self.lent = set()
        self.attack = {}
        self._event("turn", seat=self.current, round=self.round)
        self._then(("resource_phase",), ("game_phase",), ("build_phase",), ("attack_phase",), ("followers_phase",),
                   ("end_turn",))  # fmt: skip

    def _step_end_turn(self) -> None:
        self.turn += 1
        if self.turn < len(self.order):
            self.queue.append(("turn",))
            return
        if self.round == self.config.last_round:
            self._end("round limit" if self.config.race else "six rounds")
            return
        self.round += 1
        self._begin_round()

    # 1. Resource phase ------------------------------------------------------------------------

    def _step_resource_phase(self) -> None:
        self.phase = "resources"
        seat = self.current
        player = self.players[seat]
        self.dice = []
        self._then(("resource_actions",))
        self._roll(seat, [("yellow", min(player.mines, MAX_MINES)), ("blue", min(player.drills, MAX_DRILLS))], "dice")

    def _step_resource_actions(self) -> None:
        self._ask_unless_only_done(self.current, "resources")

    # 2. Game phase ----------------------------------------------------------------------------

    def _step_game_phase(self) -> None:
        self.phase = "game"
        seat = self.current
        count = 3 if self.ability(seat, "freya") >= 2 else 2
        self.open = []
        self.open_closed = self.ability(seat, "freya") >= 1
        # Ruling: each god area this player has locked puts one card of its god deck among
        # the open cards, in place of a base card: the player looks at the top two cards
        # of that deck and chooses it (as for every draw from a god deck).
        locked = sorted(g for g, owner in self.locks.items() if owner == seat)
        self._then(*[("lock_card", god, count) for god in locked], ("open_cards", count), ("game_actions",))

    def _step_lock_card(self, god: str, count: int) -> None:
        if len(self.open) < count and self.gods[god]:
            self._look_at_god_cards(self.current, god, "lock-card", f"{god}'s locked area")

    def _step_open_cards(self, count: int) -> None:
        """The base cards that complete the open cards; then everyone who may sees them."""
        seat = self.current
        while len(self.open) < count:
            card = self._draw_base()
            if card is None:
                break
            self.open.append(card)
        audience = frozenset({seat}) if self.open_closed else None
        self._event("opened", audience, seat=seat, cards=list(self.open))
        if self.open_closed:
            self._event("opened-closed", seat=seat, count=len(self.open))

    def _step_game_actions(self) -> None:
        self._ask_unless_only_done(self.current, "game")

    def _game_action(self, seat: int, action: ValdaAction) -> None:
        player = self.players[seat]
        if action == DONE:
            self._then(("hand_limit",))
            return
        self._then(("game_actions",))
        if action.kind in ("play", "use"):
            card = self.card(action.name)
            if self.free_yellow > 0:
                self.free_yellow -= 1
            else:
                self.actions -= 1
            if action.kind == "use":
                self.open.remove(action.name)
            else:
                player.hand.remove(action.name)
                self._forget(seat, [action.name])
            self.discard.append(action.name)
            self._event("played", seat=seat, card=action.name)
            self._then(*[("effect", seat, e.do, tuple(sorted(e.params.items())), card.id, seat) for e in card.effects])
        elif action.kind == "take":
            self.actions -= 1
            player.resources[R[action.name]] += 1
            self._event("gained", seat=seat, resource=action.name, amount=1, why="an action")
        elif action == DRAW:
            self.actions -= 2
            drawn = [c for c in (self._draw_base(seat) for _ in range(2)) if c is not None]
            player.hand += drawn
            self._event("drew", frozenset({seat}), seat=seat, cards=drawn, why="two actions")
            self._event("drew-count", seat=seat, count=len(drawn), why="two actions")
        elif action.kind == "buy":
            self.actions -= 1
            self.open.remove(action.name)
            player.hand.append(action.name)
            if not self.open_closed:  # everybody saw the open card go into the hand
                self._learn(None, seat, [action.name])
            self._event("bought", frozenset({seat}) if self.open_closed else None, seat=seat, card=action.name)

    def _step_hand_limit(self) -> None:
        seat = self.current
        if self.open:
            self.discard += self.open
            self._event("discarded", seat=seat, cards=list(self.open), why="open cards left")
        self.open = []
        if len(self.players[seat].hand) > HAND_LIMIT:
            self._ask(HandLimit(seat))

    # 3. Building phase ------------------------------------------------------------------------

    def _step_build_phase(self) -> None:
        self.phase = "building"
        self._ask_unless_only_done(self.current, "build")

    def _step_do_build(self, seat: int, building: str) -> None:
        if self.backstabbed:
            self.backstabbed = False
            self._event("build-negated", seat=seat, building=building)
            return
        self._build(seat, building, {}, "building phase")

    def _step_temple_rewards(self, seat: int, god: str) -> None:
        self._gain_followers(seat, 1, f"a temple of {god}")
        if self.finished:
            return
        if self.temples(seat, god) >= LOCK and god not in self.locks:
            self.locks[god] = seat
            self._event("locked", seat=seat, god=god)
            self._gain_followers(seat, 1, f"locking {god}'s area")
            if self.finished:
                return
        if self.gods[god]:
            self._look_at_god_cards(seat, god, "keep", f"a temple of {god}")

    # 4. Attack phase --------------------------------------------------------------------------

    def _step_attack_phase(self) -> None:
        self.phase = "attack"
        steps: list[Step] = [("attacker", a) for a in self.attack_order() for _ in range(self.attacks_allowed(a))]
        self._then(*steps, ("attack_done",))

    def _step_attacker(self, seat: int) -> None:
        # Asked even without an attack card (it passes): skipping would show its hand holds none.
        self._ask(Attack(seat, self.current))

    def _step_attack_done(self) -> None:
        self.attack = {}

    # 5. Followers phase -----------------------------------------------------------------------

    def _step_followers_phase(self) -> None:
        self.phase = "followers"
        self.attack = {"uses": {}, "loki": False}
        self._ask_unless_only_done(self.current, "followers")

    def _follower_actions(self, seat: int) -> list[ValdaAction]:
        player = self.players[seat]
        uses = self.attack.get("uses", {})
        found = []
        for name, (god, need, pay, _, limit) in CONVERSIONS.items():
            if self.ability(seat, god) < need or uses.get(name, 0) >= limit:
                continue
            if god == "thor":
                found += [ValdaAction(name, r) for r in ("gold", "diamond") if player.resources[R[r]] >= pay]
            elif player.resources[R["drop"]] >= pay:
                found.append(ValdaAction(name))
        if self.ability(seat, "loki") and not self.attack.get("loki"):
            found.append(ValdaAction("loki"))
        return [*found, DONE]

    def _follower_action(self, seat: int, action: ValdaAction) -> None:
        if action == DONE:
            self.attack = {}
            return
        player = self.players[seat]
        if action.kind == "loki":
            self.attack["loki"] = True
            self._then(("ask_followers",))
            self._roll(seat, [("white", self.ability(seat, "loki"))], "loki")
            return
        else:
            god, _, pay, followers, _ = CONVERSIONS[action.kind]
            resource = action.name if god == "thor" else "drop"
            player.resources[R[resource]] -= pay
            uses = self.attack.setdefault("uses", {})
            uses[action.kind] = uses.get(action.kind, 0) + 1
            self._gain_followers(seat, followers, god, {resource: pay})
        if not self.finished:
            self._ask_unless_only_done(seat, "followers")

    def _step_ask_followers(self) -> None:
        self._ask_unless_only_done(self.current, "followers")
