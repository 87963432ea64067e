"""``coimbra record`` at a terminal (prompt_toolkit): a whole game typed with Tab completion, read through a pipe.

prompt_toolkit's pipe input stands in for the keyboard: every player decision
is typed as the shortest start that only one legal option has, then Tab (which
completes it to the option, by name or by id) and Enter; the setup is typed by
name, each name cut short and completed with Tab. The stored game must export
to exactly the fixture's bytes, and the toolbar must say who acts and what is due.
"""

from __future__ import annotations

import io
from pathlib import Path

from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput
from rich.console import Console

from cli.record_command import record_session
from cli.record_completion import completions
from cli.record_prompt import PromptIo
from coimbra_events import events as ev
from coimbra_events import log as game_log
from coimbra_events.service import Games
from coimbra_events.store.game_store import GameStore
from coimbra_events.log import GameLog
from coimbra_events.names import FIELDS, fold
from projections.options import options
from projections.recording import names_of
from tests.test_record import EVENTS, LOG, NAME, NEW, STATES, bare

TAB, ENTER = "\t", "\r"


def shortest(kind, ident: str) -> str:
    """The shortest start of a component's name that no other component of its kind has."""
    name = next(e.name for e in kind.entries if e.ident == ident)
    for n in range(1, len(name) + 1):
        start = fold(name[:n])
        if name[n - 1:n] != " " and sum(fold(e.name).startswith(start) or fold(e.ident).startswith(start)
                                        for e in kind.entries) == 1:
            return name[:n]
    return name


def by_name(k: int) -> str:
    """A setup outcome typed by name: every name cut to its shortest start, then Tab."""
    event, state = EVENTS[k - 1], STATES[k - 1]
    kind = names_of(state).kinds[next(iter(FIELDS[event.TYPE].values()))]
    if isinstance(event, ev.MonasteriesDrawn):
        return "monasteries " + " ".join(f"{space}={shortest(kind, m)}{TAB}" for space, m in event.placement)
    if isinstance(event, ev.VoyagesDrawn):
        return "voyages " + ",".join(f"{shortest(kind, v)}{TAB}" for v in event.voyages)
    if isinstance(event, ev.CharacterRowsDealt):
        return "rows " + " ".join(f"{city}=" + ",".join(f"{shortest(kind, c)}{TAB}" for c in cards)
                                  for city, cards in event.rows)
    return bare(event)


def typed(k: int) -> str:
    """Keys for fixture event ``k``: setup by name, other table outcomes in notation, decisions by a start and Tab."""
    event, state = EVENTS[k - 1], STATES[k - 1]
    if event.actor == "table":
        return (by_name(k) if k <= 6 else bare(event)) + ENTER
    return tab_start(bare(event), state) + TAB + ENTER


def tab_start(text: str, state) -> str:
    """The shortest start of an option that Tab completes to it alone (no other option, no command)."""
    for n in range(1, len(text) + 1):
        found = completions(state, text[:n])
        if len(found) == 1 and found[0].text in {o.text for o in options(state) if o.notation == text} | {text}:
            return text[:n]
    return text  # no start is its alone (``group 2`` beside ``group 1``): typed whole, Tab adds nothing


def test_a_whole_game_with_tab_completion_stores_the_fixture_byte_for_byte(tmp_path: Path):
    store = GameStore(tmp_path / "games.sqlite")
    toolbars: list[str] = []
    read: list[str] = []

    class Watched(PromptIo):
        def ask(self, prompt, state=None, entries=0):
            try:
                line = super().ask(prompt, state, entries)
                read.append(line)
                return line
            finally:
                toolbars.append(self.toolbar)

    keys = "".join(line + ENTER for line in ("Ana red", "Bruno blue", "")) + "".join(typed(k) for k in range(1, len(EVENTS) + 1))
    out = io.StringIO()
    with create_pipe_input() as pipe:
        pipe.send_text(keys)
        code = record_session(Games(store), Watched(Console(file=out, width=120), input=pipe, output=DummyOutput()))
    assert code == 0, out.getvalue()[-2000:]
    expected = game_log.dumps(GameLog(NEW.id, NEW.sha256, LOG.players, EVENTS, LOG.ruleset, {}))
    assert game_log.dumps(store.export(NAME)) == expected
    assert "the game is over" in out.getvalue()
    # Tab completed every start typed: the recorder read whole options and whole names
    lines = read[3:]
    for k, (event, state, line) in enumerate(zip(EVENTS, STATES, lines), 1):
        if event.actor != "table":
            assert line in {o.text for o in options(state)} | {o.notation for o in options(state)}, (k, line)
    assert "blue-e1=Celas " in lines[0] and "Cloth Merchant," in lines[4]
    assert toolbars[3].startswith("table: setup 1 of 6: draw the monastery tiles") and "entry 1" in toolbars[3]
    assert any(t.startswith("Bruno: take a die from the dice area") and "round 1 · phase B" in t for t in toolbars)
    assert any(t.startswith("Ana: collect income") and "phase E" in t for t in toolbars)
    store.close()


def test_after_a_semicolon_tab_completes_the_next_entry_of_the_turn_on_the_table_the_ones_before_leave():
    """Bruno's income (entries 33-37): after 'income orange-1;' the options left are purple-1 and gray-2; after his
    purple-1 income, his pilgrim's steps; after an entry that does not read or is illegal, nothing."""
    table = STATES[32]
    offered = {c.text for c in completions(table, "income orange-1; inc")}
    assert offered == {"income purple-1 purple", "income gray-2 gray"}
    assert "step North Gate (start-n)" in {c.text for c in completions(table, "income orange-1; income purple-1; st")}
    assert completions(table, "income orange-1; income orange-1; inc") == []
    assert completions(table, "incme orange-1; inc") == []
