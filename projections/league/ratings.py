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
from typing import Callable

from projections.league.view import Tables


def replay_ratings(tables: Tables, start: int, person_of: Callable[[str], str]) -> int:
    """Recompute every rating from the game finished at ``start`` on; returns how many games were rated.

    A game in which one person holds two seats (two spellings made one person
    by an alias) cannot be rated and is passed over.
    """
    from openskill.models import PlackettLuce  # only the league needs it

    model = PlackettLuce()
    tables.drop_ratings(start)
    games = [(game, [(person_of(key), place) for _, _, key, place in seats])
             for game, seats in groupby(tables.placings(start), key=lambda r: (r[0], r[1]))]
    known: dict[str, tuple[float, float]] = tables.ratings_before(sorted({p for _, placed in games for p, _ in placed}), start)
    rows: list[tuple[int, str, str, float, float]] = []
    rated = 0
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
        rated += 1
    tables.put_ratings(rows)
    return rated


def ordinal(mu: float, sigma: float) -> float:
    """The conservative rating shown: openskill's ``ordinal``, ``mu - 3 sigma``."""
    from openskill.models import PlackettLuceRating

    return PlackettLuceRating(mu, sigma).ordinal()
