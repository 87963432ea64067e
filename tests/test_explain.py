"""``coimbra explain``: the audit trail adds up exactly, cites every rule its checker covers, and explains history entries.

The ledger's rows must reach the same totals as ``coimbra score`` and the coins
and guards on the table, for the recorded corpus and for random games; the
``RULES_CHECKED`` map must equal what the checkers can raise; an overridden or
skipped entry names its rule; the JSON keys are a contract.
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import orjson
import pytest
from hypothesis import given
from hypothesis import strategies as st

from coimbra_events import log as game_log, log_reader
from coimbra_events.events import EVENT_TYPES, HISTORY_TYPES, AlternativeTaken, DiePlaced, GameEvent
from coimbra_events.game import Game
from coimbra_events.rules import core
from coimbra_events.rules.outcomes import OutcomeSpace
from coimbra_events.simulator import DEFAULT_PLAYERS, simulate
from coimbra_events.validation import catalog_for
from projections.audit import Audit, fold_line
from projections.explain import explain_entry, game_overview
from projections.ledger import player_ledger
from projections.scores import score_report
from tests.conftest import FIXTURES
from tests.conftest import installed_coimbra

GAMES = sorted((FIXTURES / "games").glob("*.json"))


def audited(path: Path) -> Audit:
    return fold_line(Game.from_log(path.stem, log_reader.read(path)))


def assert_adds_up(audit: Audit) -> None:
    """Every player's rows add up to the score, and to the coins and guards held; no change goes untraced."""
    scores = {p["name"]: p["total"] for p in score_report(audit.final)["players"]}
    for pl in audit.final.players:
        ledger = player_ledger(audit, pl.name)
        assert ledger["balanced"], (pl.name, ledger["sums"], ledger["totals"])
        assert ledger["totals"] == {"points": scores[pl.name], "coins": pl.coins, "guards": pl.guards}
        assert ledger["sums"] == ledger["totals"]
        assert not any(row["kind"] == "untraced" for row in ledger["rows"])


# --- the corpus and random games add up ------------------------------------------------------------


@pytest.mark.parametrize("path", GAMES, ids=lambda p: p.name)
def test_every_fixture_player_adds_up_to_the_score_and_the_resources_held(path):
    audit = audited(path)
    assert audit.final == audit.game.state  # the audit's fold is the game's
    assert_adds_up(audit)


def test_the_corpus_shows_gains_cut_by_the_limit():
    """A gain past 20 shows the full gain and a 'lost over the limit' row, not a smaller gain."""
    audits = [audited(path) for path in GAMES]
    rows = [row for audit in audits for pl in audit.final.players
            for row in player_ledger(audit, pl.name)["rows"] if row["kind"] == "lost over the limit"]
    assert rows and all(row["amount"] < 0 and row["label"].startswith("lost over the limit of 20") for row in rows)


@pytest.mark.parametrize("path", GAMES, ids=lambda p: p.name)
def test_every_entry_of_the_corpus_is_explained_with_readable_facts(path):
    audit = audited(path)
    for seq in range(1, len(audit.game.events) + 1):
        play = explain_entry(audit, seq)["play"]
        assert play["status"] == "legal" and play["entry"] == seq
        assert [r["rule"] for r in play["rules"]] == list(core.RULES_CHECKED[type(audit.game.events[seq - 1])])
        assert all(r["status"] == "holds" and "unreadable" not in r["facts"] for r in play["rules"])
        orjson.dumps(play)  # plain JSON values only


@pytest.mark.property
@given(seed=st.integers(min_value=0, max_value=2**32 - 1), players=st.sampled_from([2, 3, 4]))
def test_random_games_add_up(catalog, seed, players):
    log, final = simulate(catalog, DEFAULT_PLAYERS[:players], seed)
    audit = fold_line(Game.from_log("sim", log))
    assert audit.final == final
    assert_adds_up(audit)


# --- the ledger names its sources and files each gain under its owner's own entry -------------------


def _rows(path: Path, name: str) -> list[dict]:
    return player_ledger(audited(path), name)["rows"]


def test_a_start_cards_bonus_is_filed_under_its_owners_entry_and_says_when_it_was_paid():
    log = log_reader.read(GAMES[0])  # 2 players: Ana's last start choice makes every start card work, Bruno's too
    took = next(k for k, e in enumerate(log.events, 1) if e.TYPE == "StartGroupTaken" and e.actor == "Bruno")
    last_choice = max(k for k, e in enumerate(log.events, 1) if e.TYPE in ("StartGroupTaken", "PilgrimPlaced"))
    assert log.events[last_choice - 1].actor != "Bruno"
    rows = [r for r in _rows(GAMES[0], "Bruno") if r["rule"] == "START.cards"]
    assert rows and all(r["entry"] == took and r["event"].startswith("Bruno:") for r in rows)
    assert all(r["paid_at"]["entry"] == last_choice and "start card" in r["label"] for r in rows)


def test_a_phase_E_bonus_per_die_names_its_card():
    rows = [r for r in _rows(GAMES[0], "Bruno") if r["rule"] == "E.per-die"]
    assert rows and all("card c-II-02 (Crossbowman)" in r["label"] for r in rows if r["amount"] == 1)


def test_voyages_and_cards_that_scored_nothing_are_listed_and_the_ledger_still_adds_up():
    audit = audited(GAMES[2])  # 4 players: Bruno's voyage v-07 scores nothing
    ledger = player_ledger(audit, "Bruno")
    nothing = [r for r in ledger["rows"] if r["kind"] == "end-game" and r["amount"] == 0]
    assert any(r["source"] == "v-07" and r["rule"] == "END.voyages" and "scored nothing" in r["label"] for r in nothing)
    assert ledger["balanced"]


def test_a_voyage_payment_shows_the_discount_with_the_favor_tile_that_gave_it():
    rows = [r for r in _rows(GAMES[2], "Duarte") if r["rule"] == "F.cost" and "less" in r["label"]]
    assert rows and "less 2 for favor tile f-3 (Royal Charter)" in rows[0]["label"]


def test_the_rows_of_an_accepted_rule_break_are_flagged(overridden):
    game, at = overridden
    ledger = player_ledger(fold_line(game), game.events[at["move"] - 1].actor)
    flagged = [r for r in ledger["rows"] if r["override"] is not None]
    assert flagged and all(r["entry"] == at["move"] for r in flagged)
    assert flagged[0]["override"] == {"rule": "C.alternative", "reason": "we let it go"}
    assert ledger["balanced"]


# --- the facts of each rule come from check itself -------------------------------------------------


def _seen(state, event) -> dict[str, dict]:
    seen: list = []
    assert core.check(state, event, seen) is None
    return dict(seen)


@pytest.mark.parametrize("path", GAMES, ids=lambda p: p.name)
def test_check_notes_each_rule_it_covers_in_order_with_its_facts(path):
    """``RULES_CHECKED`` is what ``check`` notes, rule by rule, for every event of the corpus (it cannot drift)."""
    log = log_reader.read(path)
    state = core.start(catalog_for(log), log.players)
    assert set(core.RULES_CHECKED) == set(EVENT_TYPES.values()) - set(HISTORY_TYPES), "every move of the game is listed"
    for event in log.events:
        seen: list = []
        assert core.check(state, event, seen) is None
        assert [rule for rule, _ in seen] == list(core.RULES_CHECKED[type(event)]), event
        assert all(facts for _, facts in seen), event
        state = core.apply(state, event)


INVALID = FIXTURES / "invalid"


@pytest.mark.parametrize("name", sorted(orjson.loads((INVALID / "expected.json").read_bytes())))
def test_a_rule_that_holds_names_the_facts_its_violation_names(name):
    """A refusal and the explanation of a legal event cite one set of facts per rule: the checker's own.

    (The table's setup rules check several things each; each of their refusals names the facts of its own part.)
    """
    expected = orjson.loads((INVALID / "expected.json").read_bytes())[name]
    log = log_reader.read(INVALID / name)
    state = core.start(catalog_for(log), log.players)
    refused = None
    for seq, event in enumerate(log.events, 1):
        if seq == expected["seq"]:
            refused = core.check(state, event)
            break
        state = core.apply(state, event)
    assert refused is not None and refused.rule == expected["rule"]
    holding = None
    for path in GAMES:  # the same rule holding for an event of the same type, somewhere in the corpus
        good = log_reader.read(path)
        state = core.start(catalog_for(good), good.players)
        for event in good.events:
            if type(event) is type(log.events[expected["seq"] - 1]) and core.check(state, event) is None:
                holding = _seen(state, event).get(refused.rule)
                if holding is not None:
                    break
            state = core.apply(state, event)
        if holding is not None:
            break
    assert holding is not None, f"no event of the corpus checks {refused.rule}"
    assert set(refused.facts) <= set(holding) or refused.rule.startswith("SETUP."), (refused.facts, holding)


# --- history entries: overrides, corrections, skipped plays, notes, retractions ------------------------


def _first_retrieve(log: game_log.GameLog) -> int:
    """How many events lead to the first die retrieval of the game."""
    state = core.start(catalog_for(log), log.players)
    for k, event in enumerate(log.events):
        if state.pending.kind == "retrieve":
            return k
        state = core.apply(state, event)
    raise AssertionError("no retrieval")


def _next_legal(game: Game) -> GameEvent:
    import random

    options = core.legal(game.state)
    return options.sample(random.Random(0)) if isinstance(options, OutcomeSpace) else options[0]


@pytest.fixture(scope="module")
def overridden() -> tuple[Game, dict[str, int]]:
    """A game whose table accepted 3 coins from an alternative action, then undid a move and noted the ruling."""
    log = log_reader.read(GAMES[1])
    game = Game.from_log("overridden", log.with_events(log.events[: _first_retrieve(log)]))
    game.accept(AlternativeTaken(game.pending.actor, 3, 0), "we let it go")
    at = {"override": len(game.events) - 1, "move": len(game.events)}
    game.record(_next_legal(game))
    at["undone"] = len(game.events)
    game.undo()
    at["retraction"] = len(game.events)
    game.note(at["move"], "the table misread the alternative action")
    at["note"] = len(game.events)
    return game, at


@pytest.fixture(scope="module")
def corrected() -> tuple[Game, dict[str, int]]:
    return corrected_game()


def corrected_game() -> tuple[Game, dict[str, int]]:
    """A game where correcting the first die placed makes the last placement of the round illegal (skipped)."""
    log = log_reader.read(GAMES[1])
    cut = _first_retrieve(log)
    game = Game.from_log("corrected", log.with_events(log.events[:cut]))
    places = [k for k, e in enumerate(game.events, 1) if isinstance(e, DiePlaced)]
    first, last = game.events[places[0] - 1], game.events[places[-1] - 1]
    assert first.die != last.die
    skipped = game.correct(places[0], DiePlaced(first.actor, last.die, first.location))
    assert [p.seq for p, _ in skipped] == [places[-1]]
    return game, {"original": places[0], "skipped": places[-1], "correction": len(game.events) - 1,
                  "replacement": len(game.events)}


def test_an_overridden_entry_shows_the_rule_the_reason_and_the_facts(overridden):
    game, at = overridden
    audit = fold_line(game)
    move = explain_entry(audit, at["move"])
    play = move["play"]
    assert move["record"]["status"] == "in force" and play["status"] == "overridden"
    assert play["override"] == {"rule": "C.alternative", "reason": "we let it go"}
    assert play["violation"]["rule"] == "C.alternative" and play["violation"]["facts"] == {"coins": 3, "guards": 0}
    statuses = {r["rule"]: r["status"] for r in play["rules"]}
    assert statuses == {"GAME.over": "holds", "TURN.actor": "holds", "TURN.kind": "holds", "C.alternative": "broken"}
    assert move["notes"] == ["the table misread the alternative action"]
    assert any(row["source"] == "alternative" and row["amount"] == 3 for row in play["resources"])

    entry = explain_entry(audit, at["override"])
    assert entry["record"]["kind"] == "override" and entry["record"]["rule"] == "C.alternative"
    assert entry["play"]["violation"]["rule"] == "C.alternative"
    assert explain_entry(audit, at["undone"])["record"]["withdrawn_by"] == at["retraction"]
    assert explain_entry(audit, at["retraction"])["record"]["withdrew"]["seq"] == at["undone"]
    assert explain_entry(audit, at["note"])["record"]["about"]["seq"] == at["move"]

    overview = game_overview(audit)
    assert [(o["entry"], o["rule"], o["reason"]) for o in overview["overrides"]] == [(at["move"], "C.alternative", "we let it go")]
    assert [r["seq"] for r in overview["retractions"]] == [at["retraction"]]
    assert_adds_up(audit)


def test_a_correction_and_the_play_it_made_illegal(corrected):
    game, at = corrected
    audit = fold_line(game)
    entry = explain_entry(audit, at["skipped"])
    assert entry["record"]["status"] == "skipped"
    skipped = entry["play"]
    assert skipped["status"] == "skipped" and skipped["violation"]["rule"] == "B.die"
    assert skipped["changes"] == [] and skipped["rules"] == []

    correction = explain_entry(audit, at["correction"])["record"]
    assert correction["kind"] == "correction" and correction["corrects"] == at["original"]
    assert (correction["replaced"]["seq"], correction["replacement"]["seq"]) == (at["original"], at["replacement"])
    original = explain_entry(audit, at["original"])
    assert original["record"]["status"] == "replaced" and original["play"]["entry"] == at["replacement"]
    assert explain_entry(audit, at["replacement"])["record"]["status"] == "in force"

    overview = game_overview(audit)
    assert [(s["seq"], s["rule"]) for s in overview["skipped"]] == [(at["skipped"], "B.die")]
    assert [c["seq"] for c in overview["corrections"]] == [at["correction"]]
    assert_adds_up(audit)


def test_a_correction_of_a_correction_names_the_same_play():
    """A second correction may name the first one's replacement entry: both lead to the play first recorded."""
    game, at = corrected_game()
    current = game.events[at["replacement"] - 1]
    other = next(e for e in core.legal(game.state_before(at["original"])) if e != current and e.die != current.die)
    game.correct(at["replacement"], other)
    audit = fold_line(game)
    second = explain_entry(audit, len(game.events) - 1)
    assert second["record"]["corrects"] == at["original"]
    assert second["record"]["replaced"]["seq"] == at["replacement"]
    assert second["play"]["entry"] == len(game.events)
    first = explain_entry(audit, at["replacement"])["record"]
    assert first["status"] == "replaced" and first["in_force"]["seq"] == len(game.events)
    assert explain_entry(audit, at["original"])["record"]["corrections"] == [at["replacement"], len(game.events)]
    assert_adds_up(audit)


# --- JSON contracts -----------------------------------------------------------------------------------

ENTRY_KEYS = {"seq", "of", "type", "actor", "notation", "about", "record", "changes", "reasons", "unchanged", "play", "notes",
              "bookmark"}
PLAY_KEYS = {"seq", "entry", "type", "actor", "notation", "about", "round", "phase", "phase_name", "status", "override",
             "violation", "rules", "changes", "reasons", "resources"}
RULE_KEYS = {"rule", "statement", "source", "status", "facts"}
CHANGE_KEYS = {"who", "what", "from", "to", "rule", "facts"}
ROW_KEYS = {"seq", "entry", "round", "phase", "event", "resource", "amount", "kind", "source", "label", "rule", "override",
            "paid_at"}
LEDGER_KEYS = {"player", "final", "place", "rows", "breakdown", "sums", "totals", "balanced"}
OVERVIEW_KEYS = {"entries", "plays", "over", "round", "phase", "overrides", "corrections", "retractions", "skipped", "notes",
                 "problem", "players"}


def test_json_contracts(overridden):
    game, at = overridden
    audit = fold_line(game)
    entry = orjson.loads(orjson.dumps(explain_entry(audit, at["move"])))
    assert set(entry) == ENTRY_KEYS and set(entry["play"]) == PLAY_KEYS
    assert set(entry["record"]) == {"kind", "status", "first_recorded", "corrections", "in_force", "replaced_by", "withdrawn_by"}
    assert all(set(r) == RULE_KEYS for r in entry["play"]["rules"])
    assert entry["changes"] and all(set(c) == CHANGE_KEYS for c in entry["changes"] + entry["play"]["changes"])
    assert all(set(r) == ROW_KEYS | {"player"} for r in entry["play"]["resources"])
    ledger = orjson.loads(orjson.dumps(player_ledger(audit, game.pending.actor)))
    assert set(ledger) == LEDGER_KEYS and all(set(r) == ROW_KEYS for r in ledger["rows"])
    assert set(ledger["totals"]) == set(ledger["sums"]) == {"points", "coins", "guards"}
    overview = orjson.loads(orjson.dumps(game_overview(audit)))
    assert set(overview) == OVERVIEW_KEYS
    assert set(overview["players"][0]) == {"name", "place", "points", "coins", "guards", "breakdown", "balanced"}


# --- the installed command ----------------------------------------------------------------------------


def run(*args: str, db: Path | None = None) -> subprocess.CompletedProcess:
    env = {**os.environ, "NO_COLOR": "1", "COLUMNS": "160"}
    if db is not None:
        env["COIMBRA_DB"] = str(db)
    out = subprocess.run([installed_coimbra(), *args], capture_output=True, text=True, timeout=120, env=env)
    assert "Traceback" not in out.stderr, out.stderr
    return out


def test_command_totals_match_coimbra_score():
    path = str(GAMES[0])
    score = orjson.loads(run("score", path, "--json").stdout)
    for player in score["players"]:
        out = run("explain", path, "--player", player["name"].lower(), "--json")
        assert out.returncode == 0, out.stderr
        ledger = orjson.loads(out.stdout)["ledger"]
        assert ledger["totals"]["points"] == ledger["sums"]["points"] == player["total"]
    text = run("explain", path, "--player", score["players"][0]["name"])
    assert text.returncode == 0 and "✓" in text.stdout and "✗" not in text.stdout


def test_command_refuses_an_entry_out_of_range_and_an_unknown_player():
    path = str(GAMES[0])
    for args in (("--seq", "0"), ("--seq", "100000"), ("--player", "Nobody")):
        out = run("explain", path, *args)
        assert out.returncode == 2 and out.stderr.startswith("error:") and out.stderr.count("\n") == 1


def test_command_explains_an_overridden_entry_in_a_log_file(overridden, tmp_path):
    game, at = overridden
    path = tmp_path / "overridden.json"
    game_log.write(path, game.to_log())
    out = run("explain", str(path), "--seq", str(at["move"]))
    assert out.returncode == 0, out.stderr
    assert "accepted rule break" in out.stdout and "C.alternative" in out.stdout and "we let it go" in out.stdout
    overview = run("explain", str(path))
    assert overview.returncode == 0 and "Accepted rule breaks" in overview.stdout


def test_command_explains_a_skipped_entry_of_a_stored_game(corrected, tmp_path):
    game, at = corrected
    db = tmp_path / "games.sqlite"
    prefix = tmp_path / "prefix.json"
    game_log.write(prefix, game.to_log().with_events(game.events[: at["correction"] - 1]))
    assert run("import", str(prefix), "--name", "disputed", db=db).returncode == 0
    replacement = game.events[at["replacement"] - 1]
    fixed = run("correct", "disputed", "--seq", str(at["original"]), f"place {replacement.die} {replacement.location}", db=db)
    assert fixed.returncode == 0, fixed.stderr
    out = run("explain", "disputed", "--seq", str(at["skipped"]), "--json", db=db)
    assert out.returncode == 0, out.stderr
    play = orjson.loads(out.stdout)["entry"]["play"]
    assert play["status"] == "skipped" and play["violation"]["rule"] == "B.die"
    text = run("explain", "disputed", "--seq", str(at["skipped"]), db=db)
    assert text.returncode == 0 and "skipped" in text.stdout and "B.die" in text.stdout
