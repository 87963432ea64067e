"""A restarted table keeps its links: the phones' tokens are the game's (kept beside the store), until ``--new-links``."""

from __future__ import annotations

import stat
from typing import Callable

from cli.live.access import FREE_FAILURES, REPLACED, WRONG_TOKEN
from tests.live.conftest import Served


def restarted(served: Served, serve: Callable[..., Served], *args: str) -> Served:
    """Stop ``served`` (Ctrl-C) and serve its game again."""
    assert served.stop() == 0, served.log()
    return serve(served.game, *args)


def test_a_restart_keeps_the_links_and_new_links_replace_them(fixture_game: Callable[..., Served], serve) -> None:
    first = fixture_game(8, "restarted")
    again = restarted(first, serve)
    assert (again.players, again.watchers) == (first.players, first.watchers)
    assert again.client(first.players).get(again.api()).status_code == 200
    renewed = restarted(again, serve, "--new-links")
    assert {renewed.players, renewed.watchers}.isdisjoint({first.players, first.watchers})
    for old in (first.players, first.watchers):
        for _ in range(FREE_FAILURES):  # a phone still holding the old link is told, never slowed as a guesser
            refused = renewed.client(old, source="127.0.0.7").get(renewed.api())
            assert refused.status_code == 401 and refused.json()["error"] == REPLACED
    wrong = renewed.client("x" * 43, source="127.0.0.7").get(renewed.api())
    assert wrong.status_code == 401 and wrong.json()["error"] == WRONG_TOKEN
    assert renewed.client(renewed.watchers).get(renewed.api()).status_code == 200
    kept = [p for p in serve.db.parent.glob("games.sqlite.links/*.json")]
    assert kept and stat.S_IMODE(kept[0].stat().st_mode) == 0o600
    assert stat.S_IMODE(kept[0].parent.stat().st_mode) == 0o700
    assert all(t not in renewed.log() + first.log() for t in (first.players, renewed.players))
