"""The reasons of an analysis (issue 42, item 5): each decision's top options, what the best gains by source of
points, the turning points, the losses by kind of decision and by round, and one entry looked at alone (``--seq``)."""

from __future__ import annotations

import subprocess

import orjson
import pytest

from coimbra_events.analysis.engine import analyse, line_of_play
from coimbra_events.analysis.evaluation import Settings, option_list
from coimbra_events.analysis.playouts import Streams, final_table, play_out
from coimbra_events.analysis.reasons import GAINS, gains, points_by_source
from coimbra_events.catalog import standin_catalog
from coimbra_events.log_reader import read
from coimbra_events.rules.fast import Fold
from coimbra_events.rules.scoring import totals
from projections.analysis import entry_alone, read_model
from projections.analysis_reasons import TOP, TURNING_POINTS
from tests.conftest import FIXTURES
from tests.test_analysis_cli import opening, run as installed_analyse  # noqa: F401 (opening: a fixture)

GAME = FIXTURES / "games" / "standin-2p-seed1.json"
FEW = Settings(playouts=4, first_pass=2, candidates=2, settle=8, batch=4, luck=4)


@pytest.fixture(scope="module")
def entries():
    return line_of_play(read(GAME), standin_catalog())


@pytest.fixture(scope="module")
def analysed(entries) -> dict:
    """The read model of 30 entries of the fixture's round 3, with few playouts (in the last round the playout policy
    plays exactly and the game is decided: every option is best there, so no gains to show)."""
    return read_model(analyse(entries[-60:-30], FEW), entries, {})


def test_points_by_source_add_up_to_each_final_score(entries):
    """The fixture's end: every point of each player has a source (the sheet's 58 and 79)."""
    end = Fold().apply(entries[-1].before, entries[-1].event)
    by_source = [points_by_source(end, seat) for seat in range(len(end.players))]
    assert [sum(mine.values()) for mine in by_source] == totals(end) == [58, 79]
    assert by_source[1]["voyages"] == 30 and by_source[0]["exchange"] == 14


def test_the_gains_are_played_by_the_playout_policy(entries):
    """``final_table`` ends where ``play_out`` ends on the same streams, and the gains play it: the gains read the policy the grades read
    (a new policy in ``playouts`` that ``reasons`` does not follow fails here)."""
    start = entries[60].before
    for k in range(6):
        ended = final_table(start, Streams(3, 60, k), Fold(scratch=True))
        assert tuple(totals(ended)) == play_out(start, Streams(3, 60, k)).scores


def test_the_gains_by_source_add_up_to_the_difference_of_expected_scores(entries):
    """What the best gains over the one played, summed over the sources, is the difference of the player's mean
    final scores on the same paired playouts."""
    entry = entries[60]
    options = option_list(entry.before, entry.event)
    settings = Settings(playouts=8, seed=2)
    found = dict(gains(entry.before, options[0], options[-1], settings, entry.index))
    seat = entry.before.index[entry.before.pending.actor]

    def mean_score(option):
        start = Fold().apply(entry.before, option)
        return sum(play_out(start, Streams(2, entry.index, GAINS + k)).scores[seat] for k in range(8)) / 8

    assert found and sum(found.values()) == pytest.approx(mean_score(options[0]) - mean_score(options[-1]), abs=0.05)
    assert list(found.values()) == sorted(found.values(), key=abs, reverse=True)


def test_each_decision_has_its_top_options_and_gains_where_the_best_was_another(analysed):
    graded = [d for d in analysed["decisions"] if not d["forced"]]
    assert any(d["gains"] for d in graded)
    for d in analysed["decisions"]:
        assert d["top"] == [{k: o[k] for k in ("option", "played", "win", "score")} for o in d["options"][:TOP]]
        assert bool(d["gains"]) <= (d["grade"] != "best"), d["seq"]
        assert all(not source.startswith(("c-", "m-", "v-")) for source in d["gains"])  # names, never ids


def test_the_losses_by_kind_and_by_round_add_up_to_each_players_summed_loss(analysed):
    players = analysed["players"]
    graded = [d for d in analysed["decisions"] if not d["forced"]]
    for field in ("kind", "round"):
        rows = analysed[f"by_{field}"]
        assert [r[field] for r in rows] == sorted({d[field] for d in graded})
        assert sum(r["decisions"] for r in rows) == len(graded)
        for name in players:
            summed = sum(d["loss"] for d in graded if d["player"] == name)
            assert sum(r["players"][name] for r in rows) == pytest.approx(summed, abs=0.1 * len(rows))


def test_the_turning_points_are_the_largest_swings_of_the_curve(analysed):
    curve = analysed["curve"]
    swings = sorted((max(abs(after["win"][n] - before["win"][n]) for n in analysed["players"]), after["seq"])
                    for before, after in zip(curve, curve[1:]))
    points = analysed["turning_points"]
    assert len(points) == TURNING_POINTS
    assert [max(abs(v) for v in t["swing"].values()) for t in points] == pytest.approx(
        sorted((100 * s for s, _ in swings), reverse=True)[:TURNING_POINTS], abs=0.051)
    decisions = {d["seq"]: d for d in analysed["decisions"]}
    for t in points:
        if t["seq"] in decisions:
            assert (t["what"], t["player"], t["grade"]) == tuple(decisions[t["seq"]][k] for k in ("played", "player", "grade"))


def test_one_entry_alone_gives_the_figures_the_whole_analysis_gives_it(entries, analysed):
    """``--seq``: the same settings and seed measure an entry alone as the whole game's analysis measures it."""
    log = read(GAME)
    together = read_model(analyse(entries[12:15], FEW), entries, {})  # a decision, a roll, a decision
    assert together["luck"]
    for d in (analysed["decisions"][3], together["luck"][0], together["decisions"][-1]):
        alone = entry_alone(log, standin_catalog(), d["seq"], FEW)
        assert (alone["decisions"] or alone["luck"]) == [d]
    with pytest.raises(LookupError):
        entry_alone(log, standin_catalog(), len(log.events) + 1, FEW)


def run(*args: str, cache) -> subprocess.CompletedProcess:
    return installed_analyse(*args, "--settle", "8", "--luck", "4", "--jobs", "1", cache=cache)


def test_seq_looks_at_one_decision_alone_deeper_and_is_not_kept(opening):
    path, cache = opening
    out = run(str(path), "--seq", "16", "--playouts", "8", "--json", cache=cache / "alone")
    assert out.returncode == 0, out.stderr
    report = orjson.loads(out.stdout)
    assert [d["seq"] for d in report["decisions"]] == [16] and report["key"]["seq"] == 16
    assert report["key"]["settings"]["playouts"] == 8 and not (cache / "alone").exists()
    text = run(str(path), "--seq", "16", "--playouts", "8", cache=cache / "alone").stdout
    assert "Entry 16 (round 1, Ana" in text and "winning chance" in text
    missing = run(str(path), "--seq", "99", "--playouts", "8", cache=cache / "alone")
    assert missing.returncode == 2 and "entry 99 is not in the line of play" in missing.stderr
