"""Accounts: register, log in, play as a guest, log out, who am I."""

from __future__ import annotations

import re
import secrets

from fastapi import APIRouter, Request, Response
from pydantic import BaseModel, Field

from meadhall.server.api import check_origin, forget_session, session_of, set_session_cookies
from meadhall.server.app import ApiError, services
from meadhall.server.security import SESSION_COOKIE, hash_password, new_token, token_hash, verify_password
from meadhall.server.store import Store, User

router = APIRouter(prefix="/api/auth", tags=["accounts"])

NAME = re.compile(r"^[A-Za-z0-9_.-]{3,24}$")


class Register(BaseModel):
    """A new account."""

    name: str = Field(min_length=3, max_length=24)
    password: str = Field(min_length=8, max_length=200)
    display_name: str | None = Field(None, max_length=40)


class Login(BaseModel):
    """Credentials."""

    name: str = Field(min_length=1, max_length=40)
    password: str = Field(min_length=1, max_length=200)


class Guest(BaseModel):
    """A guest's display name."""

    display_name: str = Field(min_length=1, max_length=24)


def _limit(request: Request) -> None:
    check_origin(request)
    svc = services(request)
    key = request.client.host if request.client else "unknown"
    if not svc.login_limiter.allow(key):
        raise ApiError(
            429, "rate-limited", "too many attempts; wait a minute", retry_after=svc.login_limiter.retry_after(key)
        )


async def _start_session(request: Request, response: Response, user: User) -> dict[str, object]:
    svc = services(request)
    token, csrf = new_token(), new_token()
    await svc.store.writer.run(
        Store.create_session(token_hash(svc.secret, token), user.id, csrf, svc.settings.session_days)
    )
    set_session_cookies(request, response, token, csrf, svc.settings.session_days)
    return {"user": user.public(), "csrf": csrf}


def _clean_display(text: str) -> str:
    cleaned = " ".join(text.split())
    if not cleaned or any(ord(ch) < 32 for ch in cleaned):
        raise ApiError(422, "invalid", "a display name needs visible characters")
    return cleaned[:24]


@router.post("/register", status_code=201)
async def register(body: Register, request: Request, response: Response) -> dict[str, object]:
    """Create an account (argon2 password hash) and sign in."""
    _limit(request)
    if not NAME.match(body.name):
        raise ApiError(422, "invalid", "a name is 3 to 24 letters, digits, '.', '_' or '-'")
    svc = services(request)
    display = _clean_display(body.display_name or body.name)
    try:
        user_id = await svc.store.writer.run(Store.create_user(body.name, display, hash_password(body.password), False))
    except ValueError as error:
        raise ApiError(409, "name-taken", str(error)) from None
    return await _start_session(request, response, User(user_id, body.name, display, False))


@router.post("/login")
async def login(body: Login, request: Request, response: Response) -> dict[str, object]:
    """Sign in with a name and password."""
    _limit(request)
    svc = services(request)
    found = await svc.store.aread(lambda c: Store.user_by_name(c, body.name))
    if found is None or found[1] is None or not verify_password(found[1], body.password):
        raise ApiError(401, "bad-credentials", "wrong name or password")
    return await _start_session(request, response, found[0])


@router.post("/guest", status_code=201)
async def guest(body: Guest, request: Request, response: Response) -> dict[str, object]:
    """Play as a guest with a display name (no password; the account lives with the cookie)."""
    _limit(request)
    svc = services(request)
    display = _clean_display(body.display_name)
    name = f"guest-{secrets.token_hex(4)}"
    user_id = await svc.store.writer.run(Store.create_user(name, display, None, True))
    return await _start_session(request, response, User(user_id, name, display, True))


@router.post("/logout")
async def logout(request: Request, response: Response) -> dict[str, bool]:
    """End this session."""
    check_origin(request)
    token = request.cookies.get(SESSION_COOKIE)
    if token:
        svc = services(request)
        await svc.store.writer.run(Store.delete_session(token_hash(svc.secret, token)))
        forget_session(request, token)
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
