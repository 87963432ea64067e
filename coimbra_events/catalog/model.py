"""The component catalog's model: frozen values the rules read, and the catalog's constants.

Parsed from JSON by ``catalog.parsing``; loaded, found and shipped by ``catalog``.

Compiled with the rules core (``setup.py``): the rules read the catalog at almost
every step, and native classes make each read a field access instead of an
attribute lookup and each helper a C call instead of an interpreted frame. The
lookup tables are plain ``dict`` for the same reason.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Any, Final

from coimbra_events.catalog.effect_kinds import END_GAME, HELD, IMMEDIATE, PHASE_C, PHASE_E, PILES, TRACKS, Effect
from coimbra_events.record import Record

FORMAT: Final = "coimbra-catalog"
SCHEMA: Final = 1
RULES_TEXT: Final = "rules-text"
STAND_IN: Final = "stand-in"
PRINTED: Final = "printed"
PROVENANCES: Final[tuple[str, ...]] = (RULES_TEXT, STAND_IN, PRINTED)
"""Where a value comes from: the rule texts, the project's stand-in (GAPS.md), or
transcribed from the printed components by a group that owns the game."""

DIE_COLORS: Final[tuple[str, ...]] = TRACKS + ("white",)
CITIES: Final[tuple[str, ...]] = ("upper", "central", "lower")
MIN_PLAYERS: Final = 2  # rules text: 2-, 3- and 4-player games
MAX_PLAYERS: Final = 4
DICE_PER_PLAYER: Final = 3  # die holders per player, each placing a die a round (rules text)
START_SPACES: Final = 4  # starting corners around Coimbra (rules text)
SPACE_KINDS: Final[tuple[str, ...]] = ("start", "monastery", "road")

NO_BONUS: Final = "none"
TIMING_CONTEXTS: Final[Mapping[str, str]] = {
    "immediate": IMMEDIATE,
    "phase_c": PHASE_C,
    "phase_e": PHASE_E,
    "end_game": END_GAME,
}
CARD_TIMINGS: Final[Mapping[str, tuple[str, ...]]] = {
    "I": ("immediate", "phase_c"),
    "II": ("immediate", "phase_e", "end_game", NO_BONUS),
    "III": ("immediate", "phase_e", "end_game", NO_BONUS),
}
MONASTERY_TIMINGS: Final[tuple[str, ...]] = ("immediate", "end_game")
FAVOR_CONTEXTS: Final[tuple[str, ...]] = (IMMEDIATE, HELD)
SCORING_SIDES: Final[Mapping[str, int]] = {"2-3": 3, "4": 4}
"""The sides of an influence scoring tile, named by the player counts they are for, and
how many ranks each scores."""
TIE_BREAKS: Final[tuple[str, ...]] = ("resources", "shared")



class CatalogProblem(Record):
    """One thing wrong with a catalog: the place, what was expected there, what was found.

    ``loc`` is the place as a path into the catalog's JSON (keys and list indexes),
    which ``catalog build`` turns back into a sheet, row and column; ``other`` is the
    path of another entry ``got`` names, as ``other_where`` (a duplicate's first entry).
    """

    FIELDS = ("where", "expected", "got", "loc", "other", "other_where")
    COMPARED = FIELDS

    def __init__(self, where: str, expected: str, got: str, loc: tuple[str | int, ...] = (),
                 other: tuple[str | int, ...] = (), other_where: str = "") -> None:
        self.where: Final = where
        self.expected: Final = expected
        self.got: Final = got
        self.loc: Final = loc
        self.other: Final = other
        self.other_where: Final = other_where

    def __str__(self) -> str:
        return f"{self.where + ': ' if self.where else ''}expected {self.expected}, got {self.got}"


class CatalogError(Exception):
    """A catalog that cannot be used, with every problem found (``problems``, at least one).

    ``str(e)`` is one line: ``"[<source>: ]<where>: expected <expected>, got <got>"`` for
    the first problem, followed by ``" (and N more problems)"`` when there are more;
    :meth:`lines` gives every problem on a line of its own. ``where``, ``expected`` and
    ``got`` are the first problem's. ``source`` (the file, when loaded by
    :func:`load_catalog` or named in :func:`parse_catalog`) is ``None`` for data parsed
    under the default source.
    """

    def __init__(
        self, where: str, expected: str, got: str, source: str | None = None,
        problems: tuple[CatalogProblem, ...] = (),
    ) -> None:  # fmt: skip
        self.problems = problems or (CatalogProblem(where, expected, got),)
        first = self.problems[0]
        self.where, self.expected, self.got, self.source = first.where, first.expected, first.got, source
        more = len(self.problems) - 1
        tail = f" (and {more} more problem{'s' if more > 1 else ''})" if more else ""
        super().__init__(self._line(first) + tail)

    @classmethod
    def of(cls, problems: tuple[CatalogProblem, ...], source: str | None = None) -> CatalogError:
        """The error for these problems (at least one)."""
        first = problems[0]
        return cls(first.where, first.expected, first.got, source, problems)

    def _line(self, problem: CatalogProblem) -> str:
        return f"{self.source}: {problem}" if self.source else str(problem)

    def lines(self) -> list[str]:
        """Every problem on a line of its own, each naming the source."""
        return [self._line(p) for p in self.problems]

    def __reduce__(self) -> tuple[Any, ...]:  # picklable despite the custom signature
        return (CatalogError, (self.where, self.expected, self.got, self.source, self.problems))


# --------------------------------------------------------------------------- model


class IncomeTier(Record):
    """One row of the income table: disc positions ``low``..``high`` (inclusive)."""

    FIELDS = ("low", "high", "rewards")
    COMPARED = FIELDS

    def __init__(self, low: int, high: int, rewards: Mapping[str, tuple[int, int]]) -> None:
        self.low: Final = low
        self.high: Final = high
        self.rewards: Final = rewards  # track -> (base, bonus_points)


class FavorTile(Record):
    FIELDS = ("id", "name", "crowns", "effects")
    COMPARED = FIELDS

    def __init__(self, id: str, name: str, crowns: int, effects: tuple[Effect, ...]) -> None:
        self.id: Final = id
        self.name: Final = name
        self.crowns: Final = crowns
        self.effects: Final = effects  # contexts immediate or held


class CharacterCard(Record):
    FIELDS = ("id", "name", "pile", "category", "cost", "influence", "timing", "effects", "symbols")
    COMPARED = FIELDS

    def __init__(self, id: str, name: str, pile: str, category: str, cost: str, influence: int, timing: str,
                 effects: tuple[Effect, ...], symbols: tuple[str, ...]) -> None:
        self.id: Final = id
        self.name: Final = name
        self.pile: Final = pile
        self.category: Final = category
        self.cost: Final = cost
        self.influence: Final = influence
        self.timing: Final = timing  # immediate | phase_c | phase_e | end_game | none
        self.effects: Final = effects
        self.symbols: Final = symbols


class Monastery(Record):
    FIELDS = ("id", "name", "pile", "timing", "effects")
    COMPARED = FIELDS

    def __init__(self, id: str, name: str, pile: str, timing: str, effects: tuple[Effect, ...]) -> None:
        self.id: Final = id
        self.name: Final = name
        self.pile: Final = pile
        self.timing: Final = timing  # immediate | end_game
        self.effects: Final = effects


class VoyageSpace(Record):
    FIELDS = ("resource", "cost")
    COMPARED = FIELDS

    def __init__(self, resource: str, cost: int) -> None:
        self.resource: Final = resource
        self.cost: Final = cost


class Voyage(Record):
    FIELDS = ("id", "name", "effects")
    COMPARED = FIELDS

    def __init__(self, id: str, name: str, effects: tuple[Effect, ...]) -> None:
        self.id: Final = id
        self.name: Final = name
        self.effects: Final = effects  # the end-game task


class ScoringTile(Record):
    FIELDS = ("id", "name", "points")
    COMPARED = FIELDS

    def __init__(self, id: str, name: str, points: Mapping[str, tuple[int, ...]]) -> None:
        self.id: Final = id
        self.name: Final = name
        self.points: Final = points  # "2-3" -> 3 ranks, "4" -> 4 ranks


class MapSpace(Record):
    """A space of the pilgrimage map; ``name`` is what people call it (empty: the catalog gives none, and a
    monastery space is called by the monastery laid on it)."""

    FIELDS = ("id", "kind", "pile", "name")
    COMPARED = FIELDS

    def __init__(self, id: str, kind: str, pile: str | None, name: str = "") -> None:
        self.id: Final = id
        self.kind: Final = kind
        self.pile: Final = pile
        self.name: Final = name


class PilgrimMap(Record):
    FIELDS = ("spaces", "neighbours", "start_spaces", "monastery_spaces")
    COMPARED = FIELDS

    def __init__(self, spaces: dict[str, MapSpace], neighbours: dict[str, tuple[str, ...]],
                 start_spaces: tuple[str, ...], monastery_spaces: dict[str, tuple[str, ...]]) -> None:
        self.spaces: Final = spaces
        self.neighbours: Final = neighbours  # sorted neighbour ids
        self.start_spaces: Final = start_spaces  # file order
        self.monastery_spaces: Final = monastery_spaces  # pile -> space ids, file order


class Catalog(Record):
    """A validated catalog. Two catalogs are equal when their ``sha256`` is.

    ``dice_removed``, ``die_tokens`` and ``tie_break`` go beyond the engine's core API
    (what the helpers below read, and the tie break); ``discs_in_supply`` is each
    player's discs beside the board, for voyages and monasteries. The lookup tables
    the rules ask in every round are worked out once, here.
    """

    FIELDS = (
        "id", "title", "schema", "sha256", "data", "min_players", "max_players", "die_colors", "start_coins",
        "start_guards", "max_coins", "max_guards", "max_influence", "income", "flag_crowns", "crown_token_crowns",
        "alternative_coins", "alternative_guards", "cards_per_row", "cards_per_group", "favor_tiles", "characters",
        "monasteries", "voyage_spaces", "voyages", "scoring_tiles", "leftover_coins_per_point",
        "leftover_guards_per_point", "map", "provenance", "discs_in_supply", "dice_removed", "die_tokens", "tie_break",
    )
    COMPARED = ("sha256",)

    def __init__(
        self,
        id: str,
        title: str,
        schema: int,
        sha256: str,
        data: Mapping[str, Any],
        min_players: int,
        max_players: int,
        die_colors: dict[str, str],
        start_coins: int,
        start_guards: int,
        max_coins: int,
        max_guards: int,
        max_influence: int,
        income: tuple[IncomeTier, ...],
        flag_crowns: tuple[int, ...],
        crown_token_crowns: int,
        alternative_coins: int,
        alternative_guards: int,
        cards_per_row: int,
        cards_per_group: int,
        favor_tiles: dict[str, FavorTile],
        characters: dict[str, CharacterCard],
        monasteries: dict[str, Monastery],
        voyage_spaces: tuple[VoyageSpace, ...],
        voyages: dict[str, Voyage],
        scoring_tiles: dict[str, ScoringTile],
        leftover_coins_per_point: int,
        leftover_guards_per_point: int,
        map: PilgrimMap,
        provenance: Mapping[str, str],
        discs_in_supply: int,
        dice_removed: Mapping[int, Mapping[str, int]] | None = None,
        die_tokens: Mapping[int, Mapping[str, tuple[int, ...]]] | None = None,
        tie_break: str = "resources",
    ) -> None:
        self.id: Final = id
        self.title: Final = title
        self.schema: Final = schema
        self.sha256: Final = sha256
        self.data: Final = data
        self.min_players: Final = min_players
        self.max_players: Final = max_players
        self.die_colors: Final = die_colors
        self.start_coins: Final = start_coins
        self.start_guards: Final = start_guards
        self.max_coins: Final = max_coins
        self.max_guards: Final = max_guards
        self.max_influence: Final = max_influence
        self.income: Final = income
        self.flag_crowns: Final = flag_crowns
        self.crown_token_crowns: Final = crown_token_crowns
        self.alternative_coins: Final = alternative_coins
        self.alternative_guards: Final = alternative_guards
        self.cards_per_row: Final = cards_per_row
        self.cards_per_group: Final = cards_per_group
        self.favor_tiles: Final = favor_tiles
        self.characters: Final = characters
        self.monasteries: Final = monasteries
        self.voyage_spaces: Final = voyage_spaces
        self.voyages: Final = voyages
        self.scoring_tiles: Final = scoring_tiles
        self.leftover_coins_per_point: Final = leftover_coins_per_point
        self.leftover_guards_per_point: Final = leftover_guards_per_point
        self.map: Final = map
        self.provenance: Final = provenance
        self.discs_in_supply: Final = discs_in_supply
        self.dice_removed: Final[Mapping[int, Mapping[str, int]]] = {} if dice_removed is None else dice_removed
        self.die_tokens: Final[Mapping[int, Mapping[str, tuple[int, ...]]]] = {} if die_tokens is None else die_tokens
        self.tie_break: Final = tie_break
        self._dice_pools: Final = self._build_dice_pools()
        self._income_table: Final = self._build_income_table()
        self._card_effects_by_timing: Final = self._build_card_effects_by_timing()
        self._character_piles: Final = self._build_character_piles()
        self._monastery_piles: Final = self._build_monastery_piles()
        self._scoring_sides: Final = self._build_scoring_sides()

    def __repr__(self) -> str:
        return f"Catalog(id={self.id!r}, sha256={self.sha256[:12]!r}...)"

    def _check_players(self, players: int) -> None:
        if not self.min_players <= players <= self.max_players:
            raise ValueError(
                f"catalog {self.id!r} is for {self.min_players}-{self.max_players} players, "
                f"not {players}"
            )

    def dice_for(self, players: int) -> tuple[str, ...]:
        """Die ids in the pool for ``players`` (file order; highest numbers removed)."""
        self._check_players(players)
        return self._dice_pools[players]

    def die_tokens_for(self, players: int) -> Mapping[str, tuple[int, ...]]:
        """City -> die token values, left to right; ``{}`` when no tokens are used."""
        self._check_players(players)
        return self.die_tokens.get(players, {})

    def income_for(self, track: str, position: int) -> tuple[int, int]:
        """(base, bonus_points) paid by ``track`` to a disc on ``position``."""
        by_position = self._income_table.get(track)
        if by_position is None:
            raise ValueError(f"unknown track {track!r} (one of {', '.join(TRACKS)})")
        rewards = by_position.get(position)
        if rewards is None:
            raise ValueError(f"influence position {position!r} outside 0-{self.max_influence}")
        return rewards

    def scoring_side(self, players: int) -> str:
        """The side of the influence scoring tiles a game of ``players`` uses ("2-3" or "4")."""
        self._check_players(players)
        side = self._scoring_sides.get(players)
        if side is None:
            raise ValueError(f"no scoring tile side for {players} players (sides: {', '.join(SCORING_SIDES)})")
        return side

    def scoring_points(self, tile_id: str, players: int) -> tuple[int, ...]:
        """Victory points by rank of a scoring tile, on the side a game of ``players`` uses."""
        return self.scoring_tiles[tile_id].points[self.scoring_side(players)]

    def pile(self, pile: str) -> tuple[str, ...]:
        """Character ids of a pile, in file order."""
        return _of_pile(self._character_piles, pile)

    def monasteries_of(self, pile: str) -> tuple[str, ...]:
        """Monastery ids of a pile, in file order."""
        return _of_pile(self._monastery_piles, pile)

    def card_effects_at(self, timing: str) -> dict[str, tuple[Effect, ...]]:
        """The effects of every character card whose bonus has this timing, by card id."""
        return self._card_effects_by_timing.get(timing, {})

    # The rules ask these in every round of every replay; a catalog never changes, so
    # each table is built once, with the catalog (``__init__``).

    def _build_dice_pools(self) -> dict[int, tuple[str, ...]]:
        per_color = Counter(self.die_colors.values())
        pools = {}
        for players in range(self.min_players, self.max_players + 1):
            removed = self.dice_removed.get(players, {})
            kept = {c: n - removed.get(c, 0) for c, n in per_color.items()}
            pools[players] = tuple(d for d, c in self.die_colors.items() if _die_number(d) <= kept[c])
        return pools

    def _build_income_table(self) -> dict[str, dict[int, tuple[int, int]]]:
        return {
            # reversed: where tiers would overlap, the first one listed pays, as a scan would find it
            track: {p: tier.rewards[track] for tier in reversed(self.income) for p in range(tier.low, tier.high + 1)}
            for track in TRACKS
        }

    def _build_card_effects_by_timing(self) -> dict[str, dict[str, tuple[Effect, ...]]]:
        by_timing: dict[str, dict[str, tuple[Effect, ...]]] = {}
        for i, card in self.characters.items():
            by_timing.setdefault(card.timing, {})[i] = card.effects
        return by_timing

    def _build_scoring_sides(self) -> dict[int, str]:
        """The side of the scoring tiles for each player count the catalog supports (the first side that covers it)."""
        sides: dict[int, str] = {}
        for side in SCORING_SIDES:
            low, _, high = side.partition("-")
            for players in range(int(low), int(high or low) + 1):
                sides.setdefault(players, side)
        return sides

    def _build_character_piles(self) -> dict[str, tuple[str, ...]]:
        return {pile: tuple(i for i, c in self.characters.items() if c.pile == pile) for pile in PILES}

    def _build_monastery_piles(self) -> dict[str, tuple[str, ...]]:
        return {pile: tuple(i for i, m in self.monasteries.items() if m.pile == pile) for pile in PILES}


def _die_number(die_id: str) -> int:
    return int(die_id.rsplit("-", 1)[1])


def _of_pile(piles: dict[str, tuple[str, ...]], pile: str) -> tuple[str, ...]:
    if pile not in PILES:
        raise ValueError(f"unknown pile {pile!r} (one of {', '.join(PILES)})")
    return piles[pile]
