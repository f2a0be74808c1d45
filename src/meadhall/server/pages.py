"""The browser pages: server-rendered shells; the scripts fetch the JSON API."""

from __future__ import annotations

from pathlib import Path
from typing import Any
from urllib.parse import urljoin, urlsplit, urlunsplit

from fastapi import APIRouter, HTTPException, Request
from fastapi.responses import HTMLResponse, JSONResponse, Response
from fastapi.templating import Jinja2Templates
from starlette.exceptions import HTTPException as StarletteHTTPException

import meadhall
from meadhall.core.errors import MeadhallError
from meadhall.core.registry import all_games, get_game
from meadhall.server import mail
from meadhall.server.deps import services
from meadhall.server.plugins import Part, icon_gallery, plugin_file, rules_file
from meadhall.server.ratings import RATED_RULE

router = APIRouter(include_in_schema=False)
templates = Jinja2Templates(directory=str(Path(__file__).parent / "web" / "templates"))


def page(request: Request, template: str, **context: Any) -> HTMLResponse:
    """Render a template with the common context."""
    context.setdefault("title", "meadhall")
    context["games"] = [game.info for game in all_games()]
    context["version"] = meadhall.__version__
    context["rating_rule"] = RATED_RULE
    return templates.TemplateResponse(request, template, context)


def error_page(request: Request, status: int, message: str) -> Response:
    """An error as a page."""
    response = page(request, "error.html", title=f"{status} - meadhall", status=status, message=message)
    response.status_code = status
    return response


async def http_error(request: Request, error: StarletteHTTPException) -> Response:
    """Answer an HTTP error (no such page, method not allowed): JSON under ``/api/``, else a page."""
    if request.url.path.startswith("/api/"):
        return JSONResponse({"error": "http", "message": str(error.detail)}, status_code=error.status_code)
    return error_page(request, error.status_code, str(error.detail))


@router.get("/", response_class=HTMLResponse)
async def home(request: Request) -> HTMLResponse:
    """The front page."""
    return page(request, "home.html")


#: Where sign-in leads when ``next`` is missing or leads off the site.
AFTER_SIGNIN = "/lobby"


def local_path(target: str | None, default: str = AFTER_SIGNIN) -> str:
    """``target`` if it is a path on this site, else ``default``.

    Browsers drop tabs and newlines from an address and read a backslash as a slash, so
    ``/%5Chost`` or ``/%09/host`` (decoded: a backslash, a tab) lead to another site. A
    target with a control character or a backslash is refused; the rest is resolved
    against a placeholder origin and kept only if it stays on that origin.
    """
    if not target or any(ord(ch) < 32 or ord(ch) == 127 for ch in target) or "\\" in target:
        return default
    if not target.startswith("/") or target.startswith("//"):
        return default
    origin = "https://meadhall.invalid"
    resolved = urlsplit(urljoin(origin + "/", target))
    if f"{resolved.scheme}://{resolved.netloc}" != origin:
        return default
    return urlunsplit(("", "", resolved.path or "/", resolved.query, resolved.fragment))


@router.get("/signin", response_class=HTMLResponse)
async def signin(request: Request, next: str | None = None) -> HTMLResponse:
    """Sign in, register, or play as a guest; then go to ``next`` if it is a page of this site."""
    return page(request, "signin.html", title="Sign in - meadhall", next_path=local_path(next))


@router.get("/lobby", response_class=HTMLResponse)
async def lobby(request: Request) -> HTMLResponse:
    """Open tables, my games, a new table."""
    return page(request, "lobby.html", title="Lobby - meadhall")


@router.get("/t/{table_id}", response_class=HTMLResponse)
async def table(request: Request, table_id: str) -> HTMLResponse:
    """A table: seats before the start, the game after."""
    return page(request, "table.html", title="Table - meadhall", table_id=table_id)


@router.get("/replay/{table_id}", response_class=HTMLResponse)
async def replay(request: Request, table_id: str) -> HTMLResponse:
    """Step through a finished game."""
    return page(request, "replay.html", title="Replay - meadhall", table_id=table_id)


@router.get("/u/{name}", response_class=HTMLResponse)
async def profile(request: Request, name: str) -> HTMLResponse:
    """A player's profile."""
    return page(request, "profile.html", title=f"{name} - meadhall", name=name)


@router.get("/email/confirm/{user_id}/{token}", response_class=HTMLResponse)
async def confirm_email(request: Request, user_id: int, token: str) -> Response:
    """The link of a confirmation e-mail: the address is confirmed, and notices may go to it."""
    svc = services(request)
    if not await svc.store.writer.run(mail.confirm_email(user_id, svc.secret, token)):
        message = (
            "This link does not confirm an address: it may be for an address changed since. "
            "Ask for a new one on your profile."
        )
        return error_page(request, 400, message)
    return page(
        request,
        "email.html",
        title="Address confirmed - meadhall",
        done=True,
        message="Your address is confirmed: meadhall's notices will come to it.",
    )


def _forged_stop_link(request: Request, user_id: int, token: str) -> Response | None:
    """The error page for a stop link the server did not sign; None for one it did."""
    if mail.signed(services(request).secret, token, "stop", user_id):
        return None
    return error_page(request, 400, "This link does not stop any e-mail.")


@router.get("/email/stop/{user_id}/{token}", response_class=HTMLResponse)
async def stop_email_page(request: Request, user_id: int, token: str) -> Response:
    """The stop link of every notice: a button that stops them (a link alone may be followed by a mail scanner)."""
    if (refused := _forged_stop_link(request, user_id, token)) is not None:
        return refused
    return page(
        request,
        "email.html",
        title="Stop e-mail - meadhall",
        done=False,
        action=request.url.path,
        message="Stop every e-mail from meadhall to you?",
    )


@router.post("/email/stop/{user_id}/{token}", response_class=HTMLResponse)
async def stop_email(request: Request, user_id: int, token: str) -> Response:
    """Stop every notice to the user (the page's button, and one-click unsubscribe, RFC 8058)."""
    if (refused := _forged_stop_link(request, user_id, token)) is not None:
        return refused
    await services(request).store.writer.run(mail.stop_email(user_id))
    return page(
        request,
        "email.html",
        title="E-mail stopped - meadhall",
        done=True,
        message="meadhall will send you no more e-mail. Your profile can turn notices on again.",
    )


@router.get("/leaderboard", response_class=HTMLResponse)
async def leaderboard(request: Request, game: str | None = None) -> Response:
    """The best-rated players of the first game (or of ``?game=``), with a switch to the others."""
    return leaderboard_page(request, game or all_games()[0].info.name)


@router.get("/leaderboard/{game}", response_class=HTMLResponse)
async def game_leaderboard(request: Request, game: str) -> Response:
    """The best-rated players of one game, with a switch to the others."""
    return leaderboard_page(request, game)


def leaderboard_page(request: Request, game: str) -> Response:
    """One game's leaderboard page, or a 404 page naming the games there are."""
    try:
        info = get_game(game).info
    except MeadhallError:
        titles = ", ".join(g.info.title for g in all_games())
        return error_page(request, 404, f"there is no game called {game!r}; leaderboards: {titles}")
    return page(request, "leaderboard.html", title=f"{info.title} leaderboard - meadhall", info=info)


@router.get("/rules", response_class=HTMLResponse)
async def rules_index(request: Request) -> HTMLResponse:
    """The rules of every game."""
    return page(request, "rules_index.html", title="Rules - meadhall")


@router.get("/rules/{game}", response_class=HTMLResponse)
async def rules(request: Request, game: str) -> Response:
    """The rules and rulings of a game (``rules.md`` in its package, else docs/rules/<game>.md), rendered."""
    try:
        found = get_game(game)
    except MeadhallError:
        return error_page(request, 404, f"there is no game called {game!r}")
    info = found.info
    path = rules_file(info.name)
    if path is None:
        return error_page(request, 404, f"the rules of {info.title} are not installed here")
    from markdown_it import MarkdownIt

    html = MarkdownIt("commonmark", {"html": False}).enable("table").render(path.read_text(encoding="utf-8"))
    return page(
        request,
        "rules.html",
        title=f"{info.title} rules - meadhall",
        rules_html=html,
        info=info,
        icons=icon_gallery(info.name),
        guide=found.guide(),  # "Learn to play": the game's guided first game, if it has one
    )


#: The media type of each part of a game's browser plugin.
PLUGIN_MEDIA = {"js": "text/javascript", "css": "text/css", "svg": "image/svg+xml"}


def _plugin_response(request: Request, name: str, part: Part) -> Response:
    found = plugin_file(name, part)
    if found is None:
        what = {"js": "board plugin", "css": "board stylesheet", "svg": "icon sprite"}[part]
        raise HTTPException(404, f"no {what} for a game called {name!r}")
    body, etag = found
    headers = {"ETag": etag, "Cache-Control": "no-cache"}
    if request.headers.get("if-none-match") == etag:
        return Response(status_code=304, headers=headers)
    return Response(body, media_type=PLUGIN_MEDIA[part], headers=headers)


@router.get("/games/{name}/plugin.js")
async def game_plugin(request: Request, name: str) -> Response:
    """The board plugin of a game (``web/plugin.js`` in its package), for the table and replay pages."""
    return _plugin_response(request, name, "js")


@router.get("/games/{name}/plugin.css")
async def game_style(request: Request, name: str) -> Response:
    """The board plugin's stylesheet (``web/plugin.css`` in the game's package), for a game that has one."""
    return _plugin_response(request, name, "css")


@router.get("/games/{name}/icons.svg")
async def game_icons(request: Request, name: str) -> Response:
    """The game's icon sprite (``web/icons.svg`` in its package): a ``<symbol>`` per component its board draws."""
    return _plugin_response(request, name, "svg")


@router.get("/api/docs", response_class=HTMLResponse)
async def api_docs(request: Request) -> HTMLResponse:
    """The interactive API reference (Swagger UI from packaged assets: works offline, no inline script)."""
    return templates.TemplateResponse(
        request, "api_docs.html", {"openapi_url": request.app.openapi_url, "version": meadhall.__version__}
    )
