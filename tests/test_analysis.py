"""The analysis: grades that mean what they say, no peeking at the record, the same result for the
same seed and settings however many processes work, and a command that prints it with names.

Small playout counts keep these tests fast; the heavy figures (time, steadiness, strength) are
``bench/analyse.py``'s.
"""

from __future__ import annotations

import json
import math
import subprocess
import sys

import pytest

from coimbra_events import events as ev
from coimbra_events.analysis.engine import analyse, line_of_play
from coimbra_events.analysis import evaluation
from coimbra_events.analysis.evaluation import Settings, Tally, decide, option_list, paired, settle
from coimbra_events.analysis.luck import luck
from coimbra_events.analysis.grades import GRADES, certain, grade, interval, reach
from coimbra_events.analysis.playouts import Streams, outcome, play_out
from coimbra_events.analysis.strength import duel
from coimbra_events.catalog import standin_catalog
from coimbra_events.log_reader import read
from coimbra_events.rules.core import legal, start
from coimbra_events.rules.fast import Fold
from coimbra_events.rules.scoring import final_scores
from coimbra_events.simulator import DEFAULT_PLAYERS, simulate
from coimbra_events.state import GameState, PlayerState
from tests.conftest import FIXTURES, ROOT

GAME = FIXTURES / "games" / "standin-2p-seed1.json"
TINY = Settings(playouts=4, first_pass=2, candidates=2, settle=8, batch=4, luck=4)
"""Enough playouts to exercise every step of the analysis, few enough for a test."""


@pytest.mark.parametrize(("loss", "expected"), [(0.0, "best"), (2.49, "best"), (2.5, "good"), (4.99, "good"),
                                                (5.0, "inaccuracy"), (9.99, "inaccuracy"), (10.0, "mistake"),
                                                (14.99, "mistake"), (15.0, "blunder"), (100.0, "blunder")])
def test_grades_begin_at_lichess_thresholds(loss, expected):
    assert grade(loss) == expected and expected in GRADES


@pytest.mark.parametrize(("loss", "se", "expected"), [
    (0.0, 0.0, ("best",)), (1.0, 0.5, ("best",)), (2.0, 0.3, ("best", "good")), (2.6, 0.02, ("good",)),
    (2.6, 0.06, ("best", "good")), (7.5, 1.2, ("inaccuracy",)), (7.5, 1.3, ("good", "inaccuracy", "mistake")),
    (14.5, 0.3, ("mistake", "blunder")), (99.0, 5.0, ("blunder",))])
def test_reach_is_every_grade_the_95_percent_interval_spans(loss, se, expected):
    """2.6 ± 1.96 × 0.06 reaches below 2.5, ± 1.96 × 0.02 does not; 7.5 ± 1.96 × 1.3 crosses both 5 and 10."""
    assert reach(loss, se) == expected


def with_points(state: GameState, name: str, points: int) -> GameState:
    """The same table with one player's scoring disc moved: a hand-made position."""
    players = tuple(PlayerState(*(points if f == "points" and p.name == name else getattr(p, f) for f in PlayerState.FIELDS))
                    for p in state.players)
    return GameState(*(players if f == "players" else getattr(state, f) for f in GameState.FIELDS))


def last_decision(seed: int) -> GameState:
    """The table before the last decision of a simulated 2-player game (a voyage in the last phase F)."""
    catalog = standin_catalog()
    log, _ = simulate(catalog, DEFAULT_PLAYERS[:2], seed)
    state, fold = start(catalog, log.players), Fold()
    for event in log.events[:-1]:
        state = fold.apply(state, event)
    return state


@pytest.fixture(scope="module")
def decided_by_a_voyage():
    """Ana's last voyage decides the game: investing scores enough to finish ahead of Bruno, passing does not, and
    no later round comes in which she could still afford it."""
    state = last_decision(0)
    options = legal(state)
    totals = {type(o): outcome(Fold().apply(state, o)).scores for o in options}
    invest, passed = totals[ev.VoyageInvested][0], totals[ev.VoyagePassed][0]
    assert state.pending.actor == "Ana" and invest > passed + 2
    bruno = state.player("Bruno")
    target = (invest + passed) // 2  # Bruno's total between Ana's two
    return with_points(state, "Bruno", bruno.points + target - totals[ev.VoyagePassed][1]), options


def test_a_voyage_the_player_cannot_afford_later_is_graded_best(decided_by_a_voyage):
    state, options = decided_by_a_voyage
    invest = next(o for o in options if isinstance(o, ev.VoyageInvested))
    decision = decide(state, invest, TINY, 0)
    loss, se = decision.loss(decision.played)
    assert decision.tallies[0].option == options.index(invest) and grade(loss) == "best"
    assert loss == -100.0 and interval(loss, se)[1] <= 0 and reach(loss, se) == ("best",), "ahead of every rival"


def test_passing_on_the_deciding_voyage_is_a_certain_blunder(decided_by_a_voyage):
    state, options = decided_by_a_voyage
    passed = next(o for o in options if isinstance(o, ev.VoyagePassed))
    decision = decide(state, passed, TINY, 0)
    loss, se = decision.loss(decision.played)
    assert grade(loss) == "blunder" and loss == 100.0 and certain(loss, se)


def total(state: GameState, event: ev.GameEvent, name: str) -> int:
    """A player's provisional final score just after ``event``."""
    return next(p.total for p in final_scores(Fold().apply(state, event)) if p.name == name)


@pytest.fixture(scope="module")
def a_card_worth_ten_points():
    """In the last round of a simulated game, Ana may buy a card that scores at least 10 points more than taking the
    alternative (coins and guards); Bruno's disc is put where the card decides the game."""
    catalog = standin_catalog()
    log, end = simulate(catalog, DEFAULT_PLAYERS[:2], 0)
    state, fold = start(catalog, log.players), Fold()
    for event in log.events:
        due = state.pending
        if due and due.actor == "Ana" and due.kind == "retrieve" and state.round == end.round:
            options = legal(state)
            alternative = max((o for o in options if isinstance(o, ev.AlternativeTaken)), key=lambda o: o.coins + o.guards)
            card = max((o for o in options if isinstance(o, ev.CardBought)), key=lambda o: total(state, o, "Ana"))
            if total(state, card, "Ana") - total(state, alternative, "Ana") >= 10:
                bruno = state.player("Bruno")
                ahead_by = total(state, card, "Ana") - total(state, card, "Bruno") - 4
                return with_points(state, "Bruno", bruno.points + ahead_by), card, alternative
        state = fold.apply(state, event)
    pytest.fail("no such card in the last round of the seed-0 game")


CLEAR = Settings(playouts=8, first_pass=4, candidates=2, settle=16, batch=8)


def test_a_card_scoring_ten_points_more_than_passing_is_best_and_passing_a_blunder(a_card_worth_ten_points):
    state, card, alternative = a_card_worth_ten_points
    bought = decide(state, card, CLEAR, 0)
    assert grade(bought.loss(bought.played)[0]) == "best"
    passed = decide(state, alternative, CLEAR, 0)
    loss, se = passed.loss(passed.played)
    assert grade(loss) == "blunder" and loss - 2 * se > 15


@pytest.fixture(scope="module")
def early_game():
    """The fixture's line of play up to round 2's roll, and the same with that roll changed."""
    log = read(GAME)
    rolls = [k for k, e in enumerate(log.events) if isinstance(e, ev.DiceRolled)]
    end = rolls[1] + 1
    changed = log.events[rolls[1]]
    other = ev.DiceRolled(changed.actor, tuple((die, 7 - value) for die, value in changed.values))
    catalog = standin_catalog()
    lines = [line_of_play(log.prefix(end), catalog),
             line_of_play(log.with_events(log.events[:end - 1] + (other,)), catalog)]
    assert lines[0][-1].event != lines[1][-1].event
    return rolls[0], lines


def test_no_peeking_an_outcome_recorded_later_changes_no_earlier_grade(early_game):
    """Round 1's decisions are measured alike whatever round 2's roll was, although the analysis is given that roll:
    a playout never uses an outcome recorded after its decision."""
    first_roll, (line, changed) = early_game
    window = slice(first_roll + 1, first_roll + 4)  # round 1's first decisions, a few of them
    before = analyse(line[window] + line[-1:], TINY)
    after = analyse(changed[window] + changed[-1:], TINY)
    assert before.decisions and before.decisions == after.decisions
    assert [d.seq for d in before.decisions] == [e.seq for e in line[window]]
    roll, other = line[-1], changed[-1]  # the roll itself is measured as what it was
    assert luck(roll.before, roll.event, 0, roll.index, roll.run, 64).after != luck(other.before, other.event, 0,
                                                                                     other.index, other.run, 64).after


def test_the_same_seed_gives_the_same_analysis_in_one_process_or_two(early_game):
    first_roll, (line, _) = early_game
    window = line[first_roll - 1:first_roll + 3]  # a deal, a roll and decisions
    one = analyse(window, TINY, jobs=1)
    assert one == analyse(window, TINY, jobs=2)
    assert one.luck and all(math.isclose(sum(u.luck), u.shared, abs_tol=1e-9) for u in one.luck)  # shared firsts: test_analysis_luck.py
    assert one != analyse(window, Settings(**{**TINY.to_json(), "seed": 1}), jobs=1)


def test_the_playouts_of_two_options_stay_alike_when_they_share_a_stream():
    """Common random numbers that stay common: playout k of two options of one decision, on the same streams, differ
    by much less than two playouts on streams of their own (the bots pick by where a decision falls, not by how many
    draws came before it). Fixture decision seq 44, two of its options, 300 playouts each way."""
    entry = next(e for e in line_of_play(read(GAME), standin_catalog()) if e.seq == 44)
    actor = entry.before.index[entry.before.pending.actor]
    starts = [Fold().apply(entry.before, o) for o in option_list(entry.before, entry.event)[:2]]

    def spread(apart: int) -> float:
        diffs = [int(play_out(starts[0], Streams(0, entry.index, k)).first[actor])
                 - int(play_out(starts[1], Streams(0, entry.index, k + apart)).first[actor]) for k in range(300)]
        mean = sum(diffs) / len(diffs)
        return math.sqrt(sum((d - mean) ** 2 for d in diffs) / (len(diffs) - 1))

    assert spread(0) < 0.8 * spread(1_000_000)


def test_a_player_choosing_by_the_analysis_beats_the_seeded_bots():
    """The CI sample of bench/analyse.py's strength figure: 4 seeded tables, seats alternating, one playout per option."""
    settings = Settings(playouts=1, first_pass=1, candidates=1)
    firsts = [duel(standin_catalog(), DEFAULT_PLAYERS[:2], 10_000 + g, g % 2, settings).first[g % 2] for g in range(4)]
    assert sum(firsts) >= 3


def test_the_analysis_as_a_player_takes_the_option_its_own_grading_finds_best():
    """``evaluation.analysis_choice``, "the analysis as a player" of issue 42's calibration: where the ranking alone
    (``best_option``, what that player was until now) picks an option the analysis's own grading finds a blunder
    (the fixture's entry 37, Ana's voyage: investing), the player takes what that grading found best instead, and is
    graded best for it. Were it the ranking's pick, the grader would find its mistakes and the accuracy of the analysis
    as a player would measure the ranking, not the analysis."""
    entry = line_of_play(read(GAME), standin_catalog())[37]
    settings = Settings(playouts=8, first_pass=8, settle=64)
    ranked = evaluation.best_option(entry.before, settings, entry.index)
    graded = decide(entry.before, ranked, settings, entry.index)
    assert grade(graded.loss(graded.played)[0]) == "blunder"
    choice = evaluation.analysis_choice(entry.before, settings, entry.index)
    assert choice != ranked and choice == option_list(entry.before, choice)[graded.tallies[0].option]
    chosen = decide(entry.before, choice, settings, entry.index)
    assert grade(chosen.loss(chosen.played)[0]) == "best"


def test_the_bench_against_another_build_times_both_in_turns_and_says_whether_they_agree(tmp_path):
    """``bench/analyse_against.py``, the figure behind a claim that a change made the analysis faster, run against
    this very checkout: both builds are timed, each imported from the folder asked for, and found to agree;
    a folder without the package is refused in one line. One decision of the last round (the policy's playouts of a
    first-round one take most of the timeout on a busy machine)."""
    bench = [sys.executable, str(ROOT / "bench" / "analyse_against.py")]
    done = subprocess.run([*bench, str(ROOT), "--entries", "124:125", "--rounds", "1", "--jobs", "1", "--json"],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    figures = json.loads(done.stdout)
    assert figures["same_analysis"] and figures["playouts"]["this"] == figures["playouts"]["base"] > 0
    assert all(len(figures[key][name]) == 1 for key in ("seconds", "cpu_seconds") for name in ("this", "base"))
    refused = subprocess.run([*bench, str(tmp_path)], capture_output=True, text=True, timeout=60)
    assert refused.returncode == 2 and "holds no coimbra_events package" in refused.stderr


def test_pairs_that_all_agree_are_not_taken_for_certainty():
    """Two options whose playouts all ended alike so far: no difference seen, yet a standard error that still allows
    one (one more pair differing each way), shrinking as the pairs grow."""
    def agreeing(n: int) -> Tally:
        tally = Tally(0, start(standin_catalog(), DEFAULT_PLAYERS[:2]), 0, 2)
        tally.firsts = [k % 2 for k in range(n)]
        return tally

    gaps = [paired(agreeing(n), agreeing(n)) for n in (64, 256, 1024)]
    assert [mean for mean, _ in gaps] == [0.0, 0.0, 0.0]
    assert 0.02 < gaps[0][1] and gaps[0][1] > gaps[1][1] > gaps[2][1] > 0


def test_settling_measures_the_loss_against_the_rival_the_option_played_trails_most(a_card_worth_ten_points):
    """The option played is settled against several rivals at once: whichever order they come in, the loss is
    against the one that does best (the card), and a rival that cannot decide the grade does not make it worse."""
    state, card, alternative = a_card_worth_ten_points
    actor = state.index["Ana"]
    tallies = {o: Tally(k, Fold().apply(state, o), actor, len(state.players)) for k, o in enumerate((card, alternative))}
    for rivals in ([tallies[alternative], tallies[card]], [tallies[card], tallies[alternative]]):
        settled = settle(rivals, tallies[alternative], CLEAR, 0)
        assert settled.lead.option == tallies[card].option and grade(settled.loss) == "blunder"
        assert 0 < settled.spent <= 3 * CLEAR.settle


def test_a_decision_with_no_more_other_options_than_rivals_is_settled_without_a_ranking():
    """Every other option is a rival whatever a ranking says: the decision's playouts are the settling step's
    alone, and every option is listed with them."""
    entry = next(e for e in reversed(line_of_play(read(GAME), standin_catalog()))
                 if not e.is_outcome and 2 <= len(option_list(e.before, e.event)) <= 1 + Settings.rivals)
    decision = decide(entry.before, entry.event, CLEAR, entry.index)
    assert all(t.offset == evaluation.SETTLING for t in decision.tallies)
    assert decision.playouts == sum(t.n for t in decision.tallies) > 0


def test_a_forced_decision_is_measured_as_the_best_with_nothing_to_settle():
    """A decision with one legal option (here a start group, the last one left) has no rival: it is the best, no loss
    (settling it against no rival failed on an empty list, so any game with one could not be analysed)."""
    log, _ = simulate(standin_catalog(), DEFAULT_PLAYERS[:2], 0)
    entry = next(e for e in line_of_play(log, standin_catalog())
                 if not e.is_outcome and len(option_list(e.before, e.event)) == 1)
    decision = decide(entry.before, entry.event, CLEAR, entry.index)
    assert [t.option for t in decision.tallies] == [0] and decision.loss(decision.played) == (0.0, 0.0)


def test_settling_stops_where_even_its_cap_would_leave_the_loss_on_a_grades_bound(a_card_worth_ten_points, monkeypatch):
    """Past the race, a loss sitting on a grade's bound is a coin's toss whatever the cap: the step stops at the look
    that finds it there, and the playouts the cap allows are left to other decisions (``FUTILE_Z``)."""
    state, card, alternative = a_card_worth_ten_points
    actor = state.index["Ana"]

    def settled(settings: Settings) -> evaluation.Settled:
        tallies = [Tally(k, Fold().apply(state, o), actor, len(state.players)) for k, o in enumerate((card, alternative))]
        return settle(tallies[:1], tallies[1], settings, 0)

    monkeypatch.setattr(evaluation, "RACE", 16)
    at_race = settled(Settings(settle=16, batch=8))  # the loss these streams give after 16 paired playouts
    monkeypatch.setattr(evaluation, "_within_one_grade", lambda loss, se: False)  # the grade never settles
    monkeypatch.setattr(evaluation, "BOUNDS", (at_race.loss,))
    stopped = settled(Settings(settle=256, batch=8))
    assert stopped.loss == at_race.loss and stopped.mine.n == 16


def test_after_the_race_the_option_played_is_settled_against_the_leading_rival_alone(monkeypatch):
    """Rivals near the lead in value keep each other in the race; past ``RACE`` paired playouts only the leading
    rival goes on, so the playouts at the cap go to the one difference that decides the loss."""
    monkeypatch.setattr(evaluation, "RACE", 16)
    # the stop rule out of the way: on the policy's playouts this loss lies within one grade before the cap
    monkeypatch.setattr(evaluation, "_within_one_grade", lambda loss, se: False)
    monkeypatch.setattr(evaluation, "_futile", lambda loss, se, n, cap: False)
    entry = next(e for e in line_of_play(read(GAME), standin_catalog())
                 if not e.is_outcome and len(option_list(e.before, e.event)) >= 6)
    state = entry.before
    actor = state.index[entry.event.actor]
    tallies = [Tally(k, Fold().apply(state, o), actor, len(state.players))
               for k, o in enumerate(option_list(state, entry.event)[:4])]
    looks: dict[int, set[int]] = {}
    run = Tally.run

    def counted(self: Tally, settings: Settings, index: int, until: int) -> None:
        looks.setdefault(until, set()).add(self.option)
        run(self, settings, index, until)

    monkeypatch.setattr(Tally, "run", counted)
    settled = settle(tallies[1:], tallies[0], Settings(settle=64, batch=8), entry.index)
    lead, spent = settled.lead, settled.spent
    assert len(looks[16]) == 4, "the option played and three rivals race"
    assert all(len(options) == 2 for until, options in looks.items() if until > 16)
    assert max(looks) == 64 and lead.option in looks[64] and spent == 4 * 16 + 2 * (64 - 16)
