"""A small client for Firefox's Marionette protocol: drive Debian's stock Firefox in tests.

Playwright needs its own patched Firefox build, which this machine cannot download; the
stock ``firefox-esr`` speaks WebDriver over Marionette (``--marionette``): length-prefixed
JSON messages on a local port, commands ``[0, id, name, params]`` answered with
``[1, id, error, result]``. Clicks go through ``WebDriver:ElementClick``, which Firefox
performs as real input events.
"""

from __future__ import annotations

import contextlib
import json
import socket
import subprocess
import time
from pathlib import Path
from typing import Any

ELEMENT = "element-6066-11e4-a52e-4f735466cecf"
#: How many times a click finds its element again when the page redrew it meanwhile.
STALE_TRIES = 5


class MarionetteError(Exception):
    """A command Firefox refused or failed."""


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


class Firefox:
    """A headless Firefox with its own profile, driven over Marionette."""

    def __init__(
        self, binary: str, profile: Path, width: int = 1024, height: int = 768, prefs: dict[str, int] | None = None
    ) -> None:
        """Start Firefox; ``prefs``: more preferences for its profile (``ui.prefersReducedMotion``: 1)."""
        self.port = free_port()
        profile.mkdir(parents=True, exist_ok=True)
        more = "".join(f"user_pref({json.dumps(name)}, {value});\n" for name, value in (prefs or {}).items())
        (profile / "user.js").write_text(
            f'user_pref("marionette.port", {self.port});\n'
            'user_pref("browser.shell.checkDefaultBrowser", false);\n'
            'user_pref("datareporting.policy.dataSubmissionEnabled", false);\n'
            'user_pref("toolkit.telemetry.reportingpolicy.firstRun", false);\n'
            'user_pref("app.update.enabled", false);\n' + more,
            encoding="utf-8",
        )
        self.process = subprocess.Popen(
            [binary, "--headless", "--marionette", "--no-remote", "--profile", str(profile)],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        deadline = time.monotonic() + 60
        while True:
            try:
                self.socket = socket.create_connection(("127.0.0.1", self.port), timeout=2)
                break
            except OSError:
                if time.monotonic() > deadline or self.process.poll() is not None:
                    self.close()
                    raise MarionetteError("Firefox did not open its Marionette port") from None
                time.sleep(0.2)
        self.socket.settimeout(120)
        self.stream = self.socket.makefile("rb")
        self.next_id = 0
        self._read()  # the greeting
        self.command("WebDriver:NewSession", {"capabilities": {}})
        self.command("WebDriver:SetWindowRect", {"width": width, "height": height})

    def _read(self) -> Any:
        size = b""
        while (char := self.stream.read(1)) != b":":
            if not char:
                raise MarionetteError("Firefox closed the connection")
            size += char
        return json.loads(self.stream.read(int(size)))

    def command(self, name: str, params: dict[str, Any] | None = None) -> Any:
        """Send one command; its result (raises :class:`MarionetteError` on an error)."""
        self.next_id += 1
        body = json.dumps([0, self.next_id, name, params or {}]).encode()
        self.socket.sendall(str(len(body)).encode() + b":" + body)
        while True:
            _, answer_id, error, result = self._read()
            if answer_id == self.next_id:
                break
        if error:
            raise MarionetteError(f"{name}: {error.get('error')}: {error.get('message')}")
        return result

    # conveniences

    def goto(self, url: str) -> None:
        self.command("WebDriver:Navigate", {"url": url})

    def url(self) -> str:
        return str(self.command("WebDriver:GetCurrentURL")["value"])

    def run(self, script: str, *args: Any) -> Any:
        """Run a function body in the page (a returned promise is awaited); its value."""
        return self.command("WebDriver:ExecuteScript", {"script": script, "args": list(args)})["value"]

    def find(self, selector: str) -> str | None:
        try:
            found = self.command("WebDriver:FindElement", {"using": "css selector", "value": selector})
        except MarionetteError as error:
            if "no such element" in str(error):
                return None
            raise
        return str(found["value"][ELEMENT])

    def wait_for(self, selector: str, timeout: float = 60) -> str:
        deadline = time.monotonic() + timeout
        while True:
            element = self.find(selector)
            if element is not None:
                return element
            if time.monotonic() > deadline:
                raise MarionetteError(f"no {selector} after {timeout} s")
            time.sleep(0.1)

    def wait_until(self, script: str, *args: Any, timeout: float = 60) -> Any:
        deadline = time.monotonic() + timeout
        while True:
            value = self.run(script, *args)
            if value:
                return value
            if time.monotonic() > deadline:
                raise MarionetteError(f"not true after {timeout} s: {script}")
            time.sleep(0.1)

    def click(self, selector: str) -> None:
        """Click an element as a person would: scrolled to the middle of the window first.

        WebDriver scrolls an element only until it touches the window's edge, where the
        table's sticky instruction bar can lie over it; a person scrolls it into the open.
        If the page draws the element again in between (a bot's move redraws the board),
        the new one is found and clicked.
        """
        for attempt in range(STALE_TRIES):
            element = self.wait_for(selector)
            try:
                self.command(
                    "WebDriver:ExecuteScript",
                    {
                        "script": "arguments[0].scrollIntoView({block: 'center', inline: 'center'});",
                        "args": [{ELEMENT: element}],
                    },
                )
                self.command("WebDriver:ElementClick", {"id": element})
                return
            except MarionetteError as error:
                if "stale element" not in str(error) or attempt == STALE_TRIES - 1:
                    raise

    def type(self, selector: str, text: str) -> None:
        self.command("WebDriver:ElementSendKeys", {"id": self.wait_for(selector), "text": text})

    def select(self, selector: str, value: str) -> None:
        """Choose an option of a <select> as a person would (the change event fires).

        Waits for the option to be there (a page may fill its lists after loading: setting
        a value it does not have yet leaves the first option chosen, silently), and checks
        that the choice held.
        """
        self.wait_for(selector)
        self.wait_until(
            "const s = document.querySelector(arguments[0]);"
            "return Boolean(s) && [...s.options].some((o) => o.value === arguments[1]);",
            selector,
            value,
        )
        self.run(
            "const s = document.querySelector(arguments[0]); s.value = arguments[1];"
            "s.dispatchEvent(new Event('input', {bubbles: true}));"
            "s.dispatchEvent(new Event('change', {bubbles: true}));",
            selector,
            value,
        )
        chosen = self.run("return document.querySelector(arguments[0]).value;", selector)
        if chosen != value:
            raise MarionetteError(f"{selector} shows {chosen!r}, not {value!r}")

    def screenshot(self, path: Path) -> None:
        import base64

        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(base64.b64decode(self.command("WebDriver:TakeScreenshot", {"full": True})["value"]))

    def close(self) -> None:
        try:
            if hasattr(self, "socket"):
                with contextlib.suppress(MarionetteError, OSError):
                    self.command("Marionette:Quit", {"flags": ["eForceQuit"]})
                self.socket.close()
        finally:
            try:
                self.process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
