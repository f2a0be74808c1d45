"""A seat's label (``Seat 2``) and the pages' "The game is over." are each written once.

:func:`meadhall.core.words.seat_label` says what a seat is called by its place; the server
sends it with every seat (a table's ``label``, the end's and the replay's names, the lobby's
``seat_labels``), so no script builds ``"Seat " + n`` and no other module of meadhall (the
hosts, the games' words, the terminal, the bots) words it.
"""

from __future__ import annotations

import re
from pathlib import Path

from meadhall.core.words import fill, seat_label
from meadhall.server.store import Seat
from meadhall.server.tables import seat_called

SRC = Path(__file__).resolve().parents[1] / "src" / "meadhall"
STATIC = SRC / "server" / "web" / "static"
WORDS = SRC / "core" / "words.py"

#: A seat's label built in a script: `Seat ${n + 1}`, "Seat " + n (any case).
_JS_SEAT_BUILT = re.compile(r"\bseat\s+(?:\$\{|[\"'`]\s*\+)", re.IGNORECASE)
#: A seat's label built in Python: f"Seat {seat + 1}", "Seat " + str(n), "Seat %d" % n.
_PY_SEAT_BUILT = re.compile(r"""\bf["']Seat \{|["']Seat ["']\s*\+|["']Seat %""")


def _scripts() -> list[Path]:
    """The pages' scripts and every game's board plugin (vendored libraries aside)."""
    return [path for path in sorted(SRC.rglob("*.js")) if "vendor" not in path.parts]


def _without_comments(js: str) -> str:
    js = re.sub(r"/\*.*?\*/", "", js, flags=re.S)
    return "\n".join(re.sub(r"(^|\s)//.*", "", line) for line in js.splitlines())


def test_the_signs_of_a_built_seat_label_are_read_right() -> None:
    for built in ("`Seat ${seat + 1}`", '"Seat " + (n + 1)', "'seat ' +n", "`${who}: Seat ${i}`"):
        assert _JS_SEAT_BUILT.search(built), built
    for drawn in ("`seat-${index}`", "seat.label", '"Open seat"', "`${seat.label}: ${who}`"):
        assert not _JS_SEAT_BUILT.search(drawn), drawn
    for built in ('f"Seat {seat + 1}"', "'Seat ' + str(n)", '"Seat %d" % n'):
        assert _PY_SEAT_BUILT.search(built), built
    assert not _PY_SEAT_BUILT.search("seat_label(seat)")
    assert not _PY_SEAT_BUILT.search('f"seat {index + 1}: an invitation needs a user name"')  # a sentence's word


def test_no_script_builds_a_seat_label() -> None:
    for path in _scripts():
        found = _JS_SEAT_BUILT.search(_without_comments(path.read_text(encoding="utf-8")))
        assert found is None, (
            f"{path.relative_to(SRC)} builds a seat's label ({found.group(0)!r}): draw the server's (seat.label)"
        )


def test_only_the_core_words_a_seat_label() -> None:
    for path in sorted(SRC.rglob("*.py")):  # every module: a game's words too name seats by seat_label
        if path == WORDS:
            continue
        found = _PY_SEAT_BUILT.search(path.read_text(encoding="utf-8"))
        assert found is None, f"{path.relative_to(SRC)} words a seat's label itself: use meadhall.core.words.seat_label"
    assert seat_label(0) == "Seat 1"
    assert fill("{0} and {2}", ["Ann"]) == f"Ann and {seat_label(2)}"


def test_the_pages_say_the_game_is_over_once() -> None:
    said = {path.name: path.read_text(encoding="utf-8").count("The game is over.") for path in STATIC.glob("*.js")}
    assert sum(said.values()) == 1 and said["common.js"] == 1, f"'The game is over.' is written in {said}"
    assert "MH.GAME_OVER" in (STATIC / "table.js").read_text(encoding="utf-8")


def test_the_server_calls_a_seat_by_its_holder_else_by_its_label() -> None:
    users = {7: {"display_name": "Ann"}}
    assert seat_called(Seat(0, "user", user_id=7), users) == "Ann"
    assert seat_called(Seat(1, "user", user_id=8), users) == seat_label(1)  # an account gone since
    assert seat_called(Seat(2, "open"), users) == "Seat 3"
    assert seat_called(Seat(3, "bot", bot="random"), users) not in {seat_label(3), ""}
