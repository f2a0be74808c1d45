"""A user's e-mail notices: the address, its confirmation, and what to get (see :mod:`meadhall.server.mail`)."""

from __future__ import annotations

import re
from typing import Any

from fastapi import APIRouter, Request
from pydantic import BaseModel, Field, field_validator

from meadhall.server import mail
from meadhall.server.deps import Acting, SignedIn, services
from meadhall.server.errors import ApiError

router = APIRouter(prefix="/api/me", tags=["notifications"])

# An address as people write one: something@a.domain, no spaces; the SMTP server judges the rest.
_ADDRESS = re.compile(r"[^@\s<>,;\"]+@[^@\s<>,;\"]+\.[^@\s<>,;\"]+")


class Choices(BaseModel):
    """What e-mail to get, and where (``email`` null: none at all, the address forgotten)."""

    email: str | None = Field(
        default=None, max_length=254, description="the address; a new one waits for its confirmation"
    )
    # Each choice's description is its label on the profile page too (GET's "labels"), in this order.
    turns: bool = Field(
        default=True, description="E-mail me when it is my turn at a table played at its own pace (not live)"
    )
    digest: bool = Field(
        default=False, description="Gather those turn e-mails into one a day for all my tables, not one a turn"
    )
    invitations: bool = Field(default=True, description="E-mail me when someone invites me to a table")
    endings: bool = Field(default=True, description="E-mail me when a game I played has ended")

    @field_validator("email")
    @classmethod
    def _address(cls, value: str | None) -> str | None:
        if value is None or not value.strip():
            return None
        value = value.strip()
        if not _ADDRESS.fullmatch(value):
            raise ValueError("an e-mail address looks like name@example.org")
        return value


def _answer(enabled: bool, found: dict[str, Any] | None) -> dict[str, Any]:
    chosen = {key: found[key] for key in mail.KINDS} if found else Choices().model_dump(exclude={"email"})
    return {
        "mail": enabled,  # whether this server sends e-mail at all
        "email": found["email"] if found else None,
        "confirmed": bool(found and found["confirmed"]),
        **chosen,
        "labels": LABELS,  # what each choice means, as the profile page shows it
    }


# Each choice's words (its description above): said once, shown by the profile page.
LABELS: dict[str, str] = {
    name: field.description or name for name, field in Choices.model_fields.items() if name in mail.KINDS
}


@router.get("/notifications")
async def my_notifications(request: Request, user: SignedIn) -> dict[str, Any]:
    """My address (and whether it is confirmed), what I get, and whether this server sends e-mail."""
    svc = services(request)
    found = await svc.store.aread(lambda c: mail.email_settings(c, user.id))
    return _answer(svc.notifier.mailer.enabled, found)


@router.put("/notifications")
async def set_notifications(choices: Choices, request: Request, user: Acting) -> dict[str, Any]:
    """Set my address and what I get; a new address gets a confirmation link and nothing else until followed."""
    svc = services(request)
    if user.is_guest:
        raise ApiError(403, "guest", "guests get no e-mail: register to give an address")
    fresh = await svc.store.writer.run(mail.save_email_settings(user.id, choices.model_dump()))
    if fresh and choices.email is not None:
        await svc.notifier.confirm_address(user.id, user.display_name, choices.email)
    found = await svc.store.aread(lambda c: mail.email_settings(c, user.id))
    return _answer(svc.notifier.mailer.enabled, found)
