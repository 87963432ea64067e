"""The application: ``Games``, the one door every front-end holds, and the values its use cases answer.

A front-end (the CLI, the live table's pages) holds one ``Games`` and calls its
use cases; it never opens the store itself. Whatever records answers a value
(``results``): the entries ``Stored``, with the game and its new head; or the
input ``Refused`` with its rule violation; or a ``Conflict`` naming the head the
record moved to. A front-end that keeps a game between calls holds a ``Session``.
"""

from coimbra_events.service.application import Games, Input
from coimbra_events.service.results import Conflict, Entry, Exported, Legal, Outcome, Refused, Stored
from coimbra_events.service.sessions import GameRef, Session
from coimbra_events.service.views import Views

__all__ = ["Conflict", "Entry", "Exported", "GameRef", "Games", "Input", "Legal", "Outcome", "Refused", "Session",
           "Stored", "Views"]
