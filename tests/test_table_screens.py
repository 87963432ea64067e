"""End to end through the installed ``coimbra``: names in and out, every holding shown, options that say what
they are, and the small faults a new user met, each driven as a user would.

The 2-player fixture game is the table: a log cut after entry ``k`` is the
game as it stood before entry ``k + 1``.
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import orjson

from cli.record_words import COMMAND_WORDS
from coimbra_events import events as ev
from coimbra_events import log as game_log, log_reader
from coimbra_events.catalog import standin_catalog
from coimbra_events.log import GameLog
from coimbra_events.names import FIELDS, fold
from coimbra_events.notation import render
from projections.naming import name_of, named
from projections.options import options
from projections.recording import names_of
from projections.timeline import timeline
from tests.conftest import FIXTURES, installed_coimbra
from tests.test_record import EVENTS, LOG, STATES, bare

CATALOG = standin_catalog()


def run(*args: str, stdin: str | None = None, db: Path | None = None) -> subprocess.CompletedProcess:
    env = {**os.environ, "NO_COLOR": "1", "COLUMNS": "140", **({"COIMBRA_DB": str(db)} if db else {})}
    out = subprocess.run([installed_coimbra(), *args], input=stdin, capture_output=True, text=True, timeout=300, env=env)
    assert "Traceback" not in out.stderr + out.stdout, out.stderr
    return out


def cut(tmp_path: Path, entries: int, name: str = "game") -> Path:
    """The fixture's first ``entries`` entries as a log file."""
    path = tmp_path / f"{name}-{entries}.json"
    game_log.write(path, GameLog(LOG.catalog_id, LOG.catalog_sha256, LOG.players, EVENTS[:entries], LOG.ruleset, {}))
    return path


def stored(tmp_path: Path, entries: int) -> Path:
    """A store holding the fixture's first ``entries`` entries as the game ``ana-bruno``."""
    db = tmp_path / "games.sqlite"
    assert run("import", str(cut(tmp_path, entries)), "--name", "ana-bruno", db=db).returncode == 0
    return db


# --- names in -----------------------------------------------------------------------------------------


def name_start(kind, ident: str) -> str:
    """The shortest start of a component's name (any case) that fits it alone."""
    name = next(e.name for e in kind.entries if e.ident == ident)
    for n in range(1, len(name) + 1):
        if name[n - 1] != " " and sum(fold(e.name).startswith(fold(name[:n])) or fold(e.ident).startswith(fold(name[:n]))
                                      for e in kind.entries) == 1:
            return name[:n].lower()
    return name


def setup_by_name(k: int) -> str:
    event, state = EVENTS[k - 1], STATES[k - 1]
    fields = FIELDS.get(event.TYPE)
    if not fields:
        return bare(event)
    kind = names_of(state).kinds[next(iter(fields.values()))]
    if isinstance(event, ev.MonasteriesDrawn):
        return "monasteries " + " ".join(f"{s}={name_start(kind, m)}" for s, m in event.placement)
    if isinstance(event, ev.ScoringTilesPlaced):
        return "scoring " + " ".join(f"{t}={next(e.name for e in kind.entries if e.ident == i)}" for t, i in event.tiles)
    if isinstance(event, ev.VoyagesDrawn):
        return "voyages " + ", ".join(name_start(kind, v) for v in event.voyages)
    if isinstance(event, ev.SeatingDrawn):
        return "seating " + ",".join(p.lower() for p in event.order)
    if isinstance(event, ev.CharacterRowsDealt):
        return "rows " + " ".join(f"{c}=" + ", ".join(name_start(kind, x) for x in cards) for c, cards in event.rows)
    if isinstance(event, ev.StartGroupsDealt):
        return "groups " + ", ".join(" + ".join(name_start(kind, c) for c in g) for g in event.groups)
    return bare(event)


def decision_by_name(k: int) -> str:
    """A decision typed as the shortest start of the option as listed by name (never a number, never a command)."""
    event, state = EVENTS[k - 1], STATES[k - 1]
    listed = options(state)
    text = next(o.text for o in listed if o.event == event)
    for n in range(1, len(text) + 1):
        start = fold(text[:n])
        if text[n - 1] == " " or start.isdigit() or start in COMMAND_WORDS or start in ("q", "r", "?"):
            continue
        if sum(fold(o.text).startswith(start) or fold(o.notation).startswith(start) for o in listed) == 1:
            return text[:n]
    return text


def test_a_hand_setup_and_a_round_entered_by_names_and_prefixes(tmp_path: Path):
    round_two = timeline(GameLog(LOG.catalog_id, LOG.catalog_sha256, LOG.players, EVENTS, LOG.ruleset, {}))
    end = next(k for k, s in enumerate(round_two.states) if s.round == 2)
    lines = ["Ana red", "Bruno blue", ""] + [
        setup_by_name(k) if k <= 6 else decision_by_name(k) if EVENTS[k - 1].actor != "table" else bare(EVENTS[k - 1])
        for k in range(1, end + 1)]
    assert any(" c-" not in line and line.startswith("rows ") for line in lines)  # the rows by name, no id typed
    db = tmp_path / "games.sqlite"
    out = run("record", stdin="\n".join(lines) + "\n", db=db)
    assert out.returncode == 0, out.stdout[-3000:]
    assert f"{end} entries stored" in out.stdout
    exported = log_reader.loads(run("export", "ana-bruno", db=db).stdout.encode())
    assert exported.events == EVENTS[:end]  # the log keeps ids


def test_an_unknown_name_is_bad_input_and_a_card_not_in_the_row_breaks_a_rule(tmp_path: Path):
    chaplain = EVENTS[24]  # Ana buys Chaplain (c-II-18) from the lower row
    assert chaplain == ev.CardBought("Ana", "c-II-18")
    out = run("act", str(cut(tmp_path, 24)), "buy chaplain")
    assert out.returncode == 0, out.stderr
    assert f"recorded 25: Ana: buy {named(CATALOG, 'c-II-18')}" in out.stdout
    assert log_reader.read(tmp_path / "game-24.json").events[24] == chaplain

    unknown = run("act", str(cut(tmp_path, 24, "b")), "buy c-II-99")
    assert unknown.returncode == 2
    assert "no character card is called 'c-II-99'; did you mean" in unknown.stderr
    typo = run("act", str(cut(tmp_path, 24, "c")), "buy Chaplin")
    assert typo.returncode == 2 and f"did you mean {named(CATALOG, 'c-II-18')}" in typo.stderr

    elsewhere = run("act", str(cut(tmp_path, 24, "d")), "buy Law Student")  # c-II-24: a real card, not in the row
    assert elsewhere.returncode == 1
    assert f"rule C.card: card '{named(CATALOG, 'c-II-24')}' is not in the row beside the lower city" in elsewhere.stderr


def test_seating_and_other_names_are_read_in_any_case(tmp_path: Path):
    out = run("act", str(cut(tmp_path, 3)), "seating bruno,ana")
    assert out.returncode == 0, out.stderr
    assert log_reader.read(tmp_path / "game-3.json").events[3] == ev.SeatingDrawn("table", ("Bruno", "Ana"))


# --- what the recorder reads ----------------------------------------------------------------------------


def test_alt_with_one_amount_means_the_other_is_zero(tmp_path: Path):
    db = stored(tmp_path, 48)  # Ana retrieves gray-1 from the upper city
    out = run("record", "ana-bruno", stdin="alt 2c\n", db=db)
    assert "recorded 49: Ana: alt 2c 0g" in out.stdout and "options start with" not in out.stdout


def test_a_fifth_player_is_refused_at_once_not_read_later(tmp_path: Path):
    lines = ["Ana red", "Bruno blue", "Carla green", "Duda yellow", "Eva black", ""]
    out = run("record", stdin="\n".join(lines) + "\n", db=tmp_path / "g.sqlite")
    assert "4 players is the most Coimbra seats: 'Eva black' is not added" in out.stdout
    assert "new game ana-bruno-carla-duda" in out.stdout and "unknown verb" not in out.stdout


def test_the_dice_are_echoed_in_the_order_typed(tmp_path: Path):
    db = stored(tmp_path, 13)
    out = run("record", "ana-bruno", stdin="4 5 6 1 4 2 4\n", db=db)
    assert "recorded 14: table: roll gray-1=4 gray-2=5 green-1=6 orange-1=1 orange-2=4 purple-1=2 white-1=4" in out.stdout


def test_a_typo_gets_did_you_mean_and_the_recorder_commands(tmp_path: Path):
    db = stored(tmp_path, 14)
    out = run("record", "ana-bruno", stdin="plce gray-1 castle\n", db=db)
    assert "unknown verb 'plce' (did you mean 'place'?)" in out.stdout
    assert "undo, correct, accept, note" in out.stdout
    act = run("act", str(cut(tmp_path, 14)), "plce gray-1 castle")
    assert act.returncode == 2 and "did you mean 'place'?" in act.stderr


# --- what is shown --------------------------------------------------------------------------------------


def test_show_lists_every_holding_and_json_carries_it(tmp_path: Path):
    game = str(FIXTURES / "games" / "standin-2p-seed1.json")
    out = run("show", game, "--at", "30")
    for words in ("flag 1 · Ana (red)", "phase E cards", "Tax Collector (c-II-09)", "crown tokens", "favor tiles",
                  "Royal Purse (f-1)", "shutter", "white-1 4 ✓", "Cape Verde (v-05)"):
        assert words in out.stdout, words
    view = orjson.loads(run("show", game, "--at", "30", "--json").stdout)
    ana = view["players"][0]["holdings"]
    assert [c["name"] for c in ana["cards"]["phase_e"]] == ["Tax Collector"]
    assert [(d["die"], d["used"]) for d in ana["shutter"]] == [("orange-2", False), ("white-1", True), ("gray-1", True)]
    assert set(ana) == {"cards", "favor_tiles", "extra_die", "crown_tokens", "monasteries", "voyages", "shutter"}
    tokens = orjson.loads(run("show", game, "--at", "23", "--json").stdout)["locations"]["central"]
    assert [d.get("face_up") for d in tokens if d["owner"] is None] == [False, True]  # the first, left of white-1, is done
    assert "4 token, face down" in run("show", game, "--at", "23").stdout


def test_options_say_what_they_are_numbered_as_the_recorder_numbers_them(tmp_path: Path):
    draft = run("legal", str(cut(tmp_path, 14)))
    assert "place gray-1 castle" in draft.stdout and "gray die showing 4" in draft.stdout
    buy = run("legal", str(cut(tmp_path, 24, "buy")), "--json")
    described = orjson.loads(buy.stdout)["described"]
    chaplain = next(o for o in described if o["notation"] == "Ana: buy c-II-18")
    assert chaplain["typed"] == f"buy {named(CATALOG, 'c-II-18')}"  # what record reads
    assert chaplain["text"] == f"buy {name_of(CATALOG, 'c-II-18')}"  # what the page says
    assert "purple, costs 4 guards at this die, +1 purple influence, bonus at once" in chaplain["about"]
    groups = run("legal", str(cut(tmp_path, 6, "groups"))).stdout
    assert f"{name_of(CATALOG, 'c-I-07')} + {name_of(CATALOG, 'c-I-08')}" in groups
    income = run("legal", str(cut(tmp_path, 27, "income"))).stdout
    assert "income white-1 gray" in income and "pays +3 guards" in income
    voyage = run("legal", str(cut(tmp_path, 37, "voyage"))).stdout
    assert "costs 2 guards" in voyage
    db = stored(tmp_path, 24)
    listed = run("record", "ana-bruno", stdin="legal\n", db=db).stdout
    k = next(o["number"] for o in described if o["notation"] == "Ana: buy c-II-18")
    assert f"{k}  buy {named(CATALOG, 'c-II-18')}" in listed


def test_show_phase_d_says_the_rules_ran_it_at_once():
    game = str(FIXTURES / "games" / "standin-2p-seed1.json")
    alone = run("show", game, "--phase", "D")
    assert alone.returncode == 0, alone.stderr
    assert "phase D: new player order waits for nobody" in alone.stdout
    with_round = run("show", game, "--round", "1", "--phase", "D", "--json")
    assert "waits for nobody" in orjson.loads(with_round.stdout)["note"]


def test_no_python_repr_reaches_the_output(tmp_path: Path):
    validate = run("validate", str(FIXTURES / "invalid" / "card-not-in-row.json"))
    assert validate.returncode == 1 and "['" not in validate.stdout and "row " in validate.stdout
    catalog = run("catalog", "show")
    assert "('" not in catalog.stdout and "rosette" in catalog.stdout
    db = stored(tmp_path, 14)
    assert run("fork", "ana-bruno", "--at", "13", "--name", "other", db=db).returncode == 0
    diff = run("diff", "ana-bruno", "other", db=db)
    assert diff.returncode == 0 and "{'" not in diff.stdout and "pending" in diff.stdout


def test_json_flags_take_no_value_and_help_says_so():
    for command in ("show", "legal", "score", "catalog"):
        args = [command, "show", "--help"] if command == "catalog" else [command, "--help"]
        help_text = run(*args).stdout
        line = next(line for line in help_text.splitlines() if "--json" in line and "│" in line)
        assert "<bool>" not in line, line


def test_one_player_is_one_player(tmp_path: Path):
    out = run("new", "--players", "Ana:red", db=tmp_path / "g.sqlite")
    assert out.returncode == 2 and "1 player;" in out.stderr and "1 players" not in out.stderr


def test_a_mistyped_game_name_gets_a_suggestion(tmp_path: Path):
    db = stored(tmp_path, 10)
    out = run("show", "ana-brun", db=db)
    assert out.returncode == 2 and "did you mean 'ana-bruno'?" in out.stderr


def test_replay_marks_corrected_and_withdrawn_entries_and_prints_the_latest_when_piped(tmp_path: Path):
    path = cut(tmp_path, 17)
    assert run("correct", str(path), "--seq", "14", bare(EVENTS[13])).returncode == 0, "a correction to the same roll"
    assert run("act", str(path), bare(EVENTS[17])).returncode == 0
    assert run("undo", str(path)).returncode == 0  # withdraws entry 20
    frame = run("replay", str(path)).stdout
    assert "entry 21 of 21" in frame  # the latest entry, not entry 0
    marked = run("replay", str(path), "--at", "14").stdout
    assert "corrected by 19" in marked  # by the replacement (entry 18 says "correct 14")
    assert "withdrawn by 21" in run("replay", str(path), "--at", "20").stdout


def test_the_replay_path_imports_nothing_posix_only():
    import ast

    for module in ("cli/replay_command.py", "cli/replay_app.py", "cli/replay_views.py"):
        tree = ast.parse((Path(__file__).resolve().parent.parent / module).read_text())
        imported = {a.name.split(".")[0] for node in ast.walk(tree) if isinstance(node, ast.Import) for a in node.names}
        imported |= {node.module.split(".")[0] for node in ast.walk(tree) if isinstance(node, ast.ImportFrom) and node.module}
        assert not imported & {"termios", "tty", "fcntl", "select", "pty", "curses"}, module


def test_notation_render_is_unchanged_by_names():
    assert render(EVENTS[24]) == "Ana: buy c-II-18"  # names are for people; the log and --json keep ids
