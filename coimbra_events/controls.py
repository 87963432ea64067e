"""Characters a record may hold but no reader should be handed raw: the control characters (Unicode's category
Cc: C0, DEL, C1), which a terminal obeys (``ESC[2J`` clears the screen), and the bidirectional overrides and
isolates, which reorder what is read. Front-ends refuse them in what people type; what a record holds already
(an old log) is written with each of them escaped wherever it is shown (``cli.terminal``, the move list)."""

from __future__ import annotations

import re

CONTROLS = (*range(0x00, 0x20), 0x7F, *range(0x80, 0xA0))
"""Category Cc."""
OVERRIDES = (*range(0x202A, 0x202F), *range(0x2066, 0x206A))
"""LRE, RLE, PDF, LRO, RLO; LRI, RLI, FSI, PDI."""
_FOUND = re.compile("[" + "".join(re.escape(chr(c)) for c in (*CONTROLS, *OVERRIDES)) + "]")
_JSON_ESCAPES = {c: f"\\u{c:04x}" for c in (0x7F, *range(0x80, 0xA0), *OVERRIDES)}
"""What a JSON writer (orjson) leaves raw of them: C0 it escapes itself."""


def first_control(text: str) -> str | None:
    """The first such character in ``text``, or ``None``."""
    found = _FOUND.search(text)
    return found.group() if found else None


def json_escaped(json_text: str) -> str:
    """JSON text with every such character written as a ``\\uXXXX`` escape: the same JSON value, and text a
    terminal shows as it is (outside its strings JSON has none of them, so each is escaped where it stands)."""
    plain = json_text.isascii() and "\x7f" not in json_text
    return json_text if plain else json_text.translate(_JSON_ESCAPES)
