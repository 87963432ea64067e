"""Writing files so that a crash or a second writer never leaves a half-written or mixed-up one.

``write_atomically`` writes into a fresh temporary file in the target's folder
(created exclusively, never through a symlink someone left there), flushes it to
disk and renames it over the target in one step: a reader sees the old file or
the new one. ``locked`` serializes the processes that change one file (a JSON
log used as a game), through a lock file beside it (``filelock``, which the
operating system releases if the holder dies).
"""

from __future__ import annotations

import os
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import Iterator

LOCK_WAIT = 10.0
"""Seconds to wait for another process's change of the same file before giving up."""


class FileBusy(OSError):
    """Another process held a log file's lock for longer than it is waited for (``locked``)."""


def write_atomically(path: str | os.PathLike[str], data: bytes) -> None:
    """Replace ``path`` with ``data`` in one step (or leave it as it was, if anything fails).

    The new file keeps the permissions of the one it replaces (a new one gets the
    usual ones, as ``open`` would give it). A symlink at ``path`` is replaced, not
    followed.
    """
    import tempfile  # here, not at the top: every command imports this module, few of them write a file

    target = Path(path)
    mode = _mode_for(target)
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    except OSError as exc:  # say it of the file asked for, not of the temporary one
        raise OSError(exc.errno, exc.strerror, str(target)) from None
    try:
        with os.fdopen(fd, "wb") as out:
            out.write(data)
            out.flush()
            os.fsync(out.fileno())
        os.chmod(tmp, mode)
        os.replace(tmp, target)
    except BaseException:
        with suppress(OSError):
            os.unlink(tmp)
        raise
    _sync_folder(target.parent)


def _mode_for(target: Path) -> int:
    try:
        status = os.lstat(target)
    except OSError:
        status = None
    if status is not None and not os.path.islink(target):
        return status.st_mode & 0o7777
    mask = os.umask(0)
    os.umask(mask)
    return 0o666 & ~mask


def _sync_folder(folder: Path) -> None:
    """Make the rename itself durable (where the system allows a folder to be synced)."""
    if os.name == "nt":
        return
    with suppress(OSError):
        fd = os.open(folder, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


def lock_path(path: str | os.PathLike[str]) -> Path:
    """The lock file beside ``path`` (``game.json`` -> ``game.json.lock``)."""
    target = Path(path)
    return target.with_name(target.name + ".lock")


@contextmanager
def locked(path: str | os.PathLike[str], wait: float = LOCK_WAIT) -> Iterator[None]:
    """Hold ``path``'s lock: other processes changing the same file wait here.

    ``FileBusy`` if another process holds it for longer than ``wait`` seconds;
    an ``OSError`` if the lock file cannot be made (a read-only folder, say).
    """
    from filelock import FileLock, Timeout  # imported here: only commands that change a log file take its lock

    lock = FileLock(lock_path(path), timeout=wait)
    try:
        lock.acquire()
    except Timeout:
        raise FileBusy(f"{path}: another coimbra has been changing this file for {wait:.0f} s") from None
    try:
        yield
    finally:
        lock.release()
