"""Content packs: limited in size and text lengths, stored once by digest, named by reference
in every view and list, sent whole only by the table's content endpoint (and in records)."""

from __future__ import annotations

import copy
import json
import threading
import time
from importlib import resources
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import func, select, text

from meadhall.core.content import NAME_LENGTH, PACK_BYTES
from meadhall.server import db
from meadhall.server.db import make_engine
from meadhall.server.migrate import upgrade
from meadhall.server.store import Store
from tests.server.conftest import Player, RunningServer, make_settings
from tests.server.test_live_and_leaks import HANG_GUARD, Listener
from tests.server.test_writer import _table

#: A card's name in the pack: views carry card ids only, the table's words name the card.
UNIQUE = "Axe of the Planted Tests"
#: A god deck's theme in the pack: no view, log, message or word ever shows it.
THEME = "Themes of the Planted Tests"


def _valda_pack() -> dict[str, Any]:
    pack: dict[str, Any] = json.loads(resources.files("meadhall.games.valda").joinpath("data/default.json").read_text())
    pack["id"], pack["label"] = "club-pack", "our club's cards"
    next(card for card in pack["cards"] if card["kind"] == "attack")["name"] = UNIQUE
    pack["gods"][0]["deck_theme"] = THEME
    return pack


def _create(player: Player, pack: Any, seats: list[dict[str, Any]] | None = None) -> Any:
    return player.post(
        "/api/tables",
        {"game": "valda", "options": {"content": pack}, "seats": seats or [{"kind": "me"}, {"kind": "open"}]},
    )


def test_a_pack_over_its_limits_is_refused_with_a_clear_error(server: RunningServer) -> None:
    ann = Player(server, "ann")
    ann.register()
    long_label = _valda_pack()
    long_label["label"] = "x" * (NAME_LENGTH + 1)
    refused = _create(ann, long_label)
    assert refused.status_code == 422
    assert f"label is {NAME_LENGTH + 1} characters long; at most {NAME_LENGTH}" in refused.json()["message"]
    huge = _valda_pack()
    huge["$schema"] = "y" * PACK_BYTES  # a field no text limit covers: the size limit does
    refused = _create(ann, huge)
    assert refused.status_code == 422
    assert f"at most {PACK_BYTES:,}" in refused.json()["message"] and "bytes" in refused.json()["message"]
    long_text = _valda_pack()
    weapon = next(card for card in long_text["cards"] if card["kind"] == "weapon")
    weapon["options"][0]["text"] = "z" * 401
    refused = _create(ann, long_text)
    assert refused.status_code == 422 and "text is 401 characters long; at most 400" in refused.json()["message"]


def test_a_pack_is_stored_once_and_views_carry_only_its_reference(tmp_path: Path, database_url: str) -> None:
    settings = make_settings(tmp_path, database_url, login_rate=1000, cookie_secure="false")
    pack = _valda_pack()
    with RunningServer(settings) as server:
        ann, bob = Player(server, "ann"), Player(server, "bob")
        ann.register()
        bob.register()
        first = _create(ann, pack)
        assert first.status_code == 201, first.text
        second = _create(ann, copy.deepcopy(pack), [{"kind": "me"}, {"kind": "bot", "bot": "beginner"}])
        assert second.status_code == 201, second.text
        reference = first.json()["options"]["content"]
        assert reference == second.json()["options"]["content"]
        assert set(reference) == {"sha256", "id", "label"} and reference["label"] == "our club's cards"
        table_id, bot_table = first.json()["id"], second.json()["id"]
        assert bob.post(f"/api/tables/{table_id}/join", {}).status_code == 200
        assert ann.post(f"/api/tables/{table_id}/start").status_code == 200
        assert ann.post(f"/api/tables/{bot_table}/start").status_code == 200
        spectator = Listener(server, table_id, None)
        seen = [
            ann.get(f"/api/tables/{table_id}/state"),
            bob.get(f"/api/tables/{table_id}/state"),
            ann.get(f"/api/tables/{table_id}"),
            ann.get("/api/me/games"),
            ann.get(f"/api/tables/{table_id}/log"),
        ]
        state = seen[0].json()
        assert state["view"]["options"]["content"] == reference
        # Its snapshot: the server may have passed response windows since the state above was read.
        deadline = time.monotonic() + HANG_GUARD
        while not any(message["type"] == "snapshot" for message in list(spectator.messages)):
            assert time.monotonic() < deadline, "the spectator got no snapshot"
            time.sleep(0.01)
        seen.append(ann.get(f"/api/tables/{table_id}/state"))
        spectator.close()
        texts = [response.text for response in seen] + spectator.raw
        assert all(THEME not in text and "starting_resources" not in text for text in texts)
        # The pack's card names reach people only through the words (the log names a card played
        # or turned up, with the table's pack); a view carries the cards' ids.
        views = [response.json()["view"] for response in (seen[0], seen[1], seen[-1])]
        assert all(UNIQUE not in json.dumps(view) for view in views)
        content = ann.get(f"/api/tables/{table_id}/content").json()  # the pack itself: from here only
        assert content["label"] == "our club's cards" and UNIQUE in {card["name"] for card in content["cards"]}
        assert THEME in {god["deck_theme"] for god in content["gods"]}
        assert ann.get(f"/api/tables/{bot_table}/state").json()["view"]["options"]["content"] == reference
        played = ann.get(f"/api/tables/{table_id}/state").json()["version"]
    engine = make_engine(settings.sqlalchemy_url)
    with engine.connect() as connection:
        stored = connection.execute(select(db.content_packs.c.sha256, db.content_packs.c.game)).all()
        options = [row[0] for row in connection.execute(select(db.game_tables.c.options)).all()]
    engine.dispose()
    assert stored == [(reference["sha256"], "valda")]
    assert all(option["content"] == reference for option in options)  # tables hold the reference only
    with RunningServer(settings) as server:  # a restart reloads the tables, their packs from the store
        ann = Player(server, "ann")
        ann.csrf = ann.post("/api/auth/login", {"name": "ann", "password": "correct horse battery"}).json()["csrf"]
        again = ann.get(f"/api/tables/{table_id}/state").json()
        assert again["version"] >= played and again["view"]["options"]["content"] == reference
        assert ann.get(f"/api/tables/{bot_table}/state").json()["view"]["options"]["content"] == reference
        assert ann.get(f"/api/tables/{table_id}/content").json()["label"] == "our club's cards"


@pytest.mark.parametrize("database_url", ["postgresql"], indirect=True)  # several servers share PostgreSQL
def test_two_servers_storing_one_new_pack_at_once_both_succeed(database_url: str) -> None:
    """Two processes (several servers share one database) store the same new pack at once.

    The second waits on the first's uncommitted row; once it commits, the second leaves
    that row as it is instead of failing its table's creation.
    """
    engine = make_engine(database_url)
    upgrade(engine)
    with engine.begin() as connection:
        user = Store.create_user("ann", "Ann", None, True)(connection)
    digest, body = "ab" * 32, json.dumps(_valda_pack())
    first, second = _table("t1", user), _table("t2", user)
    outcome: list[BaseException | None] = []

    def second_server() -> None:
        try:
            with engine.begin() as other:
                Store.create_table(second, packs={digest: body})(other)
            outcome.append(None)
        except BaseException as error:
            outcome.append(error)

    with engine.connect() as mine:
        transaction = mine.begin()
        Store.create_table(first, packs={digest: body})(mine)  # not committed yet
        thread = threading.Thread(target=second_server)
        thread.start()
        deadline = time.monotonic() + HANG_GUARD
        while not _someone_waits_for_a_lock(engine):  # the second server now waits on the first's row
            assert time.monotonic() < deadline and thread.is_alive(), outcome
            time.sleep(0.01)
        transaction.commit()
    thread.join(HANG_GUARD)
    assert outcome == [None]
    with engine.connect() as connection:
        assert connection.execute(select(func.count()).select_from(db.content_packs)).scalar() == 1
        assert connection.execute(select(func.count()).select_from(db.game_tables)).scalar() == 2
    engine.dispose()


def _someone_waits_for_a_lock(engine: Any) -> bool:
    with engine.connect() as connection:
        return bool(connection.execute(text("SELECT count(*) FROM pg_locks WHERE NOT granted")).scalar())
