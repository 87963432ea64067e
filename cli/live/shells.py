"""The live table's pages as the browser gets them: one head, written here, before each page's body.

Each page (``static/live.html``, ``club.html``, ``cards.html``, ``evening.html``) holds its body alone; its title and its
stylesheets are named here, so that the head every page needs (the character set, the phone's viewport,
no icon to fetch) is written once.
"""

from __future__ import annotations

import html
from typing import Mapping

SHELLS: Mapping[str, tuple[str, tuple[str, ...]]] = {
    "live.html": ("coimbra · the live table", ("replay.css", "live.css")),
    "club.html": ("coimbra · the club night", ("cards.css", "club.css", "tournament.css")),
    "cards.html": ("coimbra · table cards", ("cards.css",)),
    "evening.html": ("coimbra · the evening", ("evening.css",)),
}
"""Each page's title and the stylesheets it loads (``/static/NAME``), by the file of its body."""


def shell(name: str, body: str) -> str:
    """The whole page ``name``: the shared head with its title and stylesheets, then ``body`` (its ``<body>``)."""
    title, styles = SHELLS[name]
    links = "".join(f'<link rel="stylesheet" href="/static/{style}">\n' for style in styles)
    return ('<!doctype html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
            '<meta name="viewport" content="width=device-width, initial-scale=1">\n<link rel="icon" href="data:,">\n'
            f"<title>{html.escape(title)}</title>\n{links}</head>\n{body}</html>\n")


__all__ = ["SHELLS", "shell"]
