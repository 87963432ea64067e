"""Seating a tournament: players into tables of 4 and 3, round after round.

``seat_rounds`` is the whole of it: the field checked (``field``), each round's tables chosen by CP-SAT
(``round_model``) so that nobody meets an opponent again while another seating avoids it and each table
holds players of similar strength, seats rotated at each table (``seat_order``), and every repeated meeting
explained (``explanations``). Strengths are plain numbers passed in: this package reads no store.
``standings`` turns the tables' results into tournament points and the standings after each round.
"""

from coimbra_events.tournament.field import BadField, MAX_PLAYERS, MAX_ROUNDS, field, table_sizes
from coimbra_events.tournament.standings import POINTS, Finish, Standing, standings, table_points

__all__ = ["BadField", "Finish", "MAX_PLAYERS", "MAX_ROUNDS", "POINTS", "Round", "Seating", "Standing", "field", "seat_round",
           "seat_rounds", "standings", "table_points", "table_sizes"]

SEATING = ("Round", "Seating", "seat_round", "seat_rounds")
"""Names of ``seating``, imported when first asked for: it brings OR-Tools, which a command that seats nobody (say
``coimbra validate``, through the application) should not load."""


def __getattr__(name: str) -> object:
    if name in SEATING:
        from coimbra_events.tournament import seating

        return getattr(seating, name)
    raise AttributeError(name)
