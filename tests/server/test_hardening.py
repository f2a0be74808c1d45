"""Hardening of issue 19 (serverC): bad input is a clear 4xx, names are clean, sign-in stays on
the site, signing out closes sockets, leaving a rated game, replays of ended games, headers
and an API reference that works offline."""

from __future__ import annotations

import json
import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from websockets.exceptions import ConnectionClosed, InvalidStatus
from websockets.sync.client import ClientConnection, connect

from meadhall.core.record import GameRecord
from meadhall.server.pages import local_path
from meadhall.server.text import normalize_display_name
from tests.server.conftest import Player, RunningServer, make_settings


@pytest.fixture
def sqlite_server(tmp_path: Path) -> Iterator[RunningServer]:
    settings = make_settings(tmp_path, f"sqlite:///{tmp_path / 'hard.sqlite3'}", login_rate=1000, cookie_secure="false")
    with RunningServer(settings) as running:
        yield running


def _pair(server: RunningServer) -> tuple[Player, Player]:
    ann, bob = Player(server, "ann"), Player(server, "bob")
    ann.register()
    bob.register()
    return ann, bob


def _two_player_table(ann: Player, bob: Player) -> str:
    made = ann.post("/api/tables", {"game": "voluspa", "seats": [{"kind": "me"}, {"kind": "invite", "name": "bob"}]})
    assert made.status_code == 201, made.text
    table_id = str(made.json()["id"])
    assert bob.post(f"/api/tables/{table_id}/join", {}).status_code == 200
    assert ann.post(f"/api/tables/{table_id}/start").status_code == 200
    return table_id


def _move(ann: Player, bob: Player, table_id: str) -> None:
    """Whoever is to move plays their first legal action."""
    state = ann.get(f"/api/tables/{table_id}/state").json()
    mover = ann if 0 in state["to_move"] else bob
    mine = mover.get(f"/api/tables/{table_id}/state").json()
    answer = mover.post(f"/api/tables/{table_id}/actions", {"action": mine["legal"][0], "version": mine["version"]})
    assert answer.status_code == 200, answer.text


def _socket(server: RunningServer, table_id: str, player: Player | None) -> ClientConnection:
    headers = {}
    if player is not None:
        headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in player.client.cookies.items())
    url = server.url.replace("http://", "ws://") + f"/ws/tables/{table_id}"
    return connect(url, additional_headers=headers, open_timeout=10)


def _refused(response: Any, status: int = 422) -> str:
    assert response.status_code == status, (response.status_code, response.text)
    message = response.json()["message"]
    assert isinstance(message, str) and message
    return str(message)


# --- item 11: malformed options, unknown games, NUL characters -------------------------------------


def test_odd_options_and_unknown_games_are_clear_4xx(server: RunningServer) -> None:
    ann, _bob = _pair(server)
    seats = [{"kind": "me"}, {"kind": "bot"}, {"kind": "bot"}]
    for options in ({"preset": ["base"]}, {"preset": {"x": 1}}, {"preset": 7}):
        assert "preset" in _refused(ann.post("/api/tables", {"game": "voluspa", "options": options, "seats": seats}))
    for junk in ([[["odin"]], [1], {}], [[1, [2]], "x", "y"], {"a": [None]}):
        body = {"game": "bloodrage", "options": {"rainbow-rewards": junk}, "seats": seats}
        _refused(ann.post("/api/tables", body))
    body = {"game": "bloodrage", "options": {"gods": [[1], [2], [3]]}, "seats": seats}
    _refused(ann.post("/api/tables", body))
    assert "no game" in _refused(ann.get("/api/leaderboard/no-such-game"), 404)


def test_nul_and_control_characters_are_refused_everywhere(server: RunningServer) -> None:
    ann, bob = _pair(server)
    table_id = _two_player_table(ann, bob)
    nul = "a\x00b"
    assert "control character" in _refused(ann.post("/api/auth/login", {"name": nul, "password": "x"}))
    _refused(ann.post("/api/auth/login", {"name": "ann", "password": nul}))
    _refused(ann.post("/api/auth/register", {"name": "abc\x00", "password": "long enough password"}))
    _refused(ann.post("/api/auth/guest", {"display_name": nul}))
    _refused(ann.post(f"/api/tables/{table_id}/chat", {"text": nul}))
    _refused(ann.post(f"/api/tables/{table_id}/chat", {"text": "bell\x07"}))
    _refused(ann.post(f"/api/tables/{table_id}/actions", {"action": nul, "version": 0}))
    _refused(bob.post(f"/api/tables/{table_id}/join", {"code": nul}))
    invite = [{"kind": "me"}, {"kind": "invite", "name": nul}]
    _refused(ann.post("/api/tables", {"game": "voluspa", "seats": invite}))
    bots = [{"kind": "me"}, {"kind": "bot", "bot": nul}]
    _refused(ann.post("/api/tables", {"game": "voluspa", "seats": bots}))
    _refused(ann.post("/api/tables", {"game": nul, "seats": bots[:1]}))
    options = {"preset": nul}
    _refused(ann.post("/api/tables", {"game": "voluspa", "options": options, "seats": [{"kind": "me"}]}))
    nested = {"content": {"id": ["x", {"k\x00": 1}]}}
    _refused(ann.post("/api/tables", {"game": "valda", "options": nested, "seats": [{"kind": "me"}, {"kind": "bot"}]}))
    for path in (
        "/api/users/a%00b",
        "/api/users/a%00b/mute",
        "/api/tables/a%00b",
        "/api/tables/a%00b/state",
        "/api/leaderboard/a%00b",
        "/api/games/a%00b/content",
        "/u/a%00b",
        "/t/a%00b",
        "/leaderboard?game=a%00b",
        "/signin?next=/%00",
        f"/api/tables/{table_id}/replay/0?x=%1b",
    ):
        response = ann.post(path, {}) if path.endswith("/mute") else ann.get(path)
        assert "control character" in _refused(response, 400), path
    with pytest.raises(InvalidStatus):
        _socket(server, "a%00b", ann)
    # nothing was stored: the table's chat is still empty, and the server is well
    assert ann.get(f"/api/tables/{table_id}/chat").json()["messages"] == []
    assert ann.get("/readyz").status_code == 200


# --- item 15: display names ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "why"),
    [
        ("\u202eevil", "reorder"),  # right-to-left override
        ("ann\u2066x\u2069", "reorder"),  # isolates
        ("\u200b\u200b", "invisible"),  # zero-width spaces only
        ("\u3164", "visible"),  # Hangul filler: a letter that draws nothing
        ("\u2800\u2800", "visible"),  # braille blanks
        ("a\x07b", "control"),
        ("a\x85b", "control"),  # C1 next line
        (" ann", "space"),
        ("ann ", "space"),
        ("an\u3000 n", "single spaces"),  # ideographic space becomes a space (NFKC): two in a row
        ("x" * 25, "at most 24"),
    ],
)
def test_display_names_refused(name: str, why: str) -> None:
    with pytest.raises(ValueError, match=why):
        normalize_display_name(name)


def test_display_names_normalised() -> None:
    assert normalize_display_name("ｆｕｌｌ ｗｉｄｔｈ") == "full width"
    assert normalize_display_name("Ægir the ﬁrst") == "Ægir the first"
    assert normalize_display_name("می\u200cخواهم") == "می\u200cخواهم"  # a joiner Persian needs stays


def test_display_name_rules_on_the_api(sqlite_server: RunningServer) -> None:
    guest = Player(sqlite_server, "g")
    assert "reorder" in _refused(guest.post("/api/auth/guest", {"display_name": "\u202eevil"}))
    assert "visible" in _refused(guest.post("/api/auth/guest", {"display_name": "\u200b"}))
    assert "space" in _refused(guest.post("/api/auth/guest", {"display_name": " Cy "}))
    made = guest.post("/api/auth/guest", {"display_name": "Ｃｙ"})
    assert made.status_code == 201 and made.json()["user"]["display_name"] == "Cy"
    person = Player(sqlite_server, "dora")
    body = {"name": "dora", "password": "long enough password", "display_name": "\u202edora"}
    assert "reorder" in _refused(person.post("/api/auth/register", body))
    # a user name is the whole text: a trailing line break is not part of a valid name
    _refused(person.post("/api/auth/register", {"name": "dora\n", "password": "long enough password"}))
    body = {"name": "dora", "password": "long enough password", "display_name": "Dóra"}
    assert person.post("/api/auth/register", body).json()["user"]["display_name"] == "Dóra"


# --- item 12: sign-in stays on the site ------------------------------------------------------------


@pytest.mark.parametrize(
    "target",
    [
        "/\\example.invalid/x",
        "/\t/example.invalid/x",
        "/\n/example.invalid",
        "//example.invalid/x",
        "https://example.invalid/",
        "javascript:alert(1)",
        "/\\/example.invalid",
        "lobby",
        "",
        None,
    ],
)
def test_next_off_the_site_goes_to_the_lobby(target: str | None) -> None:
    assert local_path(target) == "/lobby"


def test_next_on_the_site_is_kept() -> None:
    assert local_path("/t/abc?code=x#chat") == "/t/abc?code=x#chat"
    assert local_path("/u/ann") == "/u/ann"


def test_signin_page_hands_the_checked_next_to_its_script(sqlite_server: RunningServer) -> None:
    visitor = Player(sqlite_server, "v")

    def data_next(query: str) -> str:
        page = visitor.get(f"/signin?{query}")
        assert page.status_code == 200
        found = re.search(r'data-next="([^"]*)"', page.text)
        assert found is not None
        return found.group(1)

    assert data_next("next=/%5Cexample.invalid/x") == "/lobby"
    assert data_next("next=//example.invalid/x") == "/lobby"
    assert data_next("next=/t/abc") == "/t/abc"
    assert data_next("") == "/lobby"
    script = visitor.get("/static/signin.js").text
    assert "location.search" not in script and "location.origin" in script  # the page's query is not followed


# --- item 13: signing out closes the sockets -------------------------------------------------------


def _closed_code(socket: ClientConnection) -> int | None:
    """Read until the server closes the socket; its close code."""
    deadline = time.monotonic() + 20
    try:
        while time.monotonic() < deadline:
            socket.recv(timeout=max(0.1, deadline - time.monotonic()))
    except ConnectionClosed as closed:
        return closed.rcvd.code if closed.rcvd else None
    except TimeoutError:
        return None
    return None


def test_signing_out_closes_the_sessions_sockets(sqlite_server: RunningServer) -> None:
    ann, bob = _pair(sqlite_server)
    table_id = _two_player_table(ann, bob)
    socket = _socket(sqlite_server, table_id, ann)
    other = _socket(sqlite_server, table_id, bob)
    try:
        assert json.loads(socket.recv(timeout=10))["type"] == "snapshot"
        assert json.loads(other.recv(timeout=10))["type"] == "snapshot"
        assert ann.post("/api/auth/logout").status_code == 200
        assert _closed_code(socket) == 4401
        # the socket can play no move any more; the other login's socket stays open
        with pytest.raises(ConnectionClosed):
            socket.send(json.dumps({"type": "act", "id": 1, "action": "x", "version": 0}))
            socket.recv(timeout=5)
        other.send(json.dumps({"type": "ping"}))
        assert json.loads(other.recv(timeout=10))["type"] == "pong"
        assert ann.get(f"/api/tables/{table_id}/state").json()["version"] == 0
    finally:
        socket.close()
        other.close()


def test_a_revoked_session_cannot_play_over_its_socket(sqlite_server: RunningServer) -> None:
    ann, bob = _pair(sqlite_server)
    table_id = _two_player_table(ann, bob)
    state = ann.get(f"/api/tables/{table_id}/state").json()
    mover = ann if 0 in state["to_move"] else bob
    legal = mover.get(f"/api/tables/{table_id}/state").json()["legal"]
    socket = _socket(sqlite_server, table_id, mover)
    try:
        assert json.loads(socket.recv(timeout=10))["type"] == "snapshot"
        svc = sqlite_server.app.state.services
        from sqlalchemy import delete

        from meadhall.server import db

        # the session ends elsewhere (expired, or removed by the operator): its row goes,
        # and the server's short session cache forgets it
        with svc.store.engine.begin() as connection:
            connection.execute(delete(db.sessions))
        svc._sessions.clear()
        socket.send(json.dumps({"type": "act", "id": 1, "action": legal[0], "version": 0}))
        assert _closed_code(socket) == 4401
        assert bob.get(f"/api/tables/{table_id}/state").json()["version"] == 0
    finally:
        socket.close()


# --- item 14: leaving a game, and replays of every ended game -------------------------------------


def _ratings(player: Player, name: str) -> dict[str, Any]:
    found: dict[str, Any] = player.get(f"/api/users/{name}").json()["ratings"]
    return found


def test_the_creator_cannot_abandon_a_rated_game_under_way_alone(server: RunningServer) -> None:
    ann, bob = _pair(server)
    table_id = _two_player_table(ann, bob)
    _move(ann, bob, table_id)
    asked = ann.post(f"/api/tables/{table_id}/abandon")
    assert asked.status_code == 200, asked.text
    assert asked.json()["status"] == "active" and asked.json()["abandon_requests"] == [0]
    assert ann.get(f"/api/tables/{table_id}").json()["status"] == "active"
    _move(ann, bob, table_id)  # the game goes on
    agreed = bob.post(f"/api/tables/{table_id}/abandon")
    assert agreed.status_code == 200 and agreed.json()["status"] == "abandoned"
    assert _ratings(ann, "ann") == {}  # no result, no rating
    # every ended game replays: the steps, the log and the record
    first = ann.get(f"/api/tables/{table_id}/replay/0")
    assert first.status_code == 200, first.text
    assert first.json()["steps"] == 2
    assert ann.get(f"/api/tables/{table_id}/replay/2").status_code == 200
    assert ann.get(f"/api/tables/{table_id}/log").json()["version"] == 2
    abandoned = ann.get(f"/api/tables/{table_id}/record").json()
    assert len(abandoned["actions"]) == 2 and abandoned["ending"] == {"by": "abandonment"}
    assert ann.get(f"/replay/{table_id}").status_code == 200


def test_abandon_before_the_first_move_and_unrated_games(sqlite_server: RunningServer) -> None:
    ann, bob = _pair(sqlite_server)
    table_id = _two_player_table(ann, bob)
    assert bob.post(f"/api/tables/{table_id}/abandon").status_code == 403  # not the creator
    done = ann.post(f"/api/tables/{table_id}/abandon")
    assert done.status_code == 200 and done.json()["status"] == "abandoned"
    assert ann.get(f"/api/tables/{table_id}/replay/0").json()["steps"] == 0
    # a game against a bot (nobody rated) may be abandoned by its creator at any time
    made = ann.post("/api/tables", {"game": "voluspa", "seats": [{"kind": "me"}, {"kind": "bot", "bot": "beginner"}]})
    bot_table = made.json()["id"]
    assert ann.post(f"/api/tables/{bot_table}/start").status_code == 200
    deadline = time.monotonic() + 60
    while ann.get(f"/api/tables/{bot_table}/state").json()["version"] == 0:
        state = ann.get(f"/api/tables/{bot_table}/state").json()
        if "legal" in state:
            ann.post(f"/api/tables/{bot_table}/actions", {"action": state["legal"][0], "version": state["version"]})
        assert time.monotonic() < deadline
        time.sleep(0.05)
    assert ann.post(f"/api/tables/{bot_table}/abandon").json()["status"] == "abandoned"


def test_resigning_is_a_loss_and_changes_ratings(server: RunningServer) -> None:
    ann, bob = _pair(server)
    table_id = _two_player_table(ann, bob)
    _move(ann, bob, table_id)
    watcher = Player(server, "cy")
    watcher.guest()
    assert watcher.post(f"/api/tables/{table_id}/resign").status_code == 403  # not seated
    resigned = ann.post(f"/api/tables/{table_id}/resign")  # the creator resigns
    assert resigned.status_code == 200, resigned.text
    table = resigned.json()
    assert table["status"] == "finished"
    assert table["result"]["resigned"] == 0 and table["result"]["places"] == [2, 1]
    assert _ratings(ann, "ann")["voluspa"]["elo"] < 1500 < _ratings(bob, "bob")["voluspa"]["elo"]
    assert ann.post(f"/api/tables/{table_id}/resign").status_code == 409
    assert ann.post(f"/api/tables/{table_id}/abandon").status_code == 409
    state = bob.get(f"/api/tables/{table_id}/state").json()
    assert state["status"] == "finished" and "legal" not in state
    assert ann.get(f"/api/tables/{table_id}/replay/1").status_code == 200
    exported = ann.get(f"/api/tables/{table_id}/record")
    assert exported.status_code == 200
    record = exported.json()
    assert record["ending"] == {"by": "resignation", "seat": 0, "places": [2, 1]} and "result" not in record
    assert GameRecord.from_dict(record).ending == record["ending"]  # the export reads back, ending and all


# --- item 16: headers, and an API reference served from this site --------------------------------


def test_security_headers_on_pages_and_api(sqlite_server: RunningServer) -> None:
    visitor = Player(sqlite_server, "v")
    for path in ("/", "/signin", "/lobby", "/api/games", "/api/tables/nope", "/api/docs", "/static/common.js"):
        headers = visitor.get(path).headers
        policy = headers["content-security-policy"]
        directives = {part.split()[0]: part.split()[1:] for part in policy.split("; ")}
        assert directives["script-src"] == ["'self'"], path  # no inline script, nothing from elsewhere
        assert directives["frame-ancestors"] == ["'none'"] and directives["object-src"] == ["'none'"]
        assert "'unsafe-inline'" not in directives["default-src"]
        assert headers["x-content-type-options"] == "nosniff"
        assert headers["referrer-policy"] == "same-origin"


def test_api_docs_use_only_packaged_assets(sqlite_server: RunningServer) -> None:
    visitor = Player(sqlite_server, "v")
    page = visitor.get("/api/docs")
    assert page.status_code == 200
    assets = re.findall(r'(?:src|href)="([^"]+)"', page.text)
    assert any(a.endswith("swagger-ui-bundle.js") for a in assets) and any(a.endswith(".css") for a in assets)
    for asset in assets:
        assert asset.startswith("/") and not asset.startswith("//"), asset  # same origin
        fetched = visitor.get(asset)
        assert fetched.status_code == 200 and len(fetched.content) > 0, asset
    assert not re.search(r"<script(?![^>]*\bsrc=)[^>]*>", page.text)  # every script is a file
    assert re.search(r'data-openapi-url="/openapi.json"', page.text)
    assert visitor.get("/openapi.json").json()["info"]["title"] == "meadhall"
    licence = visitor.get("/static/vendor/swagger-ui/LICENSE")
    assert licence.status_code == 200 and "Apache License" in licence.text
