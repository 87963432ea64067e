"""``show`` and ``diff``: the timeline projection, the commands on log files and on stored games, and end to end.

The oracle for "the table after N events" is always an independent fold: the
validator run over the first N events of the log.
"""

from __future__ import annotations

import random
from typing import Any, Iterator

import orjson
import pytest
from hypothesis import assume, given
from hypothesis import strategies as st
from typer.testing import CliRunner

import projections.consequences as consequences_module
from cli.app import app
from coimbra_events import log as game_log, log_reader
from coimbra_events.store.game_store import GameStore
from coimbra_events.game import IllegalLog
from coimbra_events.log import GameLog
from coimbra_events.rules.core import apply
from coimbra_events.simulator import DEFAULT_PLAYERS, next_event, simulate
from coimbra_events.validation import validate
from projections.board import board_view
from projections.diff import common_prefix, first_divergence, state_differences, table_moves
from projections.timeline import PHASES, TimelineError, timeline
from tests.store.conftest import GAMES, INVALID
from tests.store.test_cli_store import run, run_json

FIXTURE = GAMES[1]  # the 3-player game: 175 events, four full rounds
SHOW_KEYS = {"game", "at", "events", "event"}
DIFF_KEYS = {"a", "b", "at", "common_prefix", "first_divergence", "differences", "table_moves"}


def folded(log: GameLog, n: int) -> dict[str, Any]:
    """The oracle: the board after the first ``n`` events, by the validator's own fold."""
    result = validate(log.with_events(log.events[:n]))
    assert result.valid
    return board_view(result.state)


def as_json(view: dict[str, Any]) -> Any:
    """A view as the CLI prints it (tuples become lists)."""
    return orjson.loads(orjson.dumps(view))


def forked(log: GameLog, keep: int, seed: int) -> GameLog:
    """The first ``keep`` events of a game, then another line played by seeded bots to the end."""
    state = validate(log.with_events(log.events[:keep])).state
    rng, events = random.Random(seed), list(log.events[:keep])
    while not state.over:
        events.append(next_event(state, rng))
        state = apply(state, events[-1])
    return log.with_events(events)


# --- the timeline projection ---------------------------------------------------------------------


@pytest.mark.parametrize("path", GAMES, ids=lambda p: p.name)
def test_timeline_holds_every_state_of_a_log(path):
    log = log_reader.read(path)
    line = timeline(log)
    assert len(line) == len(line.states) == len(log.events) + 1 and line.events == log.events
    assert line.final == validate(log).state
    for n in (0, 1, len(log.events) // 2, len(log.events)):
        assert board_view(line.at(n)) == folded(log, n)


def test_the_timeline_folds_each_event_once_and_lookups_never_fold(monkeypatch):
    """One fold, which narrates each event as it applies it; reading an entry's changes narrates nothing again."""
    log = log_reader.read(FIXTURE)
    narrated = []
    real = consequences_module.narrate
    monkeypatch.setattr(consequences_module, "narrate", lambda s, events: narrated.extend(events) or real(s, events))
    line = timeline(log)
    assert narrated == list(log.events)
    for _ in range(2):
        for n in range(len(line)):
            line.at(n)
            assert line.changes[n] is line.changes[n]
    assert narrated == list(log.events)  # reading every entry's changes, twice, narrated nothing again
    for phase in PHASES[2:-1]:  # A to F
        line.index_of(3, phase)
    assert narrated == list(log.events)


def test_index_of_is_the_state_right_when_a_phase_begins():
    line = timeline(log_reader.read(FIXTURE))
    for round_, phase in [(0, "setup"), (0, "start"), (1, "A"), (2, "B"), (2, "C"), (3, "E"), (4, "F"), (4, "over")]:
        k = line.index_of(round_, phase)
        assert (line.at(k).round, line.at(k).phase) == (round_, phase)
        assert k == 0 or (line.at(k - 1).round, line.at(k - 1).phase) != (round_, phase)
    # phase D never waits for anyone: its state is the first one after it, where E begins
    assert line.index_of(2, "D") == line.index_of(2, "E")
    assert line.index_of(None, "over") == len(line) - 1 and line.index_of(2, "c") == line.index_of(2, "C")


@pytest.mark.parametrize("where", [(5, "A"), (0, "C"), (1, "setup"), (2, "X")])
def test_index_of_refuses_points_the_game_does_not_have(where):
    line = timeline(log_reader.read(FIXTURE))
    with pytest.raises(TimelineError):
        line.index_of(*where)


def test_at_refuses_out_of_range():
    line = timeline(log_reader.read(FIXTURE))
    for n in (-1, len(line)):
        with pytest.raises(TimelineError, match="choose 0 to"):
            line.at(n)


def test_a_timeline_of_an_illegal_log_is_refused():
    with pytest.raises(IllegalLog):
        timeline(log_reader.read(INVALID[0]))


def test_a_stored_game_gives_the_same_timeline_as_its_log(store, games):
    log = log_reader.read(FIXTURE)
    game = games.import_log(log, "g").game
    assert timeline(store.get("g")).states == timeline(log).states
    assert timeline(game).final == store.get("g").state


# --- the projection layer on random games ---------------------------------------------------------


@pytest.mark.property
@given(players=st.integers(2, 4), seed=st.integers(0, 2**32 - 1), where=st.floats(0, 1))
def test_show_at_n_is_the_fold_of_the_first_n_events(catalog, players, seed, where):
    log, final = simulate(catalog, DEFAULT_PLAYERS[:players], seed)
    n = round(where * len(log.events))
    line = timeline(log)
    assert board_view(line.at(n)) == folded(log, n)
    assert line.final == final


@pytest.mark.property
@given(players=st.integers(2, 4), seed=st.integers(0, 2**32 - 1))
def test_a_game_diffed_with_itself_has_no_differences(catalog, players, seed):
    log, final = simulate(catalog, DEFAULT_PLAYERS[:players], seed)
    assert common_prefix(log.events, log.events) == len(log.events)
    assert first_divergence(log.events, log.events, len(log.events)) is None
    assert state_differences(final, final) == [] and table_moves(final, final) == []


@pytest.mark.property
@given(players=st.integers(2, 4), seeds=st.lists(st.integers(0, 2**32 - 1), min_size=2, max_size=2, unique=True))
def test_two_seeds_part_at_the_first_event_and_differ_per_player(catalog, players, seeds):
    (a, end_a), (b, end_b) = (simulate(catalog, DEFAULT_PLAYERS[:players], s) for s in seeds)
    assume(a.events[0] != b.events[0])  # two draws of the monasteries may coincide, very rarely
    prefix = common_prefix(a.events, b.events)
    assert prefix == 0 and first_divergence(a.events, b.events, prefix)["seq"] == 1
    differences = state_differences(end_a, end_b)
    assert any(d.path.startswith("players.") for d in differences)
    assert table_moves(end_a, end_b)


# --- the commands, in process, on log files and on every kind of store ----------------------------


class Borrowed:
    """The test's store, lent to the CLI: the command's ``close()`` must not close it."""

    def __init__(self, store: GameStore) -> None:
        self._store = store

    def __getattr__(self, name: str) -> Any:
        return getattr(self._store, name)

    def close(self) -> None:
        pass


def lend(store: GameStore, monkeypatch: pytest.MonkeyPatch) -> None:
    """Make every command in this process open ``store`` (commands open the store through ``open_store`` alone). A
    lent store exists: ``open_store``'s check that the named store's file exists (``missing_store``) must not depend
    on what this machine's data folder holds."""
    monkeypatch.setattr("coimbra_events.store.opening.GameStore", lambda db=None, **kw: Borrowed(store))
    monkeypatch.setattr("coimbra_events.store.opening.missing_store", lambda db: None)


@pytest.fixture
def cli(store: GameStore, monkeypatch: pytest.MonkeyPatch) -> Iterator[Any]:
    """Run ``coimbra`` in process against the ``store`` fixture (memory, SQLite or PostgreSQL)."""
    lend(store, monkeypatch)
    monkeypatch.setenv("NO_COLOR", "1")
    runner = CliRunner()

    def invoke(*args: str) -> Any:
        result = runner.invoke(app, list(args), env={"COLUMNS": "120"})
        assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
        return result

    yield invoke


def test_show_json_of_a_stored_game_at_every_kind_of_point(games, cli):
    log = log_reader.read(FIXTURE)
    games.import_log(log, "g")
    line = timeline(log)
    for args, n in [((), len(log.events)), (("--at", "0"), 0), (("--at", "50"), 50),
                    (("--round", "2"), line.index_of(2, "A")), (("--round", "2", "--phase", "C"), line.index_of(2, "C")),
                    (("--phase", "start"), line.index_of(0, "start"))]:
        result = cli("show", "g", *args, "--json")
        assert result.exit_code == 0, result.output
        shown = orjson.loads(result.stdout)
        assert set(shown) == SHOW_KEYS | set(board_view(line.at(n)))
        assert (shown["game"], shown["at"], shown["events"]) == ("g", n, len(log.events))
        assert {k: v for k, v in shown.items() if k not in SHOW_KEYS} == as_json(folded(log, n))
        assert (shown["event"] is None) == (n == 0)
        if n:
            assert shown["event"]["seq"] == n and shown["event"]["notation"].startswith(log.events[n - 1].actor)


def test_show_text_names_the_point_and_the_event(games, cli):
    games.import_log(log_reader.read(FIXTURE), "g")
    result = cli("show", "g", "--round", "2", "--phase", "C")
    assert result.exit_code == 0
    for words in ("g · after 64 of 175 events", "event 64 of 175", "phase C: retrieving dice", "Favor tiles",
                  "Scoring tiles", "Map: monasteries and pilgrims", "Players"):
        assert words in result.stdout, words
    assert "Start groups" in cli("show", "g", "--phase", "start").stdout


@pytest.mark.parametrize("args, message", [
    (("--at", "176"), "choose 0 to 175"),
    (("--at", "-1"), "choose 0 to 175"),
    (("--at", "3", "--round", "1"), "--at cannot be combined"),
    (("--phase", "G"), "unknown phase 'G'"),
    (("--round", "5"), "round 5 phase A is not reached"),
])
def test_show_refuses_points_the_game_does_not_have(games, cli, args, message):
    games.import_log(log_reader.read(FIXTURE), "g")
    result = cli("show", "g", *args)
    assert result.exit_code == 2 and message in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1


def test_show_of_an_unknown_game_or_an_illegal_log(store, cli):
    assert cli("show", "nobody").exit_code == 2
    assert cli("show", str(INVALID[0])).exit_code == 1


def test_diff_of_a_stored_game_and_its_fork_in_a_log_file(games, cli, tmp_path):
    log = log_reader.read(FIXTURE)
    games.import_log(log, "g")
    fork = forked(log, 100, seed=11)
    game_log.write(tmp_path / "fork.json", fork)
    prefix = common_prefix(log.events, fork.events)
    assert prefix >= 100

    result = cli("diff", "g", str(tmp_path / "fork.json"), "--json")
    assert result.exit_code == 0, result.output
    out = orjson.loads(result.stdout)
    assert DIFF_KEYS <= set(out) and out["common_prefix"] == prefix
    parted = out["first_divergence"]
    assert parted["seq"] == prefix + 1
    assert parted["a"]["notation"].startswith(parted["a"]["actor"] + ":")
    assert parted["b"]["type"] == fork.events[prefix].TYPE
    end_a, end_b = timeline(log).final, timeline(fork).final
    expected = state_differences(end_a, end_b)
    assert out["differences"] == as_json([d.to_json() for d in expected])
    assert out["table_moves"] == as_json([m.to_json() for m in table_moves(end_a, end_b)]) and out["table_moves"]

    at = cli("diff", "g", str(tmp_path / "fork.json"), "--at", str(prefix), "--json")
    assert orjson.loads(at.stdout)["differences"] == []  # the lines agree up to where they part

    text = cli("diff", "g", str(tmp_path / "fork.json"))
    assert f"common prefix: {prefix} events" in text.stdout and f"first divergence at event {prefix + 1}" in text.stdout
    assert "differences on the table (at the end of each)" in text.stdout
    moves = cli("diff", "g", str(tmp_path / "fork.json"), "--table")
    assert "to turn table A into table B" in moves.stdout and out["table_moves"][0]["what"] in moves.stdout


def test_diff_of_a_game_with_itself_and_with_its_beginning(games, cli, tmp_path):
    log = log_reader.read(FIXTURE)
    games.import_log(log, "g")
    same = orjson.loads(cli("diff", "g", str(FIXTURE), "--json").stdout)
    assert same["common_prefix"] == len(log.events) and same["first_divergence"] is None
    assert same["differences"] == [] and same["table_moves"] == []

    game_log.write(tmp_path / "start.json", log.with_events(log.events[:60]))
    short = orjson.loads(cli("diff", "g", str(tmp_path / "start.json"), "--json").stdout)
    assert short["common_prefix"] == 60 and short["first_divergence"]["seq"] == 61
    assert short["first_divergence"]["b"] is None and short["first_divergence"]["a"] is not None
    assert "(no more events)" in cli("diff", "g", str(tmp_path / "start.json")).stdout


def test_diff_refuses_games_with_other_players_and_points_out_of_range(games, cli):
    games.import_log(log_reader.read(FIXTURE), "g")
    other = cli("diff", "g", str(GAMES[0]))
    assert other.exit_code == 2 and "different players" in other.stderr
    assert len(other.stderr.strip().splitlines()) == 1
    far = cli("diff", "g", str(FIXTURE), "--at", "500")
    assert far.exit_code == 2 and "choose 0 to 175" in far.stderr


def test_table_moves_name_each_physical_move_once(catalog):
    """A card bought is one move (row to board), not a card leaving a row and another reaching a player."""
    log, _ = simulate(catalog, DEFAULT_PLAYERS[:3], 5)
    line = timeline(log)
    bought = next(k for k, e in enumerate(log.events, 1) if e.TYPE == "CardBought")
    event = log.events[bought - 1]
    moves = [m.to_json() for m in table_moves(line.at(bought - 1), line.at(bought))]
    card = [m for m in moves if m["what"].endswith(f"({event.card})")]
    assert len(card) == 1 and card[0]["from"].endswith("city row") and card[0]["to"].startswith(f"{event.actor}'s")
    assert card[0]["who"] == event.actor and card[0]["rule"] is None
    for a, b in ((0, len(log.events)), (bought - 1, bought), (40, 90)):
        moved = [m for m in table_moves(line.at(a), line.at(b)) if not m.is_value]
        things = [m.what for m in moved if m.what[0] != "disc"]  # a player's discs are many: told apart by where
        discs = [(m.what, m.src, m.dst) for m in moved if m.what[0] == "disc"]
        assert moved and len(things) == len(set(things)) and len(discs) == len(set(discs)), "a thing is moved twice"


# --- end to end, through the installed command ----------------------------------------------------


def test_import_show_and_diff_end_to_end(tmp_path):
    db = tmp_path / "store" / "games.sqlite"
    assert run(db, "import", str(FIXTURE), "--name", "demo").returncode == 0
    log = log_reader.read(FIXTURE)
    line = timeline(log)

    latest = run(db, "show", "demo")
    assert latest.returncode == 0 and "demo · after 175 of 175 events" in latest.stdout and "game over" in latest.stdout

    at50 = run_json(db, "show", "demo", "--at", "50")
    assert at50["at"] == 50 and {k: v for k, v in at50.items() if k not in SHOW_KEYS} == as_json(folded(log, 50))

    c2 = run_json(db, "show", "demo", "--round", "2", "--phase", "C")
    assert (c2["round"], c2["phase"], c2["at"]) == (2, "C", line.index_of(2, "C"))
    assert run(db, "show", "demo", "--round", "2", "--phase", "C").returncode == 0

    other = tmp_path / "other.json"
    game_log.write(other, forked(log, 120, seed=3))
    diffed = run_json(db, "diff", "demo", str(other))
    assert diffed["common_prefix"] >= 120 and diffed["first_divergence"]["seq"] == diffed["common_prefix"] + 1
    text = run(db, "diff", "demo", str(other), "--table")
    assert text.returncode == 0 and "to turn table A into table B" in text.stdout

    bad = run(db, "show", "demo", "--at", "999")
    assert bad.returncode == 2 and bad.stderr.count("\n") == 1


def test_records_with_history_entries_step_one_state_per_entry(catalog):
    """A correction, a note and an undo each get a state; the last is the game's own state."""
    from coimbra_events.game import Game
    from coimbra_events.rules.core import legal, start
    from projections.consequences import fold

    log, _ = simulate(catalog, DEFAULT_PLAYERS[:2], 4)
    game = Game.from_log("h", log.with_events(log.events[:40]))
    draft = next(k for k, e in enumerate(game.events, 1) if e.TYPE == "DiePlaced")
    replacement = next(e for e in legal(game.state_before(draft)) if e != game.events[draft - 1])
    before = game.state
    game.correct(draft, replacement)  # entries 41 (Corrected) and 42 (the replacement)
    game.note(draft, "the die was placed in the wrong city")  # entry 43
    game.undo()  # entry 44
    states = fold(start(catalog, log.players), game.events).states
    assert len(states) == len(game.events) + 1 == 45
    assert states[40] == before and states[41] == before  # a correction waits for its replacement
    assert states[42] != before  # the replacement changed the table
    assert states[43] == states[42]  # a note changes nothing
    assert states[44] == game.state


def test_the_dice_area_holds_the_undrafted_dice_during_a_round_and_every_die_between_rounds(catalog):
    from coimbra_events.rules.core import apply, start
    from projections.board import board_view

    log, _ = simulate(catalog, DEFAULT_PLAYERS[:3], 2)
    state = start(catalog, log.players)
    seen = set()
    for event in log.events:
        state = apply(state, event)
        area = board_view(state)["dice_area"]
        if state.phase in ("B", "C", "D", "E"):
            assert [d["die"] for d in area] == list(state.pool)
            assert all(d["value"] == state.die_value(d["die"]) for d in area)
        else:
            # every die, in the order a roll lists them (and the table's roll form asks them)
            assert [d["die"] for d in area] == sorted(catalog.dice_for(3)) and all(d["value"] is None for d in area)
        seen.add(state.phase)
    assert {"B", "F", "over"} <= seen
