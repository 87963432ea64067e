"""The store's tournaments: each read, folded from its own event classes, and saved against the version read.

The ``Tournament`` aggregate and the store's ``TournamentList`` are the domain's (``coimbra_events.tournament.record``);
reading and saving them are the store's. A new tournament is saved with its entry in the list in one
transaction: of two organisers naming one tournament at once, the second is told the name is taken. A round
is saved against the version read: of two ``next`` at once, the second is told another seated it first.
"""

from __future__ import annotations

from eventsourcing.application import AggregateNotFoundError, Application
from eventsourcing.persistence import RecordConflictError

from coimbra_events.store.errors import StoreConflict
from coimbra_events.store.folding import Folding
from coimbra_events.tournament.field import BadField
from coimbra_events.tournament.record import Tournament, TournamentList

ATTEMPTS = 5

fold_tournament = Folding(Tournament, (Tournament.Created, Tournament.Seated))
"""A tournament's fold: its own event classes only (``Folding``), as the store reads every aggregate."""
fold_tournament_list = Folding(TournamentList, (TournamentList.Created, TournamentList.Entered))


class UnknownTournament(KeyError):
    """No tournament of this name is recorded in the store."""

    def __str__(self) -> str:
        return f"no tournament named {self.args[0]!r} in the store (coimbra tournament list names them)"


def tournament_of(store: Application, name: str) -> Tournament:
    """The tournament ``name`` as recorded; ``UnknownTournament`` if there is none."""
    try:
        return store.repository.get(Tournament.create_id(name), projector_func=fold_tournament)
    except AggregateNotFoundError:
        raise UnknownTournament(name) from None


def tournament_names(store: Application) -> list[str]:
    """Every tournament's name, in the order they were begun."""
    try:
        return list(store.repository.get(TournamentList.create_id(), projector_func=fold_tournament_list).names)
    except AggregateNotFoundError:
        return []


def save_new(store: Application, tournament: Tournament) -> None:
    """Save a new tournament and its name in the store's list, in one transaction; ``BadField`` if the name is
    taken (by now, if another saved it first)."""
    for _ in range(ATTEMPTS):
        if tournament.name in tournament_names(store):
            raise BadField(f"a tournament named {tournament.name!r} is recorded already (coimbra tournament standings "
                           f"{tournament.name})")
        try:
            listed = store.repository.get(TournamentList.create_id(), projector_func=fold_tournament_list)
        except AggregateNotFoundError:
            listed = TournamentList.open()
        listed.enter(tournament.name)
        try:
            store.save(listed, tournament)
        except RecordConflictError:
            continue
        return
    raise StoreConflict("the store's list of tournaments kept changing while saving; nothing was stored, try again")


def save_round(store: Application, tournament: Tournament) -> None:
    """Save a round seated on ``tournament`` as read; ``StoreConflict`` if another seated a round since."""
    try:
        store.save(tournament)
    except RecordConflictError:
        raise StoreConflict(f"another seated a round of {tournament.name} meanwhile; nothing was stored "
                            f"(coimbra tournament standings {tournament.name} shows it)") from None
