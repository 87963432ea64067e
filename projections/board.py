"""The whole table at one point of a game, as plain JSON-able data.

``board_view`` is the single read model behind ``show``, ``diff`` and the
replayer: everything a person sees on the table (dice rows, character rows,
favor tiles, tracks, player boards, pilgrims, voyages) named in the game's own
words, with catalog names beside ids so a view reads without the catalog.
Each player's ``holdings`` is everything in front of them, named: cards by
zone, favor tiles and the extra die, crown tokens, monasteries marked, voyages
invested, and the dice on their shutter, collected or not.
Once the game is over the end-game scoring is done on the board too: each
player's ``points`` are the final total (as ``score`` gives it), with the points
made during play, the end-game points by source and the final place beside them.
"""

from __future__ import annotations

from typing import Any

from coimbra_events.catalog.effect_kinds import TRACKS
from coimbra_events.rules import effects
from coimbra_events.rules.outcomes import deck_size
from coimbra_events.rules.scoring import PlayerScore, final_scores
from coimbra_events.state import CITIES, EXTRA_DIE, LOCATIONS, PHASE_B, PHASE_C, PHASE_D, PHASE_E, GameState, PlayerState
from projections.recording import pool_order
from projections.words import bonus_words, effects_words

PHASE_NAMES = {
    "setup": "setup",
    "start": "start choices",
    "A": "A: rolling dice",
    "B": "B: drafting and placing dice",
    "C": "C: retrieving dice",
    "D": "D: new player order",
    "E": "E: influence income",
    "F": "F: voyages",
    "over": "game over",
}


def _pending(state: GameState) -> dict[str, Any] | None:
    p = state.pending
    if p is None:
        return None
    out: dict[str, Any] = {"actor": p.actor, "kind": p.kind}
    for key in ("amount", "source", "location", "die"):
        value = getattr(p, key)
        if value:
            out[key] = value
    return out


def _card(state: GameState, card_id: str) -> dict[str, Any]:
    c = state.catalog.characters[card_id]
    crown = any(cid == card_id for cid, _ in state.crowns_on_cards)
    out = {"id": c.id, "name": c.name, "category": c.category, "cost": c.cost, "influence": c.influence, "bonus": c.timing}
    if crown:
        out["crown_token"] = True
    return out


ROLLED_PHASES = (PHASE_B, PHASE_C, PHASE_D, PHASE_E)
"""Phases in which the dice area holds this round's rolled, undrafted dice."""


def _dice_area(state: GameState) -> list[dict[str, Any]]:
    """The dice beside the board: this round's undrafted dice with their values while the round's
    dice are out (phases B-E); otherwise the whole pool, not rolled (``value`` ``None``), since
    after phase E every die goes back to the dice area for the next roll."""
    colors = state.catalog.die_colors
    if state.phase in ROLLED_PHASES:
        return [{"die": d, "color": colors[d], "value": v} for d, v in state.dice if d in state.pool]
    return [{"die": d, "color": colors[d], "value": None} for d in pool_order(state)]  # as the roll lists them


def _locations(state: GameState) -> dict[str, list[dict[str, Any]]]:
    """The dice in each location, left to right; a die token says whether it lies face up.

    A die token is flipped face down when its turn comes in phase C and face
    up again once its location is done (rules text 000, phase C).
    """
    colors = state.catalog.die_colors
    turn = state.cursor if state.phase == PHASE_C and len(state.cursor) == 2 else (-1, 0)
    out = {}
    for k, (loc, row) in enumerate(zip(LOCATIONS, state.locations)):
        out[loc] = [
            {"die": s.die, "value": s.value, "owner": None if s.is_token else state.players[s.owner].name,
             "color": "token" if s.is_token else colors[s.die],
             **({"face_up": not (k == turn[0] and j < turn[1])} if s.is_token else {})}
            for j, s in enumerate(row)
        ]
    return out


ZONES: tuple[tuple[str, str], ...] = (
    ("immediate", "immediate"), ("phase_c", "phase C"), ("phase_e", "phase E"), ("end_game", "end-game"), ("none", "no bonus"),
)
"""Where a player lays each character card, by when its bonus happens: (timing, the zone's name)."""


def _incomes_used(state: GameState, i: int) -> frozenset[str] | None:
    """Dice of player ``i`` whose phase E income is collected (or forfeited); ``None`` before that player's phase E."""
    if state.phase != PHASE_E or len(state.cursor) != 2:
        return None
    pos, begun = state.cursor
    at = state.order.index(i)
    pl = state.players[i]
    if at < pos:
        return frozenset(pl.shutter) | {EXTRA_DIE}
    if at == pos and begun:
        return frozenset(d for d in (*pl.shutter, EXTRA_DIE) if d not in pl.income_left)
    return None


def _holdings(state: GameState, i: int, pl: PlayerState) -> dict[str, Any]:
    """Everything the player holds or has marked, each component named, the way it lies in front of them."""
    cat = state.catalog
    cards: dict[str, list[dict[str, Any]]] = {timing: [] for timing, _ in ZONES}
    for c in pl.owned_cards:
        card = cat.characters[c]
        cards[card.timing if card.timing in cards else "none"].append(
            {"id": c, "name": card.name, "category": card.category, "influence": card.influence,
             "start_card": c in pl.start_cards, "bonus": bonus_words(card.timing, card.effects)})
    spaces = {m: s for s, m in state.monasteries}
    used = _incomes_used(state, i)
    values = dict(state.dice)
    return {
        "cards": {timing: found for timing, found in cards.items() if found},
        "favor_tiles": [{"id": t, "name": cat.favor_tiles[t].name, "crowns": cat.favor_tiles[t].crowns,
                         "effects": effects_words(cat.favor_tiles[t].effects)} for t in pl.favor_tiles],
        "extra_die": effects.has_extra_die(cat, pl),
        "crown_tokens": list(pl.crown_tokens),
        "monasteries": [{"id": m, "name": cat.monasteries[m].name, "space": spaces.get(m)} for m in pl.monasteries],
        "voyages": [{"id": v, "name": cat.voyages[v].name, "space": state.voyages.index(v) + 1 if v in state.voyages else None}
                    for v in pl.voyages],
        "shutter": [{"die": d, "color": cat.die_colors[d], "value": values.get(d), "used": used is not None and d in used}
                    for d in pl.shutter],
    }


def _player(state: GameState, i: int, pl: PlayerState, flag: int | None, score: PlayerScore | None) -> dict[str, Any]:
    end_game = {} if score is None else {"points": score.total, "points_during_play": pl.points,
                                         "end_game": {k: v for k, v in score.sources().items() if k != "during play"},
                                         "place": score.place}
    return {
        "name": pl.name,
        "color": pl.color,
        "flag": flag,
        "coins": pl.coins,
        "guards": pl.guards,
        "points": pl.points,
        "influence": dict(zip(TRACKS, pl.influence)),
        "pilgrim": pl.pilgrim,
        "start_cards": list(pl.start_cards),
        "cards": list(pl.cards),
        "monasteries": list(pl.monasteries),
        "voyages": list(pl.voyages),
        "dice_on_shutter": list(pl.shutter),
        "favor_tiles": list(pl.favor_tiles),
        "crown_tokens": list(pl.crown_tokens),
        "crowns_collected": pl.crowns_total,
        "income_left": list(pl.income_left),
        "discs_in_supply": state.catalog.discs_in_supply - len(pl.monasteries) - len(pl.voyages),
        "holdings": _holdings(state, i, pl),
        **end_game,
    }


def board_view(state: GameState) -> dict[str, Any]:
    """Everything on the table, as JSON-able data, in the game's own words."""
    cat = state.catalog
    flags = {i: k + 1 for k, i in enumerate(state.order)}
    scores = {s.name: s for s in final_scores(state)} if state.over else {}
    marked: dict[str, list[str]] = {}
    for pl in state.players:
        for m in pl.monasteries:
            marked.setdefault(m, []).append(pl.name)
    return {
        "round": state.round,
        "phase": state.phase,
        "phase_name": PHASE_NAMES[state.phase],
        "pending": _pending(state),
        "player_order": [state.players[i].name for i in state.order],
        "dice_area": _dice_area(state),
        "locations": _locations(state),
        "character_rows": {city: [_card(state, c) for c in row] for city, row in zip(CITIES, state.rows)},
        "favor_tiles": [{"id": t, "name": cat.favor_tiles[t].name, "crowns": cat.favor_tiles[t].crowns} for t in state.favor_available],
        "scoring_tiles": dict(zip(TRACKS, state.scoring_tiles)),
        "voyages": [
            {"space": k + 1, "id": v, "name": cat.voyages[v].name, "resource": cat.voyage_spaces[k].resource,
             "cost": cat.voyage_spaces[k].cost, "investors": list(state.voyage_discs[k])}
            for k, v in enumerate(state.voyages)
        ],
        "monasteries": [
            {"space": space, "id": m, "name": cat.monasteries[m].name, "marked_by": marked.get(m, [])}
            for space, m in state.monasteries
        ],
        "start_groups": [
            {"group": k + 1, "cards": list(g), "taken_by": state.start_groups_taken[k] or None}
            for k, g in enumerate(state.start_groups)
        ],
        "deck": deck_size(cat, state.dealt),
        "discard": len(state.discard),
        "players": [_player(state, i, pl, flags.get(i), scores.get(pl.name)) for i, pl in enumerate(state.players)],
        "legend": _legend(state),
    }


def _legend(state: GameState) -> dict[str, Any]:
    """Catalog facts that name the bare ids of the view (tiles held, scoring tiles, start cards).

    Not a thing on the table: a lookup, so a view renders without the
    catalog. It only depends on the catalog, the player count and the start
    groups dealt, which is why ``projections.diff`` leaves it out.
    """
    cat, players = state.catalog, len(state.players)
    return {
        "favor_tiles": {t.id: {"name": t.name, "crowns": t.crowns} for t in cat.favor_tiles.values()},
        "scoring_tiles": {t.id: {"name": t.name, "points": list(cat.scoring_points(t.id, players))} for t in cat.scoring_tiles.values()},
        "cards": {c: cat.characters[c].name for group in state.start_groups for c in group},
        "spaces": {s.id: s.name for s in cat.map.spaces.values() if s.name},
    }
