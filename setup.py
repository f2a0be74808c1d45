"""Build hook for the optional C search engines; everything else is in pyproject.toml.

The extensions are optional: without a C compiler meadhall installs and plays, and the
bots fall back to the pure-Python engines (slower, same rules).
"""

from setuptools import Extension, setup

setup(
    ext_modules=[
        Extension(
            "meadhall.games.voluspa._search",
            ["src/meadhall/games/voluspa/_search.c"],
            optional=True,
            extra_compile_args=["-O2", "-std=c11", "-Wall", "-Wno-unused-parameter"],
        ),
        Extension(
            "meadhall.games.valda._search",
            ["src/meadhall/games/valda/_search.c"],
            optional=True,
            extra_compile_args=["-O2", "-std=c11", "-Wall", "-Wno-unused-parameter"],
        ),
    ]
)
