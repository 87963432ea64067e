"""An analysed game where people look: the replay page's graph and grades, and the replayer's frame.

A short game (the 2-player fixture's first entries) is analysed by the real engine with
few playouts into a cache folder of its own (``COIMBRA_ANALYSES``); the installed
``coimbra`` then finds that analysis by itself, as it finds any analysis kept for the
record as it is: ``export --format html`` puts the graph and the grades on the page
(still one file, no request made), read back here from the DOM in Debian's Chromium;
``replay --at N --json`` says entry N's grade (run in process). Without a kept analysis neither shows one.
"""

from __future__ import annotations

import math

import os
import subprocess
from pathlib import Path
from typing import Any, Iterator

import orjson
import pytest
from typer.testing import CliRunner

from cli.app import app
from coimbra_events import log, log_reader
from coimbra_events.catalog import standin_catalog
from projections.analysis import Settings, analysis_for
from projections.annotations import annotations
from tests.browser_kit import axe_violations, chromium
from tests.conftest import FIXTURES, installed_coimbra
from tests.test_annotated_move_list import entry_lines

ENTRIES = 40
"""How much of the 2-player fixture is analysed: setup, start choices and round 1's first drafts."""
FEW = Settings(playouts=4, first_pass=2, candidates=2, settle=8, batch=4, luck=4)


@pytest.fixture(scope="module")
def analysed(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, dict[str, Any]]:
    """The short game's log file, the cache folder its analysis is kept in, and that analysis."""
    folder = tmp_path_factory.mktemp("analysed")
    path = folder / "short.json"
    log.write(path, log_reader.read(FIXTURES / "games" / "standin-2p-seed1.json").prefix(ENTRIES))
    cache = folder / "analyses"
    report = analysis_for(log_reader.read(path), standin_catalog(), FEW, cache_dir=cache, jobs=1)
    return path, cache, report


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    yield from chromium()


def coimbra(*args: str, cache: Path) -> subprocess.CompletedProcess[bytes]:
    """The installed command, with analyses kept in ``cache``."""
    out = subprocess.run([installed_coimbra(), *args], capture_output=True, timeout=120,
                         env={**os.environ, "NO_COLOR": "1", "COIMBRA_ANALYSES": str(cache)})
    assert "Traceback" not in out.stderr.decode(), out.stderr.decode()
    return out


def asked(*args: str, cache: Path) -> Any:
    """A command run in this process (quicker than the installed one where the page is not involved)."""
    return CliRunner().invoke(app, list(args), env={"NO_COLOR": "1", "COIMBRA_ANALYSES": str(cache)})


def exported(path: Path, cache: Path) -> Path:
    html = path.with_suffix(".html")
    out = coimbra("export", str(path), "--format", "html", "-o", str(html), cache=cache)
    assert out.returncode == 0, out.stderr.decode()
    return html


# What the page shows of the analysis, read from its DOM.
ANALYSIS_READER = """() => {
  const q = (sel) => Array.from(document.querySelectorAll(sel));
  const grade = document.querySelector("#grade [data-grade]");
  return {
    shown: !document.getElementById("analysis").hidden,
    curves: Object.fromEntries(q("#curve [data-curve-player]").map((l) => [l.dataset.curvePlayer,
      l.getAttribute("points").trim().split(/\\s+/).length])),
    marks: Object.fromEntries(q("#entry-list li[data-seq] [data-grade]").map((s) => [s.closest("li").dataset.seq, s.dataset.grade])),
    ticks: q("#curve [data-tick-seq]").map((t) => [Number(t.dataset.tickSeq), t.dataset.tickGrade]),
    chances: Object.fromEntries(q("#analysis [data-win-player]").map((s) => [s.dataset.winPlayer, s.textContent])),
    grade: grade ? { grade: grade.dataset.grade, seq: Number(grade.dataset.seq), text: grade.textContent } : null,
    summary: Object.fromEntries(q("#accuracy [data-summary-player]")
      .map((c) => [c.dataset.summaryPlayer + " " + c.dataset.field, c.textContent])),
  };
}"""


def _signed(points: float) -> str:
    """As the page signs points: ``+3.1``, ``-2.0``, ``0.0``."""
    return ("+" if points > 0 else "") + f"{points:.1f}"


def read(page: Any) -> dict[str, Any]:
    return orjson.loads(page.evaluate(f"() => JSON.stringify(({ANALYSIS_READER})())"))


def test_the_replay_page_graphs_the_winning_chances_and_grades_every_decision(browser, analysed):
    path, cache, report = analysed
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    requests: list[str] = []
    errors: list[str] = []
    page.on("request", lambda r: requests.append(r.url))
    page.on("pageerror", lambda e: errors.append(str(e)))
    try:
        url = exported(path, cache).as_uri()
        page.goto(url)
        seen = read(page)
        assert seen["shown"]
        steps = sum("before" in p for p in report["curve"])  # a decision: from the best option's chances, then its own
        assert steps and seen["curves"] == {name: len(report["curve"]) + steps for name in report["players"]}
        assert seen["marks"] == {str(d["seq"]): d["grade"] for d in report["decisions"]}
        assert sorted(seen["ticks"]) == sorted([d["seq"], d["grade"]] for d in report["decisions"]
                                               if d["grade"] in ("inaccuracy", "mistake", "blunder"))
        worst = max((d for d in report["decisions"] if not d["forced"]), key=lambda d: (d["loss"], -d["seq"]))
        page.evaluate(f"window.coimbraReplay.go({worst['seq']})")
        seen = read(page)
        assert seen["grade"]["grade"] == worst["grade"] and seen["grade"]["seq"] == worst["seq"]
        assert f"{worst['loss']:.1f} percentage points" in seen["grade"]["text"]
        point = max((p for p in report["curve"] if p["seq"] <= worst["seq"]), key=lambda p: p["index"])
        # the page rounds as JavaScript's Math.round does (half up), not as Python's round (half to even)
        assert seen["chances"] == {name: f"{math.floor(point['win'][name] * 100 + 0.5)} %" for name in report["players"]}
        for name, summary in report["summary"].items():
            assert seen["summary"][f"{name} accuracy"] == f"{summary['accuracy']:.1f}"
            assert seen["summary"][f"{name} blunder"] == str(summary["grades"]["blunder"])
            low, high = summary["luck_interval"]  # the luck with its 95 % interval; the short game has no result yet
            assert seen["summary"][f"{name} luck"] == f"{_signed(summary['luck'])} ({_signed(low)} to {_signed(high)})"
            assert seen["summary"][f"{name} luck_adjusted"] == "–" and summary["result"] is None
        page.keyboard.press("ArrowRight")
        assert read(page)["grade"] is None or read(page)["grade"]["seq"] == worst["seq"] + 1
        ours = ("#analysis", "#curve", "#grade", "#accuracy", "[data-grade]")
        assert [v for v in axe_violations(page) if any(part in str(v["nodes"]) for part in ours)] == []
        assert requests == [url] and errors == []
    finally:
        page.close()


def test_without_a_kept_analysis_the_page_shows_none(browser, analysed, tmp_path):
    path, _, _ = analysed
    page = browser.new_page()
    try:
        page.goto(exported(path, tmp_path / "empty").as_uri())
        seen = read(page)
        assert not seen["shown"] and seen["marks"] == {} and seen["curves"] == {}
    finally:
        page.close()


def test_replay_json_says_the_grade_of_the_entry_asked_for(analysed, tmp_path):
    path, cache, report = analysed
    decision = report["decisions"][-1]
    out = asked("replay", str(path), "--at", str(decision["seq"]), "--json", cache=cache)
    assert out.exit_code == 0 and orjson.loads(out.stdout)["analysis"] == decision
    frame = asked("replay", str(path), "--at", str(decision["seq"]), cache=cache).stdout
    assert "winning chances" in frame and decision["grade"] in frame
    plain = asked("replay", str(path), "--at", str(decision["seq"]), "--json", cache=tmp_path / "empty")
    assert "analysis" not in orjson.loads(plain.stdout)


def test_analysis_goes_on_the_replay_page_or_a_move_list_not_the_json_log(analysed):
    """The canonical JSON log is the record alone; a move list takes the analysis as annotations
    (``tests/test_annotated_move_list.py``)."""
    path, cache, _ = analysed
    out = asked("export", str(path), "--format", "json", "--analysis", cache=cache)
    assert out.exit_code == 2 and "--format text or html" in out.stderr


def test_analysis_makes_one_when_none_is_kept_and_keeps_it_for_the_record(tmp_path):
    """``export --analysis`` with nothing kept analyses the record now (default settings: the game's first three
    entries, the table's setup draws, keep it short), and the replayer then finds that analysis by itself."""
    path = tmp_path / "setup.json"
    log.write(path, log_reader.read(FIXTURES / "games" / "standin-2p-seed1.json").prefix(3))
    cache = tmp_path / "analyses"
    html = path.with_suffix(".html")
    out = coimbra("export", str(path), "--format", "html", "--analysis", "-o", str(html), cache=cache)
    assert out.returncode == 0, out.stderr.decode()
    data = orjson.loads(html.read_text(encoding="utf-8").split('id="coimbra-data">', 1)[1].split("</script>", 1)[0])
    analysis = data["analysis"]
    assert [p["seq"] for p in analysis["curve"]] == [1, 2, 3]
    defaults = Settings().to_json()
    assert analysis["key"]["seed"] == defaults.pop("seed")
    assert {k: v for k, v in analysis["key"]["settings"].items() if k not in ("policy", "method")} == defaults
    shown = orjson.loads(asked("replay", str(path), "--at", "2", "--json", cache=cache).stdout)["analysis"]
    assert shown["seq"] == 2 and shown["luck"] == next(u["luck"] for u in analysis["luck"] if u["seq"] == 2)


def test_the_graph_marks_the_rounds_reads_at_the_page_s_size_and_says_what_the_best_gains(browser, analysed):
    """The rounds as bands (the setup, then each round the short game reaches), the graph as wide as its column and its labels
    at least 10 px on a laptop's page and a phone's, and the grade of a decision another option beat says what
    that option gains by source of points."""
    path, cache, report = analysed
    url = exported(path, cache).as_uri()
    for width in (1280, 390):
        page = browser.new_page(viewport={"width": width, "height": 900})
        try:
            page.goto(url)
            seen = page.evaluate("""() => {
              const svg = document.querySelector("#curve svg");
              const box = svg.getBoundingClientRect();
              const label = svg.querySelector("text.axis").getBoundingClientRect();
              return {rounds: Array.from(svg.querySelectorAll("[data-round]")).map((g) => Number(g.dataset.round)),
                      width: box.width, column: svg.parentElement.getBoundingClientRect().width, label: label.height};
            }""")
            assert seen["rounds"] == sorted({p["round"] for p in report["curve"]}) and len(seen["rounds"]) >= 2
            assert seen["width"] >= seen["column"] - 1 and seen["width"] >= 340
            assert seen["label"] >= 10, seen
            gained = next(d for d in report["decisions"] if d["gains"])
            page.evaluate(f"window.coimbraReplay.go({gained['seq']})")
            source, points = next(iter(gained["gains"].items()))
            said = page.inner_text("#grade [data-gains]")
            assert f"{'+' if points >= 0 else '−'}{abs(points):.1f} {source}" in said
        finally:
            page.close()


def test_export_analysis_marks_the_graded_decisions_and_import_reads_back_the_same_record(analysed, tmp_path):
    """The annotated move list (tests/test_annotated_move_list.py) through the installed command, on this module's
    analysis (found by ``export --analysis``): each decision graded inaccuracy or worse is marked on its line, with its
    loss; the list imported and exported as JSON is the record's own JSON."""
    path, cache, report = analysed
    db = tmp_path / "games.sqlite"

    def stored(*args: str) -> str:
        out = coimbra(*args, "--db", str(db), cache=cache)
        assert out.returncode == 0, out.stderr.decode()
        return out.stdout.decode()

    text = stored("export", str(path), "--format", "text", "--analysis")
    graded = annotations(report)
    assert any(mark in ("?!", "?", "??") for mark, _ in graded.values())
    for seq, (mark, comment) in graded.items():
        line = next(line for first, line in entry_lines(text).items() if first <= seq and f" {mark} {{" in line
                    and line.endswith(f" {mark} {{{comment}}}"))
        assert comment.split(". Best: ")[-1] in line or mark == "!"
    assert sum(f" {mark} {{" in text for mark, _ in graded.values()) >= 1
    assert sum(text.count(f" {mark} {{") for mark in ("?!", "?", "??", "!")) == len(graded)
    (tmp_path / "annotated.txt").write_text(text, encoding="utf-8")
    stored("import", str(tmp_path / "annotated.txt"), "--name", "back")
    assert stored("export", "back") == log.dumps(log_reader.read(path)).decode()
    plain = stored("export", str(path), "--format", "text")
    assert not any(f" {mark} {{" in plain for mark in ("?!", "?", "??", "!"))
