"""Learn from your mistakes: a player's mistakes and blunders walked as puzzles, on the replay page and on the page
``coimbra league mistakes NAME`` makes from every analysed game of that person.

A club's store holds the 2-player fixture (Ana and Bruno), analysed by the real engine with very few playouts into
a cache folder of its own (``COIMBRA_ANALYSES``: its grades are noise, but they are the analysis's), and a simulated
game of Anabela and Carla that is not analysed; Anabela is an alias of Ana. The installed ``coimbra`` writes both
pages; Debian's Chromium walks every puzzle, by tap and by keyboard, at a phone's size and a laptop's, and checks
the table shown, the grade told and the best option against the page's data and the analysis; axe-core finds no
violation.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path
from typing import Any, Iterator

import orjson
import pytest

from coimbra_events import log as game_log, log_reader
from coimbra_events.analysis.grades import THRESHOLDS, grade
from coimbra_events.catalog import standin_catalog
from projections.analysis import Settings, analysis_for
from projections.mistakes import LEARNED
from tests.browser_kit import axe_violations, chromium
from tests.conftest import FIXTURES, ROOT, installed_coimbra
from tests.store.league.conftest import process_env
from tests.store.league.games import simulated

FEWEST = Settings(playouts=2, first_pass=2, candidates=1, rivals=1, settle=4, batch=2, luck=4)
"""A whole game analysed in about half a minute of one core: grades of noise, but every grade there is."""
PHONE = {"width": 390, "height": 844}
LAPTOP = {"width": 1280, "height": 800}
ALSO = ("label-content-name-mismatch",)
IDS = re.compile(r"\b(?:c-[IVX]+-\d+|f-\d+|(?:gray|green|orange|purple|white|black)-\d+)\b")
"""The ids of the stand-in catalog's cards, favor tiles and dice: never what a puzzle's option says."""
LEAGUE_DOC = (ROOT / "docs" / "league.md").read_text(encoding="utf-8")


def test_the_puzzles_are_the_grades_the_docs_name():
    assert LEARNED == ("mistake", "blunder") and dict((name, at) for at, name in THRESHOLDS)["mistake"] == 10.0
    assert "graded a **mistake or a blunder** (10 points of winning chances lost or more)" in LEAGUE_DOC


def run(env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    out = subprocess.run([installed_coimbra(), *args], capture_output=True, text=True, timeout=180, env=env)
    assert "Traceback" not in out.stderr, out.stderr
    return out


@pytest.fixture(scope="module")
def club(tmp_path_factory: pytest.TempPathFactory) -> tuple[dict[str, str], Path, dict[str, Any]]:
    """The store's environment, its folder, and the fixture game's analysis (kept where the command looks)."""
    folder = tmp_path_factory.mktemp("club")
    env = {**process_env({}), "COIMBRA_DB": str(folder / "club.sqlite"), "COIMBRA_ANALYSES": str(folder / "analyses")}
    fixture = FIXTURES / "games" / "standin-2p-seed1.json"
    report = analysis_for(log_reader.read(fixture), standin_catalog(), FEWEST, cache_dir=folder / "analyses", jobs=1)
    game_log.write(folder / "sim.json", simulated(("Anabela", "Carla"), 7))
    for source, name in ((fixture, "g1"), (folder / "sim.json", "sim")):
        assert run(env, "import", str(source), "--name", name).returncode == 0
    assert run(env, "player", "alias", "Anabela", "Ana").returncode == 0
    return env, folder, report


def page_data(html: Path) -> dict[str, Any]:
    found = re.search(r'<script type="application/json" id="coimbra-data">(.*?)</script>', html.read_text(), re.S)
    assert found
    return orjson.loads(found.group(1))


def mistakes_of(report: dict[str, Any], player: str) -> list[dict[str, Any]]:
    return [d for d in report["decisions"] if d["player"] == player and d["grade"] in LEARNED]


@pytest.fixture(scope="module")
def league_page(club: tuple[dict[str, str], Path, dict[str, Any]]) -> tuple[Path, subprocess.CompletedProcess[str]]:
    env, folder, _ = club
    html = folder / "ana.html"
    return html, run(env, "league", "mistakes", "anabela", "--out", str(html))


def test_league_mistakes_makes_one_page_of_a_person_s_mistakes_from_their_analysed_games(club, league_page):
    _, _, report = club
    html, out = league_page
    assert out.returncode == 0, out.stderr
    mine = mistakes_of(report, "Ana")
    assert out.stderr.strip() == f"wrote {html}: Ana's mistakes and blunders ({len(mine)}) from the analysed games g1; not analysed: sim"
    said = re.compile(r"wrote \S+: \w+'s mistakes and blunders \(\d+\) from the analysed games \S+; not analysed: \S+")
    assert said.search(LEAGUE_DOC)  # the docs' example is the line the command writes
    data = page_data(html)
    assert data["player"] == "Ana" and data["not_analysed"] == ["sim"]  # Anabela's game is Ana's: an alias
    assert [g["game"] for g in data["games"]] == ["g1"]
    asked = run(club[0], "league", "mistakes", "Ana", "--json")
    assert asked.returncode == 0 and orjson.loads(asked.stdout) == data  # --json: the page's data
    assert [(p["seq"], p["grade"]) for p in data["puzzles"]] == [(d["seq"], d["grade"]) for d in mine]
    for puzzle, decision in zip(data["puzzles"], mine):
        assert puzzle["player"] == "Ana" and puzzle["before"]["pending"]["actor"] == "Ana"
        assert len(puzzle["options"]) == decision["options_total"]  # every legal option, valued by the analysis
        assert [o["played"] for o in puzzle["options"]].count(True) == 1
        assert [o["best"] for o in puzzle["options"]].count(True) == 1
        assert sorted(o["win"] for o in puzzle["options"]) == sorted(o["win"] for o in decision["options"])
        for option in puzzle["options"]:
            assert not IDS.search(option["words"]), option["words"]
            assert option["grade"] == (decision["grade"] if option["played"] else grade(option["loss"]))


def test_league_mistakes_says_in_one_line_when_there_is_nothing_to_show(club):
    env, folder, _ = club
    html = folder / "carla.html"
    out = run(env, "league", "mistakes", "carla", "--out", str(html))
    refused = "error: no game of Carla in the league is analysed yet ({}): coimbra analyse GAME analyses one (minutes each)"
    assert (out.returncode, out.stderr.strip()) == (2, refused.format("not analysed: sim"))
    doc = refused.format("not analysed: club-02")
    assert f"one line and exit 2: no game of the person is analysed yet\n  (`{doc}`)" in LEAGUE_DOC
    assert not html.exists()
    graded = folder / "graded-best"  # the same analysis, but every decision of it graded best
    shutil.copytree(folder / "analyses", graded)
    for kept in graded.glob("*.json"):
        report = orjson.loads(kept.read_bytes())
        report["decisions"] = [{**d, "grade": "best"} for d in report["decisions"]]
        kept.write_bytes(orjson.dumps(report))
    out = run({**env, "COIMBRA_ANALYSES": str(graded)}, "league", "mistakes", "Ana", "--out", str(html))
    assert (out.returncode, out.stderr.strip()) == (
        2, "error: Ana made no mistake or blunder in the analysed games (g1; not analysed: sim)")
    assert not html.exists()
    out = run(env, "league", "mistakes", "Anna")
    assert out.returncode == 2 and out.stderr.count("\n") == 1 and "did you mean 'Ana'?" in out.stderr


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    yield from chromium()


@pytest.fixture
def tab(browser: Any) -> Iterator[Any]:
    page = browser.new_page(viewport=PHONE)
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    requests: list[str] = []
    page.on("request", lambda r: requests.append(r.url))
    yield page
    page.close()
    assert errors == []
    assert all(url.startswith("file:") for url in requests), requests  # one file: nothing fetched


# The table a page shows, and the puzzle it poses, read from its DOM.
READER = """() => {
  const q = (sel, root) => Array.from((root || document).querySelectorAll(sel));
  const title = document.getElementById("learn-title");
  return {
    puzzle: Number(title.dataset.puzzle), puzzles: Number(title.dataset.puzzles),
    seq: Number(document.querySelector("#learn .where").dataset.seq),
    options: q("#learn .options button").map((b) => b.querySelector(".words").textContent),
    locations: Object.fromEntries(q("#city [data-location]")
      .map((g) => [g.dataset.location, q("[data-die]", g).map((d) => d.dataset.die)])),
    pool: q("#dice [data-pool-die]").map((d) => d.dataset.poolDie),
    points: Object.fromEntries(q("#tracks [data-score]").map((g) => [g.dataset.score, Number(g.dataset.points)])),
    focused: document.activeElement.id || document.activeElement.className,
  };
}"""


def shown(page: Any) -> dict[str, Any]:
    return orjson.loads(page.evaluate(f"() => JSON.stringify(({READER})())"))


def table_of(view: dict[str, Any]) -> dict[str, Any]:
    """What ``READER`` reads of a board view's table."""
    return {"locations": {loc: [d["die"] for d in dice] for loc, dice in view["locations"].items()},
            "pool": [d["die"] for d in view["dice_area"]], "points": {p["name"]: p["points"] for p in view["players"]}}


def told(page: Any) -> dict[str, Any]:
    """What the page told of the pick: its grade, the best option's line, what was played, and each option's mark."""
    return page.evaluate("""() => ({
      picked: document.querySelector("#learn [data-picked-grade]").dataset.pickedGrade,
      best: (document.querySelector("#learn [data-best]") || {}).textContent || null,
      played: document.querySelector("#learn [data-played]").textContent,
      marks: Array.from(document.querySelectorAll("#learn .options li")).map((li) => li.dataset.grade),
      status: document.querySelector("#learn .verdict").getAttribute("role"),
      focused: document.activeElement.className,
    })""")


def pick(page: Any, k: int, by_keyboard: bool) -> None:
    """Option ``k`` picked: tapped, or reached with ↓ from the first option and chosen with Enter."""
    if not by_keyboard:
        page.locator("#learn .options button").nth(k).click()
        return
    page.locator("#learn .options button").first.focus()
    for _ in range(k):
        page.keyboard.press("ArrowDown")
    assert page.evaluate("() => Number(document.activeElement.dataset.option)") == k
    page.keyboard.press("Enter")


def walk(page: Any, puzzles: list[dict[str, Any]], table: Any, audit: bool) -> None:
    """Every puzzle in turn: the table before the decision shown, an option picked (tapped and by keyboard in
    turn, a different option each time), the grade told as the data gives it, then on to the next with Enter."""
    for k, puzzle in enumerate(puzzles):
        seen = shown(page)
        assert (seen["puzzle"], seen["puzzles"], seen["seq"]) == (k + 1, len(puzzles), puzzle["seq"])
        assert seen["focused"] == "learn-title"  # a screen reader hears which puzzle this is
        assert seen["options"] == [o["words"] for o in puzzle["options"]]
        assert {key: seen[key] for key in ("locations", "pool", "points")} == table_of(table(puzzle))
        choice = k % len(puzzle["options"])
        pick(page, choice, by_keyboard=k % 2 == 1)
        mine, best = puzzle["options"][choice], next(o for o in puzzle["options"] if o["best"])
        verdict = told(page)
        assert verdict["picked"] == mine["grade"] and verdict["marks"] == [o["grade"] for o in puzzle["options"]]
        assert verdict["best"] == (None if mine is best else f"Best: {best['words']} ({round(best['win'] * 100)} %).")
        played = next(o for o in puzzle["options"] if o["played"])
        assert played["words"] in verdict["played"] and puzzle["grade"] in verdict["played"]
        assert verdict["status"] == "status" and verdict["focused"] == "next"  # told aloud; Enter goes on
        if audit and k == 0:
            assert axe_violations(page, also=ALSO) == []
        page.keyboard.press("Enter")
    assert shown(page)["puzzle"] == 1  # after the last, the first again


@pytest.mark.parametrize("size", [PHONE, LAPTOP], ids=["phone", "laptop"])
def test_the_league_page_walks_a_player_s_mistakes(tab, league_page, size):
    html, out = league_page
    assert out.returncode == 0, out.stderr
    data = page_data(html)
    tab.set_viewport_size(size)
    tab.goto(html.as_uri())
    assert axe_violations(tab, also=ALSO) == []
    walk(tab, data["puzzles"], lambda puzzle: puzzle["before"], audit=True)
    assert tab.evaluate("() => document.documentElement.scrollWidth") <= size["width"]  # nothing wider than the screen


@pytest.fixture(scope="module")
def replay_page(club: tuple[dict[str, str], Path, dict[str, Any]]) -> Path:
    env, folder, _ = club
    html = folder / "g1.html"
    out = run(env, "export", "g1", "--format", "html", "-o", str(html))
    assert out.returncode == 0, out.stderr
    return html


@pytest.mark.parametrize("size", [PHONE, LAPTOP], ids=["phone", "laptop"])
def test_the_replay_page_walks_a_chosen_player_s_mistakes_and_goes_back(tab, club, replay_page, size):
    _, _, report = club
    data = page_data(replay_page)
    tab.set_viewport_size(size)
    tab.goto(f"{replay_page.as_uri()}#entry=57")
    tab.wait_for_function("() => window.coimbraReplay && window.coimbraReplay.at === 57")
    counts = tab.evaluate("() => Array.from(document.querySelectorAll('#learn-player option')).map((o) => [o.value, o.textContent])")
    assert counts == [[name, f"{name}: {len(mistakes_of(report, name))} mistakes and blunders"] for name in report["players"]
                      if mistakes_of(report, name)]
    assert axe_violations(tab, also=ALSO) == []
    tab.select_option("#learn-player", "Bruno")
    tab.click("#learn-start")
    puzzles = [p for p in data["puzzles"] if p["player"] == "Bruno"]
    assert [p["seq"] for p in puzzles] == [d["seq"] for d in mistakes_of(report, "Bruno")]
    assert tab.evaluate("() => getComputedStyle(document.getElementById('controls')).display") == "none"
    at = lambda: tab.evaluate("() => window.coimbraReplay.at")  # noqa: E731
    assert at() == puzzles[0]["seq"] - 1  # the table as it was before the decision
    walk(tab, puzzles, lambda puzzle: tab.evaluate(f"() => window.coimbraReplay.state({puzzle['seq'] - 1})"), audit=True)
    tab.locator("#learn .options button").first.focus()
    tab.keyboard.press("ArrowRight")  # steps the game elsewhere on the page; here it moves between the options
    assert at() == puzzles[0]["seq"] - 1 and tab.evaluate("() => document.activeElement.dataset.option") == "1"
    if size is PHONE:
        tab.click("#learn .leave")
    else:
        tab.keyboard.press("Escape")
    assert at() == 57 and tab.evaluate("() => document.activeElement.id") == "learn-start"
    assert tab.evaluate("() => getComputedStyle(document.getElementById('controls')).display") != "none"
    assert tab.evaluate("() => document.querySelector('#learn [data-puzzle]')") is None
