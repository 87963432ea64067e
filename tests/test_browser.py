"""The replay page (``export --format html``) in a real browser: Debian's Chromium, driven by Playwright.

For every fixture game, and a record with every kind of history entry, the
page exported by the installed ``coimbra`` is opened from disk, stepped forward
and back with the keys, jumped by round and phase with the buttons, the slider
and the section list, and opened at ``#entry=N``; at every point the dice,
rows, cards, resources, tracks, map and voyages read from the DOM equal
``coimbra show --json --at N``, and at the end the score table equals
``coimbra score --json`` (the commands run in this process, so that every point
checked costs no start-up; the page is exported by the installed command). The page makes no request but its own file
(Playwright's request log), and a screenshot of each game is kept in
``artifacts/browser/`` (ignored by git; ``$COIMBRA_ARTIFACTS`` moves it).

No browser is downloaded: Playwright drives ``/usr/bin/chromium`` (``.ci/run``
installs Debian's package). Without it these tests skip, saying so, except in
CI (``$CI`` set), where they must run.
"""

from __future__ import annotations

import functools

import os
import subprocess
from pathlib import Path
from typing import Any, Iterator

import orjson
import pytest
from typer.testing import CliRunner

from cli.app import app

from coimbra_events import log as game_log, log_reader
from coimbra_events.catalog import Catalog, find_catalog, standin_catalog
from tests.conftest import FIXTURES, installed_coimbra
from tests.browser_kit import ARTIFACTS as BROWSER_ARTIFACTS, chromium
from tests.test_movelist import eventful

ARTIFACTS = BROWSER_ARTIFACTS / "browser"
GAMES = sorted((FIXTURES / "games").glob("*.json"))
CARDS = {c.id: c.name for c in standin_catalog().characters.values()}
ZONES = {c.id: {"immediate": "immediate", "phase_c": "phase C", "phase_e": "phase E", "end_game": "end of game"}.get(c.timing, "no bonus")
         for c in standin_catalog().characters.values()}


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    yield from chromium()


def coimbra(*args: str, db: Path) -> bytes:
    """The installed command, as a user runs it (the page is exported this way)."""
    out = subprocess.run([installed_coimbra(), *args], capture_output=True, timeout=120,
                         env={**os.environ, "NO_COLOR": "1", "COIMBRA_DB": str(db)})
    assert out.returncode == 0 and "Traceback" not in out.stderr.decode(), out.stderr.decode()
    return out.stdout


@functools.cache
def asked(*args: str) -> Any:
    """A command's ``--json`` output, run in this process (``show`` is asked at every point the page is checked, and
    at the one before: kept, as the files asked about do not change)."""
    result = CliRunner().invoke(app, [*args, "--json"])
    assert result.exit_code == 0, result.output
    return orjson.loads(result.stdout)


class Page:
    """One exported page open in the browser, with every request it made and every script error."""

    def __init__(self, browser: Any, html: Path, log: Path, width: int = 1280) -> None:
        self.url = html.as_uri()
        self.log = log
        self.page = browser.new_page(viewport={"width": width, "height": 900})
        self.requests: list[str] = []
        self.errors: list[str] = []
        self.page.on("request", lambda r: self.requests.append(r.url))
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))
        self.page.on("console", lambda m: self.errors.append(m.text) if m.type == "error" else None)

    def open(self, fragment: str = "") -> None:
        self.page.goto(self.url + fragment)

    def at(self) -> int:
        return self.page.evaluate("window.coimbraReplay.at")

    def shown(self) -> dict[str, Any]:
        # as JSON text: Playwright's own transfer of objects drops a key called "__proto__"
        return orjson.loads(self.page.evaluate(f"() => JSON.stringify(({DOM_READER})())"))

    def check(self) -> int:
        """The table on the page equals ``show --json --at N`` for the entry it shows; returns N."""
        n = self.at()
        view = asked("show", str(self.log), "--at", str(n))
        played = asked("show", str(self.log), "--at", str(max(n - 1, 0)))  # the table the entry was played on
        log = log_reader.read(self.log)
        assert self.shown() == expected(view, played, find_catalog(log.catalog_id, log.catalog_sha256)), f"entry {n}"
        return n

    def close(self) -> None:
        self.page.close()


# What the page shows, read from its DOM: the same shape ``expected`` makes of a board view.
DOM_READER = """() => {
  const q = (sel, root) => Array.from((root || document).querySelectorAll(sel));
  const dice = (root, hook) => q(`[${hook}]`, root).map((g) => ({
    die: g.getAttribute(hook), value: g.dataset.value === "" ? null : Number(g.dataset.value),
    owner: g.dataset.owner || null, color: g.dataset.color, shown: g.querySelector("text").textContent }));
  const where = document.querySelector("#current [data-at]");
  const out = { at: Number(where.dataset.at), round: Number(where.dataset.round), phase: where.dataset.phase };
  const enters = document.querySelector("#current [data-enters]") || where;  // the table's, where the entry ends a phase
  out.table = { round: Number(enters.dataset.round), phase: enters.dataset.enters || enters.dataset.phase };
  out.notation = document.querySelector("#current .notation").textContent;
  const due = document.querySelector("#current [data-pending]");
  out.pending = due ? due.dataset.pending : null;
  const map = () => Object.create(null);  // keyed by names from the record: no prototype to collide with
  out.locations = map();
  q("#city [data-location]").forEach((g) => { out.locations[g.dataset.location] = dice(g, "data-die"); });
  out.dice_area = dice(document.getElementById("dice"), "data-pool-die");
  out.rows = map();
  q("#city [data-row]").forEach((g) => {
    out.rows[g.dataset.row] = q("[data-card]", g).map((c) => ({ id: c.dataset.card, title: c.querySelector("title").textContent,
      crown: c.dataset.crown === "1" })); });
  out.favor_tiles = q("#city [data-favor]").map((t) => t.dataset.favor);
  out.players = map();
  q("#boards [data-player]").forEach((b) => {
    const field = (f) => b.querySelector(`[data-field="${f}"]`).textContent;
    const ids = (hook) => q(`[${hook}]`, b).map((e) => e.getAttribute(hook));
    const influence = map();
    q("[data-influence]", b).forEach((e) => { influence[e.dataset.influence] = Number(e.textContent); });
    out.players[b.dataset.player] = {
      coins: Number(field("coins")), guards: Number(field("guards")), points: Number(field("points")),
      crowns: Number(field("crowns")), pilgrim: field("pilgrim"), influence,
      cards: Object.fromEntries(q("[data-held-card]", b).map((e) => [e.dataset.heldCard,
        [e.textContent, e.closest(".zone").querySelector("b").textContent.replace(/:$/, "")]])),
      favor_tiles: ids("data-held-tile"), crown_tokens: ids("data-crown-token"), monasteries: ids("data-held-monastery"),
      voyages: ids("data-held-voyage"), shutter: ids("data-shutter-die"),
      flag: b.querySelector(".flag").textContent };
  });
  out.discs = map();
  q("#tracks [data-track]").forEach((g) => {
    out.discs[g.dataset.track] = Object.fromEntries(q("[data-disc]", g).map((c) => [c.dataset.disc, Number(c.dataset.position)])); });
  out.score_track = Object.fromEntries(q("#tracks [data-score]").map((g) => [g.dataset.score, Number(g.dataset.points)]));
  out.pilgrims = Object.fromEntries(q("#map [data-pilgrim]").map((g) => [g.dataset.pilgrim, g.dataset.at]));
  out.monasteries = Object.fromEntries(q("#map [data-monastery]").map((g) => [g.dataset.space,
    { id: g.dataset.monastery, marked_by: q("[data-marker]", g).map((c) => c.dataset.marker) }]));
  out.voyages = q("#voyages [data-voyage]").map((g) => ({
    id: g.dataset.voyage, investors: q("[data-investor]", g).map((c) => c.dataset.investor) }));
  return out;
}"""


def _die(d: dict[str, Any]) -> dict[str, Any]:
    return {"die": d["die"], "value": d["value"], "owner": d.get("owner"), "color": d["color"],
            "shown": "·" if d["value"] is None else str(d["value"])}


def spoken(notation: str, monasteries: list[dict[str, Any]], catalog: Catalog) -> str:
    """An entry as the page says it: the notation ``show --json`` gives, components by their names (a monastery
    space by the monastery on it), as the move list writes them."""
    from coimbra_events.names import Names
    from coimbra_events.notation import parse, render

    return render(parse(notation), Names(catalog, None, {m["space"]: m["id"] for m in monasteries}))


def space_said(view: dict[str, Any], space: str | None) -> str:
    """A pilgrim's space as the page says it: by the monastery laid on it, else by its name, else its id."""
    if space is None:
        return "—"
    return next((m["name"] for m in view["monasteries"] if m["space"] == space), view["legend"]["spaces"].get(space, space))


def expected(view: dict[str, Any], played: dict[str, Any], catalog: Catalog) -> dict[str, Any]:
    """What the page must show for this ``show --json`` output of a game on ``catalog``; the entry is headed by the
    round and phase of ``played``, the table it was played on."""
    players = view["players"]
    return {
        "at": view["at"], "round": played["round"], "phase": played["phase"],
        "table": {"round": view["round"], "phase": view["phase"]},
        "notation": spoken(view["event"]["notation"], view["monasteries"], catalog) if view["event"] else "before the first entry",
        "pending": view["pending"]["actor"] if view["pending"] else None,
        "locations": {loc: [_die(d) for d in dice] for loc, dice in view["locations"].items()},
        "dice_area": [_die(d) for d in view["dice_area"]],
        "rows": {city: [{"id": c["id"], "title": c["name"], "crown": bool(c.get("crown_token"))} for c in row]
                 for city, row in view["character_rows"].items()},
        "favor_tiles": [t["id"] for t in view["favor_tiles"]],
        "players": {p["name"]: {
            "coins": p["coins"], "guards": p["guards"], "points": p["points"], "crowns": p["crowns_collected"],
            "pilgrim": space_said(view, p["pilgrim"]), "influence": p["influence"],
            "cards": {c: [CARDS[c] + (" (start)" if c in p["start_cards"] else ""), ZONES[c]] for c in p["start_cards"] + p["cards"]},
            "favor_tiles": p["favor_tiles"], "crown_tokens": p["crown_tokens"], "monasteries": p["monasteries"],
            "voyages": p["voyages"], "shutter": p["dice_on_shutter"], "flag": f"flag {p['flag']}" if p["flag"] else "no flag yet",
        } for p in players},
        "discs": {track: {p["name"]: p["influence"][track] for p in players} for track in players[0]["influence"]},
        "score_track": {p["name"]: p["points"] for p in players},
        "pilgrims": {p["name"]: p["pilgrim"] for p in players if p["pilgrim"]},
        "monasteries": {m["space"]: {"id": m["id"], "marked_by": m["marked_by"]} for m in view["monasteries"]},
        "voyages": [{"id": v["id"], "investors": v["investors"]} for v in view["voyages"]],
    }


def exported(log: Path, tmp_path: Path) -> Path:
    html = tmp_path / f"{log.stem}.html"
    coimbra("export", str(log), "--format", "html", "-o", str(html), db=tmp_path / "games.sqlite")
    return html


@pytest.mark.parametrize("log", GAMES, ids=[p.stem for p in GAMES])
def test_every_fixture_game_steps_and_jumps_showing_what_show_json_shows(browser, log: Path, tmp_path: Path):
    page = Page(browser, exported(log, tmp_path), log)
    try:
        page.open()
        assert page.check() == 0
        extra = page.page.text_content('#city [data-favor="f-2"]')
        assert "Royal Audience" in extra and "extra die" in extra  # the 2-crown tile carries the extra-die tile
        page.page.keyboard.press("ArrowRight")
        assert page.check() == 1
        page.page.keyboard.press("ArrowLeft")
        assert page.check() == 0
        page.page.keyboard.press("PageDown")  # the first round: its phase A
        first_round = page.check()
        assert page.shown()["table"] == {"round": 1, "phase": "A"}
        page.page.keyboard.press("ArrowDown")  # phase B of round 1
        assert page.check() > first_round and page.shown()["table"]["phase"] == "B"
        page.page.click("#next-round")
        assert page.shown()["table"] == {"round": 2, "phase": "A"}
        page.page.click("#prev-phase")  # the start of the phase before: round 1, F
        assert page.shown()["table"]["phase"] == "F" and page.check() > 0
        page.page.select_option("#jump", label="Round 3 · C: retrieving dice")
        assert page.shown()["table"] == {"round": 3, "phase": "C"}
        page.check()
        page.page.fill("#slider", "57")
        assert page.check() == 57 and page.page.url.endswith("#entry=57")
        page.page.click('#entry-list li[data-seq="5"]')
        assert page.check() == 5
        page.page.keyboard.press("End")
        page.page.keyboard.press("Home")
        assert page.at() == 0
        events = len(log_reader.read(log).events)
        page.open(f"#entry={events // 2}")
        assert page.check() == events // 2
        page.page.evaluate("location.hash = '#entry=3'")
        page.page.wait_for_function("window.coimbraReplay.at === 3")
        page.open(f"#entry={events}")
        assert page.check() == events and page.page.is_visible("#scores")
        scores = asked("score", str(log))
        assert shown_scores(page) == {p["name"]: {**p["sources"], "total": p["total"], "resources_left": p["resources_left"]}
                                      for p in scores["players"]}
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        page.page.screenshot(path=str(ARTIFACTS / f"{log.stem}.png"), full_page=True)
        assert page.requests == [page.url]  # the file itself (later #entry= loads stay in the page), nothing else
        assert page.errors == []
    finally:
        page.close()


def shown_scores(page: Page) -> dict[str, dict[str, int]]:
    return page.page.evaluate("""() => {
      const out = {};
      document.querySelectorAll("#scores [data-score-player]").forEach((td) => {
        (out[td.dataset.scorePlayer] = out[td.dataset.scorePlayer] || {})[td.dataset.source] = Number(td.textContent); });
      return out; }""")


def test_corrections_retractions_overrides_notes_and_bookmarks_are_marked(browser, tmp_path: Path):
    game = eventful()
    game.note(18, '<img src="x.png" onerror="window.broken = 1">', by="Ana")
    log = tmp_path / "eventful.json"
    game_log.write(log, game.to_log())
    page = Page(browser, exported(log, tmp_path), log, width=390)  # a phone
    try:
        page.open("#entry=16")
        page.check()
        current = page.page.inner_text("#current")
        assert "corrected: entry 26 says what it should have said" in current
        assert "✎ note (entry 27): dice knocked over {re-rolled} ✓" in current
        page.open("#entry=30")
        page.check()
        assert "⚠ accepted against rule C.alternative: we misread: 3 coins}" in page.page.inner_text("#current")
        assert "withdrawn by entry 33" in page.page.inner_text("#current")
        items = {seq: page.page.get_attribute(f'#entry-list li[data-seq="{seq}"]', "class") or "" for seq in (16, 25, 27, 28, 29, 30, 33)}
        assert "kind-correction" in items[25] and "kind-note" in items[27] and "kind-bookmark" in items[28]
        assert "kind-override" in items[29] and "withdrawn" in items[30] and "kind-retraction" in items[33]
        assert page.page.inner_text('#entry-list li[data-seq="16"]').endswith("✎corrected")
        page.open("#entry=18")
        assert '<img src="x.png"' in page.page.inner_text("#current")  # shown as the text it is
        assert page.page.evaluate("document.querySelectorAll('img').length + (window.broken || 0)") == 0
        page.page.click('#current a[data-go="28"]')
        assert page.check() == 28
        page.open(f"#entry={len(game.events)}")
        assert page.check() == len(game.events) and "Scores so far" in page.page.inner_text("#scores")
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        page.page.screenshot(path=str(ARTIFACTS / "eventful-phone.png"), full_page=True)
        assert page.requests == [page.url] and page.errors == []
    finally:
        page.close()


def test_the_score_sheet_prints_the_totals_of_score_json(browser, tmp_path: Path):
    db = tmp_path / "games.sqlite"
    sheet = tmp_path / "sheet.html"
    coimbra("score", str(GAMES[2]), "--format", "html", "-o", str(sheet), db=db)
    scores = asked("score", str(GAMES[2]))
    page = browser.new_page()
    requests: list[str] = []
    page.on("request", lambda r: requests.append(r.url))
    try:
        page.goto(sheet.as_uri())
        totals = page.evaluate("() => Array.from(document.querySelectorAll('tr.total td')).slice(1).map((td) => Number(td.textContent))")
        assert totals == [p["total"] for p in scores["players"]]
        page.emulate_media(media="print")
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / "score-sheet.png"), full_page=True)
        assert requests == [sheet.as_uri()]
    finally:
        page.close()


def test_an_entrys_changes_are_listed_with_their_rule_when_the_data_has_them(browser, tmp_path: Path):
    """The panel for the consequences read model's items ({who, what, from, to, rule, facts} per entry)."""
    from cli.replay_page import page_of, replay_data
    from coimbra_events.game import Game
    from projections.timeline import timeline

    game = Game.from_log("g", log_reader.read(GAMES[0]))
    data = replay_data(game, timeline(game))
    data["entries"][21]["changes"] = [
        {"who": "Bruno", "what": "coins", "from": 5, "to": 1, "rule": "C.cost", "facts": {"price": 4}},
        {"who": "table", "what": "card", "from": "lower row", "to": None, "rule": "C.token", "facts": {"die": 2}},
    ]
    html = tmp_path / "changes.html"
    html.write_text(page_of(data))
    page = browser.new_page()
    try:
        page.goto(html.as_uri() + "#entry=22")
        items = page.eval_on_selector_all("#current .changes li", "(els) => els.map((e) => [e.dataset.changeRule, e.textContent, e.title])")
        assert items == [["C.cost", "Bruno: coins from 5 to 1 C.cost", '{"price":4}'],
                         ["C.token", "table: card from lower row C.token", '{"die":2}']]
        page.goto(html.as_uri() + "#entry=21")  # an entry as the page data has it: the rules' own changes
        rules = page.eval_on_selector_all("#current .changes li", "(els) => els.map((e) => e.dataset.changeRule)")
        assert rules == [c["rule"] for c in data["entries"][20]["changes"]] and rules
    finally:
        page.close()


def test_the_current_entry_is_headed_by_the_phase_it_was_played_in(browser, tmp_path: Path):
    """Entry 41 of the 2-player fixture, round 2's roll, ends phase A: its header says phase A (the table after it
    is in phase B, which the line below says); entry 42 is played in phase B and says nothing of entering it."""
    log = FIXTURES / "games" / "standin-2p-seed1.json"
    page = Page(browser, exported(log, tmp_path), log)
    try:
        page.open("#entry=41")
        assert page.page.text_content("#current [data-at]") == "entry 41 of 130 · round 2 · A: rolling dice"
        assert page.page.get_attribute("#current [data-at]", "data-phase") == "A"
        assert page.page.text_content("#current [data-enters]") == "→ the table enters round 2 · B: drafting and placing dice"
        page.page.keyboard.press("ArrowRight")
        assert page.page.text_content("#current [data-at]") == "entry 42 of 130 · round 2 · B: drafting and placing dice"
        assert page.page.locator("#current [data-enters]").count() == 0
        assert page.errors == []
    finally:
        page.close()


def test_players_named_like_the_scripts_own_words_are_shown_as_any_other(browser, tmp_path: Path):
    from coimbra_events.simulator import simulate

    log, _ = simulate(standin_catalog(), [("__proto__", "red"), ("constructor", "not-a-colour")], 4)
    path = tmp_path / "odd.json"
    game_log.write(path, log)
    page = Page(browser, exported(path, tmp_path), path)
    try:
        page.open(f"#entry={len(log.events) // 2}")
        page.check()
        page.open(f"#entry={len(log.events)}")
        page.check()
        fills = page.page.evaluate("""() => Array.from(document.querySelectorAll("#tracks [data-disc]"))
            .map((c) => [c.dataset.disc, c.getAttribute("fill")])""")
        assert set(map(tuple, fills)) == {("__proto__", "red"), ("constructor", "#2471a3")}  # a colour CSS does not know: the palette's
        assert page.errors == []
    finally:
        page.close()
