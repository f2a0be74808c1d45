"""The architecture's rules, read from the source.

* The rules layer is pure: it does no I/O and imports nothing above it.
* No import circles between modules.
* Layers go one way: core <- games <- bots <- lab <- cli and server.
* Generic code names no game: not the core, bots, lab, CLI or server modules, nor the
  browser's shared templates and scripts.
* Browser plugins draw: they parse no notation and hold no rules constants.

Where the code does not keep a rule yet, the violation is listed below with the reason it
stands. The lists only shrink: a test fails on any
violation not listed, and on a listed one that is gone (take it off the list).
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from functools import cache
from pathlib import Path

from meadhall.core.registry import all_games

SRC = Path(__file__).resolve().parents[1] / "src" / "meadhall"
PURE = [SRC / "core", SRC / "games"]
FORBIDDEN_PREFIXES = ("meadhall.cli", "meadhall.server", "meadhall.web", "meadhall.bots", "meadhall.rl", "meadhall.lab")
FORBIDDEN_MODULES = {"socket", "subprocess", "sqlite3", "urllib", "http", "asyncio", "threading", "multiprocessing"}
FORBIDDEN_CALLS = {"open", "print", "input"}
STATIC = SRC / "server" / "web" / "static"
TEMPLATES = SRC / "server" / "web" / "templates"

# --- the lists of known violations (each entry says why it stands) -----------------------------

#: Import edges that close a circle, each with the reason it stands.
CIRCLE_EDGES: dict[tuple[str, str], str] = {}

#: Import edges that go against the layers, each with the reason it stands.
LAYER_EDGES: dict[tuple[str, str], str] = {}

#: Generic files (relative to src/meadhall) that name games, the games they name, and why.
GAME_NAMES: dict[str, tuple[frozenset[str], str]] = {}

#: Browser plugins (by file name) that still parse notation, and why.
PLUGINS_PARSING_NOTATION: dict[str, str] = {}

#: Numbers a plugin may keep because they are about drawing (sizes in pixels), by file.
DRAWING_CONSTANTS: dict[str, frozenset[str]] = {
    "games/voluspa/web/plugin.js": frozenset({"CELL"}),
    "games/bloodrage_valhalla/web/plugin.js": frozenset(
        {"FIGURE", "FJORD", "GAP", "PER_ROW", "RING_INNER", "RING_OUTER", "TOKEN", "VALHALLA_R", "WORDS"}
    ),
    "games/valda/web/plugin.js": frozenset({"TRACK_AHEAD"}),
}

#: Rules constants plugins still hold (file, name), and why.
PLUGIN_RULES_CONSTANTS: dict[tuple[str, str], str] = {}

# --- the module graph -----------------------------------------------------------------------------

#: The layers from the bottom up; a module imports only modules of its layer or below.
#: meadhall.testing (the conformance suite) plays games as the lab does, so it sits in the lab's layer;
#: so does meadhall.rl (environments play games against the bots).
LAYERS: list[tuple[str, tuple[str, ...]]] = [
    ("core", ("meadhall", "meadhall.core")),
    ("games", ("meadhall.games",)),
    ("bots", ("meadhall.bots", "meadhall.extras")),
    (
        "lab",
        (
            "meadhall.lab",
            "meadhall.rl",
            "meadhall.testing",
        ),
    ),
    ("interfaces", ("meadhall.cli", "meadhall.server")),
]


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(SRC.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


@cache
def modules() -> dict[str, Path]:
    """Every Python module of meadhall by name (a package by its ``__init__``)."""
    return {_module_name(path): path for path in sorted(SRC.rglob("*.py"))}


@cache
def extensions() -> frozenset[str]:
    """The C extensions (known by their stubs): modules that import nothing of meadhall."""
    return frozenset(_module_name(path) for path in SRC.rglob("*.pyi"))


def _type_checking_only(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _import_nodes(node: ast.AST) -> Iterator[ast.Import | ast.ImportFrom]:
    """Every import that runs at some point: in functions too, not under ``if TYPE_CHECKING:``."""
    for child in ast.iter_child_nodes(node):
        if isinstance(child, ast.If) and _type_checking_only(child):
            for other in child.orelse:
                yield from _import_nodes_of(other)
            continue
        yield from _import_nodes_of(child)


def _import_nodes_of(node: ast.AST) -> Iterator[ast.Import | ast.ImportFrom]:
    if isinstance(node, (ast.Import, ast.ImportFrom)):
        yield node
    yield from _import_nodes(node)


def _resolve(name: str) -> str | None:
    """The meadhall module ``name`` means (a name in a module means that module), if any."""
    known = modules()
    while name and name not in known and name not in extensions():
        if "." not in name:
            return None
        name = name.rsplit(".", 1)[0]
    return name if name.startswith("meadhall") else None


def _imports(name: str, path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    package = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
    found: set[str] = set()
    for node in _import_nodes(tree):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        else:
            base = node.module or ""
            if node.level:
                base = ".".join(package[: len(package) - node.level + 1] + ([node.module] if node.module else []))
            targets = [f"{base}.{alias.name}" for alias in node.names]
        for target in targets:
            resolved = _resolve(target)
            if resolved is not None and resolved != name:
                found.add(resolved)
    return found


@cache
def graph() -> dict[str, frozenset[str]]:
    """Who imports whom, from the source.

    Importing ``a.b.c`` runs the packages' ``__init__`` first; those implicit edges are not
    counted (a package's face re-exporting its own modules makes no circle). An import of
    a package counts as an import of its ``__init__``.
    """
    return {name: frozenset(_imports(name, path)) for name, path in modules().items()}


def _circles(edges: dict[str, frozenset[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    for root in sorted(edges):
        if root in index:
            continue
        work: list[tuple[str, Iterator[str]]] = [(root, iter(sorted(edges[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(edges.get(child, ())))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return found


def _describe(circle: list[str], edges: dict[str, frozenset[str]]) -> str:
    members = set(circle)
    inner = [f"{a} -> {b}" for a in circle for b in sorted(edges[a]) if b in members]
    return "; ".join(inner)


def layer_of(module: str) -> int:
    """The rank of a module's layer (0 = core), from the longest matching prefix in LAYERS."""
    best: tuple[int, int] | None = None
    for rank, (_, prefixes) in enumerate(LAYERS):
        for prefix in prefixes:
            exact_only = prefix == "meadhall"  # the package's face; its modules are placed by their own prefixes
            matches = module == prefix or (not exact_only and module.startswith(prefix + "."))
            if matches and (best is None or len(prefix) > best[1]):
                best = (rank, len(prefix))
    assert best is not None, f"{module} is in no layer: add its package to LAYERS in tests/test_architecture.py"
    return best[0]


def _game_package(module: str) -> str | None:
    parts = module.split(".")
    return ".".join(parts[:3]) if len(parts) >= 3 and parts[:2] == ["meadhall", "games"] else None


def layer_violations(edges: dict[str, frozenset[str]]) -> set[tuple[str, str]]:
    """Import edges against the layers (and between games, and from the server to the CLI)."""
    wrong = set()
    for source, targets in edges.items():
        for target in targets:
            if target in extensions():
                continue
            if layer_of(target) > layer_of(source):
                wrong.add((source, target))
            elif source.startswith("meadhall.core") and not target.startswith("meadhall.core"):
                wrong.add((source, target))  # the core imports only the core
            elif source.startswith("meadhall.games") and target.startswith("meadhall.games"):
                if _game_package(source) != _game_package(target):
                    wrong.add((source, target))  # a game imports only the core and its own package
            elif source.startswith("meadhall.server") and target.startswith("meadhall.cli"):
                wrong.add((source, target))  # the CLI starts the server, never the other way
    return wrong


# --- the rules layer is pure ----------------------------------------------------------------------


def _python_files() -> list[Path]:
    return [path for folder in PURE for path in folder.rglob("*.py")]


def test_rules_layer_imports_nothing_above_it() -> None:
    problems = []
    for path in _python_files():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            names: list[str] = []
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module]
            for name in names:
                if name.startswith(FORBIDDEN_PREFIXES) or name.split(".")[0] in FORBIDDEN_MODULES:
                    problems.append(f"{path.relative_to(SRC)} imports {name}")
    assert not problems, problems


def test_rules_layer_does_no_io() -> None:
    problems = []
    for path in _python_files():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in FORBIDDEN_CALLS:
                problems.append(f"{path.relative_to(SRC)}:{node.lineno} calls {node.func.id}()")
    assert not problems, problems


def test_no_deepcopy_in_the_engines() -> None:
    for path in _python_files():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            used = (isinstance(node, ast.Attribute) and node.attr == "deepcopy") or (
                isinstance(node, ast.Name) and node.id == "deepcopy"
            )
            assert not used, f"{path}:{getattr(node, 'lineno', '?')} uses deepcopy"


# --- import circles and layers --------------------------------------------------------------------


def test_the_import_graph_is_read_right() -> None:
    edges = graph()
    assert "meadhall.core.search" in edges["meadhall.core.game"]  # a top-level import
    assert "meadhall.games.voluspa.words" in edges["meadhall.games.voluspa.game"]  # an import inside a function
    assert "meadhall.core.game" not in edges["meadhall.core.search"]  # for type checking only
    assert "meadhall.games.voluspa._search" in edges["meadhall.games.voluspa.search"]  # a C extension
    assert "meadhall.server.deps" in edges["meadhall.server.api.lobby"]
    assert _circles({"a": frozenset({"b"}), "b": frozenset({"c"}), "c": frozenset({"a"}), "d": frozenset({"a"})}) == [
        ["a", "b", "c"]
    ]


def test_no_import_circles() -> None:
    edges = graph()
    cut = {
        source: frozenset(t for t in targets if (source, t) not in CIRCLE_EDGES) for source, targets in edges.items()
    }
    circles = [_describe(circle, cut) for circle in _circles(cut)]
    assert not circles, "import circles (a module imports one that imports it back):\n" + "\n".join(circles)


def test_the_known_circles_are_still_there() -> None:
    edges = graph()
    members = {module for circle in _circles(edges) for module in circle}
    gone = [f"{a} -> {b}" for a, b in CIRCLE_EDGES if b not in edges.get(a, ()) or a not in members]
    assert not gone, f"these edges close no circle any more: take them off CIRCLE_EDGES: {gone}"


def test_every_module_is_in_a_layer() -> None:
    for module in modules():
        layer_of(module)


def test_layers_go_one_way() -> None:
    wrong = layer_violations(graph())
    new = sorted(f"{a} -> {b}" for a, b in wrong - LAYER_EDGES.keys())
    assert not new, "imports against the layers (core <- games <- bots <- lab <- cli, server):\n" + "\n".join(new)
    gone = sorted(f"{a} -> {b}" for a, b in LAYER_EDGES.keys() - wrong)
    assert not gone, f"these imports are gone or allowed now: take them off LAYER_EDGES: {gone}"


def test_the_layer_rules_catch_what_they_should() -> None:
    edges = {
        "meadhall.core.registry": frozenset({"meadhall.games.voluspa"}),  # the core imports a game
        "meadhall.core.game": frozenset({"meadhall"}),  # the core imports the package face
        "meadhall.games.valda.state": frozenset({"meadhall.games.voluspa.board", "meadhall.core.rng"}),
        "meadhall.bots.greedy": frozenset({"meadhall.cli.play"}),
        "meadhall.lab.arena": frozenset({"meadhall.bots", "meadhall.games.valda"}),  # allowed
        "meadhall.server.app": frozenset({"meadhall.cli.main", "meadhall.bots"}),
    }
    assert layer_violations(edges) == {
        ("meadhall.core.registry", "meadhall.games.voluspa"),
        ("meadhall.core.game", "meadhall"),
        ("meadhall.games.valda.state", "meadhall.games.voluspa.board"),
        ("meadhall.bots.greedy", "meadhall.cli.play"),
        ("meadhall.server.app", "meadhall.cli.main"),
    }


def _exception_classes(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return [
        node.name
        for node in ast.walk(tree)
        if isinstance(node, ast.ClassDef)
        and any(isinstance(base, ast.Name) and base.id.endswith(("Exception", "Error")) for base in node.bases)
    ]


def test_the_server_refuses_with_one_error_family() -> None:
    defined = {
        f"{path.relative_to(SRC)}: {name}"
        for path in sorted((SRC / "server").rglob("*.py"))
        for name in _exception_classes(path)
    }
    assert defined == {"server/errors.py: ApiError"}


# --- generic code names no game -------------------------------------------------------------------


@cache
def game_words() -> dict[str, str]:
    """Every registered game's name, aliases, title and package name (lower case) -> the game's name."""
    words: dict[str, str] = {}
    for game in all_games():
        module = type(game).__module__
        package = module.split(".")[2] if module.startswith("meadhall.games.") else module.split(".")[0]
        for word in (game.info.name, game.info.title, package, *game.info.aliases):
            words[word.lower()] = game.info.name
    return words


@cache
def _game_word_pattern() -> re.Pattern[str]:
    words = sorted(game_words(), key=len, reverse=True)
    # A word stands alone: no letter or digit right before or after it ('_', '-', '.', '/' separate).
    return re.compile(r"(?<![^\W_])(" + "|".join(map(re.escape, words)) + r")(?![^\W_])")


def games_named_in(text: str) -> set[str]:
    """The games ``text`` names (camelCase words are split first: ``VoluspaRenderer``)."""
    split = re.sub(r"(?<=[a-zà-ÿ])(?=[A-Z])", " ", text).lower()
    return {game_words()[match.group(1)] for match in _game_word_pattern().finditer(split)}


def _python_code_text(path: Path) -> str:
    """The names and strings of a module's code: its docstrings and comments are prose and left out."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    docstrings = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                docstrings.add(id(first.value))
    pieces: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings:
            pieces.append(node.value)
        elif isinstance(node, ast.Name):
            pieces.append(node.id)
        elif isinstance(node, ast.Attribute):
            pieces.append(node.attr)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            pieces.append(node.name)
        elif isinstance(node, (ast.arg, ast.keyword)) and node.arg:
            pieces.append(node.arg)
        elif isinstance(node, ast.alias):
            pieces += [node.name, node.asname or ""]
        elif isinstance(node, ast.ImportFrom) and node.module:
            pieces.append(node.module)
    return "\n".join(pieces)


def is_plugin(path: Path) -> bool:
    """A game's browser plugin: a script in the ``web`` folder of a game's package."""
    return path.suffix == ".js" and path.parent.name == "web" and (SRC / "games") in path.parents


#: Comments in scripts and templates (prose, like docstrings): /* ... */, // ..., <!-- ... -->, {# ... #}.
COMMENTS = re.compile(r"/\*.*?\*/|(?:^|(?<=[\s;{}(),]))//[^\n]*|<!--.*?-->|\{#.*?#\}", re.DOTALL)


def generic_files() -> dict[str, str]:
    """The generic files' code to search (comments and docstrings left out), by path relative to src/meadhall."""
    texts = {}
    for name, path in modules().items():
        if name == "meadhall.games" or _game_package(name) is None:
            texts[str(path.relative_to(SRC))] = _python_code_text(path)
    for path in [*sorted(TEMPLATES.glob("*.html")), *sorted(STATIC.glob("*.js")), *sorted(STATIC.glob("*.css"))]:
        if not is_plugin(path):
            texts[str(path.relative_to(SRC))] = COMMENTS.sub(" ", path.read_text(encoding="utf-8"))
    return texts


def test_the_game_names_are_read_right() -> None:
    assert games_named_in("from meadhall.cli.play_voluspa import VoluspaRenderer") == {"voluspa"}
    assert games_named_in('if game.info.name == "bloodrage-valhalla":') == {"bloodrage-valhalla"}
    assert games_named_in("<script src='/static/valda.js'>") == {"valda"}
    assert games_named_in("Völuspá; Blood Rage: Valhalla") == {"voluspa", "bloodrage-valhalla"}
    assert games_named_in("volume, validate, evaluation, bloodrager, valdation") == set()
    assert "server/web/static/table.js" in generic_files() and "games/voluspa/web/plugin.js" not in generic_files()
    assert "server/web/static/style.css" in generic_files() and "games/voluspa/web/plugin.css" not in generic_files()
    assert is_plugin(SRC / "games" / "voluspa" / "web" / "plugin.js") and not is_plugin(STATIC / "table.js")
    assert "core/registry.py" in generic_files() and "games/voluspa/game.py" not in generic_files()
    code = "/* Völuspá */ const url = 'https://x/valda'; // voluspa.js\n<!-- valda --> {# valda #} go(); // bloodrage"
    stripped = COMMENTS.sub(" ", code)
    assert "'https://x/valda'" in stripped and "go();" in stripped
    assert games_named_in(stripped) == {"valda"}  # the address only


def test_generic_code_names_no_game() -> None:
    problems = []
    found_in: dict[str, set[str]] = {}
    for relative, text in generic_files().items():
        named = games_named_in(text)
        if named:
            found_in[relative] = named
        allowed = GAME_NAMES.get(relative, (frozenset(), ""))[0]
        if named - allowed:
            problems.append(f"{relative} names {', '.join(sorted(named - allowed))}")
    assert not problems, "generic code names games (find the game's part through the registry):\n" + "\n".join(problems)
    stale = [f"{relative} ({', '.join(sorted(allowed - found_in.get(relative, set())))})"
             for relative, (allowed, _) in GAME_NAMES.items() if allowed - found_in.get(relative, set())]  # fmt: skip
    assert not stale, f"these files no longer name these games: shrink GAME_NAMES: {stale}"


# --- the shell's stylesheet holds what the games share ----------------------------------------------

#: Classes the shell's style.css offers every board although one game's plugin uses them so far, and why.
SHARED_PIECES: dict[str, str] = {
    "hand-tile": "a hand of tokens coloured by --tile, for any game that draws its hand as tiles",
}


def _styled_classes(css: str) -> set[str]:
    """The class names a stylesheet's selectors name."""
    selectors = re.findall(r"([^{}]+)\{", re.sub(r"/\*.*?\*/", " ", css, flags=re.DOTALL))
    return {name for selector in selectors for name in re.findall(r"\.([A-Za-z][\w-]*)", selector)}


def _uses_class(name: str, text: str) -> bool:
    return re.search(r"(?<![\w-])" + re.escape(name) + r"(?![\w-])", text) is not None


def test_the_shell_stylesheet_holds_no_one_games_look() -> None:
    shell = [path.read_text("utf-8") for path in [*sorted(STATIC.glob("*.js")), *sorted(TEMPLATES.glob("*.html"))]]
    plugins = [path.read_text("utf-8") for path in sorted((SRC / "games").glob("*/web/*.js"))]
    assert _styled_classes(".a b.c, svg.d:hover { x: 1 } /* .e */ .f-g::before {}") == {"a", "c", "d", "f-g"}
    one_game = sorted(
        name
        for name in _styled_classes((STATIC / "style.css").read_text("utf-8"))
        if not any(_uses_class(name, text) for text in shell)
        and sum(_uses_class(name, text) for text in plugins) < 2
        and name not in SHARED_PIECES
    )
    assert not one_game, f"style.css styles classes of one game's board: move them to its web/plugin.css: {one_game}"


# --- browser plugins draw -------------------------------------------------------------------------

#: Signs of reading notation in a script: a parser function, a split on a notation
#: separator, a regular expression over a move (with '@' or '>').
NOTATION_PARSING = [
    re.compile(r"\bfunction\s+parse\w*\s*\("),
    re.compile(r"\bparse\w*\s*=\s*(?:function\b|\([^)]*\)\s*=>)"),
    re.compile(r"""\.split\(\s*["'][:@>]["']\s*\)"""),
    re.compile(r"\.match\(\s*/[^/\n]*[@>][^/\n]*/"),
]
#: An upper-case constant bound to a number or a list of numbers.
NUMBER_CONSTANT = re.compile(r"\b([A-Z][A-Z0-9_]*)\s*=\s*(?:-?\d|\[\s*-?\d)")


def _scripts() -> list[Path]:
    """The web shell's scripts and every game's plugin scripts."""
    return [*sorted(STATIC.glob("*.js")), *sorted((SRC / "games").glob("*/web/*.js"))]


def _key(path: Path) -> str:
    return str(path.relative_to(SRC))


def parses_notation(text: str) -> bool:
    """Whether a script shows a sign of reading notation."""
    return any(pattern.search(text) for pattern in NOTATION_PARSING)


def test_the_notation_signs_are_read_right() -> None:
    assert parses_notation('const [kind, ...rest] = text.split(":");')
    assert parses_notation("function parse(text) {")
    assert parses_notation(r"const m = step.match(/^([A-Z]{2})@(-?\d+)$/i);")
    assert not parses_notation("const match = document.cookie.match(/(?:^|; )meadhall_csrf=([^;]*)/);")
    assert not parses_notation("words.split(' ')")
    assert NUMBER_CONSTANT.findall("const SAFE = [5, 12, 20];\nconst SITES = 5, TRACK = 30;\nconst CELL = x;") == [
        "SAFE",
        "SITES",
        "TRACK",
    ]


def test_the_browser_shell_parses_no_notation() -> None:
    parsing = [path.name for path in _scripts() if not is_plugin(path) and parses_notation(path.read_text("utf-8"))]
    assert not parsing, f"the shared scripts read notation (the server sends labels): {parsing}"


def test_browser_plugins_parse_no_notation() -> None:
    plugins = [path for path in _scripts() if is_plugin(path)]
    assert plugins
    parsing = {_key(path) for path in plugins if parses_notation(path.read_text("utf-8"))}
    new = sorted(parsing - PLUGINS_PARSING_NOTATION.keys())
    assert not new, f"these plugins read notation (the server sends each action's label and group): {new}"
    gone = sorted(PLUGINS_PARSING_NOTATION.keys() - parsing)
    assert not gone, f"these plugins read no notation any more: take them off PLUGINS_PARSING_NOTATION: {gone}"


def test_browser_plugins_hold_no_rules_constants() -> None:
    held = set()
    for path in _scripts():
        if is_plugin(path):
            drawing = DRAWING_CONSTANTS.get(_key(path), frozenset())
            held |= {(_key(path), name) for name in NUMBER_CONSTANT.findall(path.read_text("utf-8"))} - {
                (_key(path), name) for name in drawing
            }
    new = sorted(held - PLUGIN_RULES_CONSTANTS.keys())
    assert not new, (
        "plugins hold numbers: rules constants belong in the game's view or content; a drawing size goes in "
        f"DRAWING_CONSTANTS: {new}"
    )
    gone = sorted(PLUGIN_RULES_CONSTANTS.keys() - held)
    assert not gone, f"these constants are gone: take them off PLUGIN_RULES_CONSTANTS: {gone}"
