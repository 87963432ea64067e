"""The league's reader of the notification log gives exactly the library's ``select_notifications``."""

from __future__ import annotations

from projections.league.log_rows import _library, reader
from tests.store.league.games import import_all, simulated


def test_the_fast_reader_reads_what_the_library_reads(club):
    import_all(club, [("a", simulated(("Ana", "Bruno"), 1)), ("b", simulated(("Ana", "Carla", "Eva"), 2))])
    fast, library = reader(club.recorder), _library(club.recorder)
    assert fast is not library
    last = club.recorder.max_notification_id()
    for after, limit, stop in [(0, 10_000, None), (0, 7, None), (5, 100, 50), (last - 3, 10, None), (last, 10, None)]:
        got = fast(after, limit, stop)
        want = library(after, limit, stop)
        # originator ids as text: the library's UUID, the table's own spelling of it
        assert [(i, v, t, s) for i, _, v, t, s in got] == [(i, v, t, s) for i, _, v, t, s in want]
        assert [o.replace("-", "") for _, o, *_ in got] == [o.replace("-", "") for _, o, *_ in want]
