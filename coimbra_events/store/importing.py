"""Importing a log: a record is stored once (``coimbra_events.store.records``).

The store's ``import_record``: a log whose record a stored game holds stores
nothing; one that extends a stored game appends its new entries to it; else a new
game is stored, and the record's claim for its header is appended to in the same
transaction, so two imports of one log at once store it once.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Sequence
from uuid import UUID

from eventsourcing.domain import Aggregate

from coimbra_events.catalog import Catalog
from coimbra_events.game import Game
from coimbra_events.log import GameLog
from coimbra_events.store.errors import AlreadyStored
from coimbra_events.store.records import Held, Imported, LeagueMark, RecordClaim, fold_claim, holding

if TYPE_CHECKING:
    from coimbra_events.store.game_store import GameStore


def import_record(store: GameStore, log: GameLog, name: str | None = None, catalog: Catalog | None = None,
                  source: str = "<log>", copy: bool = False) -> Imported:
    """Store a log's record once, after the rules accepted every event (one pass).

    A record already stored (the same header and entries, or held by a stored game
    with more) stores nothing (``how == "held"``); a log that extends a stored game
    appends its new entries to it (``appended``); else a new game is stored in one
    transaction (``stored``). ``copy`` stores a new game whatever is stored, marked a
    copy the league never counts. Imports of logs with one header are serialized by
    the record's claim: of two at once, the second is made again and finds the first.
    Raises ``LogError`` (catalog, players or ruleset), ``IllegalLog`` (a rule is
    broken; nothing is stored) or ``BadGameName``.
    """
    chain, anchor = log.hashes(), log.anchor()

    def build() -> tuple[Game, list[Aggregate], Imported]:
        claim = fold_claim(None, store.events.get(RecordClaim.create_id(anchor)))
        held = _held(store, chain, anchor, [] if claim is None else claim.games)
        if held is not None and not copy:
            if held.same or held.stored > held.given:
                raise AlreadyStored(held)
            stored = store.get(held.name)
            added = stored.append_log(log, catalog, source)
            return stored, [], Imported(stored, "appended", added, held)
        chosen = store.claims.name_for(name, log.players)
        game = Game.from_log(chosen, log, catalog, source)
        if claim is None:
            claim = RecordClaim.first(anchor, game.id)
        else:
            claim.join(game.id)
        marks = [LeagueMark.made(game.id, copy_of=held.name if held else "", counted=False)] if copy else []
        return game, [*store.claims.claim(chosen, game.id), claim, *marks], \
            Imported(game, "copy" if copy else "stored", game.entries, held)

    try:
        return store.stored_games.commit(build, snapshot=False)[1]
    except AlreadyStored as found:
        return Imported(None, "held", 0, found.held)


def _held(store: GameStore, chain: Sequence[str], anchor: str, claimed: Sequence[UUID]) -> Held | None:
    """The stored game that holds the record ``chain`` (from ``anchor``), or the longest one the record extends.

    The games index names the games of this header, the claim those imported since it
    was caught up; each candidate is read, so only its stored entries decide.
    """
    store.games_index_caught_up()
    head = chain[-1] if chain else anchor
    rows = {r["game_id"]: r for r in store.index.view.holding(anchor)}
    heads = {anchor, *chain}
    candidates = [r["name"] for r in rows.values() if r["entries"] > len(chain) or r["head"] in heads]
    candidates += [store.stored_games.read_any(g, None).name for g in claimed if str(g) not in rows]
    stored: list[tuple[str, int, str]] = []
    for name in dict.fromkeys(candidates):
        game = store.get(name, any_ruleset=True)
        if game.entries >= len(chain) and (game.hashes[len(chain) - 1] if chain else anchor) == head:
            return Held(game.name, game.entries, len(chain))
        stored.append((game.name, game.entries, game.head))
    found = holding(chain, anchor, stored)
    return None if found is None else Held(found[0], found[1], len(chain))
