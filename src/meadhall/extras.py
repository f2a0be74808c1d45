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


class MissingExtra(MeadhallError):
    """A job needs a package that only an extra installs."""

    def __init__(self, job: str, module: str, extra: str) -> None:
        super().__init__(f"{job} needs {module}, which is not installed: pip install 'meadhall[{extra}]'")
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
        top = module.split(".", 1)[0]
        if error.name is None or error.name.split(".", 1)[0] != top:
            raise
        raise MissingExtra(job, top, extra) from None
