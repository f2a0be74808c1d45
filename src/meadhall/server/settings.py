"""One settings object for the server, from environment variables and a config file.

Environment variables are ``MEADHALL_<NAME>`` (e.g. ``MEADHALL_PORT=8080``); a TOML file
given by ``MEADHALL_CONFIG`` (or ``meadhall.toml`` in the data directory) may set the
same names in lower case. Environment variables win over the file.
"""

from __future__ import annotations

import os
import secrets
import sys
import tomllib
from pathlib import Path
from typing import Any, Self, TextIO

from pydantic import Field, ValidationInfo, field_validator, model_validator
from pydantic_settings import BaseSettings, SettingsConfigDict


def _one_of(value: str, name: str, allowed: tuple[str, ...]) -> str:
    value = value.lower()
    if value not in allowed:
        raise ValueError(f"{name} is {', '.join(allowed[:-1])} or {allowed[-1]}")
    return value


class Settings(BaseSettings):
    """Everything the server can be told."""

    model_config = SettingsConfigDict(env_prefix="MEADHALL_", extra="ignore")

    host: str = Field("127.0.0.1", description="address to bind; 127.0.0.1 keeps it on this machine")
    port: int = Field(8000, ge=0, le=65535, description="TCP port (0: any free port)")
    data_dir: Path = Field(Path("data"), description="where the SQLite database and the secret key live")
    database_url: str | None = Field(None, description="SQLAlchemy URL; default: SQLite in the data directory")
    secret_key: str | None = Field(None, description="signs nothing secret but session ids are random; kept for CSRF")
    cookie_secure: str = Field("auto", description="Secure cookies: auto (https or localhost), true or false")
    session_days: int = Field(30, ge=1, description="how long a login lasts")
    bot_workers: int = Field(1, ge=1, description="processes that think for bots")
    bot_move_seconds: float = Field(
        10.0, gt=0, description="the most a bot thinks for one move; its search then plays its best move so far"
    )
    response_pause_min: float = Field(
        1.0, ge=0, description="the shortest pause before a response window's answer is applied (seconds)"
    )
    response_pause_max: float = Field(
        3.0, ge=0, description="the longest such pause; each window's is drawn evenly between the two"
    )
    ws_message_rate: str = Field(
        "20/second;300/minute", description="messages one table WebSocket may send (a rate of the limits library)"
    )
    ws_per_address: int = Field(
        64, ge=1, description="table WebSockets one address may hold open at once (on all servers, with redis_url)"
    )
    ws_max_message_chars: int = Field(4096, ge=256, description="the longest message a table WebSocket may send")
    login_rate: int = Field(10, ge=1, description="login and registration attempts per minute per address")
    # Limits (docs/server.md, "Limits: requests, logins, tables and chat").
    rate_limit_storage: str = Field(
        "memory://",
        description="where rate-limit counters live: memory:// (this process) or redis://host:6379; "
        "left at memory:// with redis_url set, they live in that Redis",
    )
    # Several servers (docs/deploy.md, "Several servers"): empty, this process is alone.
    redis_url: str = Field(
        "",
        description="the Redis that several servers share (redis://host:6379): their rate limits and their "
        "tables (docs/deploy.md, 'Several servers'); empty: one process, nothing shared",
    )
    redis_prefix: str = Field(
        "meadhall",
        pattern=r"^[A-Za-z0-9_.-]{1,32}$",
        description="with redis_url: the start of every key, stream and channel of this site in Redis (and of "
        "its rate limits there); sites sharing one Redis each need their own (letters, digits, _ . -; 32 at most)",
    )
    cluster_lease_ms: int = Field(
        3000,
        ge=300,
        description="with redis_url: how long a server's hold on a table lasts unless renewed (milliseconds); "
        "a server that dies loses its tables to another after about this long (docs/deploy.md, 'Several servers')",
    )
    bot_pool: bool = Field(
        False,
        description="with redis_url: bots' moves are thought by `meadhall bot-pool` processes fed through Redis, "
        "not by this server's bot_workers (docs/deploy.md, 'A pool of bots')",
    )
    bot_pool_seconds: float = Field(
        15.0,
        gt=0,
        description="with bot_pool: how long a server waits for the pool's answer to a bot's move before "
        "it thinks itself (seconds; more than bot_move_seconds, so that a killed pool worker's move is taken again)",
    )
    idle_table_seconds: float = Field(
        600.0,
        ge=1,
        description="a table kept in memory that this server does not run (a game over read for its replay, "
        "another server's game) is dropped once nobody has used it this long (seconds); read again when asked for",
    )
    chat_rate: str = Field("5/10 seconds;30/minute", description="chat messages per user (limits notation)")
    history_rate: str = Field(
        "300/minute", description="game log, record and replay requests per address (limits notation)"
    )
    preview_rate: str = Field(
        "20/second;600/minute", description="previews of a target (GET .../preview) per user (limits notation)"
    )
    open_tables_per_user: int = Field(5, ge=1, description="open tables (waiting for players) one user may have")
    open_table_hours: float = Field(
        24.0, gt=0, description="an open table that has not started this long after its creation expires"
    )
    max_body_bytes: int = Field(65_536, ge=1024, description="largest request body (larger: 413)")
    max_pack_body_bytes: int = Field(
        1_048_576, ge=1024, description="largest body of POST /api/tables, which may carry a content pack"
    )
    trusted_proxies: str = Field(
        "",
        description="addresses (or networks) of reverse proxies whose X-Forwarded-For and X-Forwarded-Proto "
        "headers are believed, comma-separated; empty: believe none",
    )
    log_format: str = Field(
        "auto",
        description="logs on standard error: json (one object per line, for services and log collectors), "
        "text (plain lines for people), or auto (text when standard error is a terminal, json otherwise)",
    )
    log_level: str = Field("info")
    public_url: str | None = Field(None, description="the address people use (for invitation links)")
    # E-mail (docs/server.md, "E-mail"): nothing is sent while smtp_host is empty.
    smtp_host: str = Field("", description="the SMTP server that sends e-mail; empty: the server sends none")
    smtp_port: int = Field(587, ge=1, le=65535, description="its port (587 for starttls, 465 for tls, 25 for none)")
    smtp_security: str = Field("starttls", description="starttls, tls (implicit, port 465) or none")
    smtp_user: str = Field("", description="the login for the SMTP server; empty: no login")
    smtp_password: str = Field("", description="its password")
    smtp_from: str = Field("meadhall <meadhall@localhost>", description="the From: of every e-mail")
    digest_check_seconds: float = Field(
        3600.0, gt=0, description="how often the server looks for daily digests that are due"
    )
    vacation_days: float = Field(
        30.0, ge=0, description="vacation days a year (UTC) for async play, while a player's async clocks wait"
    )
    db_writes: str = Field(
        "auto",
        description="where commits run: inline (on the event loop, batched per loop turn), thread (a writer "
        "thread), or auto (inline for SQLite, whose commit is a local file sync; thread for a database server)",
    )

    @field_validator("db_writes")
    @classmethod
    def _db_writes(cls, value: str) -> str:
        return _one_of(value, "db_writes", ("auto", "inline", "thread"))

    @property
    def rate_limit_uri(self) -> str:
        """Where the rate counters live: ``rate_limit_storage``, or the shared Redis when only ``redis_url`` is set."""
        if self.rate_limit_storage == "memory://" and self.redis_url:
            return self.redis_url
        return self.rate_limit_storage

    @property
    def inline_db_writes(self) -> bool:
        """Whether commits run on the event loop (see ``db_writes``)."""
        if self.db_writes == "auto":
            return self.sqlalchemy_url.startswith("sqlite")
        return self.db_writes == "inline"

    @field_validator("response_pause_max")
    @classmethod
    def _response_pause(cls, value: float, info: ValidationInfo) -> float:
        if value < info.data.get("response_pause_min", 0.0):
            raise ValueError("response_pause_max must be at least response_pause_min")
        return value

    @model_validator(mode="after")
    def _bot_pool_outwaits_a_move(self) -> Self:
        # A server that gives up on the pool before a bot has finished thinking thinks every
        # pool move a second time itself: the pool would only cost, and a killed pool worker's
        # move could never be taken over by another in time.
        if self.bot_pool and self.bot_pool_seconds <= self.bot_move_seconds:
            raise ValueError(
                f"bot_pool_seconds ({self.bot_pool_seconds:g}) must be longer than bot_move_seconds "
                f"({self.bot_move_seconds:g}): the server would stop waiting for the bot pool before a bot has "
                "finished thinking, and think every bot move again itself. Raise bot_pool_seconds (a few seconds "
                "above bot_move_seconds plus the pool's --claim-ms) or lower bot_move_seconds."
            )
        return self

    @field_validator("chat_rate", "history_rate", "ws_message_rate", "preview_rate")
    @classmethod
    def _rate(cls, value: str) -> str:
        from limits import parse_many

        try:
            parse_many(value)
        except ValueError:
            raise ValueError(f"{value!r} is not a rate such as '30/minute' or '5/10 seconds;30/minute'") from None
        return value

    @field_validator("trusted_proxies")
    @classmethod
    def _proxies(cls, value: str) -> str:
        import ipaddress

        items = [item.strip() for item in value.split(",") if item.strip()]
        if items == ["*"]:
            return "*"
        for item in items:
            try:
                ipaddress.ip_network(item, strict=False)
            except ValueError:
                raise ValueError(f"trusted_proxies: {item!r} is not an address or a network (or '*' alone)") from None
        return ", ".join(items)

    @field_validator("smtp_security")
    @classmethod
    def _smtp_security(cls, value: str) -> str:
        return _one_of(value, "smtp_security", ("starttls", "tls", "none"))

    @field_validator("log_format")
    @classmethod
    def _log_format(cls, value: str) -> str:
        return _one_of(value, "log_format", ("auto", "json", "text"))

    def json_logs(self, stream: TextIO | None = None) -> bool:
        """Whether logs go out as JSON lines (``log_format``; ``auto``: unless ``stream`` is a terminal).

        ``stream`` is where the logs go, standard error by default.
        """
        if self.log_format == "auto":
            target = sys.stderr if stream is None else stream
            return not (hasattr(target, "isatty") and target.isatty())
        return self.log_format == "json"

    @field_validator("cookie_secure")
    @classmethod
    def _secure(cls, value: str) -> str:
        return _one_of(value, "cookie_secure", ("auto", "true", "false"))

    @property
    def sqlalchemy_url(self) -> str:
        """The database URL (SQLite file in the data directory by default)."""
        if self.database_url:
            return self.database_url
        return f"sqlite:///{(self.data_dir / 'meadhall.sqlite3').resolve()}"

    def ensure_secret(self) -> str:
        """The secret key: from settings, or generated once and kept in the data directory."""
        if self.secret_key:
            return self.secret_key
        path = self.data_dir / "secret_key"
        if path.exists():
            self.secret_key = path.read_text(encoding="utf-8").strip()
        else:
            self.data_dir.mkdir(parents=True, exist_ok=True)
            self.secret_key = secrets.token_urlsafe(48)
            path.write_text(self.secret_key, encoding="utf-8")
            path.chmod(0o600)
        return self.secret_key


def load_settings(**overrides: Any) -> Settings:
    """Settings from the config file, then the environment, then ``overrides``."""
    values: dict[str, Any] = {}
    config = os.environ.get("MEADHALL_CONFIG")
    # An override left out by the command line arrives as None: the default applies then.
    data_dir = Path(os.environ.get("MEADHALL_DATA_DIR") or overrides.get("data_dir") or "data")
    candidates = [Path(config)] if config else [data_dir / "meadhall.toml"]
    for path in candidates:
        if path.is_file():
            with path.open("rb") as handle:
                values.update(tomllib.load(handle))
    environment = {
        key[len("MEADHALL_") :].lower(): value
        for key, value in os.environ.items()
        if key.startswith("MEADHALL_") and key != "MEADHALL_CONFIG"
    }
    values.update(environment)
    values.update({k: v for k, v in overrides.items() if v is not None})
    return Settings(**values)
