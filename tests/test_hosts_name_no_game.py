"""The hosts are generic and the browser plugins only draw and pick.

* The web shell (templates, ``table.js``, ``replay.js``, ``common.js``), the terminal host
  (``cli/play.py``'s renderer lookup, ``cli/replay.py``) and the server's payload and
  history code find a game's parts through its :class:`~meadhall.core.game.Game` object:
  none names a game or imports a game's package.
* A game whose words are in its package (Völuspá) has a plugin that reads no notation and
  holds no rules constant or wording of the game: every tile's name, value and power, every
  label and prompt comes from the server.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

from meadhall.core.registry import all_games
from meadhall.games.voluspa.tiles import KINDS

SRC = Path(__file__).resolve().parents[1] / "src" / "meadhall"
WEB = SRC / "server" / "web"
SHELL = [
    WEB / "static" / "table.js",
    WEB / "static" / "replay.js",
    WEB / "static" / "common.js",
    WEB / "templates" / "table.html",
    WEB / "templates" / "replay.html",
    WEB / "templates" / "base.html",
]
GENERIC_PYTHON = [
    SRC / "cli" / "replay.py",
    SRC / "cli" / "tui.py",
    SRC / "cli" / "command_play.py",
    SRC / "server" / "games.py",
    SRC / "server" / "history.py",
    SRC / "server" / "pages.py",
    SRC / "core" / "words.py",
    SRC / "core" / "text.py",
]
VOLUSPA_PLUGIN = SRC / "games" / "voluspa" / "web" / "plugin.js"
VALDA_PLUGIN = SRC / "games" / "valda" / "web" / "plugin.js"


def _game_names() -> set[str]:
    names: set[str] = set()
    for game in all_games():
        names.update({game.info.name, game.info.title, *game.info.aliases})
        module = type(game).__module__  # its package: voluspa, bloodrage_valhalla, valda; meadhall_toy (installed)
        names.add(module.split(".")[2] if module.startswith("meadhall.games.") else module.split(".")[0])
    return {name.lower() for name in names if len(name) > 3}


def _strings_and_names(path: Path) -> str:
    """A Python module's code without its docstrings and comments (what runs, not what explains)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        first = body[0] if isinstance(body, list) and body else None
        if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
            first.value.value = ""
    return ast.unparse(tree).lower()


def test_the_web_shell_names_no_game() -> None:
    names = _game_names()
    for path in SHELL:
        text = path.read_text(encoding="utf-8").lower()
        found = sorted(name for name in names if name in text)
        assert not found, f"{path.relative_to(SRC)} names {found}: it must find the game's plugin by a generic rule"


def test_the_generic_python_hosts_name_no_game() -> None:
    names = _game_names()
    for path in GENERIC_PYTHON:
        code = _strings_and_names(path)
        found = sorted(name for name in names if re.search(rf"\b{re.escape(name)}\b", code))
        assert not found, f"{path.relative_to(SRC)} names {found}"
        assert "meadhall.games." not in code, f"{path.relative_to(SRC)} imports a game's package"


def test_the_terminal_finds_a_renderer_without_naming_a_game() -> None:
    source = (SRC / "cli" / "play.py").read_text(encoding="utf-8")
    tree = ast.parse(source)
    lookup = next(n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name == "renderer_for")
    code = ast.unparse(lookup).lower()
    assert not any(name in code for name in _game_names()), "renderer_for names a game"
    assert "meadhall.cli.play_" not in source, "cli/play.py imports a game's terminal module"


def test_every_game_ships_its_plugin_in_its_package() -> None:
    for game in all_games():
        plugin = game.web_plugin()
        assert plugin.is_file(), f"{game.info.name} has no web/plugin.js in its package"
        assert f"MeadhallGames[{game.info.name!r}]".replace("'", '"') in plugin.read_text(encoding="utf-8") or (
            f"MeadhallGames.{game.info.name} =" in plugin.read_text(encoding="utf-8")
        ), f"{game.info.name}'s plugin does not register itself under its name"
    assert not list((WEB / "static").glob("voluspa*.js")) and not list((WEB / "static").glob("bloodrage*.js"))


def _code(js: str) -> str:
    """JavaScript without its comments."""
    js = re.sub(r"/\*.*?\*/", "", js, flags=re.S)
    return "\n".join(line.split("//", 1)[0] if not line.strip().startswith("//") else "" for line in js.splitlines())


def test_the_voluspa_plugin_reads_no_notation() -> None:
    code = _code(VOLUSPA_PLUGIN.read_text(encoding="utf-8"))
    for sign in ('"@"', "'@'", "@(", ")@", "FR+", ":row", ":col", "discard:", ".match(", ".split(", "RegExp"):
        assert sign not in code, f"the Völuspá plugin reads notation ({sign!r})"
    bare = re.sub(r'"(?:\\.|[^"\\])*"|\'(?:\\.|[^\'\\])*\'|`(?:\\.|[^`\\])*`', '""', code)  # no string's text
    # A regular expression literal stands where a value starts: after ( , = : [ ! & | ? { ; or return.
    regexes = re.findall(r"(?:[(,=:\[!&|?{;]|\breturn)\s*(/(?![/*])(?:\\.|[^/\n])+/[gimsuy]*)", bare)
    assert not regexes, f"the Völuspá plugin holds regular expressions: {regexes}"


def test_the_voluspa_plugin_holds_no_rules_constant_or_wording() -> None:
    code = _code(VOLUSPA_PLUGIN.read_text(encoding="utf-8"))
    for kind in KINDS:
        assert kind.name not in code, f"the plugin names the tile {kind.name}: names come from the components"
        assert kind.power not in code, f"the plugin holds the power of {kind.name}"
    # Reading the number a "scored" event carries (for its +N pulse) neither words nor judges it.
    code = code.replace("event.points", "event.<field>")
    for sign in ("points", "dominat", "Hermod", "Raven", "Freya", "boost +", "+ boost", "value +", "Turn ", "discard"):
        assert sign not in code, f"the plugin words or judges the game itself ({sign!r})"


BLOODRAGE_PLUGIN = SRC / "games" / "bloodrage_valhalla" / "web" / "plugin.js"


def test_the_bloodrage_plugin_reads_no_notation_and_words_nothing_of_the_game() -> None:
    from meadhall.games.bloodrage_valhalla.packs import default_content

    code = _code(BLOODRAGE_PLUGIN.read_text(encoding="utf-8"))
    for sign in ('"@"', "'@'", '">"', '":"', ".match(", ".split(", "RegExp", "parse("):
        assert sign not in code, f"the Blood Rage plugin reads notation ({sign!r})"
    content = default_content()
    names = [
        *(r.name for r in content.regions.values()),
        *(g.name for g in content.gods.values()),
        *(m.name for m in content.monsters.values()),
        *(c.name for c in content.cards.values()),
    ]
    for name in names:
        assert name not in code, f"the plugin names {name}: names come from the components"
    for sign in ("Glory", "Rage", "Summon", "March", "Contest", "Warrior", "Elite", "Ragnar", "Bear", "Raven"):
        assert sign not in code, f"the plugin words the game itself ({sign!r}): the words come from the server"
    from meadhall.games.bloodrage_valhalla.words import CLAN_COLOURS, CLANS, STAT_NAMES

    for name in (*CLANS, *STAT_NAMES.values()):
        assert name not in code, f"the plugin names {name}: the clans and tracks come from the components"
    for clan_colour in CLAN_COLOURS:
        assert clan_colour not in code, f"the plugin holds the clan colour {clan_colour}: it comes from the content"


def test_the_valda_plugin_reads_no_notation_and_words_nothing_of_the_game() -> None:
    from meadhall.games.valda.content import default_content

    code = _code(VALDA_PLUGIN.read_text(encoding="utf-8"))
    for sign in ('split(":")', 'split(">")', ".match(", "RegExp", "function parse", "eventText", "ranking"):
        assert sign not in code, f"the Valda plugin reads notation or words the game ({sign!r})"
    content = default_content()
    for name in [*(god.name for god in content.gods.values()), *(card.name for card in content.cards.values())]:
        assert name not in code, f"the plugin names {name}: names come from the components"
    # An event's kind compared (the motion for a "followers" event) is an identifier, not a word shown.
    code = re.sub(r'event\.kind === "[\w-]+"', "event.kind === <kind>", code)
    for sign in ("follower", "divine blood", "diamond", "gold", "temple", "freya", "attack", "round ", "pass"):
        # the view's fields (info.followers) and class names (follower-token) are not words
        found = re.search(rf"(?<![.\w-]){sign}s?(?![\w-])", code, re.IGNORECASE)
        assert not found, f"the plugin words the game itself ({sign!r})"


# --- plugins word nothing: every word a player reads on the board is the game's ---------------

#: A string literal of a script (its quotes included): "...", '...' or `...`.
_LITERAL = re.compile(r'"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\'|`(?:\\.|[^`\\])*`')
#: A capitalised or upper-case word (``Last``, ``STR``): a word written for people.
_SHOWN_WORD = re.compile(r"(?<![\w$-])[A-Z][A-Za-z]+(?![\w-])")
#: The little words of an English phrase, which no class name, key or event kind is.
_PHRASE_WORD = re.compile(
    r"(?<![\w$.#-])(?:the|a|an|you|your|of|to|for|from|and|is|are|no|not|with|by|at|in|on)(?![\w-])"
)
#: Two words with a space between them: the start of a phrase (or of a list of class names).
_TWO_WORDS = re.compile(r"[A-Za-z]+ +[A-Za-z]+")
#: Literals that are names for the browser, not words for people: HTTP methods and key names.
_BROWSER_NAMES = frozenset({"GET", "POST", "Escape", "Enter", "Tab", "ArrowLeft", "ArrowRight", "ArrowUp", "ArrowDown"})


def _without_substitutions(literal: str) -> str:
    """A template literal's text with each ``${...}`` (code, not words) left out."""
    kept, depth = [], 0
    index = 0
    while index < len(literal):
        if depth == 0 and literal.startswith("${", index):
            depth, index = 1, index + 2
            continue
        if depth:
            depth += {"{": 1, "}": -1}.get(literal[index], 0)
        else:
            kept.append(literal[index])
        index += 1
    return "".join(kept)


def words_written_in(js: str, keys: frozenset[str] = frozenset()) -> list[str]:
    """The string literals of a script (comments aside) that hold words for people.

    A literal holds words if it has a capitalised or upper-case word, or is a phrase with a
    little word of English in it (``hidden from you``); a literal that is only a browser's name (``Escape``)
    or the key of a game's component (``OD``, a tile) names something and says nothing.
    """
    found = []
    for match in _LITERAL.finditer(_code(js)):
        text = _without_substitutions(match.group(0)[1:-1])
        if text in _BROWSER_NAMES or text in keys:
            continue
        phrase = _TWO_WORDS.search(text) and _PHRASE_WORD.search(text)  # a lone "to" is a field's name
        if _SHOWN_WORD.search(text) or phrase:
            found.append(match.group(0))
    return found


def test_the_signs_of_words_are_read_right() -> None:
    said = 'panel.append(el("h4", {}, "Last battle")); // "Comments" say nothing'
    assert words_written_in(said) == ['"Last battle"']
    assert words_written_in("title.textContent = `Your pack (${shown.length})`;") == ["`Your pack (${shown.length})`"]
    assert words_written_in("`${ctx.seatName(Number(seat))}: STR ${total}`") == [
        "`${ctx.seatName(Number(seat))}: STR ${total}`"
    ]
    assert words_written_in("x = `Open cards: ${n}, hidden from you`") == ["`Open cards: ${n}, hidden from you`"]
    assert words_written_in("h = 'cards for you to choose from';") == ["'cards for you to choose from'"]
    quiet = (
        'el("span", { class: `action die die-${colour}` }); if (e.key === "Escape") api("GET", `/api/${id}`); c["OD"]'
    )
    assert words_written_in(quiet, frozenset({"OD"})) == []
    assert words_written_in('c["OD"]') == ['"OD"']  # a key of no component is a word
    assert words_written_in('spots[event.to]; e["from"]; q("button:not([disabled])")') == []


def test_no_plugin_words_anything_itself() -> None:
    """Every heading, name and count a plugin shows is the game's words (``titles``, ``places``, components)."""
    for game in all_games():
        words = game.words()
        keys = frozenset(part["key"] for part in words.components()) if words is not None else frozenset()
        written = words_written_in(game.web_plugin().read_text(encoding="utf-8"), keys)
        assert not written, (
            f"{game.info.name}'s plugin words {written} itself: put them in its words (GameWords.titles) and draw them"
        )
