"""Worlds consistent with a Völuspá view: how honest bots imagine the hidden tiles.

:class:`VoluspaBelief` reads one seat's view (``VoluspaState.view``) and samples full
states that show that seat exactly the same view. Everything public is copied; the tiles
the seat cannot see (the pile, and the other hands except tiles publicly known to be
there) are the unseen multiset, dealt at random to the hidden hand slots and the pile.
Every permutation of the unseen tiles is equally likely, so each unseen tile is in a
given hidden slot with the same probability.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from meadhall.core.rng import Rng
from meadhall.games.voluspa.board import cell_of, piece_of
from meadhall.games.voluspa.notation import VoluspaAction, parse_action
from meadhall.games.voluspa.state import STAGE_NAMES, VoluspaConfig, VoluspaState
from meadhall.games.voluspa.tiles import CODE_INDEX, COUNTS, HE, NUM_KINDS


def _counts(mapping: Mapping[str, int]) -> list[int]:
    counts = [0] * NUM_KINDS
    for code, count in mapping.items():
        counts[CODE_INDEX[code]] += int(count)
    return counts


def _cell(pair: Any) -> int:
    x, y = pair
    return cell_of(int(x), int(y))


class VoluspaBelief:
    """A sampler of full states consistent with one view."""

    def __init__(self, view: Mapping[str, Any], config: VoluspaConfig) -> None:
        try:
            self._read(view, config)
        except (KeyError, TypeError, IndexError) as error:
            raise ValueError(f"not a Völuspá view: {error!r}") from None

    def _read(self, view: Mapping[str, Any], config: VoluspaConfig) -> None:
        seats = view["seats"]
        players = len(seats)
        seat = view["seat"]
        self.seat: int | None = seat
        board = {
            cell_of(int(t["x"]), int(t["y"])): piece_of(CODE_INDEX[t["tile"]], int(t["boost"])) for t in view["board"]
        }
        state = VoluspaState.from_position(config, board, [[] for _ in range(players)])
        state.supply = [0] * len(state.supply)
        for value, count in view["booster_supply"].items():
            state.supply[int(value)] = int(count)
        state.discards = _counts(view["discard_pile"])
        state.box = _counts(view["out_of_game"])
        state._scores = [int(s["score"]) for s in seats]
        state.reached = [int(s["reached_at"]) for s in seats]
        to_move = view["to_move"]
        state.finished = bool(view["finished"])
        state.current = int(to_move[0]) if to_move else 0
        state.stage = STAGE_NAMES.index(view["stage"])
        state.hermod_cell = _cell(view["hermod"]) if "hermod" in view else -1
        state.raven_cell = _cell(view["raven"]) if "raven" in view else -1
        turn_state = view["turn_state"]
        state.turn_plays = int(turn_state["plays"])
        state.turn_swapped = bool(turn_state["swapped"])
        state.turn_first_hel = bool(turn_state["first_hel"])
        state.ply = int(view["ply"])
        state.turn_number = int(view["turn"])
        state.turn_steps = [parse_action(text) for text in view["turn_steps"]]
        state.turn_cells = [_cell(pair) for pair in view["turn_cells"]]
        last = view["last_turn"]
        if last is not None:
            steps: tuple[VoluspaAction, ...] = tuple(parse_action(text) for text in last["steps"])
            state.last_turn = (int(last["seat"]), steps, tuple(_cell(pair) for pair in last["cells"]))
        # What is visible: the board, the discard pile, the box, known hand tiles, Hels.
        unseen = [COUNTS[kind] if kind in config.kinds else 0 for kind in range(NUM_KINDS)]
        for piece in board.values():
            unseen[piece & 31] -= 1
        for kind in range(NUM_KINDS):
            unseen[kind] -= state.discards[kind] + state.box[kind]
        hidden: list[int] = [0] * players
        for other, info in enumerate(seats):
            known = _counts(info["known"])
            hand = state.hands[other]
            hand[HE] = int(info["hels"])
            unseen[HE] -= hand[HE]
            if other == seat:
                for code in view["hand"]:
                    kind = CODE_INDEX[code]
                    if kind != HE:
                        hand[kind] += 1
                        unseen[kind] -= 1
            else:
                for kind in range(NUM_KINDS):
                    if kind != HE:
                        hand[kind] = known[kind]
                        unseen[kind] -= known[kind]
                hidden[other] = int(info["tiles"]) - sum(known[k] for k in range(NUM_KINDS) if k != HE)
            state.known[other] = known
        unseen[HE] = 0  # Hels are never in the pile; every Hel is accounted for above
        if any(count < 0 for count in unseen) or sum(unseen) != int(view["pile"]) + sum(hidden):
            raise ValueError("the view's tile counts do not add up")
        self.template = state
        self.hidden = hidden
        self.unseen = [kind for kind in range(NUM_KINDS) for _ in range(unseen[kind])]

    def sample(self, rng: Rng) -> VoluspaState:
        """A full state consistent with the view, the unseen tiles dealt at random."""
        world = self.template.clone()
        tiles = self.unseen[:]
        rng.shuffle(tiles)
        for other, count in enumerate(self.hidden):
            hand = world.hands[other]
            for _ in range(count):
                hand[tiles.pop()] += 1
        world.pile = tiles
        world.rng = Rng(rng.next64())
        return world
