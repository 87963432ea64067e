"""Coimbra as an OpenSpiel game: importing this module registers ``coimbra`` with ``pyspiel``.

``pyspiel.load_game("coimbra", {"players": 3})`` then gives a game OpenSpiel's algorithms
run on (its ``MCTSBot``, ``random_sim_test``). The game is sequential, of perfect
information, with explicit chance: every roll and deal of the table is one chance node
per die and per card (``draws``). Actions are numbered once for the catalog
(``actions``); every event is checked and applied by the rules core. A player's return at
the end is 1 for first place, shared equally by players who share it (GAPS 11), else 0:
the returns always add up to 1 (constant sum), the chance of finishing first that
``coimbra analyse`` measures.

Parameters: ``players`` (2 to the catalog's maximum; seated as ``coimbra simulate``
seats them) and ``catalog`` (a catalog id, the stand-in unless given).
Needs the optional extra: ``pip install -e ".[openspiel]"``.
"""

from __future__ import annotations

from typing import Any

import pyspiel
from open_spiel.python.observation import IIGObserverForPublicInfoGame

from coimbra_events.catalog import find_catalog, standin_catalog
from coimbra_events.openspiel.position import Position, longest
from coimbra_events.simulator import DEFAULT_PLAYERS

NAME = "coimbra"

_DEFAULT_CATALOG = standin_catalog()

GAME_TYPE = pyspiel.GameType(
    short_name=NAME,
    long_name="Coimbra",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.PERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.CONSTANT_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=_DEFAULT_CATALOG.max_players,
    min_num_players=_DEFAULT_CATALOG.min_players,
    provides_information_state_string=True,
    provides_information_state_tensor=False,
    provides_observation_string=True,
    provides_observation_tensor=False,
    parameter_specification={"players": _DEFAULT_CATALOG.min_players, "catalog": _DEFAULT_CATALOG.id},
)


class CoimbraGame(pyspiel.Game):
    """The game for one catalog and number of players."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = {**GAME_TYPE.parameter_specification, **(params or {})}
        self.catalog = find_catalog(str(params["catalog"]))
        players = int(params["players"])
        if not self.catalog.min_players <= players <= self.catalog.max_players:
            raise ValueError(f"{players} players; catalog {self.catalog.id} is for "
                             f"{self.catalog.min_players}-{self.catalog.max_players}")
        self.seats = DEFAULT_PLAYERS[:players]
        start = Position.start(self.catalog, self.seats)
        info = pyspiel.GameInfo(
            num_distinct_actions=len(start.space.decisions),
            max_chance_outcomes=len(start.space.pieces),
            num_players=players,
            min_utility=0.0,
            max_utility=1.0,
            utility_sum=1.0,
            max_game_length=longest(self.catalog, players),
        )
        super().__init__(GAME_TYPE, info, params)

    def new_initial_state(self) -> CoimbraState:
        """A game before the table's setup."""
        return CoimbraState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> Any:
        """The table as text for the default observation; the history for a perfect-recall information state."""
        if iig_obs_type is None or (iig_obs_type.public_info and not iig_obs_type.perfect_recall):
            return TableObserver(params)
        return IIGObserverForPublicInfoGame(iig_obs_type, params)


class CoimbraState(pyspiel.State):
    """A state of the game: a ``Position`` (immutable, shared by clones) and what OpenSpiel asks of it."""

    def __init__(self, game: CoimbraGame) -> None:
        super().__init__(game)
        self.position = Position.start(game.catalog, game.seats)

    def current_player(self) -> int:
        """The seat due to decide, chance while the table draws, terminal at game over."""
        if self.position.over:
            return pyspiel.PlayerId.TERMINAL
        if self.position.drawing:
            return pyspiel.PlayerId.CHANCE
        return self.position.seat

    def _legal_actions(self, player: int) -> list[int]:
        assert player >= 0
        return self.position.legal_actions()

    def chance_outcomes(self) -> list[tuple[int, float]]:
        assert self.is_chance_node()
        return self.position.chance_outcomes()

    def _apply_action(self, action: int) -> None:
        self.position = self.position.after(action)

    def _action_to_string(self, player: int, action: int) -> str:
        return self.position.describe(action)

    def is_terminal(self) -> bool:
        return self.position.over

    def returns(self) -> list[float]:
        return self.position.returns()

    def __str__(self) -> str:
        return str(self.position)


class TableObserver:
    """The whole table as text (perfect information: every player sees the same); no tensor."""

    def __init__(self, params: Any) -> None:
        if params:
            raise ValueError(f"observation parameters not supported; passed {params}")
        self.tensor = None
        self.dict: dict[str, Any] = {}

    def set_from(self, state: CoimbraState, player: int) -> None:
        """Nothing to fill: this observer has no tensor."""

    def string_from(self, state: CoimbraState, player: int) -> str:
        return str(state.position)


pyspiel.register_game(GAME_TYPE, CoimbraGame)
