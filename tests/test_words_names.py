"""Names, not ids, in what a person reads, through the installed command.

The move list of every fixture names each component that has a name of its own, and
reads back to the very record; a pilgrim's space is said by the monastery on it, or by
the catalog's name for it, and ``step`` takes those names.
"""

from __future__ import annotations

import os
import re
import subprocess
from pathlib import Path

import orjson
import pytest

from coimbra_events.catalog import find_catalog
from tests.conftest import FIXTURES, installed_coimbra
from tests.test_e2e_flow import Cli

GAMES = sorted((FIXTURES / "games").glob("standin-*.json"))
_NAMED = ("characters", "favor_tiles", "monasteries", "voyages", "scoring_tiles")


@pytest.fixture
def cli(tmp_path: Path) -> Cli:
    return Cli(tmp_path / "store" / "games.sqlite")


def _named_ids(header: dict) -> set[str]:
    """Every id of the log's catalog that has a name no other component of its kind has."""
    catalog = find_catalog(header["catalog"]["id"], header["catalog"]["sha256"])
    ids = {i for table in _NAMED for i in getattr(catalog, table)}
    return ids | {s.id for s in catalog.map.spaces.values() if s.name}


def _spaces_said(line: str) -> list[str]:
    """The map spaces an entry line of a move list says (``step``, ``pilgrim``, ``walk``), of each entry on the line."""
    said: list[str] = []
    for part in line.split(": ", 1)[1].split("; "):
        verb, _, rest = part.partition(" ")
        said += rest.split(", ") if verb == "walk" else [rest] if verb in ("step", "pilgrim") else []
    return said


@pytest.mark.parametrize("fixture", GAMES, ids=[g.stem for g in GAMES])
def test_the_move_list_names_every_named_component_and_reads_back_to_the_same_record(cli: Cli, tmp_path: Path,
                                                                                       fixture: Path) -> None:
    header = orjson.loads(fixture.read_bytes())
    cli("import", str(fixture), "--name", "original")
    text = cli("export", "original", "--format", "text").stdout_text
    entries = [line for line in text.splitlines() if re.match(r"\d+\. ", line)]
    named, words = _named_ids(header), set()
    monastery_spaces: set[str] = set()
    for line in entries:
        words |= set(re.findall(r"[A-Za-z0-9]+(?:-[A-Za-z0-9]+)+", line.split(": ", 1)[1]))
        if " monasteries " in line:
            monastery_spaces = set(re.findall(r"([\w-]+)=", line))
        else:
            assert not set(_spaces_said(line)) & monastery_spaces, line  # said by the monastery laid on it
    assert words & named == set()
    assert any(not re.fullmatch(r"[\w-]+-\w+", space) for line in entries for space in _spaces_said(line))
    (tmp_path / "game.txt").write_text(text)
    cli("import", str(tmp_path / "game.txt"), "--name", "copy", "--copy")  # the same record: stored again only as a copy
    assert cli("export", "copy").stdout == cli("export", "original").stdout


@pytest.fixture
def two_players(cli: Cli) -> Cli:
    cli("import", str(FIXTURES / "games" / "standin-2p-seed1.json"), "--name", "g")
    return cli


def _explained(cli: Cli, seq: int, game: str = "g") -> str:
    return cli("explain", game, "--seq", str(seq)).stdout_text


def test_start_cards_are_dealt_from_the_character_pile(two_players: Cli) -> None:
    text = _explained(two_players, 6)
    assert "Student (c-I-07): character pile I → start group 1" in text and "monastery pile" not in text


def test_a_lion_that_keeps_its_flag_is_no_change(cli: Cli) -> None:
    cli("import", str(FIXTURES / "games" / "standin-3p-seed2.json"), "--name", "g")
    text = _explained(cli, 37)
    assert "Carla's lion" not in text and "Ana's lion: flag 3 → flag 1" in text
    assert not re.search(r"flag (\d) → flag \1\b", text)


def test_a_die_rolled_to_the_face_it_showed_says_so(two_players: Cli) -> None:
    text = _explained(two_players, 99)
    assert "die purple-1: rolled 6 again" in text and "6 → 6" not in text


def test_income_that_gives_pilgrim_steps_says_what_it_gave(two_players: Cli) -> None:
    two_players("fork", "g", "--at", "33", "--name", "f")
    out = two_players("act", "f", "Bruno: income purple-1 purple").stdout_text
    assert "Bruno may move the pilgrim 2 steps" in out and "nothing changes" not in out


def test_a_step_is_said_and_refused_in_the_names_of_the_map(two_players: Cli) -> None:
    two_players("fork", "g", "--at", "34", "--name", "f")
    refused = two_players("act", "f", "Bruno: step celas", code=1).stderr_text
    assert "'Celas (blue-e1)' is not adjacent to the pilgrim's space 'start-w'" in refused
    two_players("act", "f", "Bruno: step start-n")
    out = two_players("act", "f", "Bruno: step cel", code=1).stderr_text  # the start of a name
    assert "refused 'Bruno: step Celas (blue-e1)'" in out


def test_a_correction_says_what_it_does_to_the_recorder(two_players: Cli) -> None:
    two_players("fork", "g", "--at", "16", "--name", "f")
    env = {**os.environ, "NO_COLOR": "1", "COLUMNS": "120", "COIMBRA_DB": str(two_players.db)}
    out = subprocess.run([installed_coimbra(), "record", "f"], input=b"correct 16 Ana: place white-1 upper\nquit\n",
                         capture_output=True, timeout=120, env=env).stdout.decode()
    assert "entry 17: the next entry says what entry 16 should have said" in out
    assert "nothing changes on the table" not in out


def test_diff_says_the_table_in_the_game_s_words(two_players: Cli) -> None:
    two_players("fork", "g", "--at", "34", "--name", "f")
    out = two_players("diff", "g", "f").stdout_text
    assert "crowns taken over the game: 11 → 1" in out and "final place: 2 → not yet (the game is not over)" in out
    assert "influence on the gray track: 8 → 3" in out
    assert not re.search(r"\b[a-z]+_[a-z_]+:", out) and "None" not in out


def test_standin_2_names_every_space_but_the_monasteries_with_the_id_as_alias_and_standin_1_is_unchanged() -> None:
    from coimbra_events.names import Names

    named = find_catalog("standin-2")
    assert find_catalog("standin-1").sha256.startswith("b336186307ee")
    assert all(bool(s.name) == (s.kind != "monastery") for s in named.map.spaces.values())
    names = Names(named, ["Ana"], {"blue-n1": "m-I-01"})
    assert names.resolve("spaces", "north road") == names.resolve("spaces", "road-n") == "road-n"
    assert names.resolve("spaces", "santa cruz") == "blue-n1"
    assert "standin-1" in (FIXTURES / "catalogs" / "standin-2.json").read_text()  # its notes say what it adds


def test_end_game_crowns_are_itemized_where_they_are_counted(two_players: Cli) -> None:
    changes = two_players.json("explain", "g", "--seq", "130")["entry"]["changes"]
    crowns = [c for change in changes for c in change["facts"].get("counted", ()) if c["per"] == "crown"]
    assert crowns and all(c["counted"] == ["1 from f-1", "1 from green crown token", "1 from gray crown token",
                                           "2 from f-2", "2 from f-2", "1 from green crown token"] for c in crowns)
    assert all(sum(int(item.split()[0]) for item in c["counted"]) == c["count"] for c in crowns)
    assert "Royal Purse (f-1), 1 from green crown token" in _explained(two_players, 130)  # named, as the table wraps it


def test_the_replay_page_lists_entries_and_labels_the_map_in_names(two_players: Cli, tmp_path: Path) -> None:
    two_players("export", "g", "--format", "html", "-o", str(tmp_path / "g.html"))
    page = (tmp_path / "g.html").read_text()
    for said in ("Bruno: tile Royal Purse", "Bruno: step Celas", "table: groups Student+Tutor, Novice+Town Sergeant"):
        assert f'"said":"{said}"' in page
    assert '"said":"Ana: buy c-II-' not in page
    assert '{"id":"road-n","kind":"road","name":"road-n"' in page  # standin-1 names no road: its id is its name
    assert "text(x, y + 12, s.name" in page  # every space that holds no monastery is labelled on the map


def test_explain_heads_an_entry_in_words_with_its_components_named(two_players: Cli) -> None:
    text = _explained(two_players, 92)
    assert "g · entry 92 of 130 · pilgrim stepped" in text and "Bruno: step Celas (blue-e1)" in text
    assert "PilgrimStepped" not in text.splitlines()[0]


def test_explain_and_a_refusal_say_the_kinds_of_entry_in_words(two_players: Cli) -> None:
    """The rules' facts name kinds of entry (``IncomeActivated``): what a person reads says them in words."""
    text = _explained(two_players, 34)
    assert "accepted=income activated, points exchanged, income ended" in text
    assert not re.search(r"[a-z][A-Z]", text), [line for line in text.splitlines() if re.search(r"[a-z][A-Z]", line)]
    two_players("fork", "g", "--at", "33", "--name", "f")
    refused = two_players("act", "f", "step road-w", code=1).stderr_text
    assert "must answer income now (income activated, points exchanged, income ended), not pilgrim stepped" in refused
    assert two_players.json("explain", "g", "--seq", "34")["entry"]["play"]["rules"][2]["facts"]["event"] == "IncomeActivated"


def test_a_new_game_says_every_space_by_name_in_the_move_list_and_the_league(cli: Cli, tmp_path: Path) -> None:
    """A game started without --catalog is on the named map (standin-2): no space is said by its id."""
    cli("simulate", "--players", "2", "--seed", "5", "-o", str(tmp_path / "g.json"))
    assert orjson.loads((tmp_path / "g.json").read_bytes())["catalog"]["id"] == "standin-2"
    cli("import", str(tmp_path / "g.json"), "--name", "g")
    text = cli("export", "g", "--format", "text").stdout_text
    spaces = [space for line in text.splitlines() if re.match(r"\d+\. ", line) for space in _spaces_said(line)]
    assert spaces and "North Gate" in spaces and not [s for s in spaces if re.fullmatch(r"[\w]+-[\w]+", s)]
    (tmp_path / "g.txt").write_text(text)
    cli("import", str(tmp_path / "g.txt"), "--name", "copy", "--copy")  # the same record: stored again only as a copy
    assert cli("export", "copy").stdout == cli("export", "g").stdout
    assert "West Gate" in cli("league", "player", "Ana").stdout_text


def test_a_new_game_is_on_the_named_map_and_a_record_keeps_its_catalog(cli: Cli, two_players: Cli) -> None:
    """``new`` starts on standin-2: the pilgrim's first steps are offered by the spaces' names; the imported
    fixture stays on standin-1, its road spaces said by their ids."""
    cli("new", "--players", "Ana:red,Bruno:blue", "--seed", "1", "--name", "fresh")
    assert orjson.loads(cli("export", "fresh").stdout)["catalog"]["id"] == "standin-2"
    assert cli.json("show", "fresh")["legend"]["spaces"]["road-n"] == "North Road"
    assert "pilgrim North Gate" in cli("legal", "fresh").stdout_text
    assert orjson.loads(cli("export", "g").stdout)["catalog"]["id"] == "standin-1"
    cli("new", "--players", "Ana:red,Bruno:blue", "--name", "old", "--catalog", str(FIXTURES / "catalogs" / "standin.json"))
    assert orjson.loads(cli("export", "old").stdout)["catalog"]["id"] == "standin-1"  # when asked for


def test_a_walk_with_two_routes_asks_in_the_names_of_the_spaces_and_monasteries(cli: Cli, tmp_path: Path) -> None:
    """A new game (the fixture's seed, on the named map) where Bruno's pilgrim may walk: to West Coast Road two
    routes pass different monasteries, and the question names every space as the table does."""
    cli("simulate", "--players", "Ana,Bruno", "--seed", "1", "-o", str(tmp_path / "g.json"))
    cli("import", str(tmp_path / "g.json"), "--name", "g")
    cli("fork", "g", "--at", "34", "--name", "f")
    asked = cli("act", "f", "walk West Coast Road", code=2).stderr_text
    assert ("two routes to West Coast Road pass different monasteries: write 'walk West Road, Grijó, Southwest Crossing, "
            "Southwest Way, Salzedas, West Coast Road' or 'walk West Road, Arouca, Northwest Crossing") in asked
    assert not re.search(r"\b(road|cross|way|coast|blue|brown)-\w+", asked), asked
    cli("act", "f", "walk West Road, Arouca")  # the spaces read as the question says them (his 2 steps)
    assert "Bruno: step Arouca" in cli("show", "f").stdout_text


def test_the_recorder_takes_a_step_by_name_and_refuses_it_in_names(two_players: Cli) -> None:
    two_players("fork", "g", "--at", "34", "--name", "f")
    env = {**os.environ, "NO_COLOR": "1", "COLUMNS": "160", "COIMBRA_DB": str(two_players.db)}
    out = subprocess.run([installed_coimbra(), "record", "f"], input=b"step celas\nquit\n",
                         capture_output=True, timeout=120, env=env).stdout.decode()
    assert ("refused 'Bruno: step Celas (blue-e1)': rule PILGRIM.adjacent: 'Celas (blue-e1)' is not adjacent to the "
            "pilgrim's space 'start-w'") in out
    assert "facts: from start-w; to Celas (blue-e1); adjacent road-w, start-n, start-s" in out


def test_catalog_show_says_what_the_spaces_are_called(cli: Cli) -> None:
    shown = cli("catalog", "show", "--file", str(FIXTURES / "catalogs" / "standin-2.json")).stdout_text
    assert "space names" in shown and "North Gate (start-n)" in shown
    assert cli("catalog", "show").stdout_text == shown  # the catalog new games start with
    assert "space names" not in cli("catalog", "show", "--file", str(FIXTURES / "catalogs" / "standin.json")).stdout_text


def test_show_names_the_pilgrims_spaces(two_players: Cli) -> None:
    shown = two_players("show", "g", "--at", "92").stdout_text
    assert "event 92 of 130: Bruno: step Celas (blue-e1)" in shown and "Celas (blue-e1)" in shown.split("event 92")[1]
    assert two_players.json("show", "g", "--at", "92")["legend"]["spaces"] == {}  # standin-1 names no other space


def test_explain_says_what_an_entry_that_moves_nothing_gave(two_players: Cli) -> None:
    assert "Bruno may move the pilgrim 2 steps" in _explained(two_players, 34)
    assert two_players.json("explain", "g", "--seq", "34")["entry"]["unchanged"] == "Bruno may move the pilgrim 2 steps"
    assert two_players.json("explain", "g", "--seq", "35")["entry"]["unchanged"] is None  # the step moves the pilgrim


def test_the_replayer_says_what_an_entry_that_moves_nothing_gave() -> None:
    from rich.console import Console

    from cli.replay_views import Replay
    from coimbra_events.store.sources import game_from_file

    console = Console(width=100, record=True, color_system=None)
    console.print(Replay(game_from_file(FIXTURES / "games" / "standin-2p-seed1.json")).change_list(34))
    assert "Bruno may move the pilgrim 2 steps" in console.export_text()
