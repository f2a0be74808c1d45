"""Build hook for the optional C search engines; everything else is in pyproject.toml.

The extensions are optional: without a C compiler meadhall installs and plays, and the
bots fall back to the pure-Python engines (slower, same rules). Both include
``src/meadhall/core/rng.h``, the one random generator of meadhall.core.rng in C, and
``src/meadhall/core/search_ext.h``, the CPython glue they share.
"""

from setuptools import Extension, setup

HEADERS = ["src/meadhall/core/rng.h", "src/meadhall/core/search_ext.h"]


def search_engine(game: str) -> Extension:
    """The C search engine of one game (``games/<game>/_search.c``)."""
    return Extension(
        f"meadhall.games.{game}._search",
        [f"src/meadhall/games/{game}/_search.c"],
        include_dirs=["src/meadhall/core"],
        depends=HEADERS,
        optional=True,
        extra_compile_args=["-O2", "-std=c11", "-Wall", "-Wno-unused-parameter"],
    )


setup(ext_modules=[search_engine("voluspa"), search_engine("valda")])
