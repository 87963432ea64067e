"""Why a round seats two players together again, in a sentence that claims no more than the solver proved."""

from __future__ import annotations

from coimbra_events.tournament.meetings import Meetings, Pair
from coimbra_events.tournament.round_model import RoundSolution


def rounds_before(number: int) -> str:
    """``round 1``, ``rounds 1–3``: the rounds before round ``number``."""
    return "round 1" if number == 2 else f"rounds 1–{number - 1}"


def in_words(rounds: list[int]) -> str:
    """``round 1``, ``rounds 1 and 3``, ``rounds 1, 2 and 4``."""
    if len(rounds) == 1:
        return f"round {rounds[0]}"
    return f"rounds {', '.join(map(str, rounds[:-1]))} and {rounds[-1]}"


def why(meeting: Pair, number: int, before: Meetings, solution: RoundSolution) -> str:
    """One repeated meeting of round ``number`` explained: proved unavoidable, or what the search knows."""
    a, b = meeting
    said = f"{a} and {b} meet again in round {number} (as in {in_words(before.rounds[meeting])})"
    if solution.proved:
        return f"{said}: given {rounds_before(number)}, no seating of round {number} avoids every repeat, and none repeats less"
    if solution.fewest > 0:
        return (f"{said}: given {rounds_before(number)}, no seating of round {number} avoids every repeat; "
                f"none repeating less was found within the search's budget (repeats {solution.repeats}, at least {solution.fewest})")
    return (f"{said}: no seating of round {number} repeating less was found within the search's budget, "
            "which did not settle whether one without repeats exists")
