"""End to end: ``coimbra replay`` (and the recorder's prompt) driven in a real terminal (tmux), as a person would use them.

The installed command runs in a detached tmux session of 160x60 on a private
tmux server; keys are sent with ``send-keys`` and the screen is read with
``capture-pane -p``, polled until the expected text shows (never a fixed sleep).
Skipped, with the reason, only where tmux is not installed (``.ci/run``
installs it).
"""

from __future__ import annotations

import io
import os
import shlex
import shutil
import subprocess
import time
import uuid
from pathlib import Path
from typing import Callable, Iterator

import pytest

from coimbra_events import log_reader
from coimbra_events.store.sources import game_from_file
from coimbra_events.notation import render
from projections.naming import said
from tests.conftest import FIXTURES
from tests.conftest import installed_coimbra
from tests.test_cli import run

GAME = FIXTURES / "games" / "standin-3p-seed2.json"
EVENTS = log_reader.read(GAME).events
CATALOG = game_from_file(GAME).catalog
LAST = len(EVENTS)
EXIT_MARK = "REPLAY-EXITED-WITH"
TIMEOUT = 15.0

needs_tmux = pytest.mark.skipif(shutil.which("tmux") is None,
                                reason="tmux is not installed: apt-get install tmux (.ci/run installs it)")


class Terminal:
    """A tmux session of its own private server, running one command."""

    def __init__(self, command: str, size: tuple[int, int] = (160, 60)) -> None:
        self.socket = f"coimbra-test-{uuid.uuid4().hex[:12]}"
        self.env = {**os.environ, "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8", "TERM": "xterm-256color"}
        for inherited in ("NO_COLOR", "TMUX", "COLUMNS", "LINES"):  # the terminal tells its own size (a pytest-xdist
            self.env.pop(inherited, None)  # worker has COLUMNS=80 and LINES=24 set, which Textual would take instead)
        self.tmux("new-session", "-d", "-s", "replay", "-x", str(size[0]), "-y", str(size[1]), command)

    def tmux(self, *args: str) -> str:
        out = subprocess.run(["tmux", "-L", self.socket, *args], capture_output=True, text=True, env=self.env, timeout=30)
        assert out.returncode == 0, f"tmux {' '.join(args)}: {out.stderr}"
        return out.stdout

    def keys(self, *keys: str) -> None:
        self.tmux("send-keys", "-t", "replay", *keys)

    def screen(self) -> str:
        return self.tmux("capture-pane", "-p", "-t", "replay")

    def wait_for(self, *texts: str, absent: tuple[str, ...] = (), timeout: float = TIMEOUT) -> str:
        """The screen once it shows every one of ``texts`` (and none of ``absent``); fails after ``timeout`` s."""
        return self.wait_until(lambda s: all(t in s for t in texts) and not any(t in s for t in absent),
                               f"{texts} (without {absent})", timeout)

    def wait_until(self, ok: Callable[[str], bool], what: str, timeout: float = TIMEOUT) -> str:
        deadline = time.monotonic() + timeout
        screen = ""
        while time.monotonic() < deadline:
            screen = self.screen()
            if ok(screen):
                return screen
            time.sleep(0.05)
        pytest.fail(f"the screen did not show {what} within {timeout} s; it shows:\n{screen}")

    def close(self) -> None:
        """Stop this test's tmux server and remove its socket."""
        path = subprocess.run(["tmux", "-L", self.socket, "display-message", "-p", "#{socket_path}"],
                              capture_output=True, text=True, env=self.env, timeout=30).stdout.strip()
        subprocess.run(["tmux", "-L", self.socket, "kill-server"], capture_output=True, env=self.env, timeout=30)
        if path.endswith(self.socket):
            Path(path).unlink(missing_ok=True)


@pytest.fixture
def replayer() -> Iterator[Terminal]:
    """The replayer on the fixture game; once it ends, its exit status and the terminal's modes show."""
    command = (f"{shlex.quote(installed_coimbra())} replay {shlex.quote(str(GAME))}; echo {EXIT_MARK}=$?; "
               "stty -a | tr ' ;' '\\n\\n' | grep -x -e echo -e icanon -e -echo -e -icanon | sed 's/^/mode: /'; sleep 60")
    terminal = Terminal(command)
    try:
        yield terminal
    finally:
        terminal.close()


def header(n: int, where: str = "") -> str:
    """The event panel's title at entry ``n``: ``entry 3 of 175 · round 0 · phase setup``."""
    return f"entry {n} of {LAST} · {where}" if where else f"entry {n} of {LAST} ·"


@needs_tmux
def test_replay_in_a_terminal(replayer: Terminal) -> None:
    t = replayer
    first = t.wait_for(header(0, "round 0 · phase setup"), "before the first entry", "q quit")
    assert "standin-3p-seed2 · after 0 of 175 entries" in first  # the board as `show` draws it
    assert "City" in first and "entries" in first and "changes" in first
    assert first.rstrip().splitlines()[-1].lstrip().startswith("←→ entry")  # the key line at the bottom

    # one entry at a time: number and entry shown, and the entry list follows
    t.keys("Right", "Right", "Right")
    screen = t.wait_for(header(3, "round 0 · phase setup"))
    assert "table: voyages" in screen
    t.keys("Left")
    t.wait_for(header(2))
    t.keys("l", "l")
    t.wait_for(header(4))

    # phases and rounds
    t.keys("Down")
    t.wait_for(header(6, "round 0 · phase setup"), "the table enters round 0 · phase start choices")
    t.keys("Down", "Down")  # the table after the roll is in phase B; the roll itself was phase A's
    t.wait_for(header(14, "round 1 · phase A"), "the table enters round 1 · phase B: drafting and placing dice")
    t.keys("Up")
    t.wait_for(header(13, "round 0 · phase start choices"), "the table enters round 1 · phase A")
    t.keys("NPage")
    t.wait_for(header(53, "round 1 · phase F"), "the table enters round 2 · phase A")
    t.keys("PPage")
    t.wait_for(header(13, "round 0 · phase start choices"))

    # go to an entry by number, then the next decision of a player
    t.keys("g", "1", "0", "0")
    t.wait_for("go to entry: 100")
    t.keys("Enter")
    t.wait_for(header(100, "round 3 · phase B"))
    t.keys("p")
    t.wait_for("next decision of: 1 Ana · 2 Bruno · 3 Carla")
    t.keys("a")
    ana = next(n for n in range(101, LAST + 1) if EVENTS[n - 1].actor == "Ana")
    t.wait_for(header(ana))

    # the players' sides of the table, then back to the board
    t.keys("v")
    t.wait_for("resources", "crown tokens")
    t.keys("v")
    t.wait_for("City")

    # both ends, a message past the end, the help, and q
    t.keys("End")
    t.wait_for(header(LAST, "round 4 · phase F"), "the table enters round 4 · game over")
    t.keys("Right")
    t.wait_for("already after the last entry")
    t.keys("Home")
    t.wait_for(header(0, "round 0 · phase setup"))
    t.keys("?")
    t.wait_for("next decision of player X", "keys")
    t.keys("Escape")
    t.wait_for("City", absent=("next decision of player X",))
    t.keys("q")
    screen = t.wait_for(f"{EXIT_MARK}=0")
    assert "City" not in screen  # the alternate screen is gone with the replayer


def _without_entry_list(screen: str) -> list[str]:
    """The screen with the entry list's box blanked out (its scroll position depends on how the cursor got there)."""
    rows = screen.splitlines()
    top = next(k for k, row in enumerate(rows) if "╭" in row and "entries" in row)
    bottom = next(k for k, row in enumerate(rows) if "╭" in row and "changes" in row)
    width = rows[top].index("╮") + 1
    return [" " * width + row[width:] if top <= k < bottom else row for k, row in enumerate(rows)]


@needs_tmux
def test_a_screen_reached_step_by_step_is_the_screen_reached_by_a_jump() -> None:
    """A step repaints only the lines of a pane that changed (``LinesPane``): whatever the way to an entry, one
    step at a time from either side or straight there, the terminal shows the same panes."""
    command = f"{shlex.quote(installed_coimbra())} replay {shlex.quote(str(GAME))}; sleep 60"
    stepped, jumped = Terminal(command), Terminal(command)
    try:
        stepped.wait_for(header(0, "round 0 · phase setup"))
        jumped.wait_for(header(0, "round 0 · phase setup"))
        at = 0
        for n in (1, 2, 9, 30, 31, 64, LAST, LAST - 1, LAST - 12, 100):
            while at != n:
                stepped.keys("Right" if n > at else "Left")
                at += 1 if n > at else -1
                stepped.wait_for(header(at))
            jumped.keys("g", *str(n), "Enter")
            jumped.wait_for(header(n))
            shown = stepped.wait_until(lambda s: _without_entry_list(s) == _without_entry_list(jumped.screen()),
                                       f"the screen of a jump to entry {n}", timeout=5)
            assert header(n) in shown
    finally:
        stepped.close()
        jumped.close()


@needs_tmux
def test_at_80x24_the_entry_every_player_s_side_and_the_final_scores_are_one_key_away() -> None:
    """The faults of a small terminal: entries cut to the list's width, one player's side in view and the
    others many scroll keys away, a phase's name on the last entry of the phase before, no final scores."""
    t = Terminal(f"{shlex.quote(installed_coimbra())} replay {shlex.quote(str(GAME))}; sleep 60", size=(80, 24))
    try:
        t.wait_for(header(0, "round 0 · phase setup"))
        t.keys("g", "5", "Enter")  # the table deals the character rows: a line as long as the screen is wide, thrice
        screen = t.wait_for(header(5, "round 0 · phase setup"))
        lines = screen.splitlines()
        entry = said(CATALOG, EVENTS[4])
        top = " ".join(line.strip("│ ") for line in lines[1:next(k for k, line in enumerate(lines) if "╰" in line)])
        assert " ".join(entry.split()) in top  # the whole entry, wrapped, on top
        listed = " ".join(line.split("│")[1].strip() for line in lines if line.count("│") >= 2)
        assert f"5 {' '.join(entry.split())}"[:48] in listed  # and in the entry list, over lines as wide as it
        t.keys("g", "1", "4", "Enter")
        t.wait_for(header(14, "round 1 · phase A"), "the table enters round 1 · phase B")
        players = [f"{name} ({color})" for name, color in log_reader.read(GAME).players]
        for k, side in enumerate(players, 1):
            t.keys(str(k))
            t.wait_for(side, absent=tuple(other for other in players if other != side))
        t.keys("End")
        t.wait_for("game over: s shows the final scores")
        t.keys("s")
        t.wait_for("Final scores", "winner: ", header(LAST, "round 4 · phase F"))
        t.keys("s")
        t.wait_for(players[-1], absent=("Final scores",))  # the side shown before, again
    finally:
        t.close()


@needs_tmux
def test_ctrl_c_leaves_the_terminal_as_it_was(replayer: Terminal) -> None:
    replayer.wait_for(header(0))
    replayer.keys("C-c")
    screen = replayer.wait_for(f"{EXIT_MARK}=", "mode: icanon", "mode: echo")
    assert "mode: -icanon" not in screen and "mode: -echo" not in screen


def test_without_a_terminal_one_frame_of_the_latest_entry_is_printed() -> None:
    out = run("replay", str(GAME))
    assert out.returncode == 0, out.stderr
    assert header(LAST, "round 4 · phase F") in out.stdout and "the table enters round 4 · game over" in out.stdout
    assert "City" in out.stdout
    assert "changes" in out.stdout and "crown tokens" in out.stdout  # what the entry changed, every player's side
    assert "q quit" not in out.stdout


def test_at_prints_the_frame_at_that_entry() -> None:
    out = run("replay", str(GAME), "--at", "100", COLUMNS="160")
    assert out.returncode == 0, out.stderr
    assert header(100, "round 3 · phase B") in out.stdout
    assert "standin-3p-seed2 · after 100 of 175 entries" in out.stdout
    assert render(EVENTS[99]).split(": ", 1)[0] in out.stdout


def test_help_lists_the_keys() -> None:
    out = run("replay", "--help")
    assert out.returncode == 0, out.stderr
    for words in ("PgUp/PgDn", "g N Enter", "bookmark", "decision of player", "one player's side", "the scores", "Example"):
        assert words in out.stdout


def test_a_game_with_notes_shows_them_in_its_frame(tmp_path) -> None:
    copy = tmp_path / "noted.json"
    copy.write_bytes(GAME.read_bytes())
    assert run("note", str(copy), "--at", "60", "start of the comeback", "--bookmark").returncode == 0
    assert run("note", str(copy), "--at", "60", "Bruno thought hard").returncode == 0
    out = run("replay", str(copy), "--at", "60")
    assert out.returncode == 0, out.stderr
    assert "bookmark: start of the comeback" in out.stdout and "note: Bruno thought hard" in out.stdout
    assert f"entry 60 of {LAST + 2}" in out.stdout


def test_at_outside_the_game_is_bad_input() -> None:
    out = run("replay", str(GAME), "--at", "999")
    assert out.returncode == 2 and "choose 0 to 175" in out.stderr


def test_an_accepted_rule_break_shows_its_rule_and_reason() -> None:
    from rich.console import Console

    from cli.replay_views import Replay
    from coimbra_events import events as ev
    from coimbra_events.catalog import standin_catalog
    from coimbra_events.game import Game
    from coimbra_events.simulator import simulate

    catalog, players = standin_catalog(), (("Ana", "red"), ("Bruno", "blue"))
    log, _ = simulate(catalog, players, 1)
    game = Game.start("g", catalog, players)
    for event in log.events[:24]:
        game.record(event)
    game.accept(ev.CardBought("Ana", "c-II-20"), "we misread the price")  # entries 25 and 26
    console = Console(width=120, record=True, file=io.StringIO())
    console.print(Replay(game).event_panel(26))
    text = console.export_text()
    assert "entry 26 of 26" in text and "Ana: buy Scholar (c-II-20)" in text
    assert "accepted against rule C.cost: we misread the price" in text


@needs_tmux
def test_the_recorder_at_a_terminal_completes_with_tab_and_shows_its_toolbar(tmp_path) -> None:
    """``coimbra record`` in a real terminal: prompt_toolkit's Tab completion and bottom toolbar."""
    command = (f"COIMBRA_DB={shlex.quote(str(tmp_path / 'g.sqlite'))} {shlex.quote(installed_coimbra())} record "
               f"--players Ana:red,Bruno:blue --seed 1; echo {EXIT_MARK}=$?; sleep 60")
    t = Terminal(command)
    try:
        t.wait_for("take a start group or place your pilgrim · start choices · entry 7 · Tab completes")  # the toolbar
        t.keys("p", "i", "l", "g", "r", "i", "m", " ", "s", "t", "a", "r", "t", "-", "w", "Tab")  # one option: completed
        t.wait_for("7 Ana> pilgrim start-w")
        t.keys("C-u", "g", "Tab")  # two groups: Tab writes what they share and lists both
        t.wait_for("7 Ana> group\n", "group 1  Student", "group 2  Novice")  # the menu, with what each is
        t.keys("Escape", "C-u", "group 2", "Enter")
        t.wait_for("recorded 7: Ana: group 2")
        t.keys("C-d")
        t.wait_for(f"{EXIT_MARK}=0")
    finally:
        t.close()
