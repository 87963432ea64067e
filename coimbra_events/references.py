"""What a GAME argument refers to: a JSON log file, or a game in the store."""

from __future__ import annotations

import os
from pathlib import Path


def log_file(ref: str) -> Path | None:
    """The JSON log a GAME argument names, or ``None`` for a stored game's name.

    An existing file, or anything shaped like a path (``shaped_like_path``), is a
    log, so a mistyped path says "cannot read file" rather than "no such game".
    """
    path = Path(ref)
    return path if shaped_like_path(ref) or path.is_file() else None


def shaped_like_path(ref: str) -> bool:
    """Whether ``ref`` reads as a file's path wherever it is given: a folder separator or a ``.json`` ending.

    No game may be named so (``GameStore`` refuses it); whether a file of that name
    happens to exist is looked at only when a GAME argument is read (``log_file``).
    """
    return "/" in ref or os.sep in ref or ref.lower().endswith(".json")
