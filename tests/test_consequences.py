"""Every consequence of an entry, told: what the narration says happens on the table is exactly what happens.

The property: for every entry of a record, putting the public table before it
(``tabletop``) through the entry's listed changes gives the public table after
it, field by field; so nothing changes on the table that the narration does not
name, and nothing named fails to happen (``apply_changes`` refuses a change whose
``from`` is not what the table shows). It holds over random games of 2, 3 and 4
players, drawn choice by choice so that a failure shrinks to a short game, and
over games with corrections, undos, accepted rule breaks and notes (each game is
long, so the default profile plays a quarter and an eighth of its examples here;
the ``thorough`` profile of CI plays hundreds). Leaving out
the changes of any one rule breaks it (the mutation test), and every change cites
a rule ``coimbra rules`` lists. The board of a finished game scores as ``score`` does.
"""

from __future__ import annotations

import random
import subprocess
from pathlib import Path
from typing import Callable

import orjson
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from coimbra_events import events as ev
from coimbra_events import log_reader
from coimbra_events.catalog import standin_catalog
from coimbra_events.game import Game
from coimbra_events.rules.core import apply, legal, start
from coimbra_events.rules.outcomes import OutcomeSpace
from coimbra_events.simulator import DEFAULT_PLAYERS, simulate
from coimbra_events.validation import catalog_for
from coimbra_events.violations import RULES
from projections.board import board_view
from projections.changes import Change
from projections.consequences import Changes, Folded, entries_since, fold, plays_since
from projections.scores import score_report
from projections.tabletop import ChangeMismatch, Tabletop, apply_changes, tabletop
from projections.timeline import timeline
from tests.conftest import FIXTURES, installed_coimbra

CAT = standin_catalog()
GAMES = sorted((FIXTURES / "games").glob("*.json"))

Keep = Callable[[Change], bool]


def mismatches(expected: Tabletop, got: Tabletop) -> list[str]:
    """Every field of the public table that differs: a value, or what a place holds."""
    out = [f"{key}: told {got.values.get(key)!r}, is {expected.values.get(key)!r}"
           for key in expected.values.keys() | got.values.keys() if expected.values.get(key) != got.values.get(key)]
    out += [f"{place}: told {got.places.get(place)}, is {expected.places.get(place)}"
            for place in expected.places.keys() | got.places.keys() if expected.places.get(place) != got.places.get(place)]
    return sorted(out)


def first_untold(folded: Folded, keep: Keep = lambda c: True) -> tuple[int, list[str]] | None:
    """The first entry whose changes (those ``keep`` keeps) do not turn the table before it into the table after."""
    changes = Changes(folded)
    tables = [tabletop(s) for s in folded.states]
    for k in range(1, len(tables)):
        try:
            got = apply_changes(tables[k - 1], [c for c in changes[k] if keep(c)])
        except ChangeMismatch as exc:
            return k, [str(exc)]
        wrong = mismatches(tables[k], got)
        if wrong:
            return k, wrong
    return None


def assert_told(folded: Folded, events) -> None:
    untold = first_untold(folded)
    if untold is not None:
        k, wrong = untold
        pytest.fail(f"entry {k} ({events[k - 1]}): " + "; ".join(wrong[:8]))


def fixture_fold(path: Path) -> tuple[Folded, tuple]:
    log = log_reader.read(path)
    return fold(start(catalog_for(log), log.players), log.events), log.events


# --- random games, drawn choice by choice ----------------------------------------------------------


def _draw_event(data, state) -> ev.GameEvent:
    options = legal(state)
    if isinstance(options, OutcomeSpace):  # the table's draw: a small seed, which shrinks to 0
        return options.sample(random.Random(data.draw(st.integers(0, 2**16), label="outcome")))
    return options[data.draw(st.integers(0, len(options) - 1), label="choice")]


@pytest.mark.property
@settings(max_examples=max(settings.default.max_examples // 4, 10))
@given(players=st.sampled_from([2, 3, 4]), length=st.integers(1, 400), data=st.data())
def test_every_change_of_the_table_is_told_in_random_games(players, length, data):
    state = start(CAT, DEFAULT_PLAYERS[:players])
    events = []
    while len(events) < length and not state.over:
        events.append(_draw_event(data, state))
        state = apply(state, events[-1])
    folded = fold(start(CAT, DEFAULT_PLAYERS[:players]), events)
    assert folded.states[-1] == state
    assert_told(folded, events)


HISTORY = ["play"] * 6 + ["correct", "undo", "accept", "note"]


def _history_step(data, game: Game) -> None:
    """One entry (or two) of a record with history: a play, a correction, an undo, an accepted rule break or a note."""
    what = data.draw(st.sampled_from(HISTORY), label="entry")
    plays = game.line.plays
    if what == "correct" and plays:
        seq = data.draw(st.sampled_from([p.seq for p in plays]), label="corrected")
        game.correct(seq, _draw_event(data, game.state_before(seq)))
    elif what == "undo" and plays:
        game.undo()
    elif what == "accept" and game.pending.kind == "retrieve":
        game.accept(ev.AlternativeTaken(game.pending.actor, CAT.alternative_coins + 1, 0), "the table let it go")
    elif what == "note" and plays:
        game.note(data.draw(st.sampled_from([p.seq for p in plays]), label="noted"), "a note")
    else:
        game.record(_draw_event(data, game.state))


@pytest.mark.property
@settings(max_examples=max(settings.default.max_examples // 8, 10))
@given(players=st.sampled_from([2, 3, 4]), length=st.integers(1, 300), data=st.data())
def test_every_change_of_the_table_is_told_with_corrections_undos_and_overrides(players, length, data):
    game = Game.start("h", CAT, DEFAULT_PLAYERS[:players])
    while len(game.events) < length and game.pending is not None:
        _history_step(data, game)
    folded = fold(game.initial, game.events)
    assert folded.states[-1] == game.state
    assert_told(folded, game.events)


@pytest.mark.property
@settings(max_examples=max(settings.default.max_examples // 8, 10))
@given(players=st.sampled_from([2, 3, 4]), length=st.integers(0, 120), added=st.integers(1, 4), data=st.data())
def test_plays_stored_after_any_record_are_told_as_the_whole_record_tells_them(players, length, added, data):
    """``act`` tells its plays from the table before them, without the record (``plays_since``); that is what
    folding the whole record, history entries and all, tells of them (``entries_since``)."""
    game = Game.start("h", CAT, DEFAULT_PLAYERS[:players])
    while len(game.events) < length and game.pending is not None:
        _history_step(data, game)
    start, table = game.entries, game.state
    plays = []
    while len(plays) < added and game.pending is not None:
        plays.append(_draw_event(data, game.state))
        game.record(plays[-1])
    assert plays_since(table, plays, start) == entries_since(table, game.initial, game.events, start)


def _game_of(events) -> Game:
    log = log_reader.read(GAMES[0])
    game = Game.start("g", catalog_for(log), log.players, log.meta, log.ruleset)
    for event in events:
        game.record(event)
    return game


def test_an_undo_or_correction_names_the_player_whose_die_it_moves():
    """A die taken back from a location is the player's who placed it, not the table's (who_of names no one there)."""
    log = log_reader.read(GAMES[0])
    k = next(k for k, e in enumerate(log.events) if isinstance(e, ev.DiePlaced))
    placed = log.events[k]
    game = _game_of(log.events[: k + 1])
    game.undo()
    changes = timeline(game).changes[len(game.events)]
    die = [c for c in changes if c.what == ("die", placed.die)]
    assert die and {c.who for c in die} == {placed.actor} and {c.rule for c in die} == {"HISTORY.undo"}
    game = _game_of(log.events[: k + 1])
    other = next(e for e in legal(game.state_before(k + 1)) if isinstance(e, ev.DiePlaced) and e.location != placed.location)
    game.correct(k + 1, other)
    moved = [c for c in timeline(game).changes[len(game.events)] if c.what[0] == "die"]
    assert moved and {c.who for c in moved} == {placed.actor} and {c.rule for c in moved} == {"HISTORY.correction"}


@pytest.mark.parametrize("path", GAMES, ids=lambda p: p.name)
def test_every_change_of_the_table_is_told_in_the_recorded_games(path):
    folded, events = fixture_fold(path)
    assert_told(folded, events)


# --- leaving one rule's changes out breaks it -------------------------------------------------------


@pytest.fixture(scope="module")
def corpus() -> list[Folded]:
    return [fixture_fold(path)[0] for path in GAMES]


def _cited(corpus: list[Folded]) -> set[str]:
    return {c.rule for folded in corpus for k in range(1, len(folded.states)) for c in Changes(folded)[k]}


def test_leaving_out_the_changes_of_any_rule_breaks_the_property(corpus):
    """Each rule's changes are needed: without them some entry of the recorded games no longer adds up."""
    cited = _cited(corpus)
    assert {"C.token-discard", "D.order", "E.income", "C.crown-token", "MONASTERY.reward", "ROUND.end",
            "END.influence-tiles", "END.places", "C.location-end", "SETUP.rows"} <= cited
    for rule in sorted(cited):
        assert any(first_untold(folded, lambda c: c.rule != rule) for folded in corpus), f"{rule}: nothing missed"


def test_leaving_out_any_kind_of_thing_breaks_the_property(corpus):
    kinds = {c.what[0] for folded in corpus for k in range(1, len(folded.states)) for c in Changes(folded)[k]}
    assert {"card", "die", "face", "disc", "lion", "crown token", "favor tile", "coins", "points", "roll",
            "phase", "round", "place"} <= kinds
    for kind in sorted(kinds):
        assert any(first_untold(folded, lambda c: c.what[0] != kind) for folded in corpus), f"{kind}: nothing missed"


# --- every change cites a rule that coimbra rules lists ---------------------------------------------


def test_every_change_cites_a_listed_rule(corpus):
    assert _cited(corpus) <= set(RULES)


def _run(*args: str) -> dict:
    out = subprocess.run([installed_coimbra(), *args], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0 and "Traceback" not in out.stderr, out.stderr
    return orjson.loads(out.stdout)


def test_explain_json_of_derived_changes_cites_rules_that_coimbra_rules_lists():
    listed = {r["id"] for r in _run("rules", "--json")}
    path = GAMES[0]
    line = timeline(log_reader.read(path))
    derived = [k for k in range(1, len(line.states)) if any(c.rule in ("C.token-discard", "D.order", "END.places")
                                                            for c in line.changes[k])]
    assert derived
    for k in derived[:3] + derived[-1:]:
        entry = _run("explain", str(path), "--seq", str(k), "--json")["entry"]
        assert entry["changes"] and {c["rule"] for c in entry["changes"]} <= listed
        assert set(entry["reasons"]) == {c["rule"] for c in entry["changes"]}


# --- a finished board scores as score does ------------------------------------------------------------


def assert_board_scores(state) -> None:
    shown = {p["name"]: p for p in board_view(state)["players"]}
    for sheet in score_report(state)["players"]:
        p = shown[sheet["name"]]
        assert (p["points"], p["place"]) == (sheet["total"], sheet["place"])
        assert p["points_during_play"] + sum(p["end_game"].values()) == p["points"]


@pytest.mark.property
@given(seed=st.integers(0, 2**32 - 1), players=st.sampled_from([2, 3, 4]))
def test_the_board_of_a_finished_random_game_scores_as_score_does(seed, players):
    _, final = simulate(CAT, DEFAULT_PLAYERS[:players], seed)
    assert_board_scores(final)


@pytest.mark.parametrize("path", GAMES, ids=lambda p: p.name)
def test_show_json_of_a_finished_fixture_gives_the_points_score_json_gives(path):
    shown = {p["name"]: p["points"] for p in _run("show", str(path), "--json")["players"]}
    scored = {p["name"]: p["total"] for p in _run("score", str(path), "--json")["players"]}
    assert shown == scored
