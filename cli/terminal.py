"""What reaches the terminal: text from a record is shown, never obeyed.

Names, colours, notes and reasons are stored exactly as given, and a record may
come from anywhere, so a name holding ``ESC[2J`` or ``ESC]0;…`` would clear the
screen or retitle the window if printed as it is. Every console of the command
therefore renders through ``EscapeControls``, which shows each control character
(C0 but the line break, DEL, C1, and the bidirectional overrides that reorder
what is read) as an escape like ``\\x1b``. Rich's own styling is not text and is
left alone; ``--json`` output writes each as a JSON escape (``\\u001b``, ``\\u202e``:
``coimbra_events.controls.json_escaped``), and a move list writes an entry holding one as its JSON.
"""

from __future__ import annotations

import re
from typing import Iterable, List

from rich.console import Console, ConsoleOptions, ConsoleRenderable, RenderHook, RenderResult
from rich.segment import Segment

from coimbra_events.controls import CONTROLS, OVERRIDES

_ESCAPES = {**{c: f"\\x{c:02x}" for c in CONTROLS if c != 0x0A}, **{c: f"\\u{c:04x}" for c in OVERRIDES}}
_NEEDS_ESCAPE = re.compile("[" + "".join(re.escape(chr(c)) for c in _ESCAPES) + "]")


def escape_controls(text: str) -> str:
    """``text`` with each control character written as an escape (``\\x1b``, ``\\u202e``)."""
    return text if _plain(text) else text.translate(_ESCAPES)


def _plain(text: str) -> bool:
    """Whether ``text`` holds nothing to escape. Every character escaped is one Python calls unprintable
    (categories Cc and Cf), so most text is passed by ``isprintable`` alone, without the search."""
    return text.isprintable() or not _NEEDS_ESCAPE.search(text)


class Escaped:
    """A renderable whose text segments have their control characters escaped."""

    def __init__(self, renderable: ConsoleRenderable) -> None:
        self.renderable = renderable

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        segments: Iterable[Segment] = console.render(self.renderable, options)
        for segment in segments:
            if segment.control or _plain(segment.text):
                yield segment
            else:
                yield Segment(escape_controls(segment.text), segment.style)


class EscapeControls(RenderHook):
    """The render hook every console of the command gets (``console.push_render_hook``)."""

    def process_renderables(self, renderables: List[ConsoleRenderable]) -> List[ConsoleRenderable]:
        return [Escaped(r) for r in renderables]


def escaping(console: Console) -> Console:
    """``console``, showing control characters escaped from now on."""
    console.push_render_hook(EscapeControls())
    return console
