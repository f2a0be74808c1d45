"""Accounts: register, log in, play as a guest, log out, who am I."""

from __future__ import annotations

import re
import secrets

from fastapi import APIRouter, Request, Response
from pydantic import BaseModel, Field

from meadhall.server.deps import (
    check_csrf,
    check_origin,
    end_session,
    services,
    session_of,
    set_session_cookies,
)
from meadhall.server.errors import ApiError
from meadhall.server.security import (
    SESSION_COOKIE,
    check_password_off_loop,
    hash_password_off_loop,
    new_token,
    token_hash,
)
from meadhall.server.store import Store, User
from meadhall.server.text import DisplayName, Text

router = APIRouter(prefix="/api/auth", tags=["accounts"])

#: A user name: ASCII letters, digits, '.', '_' and '-' (the whole name: no line break at its end).
NAME = re.compile(r"[A-Za-z0-9_.-]{3,24}")


class Register(BaseModel):
    """A new account."""

    name: Text = Field(min_length=3, max_length=24, description="3 to 24 letters, digits, '.', '_' or '-'")
    password: Text = Field(min_length=8, max_length=200)
    display_name: DisplayName | None = Field(
        None, max_length=40, description="shown to others; the name if left out (rule: docs/server.md)"
    )


class Login(BaseModel):
    """Credentials."""

    name: Text = Field(min_length=1, max_length=40)
    password: Text = Field(min_length=1, max_length=200)


class Guest(BaseModel):
    """A guest's display name."""

    display_name: DisplayName = Field(min_length=1, max_length=40, description="shown to others (rule: docs/server.md)")


async def _limit(request: Request) -> None:
    """Count a sign-in attempt against the client's address (the proxy's client's, behind a trusted proxy)."""
    check_origin(request)
    svc = services(request)
    key = request.client.host if request.client else "unknown"
    retry = await svc.limits.check("login_rate", key)
    if retry:
        raise ApiError(429, "rate-limited", "too many attempts; wait a minute", retry_after=retry)


async def _start_session(request: Request, response: Response, user: User) -> dict[str, object]:
    svc = services(request)
    token, csrf = new_token(), new_token()
    await svc.store.writer.run(
        Store.create_session(token_hash(svc.secret, token), user.id, csrf, svc.settings.session_days)
    )
    set_session_cookies(request, response, token, csrf, svc.settings.session_days)
    return {"user": user.public(), "csrf": csrf}


@router.post("/register", status_code=201)
async def register(body: Register, request: Request, response: Response) -> dict[str, object]:
    """Create an account (argon2 password hash) and sign in."""
    await _limit(request)
    if not NAME.fullmatch(body.name):
        raise ApiError(422, "invalid", "a name is 3 to 24 letters, digits, '.', '_' or '-'")
    svc = services(request)
    display = body.display_name or body.name
    try:
        hashed = await hash_password_off_loop(body.password)
        user_id = await svc.store.writer.run(Store.create_user(body.name, display, hashed, False))
    except ValueError as error:
        raise ApiError(409, "name-taken", str(error)) from None
    return await _start_session(request, response, User(user_id, body.name, display, False))


@router.post("/login")
async def login(body: Login, request: Request, response: Response) -> dict[str, object]:
    """Sign in with a name and password."""
    await _limit(request)
    svc = services(request)
    found = await svc.store.aread(lambda c: Store.user_by_name(c, body.name))
    # An unknown name (or a guest's) is checked against a dummy hash: it costs what a wrong password costs.
    if not await check_password_off_loop(found[1] if found else None, body.password) or found is None:
        raise ApiError(401, "bad-credentials", "wrong name or password")
    return await _start_session(request, response, found[0])


@router.post("/guest", status_code=201)
async def guest(body: Guest, request: Request, response: Response) -> dict[str, object]:
    """Play as a guest with a display name (no password; the account lives with the cookie)."""
    await _limit(request)
    svc = services(request)
    display = body.display_name
    name = f"guest-{secrets.token_hex(4)}"
    user_id = await svc.store.writer.run(Store.create_user(name, display, None, True))
    return await _start_session(request, response, User(user_id, name, display, True))


@router.post("/logout")
async def logout(request: Request, response: Response) -> dict[str, bool]:
    """End this session (signed out already: nothing to end, and no error).

    A live session is ended only with its CSRF token, as any change is: a page of another
    site cannot sign a player out (and close their table's sockets) behind their back.
    """
    check_origin(request)
    token = request.cookies.get(SESSION_COOKIE)
    found = await session_of(request) if token else None
    if found is not None:
        check_csrf(request, found[1])
    if token:
        svc = services(request)
        await svc.store.writer.run(Store.delete_session(token_hash(svc.secret, token)))
        await end_session(svc, token_hash(svc.secret, token))  # on every server at once
    response.delete_cookie(SESSION_COOKIE, path="/")
    return {"ok": True}


@router.get("/me")
async def me(request: Request) -> dict[str, object]:
    """Who is signed in, and the CSRF token to send with changes.

    Being signed out is an answer, not an error: ``{"user": null, "csrf": null}``.
    """
    found = await session_of(request)
    if found is None:
        return {"user": None, "csrf": None}
    return {"user": found[0].public(), "csrf": found[1]}
