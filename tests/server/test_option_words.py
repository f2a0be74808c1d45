"""Clear words for setting up a table (issue 21, item 6): the games' options as a form draws
them (labels, help, choices with their words, bounds, the rules page), bot levels by name
with their strength, refusals that name an option by its label, and a content pack checked
with errors in words.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from importlib import resources
from pathlib import Path
from typing import Any

import pytest

from meadhall.core.content import PACK_BYTES
from tests.server.conftest import Player, RunningServer, make_settings


@pytest.fixture
def site(tmp_path: Path) -> Iterator[RunningServer]:
    """A live server on SQLite (the words do not depend on the database)."""
    settings = make_settings(
        tmp_path, f"sqlite:///{tmp_path / 'words.sqlite3'}", login_rate=1000, cookie_secure="false"
    )
    with RunningServer(settings) as running:
        yield running


def _games(site: RunningServer) -> dict[str, Any]:
    response = Player(site, "reader").get("/api/games")
    assert response.status_code == 200
    data: dict[str, Any] = response.json()
    return data


def test_every_option_is_sent_with_its_label_help_and_choices_in_words(site: RunningServer) -> None:
    data = _games(site)
    games = {game["name"]: game for game in data["games"]}
    for game in games.values():
        assert game["rules"] == f"/rules/{game['name']}"  # every game here ships its rules page
        for option in game["options"]:
            assert option["label"] and option["label"] != option["name"], option  # no raw keys
            assert option["help"]
            for choice in option["choices"]:
                assert set(choice) == {"value", "label"}
    kinds = next(o for o in games["voluspa"]["options"] if o["name"] == "kinds")
    assert kinds["label"] == "Tile kinds" and kinds["kind"] == "set"
    assert {"value": "OD", "label": "Odin"} in kinds["choices"]
    rounds = next(o for o in games["toy"]["options"] if o["name"] == "rounds")
    assert (rounds["label"], rounds["minimum"], rounds["maximum"], rounds["default"]) == ("Rounds", 2, 12, 6)
    for name in ("valda", "bloodrage-valhalla"):
        pack = next(o for o in games[name]["options"] if o["name"] == "content")
        assert (pack["label"], pack["kind"], pack["default"]) == ("Content pack", "pack", "default")
        assert pack["max_bytes"] == PACK_BYTES
    glory = next(o for o in games["bloodrage-valhalla"]["options"] if o["name"] == "starting-glory")
    assert glory["label"] == "Starting Glory"


def test_bot_levels_have_names_and_a_strength_in_words(site: RunningServer) -> None:
    levels = {level["name"]: level for level in _games(site)["bot_levels"]}
    assert list(levels) == ["beginner", "easy", "medium", "hard", "expert"]
    assert levels["easy"]["label"] == "Greedy" and "best move now" in levels["easy"]["strength"]
    for level in levels.values():
        assert level["label"] and level["strength"]
        assert "ismcts" not in level["label"] + level["strength"]


def test_a_refused_option_is_named_by_its_label(site: RunningServer) -> None:
    ann = Player(site, "ann")
    ann.register()
    seats = [{"kind": "me"}, {"kind": "open"}, {"kind": "open"}]
    refused = ann.post(
        "/api/tables", {"game": "bloodrage-valhalla", "options": {"starting-glory": "first"}, "seats": seats}
    )
    assert refused.status_code == 422
    assert refused.json()["message"].startswith("Starting Glory: "), refused.json()
    refused = ann.post("/api/tables", {"game": "toy", "options": {"rounds": 40}, "seats": seats[:2]})
    assert refused.status_code == 422
    assert refused.json()["message"] == "Rounds must be at most 12"
    refused = ann.post("/api/tables", {"game": "valda", "options": {"turnaround": "maybe"}, "seats": seats[:2]})
    assert refused.status_code == 422
    assert refused.json()["message"].startswith("The Turnaround is on or off")


def test_the_lobby_says_a_tables_setup_in_words(site: RunningServer) -> None:
    # The lobby's summary of a table: its preset by title, options off their default and the
    # pace, as the server words them (the lobby's script adds no words of its own).
    ann = Player(site, "ann")
    ann.register()
    seats = [{"kind": "me"}, {"kind": "open"}]
    made = ann.post("/api/tables", {"game": "voluspa", "options": {"preset": "saga"}, "seats": seats, "pace": "async"})
    assert made.status_code in (200, 201), made.json()
    plain = ann.post("/api/tables", {"game": "valda", "options": {}, "seats": seats})
    assert plain.status_code in (200, 201), plain.json()
    listed = {t["id"]: t for t in ann.get("/api/tables").json()["tables"]}
    assert listed[made.json()["id"]]["setup"] == ["Base game + Saga of Edda", "at one's own pace"]
    assert listed[plain.json()["id"]]["setup"] == []


def _valda_pack() -> dict[str, Any]:
    pack: dict[str, Any] = json.loads(resources.files("meadhall.games.valda").joinpath("data/default.json").read_text())
    return pack


def test_a_content_pack_file_is_checked_with_errors_in_words(site: RunningServer) -> None:
    ann = Player(site, "ann")
    ann.register()

    def create(pack: Any) -> Any:
        return ann.post(
            "/api/tables", {"game": "valda", "options": {"content": pack}, "seats": [{"kind": "me"}, {"kind": "open"}]}
        )

    # A file holding a list, not a pack.
    refused = create([1, 2, 3])
    assert refused.status_code == 422
    assert refused.json()["message"].startswith("Content pack: the default pack, or a content pack")
    # Too large.
    huge = _valda_pack()
    huge["$schema"] = "y" * PACK_BYTES
    refused = create(huge)
    assert refused.status_code == 422
    assert "Content pack" in refused.json()["message"] and f"at most {PACK_BYTES:,}" in refused.json()["message"]
    # Not the game's schema: a field missing, said by where it is missing.
    broken = _valda_pack()
    del broken["cards"]
    refused = create(broken)
    assert refused.status_code == 422
    message = refused.json()["message"]
    assert "cards" in message and "Traceback" not in message, message
    # The pack as it should be: the table is made, and lists it by reference.
    made = create(_valda_pack())
    assert made.status_code == 201, made.text
    assert made.json()["rules"] == "/rules/valda"
