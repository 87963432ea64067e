"""Which finished games the league counts: each record once, and nothing the organiser left out.

Every finished game that is not a fork has its seats in ``held``; ``results``, which
every report reads, holds the seats of the games the league counts. A game counts
unless it is archived, marked not counted (``archive --not-counted``), a deliberate
copy (``import --copy``), or holds the same record (the same header and entries: the
same head, ``counting.record``) as a game that finished earlier and counts: of
several copies of one record, the earliest finished that is not left out counts.
``recount`` settles this for the records of the games that changed, so restoring an
archived game, or archiving the copy that counted, moves the count at once.
"""

from __future__ import annotations

from typing import Any, Iterable, Iterator, Sequence

LEFT_OUT = {
    "copy": "a copy (import --copy): never counted",
    "not counted": "not counted (archive --not-counted; archive --restore counts it again)",
    "archived": "archived (archive --restore counts it again)",
    "same record": "the same record as {game}, counted once",
}
"""Why a finished game is left out, as the standings say it."""

COUNTING_DDL = (
    "CREATE TABLE IF NOT EXISTS {counting} (game_id TEXT PRIMARY KEY, record TEXT, archived INTEGER NOT NULL DEFAULT 0, "
    "counted INTEGER NOT NULL DEFAULT 1, copy INTEGER NOT NULL DEFAULT 0)",
    "CREATE INDEX IF NOT EXISTS league_counting_record ON {counting} (record)",
)


def _marks(values: Sequence[Any]) -> str:
    return ", ".join("?" * len(values))


def _chunks(values: list[str], size: int = 500) -> Iterator[list[str]]:
    for k in range(0, len(values), size):
        yield values[k:k + size]


class Counting:
    """The part of ``Tables`` that decides which games count (mixed in: ``Tables`` gives ``_run`` and ``_rows``)."""

    _run: Any
    _rows: Any

    def set_fact(self, game_id: str, column: str, value: Any) -> None:
        """One fact of a game about counting: ``record`` (its head once over), ``archived``, ``counted`` or ``copy``."""
        assert column in ("record", "archived", "counted", "copy")
        self._run(f"INSERT INTO {{counting}} (game_id, {column}) VALUES (?, ?) "
                  f"ON CONFLICT (game_id) DO UPDATE SET {column} = excluded.{column}", (game_id, value))

    def recount(self, game_ids: Iterable[str]) -> int | None:
        """Settle which of these games, and of the games holding the same records, count; the earliest ``finished``
        of a game that came in or went out (the ratings are replayed from there), ``None`` if none did."""
        ids = list(dict.fromkeys(game_ids))
        records = {r for chunk in _chunks(ids) for (r,) in self._rows(
            f"SELECT record FROM {{counting}} WHERE record IS NOT NULL AND game_id IN ({_marks(chunk)})", chunk)}
        members = {gid: None for gid in ids}
        for chunk in _chunks(sorted(records)):
            members.update((gid, None) for (gid,) in self._rows(
                f"SELECT game_id FROM {{counting}} WHERE record IN ({_marks(chunk)})", chunk))
        group = list(members)
        facts: dict[str, tuple[Any, ...]] = {}
        counted_now: set[str] = set()
        for chunk in _chunks(group):
            for gid, finished, record, out in self._rows(
                    "SELECT g.game_id, g.finished, c.record, (c.archived = 1 OR c.counted = 0 OR c.copy = 1) FROM {games} g "
                    f"JOIN {{counting}} c ON c.game_id = g.game_id WHERE g.game_id IN ({_marks(chunk)}) "
                    "AND g.game_id IN (SELECT game_id FROM {held})", chunk):
                facts[gid] = (finished, record, bool(out))
            counted_now.update(g for (g,) in self._rows(
                f"SELECT DISTINCT game_id FROM {{results}} WHERE game_id IN ({_marks(chunk)})", chunk))
        first: dict[str, tuple[int, str]] = {}
        for gid, (finished, record, out) in facts.items():
            if not out and (record not in first or (finished, gid) < first[record]):
                first[record] = (finished, gid)
        counts = {gid for _, gid in first.values()}
        changed = counts ^ counted_now
        if not changed:
            return None
        for chunk in _chunks(sorted(changed)):
            self._run(f"DELETE FROM {{results}} WHERE game_id IN ({_marks(chunk)})", chunk)
        for chunk in _chunks(sorted(counts - counted_now)):
            self._run(f"INSERT INTO {{results}} SELECT * FROM {{held}} WHERE game_id IN ({_marks(chunk)})", chunk)
        finished = [facts[g][0] for g in changed if g in facts] + [
            f for chunk in _chunks(sorted(changed - set(facts))) for (f,) in self._rows(
                f"SELECT finished FROM {{games}} WHERE game_id IN ({_marks(chunk)})", chunk)]
        return min((f for f in finished if f is not None), default=0)

    def left_out_counting(self, tag: str | None) -> list[tuple[str, str, str]]:
        """``(game, reason, why)`` of each finished game (of a tag) that is not a fork and is not counted, by name
        (``reason``: a key of ``LEFT_OUT``)."""
        sql = ("SELECT g.name, c.record, c.archived, c.counted, c.copy FROM {games} g JOIN {counting} c "
               "ON c.game_id = g.game_id")
        params: list[Any] = []
        if tag is not None:
            sql += " JOIN {tags} t ON t.game_id = g.game_id AND t.tag = ?"
            params.append(tag)
        sql += " WHERE g.game_id IN (SELECT game_id FROM {held}) AND g.game_id NOT IN (SELECT game_id FROM {results})"
        rows = self._rows(sql + " ORDER BY g.name", params)
        records = sorted({r for _, r, *_ in rows if r is not None})
        counted: dict[str, str] = {}
        for chunk in _chunks(records):
            counted.update(self._rows(
                f"SELECT c.record, g.name FROM {{counting}} c JOIN {{games}} g ON g.game_id = c.game_id WHERE c.record IN "
                f"({_marks(chunk)}) AND c.game_id IN (SELECT game_id FROM {{results}})", chunk))
        out = []
        for name, record, archived, count, copy in rows:
            why = "copy" if copy else "not counted" if not count else "archived" if archived else "same record"
            out.append((name, why, LEFT_OUT[why].format(game=counted.get(record, "another game"))))
        return out
