"""GET /api/tables/{id}/preview: what a target would do, for the seat asking, from its view.

A legal target gets the game's preview (Völuspá: points and each line, as explain says);
an illegal one the engine's refusal; malformed targets are 400, strangers 403, the rate limited.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any
from urllib.parse import quote

import pytest

from meadhall.games.voluspa.board import cell_of, piece_of
from meadhall.games.voluspa.explain import explain_turn, format_line
from meadhall.games.voluspa.notation import parse_action
from meadhall.games.voluspa.tiles import CODE_INDEX
from tests.server.conftest import Player, RunningServer, make_settings


@pytest.fixture
def site(tmp_path: Any) -> Iterator[RunningServer]:
    url = f"sqlite:///{tmp_path / 'preview.sqlite3'}"
    settings = make_settings(tmp_path, url, login_rate=1000, cookie_secure="false", preview_rate="6/minute")
    with RunningServer(settings) as running:
        yield running


def _table(site: RunningServer) -> tuple[dict[int, Player], str, Player]:
    ann, bob, eve = Player(site, "ann"), Player(site, "bob"), Player(site, "eve")
    for player in (ann, bob, eve):
        player.register()
    seats = [{"kind": "me"}, {"kind": "open"}]
    made = ann.post("/api/tables", {"game": "voluspa", "options": {"preset": "all+lightning"}, "seats": seats})
    assert made.status_code == 201, made.text
    table_id = str(made.json()["id"])
    assert bob.post(f"/api/tables/{table_id}/join", {}).status_code == 200
    assert ann.post(f"/api/tables/{table_id}/start").status_code == 200
    by_seat = {int(p.get(f"/api/tables/{table_id}/state").json()["seat"]): p for p in (ann, bob)}
    return by_seat, table_id, eve


def _ask(player: Player, table_id: str, target: Any) -> Any:
    text = target if isinstance(target, str) else json.dumps(target)
    return player.get(f"/api/tables/{table_id}/preview?target={quote(text)}")


def test_preview_legal_illegal_and_errors(site: RunningServer) -> None:
    players, table_id, eve = _table(site)
    state = players[0].get(f"/api/tables/{table_id}/state?words=1").json()
    mover = int(state["to_move"][0])
    me, other = players[mover], players[1 - mover]
    mine = me.get(f"/api/tables/{table_id}/state?words=1").json()
    action = next(a for a in mine["actions"] if a["target"] and a["target"].get("cell"))
    target = {"tile": action["target"]["tile"], "cell": action["target"]["cell"]}

    answer = _ask(me, table_id, target)
    assert answer.status_code == 200, answer.text
    preview = answer.json()["preview"]
    assert preview["legal"] is True
    # The same points and lines as explain, on the board the seat sees.
    board = {(t["x"], t["y"]): t for t in mine["view"]["board"]}
    chosen = next(a for a in mine["actions"] if a["target"] == {**target, "kind": "place"} or a["target"] == target)
    position = {cell_of(x, y): piece_of(CODE_INDEX[t["tile"]], t["boost"]) for (x, y), t in board.items()}
    judged = explain_turn(position, [parse_action(chosen["notation"])], options=mine["view"]["options"])
    points = judged["steps"][0]["points"]
    assert preview["points"] == f"{points} point{'' if points == 1 else 's'}"
    assert preview["lines"][: len(judged["steps"][0]["lines"])] == [
        format_line(line, "") for line in judged["steps"][0]["lines"]
    ]

    # The other seat: the same target is refused by the engine's turn rule.
    refused = _ask(other, table_id, target).json()["preview"]
    assert refused["legal"] is False and refused["rule"] == "turn" and refused["refusal"]

    # A cell far from every tile: the engine says which rule forbids it.
    far = _ask(me, table_id, {"tile": target["tile"], "cell": [9, 9]}).json()["preview"]
    assert far["legal"] is False and far["refusal"] and far["rule"]

    # Malformed, a stranger, nothing there.
    assert _ask(me, table_id, "not json").status_code == 400
    assert _ask(me, table_id, "[1, 2]").status_code == 400
    assert _ask(eve, table_id, target).status_code == 403
    assert _ask(me, table_id, {"kind": "nothing-at-all"}).json()["preview"] is None


def test_preview_is_rate_limited(site: RunningServer) -> None:
    players, table_id, _ = _table(site)
    codes = [_ask(players[0], table_id, {"kind": "end"}).status_code for _ in range(8)]
    assert codes[:6] == [200] * 6
    assert codes[-1] == 429
