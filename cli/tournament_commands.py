"""``coimbra tournament``: seating a tournament's rounds at tables of four and three."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Optional

import typer
from rich.markup import escape
from rich.padding import Padding
from rich.table import Table

from cli.common import DbOption, JsonOption, console, print_json
from cli.exits import fail

if TYPE_CHECKING:
    from coimbra_events.tournament import Seating

tournament_app = typer.Typer(
    help=(
        "Seat a tournament: players at tables of four and three, round after round (docs/tournament.md).\n\n"
        "Example: [bold]coimbra tournament seat --players \"Ana,Bruno,Carla,Dora,Eva,Filipe,Gil\" --rounds 3[/]"
    ),
    no_args_is_help=True,
)

RATINGS = ("league",)
"""Where ``--ratings`` may read strengths from."""


def league_strengths(db: Optional[Path], players: list[str]) -> dict[str, float]:
    """Each player's league rating (mu − 3σ; unrated: 0, a new player's), the name resolved through the aliases."""
    from cli.league_commands import league_tables
    from coimbra_events.players import person_key
    from projections.league.reports import people_of, recent_ratings

    with league_tables(db, quiet=True) as tables:
        people, rated = people_of(tables), recent_ratings(tables)
    return {name: float(rated.get(people.of(person_key(name)), {}).get("rating", 0.0)) for name in players}


def show(seating: Seating) -> None:
    """One table per round, seat order first to last, and the round's explanations under it."""
    for played in seating.rounds:
        seats = max(len(table) for table in played.tables)
        grid = Table(title=f"Round {played.number}", title_justify="left")
        grid.add_column("table", justify="right")
        for seat in range(1, seats + 1):
            grid.add_column("first" if seat == 1 else f"seat {seat}")
        for number, table in enumerate(played.tables, 1):
            grid.add_row(str(number), *(escape(name) for name in table))
        console.print(grid)
        for sentence in played.explanations:
            console.print(Padding(escape(sentence), (0, 0, 0, 2)))
    console.print(f"Seed {seating.seed}: the same seed, players and ratings give the same seating.")


@tournament_app.command("seat")
def seat_command(
    players: str = typer.Option(..., "--players", metavar="NAMES", help="The players' names, separated by commas."),
    rounds: int = typer.Option(..., "--rounds", metavar="R", help="How many rounds to seat (1 to 20)."),
    seed: int = typer.Option(0, "--seed", metavar="S", help="The draw: another seed, another seating; the same seed, the same."),
    ratings: Optional[str] = typer.Option(None, "--ratings", metavar="FROM", help="Balance tables by strength: 'league' reads "
                                          "the league's ratings from the store (default: all players equal)."),
    db: Optional[Path] = DbOption,
    as_json: bool = JsonOption,
) -> None:
    """Seat the players at tables of four and three for R rounds: nobody meets an opponent again while another
    seating avoids it, players of similar rating sit together (with --ratings), and the first seat turns.

    Tables of two only when the number of players forces it (2 or 5). Every repeated meeting is explained.
    The seating is reproducible: the same seed, players and ratings give the same tables on any machine.

    Example: [bold]coimbra tournament seat --players "Ana,Bruno,Carla,Dora,Eva,Filipe,Gil" --rounds 3 --seed 7[/]
    """
    from coimbra_events.tournament import BadField, field, seat_rounds

    try:
        names = list(field(players.split(","), rounds))
    except BadField as exc:
        fail(str(exc))
    if ratings is not None and ratings not in RATINGS:
        fail(f"--ratings {ratings!r}: the ratings come from {', '.join(RATINGS)}")
    strengths = league_strengths(db, names) if ratings else None
    seating = seat_rounds(names, rounds, seed, strengths)
    if as_json:
        print_json({"rounds": seating.tables(), "explanations": seating.explanations()})
        return
    show(seating)
