"""What a GAME argument refers to: a JSON log file, or a game in the store."""

from __future__ import annotations

import os
from pathlib import Path


def log_file(ref: str) -> Path | None:
    """The JSON log a GAME argument names, or ``None`` for a stored game's name.

    An existing file, or anything shaped like a path (a folder separator, a
    ``.json`` ending), is a log, so a mistyped path says "cannot read file"
    rather than "no such game".
    """
    path = Path(ref)
    looks_like_path = "/" in ref or os.sep in ref or ref.lower().endswith(".json")
    return path if path.is_file() or looks_like_path else None
