"""``coimbra tournament``: seating a tournament's rounds at tables of four and three (``seat``), and running one
round after round from its recorded games (``start``, ``next``, ``standings``, ``list``)."""

from __future__ import annotations

from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Iterator, Optional

import typer
from rich.markup import escape
from rich.padding import Padding
from rich.table import Table

from cli.common import ByOption, DbOption, JsonOption, console, entrant, print_json, served, store_errors
from cli.exits import RULE_VIOLATION, fail

if TYPE_CHECKING:
    from coimbra_events.service.tournaments import RoundStarted
    from coimbra_events.tournament import Seating

tournament_app = typer.Typer(
    help=(
        "Seat a tournament: players at tables of four and three, round after round; or run one from its recorded "
        "games: start it, seat the next round once the last is over, read the standings (docs/tournament.md).\n\n"
        "Example: [bold]coimbra tournament start spring --players \"Ana,Bruno,Carla,Dora,Eva,Filipe,Gil\" --rounds 3[/]"
    ),
    no_args_is_help=True,
)

RATINGS = ("league",)
"""Where ``--ratings`` may read strengths from."""


def league_strengths(db: Optional[Path], players: list[str]) -> dict[str, float]:
    """Each player's league rating (mu − 3σ; unrated: 0, a new player's), the name resolved through the aliases."""
    from cli.league_commands import league_tables
    from projections.league.reports import ratings_by_name

    with league_tables(db, quiet=True) as tables:
        return ratings_by_name(tables, players)


def field_and_strengths(players: str, rounds: int, ratings: Optional[str],
                        db: Optional[Path]) -> tuple[list[str], dict[str, float] | None]:
    """``--players`` checked (exit 2 naming the problem) and the strengths ``--ratings`` asks for (``None``: all equal)."""
    from coimbra_events.tournament import BadField, field

    try:
        names = list(field(players.split(","), rounds))
    except BadField as exc:
        fail(str(exc))
    if ratings is not None and ratings not in RATINGS:
        fail(f"--ratings {ratings!r}: the ratings come from {', '.join(RATINGS)}")
    return names, league_strengths(db, names) if ratings else None


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
    from coimbra_events.tournament import seat_rounds

    names, strengths = field_and_strengths(players, rounds, ratings, db)
    seating = seat_rounds(names, rounds, seed, strengths)
    if as_json:
        print_json({"rounds": seating.tables(), "explanations": seating.explanations()})
        return
    show(seating)


NameArgument = typer.Argument(..., metavar="NAME", help="The tournament's name: letters, digits, '-', '_' or '.' "
                                                        "(at most 30); its games are tagged NAME and NAME/round-N.")


@contextmanager
def tournament_errors() -> Iterator[None]:
    """A tournament that cannot be begun or is not recorded: one line, exit 2 (the store's refusals as ever)."""
    from coimbra_events.store.tournaments import UnknownTournament
    from coimbra_events.tournament import BadField
    from coimbra_events.tournament.standings import BadPoints

    with store_errors("nothing stored"):
        try:
            yield
        except (BadField, BadPoints) as exc:
            fail(f"{exc}; nothing stored")
        except UnknownTournament as exc:
            fail(str(exc))


def points_option(given: str) -> list[int]:
    """``--points 4,2,1,0`` as four whole numbers (checked further by the domain)."""
    try:
        return [int(p) for p in given.split(",")]
    except ValueError:
        fail(f"--points {given!r}: give four whole numbers separated by commas, one per place (e.g. 4,2,1,0)")


def show_started(name: str, outcome: RoundStarted) -> None:
    from cli.tournament_views import show_round

    show_round(outcome.round, dict(outcome.started))
    said = "seated" if outcome.seated else "resumed"
    console.print(f"Round {outcome.round.number} of {escape(name)} {said}: {len(outcome.started)} games started. "
                  "Play them at the tables (coimbra serve serves them all), then: "
                  f"[bold]coimbra tournament next {escape(name)}[/]")


@tournament_app.command("start")
def start_command(
    name: str = NameArgument,
    players: str = typer.Option(..., "--players", metavar="NAMES", help="The players' names, separated by commas."),
    rounds: int = typer.Option(..., "--rounds", metavar="R", help="How many rounds the tournament has (1 to 20)."),
    points: str = typer.Option("4,2,1,0", "--points", metavar="P1,P2,P3,P4", help="Tournament points for 1st to 4th "
                               "place at a table of four; a table of three gives P1,P2,P4, of two P1,P4; players "
                               "who share places share their points."),
    seed: int = typer.Option(0, "--seed", metavar="S", help="The draw: the same seed, players and results give the "
                             "same seating."),
    ratings: Optional[str] = typer.Option(None, "--ratings", metavar="FROM", help="Balance round 1 by strength: "
                                          "'league' reads the league's ratings (default: round 1 drawn)."),
    db: Optional[Path] = DbOption,
    by: Optional[str] = ByOption,
    as_json: bool = JsonOption,
) -> None:
    """Begin tournament NAME: record it in the store, seat round 1 and start its games (one per table, named
    NAME-r1-T, tagged NAME and NAME/round-1; coimbra serve serves them at once).

    Each later round is seated by [bold]coimbra tournament next NAME[/] once the round before is over, from the
    games' results: players on similar tournament points sit together (a Swiss), nobody meets an opponent again
    while another seating avoids it, and the first seat turns. [bold]coimbra tournament standings NAME[/] shows
    the standings after each round.

    Example: [bold]coimbra tournament start spring --players "Ana,Bruno,Carla,Dora,Eva,Filipe,Gil" --rounds 3[/]
    """
    names, strengths = field_and_strengths(players, rounds, ratings, db)
    places = points_option(points)
    with served(db, views=True, create=True) as games, tournament_errors():
        outcome = games.start_tournament(name, names, rounds, places, seed, strengths, by=entrant(by))
    if as_json:
        print_json(outcome.to_json(name))
        return
    show_started(name, outcome)


@tournament_app.command("next")
def next_command(name: str = NameArgument, db: Optional[Path] = DbOption, by: Optional[str] = ByOption,
                 as_json: bool = JsonOption) -> None:
    """Seat the next round of tournament NAME and start its games, once every game of the round before is over
    (exit 1 naming the tables not finished, if not).

    The round is balanced by the tournament points so far (a Swiss), avoids repeated opponents and turns the
    first seat; why anyone meets again is said under it. A table whose game was archived (abandoned) gets a
    new game. Once every round is played, it says so and points to the standings.

    Example: [bold]coimbra tournament next spring[/]
    """
    from coimbra_events.service.tournaments import RoundNotOver, RoundStarted

    with served(db, views=True) as games, tournament_errors():
        outcome = games.next_round(name, by=entrant(by))
    if isinstance(outcome, RoundStarted):
        if as_json:
            print_json(outcome.to_json(name))
        else:
            show_started(name, outcome)
        return
    if isinstance(outcome, RoundNotOver):
        if as_json:
            print_json(outcome.to_json(name))
            raise typer.Exit(RULE_VIOLATION)
        fail(f"round {outcome.round.number} of {name} is not over: {'; '.join(t.said() for t in outcome.round.waiting())}",
             RULE_VIOLATION)
    if as_json:
        print_json({"tournament": name, "round": None, "over": True})
        return
    console.print(f"{escape(name)} is over: its {outcome.progress.tournament.rounds} rounds are played. "
                  f"[bold]coimbra tournament standings {escape(name)}[/] shows the final standings.")


@tournament_app.command("standings")
def standings_command(name: str = NameArgument,
                      after: Optional[int] = typer.Option(None, "--after", metavar="N", help="The standings after "
                                                          "round N (default: now)."),
                      db: Optional[Path] = DbOption, as_json: bool = JsonOption) -> None:
    """The standings of tournament NAME after each round, from its games' results as they are now: a round under
    way counts its finished tables. With --json: every round's tables, games, results and standings.

    Ranked by tournament points, then game points scored, then opponents' points (the tournament points of
    everyone the player has sat with, once per meeting); players equal on all three share a rank.

    Example: [bold]coimbra tournament standings spring[/]
    """
    from cli.tournament_views import round_state, show_round, show_standings, tournament_line
    from coimbra_events.service.tournament_progress import progress_json

    with served(db, views=True) as games, tournament_errors():
        now = games.tournament(name)
    shown = progress_json(now)
    if after is not None and not 1 <= after <= len(now.rounds):
        fail(f"--after {after}: {name} has rounds 1 to {len(now.rounds)} seated")
    if as_json:
        print_json(shown if after is None else shown["seated"][after - 1])
        return
    console.print(escape(tournament_line(now)))
    for seated in now.rounds if after is None else now.rounds[after - 1:after]:
        show_round(seated)
    number = after or len(now.rounds)
    lines = shown["seated"][number - 1]["standings"] if number else shown["standings"]
    state = round_state(now.rounds[number - 1]) if number else "no round seated"
    show_standings(lines, f"Standings after round {number} ({state})")


@tournament_app.command("list")
def list_command(db: Optional[Path] = DbOption, as_json: bool = JsonOption) -> None:
    """Every tournament recorded in the store, with the round it is at.

    Example: [bold]coimbra tournament list[/]
    """
    from cli.tournament_views import tournament_line

    with served(db, views=True) as games, tournament_errors():
        every = [games.tournament(name) for name in games.tournament_names()]
    if as_json:
        print_json({"tournaments": [{"tournament": p.tournament.name, "rounds": p.tournament.rounds,
                                     "seated": len(p.rounds), "over": p.over} for p in every]})
        return
    for now in every:
        console.print(escape(tournament_line(now)))
    if not every:
        console.print("No tournament is recorded in this store (coimbra tournament start NAME begins one).")
