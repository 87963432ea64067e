"""The replayer's Textual app, driven headless with Textual's pilot (``App.run_test``), at 80x24 unless said.

Stepping and jumping go where ``cli.replay_keys`` says; the entry list
marks what became of corrected and withdrawn entries and can show the line of
play only; the change pane says what the current entry changed (with a
scrollbar only while that overflows it); the players pane scrolls.
``tests/test_replay_snapshots.py`` compares whole screens.
"""

from __future__ import annotations

import asyncio

import pytest

from cli.replay_app import ReplayApp
from cli.replay_views import Replay
from coimbra_events import events as ev
from coimbra_events.store.sources import game_from_file
from coimbra_events.catalog import standin_catalog
from coimbra_events.game import Game
from coimbra_events.rules import core as rules
from coimbra_events.simulator import simulate
from tests.conftest import FIXTURES

GAME = FIXTURES / "games" / "standin-3p-seed2.json"


@pytest.fixture(scope="module")
def replay() -> Replay:
    return Replay(game_from_file(GAME))


def corrected_and_undone() -> Game:
    """A 2-player game with a wrong die placement corrected (entries 16, 18-19) and an undone play (21, 22)."""
    catalog, players = standin_catalog(), (("Ana", "red"), ("Bruno", "blue"))
    log, _ = simulate(catalog, players, 1)
    game = Game.start("fixed", catalog, players)
    for event in log.events[:17]:
        game.record(event)
    state = game.state_before(16)
    wrong = next(e for e in rules.legal(state) if e != log.events[15])
    game.correct(16, wrong)           # entries 18 (Corrected) and 19 (the replacement)
    game.correct(16, log.events[15])  # and back: entries 20 and 21
    game.record(log.events[17])       # 22
    game.undo()                       # 23 withdraws 22
    return game


def run(app: ReplayApp, *keys: str, size: tuple[int, int] = (80, 24)):
    """Press ``keys`` in the app and return it afterwards (still mounted state read off the widgets)."""
    seen: dict[str, object] = {}

    async def go() -> None:
        async with app.run_test(size=size) as pilot:
            await pilot.pause()
            for key in keys:
                await pilot.press(key)
            await pilot.pause()
            seen["entry"] = app.pane("entry").text
            seen["changes"] = app.pane("changes").text
            changes = app.pane("changes")
            seen["changes_scrollbar"] = (len(changes.text.splitlines()) > changes.scrollable_content_region.height,
                                         changes.show_vertical_scrollbar)  # (overflows, scrollbar shown)
            seen["board"] = app.pane("board").text
            seen["players"] = app.pane("players").text
            seen["players_scroll"] = app.pane("players").scroll_y
            entries = app.query_one("#entries")
            prompts = [str(entries.get_option_at_index(i).prompt) for i in range(entries.option_count)]
            seen["entries"] = [p.replace("\n", "") for p in prompts]  # the current entry is wrapped: joined again
            seen["wrapped"] = {i: p.count("\n") + 1 for i, p in enumerate(prompts) if "\n" in p}
            seen["highlighted"] = entries.highlighted
            seen["keys"] = str(app.query_one("#keys").content)
            seen["score"] = app.pane("score").text if app.showing_score else ""

    asyncio.run(go())
    return seen


def test_stepping_and_jumping_go_where_the_navigator_says(replay):
    nav = replay.nav
    seen = run(ReplayApp(replay), "right", "right", "right", "left")
    assert seen["entry"].splitlines()[0].strip("╭─ ").startswith("entry 2 of 175")
    phase = nav.next_phase(nav.next_phase(0))
    assert f"entry {phase} of" in run(ReplayApp(replay), "down", "down")["entry"]
    round_2 = nav.next_round(nav.next_round(0))
    seen = run(ReplayApp(replay), "pagedown", "pagedown")
    assert f"entry {round_2} of 175 · round 1 · phase F" in seen["entry"]  # the entry that ends round 1
    assert "the table enters round 2 · phase A" in seen["entry"]
    last = run(ReplayApp(replay), "end")["entry"]
    assert f"entry {nav.last} of 175 · round 4 · phase F" in last and "the table enters round 4 · game over" in last
    assert "go to entry: 12" in run(ReplayApp(replay), "g", "1", "2")["keys"]
    assert "entry 100 of" in run(ReplayApp(replay), "g", "1", "0", "0", "enter")["entry"]


def test_the_entry_list_highlights_the_current_entry(replay):
    seen = run(ReplayApp(replay, start=40), "right")
    assert seen["highlighted"] == 40  # entry 41 is the 41st line
    assert seen["entries"][40].lstrip().startswith("41 ")


def test_the_current_entry_is_written_out_whole_in_the_list_and_the_others_cut(replay):
    n = 5  # the table deals the character rows: far longer than the list is wide
    seen = run(ReplayApp(replay, start=n - 1), "right")
    assert seen["entries"][n - 1] == f"   {n} {replay.texts[n - 1]}"  # every character
    assert list(seen["wrapped"]) == [n - 1] and seen["wrapped"][n - 1] >= 4  # over lines as wide as the list
    assert list(run(ReplayApp(replay, start=n - 1), "right", "right")["wrapped"]) == [n]  # the next one now


def test_a_phase_is_named_on_its_own_entries_and_its_last_entry_says_where_the_table_goes(replay):
    nav = replay.nav
    start_b = nav.next_phase(nav.next_phase(nav.next_phase(0)))  # round 1 phase B begins after this entry
    assert replay.where(start_b).startswith("round 1 · phase B")
    entry = run(ReplayApp(replay), "down", "down", "down")["entry"]
    assert f"entry {start_b} of 175 · {replay.where(start_b - 1)}" in entry
    assert replay.where(start_b - 1).startswith("round 1 · phase A")
    assert f"the table enters {replay.where(start_b)}" in entry
    entry = run(ReplayApp(replay, start=start_b), "right")["entry"]
    assert f"entry {start_b + 1} of 175 · round 1 · phase B" in entry and "the table enters" not in entry


def test_each_player_s_side_is_one_key_away_at_80x24(replay):
    for k, name in enumerate(replay.nav.players, 1):
        seen = run(ReplayApp(replay, start=100), str(k))
        boards = [line for line in seen["players"].splitlines() if line.startswith("╭─ ")]
        assert len(boards) == 1 and name in boards[0]
        assert all(other not in seen["players"] for other in replay.nav.players if other != name)
    seen = run(ReplayApp(replay, start=100), "2", "v")
    assert all(name in seen["players"] for name in replay.nav.players)  # v: every side again
    assert "1-3 a player" in run(ReplayApp(replay), size=(200, 30))["keys"]


def test_s_shows_the_final_scores_and_the_winner(replay):
    from projections.scores import score_report

    report = score_report(replay.line.final)
    seen = run(ReplayApp(replay, start=replay.nav.last), "s")
    assert "Final scores" in seen["score"] and "Where the points came from" in seen["score"]
    first = report["players"][0]
    assert f"winner: {first['name']} ({first['total']} points)" in seen["score"]
    assert "Provisional scores" in run(ReplayApp(replay, start=60), "s")["score"]
    assert run(ReplayApp(replay, start=60), "s", "s")["score"] == ""


def test_the_change_pane_says_what_the_entry_changed(replay):
    n = next(k for k, e in enumerate(replay.game.events, 1) if isinstance(e, ev.CardBought))
    seen = run(ReplayApp(replay, start=n - 1), "right")
    buyer = replay.game.events[n - 1].actor
    assert f"{buyer}" in seen["changes"] and "C.card" in seen["changes"] and "C.cost" in seen["changes"]
    assert "nothing change" not in seen["changes"]


def test_the_change_pane_has_a_scrollbar_only_while_the_changes_overflow_it(replay):
    """Entry 8's changes overflow the pane at 80x24, entry 9's fit (its scrollbar goes), entry 10's overflow again."""
    seen = [run(ReplayApp(replay, start=8), *["right"] * k)["changes_scrollbar"] for k in range(3)]
    assert seen == [(True, True), (False, False), (True, True)]


def test_the_players_pane_scrolls_at_80x24(replay):
    last_player = replay.nav.players[-1]
    seen = run(ReplayApp(replay, start=replay.nav.last), "v")
    assert last_player in seen["players"] and seen["players_scroll"] == 0
    seen = run(ReplayApp(replay, start=replay.nav.last), "v", "shift+pagedown", "shift+down")
    assert seen["players_scroll"] == 11


def test_corrected_and_withdrawn_entries_are_marked_and_the_line_of_play_hides_them():
    replay = Replay(corrected_and_undone())
    seen = run(ReplayApp(replay, start=16))
    lines = seen["entries"]
    assert "corrected by 19" in lines[15] and "corrected by 21" in lines[15]  # by the replacements, entries 19 and 21
    assert "replaces 16" in lines[18] and "replaces 16" in lines[20]
    assert "withdrawn by 23" in lines[21]
    assert "corrected by 19" in seen["entry"]  # the current entry says so too
    only = run(ReplayApp(replay, start=16), "f")
    numbers = [int(line.split()[0]) for line in only["entries"]]
    assert 16 not in numbers and 19 not in numbers and 22 not in numbers  # replaced twice, replaced, withdrawn
    assert 21 in numbers and 17 in numbers and 18 not in numbers          # the play in force; no history entries
    assert "the line of play only" in only["keys"]
    back = run(ReplayApp(replay, start=16), "f", "f")
    assert len(back["entries"]) == len(replay.game.events)


def test_notes_are_found_by_their_words():
    game = corrected_and_undone()
    game.note(10, "dice knocked over")
    replay = Replay(game)
    seen = run(ReplayApp(replay), *"/knocked", "enter")
    assert "entry 10 of" in seen["entry"] and "note: dice knocked over" in seen["entry"]
    assert "no note or bookmark holds" in run(ReplayApp(replay), *"/zebra", "enter")["keys"]


def test_a_wide_terminal_shows_the_board_and_the_players_side_by_side(replay):
    seen = run(ReplayApp(replay, start=50), size=(220, 50))
    assert "City" in seen["board"] and replay.nav.players[0] in seen["players"]
    narrow = run(ReplayApp(replay, start=50))
    assert narrow["players"] == ""  # at 80 columns the players wait for 'v'


def test_help_lists_the_keys_and_q_quits(replay):
    app = ReplayApp(replay)

    async def go() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.press("question_mark")
            shown = app.pane("help").text
            assert "next entry" in shown and "quit" in shown and "PgUp" in shown
            await pilot.press("escape", "q")
            assert app.return_code == 0 or not app.is_running

    asyncio.run(go())


def test_the_cli_starts_without_textual_or_prompt_toolkit():
    import subprocess
    import sys

    code = "import sys, cli.app; print(sorted(m for m in ('textual', 'prompt_toolkit') if m in sys.modules))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert out.stdout.strip() == "[]", out.stderr  # each is imported by the one command that uses it
