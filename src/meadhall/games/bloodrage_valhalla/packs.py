"""Blood Rage: Valhalla's content packs: the default one, and custom packs by digest.

Apart from the game object (:mod:`meadhall.games.bloodrage_valhalla.game`) so that the
game's words, which name cards and regions from a view's pack, need not import it.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache
from typing import Any

from meadhall.core.content import parsed_pack
from meadhall.core.errors import InvalidOptions
from meadhall.core.game import CONTENT_PACK_OPTION
from meadhall.games.bloodrage_valhalla.content import Content, ContentError, load_default, parse_content


@lru_cache(maxsize=1)
def default_content() -> Content:
    """The default content pack (read once)."""
    return load_default()


def content_of(options: Mapping[str, Any]) -> Content:
    """The content pack an options mapping names, whole or by reference.

    A custom pack is checked once and kept by its digest in the one content cache
    (:func:`meadhall.core.content.parsed_pack`): bots rebuild the options of every view
    they are shown, and checking a whole pack each time would cost more than the
    thinking. A :class:`Content` is immutable, so games may share it.
    """
    value = options.get("content", "default")
    if value == "default":
        return default_content()
    try:
        return parsed_pack(value, parse_content)
    except ContentError as error:  # said where in the pack and what is wrong
        raise InvalidOptions(f"{CONTENT_PACK_OPTION.title}: {error}") from None
    except (KeyError, TypeError, ValueError) as error:
        raise InvalidOptions(f"{CONTENT_PACK_OPTION.title}: the pack does not load ({error})") from None
