"""One lock, machine-wide, between the browsers and the drills that change this machine's network.

The drills of ``tests/server/netns.py`` add and remove links, addresses and a bridge in
the root network namespace. Chromium watches the machine's addresses and, when they
change, drops its connections: a request under way fails with
``net::ERR_NETWORK_CHANGED``, which a browser test rightly counts as an error of the page.
So a browser test holds the lock shared and a drill holds it alone, and the two never
overlap: not across pytest-xdist's workers, and not across two test runs on one machine
(the lock file is in the machine's temporary directory, not the run's).
"""

from __future__ import annotations

import contextlib
import fcntl
import tempfile
from collections.abc import Iterator
from pathlib import Path

LOCK_FILE = Path(tempfile.gettempdir()) / "meadhall-tests-root-network.lock"


@contextlib.contextmanager
def root_network(*, changes: bool) -> Iterator[None]:
    """Hold the lock: alone when the holder ``changes`` the root namespace's network, shared otherwise."""
    with LOCK_FILE.open("a") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX if changes else fcntl.LOCK_SH)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)
