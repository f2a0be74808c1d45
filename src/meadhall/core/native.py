"""What a game's C search engine and its Python bridge check of each other at import.

A C engine (``games/<game>/_search.c``) is a second implementation of the rules, built
once and loaded later, so it could be built from other numbers than the Python engine
holds: a stale build, or an edit made on one side only. Each engine writes every
numbering once in C (an enum and its names from one list) and exports them with the
rules' constants it was compiled with: ``NAMES`` (numbering -> names in enum order) and
``RULES`` (constant -> value). Its bridge calls :func:`check_engine` with the Python
engine's own names and constants, the source of both; any difference is a
:class:`NativeMismatch` when the bridge is imported, naming every differing entry, and
never a search that quietly plays other rules.

The engines draw random numbers with ``core/rng.h``, this package's generator in C
(the same draws as :class:`meadhall.core.rng.Rng`).
"""

from __future__ import annotations

from collections.abc import Mapping
from types import ModuleType
from typing import Any


class NativeMismatch(ImportError):
    """A C engine built with other numberings or rules constants than the Python engine's."""


def check_engine(module: ModuleType, names: Mapping[str, tuple[Any, ...]], rules: Mapping[str, Any]) -> None:
    """Raise :class:`NativeMismatch` unless ``module`` numbers and counts as the Python engine does.

    ``names``: numberings the module must export (its ``NAMES``) exactly in this order;
    ``rules``: every rules constant of its ``RULES``, with these values (tuples compare
    as the module gives them: lists and tuples alike).
    """
    exported_names = getattr(module, "NAMES", None)
    exported_rules = getattr(module, "RULES", None)
    if not isinstance(exported_names, Mapping) or not isinstance(exported_rules, Mapping):
        raise NativeMismatch(f"{module.__name__} exports no NAMES and RULES: it is older than its bridge; rebuild it")
    problems = [
        f"NAMES[{key!r}] is {_shown(exported_names.get(key))} there, {_shown(value)} here"
        for key, value in names.items()
        if _plain(exported_names.get(key)) != _plain(value)
    ]
    problems += [
        f"RULES[{key!r}] is {_shown(exported_rules.get(key))} there, {_shown(value)} here"
        for key, value in rules.items()
        if _plain(exported_rules.get(key)) != _plain(value)
    ]
    problems += [f"RULES[{key!r}] is not checked here" for key in exported_rules if key not in rules]
    if problems:
        raise NativeMismatch(
            f"{module.__name__} was built with other numbers than the Python engine's; rebuild it "
            "(pip install -e .) or bring the two sides together: " + "; ".join(problems)
        )


def _plain(value: Any) -> Any:
    """``value`` with lists and tuples alike (C exports tuples, Python may hold either)."""
    if isinstance(value, (list, tuple)):
        return tuple(_plain(item) for item in value)
    if isinstance(value, Mapping):
        return {key: _plain(item) for key, item in value.items()}
    return value


def _shown(value: Any) -> str:
    return "missing" if value is None else repr(_plain(value))
