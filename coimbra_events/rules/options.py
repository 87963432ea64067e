"""The options of one decision, the long runs of one kind built only when asked for.

``core.legal`` lists every option as an event. A playout asks for some fifty decisions and takes
one option of each (the bots pick a kind, then one of that kind), so building all the others (all
but one of some eighteen placements of a die, most of a retrieval's alternative actions) was work
thrown away. A rule module gives its options as ``Options``: those it builds anyway, each kind's
together, and at most one long run of one more kind (``Run``) whose ``n``-th option is worked out
from ``n``. ``events`` builds them all, and is what ``legal`` returns: the options are written once,
by their rule.
"""

from __future__ import annotations

from typing import Final

from coimbra_events.events import GameEvent


class Run:
    """Options of one kind, in order: how many there are, and the ``n``-th of them built."""

    def __init__(self, kind: type, count: int) -> None:
        self.kind = kind
        self.count = count

    def nth(self, n: int) -> GameEvent:
        raise NotImplementedError


class Options:
    """Every option of one decision: ``built`` (each kind's together), then the options of ``run`` (a kind of its
    own), in the rules core's order."""

    def __init__(self, built: list[GameEvent], run: Run | None = None) -> None:
        self.built = built
        self.run = run if run is not None and run.count else None

    def events(self) -> list[GameEvent]:
        """Every option, built, in order (a list of the caller's own)."""
        run = self.run
        if run is None:
            return list(self.built)
        return self.built + [run.nth(n) for n in range(run.count)]


NONE: Final = Options([])
"""No option: the game is over."""
