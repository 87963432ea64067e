"""What ``coimbra act`` and ``coimbra record`` tell the table after each input, through the installed command.

The scripted game is the 2-player fixture: each test stores its first entries,
then types the next one as a table would and reads what the command says the
table must do. The expected words come from the rule texts, the catalog and
the state before the entry (which card has the highest influence, whose crowns
tie, which tier a disc position is in), not from the narration itself.
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import orjson
import pytest

from coimbra_events import log as game_log, log_reader
from coimbra_events.notation import render
from coimbra_events.rules import core
from coimbra_events.rules.income import round_crowns
from coimbra_events.state import CITIES
from coimbra_events.validation import catalog_for
from projections.naming import named
from tests.conftest import FIXTURES, installed_coimbra

LOG = log_reader.read(FIXTURES / "games" / "standin-2p-seed1.json")
CAT = catalog_for(LOG)
ENV = {**os.environ, "NO_COLOR": "1", "COLUMNS": "220"}


def before(k: int):
    """The table before entry ``k``."""
    state = core.start(CAT, LOG.players)
    for event in LOG.events[: k - 1]:
        state = core.apply(state, event)
    return state


def typed(k: int) -> str:
    return render(LOG.events[k - 1]).split(": ", 1)[1]


@pytest.fixture
def stored(tmp_path):
    """A store holding the fixture's first ``k - 1`` entries as game ``g``."""

    def store(k: int) -> Path:
        db, prefix = tmp_path / f"games-{k}.sqlite", tmp_path / f"prefix-{k}.json"
        game_log.write(prefix, LOG.with_events(LOG.events[: k - 1]))
        assert coimbra("import", str(prefix), "--name", "g", db=db).returncode == 0
        return db

    return store


def coimbra(*args: str, db: Path, stdin: str | None = None) -> subprocess.CompletedProcess:
    out = subprocess.run([installed_coimbra(), *args, "--db", str(db)], capture_output=True, text=True, timeout=120,
                         env=ENV, input=stdin)
    assert "Traceback" not in out.stderr, out.stderr
    return out


def act(db: Path, k: int) -> str:
    out = coimbra("act", "g", typed(k), db=db)
    assert out.returncode == 0, out.stderr
    assert out.stdout.startswith(f"recorded {k}: {LOG.events[k - 1].actor}:")
    return out.stdout


def test_act_tells_a_die_tokens_discard_the_leftmost_of_a_tie_and_a_crown_token(stored):
    k = 23  # Ana buys Tax Collector, which carries a crown token; then the die tokens of the upper and central city act
    state = before(k)
    central = state.rows[CITIES.index("central")]
    top = max(CAT.characters[c].influence for c in central)
    tied = [c for c in central if CAT.characters[c].influence == top]
    assert len(tied) == 2  # the rule text: "If there's a tie, remove the leftmost one"
    out = act(stored(k), k)
    assert f"{named(CAT, tied[0])}: central city row → discard pile" in out
    # the reason names the cards as printed (the facts keep the ids: --json)
    assert f"highest influence {top}, the leftmost of 2 tied: {named(CAT, tied[0])}, {named(CAT, tied[1])}" in out
    assert f"{named(CAT, tied[1])}: central city row" not in out
    card = LOG.events[k - 1].card
    category = dict(state.crowns_on_cards)[card]
    assert f"{category} crown token: on {named(CAT, card)} → in front of Ana" in out and "C.crown-token" in out


def test_act_tells_a_new_player_order_with_its_tie_reversed(stored):
    k = 27  # the last retrieval of round 1: phase D follows
    state = before(k)
    crowns = {state.players[i].name: round_crowns(CAT, state.players[i], flag) for flag, i in enumerate(state.order)}
    assert len(set(crowns.values())) == 1  # tied: the rule text reverses their order
    first, second = (state.players[i].name for i in state.order)
    out = act(stored(k), k)
    assert f"{second}'s lion: flag 2 → flag 1" in out and f"{first}'s lion: flag 1 → flag 2" in out
    assert f"{first}, {second} tied, order reversed" in out and "D.order" in out


def test_act_tells_an_income_payout_at_the_edge_of_a_tier(stored):
    k = 121  # Bruno's gray die, his disc on the gray track at the first space of a tier
    state, event = before(k), LOG.events[k - 1]
    space = state.player("Bruno").influence_on(event.track)
    tier = next(t for t in CAT.income if t.low <= space <= t.high)
    assert space == tier.low != tier.high
    guards = state.player("Bruno").guards
    pays = tier.rewards["gray"][0]
    out = act(stored(k), k)
    assert f"guard marker: {guards} → {min(guards + pays, CAT.max_guards)}" in out
    assert f"disc on space {space} of the gray track, tier {tier.low}-{tier.high}: {pays} guards" in out


def test_act_tells_a_monastery_reward(stored):
    k = 90  # Bruno's pilgrim steps onto a monastery he has not marked
    state, event = before(k), LOG.events[k - 1]
    monastery = state.monastery_at(event.to)
    out = act(stored(k), k)
    assert f"Bruno's disc: Bruno's supply → on {named(CAT, monastery)}" in out
    assert f"MONASTERY.reward: first visit to {named(CAT, monastery)}" in out


def test_act_tells_the_refreshed_rows_of_a_new_round(stored):
    k = 40  # the table deals round 2's rows
    out = act(stored(k), k)
    rows = dict(LOG.events[k - 1].rows)
    for city in CITIES:
        for card in rows[city]:
            assert f"{named(CAT, card)}: character deck → {city} city row" in out
    assert out.count("the supply → on ") == len({CAT.characters[c].category for r in rows.values() for c in r})


def test_act_json_of_an_entry_has_the_issues_shape(stored):
    k = 23
    out = coimbra("act", "g", typed(k), "--json", db=stored(k))
    recorded = orjson.loads(out.stdout)["recorded"]
    assert [r["seq"] for r in recorded] == [k]
    assert all(set(c) == {"who", "what", "from", "to", "rule", "facts"} for c in recorded[0]["changes"])
    assert {"rule": "C.token-discard"}.items() <= next(c for c in recorded[0]["changes"] if c["what"].endswith("(c-II-07)")).items()


def test_act_quiet_keeps_one_line_an_entry(stored):
    k = 23
    out = coimbra("act", "g", typed(k), "--quiet", db=stored(k))
    assert out.stdout.splitlines()[0].startswith(f"recorded {k}: Ana: buy ")
    assert "discard pile" not in out.stdout and len(out.stdout.splitlines()) == 3
    assert out.stdout.splitlines()[2].startswith("head ")


def test_act_at_game_over_tells_the_final_scores_by_source_and_the_winner(stored):
    k = len(LOG.events)
    db = stored(k)
    out = act(db, k)
    scores = orjson.loads(coimbra("score", "g", "--json", db=db).stdout)["players"]
    winner = scores[0]
    assert f"winner: {winner['name']} ({winner['total']} points)" in out
    assert "Final scores" in out and "influence tiles" in out and "voyages" in out
    assert "END.influence-tiles" in out and "END.places" in out


def test_record_tells_what_the_table_must_do_after_each_input_and_the_final_scores(stored):
    db = stored(23)
    lines = "\n".join(typed(k) for k in range(23, 28)) + "\nquit\n"
    out = coimbra("record", "g", db=db, stdin=lines)
    assert out.returncode == 0, out.stderr
    assert "Cloth Merchant (c-II-07): central city row → discard pile" in out.stdout
    assert "the leftmost of 2 tied" in out.stdout and "C.crown-token" in out.stdout
    assert "lion: flag 2 → flag 1" in out.stdout and "tied, order reversed" in out.stdout
    told = out.stdout.index("recorded 23")
    assert told < out.stdout.index("C.token-discard") < out.stdout.index("recorded 24")  # after the input it follows

    end = stored(len(LOG.events))
    out = coimbra("record", "g", db=end, stdin=typed(len(LOG.events)) + "\n")
    assert out.returncode == 0, out.stderr
    scores = orjson.loads(coimbra("score", "g", "--json", db=end).stdout)["players"]
    assert "final scores:" in out.stdout and f"winner: {scores[0]['name']} ({scores[0]['total']} points)" in out.stdout
    for p in scores:
        assert f"{p['place']}. {p['name']}: {p['total']} (" in out.stdout

    quiet = coimbra("record", "g", "--quiet", db=stored(24), stdin=typed(24) + "\nquit\n")
    assert "recorded 24" in quiet.stdout and "C.retrieve" not in quiet.stdout
