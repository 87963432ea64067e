"""Logs mutated at random never crash ``validate``: exit 0, 1 or 2 with a message, no traceback.

The game and the damage are both drawn choice by choice (``tests.strategies``), so a
failure shrinks to a short game and one simple change.
"""

from __future__ import annotations

import orjson
import pytest
from hypothesis import given
from hypothesis import strategies as st

from coimbra_events import log as game_log
from tests.commands import invoke, scratch
from tests.strategies import JSON_VALUES, games

pytestmark = pytest.mark.property


def _mutate(events: list, data: st.DataObject) -> str:
    """Delete, duplicate, swap with the neighbour, or alter one payload field or the type, actor or
    sequence number of one event (to any JSON value: a log is read before it is trusted)."""
    k = data.draw(st.integers(0, len(events) - 2), label="event")
    how = data.draw(st.sampled_from(["delete", "duplicate", "swap", "alter", "alter-entry"]), label="how")
    if how == "delete":
        del events[k]
    elif how == "duplicate":
        events.insert(k, dict(events[k]))
    elif how == "swap":
        events[k], events[k + 1] = events[k + 1], events[k]
    elif how == "alter-entry":
        field = data.draw(st.sampled_from(["type", "actor", "seq"]), label="field")
        events[k] = {**events[k], field: data.draw(JSON_VALUES, label="value")}
    else:
        payload = dict(events[k]["payload"])
        if payload:
            payload[data.draw(st.sampled_from(sorted(payload)), label="field")] = data.draw(JSON_VALUES, label="value")
        else:
            payload["extra"] = 1
        events[k] = {**events[k], "payload": payload}
    return how


def _resign(doc: dict) -> None:
    """Number and chain the events again, so the rules, not the hashes, must catch a change."""
    for seq, e in enumerate(doc["events"], 1):
        e["seq"] = seq
    prev = game_log.header_hash({k: v for k, v in doc.items() if k != "events"})
    for e in doc["events"]:
        e["hash"] = prev = game_log.event_hash(prev, e["seq"], e["type"], e["actor"], e["payload"])


def _validate(data: bytes) -> tuple[int, str]:
    with scratch() as folder:
        path = folder / "mutated.json"
        path.write_bytes(data)
        result = invoke(["validate", str(path), "--json"])
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result.exit_code, result.output


@given(data=st.data(), resign=st.booleans())
def test_random_mutations_never_crash_validate(catalog, data, resign):
    log = data.draw(games(catalog).filter(lambda g: len(g.events) >= 2), label="game")
    original = orjson.loads(game_log.dumps(log))
    doc = orjson.loads(game_log.dumps(log))
    how = _mutate(doc["events"], data)
    changed = doc != original
    if resign:
        _resign(doc)
    code, output = _validate(orjson.dumps(doc))
    assert code in (0, 1, 2), (how, code, output)
    assert output.strip() and "Traceback" not in output
    if changed and not resign:
        assert code == 2, (how, output)  # every unsigned change breaks the hash chain


@given(data=st.data())
def test_truncated_logs_are_refused_cleanly(catalog, data):
    log = data.draw(games(catalog, players=(3,)), label="game")
    raw = game_log.dumps(log)
    cut = data.draw(st.integers(1, len(raw) - 3), label="cut")
    code, output = _validate(raw[:cut])
    assert code == 2 and "Traceback" not in output
