"""E-mail notices through a real SMTP server (aiosmtpd on a free port): what arrives, and when nothing does.

Played with the toy game of the test venv (tests/plugins/meadhall-toy) at tables played at
one's own pace, over the HTTP API: nobody holds the table's socket unless a test opens one.
"""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from email.message import Message
from pathlib import Path
from typing import Any

import httpx
import pytest

from meadhall.server.api import notifications
from tests.server.conftest import Inbox, Player, RunningServer, make_settings, smtp_inbox
from tests.server.test_live_and_leaks import Listener


@pytest.fixture
def inbox() -> Iterator[tuple[Inbox, int]]:
    with smtp_inbox() as found:
        yield found


def _server(tmp_path: Path, database_url: str, port: int | None, **extra: Any) -> RunningServer:
    smtp = {"smtp_host": "127.0.0.1", "smtp_port": port, "smtp_security": "none"} if port else {}
    return RunningServer(
        make_settings(
            tmp_path,
            database_url,
            login_rate=1000,
            cookie_secure="false",
            public_url="http://meadhall.test",
            smtp_from="meadhall <hall@meadhall.test>",
            **smtp,
            **extra,
        )
    )


def _body(message: Message) -> str:
    payload = message.get_payload(decode=True)
    assert isinstance(payload, bytes)
    return payload.decode()


def _link(message: Message, kind: str) -> str:
    """The path of the first ``/email/<kind>/...`` link in ``message``."""
    found = re.search(rf"http://meadhall\.test(/email/{kind}/\d+/[\w-]+)", _body(message))
    assert found, _body(message)
    return found.group(1)


def _confirmed(player: Player, address: str, inbox: Inbox, **choices: bool) -> None:
    answer = player.client.put(
        "/api/me/notifications", json={"email": address, **choices}, headers={"X-CSRF-Token": player.csrf}
    )
    assert answer.status_code == 200, answer.text
    assert answer.json()["confirmed"] is False
    (confirmation,) = inbox.wait(address)
    assert confirmation["Subject"] == "Confirm your address for meadhall"
    followed = player.client.get(_link(confirmation, "confirm"))
    assert followed.status_code == 200, followed.text
    assert player.get("/api/me/notifications").json()["confirmed"] is True


def _async_table(ann: Player, bob: Player) -> str:
    seats = [{"kind": "me"}, {"kind": "invite", "name": "bob"}]
    made = ann.post(
        "/api/tables", {"game": "toy", "options": {}, "seats": seats, "pace": "async", "confirm_turns": False}
    )
    assert made.status_code == 201, made.text
    table_id = str(made.json()["id"])
    assert bob.post(f"/api/tables/{table_id}/join", {}).status_code == 200
    assert ann.post(f"/api/tables/{table_id}/start").status_code == 200
    return table_id


def _move(player: Player, table_id: str, *, or_passed_for: bool = False) -> None:
    """The player's first legal move; ``or_passed_for``: the table may have passed for them first.

    A seat that can only pass is answered by the table once the response window's pause
    is over; on a busy machine that may come before the test's own move does.
    """
    state = player.get(f"/api/tables/{table_id}/state").json()
    played = player.post(f"/api/tables/{table_id}/actions", {"action": state["legal"][0], "version": state["version"]})
    if or_passed_for and played.status_code == 409 and played.json()["error"] == "stale":
        assert state["legal"] == ["pass"], state
        return
    assert played.status_code == 200, played.text


def test_turns_invitations_and_endings_reach_a_confirmed_address_and_the_stop_link_stops_them(
    tmp_path: Path, database_url: str, inbox: tuple[Inbox, int]
) -> None:
    received, port = inbox
    # Response windows wait 3 s before the table answers for a seat that can only pass: the
    # socket below is open before the table moves on by itself.
    with _server(tmp_path, database_url, port, response_pause_min=3.0, response_pause_max=3.0) as server:
        ann, bob, cat = Player(server, "ann"), Player(server, "bob"), Player(server, "cat")
        for player in (ann, bob, cat):
            player.register()
        assert ann.get("/api/me/notifications").json() == {
            "mail": True,
            "email": None,
            "confirmed": False,
            "turns": True,
            "invitations": True,
            "endings": True,
            "digest": False,
            "labels": notifications.LABELS,
        }
        _confirmed(ann, "ann@example.org", received)
        _confirmed(bob, "bob@example.org", received)
        # Cat gives an address but never confirms it: nothing but the confirmation goes there.
        put = cat.client.put(
            "/api/me/notifications", json={"email": "cat@example.org"}, headers={"X-CSRF-Token": cat.csrf}
        )
        assert put.status_code == 200
        assert cat.client.get("/email/confirm/3/not-the-token").status_code == 400

        table_id = _async_table(ann, bob)
        (invitation,) = received.wait("bob@example.org", 2)[1:]
        assert invitation["Subject"] == "ann invites you to Toy Duel"
        assert f"http://meadhall.test/t/{table_id}" in _body(invitation)
        assert invitation["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"

        # Ann started the table and moves first: she has it open, so no e-mail. Her move makes it Bob's turn.
        _move(ann, table_id)
        (turn,) = received.wait("bob@example.org", 3)[2:]
        assert turn["Subject"] == "Your turn: Toy Duel"
        assert f"http://meadhall.test/t/{table_id}" in _body(turn)

        # Ann's turn while she holds the table's socket: she sees it there, and gets no e-mail.
        listener = Listener(server, table_id, ann)
        try:
            listener.wait_version(1)
            _move(bob, table_id, or_passed_for=True)
            listener.wait_version(2)
        finally:
            listener.close()
        assert bob.post(f"/api/tables/{table_id}/resign").status_code == 200
        ann_mail = received.wait("ann@example.org", 2)
        bob_mail = received.wait("bob@example.org", 4)
        assert [m["Subject"] for m in ann_mail] == ["Confirm your address for meadhall", "Game over: Toy Duel"]
        assert "You finished 1st of 2." in _body(ann_mail[1])
        assert "You finished 2nd of 2." in _body(bob_mail[3])

        # The stop link of any notice: a page with a button (GET changes nothing), then every notice off.
        header = re.sub(r"\s+", "", bob_mail[3]["List-Unsubscribe"])  # a long header comes folded
        stop = re.sub(r"^<http://meadhall\.test|>$", "", header)
        page = bob.client.get(stop)
        assert page.status_code == 200 and 'id="stop-email"' in page.text
        assert bob.get("/api/me/notifications").json()["turns"] is True
        one_click = httpx.post(server.url + stop, data={"List-Unsubscribe": "One-Click"})
        assert one_click.status_code == 200
        assert bob.get("/api/me/notifications").json() | {"email": None} == {
            "mail": True,
            "email": None,
            "confirmed": True,
            "turns": False,
            "invitations": False,
            "endings": False,
            "digest": False,
            "labels": notifications.LABELS,
        }
        assert httpx.post(server.url + stop.replace(stop.rsplit("/", 1)[1], "forged")).status_code == 400
        again = _async_table(ann, bob)
        _move(ann, again)
        assert bob.post(f"/api/tables/{again}/resign").status_code == 200
        received.wait("ann@example.org", 3)  # Ann still hears of the end, Bob of nothing
        assert len(received.to("bob@example.org")) == 4
        assert received.to("cat@example.org")[0]["Subject"] == "Confirm your address for meadhall"
        assert len(received.to("cat@example.org")) == 1


def test_the_daily_digest_gathers_turns_into_one_e_mail_a_day(
    tmp_path: Path, database_url: str, inbox: tuple[Inbox, int]
) -> None:
    received, port = inbox
    with _server(tmp_path, database_url, port, digest_check_seconds=0.2) as server:
        ann, bob = Player(server, "ann"), Player(server, "bob")
        ann.register()
        bob.register()
        _confirmed(bob, "bob@example.org", received, digest=True, invitations=False)
        first, second = _async_table(ann, bob), _async_table(ann, bob)
        _move(ann, first)
        _move(ann, second)
        digest = received.wait("bob@example.org", 2)[1]
        assert digest["Subject"] in ("2 tables waiting for your move", "1 table waiting for your move")
        time.sleep(1.0)  # five more checks: the next digest is a day away
        messages = received.to("bob@example.org")
        assert [m["Subject"] for m in messages][1:] == [digest["Subject"]]


def test_nothing_is_sent_without_an_smtp_server(tmp_path: Path, database_url: str, inbox: tuple[Inbox, int]) -> None:
    received, _ = inbox
    with _server(tmp_path, database_url, None) as server:
        ann, bob = Player(server, "ann"), Player(server, "bob")
        ann.register()
        bob.register()
        for player in (ann, bob):
            put = player.client.put(
                "/api/me/notifications",
                json={"email": f"{player.name}@example.org"},
                headers={"X-CSRF-Token": player.csrf},
            )
            assert put.status_code == 200
            assert put.json()["mail"] is False
        table_id = _async_table(ann, bob)
        _move(ann, table_id)
        assert bob.post(f"/api/tables/{table_id}/resign").status_code == 200
        time.sleep(0.5)
        assert received.messages == []


def test_bad_addresses_and_guests_are_refused(tmp_path: Path, database_url: str) -> None:
    with _server(tmp_path, database_url, None) as server:
        ann, guest = Player(server, "ann"), Player(server, "visitor")
        ann.register()
        guest.guest()
        for bad in ("no-at-sign", "two@@example.org", "spaces in@example.org", "x" * 250 + "@example.org"):
            answer = ann.client.put("/api/me/notifications", json={"email": bad}, headers={"X-CSRF-Token": ann.csrf})
            assert answer.status_code == 422, (bad, answer.text)
        refused = guest.client.put(
            "/api/me/notifications", json={"email": "guest@example.org"}, headers={"X-CSRF-Token": guest.csrf}
        )
        assert refused.status_code == 403
        assert "register" in refused.json()["message"]


def test_a_timeout_reaches_the_timed_out_player(tmp_path: Path, database_url: str, inbox: tuple[Inbox, int]) -> None:
    received, port = inbox
    with _server(tmp_path, database_url, port) as server:
        ann, bob = Player(server, "ann"), Player(server, "bob")
        for player in (ann, bob):
            player.register()
            _confirmed(player, f"{player.name}@example.org", received)
        seats = [{"kind": "me"}, {"kind": "invite", "name": "bob"}]
        clock = {"clock": True, "base_minutes": 0.05, "timeout_bot": "beginner"}
        made = ann.post("/api/tables", {"game": "toy", "options": {}, "seats": seats, **clock})
        table_id = str(made.json()["id"])
        assert bob.post(f"/api/tables/{table_id}/join", {}).status_code == 200
        assert ann.post(f"/api/tables/{table_id}/start").status_code == 200
        leader = ann.get(f"/api/tables/{table_id}/state").json()["to_move"][0]
        name = ("ann", "bob")[leader]
        found = received.wait(f"{name}@example.org", 2)  # the confirmation, then the timeout
        notice = found[-1]
        assert notice["Subject"] == "Out of time: Toy Duel"
        assert "ran out of time" in _body(notice) and f"http://meadhall.test/t/{table_id}" in _body(notice)
