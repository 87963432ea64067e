"""The move list (``coimbra_events.movelist``): written for people, read back to the very same record.

A move list is another spelling of the JSON log, so the checks are that spelling
and reading back give the canonical JSON export byte for byte (every fixture,
random games with notes, corrections, overrides and undos), that every damage is
refused with its line, and that an edit either leaves the record as it was or
is refused: the Head tag pins the record.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from coimbra_events import events as ev
from coimbra_events import log as game_log, log_reader
from coimbra_events import movelist
from coimbra_events.movelist import reading, writing
from coimbra_events.catalog import standin_catalog
from coimbra_events.controls import first_control
from coimbra_events.game import Game
from coimbra_events.log import LogError, entry_hash, event_hash
from coimbra_events.simulator import DEFAULT_PLAYERS, simulate
from coimbra_events.state import TABLE
from projections.scores import result_line, score_report
from projections.sections import headings
from projections.timeline import timeline
from tests.conftest import FIXTURES

CAT = standin_catalog()
GAMES = sorted((FIXTURES / "games").glob("*.json"))


def written(log: game_log.GameLog) -> str:
    """The move list as ``export --format text`` writes it: headings and result from one fold."""
    line = timeline(log)
    return movelist.dumps(log, headings(line), result_line(score_report(line.final)))


def problems(text: str) -> list[str]:
    with pytest.raises(LogError) as caught:
        movelist.loads(text, "game.txt")
    return [str(p) for p in caught.value.problems]


# --- reading back what was written ------------------------------------------------------------


@pytest.mark.parametrize("path", GAMES, ids=[p.stem for p in GAMES])
def test_every_fixture_reads_back_to_its_canonical_json_byte_for_byte(path: Path):
    log = log_reader.read(path)
    text = written(log)
    assert game_log.dumps(movelist.loads(text)) == game_log.dumps(log)  # schema 2, the fixture's own chain
    assert movelist.looks_like(text) and not movelist.looks_like(path.read_bytes())


def test_the_header_names_players_date_catalog_ruleset_result_and_head():
    log = log_reader.read(FIXTURES / "games" / "standin-4p-seed3.json")
    text = written(log)
    head = text.split("\n\n")[0].splitlines()
    assert head == [
        '[Format "coimbra-log"]',
        "[Schema 2]",
        f'[Ruleset "{log.ruleset}"]',
        f'[Catalog {{"id":"standin-1","sha256":"{log.catalog_sha256}"}}]',
        '[Players "Ana (red), Bruno (blue), Carla (yellow), Duarte (green)"]',
        '[Meta {"generator":"coimbra simulate","seed":3}]',
        "[Upcast_from 1]",
        '[Date "????-??-??"]',
        '[Result "1. Ana 84, 2. Duarte 60, 3. Carla 43, 4. Bruno 22"]',
        f'[Head "{log.hashes()[-1]}"]',
    ]


def test_entries_are_lines_in_notation_under_round_and_phase_headings():
    log = log_reader.read(FIXTURES / "games" / "standin-2p-seed1.json")
    lines = written(log).splitlines()
    assert lines[lines.index("== Setup ==") + 1].startswith("1. table: monasteries ")
    assert lines[lines.index("== Start choices ==") + 1] == "7. Ana: group 2"
    round_one = lines.index("== Round 1 ==")
    assert lines[round_one + 1: round_one + 3] == ["-- A: rolling dice --", "14. table: roll gray-1=4 gray-2=5 green-1=6 "
                                                   "orange-1=1 orange-2=4 purple-1=2 white-1=4"]
    assert lines.count("== Round 4 ==") == 1 and lines.count("-- F: voyages --") == 4
    assert lines[-1] == "130. Ana: pass"


def test_an_unfinished_game_has_the_result_in_progress():
    log = log_reader.read(FIXTURES / "games" / "standin-3p-seed2.json")
    short = log.with_events(log.events[:40])
    text = written(short)
    assert '[Result "* (in progress: round 1, phase E)"]' in text
    assert game_log.dumps(movelist.loads(text)) == game_log.dumps(short)


def test_an_empty_record_reads_back():
    log = game_log.GameLog.new(CAT, DEFAULT_PLAYERS[:2])
    assert game_log.dumps(movelist.loads(movelist.dumps(log))) == game_log.dumps(log)


def test_players_the_short_form_cannot_spell_are_written_as_the_logs_json():
    log = game_log.GameLog.new(CAT, [("Ana, the second", "red"), ("Bruno", "blue")])
    text = movelist.dumps(log)
    assert '[Players [{"name":"Ana, the second","color":"red"},{"name":"Bruno","color":"blue"}]]' in text
    assert movelist.loads(text).players == log.players


def eventful() -> Game:
    """The 2-player fixture game up to a retrieval, then every kind of history entry, with awkward texts."""
    log, _ = simulate(CAT, DEFAULT_PLAYERS[:2], 1)
    game = Game.from_log("g", log.with_events(log.events[:24]))
    game.correct(16, ev.DiePlaced("Ana", "white-1", "central"))
    game.note(16, "dice knocked over {re-rolled} ✓", bookmark=False)
    game.note(18, "the big castle turn", bookmark=True)
    game.accept(ev.AlternativeTaken("Ana", 3, 0), "we misread: 3 coins}")
    game.note(26, "a note\nover two lines")  # the notation cannot spell it: written as the entry's JSON
    game.note(26, "  spaced  ", by="Ana")
    game.undo()
    return game


def test_history_entries_read_back_notes_and_bookmarks_in_braces():
    game = eventful()
    text = movelist.dumps(game.to_log())
    assert "25. table: correct 16\n26. Ana: place white-1 central" in text
    assert "27. {table: note 16 dice knocked over {re-rolled} ✓}" in text
    assert "28. {table: bookmark 18 the big castle turn}" in text
    assert "29. table: override C.alternative we misread: 3 coins}" in text
    assert '31. = {"type":"Noted","actor":"table","payload":{"seq":26,"text":"a note\\nover two lines"}}' in text
    assert '32. = {"type":"Noted","actor":"Ana","payload":{"seq":26,"text":"  spaced  "}}' in text
    assert "33. table: retract 30" in text
    assert game_log.dumps(movelist.loads(text)) == game_log.dumps(game.to_log())


AWKWARD = ["x {[%a ]}", 'x {[%at "y"]}', "{", "}", "a}b", "ends with ]}", "= {}", "[Head \"x\"]", "\\", "tab\there"]
"""Note texts that look like the move list's own syntax."""


@pytest.mark.parametrize("text", AWKWARD)
def test_notes_that_look_like_move_list_syntax_read_back(text: str):
    game = Game.from_log("g", log_reader.read(GAMES[0]).with_events(log_reader.read(GAMES[0]).events[:20]))
    game.note(18, text)
    game.note(18, text, bookmark=True, by="Bruno")
    assert game_log.dumps(movelist.loads(movelist.dumps(game.to_log()))) == game_log.dumps(game.to_log())


CONTROLLED = ["\x1b[2J", "\x00", "\x7f", "\x85", "\x9b31m", "\u202etxt", "\u2066x\u2069"]
"""Characters a terminal obeys or that reorder what is read: C0, DEL, C1 (NEL, CSI), bidirectional overrides."""


@pytest.mark.parametrize("text", CONTROLLED, ids=repr)
def test_control_characters_a_record_holds_are_written_escaped_and_read_back(text: str):
    """A list is read in a terminal: a note or a name holding one (from an old log) is written as its entry's
    JSON, each of them escaped (``\\u001b``), and reads back to the very same record."""
    game = Game.from_log("g", log_reader.read(GAMES[0]).with_events(log_reader.read(GAMES[0]).events[:20]))
    game.note(18, f"a{text}b")
    game.note(18, "plain", bookmark=True, by=f"B{text}")
    listed = written(game.to_log())
    assert first_control(listed.replace("\n", "")) is None
    assert game_log.dumps(movelist.loads(listed)) == game_log.dumps(game.to_log())


def test_entry_fields_beyond_type_actor_payload_are_written_as_commands_and_read_back():
    """The seam for entries that carry more (when each entry says when and by whom it was entered)."""
    entry = {"seq": 7, "type": "StartGroupTaken", "actor": "Ana", "payload": {"group": 2},
             "at": "2026-11-01T20:15:00Z", "by": "Bruno [at the table]"}
    line = writing._entry_line(entry, ev.StartGroupTaken("Ana", 2))
    assert line == '7. Ana: group 2 {[%at "2026-11-01T20:15:00Z"] [%by "Bruno [at the table]"]}'
    assert reading._read_entries(line.split(". ", 1)[1], 7) == [entry]
    note = {"seq": 9, "type": "Noted", "actor": "Ana", "payload": {"seq": 7, "text": "why {[%at \"x\"]}"}, "at": "2026-11-01"}
    read = reading._read_body(writing._entry_line(note, ev.Noted("Ana", 7, 'why {[%at "x"]}')).split(". ", 1)[1], 9)
    assert read == note


def test_fields_a_line_shares_are_written_once_after_its_last_entry_and_given_to_every_entry():
    """``; {[%…]}`` after a line's last entry: the fields each of its entries has (a walk's steps too); a field
    given both for an entry and for its line is refused."""
    at, by = {"at": "2026-11-01T20:15:00Z"}, {"by": "Ana"}
    read = reading._read_entries('Ana: group 2 {[%at "2026-11-01T20:15:00Z"]}; pilgrim start-s; {[%by "Ana"]}', 7)
    assert [(e["type"], {k: e[k] for k in ("at", "by") if k in e}) for e in read] == [
        ("StartGroupTaken", {**at, **by}), ("PilgrimPlaced", by)]
    walked = reading._read_entries('Ana: walk start-s, road-s; {[%by "Ana"]}', 12)
    assert [(e["seq"], e["payload"]["to"], e["by"]) for e in walked] == [(12, "start-s", "Ana"), (13, "road-s", "Ana")]
    with pytest.raises(reading._BadLine, match="field 'by' given twice \\(for the entry and for its whole line\\)"):
        reading._read_entries('Ana: group 2 {[%by "Bruno"]}; pilgrim start-s; {[%by "Ana"]}', 7)


def test_a_move_list_with_entry_fields_this_schema_does_not_have_is_refused_on_its_line():
    text = written(log_reader.read(FIXTURES / "games" / "standin-2p-seed1.json"))
    damaged = text.replace("7. Ana: group 2\n", '7. Ana: group 2 {[%mood "cheerful"]}\n')
    assert any(p.startswith("event 7: line ") and "bad event" in p for p in problems(damaged))


def test_entry_hash_is_event_hash_for_the_fields_a_log_writes():
    for seq, e in enumerate(log_reader.read(GAMES[0]).events[:30], 1):
        entry = {"seq": seq, "type": e.TYPE, "actor": e.actor, "payload": e.payload(), "hash": "ignored"}
        assert entry_hash("a" * 64, entry) == event_hash("a" * 64, seq, e.TYPE, e.actor, e.payload())
        stamped = {**entry, "at": "2026-11-01T20:15:00Z", "by": "Ana"}
        assert entry_hash("a" * 64, stamped) == event_hash("a" * 64, seq, e.TYPE, e.actor, e.payload(), stamped["at"], "Ana")


# --- random games with every kind of history entry ---------------------------------------------

_texts = st.sampled_from(AWKWARD) | st.text(st.characters(exclude_categories=("Cs",)), min_size=1, max_size=30)


@st.composite
def eventful_records(draw) -> game_log.GameLog:
    """A simulated game cut where a die is retrieved, then notes, bookmarks, corrections, undos and an
    accepted rule break (3 coins as the alternative action), in an order Hypothesis chooses."""
    count = draw(st.integers(2, 4), label="players")
    log, _ = simulate(CAT, DEFAULT_PLAYERS[:count], draw(st.integers(0, 5_000), label="seed"))
    states = timeline(log).states
    retrievals = [k for k, s in enumerate(states) if s.pending is not None and s.pending.kind == "retrieve"]
    cut = draw(st.sampled_from(retrievals), label="cut")
    game = Game.from_log("g", log.with_events(log.events[:cut]))
    for op in draw(st.lists(st.sampled_from(["note", "bookmark", "correct", "undo", "override"]), min_size=1, max_size=6)):
        plays = game.line.plays
        if not plays:
            break
        target = draw(st.sampled_from(plays), label="target")
        by = draw(st.sampled_from([TABLE, *(n for n, _ in log.players)]), label="by")
        if op in ("note", "bookmark"):
            game.note(target.seq, draw(_texts, label="text"), bookmark=op == "bookmark", by=by)
        elif op == "correct" and plays[-1].override is None:  # with what it said: legal where it stood
            game.correct(plays[-1].seq, plays[-1].event, by=by)
        elif op == "undo":
            game.undo(by=by)
        elif game.pending is not None and game.pending.kind == "retrieve":
            game.accept(ev.AlternativeTaken(game.pending.actor, 3, 0), draw(_texts.filter(str.strip), label="reason"), by=by)
    return game.to_log()


@pytest.mark.property
@settings(max_examples=max(settings.default.max_examples // 2, 10))
@given(record=eventful_records())
def test_property_random_records_with_history_read_back_byte_for_byte(record):
    exported = game_log.dumps(record)
    assert game_log.dumps(movelist.loads(movelist.dumps(record))) == exported
    assert game_log.dumps(movelist.loads(written(record))) == exported


# --- damaged move lists ------------------------------------------------------------------------

TEXT = written(log_reader.read(FIXTURES / "games" / "standin-2p-seed1.json"))
LINE_OF = {line.split(". ", 1)[0]: n for n, line in enumerate(TEXT.splitlines(), 1) if line[:1].isdigit()}


def _edit(old: str, new: str, count: int = 1) -> str:
    assert old in TEXT
    return TEXT.replace(old, new, count)


@pytest.mark.parametrize(
    "damaged, expected",
    [
        (_edit("27. Bruno: buy Scholar", "27. Bruno: bye Scholar"), f"event 27: line {LINE_OF['27']}: bad notation: unknown verb 'bye'"),
        (_edit("38. Ana: invest Brazil", "38. Ana: invest"),
         f"event 38: line {LINE_OF['38']}: bad notation: 'invest' expects 'invest VOYAGE'"),
        (_edit("27. Bruno: buy Scholar\n", ""), f"event 28: line {LINE_OF['28'] - 1}: sequence broken: expected entry 27, found 28"),
        (_edit("7. Ana: group 2", "7. Ana: group two"), f"event 7: line {LINE_OF['7']}: bad notation: 'group' expects 'group N'"),
        (_edit("27. Bruno: buy Scholar", "27. {Bruno: buy c-II-20}"), f"event 27: line {LINE_OF['27']}: CardBought entry: "
                                                                      "only notes and bookmarks are written in braces"),
        (_edit("27. Bruno: buy Scholar", "27. = {\"type\": \"CardBought\""), f"event 27: line {LINE_OF['27']}: bad entry object"),
        (_edit("27. Bruno: buy Scholar", "27. Bruno: buy Scholar {[%at 2026]"), f"event 27: line {LINE_OF['27']}: bad notation"),
        (_edit("exchange coins 3;", "exchange coins three;"), f"event 28: line {LINE_OF['28']}: bad notation: entry 2 of the "
                                                             "line ('exchange coins three'): 'exchange' expects"),
        (_edit("exchange coins 3;", "exchnge coins 3;"), f"event 28: line {LINE_OF['28']}: bad notation: entry 2 of the line "
                                                        "('exchnge coins 3'): unknown verb 'exchnge' (did you mean 'exchange'?)"),
        (_edit("; walk start-n, road-n;", "; walk start-n, , road-n;"), f"event 33: line {LINE_OF['33']}: bad notation: entry 3"),
        (_edit("[Schema 2]", "[Schema 2]\n[Schema 2]"), "header: line 3: tag Schema: given twice (first on line 2)"),
        (_edit("[Schema 2]", "[Schema two]"), "header: line 2: tag Schema: the value is not JSON"),
        (_edit("[Schema 2]", "[Schema 9]"), "header: line 2: unsupported schema version"),
        (_edit('[Players "Ana (red), Bruno (blue)"]', '[Players "Ana red, Bruno"]'), "header: line 5: tag Players: expected"),
        (_edit('[Ruleset "', '[Ruleset 5] ["'), "header: line 3: tag Ruleset: the value is not JSON"),
        (_edit('[Ruleset "coimbra', "[Ruleset coimbra"), "header: line 3: tag Ruleset: the value is not JSON"),
        (_edit('[Date "????-??-??"]', '[Event "club night"]'), "header: line 8: unknown header fields: event"),
        (_edit("[Head ", "[Tail "), "header: line 10: unknown header fields: tail"),
        (_edit("14. table: roll gray-1=4", "14. table: roll gray-1=5"), "event 130: line 10: head hash does not match"),
        (_edit("Ana (red), Bruno (blue)", "Bruno (blue), Ana (red)"), "event 130: line 10: head hash does not match"),
        (TEXT + "[Note \"late\"]\n", f"event 131: line {len(TEXT.splitlines()) + 1}: tag Note: tags belong in the header"),
        (_edit("== Round 2 ==", "Round 2"), f"event 40: line {LINE_OF['40'] - 2}: not a move list line"),
    ],
    ids=["unknown-verb", "missing-argument", "missing-line", "bad-number", "braces-on-a-move", "bad-json-entry",
         "unclosed-command", "bad-entry-in-a-line", "mistyped-verb-in-a-line", "bad-walk", "tag-twice", "tag-not-json", "newer-schema",
         "bad-players", "two-tags-on-a-line",
         "unquoted-tag", "unknown-tag", "other-tag-for-head", "changed-die", "changed-seating", "tag-after-entries", "junk-line"],
)
def test_a_damaged_move_list_names_the_line_and_the_problem(damaged: str, expected: str):
    found = problems(damaged)
    assert any(p.startswith(expected) for p in found), found


def test_several_damages_are_each_listed_in_line_order():
    damaged = _edit("27. Bruno: buy", "27. Bruno: bye")
    damaged = damaged.replace("40. ", "41. ", 1).replace('[Players "Ana (red), Bruno (blue)"]', '[Players "Ana"]')
    found = problems(damaged)
    assert [p.split(":")[1].strip() for p in found] == ["line 5", f"line {LINE_OF['27']}", f"line {LINE_OF['40']}",
                                                        f"line {LINE_OF['41']}"]


def test_text_that_is_not_utf8_is_refused():
    found = problems(TEXT.encode("utf-8").replace(b"Ana: group 2", b"Ana: group \xff"))
    assert len(found) == 1 and found[0].startswith("header: not UTF-8 text: 'utf-8' codec can't decode byte 0xff")


def test_windows_line_ends_a_byte_order_mark_and_case_read_the_same():
    text = "\ufeff" + TEXT.replace("\n", "\r\n").replace("Ana: group 2", "Ana: GROUP 2")
    assert game_log.dumps(movelist.loads(text)) == game_log.dumps(log_reader.read(FIXTURES / "games" / "standin-2p-seed1.json"))


def _mutated(text: str, rng: random.Random) -> str:
    lines = text.split("\n")
    k = rng.randrange(len(lines) - 1)
    how = rng.choice(["delete", "duplicate", "swap", "char", "insert"])
    if how == "delete":
        del lines[k]
    elif how == "duplicate":
        lines.insert(k, lines[k])
    elif how == "swap":
        lines[k], lines[k + 1] = lines[k + 1], lines[k]
    elif how == "char" and lines[k]:
        at = rng.randrange(len(lines[k]))
        lines[k] = lines[k][:at] + rng.choice("0123456789 .:,=+{}[]%\"\\aZ-é\t") + lines[k][at + 1:]
    else:
        lines.insert(k, rng.choice(["", "== x", "-- y", "[Meta {}]", "{", "= {}", "131. table: pass", "1. Ana: pass"]))
    return "\n".join(lines)


@pytest.mark.property
@given(seed=st.integers(0, 2**32 - 1))
def test_property_an_edited_move_list_is_the_same_record_or_refused(seed: int):
    """Only edits that change nothing recorded (headings, the date or result, blank lines, case) read at all."""
    text = _mutated(TEXT, random.Random(seed))
    try:
        log = movelist.loads(text)
    except LogError as exc:
        assert exc.problems and all(str(p) for p in exc.problems)
        return
    assert game_log.dumps(log) == game_log.dumps(log_reader.read(FIXTURES / "games" / "standin-2p-seed1.json"))
