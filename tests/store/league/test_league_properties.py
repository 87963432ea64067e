"""Property: over random seasons of simulated games, the league equals a brute force over the exported logs.

A season draws its games (players from a pool of spellings that are and are not
the same person, a seed; or one of the games known to end in a shared place),
their tags, aliases recorded along the way, and the points at which the league
catches up; and what an organiser gets wrong: a game imported again,
copies stored as stores made them before a record was one game, deliberate copies
(``--copy``), games archived, marked not counted and restored. Whatever was drawn,
the standings of every season and of all time, and the ratings, are what
``brute`` computes from the exported logs of the games ``counted_once`` keeps
(each record once, the first stored that is not left out), and a rebuild from
scratch gives the same tables. Hypothesis shrinks a failure to a short season.
"""

from __future__ import annotations

from typing import Any, Callable

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from coimbra_events.service import Games
from coimbra_events.store.game_store import GameStore
from coimbra_events.store.records import LeagueMark, fold_mark
from coimbra_events.players import BadAlias, person_key
from coimbra_events.store.aliases import change_aliases
from projections.league.projection import open_league
from tests.store.league.games import TIES, simulated, tie_game
from tests.store.league.stores import postgres_store, sqlite_store
from tests.store.league.test_league import assert_equals_brute_force, assert_rebuild_changes_nothing
from tests.store.test_one_record import stored_as_before

pytestmark = pytest.mark.property

POOL = ("Ana", "ana", "ÁNA", "Ana M.", "Bruno", "Conceição", "CONCEICAO", "Duarte", "Eva")
SEASONS = ("spring", "autumn")

simulated_game = st.tuples(st.integers(0, 10**6), st.lists(st.sampled_from(POOL), min_size=2, max_size=4,
                                                             unique_by=person_key))
tied_game = st.integers(0, len(TIES) - 1)
step = st.one_of(
    st.tuples(st.just("game"), st.one_of(simulated_game, tied_game), st.sets(st.sampled_from(SEASONS), max_size=2)),
    st.tuples(st.just("alias"), st.sampled_from(POOL), st.sampled_from(POOL)),
    st.tuples(st.just("catch up"), st.integers(1, 400)),
    st.tuples(st.sampled_from(["again", "old copy", "copy"]), st.integers(0, 7)),
    st.tuples(st.sampled_from(["archive", "not counted"]), st.integers(0, 7), st.booleans()),
)


@pytest.fixture(params=["sqlite", "postgres"])
def fresh_store(request: pytest.FixtureRequest) -> Callable[[], Any]:
    """A new, empty store for each example."""
    if request.param == "sqlite":
        return sqlite_store
    settings_, conn = request.getfixturevalue("postgres_server")
    return lambda: postgres_store(settings_, conn)


@settings(max_examples=max(settings.default.max_examples // 20, 5), deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(steps=st.lists(step, min_size=1, max_size=8))
def test_standings_and_ratings_of_any_season_equal_the_brute_force(fresh_store, steps):
    with fresh_store() as store:
        games = Games(store)
        league = open_league(store)
        made: list[str] = []
        for k, (kind, *args) in enumerate(steps):
            if kind == "game":
                drawn, tags = args
                log = tie_game(drawn) if isinstance(drawn, int) else simulated(drawn[1], drawn[0])
                name = f"g{k}"
                if games.import_log(log, name).how == "held":  # a log drawn twice is one game
                    continue
                made.append(name)
                if tags:
                    games.tag([name], add=sorted(tags))
            elif kind == "alias":
                try:
                    change_aliases(store, lambda a: a.add(args[0], args[1]))
                except BadAlias:
                    pass
            elif kind == "catch up":
                league.catch_up(batch=args[0])
            elif made:
                _organiser(games, kind, made[args[0] % len(made)], f"g{k}", made, *args[1:])
        league.catch_up()
        order = counted_once(store, made)
        assert_equals_brute_force(store, league, order)
        for season in SEASONS:
            assert_equals_brute_force(store, league, [n for n in order if season in _tags(store, n)], season)
        assert_rebuild_changes_nothing(league)


def _organiser(games: Games, kind: str, game: str, name: str, made: list[str], *args: bool) -> None:
    """What an organiser does to a stored game: imports it again, copies it (as old stores did, or ``--copy``),
    archives or restores it, marks it not counted or counts it again."""
    store = games.store
    log = store.export(game)
    if kind == "again":
        assert games.import_log(log).how == "held"
    elif kind in ("old copy", "copy"):
        made.append(name)
        if kind == "copy":
            assert games.import_log(log, name, copy=True).how == "copy"
        else:
            stored_as_before(store, log, name)
        if store.get(game).tags:  # a copy of a season's game is in the season too
            games.tag([name], add=sorted(store.get(game).tags))
    elif kind == "archive":
        games.archive([game], archived=args[0])
    else:
        games.count([game], counted=not args[0])


def counted_once(store: GameStore, names: list[str]) -> list[str]:
    """The brute force's choice: in the order stored, each record (the exported log's head) the first time a
    game holding it is neither archived, nor marked not counted, nor a copy."""
    kept, seen = [], set()
    for name in names:
        game = store.get(name)
        mark = fold_mark(None, store.events.get(LeagueMark.create_id(str(game.id))))
        if game.archived or (mark is not None and (not mark.counted or mark.copy_of is not None)):
            continue
        if store.export(name).head() not in seen:
            seen.add(store.export(name).head())
            kept.append(name)
    return kept


def _tags(store: GameStore, name: str) -> set[str]:
    return set(store.get(name).tags)
