"""The record's own history: corrections, retractions, table-accepted rule breaks, notes, forks.

Most tests work on one recorded game, ``simulate(standin, Ana+Bruno, seed 1)``
(the same game as ``fixtures/games/standin-2p-seed1.json``). The points used are
checked once in ``test_the_recorded_game_is_the_one_these_tests_assume``:

- entry 14 is the table's first ``DiceRolled``; entries 15..20 place the dice
  (16: Ana white-1 central, 18: Ana gray-1 lower, 20: Ana orange-2 upper);
- after 24 entries Ana retrieves her gray-1 (value 4) from the lower city with
  3 coins, so buying ``c-II-20`` (4 coins) breaks ``C.cost``.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from coimbra_events import log_reader
from coimbra_events import events as ev
from coimbra_events import log as game_log
from coimbra_events.service import Games, Stored
from coimbra_events.store.game_store import GameStore
from coimbra_events.store.errors import BadFork, TableInputNeeded
from coimbra_events.catalog import find_catalog
from coimbra_events.game import Game, NothingToOverride
from coimbra_events.history import Play, is_plain, play_override, replay, resolve
from coimbra_events.log import GameLog
from coimbra_events.notation import parse, render
from coimbra_events.rules.core import check, fold, legal, start
from coimbra_events.rules.outcomes import OutcomeSpace
from coimbra_events.simulator import DEFAULT_PLAYERS, simulate
from coimbra_events.state import TABLE
from coimbra_events.validation import validate
from coimbra_events.violations import RULES, RuleViolation
from tests.applied import recorded, stored

CAT = find_catalog("standin-1")  # the fixture's catalog
P2 = (("Ana", "red"), ("Bruno", "blue"))
LOG, FINAL = simulate(CAT, P2, 1)
E = LOG.events
INITIAL = start(CAT, P2)

PLACE_16 = ev.DiePlaced("Ana", "white-1", "central")
PLACE_20 = ev.DiePlaced("Ana", "orange-2", "upper")
TOO_DEAR = ev.CardBought("Ana", "c-II-20")  # after 24 entries: 4 coins, Ana has 3 -> C.cost


def after(n: int):
    """The state after the first ``n`` entries of the recorded game."""
    return fold(INITIAL, E[:n])


def game_after(n: int, name: str = "g") -> Game:
    game = Game.start(name, CAT, P2)
    for event in E[:n]:
        game.record(event)
    return game


def log_of(events) -> GameLog:
    return LOG.with_events(tuple(events))


def problem(events) -> tuple[int, str] | None:
    """Where ``resolve`` stops and with which rule, or ``None``."""
    line = resolve(events)
    return None if line.problem is None else (line.problem[0], line.problem[1].rule)


def invalid_at(events) -> tuple[int | None, str | None]:
    result = validate(log_of(events))
    return result.violation_seq, result.violation.rule if result.violation else None


def untouched(game: Game):
    """What must not change when a command on ``game`` is refused."""
    return len(game.events), game.version, list(game.pending_events), game.state


def test_the_recorded_game_is_the_one_these_tests_assume():
    fixture = log_reader.read(Path(__file__).parent.parent / "fixtures/games/standin-2p-seed1.json")
    assert (LOG.header(1), LOG.events) == (fixture.header(1), fixture.events)  # the fixture was written as schema 1
    assert type(E[13]) is ev.DiceRolled and not any(type(e) is ev.DiceRolled for e in E[:13])
    assert (E[15], E[17], E[19]) == (PLACE_16, ev.DiePlaced("Ana", "gray-1", "lower"), PLACE_20)
    state = after(24)
    assert state.pending.actor == "Ana" and state.pending.kind == "retrieve" and state.pending.die == "gray-1"
    assert check(state, TOO_DEAR).rule == "C.cost"
    assert type(E[24]) is ev.CardBought and check(state, E[24]) is None


# --- resolve: the line of play of a record ---------------------------------------------------------


def test_resolve_a_plain_record_is_its_own_line():
    line = resolve(E)
    assert is_plain(E) and line.problem is None
    assert [(p.seq, p.source, p.event, p.override) for p in line.plays] == [(k, k, e, None) for k, e in enumerate(E, 1)]
    assert not line.notes and not line.bookmarks and not line.corrections


def test_resolve_a_correction_replaces_the_content_in_place_and_keeps_the_seq():
    other = ev.DiePlaced("Ana", "gray-1", "castle")
    events = [*E[:20], ev.Corrected(TABLE, 18), other]
    line = resolve(events)
    assert not is_plain(events) and line.problem is None
    assert len(line.plays) == 20
    assert line.plays[17] == Play(18, 22, other)  # seq kept, source = the replacement entry
    assert [p.event for p in line.plays[:17]] == list(E[:17]) and [p.event for p in line.plays[18:]] == list(E[18:20])
    assert line.corrections == {18: (22,)}
    # corrected again: still the play first recorded as 18, now from entry 24
    again = resolve([*events, ev.Corrected(TABLE, 18), E[17]])
    assert again.plays[17] == Play(18, 24, E[17]) and again.corrections == {18: (22, 24)}
    assert line.index_of(18) == 17 and line.index_of(22) == 17  # the replacement entry names the same play


def test_resolve_a_retraction_removes_the_play():
    latest = resolve([*E[:20], ev.Retracted(TABLE, 20)])
    assert [p.seq for p in latest.plays] == list(range(1, 20))
    middle = resolve([*E[:20], ev.Retracted(TABLE, 16)])
    assert [p.seq for p in middle.plays] == [*range(1, 16), *range(17, 21)]
    assert middle.index_of(16) is None


def test_resolve_an_override_flags_the_move_it_introduces():
    line = resolve([*E[:24], ev.RuleOverridden(TABLE, "C.cost", "we misread the price"), TOO_DEAR])
    assert line.problem is None and len(line.plays) == 25
    assert line.plays[-1] == Play(26, 26, TOO_DEAR, ("C.cost", "we misread the price"))
    assert all(p.override is None for p in line.plays[:-1])


def test_resolve_notes_and_bookmarks_attach_to_plays():
    events = [*E[:20], ev.Noted("Ana", 16, "the die rolled off"), ev.Bookmarked(TABLE, 20, "big turn"),
              ev.Noted(TABLE, 16, "ruling: keep it"), ev.Bookmarked(TABLE, 20, "renamed")]
    line = resolve(events)
    assert line.problem is None and [p.event for p in line.plays] == list(E[:20])
    assert line.notes == {16: ("the die rolled off", "ruling: keep it")}
    assert line.bookmarks == {20: "renamed"}


# --- HISTORY.target -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "tail, seq",
    [
        ([ev.Corrected(TABLE, 99), E[19]], 21),  # an entry that does not exist yet
        ([ev.Corrected(TABLE, 0), E[19]], 21),
        ([ev.Noted(TABLE, 5, "x"), ev.Corrected(TABLE, 21), E[19]], 22),  # a note is not a play
        ([ev.Retracted(TABLE, 20), ev.Corrected(TABLE, 20), E[19]], 22),  # retracted
    ],
    ids=["missing", "zero", "note", "retracted"],
)
def test_HISTORY_target_a_correction_names_an_entry_that_is_not_a_play(tail, seq):
    events = [*E[:20], *tail]
    assert problem(events) == (seq, "HISTORY.target")
    assert invalid_at(events) == (seq, "HISTORY.target")


@pytest.mark.parametrize(
    "tail, seq",
    [
        ([ev.Retracted(TABLE, 20), ev.Retracted(TABLE, 20)], 22),
        ([ev.Retracted(TABLE, 21)], 21),  # itself
        ([ev.Noted(TABLE, 3, "x"), ev.Retracted(TABLE, 21)], 22),
    ],
    ids=["twice", "itself", "note"],
)
def test_HISTORY_target_a_retraction_names_an_entry_that_is_not_a_play(tail, seq):
    events = [*E[:20], *tail]
    assert problem(events) == (seq, "HISTORY.target")
    assert invalid_at(events) == (seq, "HISTORY.target")


@pytest.mark.parametrize("kind", [ev.Noted, ev.Bookmarked])
@pytest.mark.parametrize(
    "head, target",
    [([], 21), ([], 0), ([ev.Retracted(TABLE, 20)], 20), ([ev.RuleOverridden(TABLE, "C.cost", "x"), TOO_DEAR], 25)],
    ids=["self", "zero", "retracted", "override-entry"],
)
def test_HISTORY_target_a_note_or_bookmark_names_an_entry_that_is_not_a_play(kind, head, target):
    base = 24 if head and type(head[0]) is ev.RuleOverridden else 20
    events = [*E[:base], *head, kind(TABLE, target, "about it")]
    assert problem(events) == (len(events), "HISTORY.target")
    assert invalid_at(events) == (len(events), "HISTORY.target")


def test_HISTORY_target_legal_cases_name_plays_in_the_line():
    events = [
        *E[:24],
        ev.Noted(TABLE, 1, "setup checked"),                  # 25: a table outcome is a play too
        ev.Retracted(TABLE, 24),                              # 26: undo the latest
        E[23],                                                # 27: and play it again
        ev.RuleOverridden(TABLE, "C.cost", "misread"),        # 28
        TOO_DEAR,                                             # 29
        ev.Bookmarked(TABLE, 29, "the override"),             # 30: the override's move is a play
        ev.Corrected(TABLE, 29),                              # 31: correcting the accepted move
        E[24],                                                # 32
        ev.Noted(TABLE, 29, "corrected to the legal buy"),   # 33: notes keep naming the first entry
    ]
    line = resolve(events)
    assert line.problem is None
    assert line.plays[-1] == Play(29, 32, E[24])  # the correction drops the override flag
    result = validate(log_of(events))
    assert result.valid, result.violation
    assert result.state == after(25)


# --- HISTORY.pair -------------------------------------------------------------------------------


INTRODUCTIONS = pytest.mark.parametrize(
    "intro", [ev.Corrected(TABLE, 20), ev.RuleOverridden(TABLE, "C.cost", "x")], ids=["corrected", "overridden"]
)


@INTRODUCTIONS
def test_HISTORY_pair_a_dangling_introduction_at_the_end(intro):
    events = [*E[:20], intro]
    assert problem(events) == (21, "HISTORY.pair")
    assert invalid_at(events) == (21, "HISTORY.pair")
    assert validate(log_of(events)).to_json()["violation"]["type"] == intro.TYPE


@INTRODUCTIONS
@pytest.mark.parametrize(
    "entry",
    [ev.Noted(TABLE, 20, "x"), ev.Bookmarked(TABLE, 20, "x"), ev.Retracted(TABLE, 20), ev.Corrected(TABLE, 20),
     ev.RuleOverridden(TABLE, "C.cost", "x")],
    ids=lambda e: e.TYPE,
)
def test_HISTORY_pair_a_history_entry_right_after_an_introduction(intro, entry):
    events = [*E[:20], intro, entry, E[19]]
    assert problem(events) == (22, "HISTORY.pair")
    assert invalid_at(events) == (22, "HISTORY.pair")


def test_HISTORY_pair_legal_introductions_are_followed_by_their_event():
    events = [*E[:20], ev.Corrected(TABLE, 20), E[19]]
    assert problem(events) is None and validate(log_of(events)).valid
    events = [*E[:24], ev.RuleOverridden(TABLE, "C.cost", "x"), TOO_DEAR]
    assert problem(events) is None and validate(log_of(events)).valid


# --- HISTORY.override ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "move, cause",
    [
        (ev.DiePlaced("Bruno", "black-9", "castle"), "B.die"),  # a die not on the table
        (ev.DiePlaced("Bruno", "gray-1", "moon"), "B.location"),  # a location that does not exist
        (ev.DiePlaced("Ana", "gray-1", "castle"), "TURN.actor"),  # Bruno drafts first: not Ana's turn at all
        (ev.IncomeEnded("Bruno"), "TURN.kind"),
    ],
    ids=["unknown-die", "unknown-location", "wrong-actor", "wrong-kind"],
)
def test_HISTORY_override_a_move_that_cannot_be_laid_out(move, cause):
    events = [*E[:14], ev.RuleOverridden(TABLE, cause, "the table allowed it"), move]
    assert check(after(14), move).rule == cause
    assert problem(events) is None  # the record is well formed; the fold refuses the move
    assert invalid_at(events) == (16, "HISTORY.override")
    with pytest.raises(RuleViolation) as caught:
        play_override(after(14), Play(16, 16, move, (cause, "the table allowed it")))
    assert caught.value.rule == "HISTORY.override" and caught.value.facts["entry"] == 16
    # in a game's line it is skipped and listed, like a play a correction made illegal
    folded = replay(INITIAL, resolve(events), stop_at_violation=False)
    assert [(p.seq, v.rule) for p, v in folded.skipped] == [(16, "HISTORY.override")]
    assert folded.state == after(14)


def test_HISTORY_override_legal_case_a_playable_rule_break_is_folded_and_listed():
    events = [*E[:24], ev.RuleOverridden(TABLE, "C.cost", "we misread the price"), TOO_DEAR]
    result = validate(log_of(events))
    assert result.valid and result.legal_events == 25
    assert result.overrides == ((26, "C.cost", "we misread the price"),)
    assert result.to_json()["overrides"] == [{"seq": 26, "rule": "C.cost", "reason": "we misread the price"}]
    folded = replay(INITIAL, resolve(events), stop_at_violation=True)
    assert [(p.seq, v.rule) for p, v in folded.overrides] == [(26, "C.cost")]
    assert "c-II-20" in result.state.player("Ana").cards


@pytest.mark.parametrize("named", ["B.die", "NO.such-rule", "C.card"])
def test_HISTORY_override_names_a_rule_the_move_does_not_break(named):
    events = [*E[:24], ev.RuleOverridden(TABLE, named, "misread"), TOO_DEAR]  # TOO_DEAR breaks C.cost
    assert invalid_at(events) == (26, "HISTORY.override")


def test_HISTORY_target_the_replacement_entry_names_the_corrected_play():
    """After a correction, the entry that holds the replacement names the same play (what `correct` prints)."""
    events = [*E[:20], ev.Corrected(TABLE, 18), E[17], ev.Noted(TABLE, 22, "as corrected"), ev.Retracted(TABLE, 22)]
    line = resolve(events)
    assert line.problem is None
    assert line.notes == {18: ("as corrected",)}
    assert [p.seq for p in line.plays] == [k for k in range(1, 21) if k != 18]


def test_HISTORY_override_a_legal_move_written_by_hand():
    legal_move = E[24]
    events = [*E[:24], ev.RuleOverridden(TABLE, "C.cost", "just in case"), legal_move]
    assert invalid_at(events) == (26, "HISTORY.override")


def test_HISTORY_override_a_pilgrim_step_to_a_space_not_on_the_map():
    game = game_after(11)
    assert game.pending.kind == "steps" and game.pending.actor == "Ana"
    move = ev.PilgrimStepped("Ana", "nowhere")
    assert check(game.state, move).rule == "PILGRIM.adjacent"
    with pytest.raises(RuleViolation) as caught:
        game.accept(move, "lost in the fog")
    assert caught.value.rule == "HISTORY.override"


def test_every_HISTORY_rule_has_tests_named_after_it():
    ids = sorted(r for r in RULES if r.startswith("HISTORY."))
    assert ids == ["HISTORY.correction", "HISTORY.override", "HISTORY.pair", "HISTORY.target", "HISTORY.undo"]
    names = [n for n in vars(sys.modules[__name__]) if n.startswith("test_")]
    for rule in ids:
        stem = "test_" + rule.replace(".", "_") + "_"
        named = [n for n in names if n.startswith(stem)]
        assert named, f"no test named {stem}..."
        assert RULES[rule].consequence or any("legal" in n for n in named), f"no legal case for {rule}"


def test_history_entries_read_back_from_their_notation():
    for event in (ev.Corrected(TABLE, 12), ev.Retracted(TABLE, 57), ev.RuleOverridden(TABLE, "C.cost", "misread: 3, not 4"),
                  ev.Noted("Ana", 12, "dice knocked over, re-rolled"), ev.Bookmarked(TABLE, 40, "the big castle turn"),
                  ev.Noted(TABLE, 3, "Conceição disse ✓")):
        assert parse(render(event)) == event
    assert parse("table: override C.cost the table allowed it") == ev.RuleOverridden(TABLE, "C.cost", "the table allowed it")


# --- Game.correct -------------------------------------------------------------------------------


def test_correct_the_replacement_must_be_legal_where_the_original_stood():
    game = game_after(20)
    before = untouched(game)
    with pytest.raises(RuleViolation) as caught:
        game.correct(18, ev.DiePlaced("Ana", "white-1", "lower"))  # white-1 was placed at 16
    assert caught.value.rule == "B.die"
    with pytest.raises(RuleViolation) as caught:
        game.correct(18, ev.DiePlaced("Bruno", "gray-1", "lower"))  # Ana's turn at 18
    assert caught.value.rule == "TURN.actor"
    assert untouched(game) == before
    # legal at 18, though not now (it is Bruno's retrieval now): the check is where the original stood
    assert check(game.state, ev.DiePlaced("Ana", "gray-1", "castle")) is not None
    assert game.correct(18, ev.DiePlaced("Ana", "gray-1", "castle")) == ()


@pytest.mark.parametrize("seq", [0, 21, 99, -1])
def test_correct_refuses_an_entry_that_is_not_a_play(seq):
    game = game_after(20)
    game.note(5, "a note")  # entry 21
    before = untouched(game)
    with pytest.raises(RuleViolation) as caught:
        game.correct(seq, E[19])
    assert caught.value.rule == "HISTORY.target"
    assert untouched(game) == before


def test_correct_reports_later_plays_made_illegal_skips_them_and_deletes_nothing():
    game = game_after(40)
    broken = game.correct(16, PLACE_20)  # Ana places orange-2 at 16: her move at 20 no longer fits
    assert broken and broken[0][0].seq == 20 and broken[0][1].rule == "B.die"
    assert [p.seq for p, _ in broken] == [p.seq for p, _ in game.replay.skipped]
    assert all(20 <= p.seq <= 40 for p, _ in broken)
    # nothing deleted: every original entry is still in the log, followed by the correction
    assert game.events == [*E[:40], ev.Corrected(TABLE, 16), PLACE_20]
    assert len(game.line.plays) == 40
    assert game.line.plays[15] == Play(16, 42, PLACE_20)
    assert game.pending.actor == "Ana" and game.pending.kind == "draft"
    assert game.state == fold(after(15), [PLACE_20, *E[16:19]])
    # validate reports the first illegal play by its entry
    result = validate(game.to_log())
    assert not result.valid and (result.violation_seq, result.violation.rule) == (20, "B.die")
    assert result.to_json()["violation"]["seq"] == 20


def test_correcting_the_broken_play_in_turn_restores_a_clean_line():
    game = game_after(40)
    game.correct(16, PLACE_20)
    assert game.correct(20, PLACE_16) == ()  # the two placements swapped: everything later fits again
    assert game.replay.skipped == () and validate(game.to_log()).valid
    assert game.state == after(40)
    assert len(game.events) == 44 and game.events[:40] == list(E[:40])
    for event in E[40:]:
        game.record(event)
    assert game.over and game.state == FINAL


def test_correct_returns_only_plays_newly_made_illegal():
    game = game_after(30)
    first = {p.seq for p, _ in game.correct(16, PLACE_20)}
    # the same correction again breaks nothing more
    assert game.correct(16, PLACE_20) == ()
    assert {p.seq for p, _ in game.replay.skipped} == first


# --- Game.undo ----------------------------------------------------------------------------------


def test_undo_appends_a_retraction_and_restores_the_state_before_the_play():
    game = game_after(20)
    before = game.state_before(20)
    undone = game.undo()
    assert undone == Play(20, 20, E[19])
    assert game.events[-1] == ev.Retracted(TABLE, 20) and len(game.events) == 21
    assert game.state == before == after(19)
    assert game.undo().seq == 19 and game.state == after(18)
    game.record(E[18])
    game.record(E[19])
    assert game.state == after(20)
    assert validate(game.to_log()).valid


def test_undo_of_an_accepted_rule_break():
    game = game_after(24)
    game.accept(TOO_DEAR, "misread")
    assert game.undo().override == ("C.cost", "misread")
    assert game.state == after(24)


def test_undo_of_a_play_a_correction_made_illegal():
    game = game_after(20)
    game.correct(16, PLACE_20)
    state = game.state
    assert game.undo().seq == 20  # the latest play of the line, skipped or not
    assert game.replay.skipped == () and game.state == state


# --- what a correction and an undo ask of the table ----------------------------------------------------


def _told(game: Game, seq: int):
    """Entry ``seq``'s changes of the table, as the one fold of the record (``projections.consequences``) has them."""
    from projections.consequences import Changes, fold

    folded = fold(game.initial, game.events)
    return folded, Changes(folded)[seq]


def test_HISTORY_undo_puts_the_die_back_in_the_dice_area():
    from projections.tabletop import apply_changes, tabletop

    game = game_after(20)  # entry 20: Ana placed orange-2 in the upper city, the last die of phase B
    game.undo()
    folded, changes = _told(game, 21)
    assert [(c.rule, c.what, c.src, c.dst) for c in changes] == [
        ("HISTORY.undo", ("die", "orange-2"), ("location", "upper"), ("dice area",)),
        ("HISTORY.undo", ("phase", ""), "C", "B")]
    assert changes[0].facts == {"retraction": 21, "withdrew": 20}
    assert apply_changes(tabletop(folded.states[20]), changes) == tabletop(folded.states[21])


def test_HISTORY_correction_moves_the_die_to_where_the_replacement_puts_it_and_the_introduction_moves_nothing():
    from projections.tabletop import apply_changes, tabletop

    game = game_after(20)
    game.correct(16, ev.DiePlaced("Ana", "white-1", "castle"))  # entry 16 put white-1 in the central city
    folded, introduction = _told(game, 21)
    assert introduction == ()
    _, changes = _told(game, 22)
    assert [(c.rule, c.what, c.src, c.dst) for c in changes] == [
        ("HISTORY.correction", ("die", "white-1"), ("location", "central"), ("location", "castle"))]
    assert changes[0].facts == {"correction": 21, "corrects": 16, "replacement": 22}
    assert apply_changes(tabletop(folded.states[21]), changes) == tabletop(folded.states[22])


def test_undo_of_an_empty_game_is_refused_with_HISTORY_target():
    game = Game.start("g", CAT, P2)
    before = untouched(game)
    with pytest.raises(RuleViolation) as caught:
        game.undo()
    assert caught.value.rule == "HISTORY.target"
    assert untouched(game) == before
    game = game_after(1)
    game.undo()
    with pytest.raises(RuleViolation):
        game.undo()


# --- Game.accept --------------------------------------------------------------------------------


def test_accept_refuses_a_legal_move():
    game = game_after(24)
    before = untouched(game)
    with pytest.raises(NothingToOverride):
        game.accept(E[24], "no reason")
    assert untouched(game) == before


def test_accept_records_a_playable_rule_break_with_its_rule_and_reason():
    game = game_after(24)
    coins = game.state.player("Ana").coins
    violation = game.accept(TOO_DEAR, "we misread the price")
    assert violation.rule == "C.cost" and "costs 4" in violation.reason
    assert game.events[24:] == [ev.RuleOverridden(TABLE, "C.cost", "we misread the price"), TOO_DEAR]
    assert game.line.plays[-1] == Play(26, 26, TOO_DEAR, ("C.cost", "we misread the price"))
    ana = game.state.player("Ana")
    assert "c-II-20" in ana.cards and ana.coins == coins - 4
    assert game.pending != after(24).pending
    result = validate(game.to_log())
    assert result.valid and result.overrides == ((26, "C.cost", "we misread the price"),)
    assert result.state == game.state


@pytest.mark.parametrize(
    "move",
    [ev.DiePlaced("Bruno", "black-9", "castle"), ev.DiePlaced("Bruno", "gray-1", "moon"), ev.DiePlaced("Ana", "gray-1", "castle")],
    ids=["die-not-on-the-table", "no-such-location", "not-her-turn"],
)
def test_accept_refuses_a_move_that_cannot_be_laid_out_with_HISTORY_override(move):
    game = game_after(14)
    before = untouched(game)
    with pytest.raises(RuleViolation) as caught:
        game.accept(move, "the table allowed it")
    assert caught.value.rule == "HISTORY.override"
    assert untouched(game) == before


# --- notes and bookmarks ------------------------------------------------------------------------


def test_notes_and_bookmarks_are_stored_shown_and_leave_the_state_alone():
    game = game_after(20)
    state, pending = game.state, game.pending
    game.note(16, "the die rolled off the table")
    game.note(16, "ruling: it stays where it landed", by="Ana")
    game.note(20, "big turn", bookmark=True)
    assert game.events[20:] == [ev.Noted(TABLE, 16, "the die rolled off the table"),
                                ev.Noted("Ana", 16, "ruling: it stays where it landed"), ev.Bookmarked(TABLE, 20, "big turn")]
    assert game.line.notes == {16: ("the die rolled off the table", "ruling: it stays where it landed")}
    assert game.line.bookmarks == {20: "big turn"}
    assert game.state == state and game.pending == pending
    assert [p.event for p in game.line.plays] == list(E[:20])
    for bad in (21, 0, 99):
        before = untouched(game)
        with pytest.raises(RuleViolation) as caught:
            game.note(bad, "x")
        assert caught.value.rule == "HISTORY.target" and untouched(game) == before
    game.record(E[20])
    assert game.state == after(21)


# --- export -> import -> export -------------------------------------------------------------------


@pytest.fixture(params=["memory", "sqlite"])
def store(request, tmp_path):
    s = GameStore(in_memory=True) if request.param == "memory" else GameStore(tmp_path / "games.sqlite")
    yield s
    s.close()


def eventful(store: GameStore, name: str = "eventful") -> Game:
    """A stored game with two corrections, an accepted rule break, notes, a bookmark and an undo: a clean line."""
    games = Games(store)
    assert games.import_log(log_of(E[:20]), name).how == "stored"
    stored(games.correct(name, 16, PLACE_20))
    stored(games.correct(name, 20, PLACE_16))
    recorded(games, name, *E[20:24])
    stored(games.accept(name, TOO_DEAR, "we misread the price; play on"))
    stored(games.note(name, 30, "Conceição: «it costs 4», agreed ✓"))
    stored(games.note(name, 16, "swapped dice", bookmark=True))
    for _ in range(3):
        options = legal(store.get(name).state)
        assert not isinstance(options, OutcomeSpace)
        recorded(games, name, options[0])
    return stored(games.undo(name))


def test_export_import_export_is_byte_identical_with_history_entries(store, tmp_path):
    game = eventful(store)
    assert not is_plain(game.events) and game.replay.skipped == ()
    kinds = {type(e) for e in game.events}
    assert {ev.Corrected, ev.Retracted, ev.RuleOverridden, ev.Noted, ev.Bookmarked} <= kinds
    first = game_log.dumps(store.export("eventful"))
    assert game_log.dumps(store.get("eventful").to_log()) == first
    assert validate(log_reader.loads(first)).valid
    imported = Games(store).import_log(log_reader.loads(first), "copy", copy=True)
    assert imported.how == "copy"
    copy = imported.game
    assert game_log.dumps(store.export("copy")) == first
    assert copy.state == game.state and copy.line == game.line and store.inspect("copy").problems == ()
    other = GameStore(tmp_path / "other.sqlite")
    try:
        assert Games(other).import_log(log_reader.loads(first), "elsewhere").how == "stored"
        assert game_log.dumps(other.export("elsewhere")) == first
    finally:
        other.close()


# --- forks --------------------------------------------------------------------------------------


@pytest.fixture
def memory():
    s = GameStore(in_memory=True)
    yield s
    s.close()


@pytest.fixture
def games(memory: GameStore) -> Games:
    """The application on the ``memory`` store."""
    return Games(memory)


def rolled(games: Games, name: str) -> ev.GameEvent:
    """The table's outcome ``Games.roll`` drew and stored."""
    outcome = games.roll(name)
    assert isinstance(outcome, Stored), outcome
    return outcome.outcome


def test_fork_shares_the_first_entries_and_records_its_parent(memory, games):
    games.import_log(LOG, "g1")
    fork = games.fork("g1", 30, "f1", "parent")
    assert fork.events == list(E[:30]) and fork.state == after(30)
    assert fork.header.players == LOG.players and fork.header.catalog_sha256 == LOG.catalog_sha256
    assert fork.header.meta["parent"] == "g1" and fork.header.meta["forked_at"] == 30 and fork.header.meta["rolls"] == "parent"
    assert memory.inspect("f1").problems == ()
    stored = memory.get("f1")
    assert stored.events == fork.events and stored.state == fork.state
    assert {(i.name, i.parent) for i in memory.games()} == {("g1", None), ("f1", "g1")}
    assert memory.info("f1").to_json()["parent"] == "g1"
    assert games.fork("g1", 0, "f0", "manual").events == [] and games.fork("g1", len(E), "fall", "manual").state == FINAL
    assert memory.get("g1").events == list(E)  # the parent is untouched


@pytest.mark.parametrize("at", [-1, len(E) + 1, 10_000])
def test_fork_refuses_a_point_out_of_range(memory, games, at):
    games.import_log(LOG, "g1")
    with pytest.raises(BadFork):
        games.fork("g1", at, "f", "manual")
    assert [i.name for i in memory.games()] == ["g1"]


def test_fork_refuses_a_point_between_an_introduction_and_its_event(memory, games):
    eventful(memory, "h")
    events = memory.get("h").events
    intros = [k for k, e in enumerate(events, 1) if type(e) in (ev.Corrected, ev.RuleOverridden)]
    assert len(intros) == 3
    for at in intros:
        with pytest.raises(BadFork, match=f"entry {at} introduces"):
            games.fork("h", at, f"f{at}", "manual")
        fork = games.fork("h", at + 1, f"g{at}", "manual")  # just after the introduced event is fine
        assert fork.events == events[:at + 1]
        assert fork.state == replay(fork.initial, resolve(events[:at + 1]), stop_at_violation=False).state
    assert {i.name for i in memory.games()} == {"h", *(f"g{at}" for at in intros)}


def test_fork_refuses_a_bad_rolls_policy(memory, games):
    games.import_log(LOG, "g1")
    for rolls in ("seed:", "seed:x", "dice", "parent:1"):
        with pytest.raises(BadFork):
            games.fork("g1", 13, "f", rolls)
    assert [i.name for i in memory.games()] == ["g1"]


def test_fork_rolls_parent_reuses_the_parents_outcome(memory, games):
    games.import_log(LOG, "g1")
    games.fork("g1", 13, "f", "parent")  # right before the first DiceRolled
    assert rolled(games, "f") == E[13]
    assert memory.get("f").events == list(E[:14])
    # a parent that never got that far has no outcome to give
    games.import_log(log_of(E[:13]), "short", copy=True)  # g1 holds these 13 entries: a deliberate copy
    games.fork("short", 13, "f2", "parent")
    with pytest.raises(TableInputNeeded):
        rolled(games, "f2")


def test_fork_rolls_seed_is_deterministic(memory, games):
    games.import_log(LOG, "g1")
    games.fork("g1", 13, "a", "seed:5")
    games.fork("g1", 13, "b", "seed:5")
    drawn = rolled(games, "a")
    assert type(drawn) is ev.DiceRolled and rolled(games, "b") == drawn
    assert memory.get("a").events == memory.get("b").events
    # the draw depends only on the seed and the point of the game
    games.fork("g1", 0, "c", "seed:5")
    games.fork("g1", 0, "d", "seed:5")
    assert rolled(games, "c") == rolled(games, "d")


def test_fork_rolls_manual_needs_the_table_input(memory, games):
    games.import_log(LOG, "g1")
    games.fork("g1", 13, "m", "manual")
    with pytest.raises(TableInputNeeded):
        rolled(games, "m")
    assert len(memory.get("m").events) == 13
    recorded(games, "m", E[13])  # typed by hand instead
    assert memory.get("m").state == after(14)


def test_roll_when_a_player_must_act_is_refused(memory, games):
    games.import_log(LOG, "g1")
    games.fork("g1", 14, "p", "seed:1")
    with pytest.raises(TableInputNeeded):
        rolled(games, "p")
    assert len(memory.get("p").events) == 14


def test_a_seeded_game_rolls_from_its_seed(memory, games):
    a = games.new_game(P2, name="a", seed=3)
    b = games.new_game(P2, name="b", seed=3)
    assert a.events == b.events and len(a.events) == 6
    for name in ("a", "b"):
        game = memory.get(name)
        while game.pending.actor != TABLE:
            game = recorded(games, name, legal(game.state)[0])
    assert rolled(games, "a") == rolled(games, "b")


@settings(max_examples=max(settings.default.max_examples // 4, 10), deadline=None)
@given(
    seed=st.integers(0, 10_000),
    count=st.integers(2, 4),
    history=st.booleans(),
    data=st.data(),
)
def test_property_a_fork_equals_its_parent_up_to_the_fork_point(seed, count, history, data):
    players = DEFAULT_PLAYERS[:count]
    log, _ = simulate(CAT, players, seed)
    store = GameStore(in_memory=True)
    games = Games(store)
    try:
        if history:  # a parent with history entries: a correction, an accepted rule break or a note, an undo
            cut = data.draw(st.integers(1, len(log.events)), label="cut")
            games.import_log(log.with_events(log.events[:cut]), "p")
            last = store.get("p").line.plays[-1]
            stored(games.correct("p", last.seq, last.event))
            stored(games.note("p", data.draw(st.integers(1, cut), label="noted"), "a note"))
            if data.draw(st.booleans(), label="undo"):
                stored(games.undo("p"))
        else:
            games.import_log(log, "p")
        parent = store.get("p")
        at = data.draw(st.integers(0, len(parent.events)), label="at")
        if at and type(parent.events[at - 1]) in (ev.Corrected, ev.RuleOverridden):
            with pytest.raises(BadFork):
                games.fork("p", at, "f", "manual")
            return
        fork = games.fork("p", at, "f", "manual")
        assert fork.events == parent.events[:at]
        expected = replay(parent.initial, resolve(parent.events[:at]), stop_at_violation=False).state
        assert fork.state == expected == store.get("f").state
        if is_plain(parent.events[:at]):
            assert expected == fold(parent.initial, parent.events[:at])
        assert store.inspect("f").problems == ()
        assert store.info("f").parent == "p"
    finally:
        store.close()
