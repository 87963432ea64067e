"""Logs mutated at random never crash ``validate``: exit 0, 1 or 2 with a message, no traceback."""

from __future__ import annotations

import random

import orjson
import pytest
from hypothesis import given
from hypothesis import strategies as st
from typer.testing import CliRunner

from cli.app import app
from coimbra_events import log as game_log
from coimbra_events.simulator import DEFAULT_PLAYERS, simulate

pytestmark = pytest.mark.property
runner = CliRunner()


def _mutate(events: list, rng: random.Random) -> str:
    """Delete, duplicate, swap with the neighbour, or alter one payload field or the type, actor or
    sequence number of a random event (to any JSON value: a log is read before it is trusted)."""
    k = rng.randrange(len(events) - 1)
    how = rng.choice(["delete", "duplicate", "swap", "alter", "alter-entry"])
    if how == "delete":
        del events[k]
    elif how == "duplicate":
        events.insert(k, dict(events[k]))
    elif how == "swap":
        events[k], events[k + 1] = events[k + 1], events[k]
    elif how == "alter-entry":
        field = rng.choice(["type", "actor", "seq"])
        events[k] = {**events[k], field: rng.choice([None, 0, 7, True, "", "x", [], {}, ["DiePlaced"], "DiePlaced", "table"])}
    else:
        payload = dict(events[k]["payload"])
        if payload:
            field = rng.choice(sorted(payload))
            payload[field] = rng.choice([None, 0, 7, -1, "x", [], {}, "gray", "castle", "Ana", [1, 2]])
        else:
            payload["extra"] = 1
        events[k] = {**events[k], "payload": payload}
    return how


def _validate(tmp_path, data: bytes) -> tuple[int, str]:
    path = tmp_path / "mutated.json"
    path.write_bytes(data)
    result = runner.invoke(app, ["validate", str(path), "--json"])
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result.exit_code, result.output


@given(seed=st.integers(0, 2**32 - 1), players=st.sampled_from([2, 3, 4]), resign=st.booleans())
def test_random_mutations_never_crash_validate(tmp_path_factory, catalog, seed, players, resign):
    rng = random.Random(seed)
    log, _ = simulate(catalog, DEFAULT_PLAYERS[:players], seed % 50)
    original = orjson.loads(game_log.dumps(log))
    doc = orjson.loads(game_log.dumps(log))
    how = _mutate(doc["events"], rng)
    changed = doc != original
    if resign:
        # re-sign the chain so the rules, not the hashes, must catch the change
        for seq, e in enumerate(doc["events"], 1):
            e["seq"] = seq
        prev = game_log.header_hash({k: v for k, v in doc.items() if k != "events"})
        for e in doc["events"]:
            e["hash"] = prev = game_log.event_hash(prev, e["seq"], e["type"], e["actor"], e["payload"])
    code, output = _validate(tmp_path_factory.mktemp("m"), orjson.dumps(doc))
    assert code in (0, 1, 2), (how, code, output)
    assert output.strip() and "Traceback" not in output
    if changed and not resign:
        assert code == 2, (how, output)  # every unsigned change breaks the hash chain


@given(cut=st.integers(min_value=1, max_value=4000), seed=st.integers(0, 30))
def test_truncated_logs_are_refused_cleanly(tmp_path_factory, catalog, cut, seed):
    log, _ = simulate(catalog, DEFAULT_PLAYERS[:3], seed)
    data = game_log.dumps(log)
    code, output = _validate(tmp_path_factory.mktemp("t"), data[: min(cut, len(data) - 3)])
    assert code == 2 and "Traceback" not in output
