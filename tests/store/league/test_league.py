"""The league projection on SQLite and PostgreSQL: equal to a brute force over exported logs, however it got there."""

from __future__ import annotations

import orjson
import pytest

from coimbra_events.store.game_store import GameStore
from coimbra_events.players import person_key
from coimbra_events.service import Games
from coimbra_events.store.aliases import change_aliases
from projections.league.projection import League, NoLeague, open_league
from projections.league.reports import profile, ratings, standings
from projections.league.view import Overtaken
from tests.store.league import brute
from tests.store.league.games import (
    TIES,
    import_all,
    places,
    simulated,
    tie_game,
    winner,
    winner_changing_correction,
)
from coimbra_events.validation import validate
from tests.applied import recorded, stored

def season_logs() -> list[tuple[str, object]]:
    """A small season: spellings that differ in case and accents, a shared first place, a 4-player game."""
    return [
        ("g1", simulated(("Ana", "Bruno", "Conceição"), 11)),
        ("g2", simulated(("ana", "CONCEICAO"), 12)),
        ("g3", tie_game(0)),  # Ana and Bruno share first place
        ("g4", simulated(("Bruno", "Ana M.", "Duarte", "Eva"), 13)),
        ("g5", tie_game(3)),
    ]


def exported(store: GameStore, names: list[str]) -> list[tuple[str, object]]:
    return [(n, store.export(n)) for n in names]


def aliases_of(store: GameStore) -> dict[str, str]:
    from coimbra_events.store.aliases import aliases_of as stored

    return dict(stored(store).targets)


def assert_equals_brute_force(store: GameStore, league: League, order: list[str], season: str | None = None) -> None:
    """Standings and ratings of the league are what the brute force computes from the exported logs."""
    aliases = aliases_of(store)
    games = brute.results(exported(store, order))
    with league.view.reading() as tables:
        report = standings(tables, season)
        rated = ratings(tables)
    assert brute.reported(report, aliases) == brute.standings(games, aliases), "standings"
    if season is None:
        expected = brute.ratings(games, aliases)
        got = {brute.person(aliases, r["player"]): (r["mu"], r["sigma"]) for r in rated["players"]}
        assert got == {p: (round(mu, 3), round(sigma, 3)) for p, (mu, sigma) in expected.items()}, "ratings"


def assert_rebuild_changes_nothing(league: League) -> None:
    with league.view.reading() as tables:
        before = tables.dump()
    league.rebuild()
    with league.view.reading() as tables:
        assert tables.dump() == before


def test_the_tie_games_tie():
    for k in range(len(TIES)):
        shared = list(places(validate(tie_game(k)).state).values())
        assert len(set(shared)) < len(shared), TIES[k]


def test_standings_and_ratings_equal_the_brute_force(club):
    logs = season_logs()
    import_all(club, logs)
    league = open_league(club)
    league.catch_up()
    assert_equals_brute_force(club, league, [n for n, _ in logs])
    with league.view.reading() as tables:
        report = standings(tables)
    people = {row["player"]: row for row in report["players"]}
    # Ana and ana are one person, Conceição and CONCEICAO another; Ana M. is someone else until aliased.
    assert people["Ana"]["games"] == 4 and people["Conceição"]["games"] == 2 and people["Ana M."]["games"] == 1
    assert people["Ana"]["shared_wins"] >= 1 and people["Bruno"]["shared_wins"] >= 1
    assert report["games"] == 5 and report["left_out"] == []
    order = [(-p["wins"], -p["average"]) for p in report["players"]]
    assert order == sorted(order) and [p["rank"] for p in report["players"]] == [
        1 + order.index(o) for o in order]  # most wins, then best average; equal on both, equal rank
    assert_rebuild_changes_nothing(league)


def test_catching_up_in_any_steps_gives_what_a_rebuild_gives(club):
    logs = season_logs()
    league = open_league(club)
    for k, (name, log) in enumerate(logs):
        Games(club).import_log(log, name)
        league.catch_up(batch=1 + 37 * k)
    assert_equals_brute_force(club, league, [n for n, _ in logs])
    assert_rebuild_changes_nothing(league)


def test_a_correction_that_changes_the_winner_changes_standings_and_ratings(club):
    log, seq, alternative = winner_changing_correction()
    logs = [("before", simulated(("Ana", "Bruno"), 101)), ("disputed", log), ("after", simulated(("Bruno", "Ana"), 102))]
    import_all(club, logs)
    league = open_league(club)
    league.catch_up()
    with league.view.reading() as tables:
        wins_before = {r["player"]: r["wins"] for r in standings(tables)["players"]}
        ratings_before = {r["player"]: r["mu"] for r in ratings(tables)["players"]}
    won_before = winner(club.get("disputed").state)

    stored(Games(club).correct("disputed", seq, alternative))
    won_after = winner(club.get("disputed").state)
    assert won_after != won_before
    league.catch_up()
    with league.view.reading() as tables:
        wins_after = {r["player"]: r["wins"] for r in standings(tables)["players"]}
        ratings_after = {r["player"]: r["mu"] for r in ratings(tables)["players"]}
    assert wins_after[won_after] == wins_before[won_after] + 1
    assert wins_after[won_before] == wins_before[won_before] - 1
    assert ratings_after != ratings_before
    assert_equals_brute_force(club, league, [n for n, _ in logs])  # ratings replayed from the disputed game on
    assert_rebuild_changes_nothing(league)


def test_an_undo_that_reopens_a_finished_game_takes_it_out_until_it_is_finished_again(club):
    logs = [("first", simulated(("Ana", "Bruno"), 21)), ("second", simulated(("Ana", "Bruno"), 22))]
    import_all(club, logs)
    league = open_league(club)
    league.catch_up()
    last = club.get("first").line.plays[-1].event
    stored(Games(club).undo("first"))
    assert not club.get("first").over
    league.catch_up()
    with league.view.reading() as tables:
        assert standings(tables)["games"] == 1
    assert_equals_brute_force(club, league, ["first", "second"])

    recorded(Games(club), "first", last)  # finished again: now after "second", so it is rated after it
    league.catch_up()
    assert_equals_brute_force(club, league, ["second", "first"])
    assert_rebuild_changes_nothing(league)


def test_a_table_put_away_only_moves_a_games_fold_on(club, monkeypatch):
    """``Game.PutAway`` (a club night's server put the table away) changes nothing the league shows: the game's kept
    fold takes its version and goes on, never folded again from the store for it (an undo after it included)."""
    import_all(club, [("first", simulated(("Ana", "Bruno"), 21)), ("second", simulated(("Ana", "Bruno"), 22))])
    league = open_league(club)
    Games(club).put_away("first")
    stored(Games(club).undo("first"))
    monkeypatch.setattr(league, "_folded_again", lambda *_: pytest.fail("a game folded again from the store"))
    league.catch_up()
    with league.view.reading() as tables:
        assert standings(tables)["games"] == 1
    assert_equals_brute_force(club, league, ["first", "second"])
    assert_rebuild_changes_nothing(league)


def test_an_alias_joins_two_spellings_and_withdrawing_it_splits_them_again(club):
    logs = season_logs()
    import_all(club, logs)
    league = open_league(club)
    league.catch_up()
    change_aliases(club, lambda a: a.add("Ana M.", "Ana"))
    league.catch_up()
    with league.view.reading() as tables:
        people = {r["player"]: r["games"] for r in standings(tables)["players"]}
        assert profile(tables, "ANA M.")["player"] == "Ana"
    assert people["Ana"] == 5 and "Ana M." not in people
    assert_equals_brute_force(club, league, [n for n, _ in logs])
    assert_rebuild_changes_nothing(league)

    change_aliases(club, lambda a: a.remove("ana m."))
    league.catch_up()
    with league.view.reading() as tables:
        assert {r["player"]: r["games"] for r in standings(tables)["players"]}["Ana M."] == 1
    assert_equals_brute_force(club, league, [n for n, _ in logs])


def test_a_season_is_the_games_with_its_tag(club):
    logs = season_logs()
    import_all(club, logs)
    games = Games(club)
    games.tag(["g1"], add=["2026-spring"])
    games.tag(["g3"], add=["2026-spring", "evening-1"])
    games.tag(["g4"], add=["2026-Spring"])  # another tag, as coimbra games --tag reads it
    league = open_league(club)
    league.catch_up()
    with league.view.reading() as tables:
        spring = standings(tables, "2026-spring")
        assert standings(tables, "evening-1")["games"] == 1
        assert standings(tables, "2026-Spring")["games"] == 1
    assert spring["games"] == 2
    aliases = aliases_of(club)
    assert brute.reported(spring, aliases) == brute.standings(brute.results(exported(club, ["g1", "g3"])), aliases)
    games.tag(["g1"], remove=["2026-spring"])
    league.catch_up()
    with league.view.reading() as tables:
        assert standings(tables, "2026-spring")["games"] == 1
        assert standings(tables)["games"] == 5
    assert_rebuild_changes_nothing(league)


def test_forks_are_alternative_lines_not_games_played(club):
    import_all(club, season_logs()[:2])
    Games(club).fork("g1", at=len(club.get("g1").events), rolls="manual")  # the same finished game, as a fork
    league = open_league(club)
    league.catch_up()
    with league.view.reading() as tables:
        assert standings(tables)["games"] == 2
        assert tables.counts().get("forks") == 1
    assert_equals_brute_force(club, league, ["g1", "g2"])


def test_one_person_in_two_seats_is_left_out_and_said_so(club):
    import_all(club, [("twins", simulated(("Ana", "Bruno"), 31)), ("plain", simulated(("Carla", "Bruno"), 32))])
    change_aliases(club, lambda a: a.add("Bruno", "Ana"))
    league = open_league(club)
    league.catch_up()
    with league.view.reading() as tables:
        report = standings(tables)
        assert ratings(tables)["players"]  # the other game is rated
    assert report["games"] == 1 and report["left_out"][0]["game"] == "twins"
    assert_equals_brute_force(club, league, ["twins", "plain"])


def on_game_rows(store: GameStore, name: str, statement: str, *params: object) -> None:
    """Run ``statement`` (``{table}`` the events table, the game's id the last ``?``) on a game's stored rows, as
    someone with write access to the database could."""
    recorder = store.recorder
    game_id, sqlite = store.get(name).id, type(recorder).__module__ == "eventsourcing.sqlite"
    table = recorder.events_table_name if sqlite else f'"{recorder.datastore.schema}"."{recorder.events_table_name}"'
    sql = statement.format(table=table)
    with recorder.datastore.transaction(commit=True) as c:
        c.execute(sql if sqlite else sql.replace("?", "%s"), (*params, game_id.hex if sqlite else game_id))


def damage(store: GameStore, name: str, version: int, state: bytes) -> None:
    """Overwrite one stored row of a game."""
    on_game_rows(store, name, "UPDATE {table} SET state = ? WHERE originator_version = ? AND originator_id = ?", state,
                 version)


def left_out(store: GameStore) -> tuple[League, int, dict[str, str]]:
    """The league caught up, the number of games it counts, and why each game it leaves out is left out."""
    league = open_league(store)
    league.catch_up()
    with league.view.reading() as tables:
        report = standings(tables)
    return league, report["games"], {item["game"]: item["why"] for item in report["left_out"]}


def test_damaged_stored_rows_leave_their_games_out_and_nothing_fails(club):
    import_all(club, season_logs()[:4])
    row = club.recorder.select_events(club.get("g1").id, gt=29, limit=1)[0]
    edited = orjson.loads(row.state)
    edited["actor"] = "Bruno" if edited["actor"] != "Bruno" else "Ana"  # the meaning changed, its recorded hash kept
    damage(club, "g1", 30, orjson.dumps(edited))
    damage(club, "g2", 9, b'{"type": "DiceRolled", "actor": "table", "payload": {"values": "nonsense"}, "hash": "x"}')
    damage(club, "g3", 20, b"\xff not JSON at all")
    league, counted, why = left_out(club)
    assert counted == 1
    assert "entry 29 does not match its recorded hash" in why["g1"]  # the chain is checked before anything is folded
    assert "entry 8 does not match its recorded hash" in why["g2"]
    assert "entry 19 cannot be folded" in why["g3"]
    assert_rebuild_changes_nothing(league)


def test_two_catch_ups_at_once_never_count_an_event_twice(club):
    logs = season_logs()
    import_all(club, logs)
    first, second = open_league(club), open_league(club)
    first.catch_up(stop=300)
    rows = first.source.recorder.select_notifications(first.base, 400, inclusive_of_start=False)
    for row in rows:  # the first takes more of the log but has not flushed ...
        first.take(row.topic, str(row.originator_id), row.originator_version, first._fields(row), row.id)
    second.catch_up()  # ... when the second catches up to the end
    with pytest.raises(Overtaken):
        first.flush()
    first._reset(None)
    first.catch_up()
    assert_equals_brute_force(club, first, [n for n, _ in logs])
    assert_rebuild_changes_nothing(first)


def test_the_league_needs_a_database():
    with pytest.raises(NoLeague):
        open_league(GameStore(in_memory=True))


def test_profile_follows_the_person(club):
    import_all(club, season_logs())
    league = open_league(club)
    league.catch_up()
    with league.view.reading() as tables:
        ana = profile(tables, "  ANA ")
    assert ana["player"] == "Ana" and ana["spellings"] == ["Ana", "ana"] and ana["games"] == 4
    assert sum(h["games"] for h in ana["head_to_head"]) == sum(len(validate(log).state.players) - 1
                                                             for _, log in season_logs()
                                                             if any(person_key(n) == "ana" for n, _ in log.players))
    assert set(ana["start_choices"]["first"]) <= {"cards first", "pilgrim first"}
    assert ana["tracks"]["favourite"] in ana["tracks"]["average_influence"]


def test_a_rating_shows_mu_minus_three_sigma_its_trend_over_five_games_and_the_last_ten():
    from projections.league.reports import rating_of

    history = [(k, 25.0 + k, 8.0 - 0.25 * k) for k in range(12)]
    shown = rating_of(history)
    ordinals = [mu - 3 * sigma for _, mu, sigma in history]
    assert shown["rating"] == round(ordinals[-1], 3) and shown["games"] == 12
    assert shown["trend"] == round(ordinals[-1] - ordinals[-6], 3)
    assert shown["recent"] == [round(o, 3) for o in ordinals[-10:]]
    assert rating_of(history[:3])["trend"] == round(ordinals[2], 3)  # fewer games: the change since the start (0)


def test_a_profile_equals_the_brute_force(club):
    logs = season_logs()
    import_all(club, logs)
    league = open_league(club)
    league.catch_up()
    with league.view.reading() as tables:
        ana = profile(tables, "ana")
    expected = brute.profile(exported(club, [n for n, _ in logs]), {}, "ana")
    n = expected["games"]
    assert ana["games"] == n
    for track, got in ana["income_per_track"].items():
        coins, guards, points = expected["income"].get(track, (0, 0, 0))
        assert got == {"coins": round(coins / n, 2), "guards": round(guards / n, 2), "points": round(points / n, 2)}
    assert ana["voyages"]["total"] == expected["voyages"] and ana["monasteries"]["total"] == expected["monasteries"]
    assert {c: v["total"] for c, v in ana["cards_bought"].items()} == expected["cards"]
    assert {c: v["games"] for c, v in ana["start_choices"]["first"].items()} == expected["first"]
    assert {brute.person({}, h["opponent"]): [h["games"], h["ahead"], h["behind"], h["level"]]
            for h in ana["head_to_head"]} == expected["versus"]


def test_a_renamed_game_is_shown_by_its_new_name_even_once_folded_again(club):
    import_all(club, season_logs()[:2])
    open_league(club).catch_up()
    games = Games(club)
    games.rename("g1", "friday-final")
    open_league(club).catch_up()
    game_id = str(club.get("friday-final").id)
    stored(games.note("friday-final", 3, "the die was a 4"))  # folded again from its Created event
    league = open_league(club)
    league.catch_up()
    with league.view.reading() as tables:
        assert tables.names([game_id]) == {game_id: "friday-final"}
    assert_equals_brute_force(club, league, ["friday-final", "g2"])
    assert_rebuild_changes_nothing(league)


def test_a_record_whose_last_entries_were_cut_off_is_left_out_by_its_receipt(club):
    import_all(club, season_logs()[:2])
    game = club.get("g1")
    last = len(game.events) + 1  # the version of its last entry (Created is version 1)
    on_game_rows(club, "g1", "DELETE FROM {table} WHERE originator_version > ? AND originator_id = ?", last - 3)
    _, counted, why = left_out(club)
    assert counted == 1
    assert f"its receipt says {len(game.events)} entries, its rows hold {len(game.events) - 3}" in why["g1"]


def test_a_game_of_another_ruleset_is_left_out_by_name_never_folded_under_these_rules(club):
    """As ``GameStore.get`` refuses it (docs/rulesets.md): a record of rules this engine does not implement
    is not counted, and the league says which ruleset it was and why."""
    import_all(club, season_logs()[:2])
    row = club.recorder.select_events(club.get("g1").id, lte=1)[0]
    header = orjson.loads(row.state)
    header["ruleset"] = "coimbra-rules-0.9"
    damage(club, "g1", 1, orjson.dumps(header))
    league, counted, why = left_out(club)
    assert counted == 1
    assert why["g1"].startswith("not counted: recorded under ruleset 'coimbra-rules-0.9'"), why
    assert_rebuild_changes_nothing(league)
