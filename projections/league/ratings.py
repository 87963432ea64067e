"""Ratings: openskill's Plackett–Luce model, updated game by game in the order the games finished.

A rating is a skill estimate ``mu`` with its uncertainty ``sigma``; the league
shows the conservative rating ``mu - 3 sigma`` (openskill's ``ordinal``), which
starts at 0 and rises as a player's results make the estimate surer. Shared
places (the tie rule) are equal ranks. Because each game's update depends on
every earlier one, a change to a game's result (a correction, an undo, an
alias that makes two spellings one person) replays the ratings from that game
on; earlier ratings stay as they were.
"""

from __future__ import annotations

from itertools import groupby
from typing import Callable, Sequence

from projections.league.view import Tables


def replay_ratings(tables: Tables, start: int, person_of: Callable[[str], str]) -> int:
    """Recompute every rating from the game finished at ``start`` on; returns how many games were rated.

    A game in which one person holds two seats (two spellings made one person
    by an alias) cannot be rated and is passed over.
    """
    tables.drop_ratings(start)
    placings = tables.placings(start)
    known = tables.ratings_before(sorted({person_of(key) for _, _, key, _ in placings}), start)
    rows = rated(placings, person_of, known)
    tables.put_ratings(rows)
    return len({game for _, _, game, _, _ in rows})


def rated(placings: Sequence[tuple[int, str, str, int]], person_of: Callable[[str], str],
          known: dict[str, tuple[float, float]]) -> list[tuple[int, str, str, float, float]]:
    """``(finished, person, game id, mu, sigma)`` after each of these games (``Tables.placings``), rated in turn from
    ``known`` ratings (a season's: from none); a game in which one person holds two seats is passed over."""
    from openskill.models import PlackettLuce  # only the league needs it

    model = PlackettLuce()
    games = [(game, [(person_of(key), place) for _, _, key, place in seats])
             for game, seats in groupby(placings, key=lambda r: (r[0], r[1]))]
    rows: list[tuple[int, str, str, float, float]] = []
    for (finished, game_id), placed in games:
        people = [p for p, _ in placed]
        if len(set(people)) != len(people):
            continue
        teams = []
        for person in people:
            before = known.get(person)
            teams.append([model.rating() if before is None else model.rating(mu=before[0], sigma=before[1])])
        after = model.rate(teams, ranks=[place for _, place in placed])
        for person, (rating,) in zip(people, after):
            known[person] = (rating.mu, rating.sigma)
            rows.append((finished, person, game_id, rating.mu, rating.sigma))
    return rows


def ordinal(mu: float, sigma: float) -> float:
    """The conservative rating shown: openskill's ``ordinal``, ``mu - 3 sigma``."""
    from openskill.models import PlackettLuceRating

    return PlackettLuceRating(mu, sigma).ordinal()
