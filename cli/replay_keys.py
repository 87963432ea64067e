"""The terminal replayer's keys: a position and a key give the next position.

The replayer (``coimbra replay``) keeps a ``Cursor`` (the number of entries
applied, plus a half-typed ``g 12`` or ``p`` prompt) and hands every key to
``press``, which moves it with the read model's ``Navigator``
(``projections.navigation``). Pure: tested without a terminal. Keys are named
as ``cli.replay_app`` reads them: ``left``, ``right``, ``up``, ``down``,
``pgup``, ``pgdn``, ``home``, ``end``, ``enter``, ``escape``, ``backspace``,
or the character typed.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from projections.navigation import Navigator


@dataclass(frozen=True)
class Cursor:
    """Where the replayer stands, plus what is being typed.

    ``prompt`` is ``None`` (keys move at once), ``"goto"`` (``g`` was pressed:
    digits, then Enter), ``"next-player"`` / ``"previous-player"`` (``p`` /
    ``P``: a player's initial or number), ``"search"`` (``/``: words of a
    note or bookmark, then Enter). ``message`` says why the last key
    did not move (or is empty); ``help`` shows the key overlay; ``quit`` ends
    the replayer.
    """

    at: int = 0
    prompt: str | None = None
    typed: str = ""
    message: str = ""
    help: bool = False
    quit: bool = False


KEYS: tuple[tuple[str, str], ...] = (
    ("→ / l", "next entry"),
    ("← / h", "previous entry"),
    ("↓ / j", "next phase (its first table)"),
    ("↑ / k", "start of this phase, or the previous phase"),
    ("PgDn / ]", "next round"),
    ("PgUp / [", "start of this round, or the previous round"),
    ("Home / End", "before the first entry / after the last"),
    ("g N Enter", "go to entry N (0: before the first)"),
    ("b / B", "next / previous bookmark or note"),
    ("p X", "next decision of player X (initial or number)"),
    ("P X", "previous decision of player X"),
    ("/ TEXT Enter", "next entry whose note or bookmark holds TEXT"),
    ("?", "this help (any key closes it)"),
    ("q", "quit"),
)
"""Every key of the replayer and what it does, for the help overlay."""

FOOTER = "←→ entry  ↑↓ phase  PgUp/PgDn round  Home/End  g N⏎ go to  b/B mark  p/P player  / note  ? help  q quit"


def _moved(cursor: Cursor, to: int | None, nothing: str) -> Cursor:
    if to is None:
        return dataclasses.replace(cursor, message=nothing, prompt=None, typed="")
    return dataclasses.replace(cursor, at=to, message="", prompt=None, typed="")


def press(nav: Navigator, cursor: Cursor, key: str) -> Cursor:
    """The cursor after one key; unknown keys leave it where it is, with a message."""
    if cursor.help:
        cursor = dataclasses.replace(cursor, help=False)
        if key in ("?", "escape", "enter"):
            return cursor
    if cursor.prompt == "goto":
        return _goto_key(nav, cursor, key)
    if cursor.prompt in ("next-player", "previous-player"):
        return _player_key(nav, cursor, key)
    if cursor.prompt == "search":
        return _search_key(nav, cursor, key)
    n = cursor.at
    if key in ("right", "l"):
        return _moved(cursor, n + 1 if n < nav.last else None, "already after the last entry")
    if key in ("left", "h"):
        return _moved(cursor, n - 1 if n > 0 else None, "already before the first entry")
    if key in ("down", "j"):
        return _moved(cursor, nav.next_phase(n), "no later phase: this is the last one")
    if key in ("up", "k"):
        return _moved(cursor, nav.previous_phase(n), "already at the start of the first phase")
    if key in ("pgdn", "]"):
        return _moved(cursor, nav.next_round(n), "no later round")
    if key in ("pgup", "["):
        return _moved(cursor, nav.previous_round(n), "already at the start of the first round")
    if key == "home":
        return _moved(cursor, 0, "")
    if key == "end":
        return _moved(cursor, nav.last, "")
    if key == "b":
        return _moved(cursor, nav.next_mark(n), "no later bookmark or note" if nav.mark_stops else "this game has no bookmarks or notes")
    if key == "B":
        return _moved(cursor, nav.previous_mark(n),
                      "no earlier bookmark or note" if nav.mark_stops else "this game has no bookmarks or notes")
    if key == "g":
        return dataclasses.replace(cursor, prompt="goto", typed="", message="")
    if key in ("p", "P"):
        return dataclasses.replace(cursor, prompt="next-player" if key == "p" else "previous-player", typed="", message="")
    if key == "/":
        return dataclasses.replace(cursor, prompt="search", typed="", message="")
    if key == "?":
        return dataclasses.replace(cursor, help=True, message="")
    if key in ("q", "ctrl-c"):
        return dataclasses.replace(cursor, quit=True)
    if key == "escape":
        return dataclasses.replace(cursor, message="")
    return dataclasses.replace(cursor, message=f"unknown key {key!r}: press ? for the keys")


def _goto_key(nav: Navigator, cursor: Cursor, key: str) -> Cursor:
    if key == "escape" or key == "ctrl-c":
        return dataclasses.replace(cursor, prompt=None, typed="", message="")
    if key == "backspace":
        return dataclasses.replace(cursor, typed=cursor.typed[:-1])
    if len(key) == 1 and key.isdigit():
        if len(cursor.typed) >= 9:
            return cursor
        return dataclasses.replace(cursor, typed=cursor.typed + key, message="")
    if key == "enter":
        if not cursor.typed:
            return dataclasses.replace(cursor, prompt=None, message="")
        n = int(cursor.typed)
        if n > nav.last:
            return dataclasses.replace(cursor, prompt=None, typed="",
                                       message=f"no entry {n}: the game has {nav.last}; choose 0 to {nav.last}")
        return _moved(cursor, n, "")
    return dataclasses.replace(cursor, message="type the entry number, then Enter (Esc cancels)")


def _search_key(nav: Navigator, cursor: Cursor, key: str) -> Cursor:
    if key in ("escape", "ctrl-c"):
        return dataclasses.replace(cursor, prompt=None, typed="", message="")
    if key == "backspace":
        return dataclasses.replace(cursor, typed=cursor.typed[:-1])
    if key == "enter":
        if not cursor.typed.strip():
            return dataclasses.replace(cursor, prompt=None, message="")
        found = nav.find(cursor.typed.strip(), cursor.at)
        if found is None:
            return dataclasses.replace(cursor, prompt=None, typed="", message=f"no note or bookmark holds {cursor.typed.strip()!r}")
        return _moved(cursor, found, "")
    if len(key) == 1 and key.isprintable():
        return dataclasses.replace(cursor, typed=cursor.typed + key, message="")
    return cursor


def _player_key(nav: Navigator, cursor: Cursor, key: str) -> Cursor:
    if key in ("escape", "enter", "ctrl-c"):
        return dataclasses.replace(cursor, prompt=None, typed="", message="")
    if len(key) != 1:
        return dataclasses.replace(cursor, message=f"type a player's initial or number: {nav.player_keys()} (Esc cancels)")
    player, why = nav.player(key)
    if player is None:
        return dataclasses.replace(cursor, prompt=None, typed="", message=why)
    if cursor.prompt == "next-player":
        return _moved(cursor, nav.next_decision(cursor.at, player), f"no later decision of {player}")
    return _moved(cursor, nav.previous_decision(cursor.at, player), f"no earlier decision of {player}")


__all__ = ["Cursor", "FOOTER", "KEYS", "press"]
