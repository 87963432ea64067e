"""Changing a SQLite game store behind coimbra's back, row by row, as someone with the file could."""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable
from uuid import UUID

import orjson

from coimbra_events.store.snapshots import snapshot_digest
from coimbra_events.store.register import GameName
from coimbra_events.store.receipts import receipt_id


FACTS = ("Finished", "Reopened", "Renamed", "Tagged", "Archived", "PutAway")
"""A game's rows that are facts about its record, not entries."""


@dataclass(frozen=True)
class Row:
    rowid: int
    version: int
    topic: str
    state: bytes
    stream: str = ""
    """The hex id of the stream (aggregate) the row belongs to."""

    def fields(self) -> dict[str, Any]:
        return orjson.loads(self.state)


class Rows:
    """The stored rows of one SQLite file."""

    def __init__(self, path: Path) -> None:
        self.path = path

    def _run(self, sql: str, *args: Any) -> list[tuple]:
        with sqlite3.connect(self.path) as conn:
            return conn.execute(sql, args).fetchall()

    def _stream(self, stream_id: Any) -> list[Row]:
        found = self._run("SELECT rowid, originator_version, topic, state FROM stored_events "
                          "WHERE originator_id = ? ORDER BY originator_version", stream_id.hex)
        return [Row(r, v, t, bytes(s), stream_id.hex) for r, v, t, s in found]

    def game_id(self, name: str) -> UUID:
        """The game the store's register has the name stand for (its latest claim)."""
        claims = [r.fields() for r in self._stream(GameName.create_id(name)) if self.claims_name(r)]
        return UUID(claims[-1]["game_id"]["_data_"])

    @staticmethod
    def claims_name(row: Row) -> bool:
        """Whether a row of the register claims its name: a ``Claimed``, or a ``Created`` claimed at once."""
        return row.topic.endswith("GameName.Claimed") or (row.topic.endswith("GameName.Created") and bool(row.fields().get("game_id")))

    def game(self, name: str) -> list[Row]:
        """The game's rows: its header (``Created``) first, then one per entry (and the facts about it)."""
        return self._stream(self.game_id(name))

    def entries(self, name: str) -> list[Row]:
        """The game's header, then its entries only (``Recorded`` rows): row k is entry k."""
        return [r for r in self.game(name) if not any(r.topic.endswith(f"Game.{fact}") for fact in FACTS)]

    def receipts(self, name: str) -> list[Row]:
        return self._stream(receipt_id(self.game_id(name)))

    def all(self) -> list[Row]:
        return [Row(r, v, t, bytes(s)) for r, v, t, s in
                self._run("SELECT rowid, originator_version, topic, state FROM stored_events ORDER BY rowid")]

    def set(self, row: Row, *, topic: str | None = None, state: bytes | None = None, version: int | None = None) -> None:
        self._run("UPDATE stored_events SET topic = ?, state = ?, originator_version = ? WHERE rowid = ?",
                  row.topic if topic is None else topic, row.state if state is None else state,
                  row.version if version is None else version, row.rowid)

    def edit(self, row: Row, change: Callable[[dict[str, Any]], None]) -> None:
        """Change a row's decoded state (a dict) and store it back."""
        fields = row.fields()
        change(fields)
        self.set(row, state=orjson.dumps(fields))

    def restore(self, row: Row) -> None:
        """Put a deleted row back as it was."""
        self._run("INSERT OR REPLACE INTO stored_events (rowid, originator_id, originator_version, topic, state) "
                  "VALUES (?, ?, ?, ?, ?)", row.rowid, row.stream, row.version, row.topic, row.state)

    def drop_snapshots(self, name: str) -> None:
        """Delete the game's snapshots (a cache the store reads instead of folding the game)."""
        self._run("DELETE FROM stored_snapshots WHERE originator_id = ?", self.game_id(name).hex)

    def edit_snapshot(self, name: str, change: Callable[[list[list[Any]]], None]) -> None:
        """Change the entries the game's latest snapshot holds (a list of ``[type, actor, payload, hash, at, by]``)."""

        def entries_changed(state: dict[str, Any]) -> None:
            entries = orjson.loads(state["entries"])
            change(entries)
            state["entries"] = orjson.dumps(entries).decode()

        self.edit_snapshot_state(name, entries_changed)

    def edit_snapshot_state(self, name: str, change: Callable[[dict[str, Any]], None], vouched: bool = False) -> None:
        """Change what the game's latest snapshot holds (``Game.Snapshot``'s ``state``: entries, count, head, table ...);
        ``vouched``: and the game's latest receipt, to vouch for the changed snapshot, as someone who knew to would."""
        game_id = self.game_id(name).hex
        version, raw = self._run("SELECT originator_version, state FROM stored_snapshots WHERE originator_id = ? "
                                 "ORDER BY originator_version DESC LIMIT 1", game_id)[0]
        row = orjson.loads(raw)
        change(row["state"])
        self._run("UPDATE stored_snapshots SET state = ? WHERE originator_id = ? AND originator_version = ?",
                  orjson.dumps(row), game_id, version)
        if vouched:
            self.edit(self.receipts(name)[-1], lambda receipt: receipt.update(snapshot_sha256=snapshot_digest(row["state"])))

    def delete(self, *rows: Row) -> None:
        for row in rows:
            self._run("DELETE FROM stored_events WHERE rowid = ?", row.rowid)
