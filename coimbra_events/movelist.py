"""The move list: a game as text that a person reads and a program reads back, as PGN is for chess.

A move list is a second spelling of the JSON log (``coimbra_events.log``), not
a second model: the writer spells out the log's canonical document, and the
reader rebuilds that document and hands it to the JSON reader, so both formats
hold the same facts and pass the same checks. Reading a move list back gives
the record it was written from, byte for byte once exported as JSON::

    [Format "coimbra-log"]
    [Schema 2]
    [Ruleset "coimbra-rules-texts-000-002-003+gaps-1"]
    [Catalog {"id":"standin-1","sha256":"b336…"}]
    [Players "Ana (red), Bruno (blue)"]
    [Date "????-??-??"]
    [Result "1. Bruno 61, 2. Ana 55"]
    [Head "9f0c…"]

    == Setup ==
    1. table: monasteries blue-e1=m-I-06 …
    == Round 1 ==
    -- A: rolling dice --
    14. table: roll gray-1=3 gray-2=5 …
    31. {Ana: note 14 the dice were re-rolled}

- Tags come first, one per line, ``[Name value]`` with a JSON value (strings in
  double quotes, as PGN writes them). Every header field of the log is a tag
  named after it (``ruleset`` is ``Ruleset``); ``Players`` is written
  ``"Name (colour), …"`` when the names allow it.
- ``Head`` is the hash of the last entry (of the header when there is none). The
  reader chains the entries it reads and refuses a list whose head differs, so a
  move list changed after it was written is found, as a changed JSON log is.
- ``Date`` and ``Result``, and the round and phase headings (lines starting
  ``==`` or ``--``), are for people: the writer derives them from the record (the
  caller passes them in) and the reader checks only their form.
- One line per entry, ``SEQ. `` then the entry in notation (``coimbra_events.notation``);
  notes and bookmarks are written in braces, as PGN writes comments. Any field
  an entry carries beyond its type, actor and payload follows in a PGN command
  comment: ``{[%at "2026-11-01T20:15:00Z"] [%by "Ana"]}``. An entry the notation
  cannot spell (a value holding a separator) is written as its JSON object:
  ``SEQ. = {"type": …, "actor": …, "payload": …}``.

A damaged move list gets one problem per thing wrong, each naming its line (and
the entry), in a ``LogError`` like a damaged JSON log. Documented in
``docs/move-list.md``.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any, Mapping, Sequence

import orjson

from coimbra_events import log as game_log, log_reader
from coimbra_events.catalog import Catalog, CatalogError, resolve_catalog
from coimbra_events.events import Bookmarked, GameEvent, MonasteriesDrawn, Noted
from coimbra_events.log import GameLog, LogError, LogProblem, entry_hash
from coimbra_events.names import Names
from coimbra_events.notation import NotationError, parse, render

HEAD = "Head"
DECORATIONS = ("Date", "Result")
"""Tags the writer derives from the record for people; read for their form only."""

UNKNOWN_DATE = "????-??-??"
"""The date of a record that does not say when it was played (PGN's ``????.??.??``)."""

IN_PROGRESS = "*"
"""The result of a game that is not over (as PGN writes it)."""

CORE_FIELDS = ("seq", "type", "actor", "payload", "hash")
"""The fields of an entry that its line spells; any other field is written as a ``[%key value]`` command."""

_COMMENTED = (Noted, Bookmarked)
_TAG = re.compile(r"\[([A-Za-z][A-Za-z0-9_]*) (.*)\]")
_ENTRY = re.compile(r"(\d+)\. (.*)")
_COMMANDS_START = " {[%"
_COMMAND = re.compile(r"\[%([A-Za-z_][A-Za-z0-9_]*) ")
_PLAYER = re.compile(r"(.+) \(([^\s()]+)\)")


class _BadLine(Exception):
    """A line that does not read: what and why (its ``LogProblem`` adds the place)."""

    def __init__(self, what: str, why: str) -> None:
        super().__init__(what, why)
        self.what, self.why = what, why


# --- writing ---------------------------------------------------------------------------------


def dumps(log: GameLog, headings: Mapping[int, Sequence[str]] | None = None, result: str = IN_PROGRESS,
          catalog: Catalog | None = None) -> str:
    """The move list of a log.

    ``headings`` are the lines written before an entry, by its sequence number
    (``projections.sections.headings`` makes the round and phase headings);
    ``result`` the ``Result`` tag (``projections.scores.result_line``). Components
    are written by name (``SpokenNames``) from the log's ``catalog`` (else the
    shipped or installed one the log names), ids only where a name would not read
    back, or where the catalog is not to be found.
    """
    names = _spoken({"Catalog": (0, {"id": log.catalog_id, "sha256": log.catalog_sha256})}) if catalog is None \
        else SpokenNames(catalog)
    doc = orjson.loads(game_log.dumps(log))
    entries: list[dict[str, Any]] = doc.pop("events")
    lines = [_tag(_tag_name(key), _header_value(key, value)) for key, value in doc.items()]
    lines.append(_tag("Date", _date(entries)))
    lines.append(_tag("Result", result))
    lines.append(_tag(HEAD, entries[-1]["hash"] if entries else log.anchor()))
    for entry, event in zip(entries, log.events):
        for heading in (headings or {}).get(entry["seq"], ()):
            lines += ["", heading] if heading.startswith("==") else [heading]
        lines.append(_entry_line(entry, event, names))
        if names is not None:
            names.saw(entry)
    return "\n".join(lines) + "\n"


class SpokenNames:
    """The names a move list writes and reads components by, as the entries so far set them: the
    catalog's names, and a monastery space by the monastery drawn onto it (players as written)."""

    def __init__(self, catalog: Catalog) -> None:
        self.catalog = catalog
        self.names = Names(catalog, None)

    def saw(self, entry: Mapping[str, Any]) -> None:
        """Take in an entry written or read: a monastery draw names the map's monastery spaces from here on."""
        if entry.get("type") == MonasteriesDrawn.TYPE and isinstance(entry.get("payload"), dict):
            placement = entry["payload"].get("placement")
            if isinstance(placement, dict):
                self.names = Names(self.catalog, None, {str(k): str(v) for k, v in placement.items()})


def _date(entries: Sequence[Mapping[str, Any]]) -> str:
    """The day of the first entry that says when it was entered (its ``at``), else unknown."""
    return next((e["at"][:10] for e in entries if type(e.get("at")) is str), UNKNOWN_DATE)


def _tag(name: str, value: Any) -> str:
    return f"[{name} {orjson.dumps(value).decode()}]"


def _tag_name(key: str) -> str:
    return key[:1].upper() + key[1:]


def _header_value(key: str, value: Any) -> Any:
    """``Players`` as ``"Ana (red), Bruno (blue)"`` when that reads back to the same players."""
    if key != "players":
        return value
    text = ", ".join(f"{p['name']} ({p['color']})" for p in value)
    return text if _players(text) == value else value


def _players(text: str) -> list[dict[str, str]] | None:
    """``"Ana (red), Bruno (blue)"`` as the log's player objects; ``None`` if it is not that form."""
    out = []
    for item in text.split(", "):
        match = _PLAYER.fullmatch(item)
        if match is None:
            return None
        out.append({"name": match.group(1), "color": match.group(2)})
    return out


def _entry_line(entry: dict[str, Any], event: GameEvent, spoken: SpokenNames | None = None) -> str:
    """``SEQ. notation``, components by name where ``spoken`` gives names that read back (else by id), braced
    for notes and bookmarks, with any other field as a command; the entry's JSON object where the notation
    cannot spell it so that it reads back."""
    extra = {k: v for k, v in entry.items() if k not in CORE_FIELDS}
    for names in ((spoken.names, None) if spoken is not None else (None,)):
        try:
            body = render(event, names)
            if type(event) in _COMMENTED:
                body = "{" + body + "}"
            if extra:
                body += " {" + " ".join(f"[%{k} {orjson.dumps(v).decode()}]" for k, v in extra.items()) + "}"
            if _read_body(body, entry["seq"], names) == {k: v for k, v in entry.items() if k != "hash"}:
                return f"{entry['seq']}. {body}"
        except (NotationError, _BadLine):
            pass  # a value the notation cannot spell, or a line that would read as something else
    return f"{entry['seq']}. = {orjson.dumps({k: v for k, v in entry.items() if k not in ('seq', 'hash')}).decode()}"


# --- reading ---------------------------------------------------------------------------------


def looks_like(data: bytes | str) -> bool:
    """Whether a file's content is a move list (it opens with a tag) rather than a JSON log."""
    head = (data[:200].decode("utf-8", "replace") if isinstance(data, bytes) else data[:200]).lstrip("\ufeff \t\r\n")
    return bool(re.match(r"\[[A-Za-z]", head))


def read_record(path: str | Path, keep: int | None = log_reader.KEPT) -> GameLog:
    """Read a record file, a move list or a JSON log (told apart by how it begins); ``LogError`` if it does
    not read (keeping the first ``keep`` problems of a JSON log, every one with ``None``)."""
    data = log_reader.read_bytes(path)
    return loads(data, str(path)) if looks_like(data) else log_reader.loads(data, str(path), keep)


def loads(data: bytes | str, source: str = "<move list>") -> GameLog:
    """Read a move list back into the log it was written from; ``LogError`` naming each bad line."""
    if len(data) > log_reader.MAX_BYTES:
        raise LogError(source, [LogProblem(None, "too large", f"more than {log_reader.MAX_BYTES:,} bytes")])
    if isinstance(data, bytes):
        try:
            data = data.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise LogError(source, [LogProblem(0, "not UTF-8 text", str(exc))]) from None
    reader = _Reader()
    problems: list[tuple[int, LogProblem]] = []
    for number, line in enumerate(data.lstrip("\ufeff").split("\n"), 1):
        line = line.rstrip("\r \t")
        try:
            reader.line(number, line)
        except _BadLine as bad:
            problems.append((number, LogProblem(reader.seq_at(line), f"line {number}: {bad.what}", bad.why)))
    header = _header(reader.tags, problems)
    if problems:
        raise LogError(source, [p for _, p in sorted(problems, key=lambda found: found[0])])
    return _chained(header, reader, source)


class _Reader:
    """What the lines read so far hold: the tags (with their line numbers) and the entries."""

    def __init__(self) -> None:
        self.tags: dict[str, tuple[int, Any]] = {}
        self.entries: list[dict[str, Any]] = []
        self.lines: dict[int, int] = {}  # entry seq -> its line number
        self.last = 0  # the number the last entry line was written with
        self.spoken: SpokenNames | None = None  # the names entries are read with, from the header's catalog and players

    def names(self) -> Names | None:
        """The names of the header's catalog and players (``None`` where the header names no catalog found)."""
        if self.spoken is None and not self.entries:
            self.spoken = _spoken(self.tags)
        return None if self.spoken is None else self.spoken.names

    def seq_at(self, line: str) -> int:
        """The entry a bad line stands for: the number it is written with, else the next (0, the header, before any)."""
        match = _ENTRY.fullmatch(line)
        return int(match.group(1)) if match else self.last + 1 if self.last else 0

    def line(self, number: int, line: str) -> None:
        """Read one line into the tags or the entries; ``_BadLine`` if it is none of the kinds."""
        if not line or line.startswith(("==", "--")):
            return  # blank, or a heading: for people
        if line.startswith("["):
            self.tag(number, line)
            return
        match = _ENTRY.fullmatch(line)
        if match is None:
            raise _BadLine("not a move list line", f"expected a tag '[Name value]', an entry 'N. …', a heading "
                           f"('== …' or '-- …') or a blank line, got {_shown(line)}")
        found, expected = int(match.group(1)), self.last + 1
        self.last = found
        if found != expected:  # one gap, one problem: go on from the number found
            raise _BadLine("sequence broken", f"expected entry {expected}, found {found} (entries count from 1 without gaps)")
        seq = len(self.entries) + 1
        entry = _read_body(match.group(2), seq, self.names())
        self.entries.append(entry)
        self.lines[seq] = number
        if self.spoken is not None:
            self.spoken.saw(entry)

    def tag(self, number: int, line: str) -> None:
        name, value = _read_tag(line)
        if self.entries:
            raise _BadLine(f"tag {name}", "tags belong in the header, before the first entry")
        if name in self.tags:
            raise _BadLine(f"tag {name}", f"given twice (first on line {self.tags[name][0]})")
        self.tags[name] = (number, value)


def _spoken(tags: Mapping[str, tuple[int, Any]]) -> SpokenNames | None:
    """The names of the catalog the tags name; ``None`` if they name no catalog to be found (the entries
    are then read by id, and the log's reader says what is wrong with the header)."""
    catalog = tags.get("Catalog", (0, None))[1]
    if type(catalog) is not dict or type(catalog.get("id")) is not str or type(catalog.get("sha256")) is not str:
        return None
    try:
        return SpokenNames(resolve_catalog(catalog["id"], catalog["sha256"], None))
    except CatalogError:
        return None


def _read_tag(line: str) -> tuple[str, Any]:
    match = _TAG.fullmatch(line)
    if match is None:
        raise _BadLine("bad tag", f"expected '[Name value]' (e.g. [Ruleset \"…\"]), got {_shown(line)}")
    try:
        return match.group(1), _json(match.group(2))
    except ValueError as exc:
        raise _BadLine(f"tag {match.group(1)}", f"the value is not JSON (strings in double quotes): {exc}") from None


def _read_body(body: str, seq: int, names: Names | None = None) -> dict[str, Any]:
    """The entry object a line spells after its ``SEQ. ``, without its hash; components by name, id or
    the start of either with ``names``."""
    if body.startswith("= "):
        return _json_entry(body[2:], seq)
    extra: dict[str, Any] = {}
    cut = body.rfind(_COMMANDS_START)
    if cut >= 0 and body.endswith("]}"):
        extra = _commands(body[cut + 2:-1])
        body = body[:cut]
    if body.startswith("{"):
        if not body.endswith("}"):
            raise _BadLine("unclosed comment", "a note or bookmark in braces ends with '}'")
        body = body[1:-1]
        commented = True
    else:
        commented = False
    try:
        event = parse(body, names=names)
    except NotationError as exc:
        raise _BadLine("bad notation", str(exc)) from None
    if commented != (type(event) in _COMMENTED):
        why = "notes and bookmarks are written in braces" if not commented else "only notes and bookmarks are written in braces"
        raise _BadLine(f"{event.TYPE} entry", why)
    return {"seq": seq, "type": event.TYPE, "actor": event.actor, "payload": event.payload(), **extra}


def _json_entry(text: str, seq: int) -> dict[str, Any]:
    try:
        entry = _json(text)
    except ValueError as exc:
        raise _BadLine("bad entry object", f"after '= ' comes the entry as JSON: {exc}") from None
    if type(entry) is not dict or "seq" in entry or "hash" in entry:
        raise _BadLine("bad entry object", "expected a JSON object with type, actor and payload (no seq or hash)")
    return {"seq": seq, **entry}


def _commands(text: str) -> dict[str, Any]:
    """``[%at "…"] [%by "Ana"]`` as fields; each value is JSON."""
    out: dict[str, Any] = {}
    rest = text
    decoder_error = "expected '[%name value]' commands with JSON values, e.g. [%at \"2026-11-01T20:15:00Z\"]"
    while rest:
        match = _COMMAND.match(rest)
        if match is None:
            raise _BadLine("bad entry fields", decoder_error)
        name, rest = match.group(1), rest[match.end():]
        value, rest = _json_prefix(rest, decoder_error)
        if not rest.startswith("]"):
            raise _BadLine("bad entry fields", decoder_error)
        if name in out or name in CORE_FIELDS:
            raise _BadLine("bad entry fields", f"field {name!r} given twice (the line itself gives seq, type, actor and payload)")
        out[name] = value
        rest = rest[1:].lstrip(" ")
    return out


def _json_prefix(text: str, why: str) -> tuple[Any, str]:
    """The JSON value at the start of ``text``, and the rest (read once, however many ``]`` follow)."""
    try:
        value, end = _json_at(text)
    except ValueError:
        raise _BadLine("bad entry fields", why) from None
    return value, text[end:]


def _no_key_twice(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    obj = dict(pairs)
    if len(obj) != len(pairs):
        keys = [k for k, _ in pairs]
        raise ValueError(f"key {next(k for k in keys if keys.count(k) > 1)!r} given twice in one object")
    return obj


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON number")


_DECODER = json.JSONDecoder(object_pairs_hook=_no_key_twice, parse_constant=_no_constant)


def _json_at(text: str) -> tuple[Any, int]:
    """The strict JSON value at the start of ``text`` (no key twice, no NaN) and where it ends;
    ``ValueError`` if there is none, or if it nests too deeply to read."""
    try:
        return _DECODER.raw_decode(text)
    except RecursionError:
        raise ValueError(f"nested more than {log_reader.MAX_DEPTH} levels") from None


def _json(text: str) -> Any:
    """``text`` as one strict JSON value (``_json_at``), nothing after it."""
    value, end = _json_at(text)
    if text[end:].strip():
        raise ValueError(f"unexpected {_shown(text[end:])} after the value")
    return value


def _header(tags: Mapping[str, tuple[int, Any]], problems: list[tuple[int, LogProblem]]) -> dict[str, Any]:
    """The log header the tags spell (decorations left out); a problem for a missing head or bad players."""
    header: dict[str, Any] = {}
    for name, (number, value) in tags.items():
        if name == HEAD or name in DECORATIONS:
            if type(value) is not str:
                problems.append((number, LogProblem(0, f"line {number}: tag {name}", "expected a string")))
            continue
        key = name[:1].lower() + name[1:]
        if key == "players" and type(value) is str:
            players = _players(value)
            if players is None:
                problems.append((number, LogProblem(0, f"line {number}: tag Players",
                                                    "expected \"Name (colour), Name (colour), …\" or the log's JSON list")))
            value = players
        header[key] = value
    if HEAD not in tags:
        problems.append((0, LogProblem(0, "no Head tag", "a move list names the hash of its last entry: [Head \"…\"]")))
    return header


def _chained(header: dict[str, Any], reader: _Reader, source: str) -> GameLog:
    """Chain the entries, read the document as a JSON log (every check of ``log_reader.loads``), and check the head."""
    prev = _json_log(header, [], reader, source).anchor()  # the anchor, as log_reader.loads makes it
    for entry in reader.entries:
        try:
            entry["hash"] = prev = entry_hash(prev, entry)
        except TypeError:  # nested deeper than can be written: ``log_reader.loads`` names it
            entry["hash"] = prev = ""
    log = _json_log(header, reader.entries, reader, source)
    head_line, head = reader.tags[HEAD]
    if head != prev:
        raise LogError(source, [LogProblem(len(reader.entries), f"line {head_line}: head hash does not match",
                                           f"the entries hash to {prev[:16]}…, the list says {str(head)[:16]}…: "
                                           "changed, inserted or removed after it was written")])
    return log


def _json_log(header: dict[str, Any], entries: list[dict[str, Any]], reader: _Reader, source: str) -> GameLog:
    """``log_reader.loads`` of the document; its problems placed on the lines they come from."""
    try:
        return log_reader.check_document({**header, "events": entries}, source)
    except LogError as exc:
        raise LogError(source, [_placed(p, reader) for p in exc.problems], exc.count) from None


def _placed(problem: LogProblem, reader: _Reader) -> LogProblem:
    """An entry's problem on its line; a header problem on the line of the tag it names (else the first tag's)."""
    if problem.seq and problem.seq in reader.lines:
        number = reader.lines[problem.seq]
    else:
        text = f"{problem.what} {problem.why}".lower()
        named = [n for name, (n, _) in reader.tags.items() if name.lower() in text]
        number = named[0] if named else min((n for n, _ in reader.tags.values()), default=1)
    return LogProblem(problem.seq, f"line {number}: {problem.what}", problem.why)


def _shown(line: str) -> str:
    return repr(line if len(line) <= 60 else line[:57] + "...")


__all__ = ["DECORATIONS", "HEAD", "IN_PROGRESS", "UNKNOWN_DATE", "dumps", "loads", "looks_like", "read_record"]
