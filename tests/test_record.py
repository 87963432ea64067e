"""``coimbra record``: a whole game typed as a table would, through a script and through the real command.

The game is the 2-player fixture. Its inputs are typed the quick ways a table
types them, in turn: an option's number, the shortest start of an option that
only one option has, a notation line (with or without ``Name:``), the dice in
the order a roll is written. On the way: a typo and an illegal move (refused, nothing stored),
a wrong but legal entry and its correction, and the end of the input in the
middle of the game followed by a second session that resumes it. The stored
game must export to exactly the fixture's events plus the correction.
"""

from __future__ import annotations

import io
import os
import subprocess
from pathlib import Path

import pytest
from rich.console import Console

from cli.record_command import record_session
from cli.record_texts import option_lines
from cli.record_words import Command, read_typed
from coimbra_events import events as ev
from coimbra_events import log as game_log, log_reader
from coimbra_events.service import Games
from coimbra_events.store.game_store import GameStore
from coimbra_events.catalog import standin_catalog
from coimbra_events.log import GameLog
from coimbra_events.notation import render
from coimbra_events.rules import core as rules
from coimbra_events.state import TABLE
from projections.naming import named
from projections.options import options
from projections.recording import Ambiguous, Choice, Numbers, Unreadable, pool_order, read_line
from tests.conftest import FIXTURES
from tests.conftest import installed_coimbra

LOG = log_reader.read(FIXTURES / "games" / "standin-2p-seed1.json")
EVENTS = LOG.events
NEW = standin_catalog()
"""The catalog a new game starts with: the recorder plays the fixture's entries on it (its map names every space)."""
NAME = "ana-bruno"
PLAYERS_TYPED = ["Ana red", "Bruno:blue", ""]

WRONG_AT = 16
WRONG = ev.DiePlaced("Ana", "white-1", "upper")  # typed instead of entry 16's "white-1 central"; legal, and wrong
CORRECTION = "correct 16 place white-1 ce"      # a prefix, read where entry 16 stood
INTERRUPT_AFTER = 60                             # the input ends after this fixture event
COMMAND_WORDS = {"r", "q", "?", "undo", "show", "legal", "help", "quit", "exit", "roll"}


def states() -> list:
    """The table before each fixture event (index k: before event k + 1)."""
    state = rules.start(NEW, LOG.players)
    out = []
    for event in EVENTS:
        out.append(state)
        state = rules.apply(state, event)
    return out


STATES = states()


def bare(event: ev.GameEvent) -> str:
    return render(event).split(": ", 1)[1]


def unique_prefix(text: str, listed: list) -> str:
    """The shortest start of ``text`` that no other option has, by id or by name (and that is not a command or a number)."""
    for n in range(1, len(text) + 1):
        p = text[:n]
        if p.endswith(" ") or p.isdigit() or p.lower() in COMMAND_WORDS:
            continue
        if sum(o.text.lower().startswith(p.lower()) or o.notation.lower().startswith(p.lower()) for o in listed) == 1:
            return p
    raise AssertionError(f"no unique prefix for {text}")


def typed(k: int, numbers: Numbers) -> str:
    """How the table types fixture event ``k`` (1-based): a number (as the session shows it: ``numbers``), a
    prefix or notation, in turn."""
    event, state = EVENTS[k - 1], STATES[k - 1]
    if event.actor == TABLE:
        if isinstance(event, ev.DiceRolled) and k % 2:
            values = dict(event.values)
            return " ".join(str(values[d]) for d in pool_order(state))
        return render(event) if k % 2 else bare(event)
    listed = options(state)
    shown = numbers.of(state, listed)  # the recorder numbers every list it shows, whatever is typed
    way = k % 3
    if way == 0:
        return str(shown[[o.notation for o in listed].index(bare(event))])
    if way == 1:
        return unique_prefix(bare(event), listed)
    return render(event).replace("Ana:", "ana:") if k % 2 else bare(event)


def script() -> tuple[list[str], list[str]]:
    """The lines of the two sessions: players, the setup and half the game; then the rest."""
    first, numbers = list(PLAYERS_TYPED), Numbers()
    for k in range(1, INTERRUPT_AFTER + 1):
        if k == 8:
            first += ["grop 1", "group 2"]  # a typo (unknown verb), then a move against START.group
        if k == WRONG_AT:
            first.append(bare(WRONG))
            continue
        if k == WRONG_AT + 1:
            first += [render(EVENTS[k - 1]), CORRECTION]
            continue
        first.append(typed(k, numbers))
    resumed = Numbers()  # a new session numbers afresh
    return first, [typed(k, resumed) for k in range(INTERRUPT_AFTER + 1, len(EVENTS) + 1)]


def expected_log() -> bytes:
    """The fixture's events with the wrong entry 16, then entry 17, then the correction of 16."""
    k = WRONG_AT
    events = (*EVENTS[: k - 1], WRONG, EVENTS[k], ev.Corrected(TABLE, k), EVENTS[k - 1], *EVENTS[k + 1 :])
    return game_log.dumps(GameLog(NEW.id, NEW.sha256, LOG.players, events, LOG.ruleset, {}))


class ScriptIo:
    """The recorder's input and output as lists: lines to type, and a transcript with the typed lines echoed."""

    def __init__(self, lines: list[str]) -> None:
        self.lines = list(lines)
        self.out: list[str] = []

    def ask(self, prompt: str, state=None, entries: int = 0) -> str:
        if not self.lines:
            raise EOFError
        line = self.lines.pop(0)
        self.out.append(prompt + line)
        return line

    def say(self, text: str = "") -> None:
        self.out.append(text)

    def show(self, renderable) -> None:
        buffer = io.StringIO()
        Console(file=buffer, width=100, no_color=True).print(renderable)
        self.out.append(buffer.getvalue())

    @property
    def text(self) -> str:
        return "\n".join(self.out)


def session(store: GameStore, lines: list[str], game: str | None = None, **kw) -> tuple[int, ScriptIo]:
    script_io = ScriptIo(lines)
    return record_session(Games(store), script_io, game, **kw), script_io


@pytest.fixture
def store(tmp_path: Path):
    s = GameStore(tmp_path / "games.sqlite")
    yield s
    s.close()


def stored(store: GameStore, name: str = NAME) -> int:
    return len(store.get(name).events)


# --- a whole game ---------------------------------------------------------------------------


def test_whole_game_through_the_injected_io(tmp_path: Path):
    first, second = script()
    db = tmp_path / "games.sqlite"
    store = GameStore(db)
    code, out = session(store, first)
    assert code == 0
    text = out.text
    assert "unknown verb 'grop'" in text
    assert "refused 'Bruno: group 2': rule START.group" in text
    assert f"corrected entry {WRONG_AT} to Ana: place white-1 central" in text
    assert f"resume with: coimbra record {NAME}" in text.splitlines()[-1]
    assert stored(store) == INTERRUPT_AFTER + 2  # the correction's two entries
    store.close()

    store = GameStore(db)  # a new process, as after a crash or a Ctrl-D
    code, out = session(store, second, NAME)
    assert code == 0
    assert f"{NAME}: {INTERRUPT_AFTER + 2} entries; round 2, phase E: influence income" in out.text
    assert render(EVENTS[INTERRUPT_AFTER - 1]) in out.text  # the last entries are shown
    assert "the game is over" in out.text
    assert game_log.dumps(store.export(NAME)) == expected_log()
    store.close()


def test_whole_game_through_the_installed_command_with_stdin_piped(tmp_path: Path):
    first, second = script()
    env = {**os.environ, "NO_COLOR": "1", "COLUMNS": "120", "COIMBRA_DB": str(tmp_path / "games.sqlite"),
           "COIMBRA_BY": "scorekeeper"}

    def run(*args: str, lines: list[str] | None = None) -> subprocess.CompletedProcess:
        stdin = "".join(f"{line}\n" for line in lines).encode() if lines is not None else b""
        out = subprocess.run([installed_coimbra(), *args], input=stdin, capture_output=True, timeout=300, env=env)
        assert "Traceback" not in out.stderr.decode(), out.stderr.decode()
        assert out.returncode == 0, (args, out.stdout.decode()[-2000:], out.stderr.decode())
        return out

    out = run("record", lines=first).stdout.decode()
    assert "refused 'Bruno: group 2': rule START.group" in out
    assert f"resume with: coimbra record {NAME}" in out
    out = run("record", NAME, lines=second).stdout.decode()
    assert "the game is over" in out
    recorded = log_reader.loads(run("export", NAME).stdout)
    assert game_log.dumps(recorded.with_events(recorded.events)) == expected_log()  # the same entries, unstamped
    assert {by for _, by in recorded.stamps} == {"scorekeeper"}  # each entry says who entered it, and when
    assert all(at.endswith("Z") for at, _ in recorded.stamps)


# --- reading a line -------------------------------------------------------------------------


def test_number_choice_and_its_range():
    state = STATES[14]  # Bruno drafts: 28 options
    options = rules.legal(state)
    assert read_line("3", state) == Choice(options[2], "number")
    assert isinstance(read_line("29", state), Unreadable)
    assert "choose 1 to 28" in read_line("0", state).message


def test_prefix_completion_takes_the_only_option_and_lists_several():
    state = STATES[14]
    assert read_line("place gray-1 u", state) == Choice(ev.DiePlaced("Bruno", "gray-1", "upper"), "prefix")
    assert read_line("bruno:  place  gray-1 u", state) == Choice(ev.DiePlaced("Bruno", "gray-1", "upper"), "prefix")
    several = read_line("place gray-1 c", state)
    assert isinstance(several, Ambiguous)
    assert [t for _, t in several.matches] == ["place gray-1 castle", "place gray-1 central"]
    assert read_line("place gray-1 castle", state) == Choice(ev.DiePlaced("Bruno", "gray-1", "castle"), "exact")


def test_a_full_line_that_no_option_starts_with_is_read_as_notation():
    state = STATES[14]
    reading = read_line("place gray-9 castle", state)  # well formed, and illegal: for the rules to refuse
    assert reading == Choice(ev.DiePlaced("Bruno", "gray-9", "castle"), "notation")
    assert "unknown verb 'plce'" in read_line("plce gray-1 castle", state).message


def test_commands_are_read_before_options():
    state = STATES[14]
    assert read_typed("undo", state) == Command("undo")
    assert read_typed("r", state) == Command("roll")
    assert read_typed("correct 12 place gray-1 castle", state) == Command("correct", 12, "place gray-1 castle")
    assert read_typed("note 12 dice knocked over", state) == Command("note", 12, "dice knocked over")
    assert read_typed("accept buy c-II-20 because we misread the price", state) == Command(
        "accept", text="buy c-II-20", reason="we misread the price")
    assert "correct N DECISION" in read_typed("correct twelve", state).message
    assert read_typed("place gray-1 castle", state) == read_line("place gray-1 castle", state)


def test_the_commands_are_the_recorders_not_the_read_sides():
    """The read side reads the game's input only; a mistyped verb is offered the commands of the recorder that asks."""
    state = STATES[14]
    assert isinstance(read_line("undo", state), Unreadable)
    assert "command" not in read_line("plce gray-1 castle", state).message
    typo = read_typed("undoo", state).message
    assert "did you mean 'undo'?" in typo and "or a command: undo, correct," in typo


def test_long_option_lists_are_grouped_with_every_number_visible():
    listed = options(STATES[14])
    lines = option_lines(listed)
    assert len(lines) == 7
    assert lines[0].split() == ["place", "gray-1", "(shows", "4)", "1", "castle", "2", "upper", "3", "central", "4", "lower"]
    assert len(option_lines(listed, limit=3)) == 4 and "16 more" in option_lines(listed, limit=3)[-1]
    assert len(option_lines(listed, flat=True)) == 28


# --- plausibility of table outcomes ---------------------------------------------------------


def at(store: GameStore, entries: int) -> None:
    """The fixture's first ``entries`` events stored as the game ``NAME``."""
    log = GameLog(LOG.catalog_id, LOG.catalog_sha256, LOG.players, EVENTS[:entries], LOG.ruleset, {})
    assert Games(store).import_log(log, NAME).how == "stored"


DICE = "gray-1=4 gray-2=5 green-1=6 orange-1=1 orange-2=4 purple-1=2 white-1=4"


@pytest.mark.parametrize("line, rule_words", [
    ("4 5 1 4 2 6 7", "rule A.dice: a die shows a value from 1 to 6"),
    ("roll " + DICE.replace("white-1=4", "white-1=0"), "rule A.dice: a die shows a value from 1 to 6"),
    ("roll " + DICE + " gray-3=2", "rule A.dice: the pool for 2 players is rolled, every die once"),
    ("roll " + DICE.replace(" white-1=4", ""), "rule A.dice: the pool for 2 players is rolled, every die once"),
])
def test_implausible_dice_are_refused_with_the_rule_and_nothing_is_stored(store, line, rule_words):
    at(store, 13)
    code, out = session(store, [line], NAME)
    assert code == 0
    assert rule_words in out.text
    assert stored(store) == 13


def test_the_dice_form_takes_one_value_per_die_in_the_order_a_roll_is_listed(store):
    at(store, 13)
    code, out = session(store, ["4 5 6 1 4 2", "4 5 6 1 4 2 4"], NAME)
    assert "one value per die, 7 for 2 players (gray-1 gray-2 green-1 orange-1 orange-2 purple-1 white-1); got 6" in out.text
    assert "or the values in this order: gray-1 gray-2 green-1 orange-1 orange-2 purple-1 white-1" in out.text
    assert store.get(NAME).events[13] == EVENTS[13]
    assert f"recorded 14: {render(EVENTS[13])}" in out.text  # echoed as the move list and act list it


ROWS_2 = bare(EVENTS[39])  # round 2's rows, as dealt


@pytest.mark.parametrize("line, words", [
    (ROWS_2.replace("c-II-10", "c-II-07"), "cards must come from the top of the character deck and not be dealt already"),
    (ROWS_2.replace("c-II-10", "c-III-01"), "cards must come from the top of the character deck"),
    (ROWS_2.replace("c-II-10", "c-II-05"), "a card was dealt twice"),
    (ROWS_2.replace("c-II-10,", ""), "each of the three cities gets a row of 4 cards"),
])
def test_implausible_rows_are_refused_with_the_rule_and_nothing_is_stored(store, line, words):
    at(store, 39)
    code, out = session(store, [line], NAME)
    assert f"rule SETUP.rows: {words}" in out.text
    assert stored(store) == 39


def test_without_a_seed_the_setup_is_walked_through_step_by_step(store):
    code, out = session(store, PLAYERS_TYPED + [bare(e) for e in EVENTS[:6]], players=None)
    lines = out.text
    for k, kind in enumerate(("monasteries", "scoring-tiles", "voyages", "seating", "rows", "start-groups"), 1):
        assert f"table: {kind} (setup): setup {k} of 6" in lines
    assert "pile I tiles go on: blue-n1" in lines
    assert "r: draw" not in lines  # no seed to draw from
    assert store.get(NAME).events == list(EVENTS[:6])


# --- the other commands ---------------------------------------------------------------------


def test_a_seeded_game_tells_the_table_what_to_lay_out_and_rolls_from_the_seed(store):
    code, out = session(store, ["group 2", "group 1", "pilgrim start-w", "pilgrim start-s", "track purple",
                                "step start-e", "step start-s", "r"], players=[("Ana", "red"), ("Bruno", "blue")], seed=1)
    text = out.text
    assert "pile I: blue-n1 Santa Clara (m-I-03)" in text
    assert "gray track Influence tile D (score-4)" in text
    assert "lion flag 1 Bruno, lion flag 2 Ana" in text
    assert "upper: Chronicler (c-II-21)" in text
    assert "group 1 Student (c-I-07) + Tutor (c-I-08)" in text
    assert "r: draw it from the game's seed" in text
    game = store.get(NAME)
    assert len(game.events) == 14 and isinstance(game.events[13], ev.DiceRolled)
    assert "Dice: gray-1 shows" in text


def test_roll_without_a_seed_stores_nothing(store):
    at(store, 13)
    code, out = session(store, ["r"], NAME)
    assert "no seed to draw from" in out.text
    assert stored(store) == 13


def test_an_ambiguous_prefix_and_a_refused_move_store_nothing(store):
    at(store, 14)
    code, out = session(store, ["place gray-1 c", "Ana: place gray-1 castle", "place gray-9 upper"], NAME)
    assert "2 options start with 'place gray-1 c'" in out.text
    assert "rule TURN.actor" in out.text
    assert "rule B.die" in out.text
    assert stored(store) == 14


def test_undo_note_accept_show_legal_help_and_quit(store):
    at(store, 24)
    lines = ["undo", "buy c-II-24", "note 24 retracted, so not in the line", "note 23 the price was checked twice",
             "accept buy c-II-18 because no reason", "accept buy c-II-20 because we misread the price",
             "show", "legal", "help", "quit", "never read"]
    code, out = session(store, lines, NAME)
    text = out.text
    assert code == 0
    cat = standin_catalog()
    assert f"undone: entry 24 Ana: buy {named(cat, 'c-II-24')}" in text
    assert "rule HISTORY.target" in text
    assert "noted entry 23" in text
    assert f"'Ana: buy {named(cat, 'c-II-18')}' breaks no rule here" in text
    assert "accepted against rule C.cost" in text
    assert "City" in text and "Players" in text  # the board
    assert "correct N DECISION" in text  # help
    assert "stopped (quit)" in text
    game = store.get(NAME)
    assert [e.TYPE for e in game.events[24:]] == ["Retracted", "CardBought", "Noted", "RuleOverridden", "CardBought"]
    assert game.line.plays[-1].override == ("C.cost", "we misread the price")


def test_ctrl_c_at_a_prompt_stops_cleanly_and_says_how_to_resume(store):
    at(store, 14)

    class CtrlC(ScriptIo):
        def ask(self, prompt: str, state=None, entries: int = 0) -> str:
            if not self.lines:
                raise KeyboardInterrupt
            return super().ask(prompt)

    script_io = CtrlC(["6"])
    assert record_session(Games(store), script_io, NAME) == 130
    head = store.get(NAME).head[:12]
    assert f"stopped (interrupted): 15 entries stored, head {head}; resume with: coimbra record {NAME}" in script_io.text
    assert stored(store) == 15


def test_resuming_a_finished_game_says_so(store):
    at(store, len(EVENTS))
    code, out = session(store, ["never read"], NAME)
    assert code == 0
    assert f"{NAME}: {len(EVENTS)} entries; game over" in out.text
    assert "the game is over after 130 entries" in out.text


def test_resuming_an_unknown_game_is_refused(store):
    from coimbra_events.store.errors import UnknownGame

    with pytest.raises(UnknownGame):
        session(store, [], "nobody")


def test_players_are_asked_again_when_they_cannot_play(store):
    code, out = session(store, ["Ana red", "Ana blue", "", "Ana red", "Bruno", "Bruno blue", ""])
    assert "player names and colours must be unique" in out.text
    assert "expected a name and a colour" in out.text
    assert store.get(NAME).header.players == (("Ana", "red"), ("Bruno", "blue"))


def test_the_end_of_the_input_before_the_players_stores_nothing(store):
    code, out = session(store, ["Ana red"])
    assert code == 0 and "nothing stored" in out.text
    assert store.games() == []


def test_a_new_game_is_recorded_with_the_box_the_table_plays(store, other_values):
    """``record --catalog``: the players are asked within the box's player counts, the game uses its values."""
    code, script = session(store, ["Ana red", "Bruno blue", "", "quit"], seed=4, catalog=other_values)
    assert code == 0
    assert "(2 to 4)" in script.text
    (info,) = store.games()
    game = store.get(info.name)
    assert game.catalog == other_values and {p.coins for p in game.state.players} == {other_values.start_coins}


def test_options_keep_their_numbers_while_the_turn_lasts(store):
    """Bruno's income (entries 33-37): 1 purple-1, 2 gray-2, 3 orange-1, 4 end. Once orange-1 is collected the
    others keep their numbers; his pilgrim's steps between are numbered on their own (a new step, a new number);
    and after them 2 is still gray-2."""
    at(store, 32)
    code, out = session(store, ["3", "1", "2", "5", "2"], NAME)
    assert code == 0
    assert list(store.get(NAME).events[32:]) == list(EVENTS[32:37])
    shown = [part.split("> ")[0] for part in out.text.split("Bruno: income (round 1, phase E)")]
    assert "  1  income purple-1 purple" in shown[2] and "  2  income gray-2 gray" in shown[2]
    assert "  4  end" in shown[2] and "  3  " not in shown[2]
    steps = [part.split("> ")[0] for part in out.text.split("Bruno: steps (round 1, phase E")]
    assert "  2  step start-n" in steps[1] and "  5  step road-n" in steps[2] and "  4  stop" in steps[2]
    assert "  2  income gray-2 gray" in shown[3] and "  4  end" in shown[3]


def test_a_line_of_several_entries_is_stored_all_or_none_naming_the_entry_refused(store):
    at(store, 32)
    code, out = session(store, ["income orange-1; purple-1; walk road-n; income orange-1",
                                "income orange-1; purple-1; walk road-n; income gray-2"], NAME)
    assert "refused 'Bruno: income orange-1 orange': rule E.die" in out.text  # the fourth entry, orange-1 again
    assert "recorded 33: Bruno: income orange-1 orange" in out.text.split("refused")[1]  # stored only the second time
    assert list(store.get(NAME).events[32:]) == list(EVENTS[32:37])
