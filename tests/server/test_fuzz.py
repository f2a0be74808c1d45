"""A schema-driven fuzz of every HTTP route, from the server's own OpenAPI document: no 5xx.

Schemathesis generates requests for each operation of ``/openapi.json`` (valid ones, and
ones that break the schema: wrong types, missing fields, odd strings with NUL and control
characters), signed in with a session cookie and the CSRF header so they reach past
authentication, once with random ids and once with a real table's id. The run is bounded
(a fixed number of examples per operation) and derandomized, so it is the same every time;
it runs on SQLite and on PostgreSQL.
"""

from __future__ import annotations

from typing import Any

import hypothesis
import requests
import schemathesis
from hypothesis import HealthCheck, Phase, given
from hypothesis import strategies as st
from schemathesis import GenerationMode

from tests.server.conftest import Player, RunningServer

#: Examples per operation and pass (two passes for routes with a table id).
EXAMPLES = 20

#: Routes that end the fuzzing session itself: run last.
_LAST = ("POST /api/auth/logout",)


def _fuzz_settings() -> hypothesis.settings:
    return hypothesis.settings(
        max_examples=EXAMPLES,
        derandomize=True,
        database=None,
        deadline=None,
        phases=[Phase.explicit, Phase.generate],
        suppress_health_check=list(HealthCheck),
        report_multiple_bugs=False,
    )


def _signed_in(server: RunningServer) -> tuple[Player, str]:
    """A registered player with a started table (against a bot), for real ids."""
    player = Player(server, "fuzzer")
    player.register()
    seats = [{"kind": "me"}, {"kind": "bot", "bot": "beginner"}]
    made = player.post("/api/tables", {"game": "voluspa", "seats": seats})
    assert made.status_code == 201, made.text
    table_id = str(made.json()["id"])
    assert player.post(f"/api/tables/{table_id}/start").status_code == 200
    return player, table_id


def test_no_route_answers_5xx(server: RunningServer) -> None:
    player, table_id = _signed_in(server)
    cookies = dict(player.client.cookies.items())
    headers = {"X-CSRF-Token": player.csrf}
    schema = schemathesis.openapi.from_url(f"{server.url}/openapi.json")
    operations: list[Any] = [result.ok() for result in schema.get_all_operations()]  # type: ignore[union-attr]
    operations.sort(key=lambda op: op.label in _LAST)
    assert len(operations) >= 25, [op.label for op in operations]
    failures: list[str] = []
    calls = [0]
    statuses: dict[str, set[int]] = {}
    http = requests.Session()

    def run(operation: Any, path_parameters: dict[str, Any] | None) -> None:
        strategy = st.one_of(
            operation.as_strategy(GenerationMode.POSITIVE, path_parameters=path_parameters),
            operation.as_strategy(GenerationMode.NEGATIVE, path_parameters=path_parameters),
        )

        @_fuzz_settings()
        @given(case=strategy)
        def fuzz(case: Any) -> None:
            http.cookies.clear()
            response = case.call(base_url=server.url, session=http, headers=headers, cookies=cookies, timeout=60)
            calls[0] += 1
            statuses.setdefault(operation.label, set()).add(response.status_code)
            assert response.status_code < 500, (
                f"{case.method} {case.formatted_path} query={case.query!r} body={case.body!r}: "
                f"{response.status_code} {response.text[:300]}"
            )

        try:
            fuzz()
        except AssertionError as error:
            failures.append(f"{operation.label}: {error}")
        except hypothesis.errors.Unsatisfiable:
            pass  # a route whose negative cases cannot be built: the positive pass still ran

    for operation in operations:
        run(operation, None)
        if "{table_id}" in operation.path:
            run(operation, {"table_id": table_id})
    assert not failures, "\n".join(failures)
    assert calls[0] >= len(operations) * EXAMPLES // 2  # the fuzz really ran
    # ... and signed in: a change that needs the session and the CSRF token went through
    assert any(200 <= status < 300 for status in statuses["POST /api/tables/{table_id}/chat"]), statuses
    assert player.get("/readyz").status_code == 200
