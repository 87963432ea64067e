"""The move list: a game as text that a person reads and a program reads back, as PGN is for chess.

A move list is a second spelling of the JSON log (``coimbra_events.log``), not
a second model: the writer spells out the log's canonical document, and the
reader rebuilds that document and hands it to the JSON reader, so both formats
hold the same facts and pass the same checks. Reading a move list back gives
the record it was written from, byte for byte once exported as JSON.

Tags come first (``[Name value]``, JSON values; every header field of the log,
``Date``, ``Result`` and ``Head``), then round and phase headings and the
entries: ``SEQ. `` and a line of notation holding one entry, or several of one
player's turn (``coimbra_events.lines``). ``Head`` is the hash of the last entry:
a list changed after it was written no longer reads. A list written by hand may
leave out the head, the numbers, and the tags this program can fill in; names
read as ids do. Its record is then taken as written (``Listing.checked``).
Components are written by their printed names (``names.SpokenNames``), ids only
where a name would not read back.

A damaged move list gets one problem per thing wrong, each naming its line (and
the entry), in a ``LogError`` like a damaged JSON log. Documented in
``docs/move-list.md``.
"""

from coimbra_events.movelist.reading import (DECORATIONS, HEAD, IN_PROGRESS, TAKEN_AS_WRITTEN, UNKNOWN_DATE, Listing, loads,
                                             looks_like, read_any, read_listing)
from coimbra_events.movelist.writing import dumps

__all__ = ["DECORATIONS", "HEAD", "IN_PROGRESS", "TAKEN_AS_WRITTEN", "UNKNOWN_DATE", "Listing", "dumps", "loads", "looks_like",
           "read_any", "read_listing"]
