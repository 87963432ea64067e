"""Text from a record is shown, never obeyed: control characters reach the terminal escaped, and are stored as given."""

from __future__ import annotations

import pytest
from rich.console import Console
from typer.testing import CliRunner

from cli.app import app
from cli.terminal import _ESCAPES, escape_controls, escaping

runner = CliRunner()
ESC = "\x1b"
NAME = f"An{ESC}[2Ja"
NOTE = f"ruling {ESC}]0;owned{ESC}\\ \u202etxt.exe"


@pytest.mark.parametrize("raw, shown", [
    (f"{ESC}[2J", "\\x1b[2J"), ("\x9b31m", "\\x9b31m"), ("\u202eabc", "\\u202eabc"), ("\x00\x7f", "\\x00\\x7f"),
    ("two\nlines", "two\nlines"), ("Conceição", "Conceição"),
])
def test_control_characters_are_written_as_escapes(raw, shown):
    assert escape_controls(raw) == shown


@pytest.mark.parametrize("code", sorted(_ESCAPES))
def test_every_character_escaped_is_one_python_calls_unprintable(code):
    """The premise of the shortcut for text that ``isprintable`` passes: escaping it would change nothing."""
    assert not chr(code).isprintable()
    assert escape_controls(f"a{chr(code)}b") == f"a{_ESCAPES[code]}b"


def test_a_console_escapes_text_but_keeps_its_own_styles():
    console = escaping(Console(record=True, force_terminal=True, color_system="standard", width=60))
    console.print(f"[bold]{NAME}[/]")
    out = console.export_text(styles=True)
    assert ESC + "[1m" in out and "An\\x1b" in out and ESC + "[2J" not in out


@pytest.fixture
def db(tmp_path):
    db = tmp_path / "games.sqlite"
    assert runner.invoke(app, ["new", "--players", f"{NAME}:red,Bruno:blue", "--seed", "3", "--name", "g", "--db", str(db)]).exit_code == 0
    assert runner.invoke(app, ["note", "g", "--at", "3", NOTE, "--db", str(db)]).exit_code == 0
    return db


@pytest.mark.parametrize("args", [("show", "g"), ("games",), ("score", "g"), ("explain", "g", "--seq", "3"),
                                  ("explain", "g", "--player", NAME), ("legal", "g")], ids=lambda a: a[0])
def test_names_and_notes_are_shown_escaped(db, args):
    result = runner.invoke(app, [*args, "--db", str(db)], env={"NO_COLOR": "1", "COLUMNS": "160"})
    assert result.exit_code == 0, result.output
    assert ESC not in result.output and "\u202e" not in result.output
    assert "\\x1b" in result.output


def test_they_are_stored_as_given(db):
    result = runner.invoke(app, ["export", "g", "--db", str(db)])
    assert '"name":"An\\u001b[2Ja"'.encode() in result.stdout_bytes and "\u202e".encode() in result.stdout_bytes


def test_an_error_quoting_a_name_escapes_it_too(db):
    result = runner.invoke(app, ["act", "g", f"{NAME}: pilgrim nowhere{ESC}[2J", "--db", str(db)], env={"NO_COLOR": "1"})
    assert result.exit_code in (1, 2) and ESC not in result.output


def test_the_full_screen_replayer_shows_them_escaped_too(tmp_path):
    """The Textual replayer draws its panes with Rich, not through the command's console: escaped there too."""
    from cli.replay_views import Replay
    from coimbra_events.service import Games
    from coimbra_events.store.game_store import GameStore
    from tests.applied import stored
    from tests.test_replay_app import ReplayApp, run

    store = GameStore(tmp_path / "games.sqlite")
    games = Games(store)
    games.new_game([(NAME, "red"), ("Bruno", "blue")], seed=3, name="g")
    stored(games.note("g", 3, NOTE))
    seen = run(ReplayApp(Replay(store.get("g"))), "end")
    shown = "\n".join(str(v) for v in seen.values())
    assert ESC not in shown and "\u202e" not in shown and "\\x1b" in shown


def test_a_move_list_shows_them_escaped_and_reads_back_to_the_same_record(db, tmp_path):
    """``export --format text`` is read in a terminal too: what the record holds raw is written escaped (the
    note's entry as JSON), and the list imports as the very same record."""
    text = runner.invoke(app, ["export", "g", "--format", "text", "--db", str(db)]).stdout
    assert ESC not in text and "\u202e" not in text and "\\u001b" in text and "\\u202e" in text
    (tmp_path / "g.txt").write_text(text)
    other = tmp_path / "other.sqlite"
    assert runner.invoke(app, ["import", str(tmp_path / "g.txt"), "--name", "g", "--db", str(other)]).exit_code == 0
    exported = [runner.invoke(app, ["export", "g", "--db", str(store)]).stdout_bytes for store in (db, other)]
    assert exported[0] == exported[1] and "\u202e".encode() in exported[1]  # the same record, as given


@pytest.mark.parametrize("args", [("show", "g", "--json"), ("explain", "g", "--seq", "3", "--json")], ids=lambda a: a[0])
def test_json_output_escapes_what_json_leaves_raw(db, args):
    """orjson escapes C0 itself; DEL, C1 and the overrides are written as ``\\uXXXX`` too: the same JSON value."""
    result = runner.invoke(app, [*args, "--db", str(db)])
    assert result.exit_code == 0, result.output
    assert ESC not in result.stdout and "\u202e" not in result.stdout and "\\u202e" in result.stdout
