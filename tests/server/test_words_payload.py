"""The server sends the game's words: labels, groups and targets of legal actions, event
texts, the words beside the board, the engine's reason for a refusal, and the game's
browser plugin; clients that only play (scripts, the load generator) go without.
"""

from __future__ import annotations

import dataclasses
import json
import threading
import time
from collections.abc import Iterator
from importlib import resources
from importlib.resources.abc import Traversable
from typing import Any

import pytest
from websockets.sync.client import connect

from meadhall.core.errors import IllegalAction
from meadhall.core.game import Event
from meadhall.core.registry import register, unregister
from meadhall.core.words import events_json
from meadhall.games.voluspa import VOLUSPA
from meadhall.games.voluspa.tiles import CODES
from meadhall.server.plugins import has_style, plugin_file
from tests.server.conftest import Player, RunningServer, make_settings

HANG_GUARD = 60.0  # seconds: only a hang fails


@pytest.fixture
def site(tmp_path: Any) -> Iterator[RunningServer]:
    url = f"sqlite:///{tmp_path / 'words.sqlite3'}"
    settings = make_settings(tmp_path, url, login_rate=1000, cookie_secure="false")
    with RunningServer(settings) as running:
        yield running


def _table(site: RunningServer) -> tuple[dict[int, Player], str]:
    ann, bob = Player(site, "ann"), Player(site, "bob")
    ann.register()
    bob.register()
    seats = [{"kind": "me"}, {"kind": "open"}]
    made = ann.post("/api/tables", {"game": "voluspa", "options": {"preset": "all+lightning"}, "seats": seats})
    assert made.status_code == 201, made.text
    table_id = str(made.json()["id"])
    assert bob.post(f"/api/tables/{table_id}/join", {}).status_code == 200
    assert ann.post(f"/api/tables/{table_id}/start").status_code == 200
    by_seat = {int(p.get(f"/api/tables/{table_id}/state").json()["seat"]): p for p in (ann, bob)}
    return by_seat, table_id


class Socket:
    """A table WebSocket that keeps every message."""

    def __init__(self, site: RunningServer, table_id: str, player: Player | None, words: bool) -> None:
        cookie = "; ".join(f"{k}={v}" for k, v in player.client.cookies.items()) if player else ""
        url = site.url.replace("http://", "ws://") + f"/ws/tables/{table_id}" + ("?words=1" if words else "")
        self.socket = connect(url, additional_headers={"Cookie": cookie} if cookie else {}, open_timeout=HANG_GUARD)
        self.messages: list[dict[str, Any]] = []
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        try:
            for text in self.socket:
                self.messages.append(json.loads(text))
        except Exception:
            return

    def wait(self, predicate: Any) -> dict[str, Any]:
        deadline = time.monotonic() + HANG_GUARD
        while time.monotonic() < deadline:
            for message in list(self.messages):
                if predicate(message):
                    found: dict[str, Any] = message
                    return found
            time.sleep(0.01)
        raise AssertionError(f"no such message; got {[m.get('type') for m in self.messages]}")


def test_state_and_moves_carry_the_words_when_asked(site: RunningServer) -> None:
    players, table_id = _table(site)
    runtime = site.app.state.services.games.runtimes[table_id]
    mover = runtime.state.to_move()[0]
    me = players[mover]
    plain = me.get(f"/api/tables/{table_id}/state").json()
    assert "actions" not in plain and "words" not in plain  # scripts go without
    mine = me.get(f"/api/tables/{table_id}/state?words=true").json()
    assert [a["notation"] for a in mine["actions"]] == mine["legal"] == plain["legal"]
    view = runtime.state.view(mover)
    assert mine["actions"] == VOLUSPA.words().actions(view, mine["legal"])  # the game's words, as they are
    for action in mine["actions"]:
        assert action["label"] and action["group"]
        assert action["target"]["tile"] in view["hand"] and len(action["target"]["cell"]) == 2
    assert mine["words"]["prompt"] == "Your move: place a tile from your hand."
    assert mine["words"]["heading"] == f"Turn 1: {{{mover}}}" and len(mine["words"]["seats"]) == 2
    assert mine["words"]["titles"] == {"board": "The board"}  # the board's name: the plugin words nothing itself
    other = players[1 - mover].get(f"/api/tables/{table_id}/state?words=true").json()
    assert "actions" not in other and "prompt" not in other["words"]  # only the seat that decides is asked
    # A move that ends with a draw: Hermod, Skadi, Frigg, Heimdall and the Ravens give another
    # placement or a choice first, and the table's seed is the server's.
    state = runtime.state
    drawing = next(
        text
        for text in mine["legal"]
        if any(e.kind == "drew" for e in state.clone().apply(mover, runtime.game.parse_action(text)))
    )
    answer = me.post(f"/api/tables/{table_id}/actions?words=true", {"action": drawing, "version": 0})
    assert answer.status_code == 200, answer.text
    events = answer.json()["events"]
    kinds = {e["kind"]: e for e in events}
    assert kinds["placed"]["text"].startswith(f"{{{mover}}} places ")
    assert kinds["scored"]["text"].startswith(f"{{{mover}}} scores ") and kinds["scored"]["details"]
    assert kinds["drew"]["text"].startswith("You drew ")
    assert kinds["turn"]["heading"] is True


def test_sockets_that_ask_get_words_and_others_do_not(site: RunningServer) -> None:
    players, table_id = _table(site)
    runtime = site.app.state.services.games.runtimes[table_id]
    mover = runtime.state.to_move()[0]
    sockets = {
        "mover": Socket(site, table_id, players[mover], words=True),
        "waiter": Socket(site, table_id, players[1 - mover], words=True),
        "spectator": Socket(site, table_id, None, words=True),
        "script": Socket(site, table_id, players[mover], words=False),
    }
    try:
        snapshots = {name: s.wait(lambda m: m.get("type") == "snapshot") for name, s in sockets.items()}
        assert [a["notation"] for a in snapshots["mover"]["actions"]] == snapshots["mover"]["legal"]
        assert "prompt" in snapshots["mover"]["words"] and "prompt" not in snapshots["spectator"]["words"]
        assert "actions" not in snapshots["script"] and "words" not in snapshots["script"]
        legal = snapshots["mover"]["legal"]
        sockets["mover"].socket.send(json.dumps({"type": "act", "id": 1, "action": legal[0], "version": 0}))
        updates = {
            name: s.wait(lambda m: m.get("type") == "update" and m["version"] == 1) for name, s in sockets.items()
        }
        for name in ("mover", "waiter", "spectator"):
            texts = {e["kind"]: e.get("text") for e in updates[name]["events"]}
            assert texts["placed"] and texts["scored"], name
        assert "drew" in {e["kind"] for e in updates["mover"]["events"]}
        assert "drew" not in {e["kind"] for e in updates["spectator"]["events"]}
        assert all("text" not in e for e in updates["script"]["events"])
        waiter = updates["waiter"]  # now it decides
        assert [a["notation"] for a in waiter["actions"]] == waiter["legal"] and waiter["words"]["prompt"]
        # The texts are the game's words for that seat.
        state = VOLUSPA.replay(2, runtime.row.seed, runtime.row.options, [])
        events: list[Event] = state.apply(mover, VOLUSPA.parse_action(legal[0]))
        assert updates["spectator"]["events"] == events_json(events, None, VOLUSPA.words())
    finally:
        for socket in sockets.values():
            socket.socket.close()


def test_a_refusal_gives_the_engines_reason(site: RunningServer) -> None:
    players, table_id = _table(site)
    runtime = site.app.state.services.games.runtimes[table_id]
    mover = runtime.state.to_move()[0]
    hand = runtime.state.view(mover)["hand"]
    missing = next(code for code in CODES if code not in hand)
    reasons = {}
    for action in (f"{missing}@0,1", f"{hand[0]}@40,40", "end"):
        try:
            runtime.state.clone().check(mover, VOLUSPA.parse_action(action))
        except IllegalAction as error:
            expected, rule = str(error), error.rule
        else:  # pragma: no cover - each of these is illegal now
            raise AssertionError(f"{action} is legal")
        answer = players[mover].post(f"/api/tables/{table_id}/actions?words=true", {"action": action, "version": 0})
        assert answer.status_code == 422
        assert answer.json() == {"error": "illegal", "message": expected, "rule": rule}
        reasons[action] = expected
    socket = Socket(site, table_id, players[mover], words=True)
    try:
        socket.wait(lambda m: m.get("type") == "snapshot")
        socket.socket.send(json.dumps({"type": "act", "id": 5, "action": f"{missing}@0,1", "version": 0}))
        refused = socket.wait(lambda m: m.get("type") == "refused")
        assert refused["message"] == reasons[f"{missing}@0,1"] and refused["rule"] == "not-in-hand"
    finally:
        socket.socket.close()


def test_the_log_and_replays_carry_the_texts(site: RunningServer) -> None:
    players, table_id = _table(site)
    runtime = site.app.state.services.games.runtimes[table_id]
    while not runtime.state.is_terminal():
        seat = runtime.state.to_move()[0]
        mine = players[seat].get(f"/api/tables/{table_id}/state").json()
        body = {"action": mine["legal"][-1], "version": mine["version"]}
        assert players[seat].post(f"/api/tables/{table_id}/actions", body).status_code == 200
    log = players[0].get(f"/api/tables/{table_id}/log").json()
    events = [e for step in log["steps"] for e in step["events"]]
    assert events and all(e["text"] for e in events)
    assert any(e["kind"] == "drew" and e["text"].startswith("You drew") for e in events)
    last = players[0].get(f"/api/tables/{table_id}/replay/{log['version']}").json()
    assert all(e["text"] for e in last["events"]) and not any(e["kind"] == "drew" for e in last["events"])
    result = last["words"]["result"]
    assert sorted(s["place"] for s in result["standings"]) == sorted(last["view"]["places"])
    assert result["standings"][0]["seat"] == last["view"]["places"].index(1)


def test_the_table_page_gets_the_plugin_and_the_components(site: RunningServer) -> None:
    players, table_id = _table(site)
    content = players[0].get(f"/api/tables/{table_id}/content").json()
    names = {c["key"]: c["name"] for c in content["components"]}
    assert names["TH"] == "Thor" and set(names) == set(CODES)
    for game in ("voluspa", "bloodrage-valhalla", "valda"):
        plugin = players[0].get(f"/games/{game}/plugin.js")
        assert plugin.status_code == 200 and plugin.headers["content-type"].startswith("text/javascript")
        assert "window.MeadhallGames" in plugin.text
        again = players[0].client.get(f"/games/{game}/plugin.js", headers={"If-None-Match": plugin.headers["etag"]})
        assert again.status_code == 304
    assert players[0].get("/games/chess/plugin.js").status_code == 404
    for game in ("voluspa", "bloodrage-valhalla", "valda"):  # each ships its board's stylesheet
        style = players[0].get(f"/games/{game}/plugin.css")
        assert style.status_code == 200 and style.headers["content-type"].startswith("text/css")
        again = players[0].client.get(f"/games/{game}/plugin.css", headers={"If-None-Match": style.headers["etag"]})
        assert again.status_code == 304
    assert players[0].get("/games/chess/plugin.css").status_code == 404
    assert players[0].get(f"/api/tables/{table_id}").json()["board_style"] is True
    page = players[0].get(f"/t/{table_id}").text
    assert "voluspa" not in page.lower() and "/static/table.js" in page


def test_a_game_without_a_stylesheet_is_linked_none() -> None:
    class Unstyled(type(VOLUSPA)):  # type: ignore[misc]
        info = dataclasses.replace(VOLUSPA.info, name="unstyled-test", aliases=())

        def web_style(self) -> Traversable:
            return resources.files("meadhall") / "no-such-stylesheet.css"

    register(Unstyled())
    try:
        assert not has_style("unstyled-test") and plugin_file("unstyled-test", "css") is None
        assert has_style("voluspa") and not has_style("chess")
    finally:
        unregister("unstyled-test")
        plugin_file.cache_clear()
