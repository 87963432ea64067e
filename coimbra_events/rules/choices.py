"""Rewards 'on a track of your choice': the player names the track."""

from __future__ import annotations

from coimbra_events.catalog.effect_kinds import TRACKS
from coimbra_events.events import TrackChosen
from coimbra_events.rules.options import Options
from coimbra_events.rules.tx import Tx
from coimbra_events.state import GameState, Pending
from coimbra_events.violations import RuleViolation, Seen, held


def check_track(state: GameState, e: TrackChosen, seen: Seen | None = None) -> RuleViolation | None:
    if (broken := e.track not in TRACKS) or seen is not None:
        facts = {"track": e.track, "tracks": TRACKS}
        if broken:
            return RuleViolation("CHOICE.track", f"{e.track!r} is not an influence track", facts)
        held(seen, "CHOICE.track", facts)
    return None


def apply_track(tx: Tx, e: TrackChosen) -> None:
    choice = tx.pop()
    if tx.narrating:
        tx.because("CHOICE.track", ("track", e.track, "amount", choice.amount, "from", choice.source))
    tx.advance(tx.index(e.actor), e.track, choice.amount, choice.source)


def legal_track(state: GameState, pending: Pending) -> Options:
    return Options([TrackChosen(pending.actor, t) for t in TRACKS])
