"""What a seat may know of a Blood Rage: Valhalla position, as JSON data.

The board and every public fact, plus the seat's own cards; who knows which card in a
hand (``known``). :mod:`~meadhall.games.bloodrage_valhalla.belief` reads a view back into
worlds, so a view holds everything its seat knows.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from meadhall.games.bloodrage_valhalla.content import STATS
from meadhall.games.bloodrage_valhalla.data import KEEP_AT_AGE_END, task_json
from meadhall.games.bloodrage_valhalla.decisions import decision_data

if TYPE_CHECKING:
    from meadhall.games.bloodrage_valhalla.state import BloodRageState


def view(state: BloodRageState, seat: int | None) -> dict[str, Any]:
    """What ``seat`` may know (``None``: a spectator): the board and every public fact, plus its own cards."""
    if seat is not None and not 0 <= seat < state.num_players:
        raise ValueError(f"there is no seat {seat}")
    content = state.config.content
    clans = []
    for index, clan in enumerate(state.clans):
        entry: dict[str, Any] = {
            "seat": index,
            "glory": clan.glory,
            "glory_reached": clan.glory_reached,
            "rage": clan.rage,
            "steps": dict(clan.steps),
            "stats": {s: content.tracks[s][clan.steps[s]] for s in STATS},
            "upgrades": list(clan.upgrades),
            "quests": len(clan.quests),
            "hand": len(clan.hand),
            "drafted": len(clan.drafted),
            "saved": len(clan.saved),
            "discards": list(clan.discards),
            "reserve": {"warrior": clan.warriors, "elite": clan.elites, "monsters": sorted(clan.monsters)},
            "monsters": list(clan.owned_monsters),
            "passed": clan.passed,
            "free_march_used": clan.free_march_used,
            "call_two": state.has(index, "call_two"),
            "battles_won": clan.battles_won,
            "battles_lost": clan.battles_lost,
            "contests_won": clan.contests_won,
            "keeping": state.keeping[index],
            # cards still to remove before the clan may keep the rest (end of an Age)
            "drops": max(0, len(clan.hand) - KEEP_AT_AGE_END) if state.keeping[index] else 0,
            "known": sorted(clan.known),
        }
        clans.append(entry)
    data: dict[str, Any] = {
        "game": "bloodrage-valhalla",
        "content": content.id,
        "content_label": content.label,
        "seat": seat,
        "options": state.game.info.public_options(state.config.options),  # a pack by reference
        "age": state.age,
        "phase": state.phase,
        "first": state.first,
        "current": state.current,
        "gods": list(state.gods),
        "gods_at": dict(state.gods_at),
        "region_tokens": sorted(state.region_tokens),
        "claimed": sorted(state.claimed),
        "board": {r: sorted([o, k] for o, k in figures) for r, figures in state.board.items()},
        "killpiles": [sorted([o, k] for o, k in pile) for pile in state.killpiles],
        "feast": sorted([o, k] for o, k in state.feast),
        "clans": clans,
        "deck": len(state.deck),
        "monsters_in_play": list(state.monsters_in_play),
        # JSON keys are text: seats as keys are written as numbers in text
        "strength": {
            r: {str(owner): state.strength_in(r, owner) for owner in sorted({o for o, _ in figures})}
            for r, figures in state.board.items()
            if figures
        },
        "removed": len(state.removed),
        "spent": list(state.spent),
        "tasks": [task_json(t) for t in state.queue],
        "to_move": list(state.to_move()),
        "ply": state.ply,
        "finished": state.finished,
        "march": None
        if state.march_from is None
        else {"from": state.march_from, "left": sorted(state.march_left), "moved": state.march_moved},
        "picked": [p is not None for p in state.picks],
        "packs": [len(p) for p in state.packs],
        # how many cards each clan keeps in this Age's draft (5, fewer if the deck ran short)
        "draft_keep": len(state.clans[0].drafted) + len(state.packs[0]) - 1 if state.packs[0] else 0,
    }
    battle = state.battle
    if battle is not None:
        data["battle"] = {
            "region": battle.region,
            "attacker": battle.attacker,
            "calls": list(battle.calls),
            "joined": {str(k): v for k, v in battle.joined.items()},
            "participants": list(battle.participants),
            "chosen": sorted(battle.played),
            "empty": sorted(k for k, v in battle.played.items() if v is None and not state.clans[k].hand),
            "revealed": battle.revealed,
            "cards": {str(k): v for k, v in battle.played.items()} if battle.revealed else {},
            "bonus": {str(k): v for k, v in battle.bonus.items()},
            "kills": {str(k): v for k, v in battle.kills.items()},
            "losses": {str(k): v for k, v in battle.losses.items()},
            "fought": battle.fought,
            "winner": battle.winner,
        }
    decision = state.decision
    if decision is not None:
        data["decision"] = {"seat": decision.seat, "type": decision.kind, "data": decision_data(decision)}
    if state.finished:
        data["places"] = state.ranking()
    if seat is not None:
        clan = state.clans[seat]
        data["hand"] = sorted(clan.hand)
        data["my_quests"] = list(clan.quests)
        data["my_drafted"] = list(clan.drafted)
        data["my_saved"] = list(clan.saved)
        data["pack"] = sorted(state.packs[seat])
        data["my_pick"] = state.picks[seat]
        if battle is not None and seat in battle.played and not battle.revealed:
            data["my_card"] = battle.played[seat]
    return data
