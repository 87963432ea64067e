"""Games for the league tests: simulated, recorded into a store, corrected so that the winner changes."""

from __future__ import annotations

from typing import Sequence

from coimbra_events.catalog import standin_catalog
from coimbra_events.game import Game
from coimbra_events.log import GameLog
from coimbra_events.rules.core import legal
from coimbra_events.rules.outcomes import OutcomeSpace
from coimbra_events.rules.scoring import final_scores
from coimbra_events.service import Games
from coimbra_events.simulator import simulate
from coimbra_events.state import GameState
from coimbra_events.store.game_store import GameStore

COLOURS = ("red", "blue", "yellow", "green")

TIES: tuple[tuple[int, int], ...] = ((2, 1660), (3, 1414), (3, 2981), (4, 739), (4, 1793))
"""(players, seed) of simulated games of Ana, Bruno, Carla and Duarte that end with a shared place
(equal points and equal coins + guards left); ``test_the_tie_games_tie`` keeps them so."""
TIE_PLAYERS = ("Ana", "Bruno", "Carla", "Duarte")


def simulated(names: Sequence[str], seed: int) -> GameLog:
    """A whole simulated game of these players."""
    return simulate(standin_catalog(), list(zip(names, COLOURS)), seed)[0]


def tie_game(k: int) -> GameLog:
    players, seed = TIES[k]
    return simulated(TIE_PLAYERS[:players], seed)


def places(state: GameState) -> dict[str, int]:
    return {s.name: s.place for s in final_scores(state)}


def winner(state: GameState) -> str:
    return min((s.place, s.name) for s in final_scores(state))[1]


def winner_changing_correction(seeds: Sequence[int] = range(1, 40)) -> tuple[GameLog, int, object]:
    """A finished 2-player game, an entry and a correction of it that leaves the game finished with another winner."""
    for seed in seeds:
        log = simulated(("Ana", "Bruno"), seed)
        won = winner(Game.from_log("probe", log).state)
        for seq in range(len(log.events), len(log.events) - 40, -1):
            options = legal(Game.from_log("probe", log).state_before(seq))
            if isinstance(options, OutcomeSpace):
                continue
            for alternative in options:
                if alternative == log.events[seq - 1]:
                    continue
                game = Game.from_log("probe", log)
                if not game.correct(seq, alternative) and game.over and winner(game.state) != won:
                    return log, seq, alternative
    raise AssertionError("no correction changes the winner of the first simulated games")


def import_all(store: GameStore, logs: Sequence[tuple[str, GameLog]]) -> None:
    """Each log stored as a new game of its name, through the application."""
    games = Games(store)
    for name, log in logs:
        assert games.import_log(log, name).how == "stored", name
