"""Regenerate the fixture corpus: simulated games and hand-made illegal logs.

Run from the repository root: ``python scripts/make_fixtures.py``. The corpus is
then frozen: tests replay the files on disk, so old recordings must keep
working when the code changes. Regenerate only when adding fixtures.

Each illegal log is a recorded game with one event replaced by an illegal one
(the hash chain re-signed, so the only problem is the rule broken);
``fixtures/invalid/expected.json`` names the event and rule each must produce.
"""

from __future__ import annotations

from pathlib import Path
from typing import Callable, Optional

import orjson

from coimbra_events import events as ev
from coimbra_events import log as game_log, log_reader
from coimbra_events.catalog import standin_catalog
from coimbra_events.catalog.effect_kinds import TRACKS
from coimbra_events.events import GameEvent
from coimbra_events.rules.core import apply, check, start
from coimbra_events.simulator import DEFAULT_PLAYERS, simulate
from coimbra_events.state import CASTLE, CITIES, TABLE, GameState

ROOT = Path(__file__).resolve().parent.parent
GAMES = ROOT / "fixtures" / "games"
INVALID = ROOT / "fixtures" / "invalid"
GAME_SEEDS = {2: 1, 3: 2, 4: 3}

Candidate = Callable[[GameState], Optional[GameEvent]]


def _due(state: GameState, kind: str) -> bool:
    return state.pending is not None and state.pending.kind == kind


def _player_due(state: GameState) -> str | None:
    p = state.pending
    return p.actor if p is not None and p.actor != TABLE else None


def _other_player(state: GameState) -> GameEvent | None:
    who = _player_due(state)
    if who is None or not _due(state, "draft"):
        return None
    other = next(p.name for p in state.players if p.name != who)
    return ev.DiePlaced(other, state.pool[0], CASTLE)


def _too_expensive(state: GameState) -> GameEvent | None:
    p = state.pending
    if not _due(state, "retrieve") or p.location == CASTLE:
        return None
    pl = state.player(p.actor)
    price = state.die_value(p.die)
    row = state.rows[CITIES.index(p.location)]
    cards = state.catalog.characters
    return next((ev.CardBought(p.actor, c) for c in row if getattr(pl, cards[c].cost) < price), None)


def _card_elsewhere(state: GameState) -> GameEvent | None:
    p = state.pending
    if not _due(state, "retrieve") or p.location == CASTLE:
        return None
    others = [c for k, row in enumerate(state.rows) if CITIES[k] != p.location for c in row]
    return ev.CardBought(p.actor, others[0]) if others else None


def _taken_tile(state: GameState) -> GameEvent | None:
    p = state.pending
    taken = [t for t in state.catalog.favor_tiles if t not in state.favor_available]
    return ev.FavorTileTaken(p.actor, taken[0]) if _due(state, "retrieve") and p.location == CASTLE and taken else None


def _tile_from_city(state: GameState) -> GameEvent | None:
    p = state.pending
    ok = _due(state, "retrieve") and p.location != CASTLE and state.favor_available
    return ev.FavorTileTaken(p.actor, state.favor_available[0]) if ok else None


def _wrong_track(state: GameState) -> GameEvent | None:
    if not _due(state, "income"):
        return None
    pl = state.player(state.pending.actor)
    colors = state.catalog.die_colors
    for die in pl.income_left:
        color = colors.get(die)
        if color in TRACKS:
            return ev.IncomeActivated(pl.name, die, next(t for t in TRACKS if t != color))
    return None


def _second_voyage(state: GameState) -> GameEvent | None:
    if not _due(state, "voyage"):
        return None
    pl = state.player(state.pending.actor)
    return ev.VoyageInvested(pl.name, pl.voyages[0]) if pl.voyages else None


def _far_step(state: GameState) -> GameEvent | None:
    if not _due(state, "steps"):
        return None
    pl = state.player(state.pending.actor)
    near = set(state.catalog.map.neighbours[pl.pilgrim]) | {pl.pilgrim}
    return ev.PilgrimStepped(pl.name, next(s for s in state.catalog.map.spaces if s not in near))


def _taken_space(state: GameState) -> GameEvent | None:
    who = _player_due(state)
    ok = _due(state, "start-choice") and state.pilgrims_placed and "pilgrim" not in state.player(who).start_choices
    return ev.PilgrimPlaced(who, state.pilgrims_placed[0]) if ok else None


def _loaded_die(state: GameState) -> GameEvent | None:
    if not _due(state, "dice"):
        return None
    pool = state.catalog.dice_for(len(state.players))
    return ev.DiceRolled(TABLE, tuple(sorted((d, 7 if k == 0 else 3) for k, d in enumerate(pool))))


def _pile_three_first(state: GameState) -> GameEvent | None:
    if not _due(state, "rows") or state.round > 1:
        return None
    cards = state.catalog.pile("III")[:12]
    return ev.CharacterRowsDealt(TABLE, tuple((city, tuple(cards[k * 4 : k * 4 + 4])) for k, city in enumerate(CITIES)))


def _greedy_alternative(state: GameState) -> GameEvent | None:
    return ev.AlternativeTaken(state.pending.actor, 3, 2) if _due(state, "retrieve") else None


def _placed_die(state: GameState) -> GameEvent | None:
    placed = [slot.die for row in state.locations for slot in row if not slot.is_token]
    return ev.DiePlaced(state.pending.actor, placed[0], CASTLE) if _due(state, "draft") and placed else None


def _end_income_while_drafting(state: GameState) -> GameEvent | None:
    return ev.IncomeEnded(state.pending.actor) if _due(state, "draft") else None


def _unaffordable_voyage(state: GameState) -> GameEvent | None:
    if not _due(state, "voyage"):
        return None
    pl = state.player(state.pending.actor)
    spaces = state.catalog.voyage_spaces
    for k, voyage in enumerate(state.voyages):
        if getattr(pl, spaces[k].resource) < spaces[k].cost and pl.name not in state.voyage_discs[k]:
            return ev.VoyageInvested(pl.name, voyage)
    return None


def _die_not_held(state: GameState) -> GameEvent | None:
    if not _due(state, "income"):
        return None
    pl = state.player(state.pending.actor)
    other = next((d for p in state.players if p.name != pl.name for d in p.shutter), None)
    return ev.IncomeActivated(pl.name, other, state.catalog.die_colors[other]) if other else None


def _group_taken(state: GameState) -> GameEvent | None:
    who = _player_due(state)
    taken = [k + 1 for k, by in enumerate(state.start_groups_taken) if by]
    ok = _due(state, "start-choice") and taken and "cards" not in state.player(who).start_choices
    return ev.StartGroupTaken(who, taken[0]) if ok else None


CASES: dict[str, tuple[str, Candidate]] = {
    "die-already-placed": ("B.die", _placed_die),
    "wrong-kind-of-input": ("TURN.kind", _end_income_while_drafting),
    "voyage-unaffordable": ("F.cost", _unaffordable_voyage),
    "income-other-players-die": ("E.die", _die_not_held),
    "start-group-taken": ("START.group", _group_taken),
    "turn-actor": ("TURN.actor", _other_player),
    "card-too-expensive": ("C.cost", _too_expensive),
    "card-not-in-row": ("C.card", _card_elsewhere),
    "favor-tile-taken": ("C.tile", _taken_tile),
    "favor-tile-from-city": ("C.location", _tile_from_city),
    "alternative-too-much": ("C.alternative", _greedy_alternative),
    "income-wrong-track": ("E.track", _wrong_track),
    "voyage-twice": ("F.once", _second_voyage),
    "pilgrim-not-adjacent": ("PILGRIM.adjacent", _far_step),
    "start-space-taken": ("START.space", _taken_space),
    "die-value-seven": ("A.dice", _loaded_die),
    "rows-from-pile-three": ("SETUP.rows", _pile_three_first),
}


def make_invalid(log: game_log.GameLog) -> dict[str, dict[str, object]]:
    """One illegal log per case, from the first point of the game where the case applies."""
    catalog = standin_catalog()
    expected: dict[str, dict[str, object]] = {}
    for name, (rule, candidate) in CASES.items():
        state = start(catalog, log.players)
        for k, event in enumerate(log.events):
            bad = candidate(state)
            violation = bad and check(state, bad)
            if violation and violation.rule == rule:
                events = log.events[:k] + (bad,) + log.events[k + 1 :]
                game_log.write(INVALID / f"{name}.json", log.with_events(events))
                expected[f"{name}.json"] = {"seq": k + 1, "rule": rule}
                break
            state = apply(state, event)
        else:
            raise SystemExit(f"no place in the game for case {name}")
    return expected


def main() -> None:
    GAMES.mkdir(parents=True, exist_ok=True)
    INVALID.mkdir(parents=True, exist_ok=True)
    catalog = standin_catalog()
    for players, seed in GAME_SEEDS.items():
        log, _ = simulate(catalog, DEFAULT_PLAYERS[:players], seed)
        game_log.write(GAMES / f"standin-{players}p-seed{seed}.json", log)
    source = log_reader.read(GAMES / "standin-3p-seed2.json")
    expected = make_invalid(source)
    (INVALID / "expected.json").write_bytes(orjson.dumps(expected, option=orjson.OPT_INDENT_2 | orjson.OPT_SORT_KEYS) + b"\n")


if __name__ == "__main__":
    main()
