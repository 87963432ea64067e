"""Who is in the tournament and how many tables of which size each round has."""

from __future__ import annotations

from collections.abc import Iterable

from coimbra_events.players import person_key

MAX_PLAYERS = 128
"""32 tables of four: past that, one round's model outgrows the solver's budget."""
MAX_ROUNDS = 20
"""Longer than any evening or weekend; a bound so that a typo (``--rounds 70``) is caught, not run."""


class BadField(ValueError):
    """Players or rounds that cannot be seated: too few, a name given twice or empty, rounds out of range."""


def field(names: Iterable[str], rounds: int) -> tuple[str, ...]:
    """The players, trimmed, in the order given; a problem is a ``BadField`` naming it.

    Two names count as one person when the league would join them (case, accents and spaces do not count)."""
    players = tuple(" ".join(name.split()) for name in names)
    if any(not name for name in players):
        raise BadField("a player's name is empty (two commas in a row, or one at an end?)")
    seen: dict[str, str] = {}
    for name in players:
        if person_key(name) in seen:
            raise BadField(f"{name!r} is given twice (as {seen[person_key(name)]!r} too)")
        seen[person_key(name)] = name
    if not 2 <= len(players) <= MAX_PLAYERS:
        raise BadField(f"{len(players)} player{'s' * (len(players) != 1)}: a tournament seats 2 to {MAX_PLAYERS}")
    if not 1 <= rounds <= MAX_ROUNDS:
        raise BadField(f"{rounds} rounds: a tournament has 1 to {MAX_ROUNDS}")
    return players


def table_sizes(players: int) -> tuple[int, ...]:
    """Tables of four, and as few of three as make up ``players``; a table of two only for 2 or 5 players.

    4k players sit at k tables of four; 4k+3 add one of three; 4k+2 two of three; 4k+1 three of three
    (9 is three tables of three). 5 cannot be made of fours and threes: 3 + 2."""
    if players < 2:
        raise BadField(f"{players} players cannot fill a table")
    special = {2: (2,), 3: (3,), 5: (3, 2)}
    if players in special:
        return special[players]
    threes = (4 - players % 4) % 4
    return (4,) * ((players - 3 * threes) // 4) + (3,) * threes
