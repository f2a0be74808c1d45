"""The deployment files in deploy/ name real commands and real settings.

No container daemon runs on the project's machines, so ``deploy/compose.yaml`` is not
started here; ``make cluster`` runs the same parts (PostgreSQL, Redis, the servers, a bot
pool and HAProxy) as processes, and the drills play through them. What this test keeps
from drifting: every ``meadhall`` command the compose file and the systemd units run
parses with today's command line, and every ``MEADHALL_*`` variable they give a server
or a pool is a setting that accepts the value given (a renamed or removed setting would
otherwise be ignored without a word: settings ignore unknown variables).
"""

from __future__ import annotations

import re
import shlex
from pathlib import Path
from typing import Any

import pytest

from meadhall.cli.main import build_parser
from meadhall.server.settings import Settings

yaml = pytest.importorskip("yaml", reason="PyYAML is not installed: the compose file was not read")

DEPLOY = Path(__file__).resolve().parents[1] / "deploy"
#: Variables the files use for themselves, not settings: how many processes, HAProxy's addresses.
NOT_SETTINGS = {"MEADHALL_WORKERS", "MEADHALL_BOT_POOL_WORKERS", "MEADHALL_FRONT"}
_DEFAULTED = re.compile(r"\$\{(\w+):[-?]([^}]*)\}")


def _filled(text: str, values: dict[str, str]) -> str:
    """``text`` with ``${VAR:-default}`` and ``${VAR}`` filled as compose and systemd would."""
    text = _DEFAULTED.sub(lambda m: values.get(m.group(1), m.group(2)), text)
    return re.sub(r"\$\{(\w+)\}", lambda m: values[m.group(1)], text)


def _check_settings(environment: dict[str, str], where: str) -> None:
    given = {
        name.removeprefix("MEADHALL_").lower(): value
        for name, value in environment.items()
        if name.startswith("MEADHALL_") and name not in NOT_SETTINGS and not re.fullmatch(r"MEADHALL_SERVER\d+", name)
    }
    unknown = sorted(set(given) - set(Settings.model_fields))
    assert not unknown, f"{where} sets variables that are no setting: {unknown}"
    Settings.model_validate({**given, "secret_key": "x" * 48})  # every value is one the setting accepts


def _check_command(argv: list[str], where: str) -> None:
    assert Path(argv[0]).name == "meadhall", where
    try:
        build_parser().parse_args(argv[1:])
    except SystemExit as stopped:  # argparse refuses with exit status 2
        pytest.fail(f"{where}: `{shlex.join(argv)}` is refused by the command line ({stopped.code})")


def test_the_compose_files_commands_and_settings_are_real() -> None:
    compose: dict[str, Any] = yaml.safe_load((DEPLOY / "compose.yaml").read_text())
    ran = set()
    for name, service in compose["services"].items():
        command = service.get("command")
        if not command or command[0] != "meadhall":
            continue
        ran.add(command[1])
        environment = {key: str(value) for key, value in (service.get("environment") or {}).items()}
        _check_command([_filled(str(part), {}) for part in command], f"compose service {name}")
        _check_settings({key: _filled(value, {}) for key, value in environment.items()}, f"compose service {name}")
    assert ran == {"serve", "bot-pool"}  # the servers and the pool of bots


def test_the_compose_files_servers_and_bots_share_one_site_in_redis() -> None:
    """The bots' pool reads the stream of the servers' Redis and prefix (``redis_prefix``), or thinks for nobody."""
    compose: dict[str, Any] = yaml.safe_load((DEPLOY / "compose.yaml").read_text())
    sites = {
        (
            _filled(str(environment.get("MEADHALL_REDIS_URL")), {}),
            _filled(str(environment.get("MEADHALL_REDIS_PREFIX")), {}),
        )
        for service in compose["services"].values()
        if (service.get("command") or [""])[0] == "meadhall"
        for environment in [service.get("environment") or {}]
    }
    assert len(sites) == 1, sites


def test_the_systemd_units_commands_and_settings_are_real() -> None:
    units = sorted((DEPLOY / "systemd").glob("*.service"))
    ran = set()
    for unit in units:
        text = unit.read_text()
        values = dict(re.findall(r"^Environment=(\w+)=(\S*)$", text, re.MULTILINE))
        (start,) = re.findall(r"^ExecStart=(.+)$", text, re.MULTILINE)
        argv = shlex.split(_filled(start.replace("%i", "8001"), values))
        _check_command(argv, unit.name)
        _check_settings(values, unit.name)
        ran.add(argv[1])
    assert ran == {"serve", "bot-pool"}


def test_a_changed_setting_name_is_caught() -> None:
    with pytest.raises(AssertionError, match="no setting"):
        _check_settings({"MEADHALL_REDIS_ADDRESS": "redis://redis:6379"}, "a file")
    with pytest.raises(pytest.fail.Exception, match="refused"):
        _check_command(["meadhall", "bot-pool", "--no-such-flag"], "a file")
