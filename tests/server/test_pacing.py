"""Response windows are paced so that their timing does not tell who holds something.

With a recorded pause function, clock and sleep (nothing here measures time): a seat that
can only pass is answered by the server after exactly the pause drawn for its window, and
a seat that chooses at once waits the same drawn pause; a bot's seat adds its level's
thinking time whether or not it has a choice. On a real server nobody's browser has to
pass a Valda window: the server does.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from meadhall.bots import thinking_seconds
from meadhall.core.registry import register, unregister
from meadhall.server.db import make_engine
from meadhall.server.games import GameService, uniform_pause
from meadhall.server.migrate import upgrade
from meadhall.server.store import Seat, Store, TableRow
from tests.server.conftest import Player, RunningServer
from tests.server.window_game import ARMED_SEED, UNARMED_SEED, Step, WindowGame

NOW = 100.0


@pytest.fixture
def window_game() -> Iterator[None]:
    register(WindowGame())
    yield
    unregister("window-test")


class Recorded:
    """A pause function, clock and sleep that keep what was drawn and waited."""

    def __init__(self, draws: list[float]) -> None:
        self._draws = iter(draws)
        self.drawn: list[float] = []
        self.waited: list[float] = []

    def pause(self) -> float:
        value = next(self._draws)
        self.drawn.append(value)
        return value

    async def sleep(self, seconds: float) -> None:
        self.waited.append(seconds)  # returns at once


async def _service(tmp_path: Path, name: str, seed: int, second_seat: Seat, recorded: Recorded) -> Any:
    engine = make_engine(f"sqlite:///{tmp_path / f'{name}.sqlite3'}")
    upgrade(engine)
    store = Store(engine, inline_writes=True)
    user = await store.writer.run(Store.create_user(f"ann-{name}", "Ann", None, True))
    if second_seat.kind == "user":
        second_seat.user_id = await store.writer.run(Store.create_user(f"bo-{name}", "Bo", None, True))
    now = datetime.now(UTC)
    row = TableRow(
        id=name, game="window-test", options={}, players=2, seed=seed, status="active", join_code=f"code-{name}",
        created_by=user, created_at=now, started_at=now, finished_at=None, version=0, to_move=[0], result=None,
        seats=[Seat(0, "user", user), second_seat],
    )  # fmt: skip
    await store.writer.run(Store.create_table(row))
    service = GameService(store, None, pause=recorded.pause, clock=lambda: NOW, sleep=recorded.sleep)
    runtime = await service.start(row)
    return store, service, runtime


def test_a_forced_pass_and_a_quick_choice_wait_the_same_drawn_pause(tmp_path: Path, window_game: None) -> None:
    async def scenario(seed: int, answer: str | None) -> tuple[Recorded, list[Any], dict[str, Any]]:
        recorded = Recorded([1.75])
        store, service, runtime = await _service(tmp_path, f"t{seed}", seed, Seat(1, "user"), recorded)
        await service.act(runtime, 0, 0, "go")  # opens seat 1's window
        assert runtime.releases == {1: NOW + 1.75}
        seat_payload = runtime.payload(1)
        assert "answered" not in runtime.payload(None) and "answered" not in runtime.payload(0)
        if answer is None:  # nobody answers for seat 1: the server does once the pause has passed
            for _ in range(1000):
                if runtime.version == 2:
                    break
                await asyncio.sleep(0)
        else:  # a person who chooses at once
            await service.act(runtime, 1, 1, answer)
        history = runtime.state.history()
        store.close()
        return recorded, history, seat_payload

    forced, forced_history, forced_payload = asyncio.run(scenario(UNARMED_SEED, None))
    chose, chose_history, chose_payload = asyncio.run(scenario(ARMED_SEED, "strike"))
    assert forced_history[-1] == (1, Step("pass")) and chose_history[-1] == (1, Step("strike"))
    # one draw per window from the same pause function, and exactly that wait, whatever the seat held
    assert forced.drawn == chose.drawn == [1.75]
    assert forced.waited == chose.waited == [1.75]
    assert forced_payload["answered"] is True and "answered" not in chose_payload  # told to that seat only


def test_a_bots_window_waits_its_levels_thinking_time_whether_or_not_it_has_a_choice(
    tmp_path: Path, window_game: None
) -> None:
    async def scenario(seed: int) -> dict[int, float]:
        recorded = Recorded([0.5])
        store, service, runtime = await _service(tmp_path, f"b{seed}", seed, Seat(1, "bot", bot="medium"), recorded)
        await service.act(runtime, 0, 0, "go")
        releases = dict(runtime.releases)
        assert "answered" not in runtime.payload(1)  # a bot's answer comes from the bot, after the same wait
        store.close()
        return releases

    expected = {1: NOW + 0.5 + thinking_seconds("medium")}
    assert thinking_seconds("medium") > 0
    assert asyncio.run(scenario(UNARMED_SEED)) == expected == asyncio.run(scenario(ARMED_SEED))


def test_the_default_pause_is_drawn_between_the_settings_bounds() -> None:
    draw = uniform_pause(1.0, 3.0)
    values = [draw() for _ in range(200)]
    assert all(1.0 <= value <= 3.0 for value in values) and len(set(values)) > 100


def test_the_server_passes_a_valda_window_that_offers_a_person_nothing_else(server: RunningServer) -> None:
    ann, bob = Player(server, "ann"), Player(server, "bob")
    ann.register()
    bob.register()
    made = ann.post("/api/tables", {"game": "valda", "seats": [{"kind": "me"}, {"kind": "open"}]})
    table_id = made.json()["id"]
    assert bob.post(f"/api/tables/{table_id}/join", {}).status_code == 200
    assert ann.post(f"/api/tables/{table_id}/start").status_code == 200
    hang_guard = time.monotonic() + 60  # only against a hang: no browser is open, nobody sends anything
    while True:
        states = {
            0: ann.get(f"/api/tables/{table_id}/state").json(),
            1: bob.get(f"/api/tables/{table_id}/state").json(),
        }
        if states[0]["version"] >= 1:
            break
        if states[1]["version"] != states[0]["version"]:  # the server answered between our two looks
            continue
        mover = states[0]["to_move"][0]
        decision = states[mover]["view"]["decision"]
        assert decision["kind"] == "window" and states[mover]["legal"] == ["pass"] and states[mover]["answered"]
        assert "answered" not in states[1 - mover]
        assert time.monotonic() < hang_guard, "nobody passed the window"
        time.sleep(0.02)
