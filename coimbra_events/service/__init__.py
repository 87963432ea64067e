"""The application: ``Games``, the one door every front-end holds, and the values its use cases answer.

A front-end (the CLI, the live table's pages) holds one ``Games`` and calls its
use cases; it never opens the store itself. Whatever records answers a value
(``results``): the entries ``Stored``, with the game and its new head; or the
input ``Refused`` with its rule violation; or a ``Conflict`` naming the head the
record moved to. A front-end that keeps a game between calls holds a ``Session``; a write from a
phone at the table names its ``Phone`` (``seats``: the seats it holds), and one for another seat is ``NotYours``.
"""

from coimbra_events.service.application import Games, Input
from coimbra_events.service.results import Conflict, Entry, Exported, Legal, NotYours, Outcome, Refused, Stored
from coimbra_events.service.seats import Claimed, NoSeat, Phone, Seats, Taken
from coimbra_events.service.sessions import GameRef, Session
from coimbra_events.service.views import Views

__all__ = ["Claimed", "Conflict", "Entry", "Exported", "GameRef", "Games", "Input", "Legal", "NoSeat", "NotYours",
           "Outcome", "Phone", "Refused", "Seats", "Session", "Stored", "Taken", "Views"]
