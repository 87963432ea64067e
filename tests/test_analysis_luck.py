"""Luck that keeps its sign: each outcome's luck and each player's total with a 95 % interval, a run of outcomes
measured on the same playouts so that its luck telescopes, what the players' luck sums to where first places are
shared, and the luck-adjusted result (the result less the luck). Few playouts keep these tests fast; how far a
total spreads across seeds at the default settings is ``bench/luck_spread.py``'s."""

from __future__ import annotations

import pytest

from coimbra_events.analysis import luck as luck_module
from coimbra_events.analysis.engine import analyse, line_of_play, units
from coimbra_events.analysis.evaluation import Settings
from coimbra_events.analysis.luck import Luck, chances, evened, exchangeable, luck, run_luck, total
from coimbra_events.catalog import standin_catalog
from coimbra_events.log_reader import read
from coimbra_events.rules.fast import Fold
from coimbra_events.rules.scoring import places, totals
from projections.analysis import read_model
from tests.conftest import FIXTURES

GAME = FIXTURES / "games" / "standin-2p-seed1.json"
FEW = Settings(playouts=4, first_pass=2, candidates=2, settle=8, batch=4, luck=8)


@pytest.fixture(scope="module")
def line():
    return line_of_play(read(GAME), standin_catalog())


@pytest.fixture(scope="module")
def deal_and_roll(line):
    """Round 3's deal and roll: one run of random entries, no decision between them (round 2's leave Ana no chance
    in a few playouts)."""
    deal = [k for k, e in enumerate(line) if k > 6 and e.is_outcome and line[k + 1].is_outcome][1]
    assert line[deal + 1].is_outcome and line[deal + 1].run == deal and line[deal].run == deal
    return line[deal], line[deal + 1]


@pytest.fixture(scope="module")
def report(line, deal_and_roll):
    """The deal, the roll and the game's last entry analysed with few playouts."""
    return read_model(analyse([*deal_and_roll, line[-1]], FEW), line, {})


def test_each_outcome_and_each_total_has_a_95_interval_around_its_luck(report):
    assert len(report["luck"]) == 2
    for u in report["luck"]:
        for name in report["players"]:
            low, high = u["interval"][name]
            assert low <= u["luck"][name] <= high
    for name, s in report["summary"].items():
        low, high = s["luck_interval"]
        assert low <= s["luck"] <= high
        assert s["luck"] == pytest.approx(sum(u["luck"][name] for u in report["luck"]), abs=0.11)
    assert any(u["interval"][name][0] < u["interval"][name][1] for u in report["luck"] for name in report["players"])


def test_the_luck_adjusted_result_is_the_result_less_the_luck(report, line):
    final = Fold().apply(line[-1].before, line[-1].event)
    assert final.over
    first = [place == 1 for place in places(final, totals(final))]
    for p, (name, s) in enumerate(report["summary"].items()):
        assert s["result"] == (100.0 if first[p] else 0.0)
        assert s["luck_adjusted"] == pytest.approx(s["result"] - s["luck"], abs=0.11)
        low, high = s["luck_interval"]
        assert s["luck_adjusted_interval"] == pytest.approx([s["result"] - high, s["result"] - low], abs=0.11)


def test_a_run_of_outcomes_telescopes_the_table_after_one_is_measured_as_the_next_measures_it(deal_and_roll):
    """The deal's "after" is the roll's "before" playout by playout, so the two lucks sum to the playouts after the
    roll less those before the deal, and the run's total has the spread of that one difference."""
    deal, roll = deal_and_roll
    first = luck(deal.before, deal.event, 3, deal.index, deal.run, 6)
    second = luck(roll.before, roll.event, 3, roll.index, roll.run, 6)
    assert first.after == second.before == chances(roll.before, 3, roll.index, roll.run, 6)
    after_roll = Fold().apply(roll.before, roll.event)  # a decision next: the run's streams alone play it on, paired
    assert second.after == chances(after_roll, 3, roll.index + 1, roll.run, 6) == chances(after_roll, 3, 0, roll.run, 6)
    whole = Luck(first.before, second.after)
    for p in range(2):
        assert first.points(p) + second.points(p) == pytest.approx(whole.points(p))
        runs = [(deal.run, first.points(p), first.differences(p)), (roll.run, second.points(p), second.differences(p))]
        assert total(runs) == pytest.approx((whole.points(p), whole.se(p)))


def test_totals_add_the_errors_of_runs_in_quadrature_and_of_one_run_playout_by_playout():
    up, down = (1, 0, 1, 0), (-1, 0, -1, 0)
    assert total([(0, 50.0, up), (0, -50.0, down)]) == (0.0, 0.0)  # one run: cancels playout by playout
    alone = total([(0, 50.0, up)])[1]
    assert alone > 0 and total([(0, 50.0, up), (7, -50.0, down)])[1] == pytest.approx(alone * 2 ** 0.5)


def test_with_a_shared_first_place_the_luck_of_two_players_sums_to_the_change_in_shared_firsts():
    """GAPS 11: a first place still shared after the tie break counts as first for each, so with two players an
    outcome's luck sums to zero only where it changes nothing in how often both finish first."""
    before = [(True, False), (False, True), (True, False), (False, True)]
    after = [(True, True), (False, True), (True, False), (True, True)]  # two playouts now end in a shared first
    found = Luck(before, after)
    assert found.points(0) == 25.0 and found.points(1) == 25.0
    assert found.shared() == 50.0 == found.points(0) + found.points(1)
    assert Luck(before, before[::-1]).shared() == 0.0


def test_the_read_model_says_what_each_outcomes_luck_sums_to(report):
    for u in report["luck"]:
        assert sum(u["luck"].values()) == pytest.approx(u["shared"], abs=0.11)


def test_before_the_seating_no_player_can_be_favoured_so_each_playout_counts_its_first_places_shared_evenly(line):
    """The setup's draws before the seating (monasteries, scoring tiles, voyages) favour no player: their luck is
    what they change in the chance of a shared first place, the same for each player, and the table before the
    seating is measured with no spread but that of how many finish first (exact knowledge, not playouts' noise)."""
    seating = next(e for e in line if type(e.event).__name__ == "SeatingDrawn")
    assert [exchangeable(e.before) for e in line[: seating.index + 2]] == [True] * (seating.index + 1) + [False]
    voyages = line[seating.index - 1]
    drawn = luck(voyages.before, voyages.event, 5, voyages.index, voyages.run, 8)
    assert drawn.points(0) == drawn.points(1) == pytest.approx(drawn.shared() / 2)
    seated = luck(seating.before, seating.event, 5, seating.index, seating.run, 8)
    assert all(b[0] == b[1] == sum(b) / 2 for b in seated.before)
    assert seated.after == chances(Fold().apply(seating.before, seating.event), 5, seating.index + 1, seating.run, 8)


def test_sharing_out_evenly_keeps_each_playouts_first_places_and_removes_their_spread():
    assert evened((1.0, 0.0)) == (0.5, 0.5) and evened((1.0, 1.0, 0.0)) == (2 / 3,) * 3
    spread = Luck([(1.0, 0.0), (0.0, 1.0)] * 2, [(1.0, 0.0)] * 4).se(0)
    assert spread > 0 and Luck([evened(f) for f in [(1.0, 0.0), (0.0, 1.0)] * 2], [(1.0, 0.0)] * 4).se(0) == 0.0


def test_a_run_measured_together_plays_each_table_out_once_and_gives_what_each_entry_gives_alone(line, deal_and_roll,
                                                                                                  monkeypatch):
    deal, roll = deal_and_roll
    alone = [luck(e.before, e.event, 3, e.index, e.run, 6) for e in (deal, roll)]
    played: list[int] = []
    measure = luck_module.chances
    monkeypatch.setattr(luck_module, "chances", lambda *a: played.append(a[2]) or measure(*a))
    together = run_luck([(e.before, e.event, e.index) for e in (deal, roll)], 3, deal.run, 6)
    assert [(u.before, u.after) for u in together] == [(u.before, u.after) for u in alone]
    assert played == [deal.index, roll.index, roll.index + 1]  # the table between them once, not twice
    shares = units(line)
    assert (deal.index, roll.index) in shares and tuple(range(6)) in shares  # the setup's six draws: one run
    assert sorted(k for unit in shares for k in unit) == list(range(len(line)))
