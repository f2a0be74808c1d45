"""``import meadhall.rl`` without numpy (a plain install) says which extra to install."""

from __future__ import annotations

import subprocess
import sys

BLOCKED = r"""
import importlib.abc, sys

class NoNumpy(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name.partition(".")[0] == "numpy":
            raise ModuleNotFoundError(f"No module named {name!r}", name=name)
        return None

sys.meta_path.insert(0, NoNumpy())
import meadhall.core.spaces  # the encodings themselves need no numpy
import meadhall.games.valda.spaces, meadhall.games.voluspa.spaces, meadhall.games.bloodrage_valhalla.spaces
try:
    import meadhall.rl
except ModuleNotFoundError as error:
    print(error)
"""


def test_import_without_numpy_names_the_extra() -> None:
    done = subprocess.run([sys.executable, "-c", BLOCKED], capture_output=True, text=True, timeout=120, check=True)
    assert done.stdout.strip() == "meadhall.rl needs numpy, which is not installed: pip install 'meadhall[rl]'"
