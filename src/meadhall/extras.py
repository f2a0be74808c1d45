"""Optional parts of meadhall and the extra that installs each.

A plain ``pip install meadhall`` plays, serves and runs the arena. A few jobs need more
(``pip install 'meadhall[EXTRA]'``, extras named in pyproject.toml); they import what they
need through :func:`require`, so that a missing package is one plain line naming the
extra to install, not a traceback, and so that nothing else ever imports it.
"""

from __future__ import annotations

import importlib
from types import ModuleType

from meadhall.core.errors import MeadhallError


class MissingExtra(MeadhallError, ModuleNotFoundError):
    """A job needs a package that only an extra installs.

    Also a :class:`ModuleNotFoundError` (``name``: the missing package), so an import of a
    module that needs an extra fails as imports do, with a message naming the extra.
    """

    def __init__(self, job: str, module: str, extra: str) -> None:
        super().__init__(f"{job} needs {module}, which is not installed: pip install 'meadhall[{extra}]'")
        self.name = module
        self.job = job
        self.module = module
        self.extra = extra


def require(module: str, extra: str, job: str) -> ModuleType:
    """Import ``module`` for ``job``, or raise :class:`MissingExtra` naming ``extra``.

    Only the absence of ``module`` itself (or of its top-level package) becomes
    ``MissingExtra``; an installed package that fails to import still raises as it is.
    """
    try:
        return importlib.import_module(module)
    except ModuleNotFoundError as error:
        raise missing(error, extra, job, {module.split(".", 1)[0]}) from None


def missing(error: ModuleNotFoundError, extra: str, job: str, tops: set[str]) -> Exception:
    """What to raise for ``error`` met importing one of the packages ``tops`` (top-level names) for ``job``.

    :class:`MissingExtra` naming ``extra`` when the missing module is one of them; else
    ``error`` itself (an installed package that fails to import raises as it is). For
    modules that import an extra's packages at their top:
    ``except ModuleNotFoundError as error: raise missing(error, "rl", job, {"numpy"}) from None``.
    """
    top = (error.name or "").split(".", 1)[0]
    return MissingExtra(job, top, extra) if top in tops else error
