"""A table written as JSON reads back as the same table; its digest names it, and any change shows."""

from __future__ import annotations

import orjson
import pytest

from coimbra_events import state_codec
from coimbra_events.simulator import DEFAULT_PLAYERS, simulate
from coimbra_events.record import replace
from projections.timeline import timeline


@pytest.fixture(scope="module")
def states(catalog):
    log, _ = simulate(catalog, DEFAULT_PLAYERS[:3], 17)
    return timeline(log).states


def test_every_state_of_a_game_reads_back_as_itself(states, catalog):
    for state in states[::7]:
        again = state_codec.decode(orjson.loads(state_codec.dumps(state)), catalog)
        assert again == state and again.index == state.index and again.catalog is catalog


def test_the_digest_is_of_what_equality_compares(states):
    final = states[-1]
    assert state_codec.digest(final) == state_codec.digest(replace(final))
    changed = replace(final, players=(replace(final.players[0], coins=final.players[0].coins + 1), *final.players[1:]))
    assert state_codec.digest(changed) != state_codec.digest(final)
    assert len({state_codec.digest(s) for s in states}) > len(states) // 2


@pytest.mark.parametrize("damage", [
    lambda d: d.pop("tick"),
    lambda d: d.update(extra=1),
    lambda d: d.update(_="PlayerState"),
    lambda d: d["players"][0].update(_="Slot"),
])
def test_anything_else_is_refused(states, catalog, damage):
    data = orjson.loads(state_codec.dumps(states[-1]))
    damage(data)
    with pytest.raises(state_codec.StateCodecError):
        state_codec.decode(data, catalog)
