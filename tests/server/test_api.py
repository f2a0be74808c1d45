"""The JSON API on a real database: accounts, lobby, play, bad inputs, records, ratings."""

from __future__ import annotations

import time
from typing import Any

import httpx
from fastapi.testclient import TestClient

from meadhall.core.record import GameRecord
from meadhall.core.registry import all_games
from meadhall.core.words import seat_label
from tests.server.conftest import Player, RunningServer


def _players(server: RunningServer) -> tuple[Player, Player, Player]:
    ann, bo, cy = Player(server, "ann"), Player(server, "bob"), Player(server, "Cy")
    ann.register()
    bo.register()
    cy.guest()
    return ann, bo, cy


def _start_table(ann: Player, bo: Player, bot: str = "beginner", preset: str = "base") -> str:
    created = ann.post(
        "/api/tables",
        {
            "game": "voluspa",
            "options": {"preset": preset},
            "seats": [{"kind": "me"}, {"kind": "invite", "name": "bob"}, {"kind": "bot", "bot": bot}],
        },
    )
    assert created.status_code == 201, created.text
    table = created.json()
    assert table["status"] == "open" and table["seats"][1]["invited"] == "bob"
    assert "seed" not in table and "join_code" in table
    joined = bo.post(f"/api/tables/{table['id']}/join", {})
    assert joined.status_code == 200, joined.text
    started = ann.post(f"/api/tables/{table['id']}/start")
    assert started.status_code == 200, started.text
    return str(table["id"])


def _wait_for(player: Player, table_id: str, predicate: Any, timeout: float = 60.0) -> dict[str, Any]:
    deadline = time.monotonic() + timeout
    while True:
        state: dict[str, Any] = player.get(f"/api/tables/{table_id}/state").json()
        if predicate(state):
            return state
        assert time.monotonic() < deadline, f"timed out waiting; state version {state.get('version')}"
        time.sleep(0.05)


def play_to_the_end(table_id: str, players: dict[int, Player]) -> dict[str, Any]:
    watcher = next(iter(players.values()))
    while True:
        state: dict[str, Any] = watcher.get(f"/api/tables/{table_id}/state").json()
        if state["view"]["finished"]:
            return state
        movers = state["to_move"]
        seat = movers[0]
        if seat not in players:  # the bot's turn: it moves on the server
            _wait_for(watcher, table_id, lambda s, v=state["version"]: s["version"] > v or s["view"]["finished"])
            continue
        me = players[seat]
        mine = me.get(f"/api/tables/{table_id}/state").json()
        response = me.post(f"/api/tables/{table_id}/actions", {"action": mine["legal"][0], "version": mine["version"]})
        if response.status_code == 409 and response.json()["error"] == "stale":
            continue
        assert response.status_code == 200, response.text


def test_a_whole_game_with_a_bot_and_its_record(server: RunningServer) -> None:
    ann, bo, _cy = _players(server)
    table_id = _start_table(ann, bo)
    assert ann.get(f"/api/tables/{table_id}").json()["rating"].startswith("Rated")  # two registered players
    final = play_to_the_end(table_id, {0: ann, 1: bo})
    assert final["view"]["finished"] and sorted(final["view"]["places"])[0] == 1
    record = ann.get(f"/api/tables/{table_id}/record")
    assert record.status_code == 200
    data = record.json()
    replayed = GameRecord.from_dict(data).replay()
    assert (replayed.scores() == final["view"]["seats"] and False) or replayed.scores() == [
        s["score"] for s in final["view"]["seats"]
    ]
    board = ann.get("/api/leaderboard/voluspa").json()["players"]
    assert {p["name"] for p in board} == {"ann", "bob"}  # the bot and guests are not rated
    profile = ann.get("/api/users/bob").json()
    assert profile["ratings"]["voluspa"]["games"] == 1 and profile["ratings"]["voluspa"]["title"] == "Völuspá"
    unknown = ann.get("/api/leaderboard/chess")
    assert unknown.status_code == 404 and unknown.json()["error"] == "no-game"
    step = ann.get(f"/api/tables/{table_id}/replay/3").json()
    assert step["step"] == 3 and step["view"]["seat"] is None and "hand" not in step["view"]
    log = bo.get(f"/api/tables/{table_id}/log").json()
    assert log["version"] == len(data["actions"])


def test_bad_actions_change_nothing(server: RunningServer) -> None:
    ann, bo, cy = _players(server)
    table_id = _start_table(ann, bo)
    state = _wait_for(ann, table_id, lambda s: s["to_move"] and s["to_move"][0] in (0, 1))
    seat = state["to_move"][0]
    mover, other = (ann, bo) if seat == 0 else (bo, ann)
    mine = mover.get(f"/api/tables/{table_id}/state").json()
    version = mine["version"]
    legal = mine["legal"]

    def refused(player: Player, body: dict[str, Any], status: int, code: str) -> None:
        response = player.post(f"/api/tables/{table_id}/actions", body)
        assert response.status_code == status, response.text
        assert response.json()["error"] == code
        assert response.json()["message"]
        after = mover.get(f"/api/tables/{table_id}/state").json()
        assert after["version"] == version and after["view"] == mine["view"]

    refused(mover, {"action": legal[0], "version": version + 5}, 409, "stale")
    refused(other, {"action": legal[0], "version": version}, 409, "not-your-turn")
    refused(mover, {"action": "TH@@1", "version": version}, 400, "malformed")
    refused(mover, {"action": "TH@90,90", "version": version}, 422, "illegal")
    refused(cy, {"action": legal[0], "version": version}, 403, "not-seated")
    no_csrf = mover.client.post(f"/api/tables/{table_id}/actions", json={"action": legal[0], "version": version})
    assert no_csrf.status_code == 403 and no_csrf.json()["error"] == "csrf"
    anonymous = httpx.Client(base_url=server.url)
    assert (
        anonymous.post(f"/api/tables/{table_id}/actions", json={"action": legal[0], "version": version}).status_code
        == 401
    )
    cross = mover.post(
        f"/api/tables/{table_id}/actions",
        {"action": legal[0], "version": version},
        headers={"Origin": "http://evil.example"},
    )
    assert cross.status_code == 403 and cross.json()["error"] == "cross-site"
    missing = mover.post(f"/api/tables/{table_id}/actions", {"action": legal[0]})
    assert missing.status_code == 422 and "version" in missing.json()["message"]
    accepted = mover.post(f"/api/tables/{table_id}/actions", {"action": legal[0], "version": version})
    assert accepted.status_code == 200 and accepted.json()["version"] == version + 1
    again = mover.post(f"/api/tables/{table_id}/actions", {"action": legal[0], "version": version})
    assert again.status_code == 409


def test_views_hide_other_hands(server: RunningServer) -> None:
    ann, bo, cy = _players(server)
    table_id = _start_table(ann, bo)
    a = ann.get(f"/api/tables/{table_id}/state").json()
    b = bo.get(f"/api/tables/{table_id}/state").json()
    spectator = cy.get(f"/api/tables/{table_id}/state").json()
    assert a["seat"] == 0 and b["seat"] == 1 and spectator["seat"] is None
    assert "hand" in a["view"] and "hand" in b["view"] and "hand" not in spectator["view"]
    assert "seed" not in str(a) and "legal" not in spectator


def test_accounts(server: RunningServer) -> None:
    ann = Player(server, "ann")
    ann.register()
    me = ann.get("/api/auth/me").json()
    assert me["user"]["name"] == "ann" and me["csrf"] == ann.csrf
    twin = Player(server, "ANN")
    taken = twin.post("/api/auth/register", {"name": "ANN", "password": "another password"})
    assert taken.status_code == 409 and taken.json()["error"] == "name-taken"
    short = twin.post("/api/auth/register", {"name": "x!", "password": "short"})
    assert short.status_code == 422
    wrong = twin.post("/api/auth/login", {"name": "ann", "password": "wrong password"})
    assert wrong.status_code == 401 and wrong.json()["error"] == "bad-credentials"
    right = twin.post("/api/auth/login", {"name": "ann", "password": "correct horse battery"})
    assert right.status_code == 200
    cookie = right.headers["set-cookie"]
    assert "HttpOnly" in cookie and "SameSite=lax" in cookie
    forged = ann.post("/api/auth/logout", headers={"X-CSRF-Token": "not-the-token"})
    assert forged.status_code == 403 and forged.json()["error"] == "csrf"
    assert ann.get("/api/auth/me").json()["user"]["name"] == "ann"  # still signed in
    out = ann.post("/api/auth/logout")
    assert out.status_code == 200
    signed_out = ann.get("/api/auth/me")  # signed out is an answer, not an error
    assert signed_out.status_code == 200 and signed_out.json() == {"user": None, "csrf": None}
    assert twin.get("/api/auth/me").status_code == 200  # the other session lives on


def test_lobby_rules(server: RunningServer) -> None:
    ann, bo, cy = _players(server)
    bad = ann.post(
        "/api/tables", {"game": "voluspa", "options": {"preset": "nope"}, "seats": [{"kind": "me"}, {"kind": "open"}]}
    )
    assert bad.status_code == 422 and "no preset" in bad.json()["message"]
    unnamed = ann.post("/api/tables", {"seats": [{"kind": "me"}, {"kind": "open"}]})
    assert unnamed.status_code == 422 and unnamed.json()["error"] == "no-game"
    assert unnamed.json()["message"] == "name the game of the table: one of " + ", ".join(
        game.info.name for game in all_games()
    )
    custom = ann.post(
        "/api/tables",
        {
            "game": "voluspa",
            "options": {"kinds": ["OD", "TH", "LB", "HE"]},
            "seats": [{"kind": "me"}, {"kind": "open"}],
        },
    )
    assert custom.status_code == 201 and custom.json()["options"]["kinds"] == ["OD", "TH", "HE", "LB"]
    bad_bot = ann.post("/api/tables", {"game": "voluspa", "seats": [{"kind": "me"}, {"kind": "bot", "bot": "wizard"}]})
    assert bad_bot.status_code == 422
    too_many = ann.post("/api/tables", {"game": "voluspa", "seats": [{"kind": "me"}] + [{"kind": "open"}] * 5})
    assert too_many.status_code == 422
    table = ann.post(
        "/api/tables", {"game": "voluspa", "seats": [{"kind": "me"}, {"kind": "link"}, {"kind": "open"}]}
    ).json()
    code = table["join_code"]
    # Every seat has its label (the pages draw it); a free seat has no name yet.
    assert [(seat["name"], seat["label"]) for seat in table["seats"]] == [
        ("ann", seat_label(0)),
        (None, seat_label(1)),
        (None, seat_label(2)),
    ]
    assert ann.post(f"/api/tables/{table['id']}/start").json()["error"] == "seats-empty"
    listed = cy.get("/api/tables").json()["tables"]
    assert any(t["id"] == table["id"] and "join_code" not in t for t in listed)
    assert cy.post(f"/api/tables/{table['id']}/join", {"seat": 1}).status_code == 409  # link seat needs the code
    assert cy.post(f"/api/tables/{table['id']}/join", {"seat": 1, "code": code}).status_code == 200
    assert cy.post(f"/api/tables/{table['id']}/join", {}).json()["error"] == "seated"
    assert bo.post(f"/api/tables/{table['id']}/start").json()["error"] == "not-creator"
    assert bo.post(f"/api/tables/{table['id']}/join", {}).status_code == 200
    assert bo.post(f"/api/tables/{table['id']}/leave").status_code == 200
    assert bo.post(f"/api/tables/{table['id']}/join", {}).status_code == 200
    assert ann.post(f"/api/tables/{table['id']}/start").status_code == 200
    mine = bo.get("/api/me/games").json()
    assert mine["tables"][0]["id"] == table["id"]
    # Leaving a game under way is a loss: a bot plays the seat on for the two still playing.
    gone = bo.post(f"/api/tables/{table['id']}/leave").json()
    assert gone["status"] == "active" and gone["left"] == [2]
    assert bo.post(f"/api/tables/{table['id']}/leave").json()["error"] == "left"
    assert ann.post(f"/api/tables/{table['id']}/abandon").status_code == 200
    assert ann.get(f"/api/tables/{table['id']}").json()["status"] == "abandoned"


def test_chat_and_mute(server: RunningServer) -> None:
    ann, bo, cy = _players(server)
    table_id = _start_table(ann, bo)
    assert bo.post(f"/api/tables/{table_id}/chat", {"text": "  good   luck  "}).status_code == 201
    assert cy.post(f"/api/tables/{table_id}/chat", {"text": "hello from the rail"}).status_code == 201
    texts = [m["text"] for m in ann.get(f"/api/tables/{table_id}/chat").json()["messages"]]
    assert texts == ["good luck", "hello from the rail"]
    cy_name = cy.get("/api/auth/me").json()["user"]["name"]
    assert ann.post(f"/api/users/{cy_name}/mute", {"mute": True}).status_code == 200
    texts = [m["text"] for m in ann.get(f"/api/tables/{table_id}/chat").json()["messages"]]
    assert texts == ["good luck"]
    assert ann.post("/api/users/ann/mute", {"mute": True}).status_code == 422


def test_rate_limit_on_login(tmp_path: Any, database_url: str) -> None:
    from meadhall.server.app import create_app
    from tests.server.conftest import make_settings

    app = create_app(make_settings(tmp_path, database_url, login_rate=3))
    with TestClient(app, base_url="https://127.0.0.1") as client:
        codes = [client.post("/api/auth/login", json={"name": "x", "password": "y"}).status_code for _ in range(5)]
        assert codes[:3] == [401, 401, 401] and codes[3:] == [429, 429]
        # Cookies are Secure over https (and on localhost) with the default cookie_secure=auto.
        registered = client.post("/api/auth/guest", json={"display_name": "Dee"})
        assert registered.status_code == 429  # still limited: guests count too
    app = create_app(make_settings(tmp_path, database_url))
    with TestClient(app, base_url="https://127.0.0.1") as client:
        cookie = client.post("/api/auth/guest", json={"display_name": "Dee"}).headers["set-cookie"]
        assert "Secure" in cookie and "HttpOnly" in cookie


def test_health_metrics_and_pages(server: RunningServer) -> None:
    app_client = httpx.Client(base_url=server.url)
    assert app_client.get("/healthz").json() == {"status": "ok"}
    assert app_client.get("/readyz").json()["status"] == "ready"
    metrics = app_client.get("/metrics").text
    assert "meadhall_moves_total" in metrics and "meadhall_http_requests_total" in metrics
    for path in (
        "/",
        "/signin",
        "/lobby",
        "/t/abc",
        "/replay/abc",
        "/u/ann",
        "/leaderboard",
        "/rules",
        "/rules/voluspa",
    ):
        page = app_client.get(path)
        assert page.status_code == 200, path
        assert "<html" in page.text
    assert "Valkyrie" in app_client.get("/rules/voluspa").text
    assert app_client.get("/rules/chess").status_code == 404
    listed = app_client.get("/api/games").json()["games"]
    assert {g["name"] for g in listed} >= {"voluspa", "bloodrage-valhalla", "valda"}
    for game in listed:  # the new table form's seats, in the server's words
        assert game["seat_labels"] == [seat_label(seat) for seat in range(game["max_players"])]
    assert len(app_client.get("/api/games/voluspa/content").json()["tiles"]) == 17
    valda = app_client.get("/api/games/valda/content").json()
    assert "meadhall default content" in valda["label"] and len(valda["gods"]) == 7
    assert set(valda["dice"]) == {"yellow", "blue", "white"} and set(valda["buildings"]) == {"mine", "drill"}
    weapons = [card for card in valda["cards"] if card["kind"] == "weapon"]
    assert len(weapons) == 7 and all(len(card["options"]) == 2 for card in weapons)
    assert app_client.get("/rules/valda").status_code == 200
    # A game from another package shows the rules.md of its package (the toy game of the test venv).
    toy = app_client.get("/rules/toy")
    assert toy.status_code == 200 and "The response window" in toy.text and "Toy Duel rules" in toy.text
    assert app_client.get("/api/tables/nothing").status_code == 404


def test_a_bloodrage_table_with_its_own_content_pack_and_bots(server: RunningServer) -> None:
    import json
    from importlib import resources

    ann, _bo, _cy = _players(server)
    pack = json.loads(
        resources.files("meadhall.games.bloodrage_valhalla").joinpath("data/default.json").read_text("utf-8")
    )
    pack["id"], pack["label"] = "club-pack", "our club's cards"
    card = next(c for c in pack["cards"] if c.get("god") == "thor")
    card["name"] = "Hammer of the Tests"
    created = ann.post(
        "/api/tables",
        {
            "game": "bloodrage-valhalla",
            "options": {"preset": "first-game", "content": pack},
            "seats": [{"kind": "me"}, {"kind": "bot", "bot": "beginner"}, {"kind": "bot", "bot": "easy"}],
        },
    )
    assert created.status_code == 201, created.text
    table_id = created.json()["id"]
    reference = created.json()["options"]["content"]  # the pack by reference, not copied
    assert {k: reference[k] for k in ("id", "label")} == {"id": "club-pack", "label": "our club's cards"}
    assert set(reference) == {"sha256", "id", "label"} and len(reference["sha256"]) == 64
    content = ann.get(f"/api/tables/{table_id}/content").json()
    assert content["label"] == "our club's cards"
    assert {"id": card["id"], "name": "Hammer of the Tests"}.items() <= next(
        c for c in content["cards"] if c["id"] == card["id"]
    ).items()
    default = ann.get("/api/games/bloodrage-valhalla/content").json()
    assert next(c for c in default["cards"] if c["id"] == card["id"])["name"] != "Hammer of the Tests"
    warlord = next(m for m in default["monsters"] if m["id"] == "ogre-warlord")
    assert (warlord["strength"], warlord["cost"]) == (3, 5)  # its card costs more Rage than its STR
    described = ann.get(f"/api/tables/{table_id}").json()
    assert [seat["name"] for seat in described["seats"]] == ["ann", "Bjorn the beginner bot", "Sigrid the easy bot"]
    assert described["rating"].startswith("Not rated")  # one registered player and two bots
    assert ann.post(f"/api/tables/{table_id}/start").status_code == 200
    # the log begins with the deal: Age 1's god arrives and the packs are dealt (step 0)
    first = ann.get(f"/api/tables/{table_id}/log").json()["steps"][0]
    assert first["version"] == 0 and [e["kind"] for e in first["events"]] == ["god-arrives", "dealt"]
    final = play_to_the_end(table_id, {0: ann})
    assert final["view"]["content_label"] == "our club's cards"
    assert sorted(final["view"]["places"])[0] == 1
    record = GameRecord.from_dict(ann.get(f"/api/tables/{table_id}/record").json())
    assert record.replay().ranking() == final["view"]["places"]
    assert record.players == ["ann", "Bjorn the beginner bot", "Sigrid the easy bot"]  # the names every page shows
    start = ann.get(f"/api/tables/{table_id}/replay/0").json()
    assert [e["kind"] for e in start["events"]] == ["god-arrives", "dealt"]
