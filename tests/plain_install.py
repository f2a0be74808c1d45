"""The everyday commands on a plain install: ``pip install .`` with no extras.

``make plain-install`` (part of ``make test``) builds ``.venv-plain`` and runs this script
with that venv's Python: ``python tests/plain_install.py .venv-plain/bin/meadhall``. It
uses the standard library only, since nothing else may be assumed there, and fails
loudly (exit status 1, each failure's output shown) if any command does not work, or
if a command that needs an extra does not say, in one line and without a traceback,
which extra to install.
"""

from __future__ import annotations

import importlib.util
import os
import re
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Callable
from pathlib import Path

POSITION = "origin -1,0/. TH ./OD FE SK+1/. VA ."
# Hang guards, not speed limits: a busy machine may be slow, never stuck.
COMMAND_TIMEOUT = 300
SERVE_TIMEOUT = 180


class Failed(Exception):
    """One check did not pass."""


def _environment() -> dict[str, str]:
    # The check must see meadhall's defaults, not the caller's MEADHALL_* settings.
    return {key: value for key, value in os.environ.items() if not key.startswith("MEADHALL_")}


def _run(meadhall: str, *args: str, stdin: str = "", cwd: Path) -> subprocess.CompletedProcess[str]:
    try:
        return subprocess.run(
            [meadhall, *args], input=stdin, capture_output=True, text=True,
            timeout=COMMAND_TIMEOUT, cwd=cwd, env=_environment(), check=False,
        )  # fmt: skip
    except subprocess.TimeoutExpired as error:
        raise Failed(f"still running after {COMMAND_TIMEOUT} s") from error


def _expect(done: subprocess.CompletedProcess[str], ok: bool, what: str) -> None:
    if not ok:
        raise Failed(
            f"{what}\nexit status {done.returncode}\n--- stdout ---\n{done.stdout[-3000:]}\n"
            f"--- stderr ---\n{done.stderr[-3000:]}"
        )


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def check_help(meadhall: str, folder: Path) -> None:
    """``meadhall --help`` lists the commands."""
    done = _run(meadhall, "--help", cwd=folder)
    _expect(done, done.returncode == 0 and "serve" in done.stdout and "play" in done.stdout, "no help")


def check_explain(meadhall: str, folder: Path) -> None:
    """``meadhall voluspa explain`` judges a move."""
    done = _run(meadhall, "voluspa", "explain", "--position", POSITION, "--move", "OD@1,2", cwd=folder)
    _expect(done, done.returncode == 0 and done.stdout.startswith("Legal: 4 points."), "no explanation")


def check_play(meadhall: str, folder: Path) -> None:
    """A short ``meadhall play`` against a bot, moves typed on standard input."""
    # Seed 1 deals the first turn to the person, so the typed move is legal whatever the bot does.
    done = _run(
        meadhall, "play", "voluspa", "--players", "2", "--bots", "2", "--seed", "1",
        stdin="TH@1,0\nquit\nn\n", cwd=folder,
    )  # fmt: skip
    played = (
        "Seat 1 (You) places TH" in done.stdout
        and re.search(r"Seat 2 \([^)]* medium bot\) places", done.stdout) is not None
        and "=== Turn 3: Seat 1 (You) ===" in done.stdout
    )
    _expect(done, done.returncode == 0 and played and "Farewell." in done.stdout, "the game did not go on")


#: The full screen (Textual, a dependency of a plain install) under Textual's pilot: Enter plays the highlighted move.
FULL_SCREEN = """
import asyncio
import meadhall
from meadhall.bots import make_bot
from meadhall.cli.play import TerminalGame
from meadhall.cli.tui import PlayApp

game = meadhall.get_game("voluspa")
terminal = TerminalGame(game, game.new_game(players=2, seed=1), bots={1: make_bot("random")})

async def main():
    app = PlayApp(terminal)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        wanted = app.highlighted()["notation"]
        await pilot.press("enter")
        await pilot.pause()
        await app.workers.wait_for_complete()
        print("played", str(terminal.state.history()[0][1]), "wanted", wanted)

asyncio.run(main())
"""


def check_full_screen(meadhall: str, folder: Path) -> None:
    """``meadhall play``'s full screen starts and plays a move (driven by Textual's pilot)."""
    python = str(Path(meadhall).with_name("python"))
    try:
        done = subprocess.run(
            [python, "-c", FULL_SCREEN], capture_output=True, text=True,
            timeout=COMMAND_TIMEOUT, cwd=folder, env=_environment(), check=False,
        )  # fmt: skip
    except subprocess.TimeoutExpired as error:
        raise Failed(f"still running after {COMMAND_TIMEOUT} s") from error
    words = done.stdout.split()
    played = len(words) == 4 and words[0] == "played" and words[1] == words[3]
    _expect(done, done.returncode == 0 and played, "the full screen did not play the highlighted move")


#: An arena of two bots (its game named: several are installed).
ARENA = ("arena", "--game", "voluspa", "--bots", "random,greedy")


def check_arena(meadhall: str, folder: Path) -> None:
    """A two-game ``meadhall arena`` writes its results."""
    out = folder / "arena"
    done = _run(meadhall, *ARENA, "--games", "2", "--jobs", "1", "--out", str(out), cwd=folder)
    written = (folder / "arena.json").is_file() and (folder / "arena.csv").is_file()
    _expect(done, done.returncode == 0 and written and "greedy" in done.stdout, "the arena did not report")


def check_serve(meadhall: str, folder: Path) -> None:
    """``meadhall serve`` on a free port answers ``/healthz``, serves a game's board plugin and its stylesheet
    from the installed package, and prints the address first."""
    port = _free_port()
    process = subprocess.Popen(
        [meadhall, "serve", "--port", str(port), "--data-dir", str(folder / "data")],
        cwd=folder, env=_environment(), stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    healthy = False
    try:
        deadline = time.monotonic() + SERVE_TIMEOUT
        while not healthy and time.monotonic() < deadline and process.poll() is None:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=5) as response:
                    healthy = response.status == 200 and b'"ok"' in response.read()
            except (urllib.error.URLError, OSError):
                time.sleep(0.1)
        plugin_files = []
        for part in ("js", "css") if healthy else ():
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/games/voluspa/plugin.{part}", timeout=5) as response:
                plugin_files.append(response.status == 200 and len(response.read()) > 0)
    finally:
        process.terminate()
        try:
            stdout, stderr = process.communicate(timeout=60)
        except subprocess.TimeoutExpired:
            process.kill()
            stdout, stderr = process.communicate()
    done = subprocess.CompletedProcess(process.args, process.returncode, stdout, stderr)
    _expect(done, healthy, f"no answer from /healthz on port {port}")
    _expect(done, plugin_files == [True, True], "the board plugin or its stylesheet is not in the installed package")
    first = stdout.splitlines()[0] if stdout else ""
    _expect(done, first.startswith(f"meadhall is ready: open http://127.0.0.1:{port}/"), "no address line first")


def _check_extra(done: subprocess.CompletedProcess[str], extra: str) -> None:
    lines = done.stderr.strip().splitlines()
    plain = len(lines) == 1 and f"pip install 'meadhall[{extra}]'" in lines[0] and "Traceback" not in done.stderr
    _expect(done, done.returncode != 0 and plain, f"no one-line message naming meadhall[{extra}]")


def check_bench_server_names_its_extra(meadhall: str, folder: Path) -> None:
    """``meadhall bench-server`` says to install ``meadhall[bench]``."""
    _check_extra(_run(meadhall, "bench-server", "--tables", "1", "--seconds", "1", cwd=folder), "bench")


def check_chart_names_its_extra(meadhall: str, folder: Path) -> None:
    """``meadhall arena --chart`` says to install ``meadhall[charts]``, before playing."""
    out, chart = str(folder / "charted"), str(folder / "chart.png")
    done = _run(meadhall, *ARENA, "--games", "2", "--chart", chart, "--out", out, cwd=folder)
    _check_extra(done, "charts")
    _expect(done, not (folder / "charted.json").exists(), "the games were played before the chart was refused")


def check_postgres_names_its_extra(meadhall: str, folder: Path) -> None:
    """``meadhall serve`` on a PostgreSQL URL says to install ``meadhall[postgres]``."""
    url = "postgresql+psycopg://meadhall@127.0.0.1:9/meadhall"
    done = _run(meadhall, "serve", "--port", str(_free_port()), "--database-url", url, cwd=folder)
    _check_extra(done, "postgres")


def check_rl_names_its_extra(meadhall: str, folder: Path) -> None:
    """``import meadhall.rl`` says, as its error's message, to install ``meadhall[rl]``."""
    try:
        done = subprocess.run(
            [sys.executable, "-c", "import meadhall.rl"], capture_output=True, text=True,
            timeout=COMMAND_TIMEOUT, cwd=folder, env=_environment(), check=False,
        )  # fmt: skip
    except subprocess.TimeoutExpired as error:
        raise Failed(f"still running after {COMMAND_TIMEOUT} s") from error
    last = done.stderr.strip().splitlines()[-1] if done.stderr.strip() else ""
    # MissingExtra: meadhall's error for a missing extra, a ModuleNotFoundError too.
    message = (
        "meadhall.extras.MissingExtra: meadhall.rl needs numpy, which is not installed: pip install 'meadhall[rl]'"
    )
    _expect(done, done.returncode != 0 and last == message, "import meadhall.rl did not name meadhall[rl]")


CHECKS: list[tuple[str, Callable[[str, Path], None], str | None]] = [
    ("meadhall --help", check_help, None),
    ("meadhall voluspa explain", check_explain, None),
    ("meadhall play against a bot", check_play, None),
    ("meadhall play full screen (Textual's pilot)", check_full_screen, None),
    ("meadhall arena, two games", check_arena, None),
    ("meadhall serve answers /healthz", check_serve, None),
    ("meadhall bench-server names meadhall[bench]", check_bench_server_names_its_extra, "httpx"),
    ("meadhall arena --chart names meadhall[charts]", check_chart_names_its_extra, "matplotlib"),
    ("meadhall serve on PostgreSQL names meadhall[postgres]", check_postgres_names_its_extra, "psycopg"),
    ("import meadhall.rl names meadhall[rl]", check_rl_names_its_extra, "numpy"),
]


def main(argv: list[str]) -> int:
    """Run every check with the ``meadhall`` command ``argv[1]``; 0 if all pass."""
    if len(argv) != 2:
        print("usage: python tests/plain_install.py PATH/TO/meadhall", file=sys.stderr)
        return 2
    meadhall = str(Path(argv[1]).resolve())
    failures = 0
    for name, check, extra_module in CHECKS:
        if extra_module is not None and importlib.util.find_spec(extra_module) is not None:
            failures += 1
            print(f"FAIL {name}: {extra_module} is installed without its extra (a plain install must not have it)")
            continue
        started = time.monotonic()
        with tempfile.TemporaryDirectory(prefix="meadhall-plain-") as folder:
            try:
                check(meadhall, Path(folder))
            except Failed as failure:
                failures += 1
                print(f"FAIL {name}: {failure}", flush=True)
                continue
        print(f"ok   {name} ({time.monotonic() - started:.1f} s)", flush=True)
    if failures:
        print(f"plain install: {failures} of {len(CHECKS)} checks FAILED", file=sys.stderr)
        return 1
    print(f"plain install: all {len(CHECKS)} checks passed")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
