"""No catalog value in code: a catalog with other values everywhere drives the rules' statements,
the refusals that quote them, the board view and the scores."""

from __future__ import annotations

import os
import subprocess

import orjson
import pytest

from coimbra_events.catalog import Catalog, parse_catalog
from coimbra_events.events import AlternativeTaken
from coimbra_events.rules import core
from coimbra_events.rules.scoring import final_scores, track_ranking
from coimbra_events.simulator import DEFAULT_PLAYERS, simulate
from coimbra_events.record import replace
from coimbra_events.state import GameState
from coimbra_events.catalog.effect_kinds import TRACKS
from coimbra_events.violations import RULES, RuleViolation
from projections.board import board_view
from cli.record_texts import refusal_lines
from tests.conftest import installed_coimbra, other_values_data

CATALOG_STATEMENTS = ("SETUP.monasteries", "SETUP.voyages", "SETUP.rows", "SETUP.start-groups", "C.alternative", "F.cost")


@pytest.fixture(scope="module")
def games(other_values: Catalog) -> dict[int, GameState]:
    return {n: simulate(other_values, DEFAULT_PLAYERS[:n], 11)[1] for n in (2, 4)}


def test_statements_quote_the_catalog_in_force(other_values: Catalog, catalog: Catalog) -> None:
    said = {rule: RULES[rule].statement_for(other_values) for rule in CATALOG_STATEMENTS}
    assert "(9 from pile I, 4 from pile II, 2 from pile III)" in said["SETUP.monasteries"]
    assert said["SETUP.voyages"].startswith("7 different voyage cards")
    assert said["SETUP.rows"].startswith("Each city row gets 2 cards")
    assert said["SETUP.start-groups"].startswith("One group of 1 start cards")
    assert said["C.alternative"] == "The alternative action gains up to 3 coins and up to 1 guards."
    assert "(less 3 while Royal Charter is held)" in said["F.cost"]
    standin = {rule: RULES[rule].statement_for(catalog) for rule in CATALOG_STATEMENTS}
    assert standin["C.alternative"] == "The alternative action gains up to 2 coins and up to 2 guards."
    assert "(8 from pile I, 4 from pile II, 2 from pile III)" in standin["SETUP.monasteries"]
    assert "(less 2 while Royal Charter is held)" in standin["F.cost"]
    for rule in CATALOG_STATEMENTS:  # without a catalog, a statement says what the value is
        assert "{" not in RULES[rule].statement_for(None) and said[rule] != RULES[rule].statement_for(None)


def test_a_refusal_quotes_the_catalog_of_its_game(other_values: Catalog) -> None:
    log, _ = simulate(other_values, DEFAULT_PLAYERS[:2], 11)
    state = core.start(other_values, log.players)
    for event in log.events:
        if isinstance(core.legal(state), list) and any(isinstance(e, AlternativeTaken) for e in core.legal(state)):
            break
        state = core.apply(state, event)
    too_much = AlternativeTaken(core.due(state).actor, other_values.alternative_coins + 1, 0)
    violation = core.check(state, too_much)
    assert isinstance(violation, RuleViolation) and violation.rule == "C.alternative"
    assert violation.to_json(state.catalog)["rule_text"] == "The alternative action gains up to 3 coins and up to 1 guards."
    assert "C.alternative: The alternative action gains up to 3 coins" in refusal_lines("alt 4 0", violation, state.catalog)[1]


def test_the_rules_command_quotes_a_catalog_file(tmp_path) -> None:
    path = tmp_path / "other.json"
    path.write_bytes(orjson.dumps(other_values_data()))
    out = subprocess.run([installed_coimbra(), "rules", "--catalog", str(path), "--json"], capture_output=True,
                         text=True, timeout=60, env={**os.environ, "NO_COLOR": "1"})  # fmt: skip
    assert out.returncode == 0, out.stderr
    statements = {r["id"]: r["statement"] for r in orjson.loads(out.stdout)}
    assert statements["SETUP.rows"].startswith("Each city row gets 2 cards")
    assert statements["B.die"] == RULES["B.die"].text  # a rule without catalog values reads the same


def test_the_board_view_follows_the_catalog(other_values: Catalog, games: dict[int, GameState]) -> None:
    start = board_view(core.start(other_values, DEFAULT_PLAYERS[:4]))
    assert {(p["coins"], p["guards"], p["discs_in_supply"]) for p in start["players"]} == {(5, 6, 23)}
    for players, state in games.items():
        view = board_view(state)
        side = "4" if players == 4 else "2-3"
        assert other_values.scoring_side(players) == side
        for tile_id, shown in view["legend"]["scoring_tiles"].items():
            assert shown["points"] == list(other_values.scoring_tiles[tile_id].points[side])
        for shown, pl in zip(view["players"], state.players):
            assert shown["discs_in_supply"] == 23 - len(pl.monasteries) - len(pl.voyages)
        assert [v["cost"] for v in view["voyages"]] == [3, 5, 7, 1, 3, 5, 8]
        assert len(view["monasteries"]) == 15


def test_scores_follow_the_catalog(other_values: Catalog, games: dict[int, GameState]) -> None:
    for players, state in games.items():
        side = "4" if players == 4 else "2-3"
        expected_tiles = {p.name: 0 for p in state.players}
        for track, tile in zip(TRACKS, state.scoring_tiles):
            points = other_values.scoring_tiles[tile].points[side]
            for rank, pl in enumerate(track_ranking(state, track)):
                expected_tiles[pl.name] += points[rank] if rank < len(points) else 0
        for sheet in final_scores(state):
            pl = state.player(sheet.name)
            assert sheet.sources()["influence tiles"] == expected_tiles[sheet.name]
            assert sheet.leftover == pl.coins // 3 + pl.guards // 4


def test_ties_are_broken_as_the_catalog_says(other_values: Catalog, games: dict[int, GameState]) -> None:
    """Two players level on points, one with resources left (too few to score): shared, or to the richer."""
    state = games[2]
    poor, rich = replace(state.players[0], coins=0, guards=0), replace(state.players[1], coins=2, guards=3)
    level = replace(state, players=(poor, rich))
    totals = {s.name: s.total for s in final_scores(level)}
    level = replace(level, players=(replace(poor, points=poor.points + totals[rich.name] - totals[poor.name]), rich))
    assert len({s.total for s in final_scores(level)}) == 1
    assert {s.name: s.place for s in final_scores(level)} == {poor.name: 1, rich.name: 1}  # tie_break "shared"
    by_resources = parse_catalog({**other_values_data(), "final_scoring": {
        "leftover": {"coins_per_point": 3, "guards_per_point": 4}, "tie_break": "resources", "provenance": "printed"}})
    assert {s.name: s.place for s in final_scores(replace(level, catalog=by_resources))} == {poor.name: 2, rich.name: 1}


def test_simulate_refuses_a_player_count_the_catalog_is_not_for(tmp_path) -> None:
    data = other_values_data()
    data["players"]["min"] = 3
    del data["dice"]["removed"]["2"], data["die_tokens"]["2"]
    path = tmp_path / "three.json"
    path.write_bytes(orjson.dumps(data))
    out = subprocess.run([installed_coimbra(), "simulate", "--players", "2", "--seed", "1", "--catalog", str(path)],
                         capture_output=True, text=True, timeout=60, env={**os.environ, "NO_COLOR": "1"})  # fmt: skip
    assert out.returncode == 2 and out.stdout == ""
    assert out.stderr.strip() == "error: --players: catalog other-values-1 is for 3-4 players, got 2"
