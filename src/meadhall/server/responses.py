"""The JSON response class of the API: encoded by orjson."""

from __future__ import annotations

from typing import Any

import orjson
from fastapi.responses import JSONResponse


class FastJSON(JSONResponse):
    """JSON responses encoded by orjson."""

    def render(self, content: Any) -> bytes:
        """Encode ``content``."""
        return orjson.dumps(content)
