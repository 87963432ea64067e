"""The live table's pages in a real browser: four phones and two watchers record and follow a whole game.

Debian's Chromium (``tests.browser_kit``) opens ``coimbra serve``'s links as four phones at 390×844, one per
player, each claiming its own seat, and two watchers. The 4-player fixture game is entered through the pages
only: the table's outcomes (setup draws, rolls, deals) picked on the form of whichever phone is at hand (any
phone enters them), each player's decisions tapped on their own phone as the button the options list for it.
Then ``coimbra export`` of the game is the fixture's canonical export (every move the same; the stamps say who
entered each, here, and when), and every page shows the same head. Screenshots go to ``artifacts/live/`` (ignored by git).
"""

from __future__ import annotations

import json
import time
from typing import Any, Callable, Iterator

import pytest

from cli.presenter import notation
from coimbra_events import log as game_log, log_reader
from coimbra_events.catalog import standin_catalog
from coimbra_events.events import GameEvent
from coimbra_events.log import GameLog
from tests.browser_kit import ARTIFACTS, axe_violations, chromium
from tests.live.conftest import FIXTURE, Served, coimbra

PHONE = {"width": 390, "height": 844}
NEW = standin_catalog()
"""The catalog a new game starts with."""
SHOTS = ARTIFACTS / "live"


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    yield from chromium()


@pytest.fixture(scope="module")
def looked_at(fixture_game: Callable[..., Served]) -> Callable[[int], Served]:
    """``looked_at(k)``: the fixture up to entry ``k``, served once for the tests that only look (nothing is stored)."""
    served: dict[int, Served] = {}

    def at(entries: int) -> Served:
        if entries not in served:
            served[entries] = fixture_game(entries, f"at-{entries}")
        return served[entries]

    return at


@pytest.fixture(scope="module")
def new_game(serve: Callable[..., Served]) -> Served:
    """A new game of the fixture's players, nothing recorded yet, served."""
    players = ",".join(f"{n}:{c}" for n, c in log_reader.read(FIXTURE).players)
    made = coimbra(serve.db, "new", "--players", players, "--name", "live")  # type: ignore[attr-defined]
    assert made.returncode == 0, made.stderr
    return serve("live")


class Phone:
    """One browser context (a device of its own: cookies, localStorage) with the page open on a link."""

    def __init__(self, browser: Any, url: str, me: str | None = None, audit: bool = False,
                 viewport: dict[str, int] = PHONE, context: Any = None) -> None:
        """``me``: the seat this phone claims; ``audit``: with the page's content policy off, so that axe-core can
        be injected; ``context``: another tab of that phone (its device) instead of a phone of its own."""
        phone = viewport["width"] < 800
        self.context = context or browser.new_context(viewport=viewport, device_scale_factor=1, has_touch=phone,
                                                      is_mobile=phone, bypass_csp=audit)
        self.errors: list[str] = []
        self.requests: list[str] = []
        self.context.on("request", lambda r: self.requests.append(r.url))
        self.page = self.context.new_page()
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))
        self.open(url)
        if me is not None:
            self.claim(me)
        self.me = me

    def seats(self) -> list[str]:
        """The seats the page says this phone holds."""
        return [s for s in (self.page.evaluate("document.body.dataset.seats") or "").split(",") if s]

    def claim(self, seat: str) -> None:
        """Tap ``seat`` on the prompt "Which seat is this phone?" (opened from the header if it is closed), and
        confirm taking it over if a phone of an earlier test holds it."""
        if seat in self.seats():
            return
        if self.page.locator("#seat-prompt").is_hidden():
            self.tap("#seat-change")
        take_over = lambda dialog: dialog.accept()  # noqa: E731
        self.page.on("dialog", take_over)
        try:
            self.tap(f'#seat-choices button[data-seat="{seat}"]')
            self.until(f"(document.body.dataset.seats || '').split(',').includes({json.dumps(seat)})")
        finally:
            self.page.remove_listener("dialog", take_over)

    def reopen(self, url: str) -> None:
        """A new page of the same device (its cookie, its storage) on ``url``, as a phone's browser opens a
        closed tab again (the address without the link's token, which the page removed)."""
        self.page = self.context.new_page()
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))
        self.open(url)

    def open(self, url: str) -> None:
        self.page.goto(url)
        self.until("document.body.dataset.head && document.body.dataset.live === '1'")

    def until(self, expression: str, timeout: float = 15.0) -> None:
        """Wait until ``expression`` holds on the page. (Polled from here: the page's own policy forbids the
        eval a ``wait_for_function`` needs, and the tests keep that policy on.)"""
        end = time.monotonic() + timeout
        while not self.page.evaluate(expression):
            if time.monotonic() > end:
                shown = self.page.evaluate("[document.body.dataset.entries, document.body.dataset.live, "
                                           "(document.getElementById('message') || {}).innerText]")
                raise AssertionError(f"not so after {timeout} s: {expression} (entries, live, message: {shown}; "
                                     f"page errors: {self.errors})")
            time.sleep(0.01)

    def entries(self) -> int:
        return int(self.page.evaluate("document.body.dataset.entries"))

    def head(self) -> str:
        return self.page.evaluate("document.body.dataset.head")

    def at(self, entries: int) -> None:
        """Wait until the page shows ``entries`` entries."""
        self.until(f"document.body.dataset.entries === '{entries}'")

    def tap(self, selector: str) -> None:
        self.page.locator(selector).click()

    def shot(self, name: str) -> None:
        SHOTS.mkdir(parents=True, exist_ok=True)
        self.page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=False)


def picks(event: GameEvent) -> list[tuple[str | None, list[str]]]:
    """What the table drew for each part of an outcome, from the event's payload: keyed (``space=tile``,
    ``city=cards``, ``die=value``) or in order (voyages, seating, start groups)."""
    (field,) = event.payload().values()
    if isinstance(field, dict):
        return [(k, v if isinstance(v, list) else [str(v)]) for k, v in field.items()]
    if field and isinstance(field[0], list):
        return [(None, group) for group in field]
    return [(None, list(field))]


def enter_outcome(phone: Phone, event: GameEvent, filled: Callable[[], None] = lambda: None) -> None:
    """Fill the table's form as a person would: the value of each die on its colour's row (a colour's values go
    to its dice in the order tapped: here the record's), or each card or tile picked by name from those left
    (the form moves on to the next place by itself), then (after ``filled()``, the form filled in) Record."""
    page = phone.page
    drawn = picks(event)
    if event.TYPE == "DiceRolled":
        for die, (value,) in drawn:
            page.locator(f'#outcome [data-color="{NEW.die_colors[die]}"] button[data-value="{value}"]').click()
    else:
        keyed = dict(drawn)
        keys = page.eval_on_selector_all("#outcome .slot[data-slot]", "slots => slots.map((s) => s.dataset.key)")
        order = [keyed[k] for k in keys] if keys and keys[0] else [p for _, p in drawn]
        for ids in order:
            for ident in ids:
                page.locator(f'#outcome .pick[data-id="{ident}"]').click()
    filled()
    page.locator("#outcome button.record").click()


def moves(export: bytes) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """A canonical export's header and its entries without their stamps (who entered each, and when) and
    hashes (which chain the stamps)."""
    data = json.loads(export)
    header = {k: data[k] for k in ("format", "schema", "ruleset", "catalog", "players")}
    return header, [{k: v for k, v in e.items() if k not in ("at", "by", "hash")} for e in data["events"]]


CUT_AT, CUT_FOR = 40, 30.0
"""A watcher's connection is cut at entry 40, for 30 seconds, while the game goes on."""
CLOSED_AT = 60
"""Duarte's page is closed after entry 60, and opened again when his phone is next needed."""


def test_a_whole_game_entered_on_four_phones_and_followed_by_two_watchers(browser, new_game: Served):
    log = log_reader.read(FIXTURE)
    names = [n for n, _ in log.players]
    phones = {name: Phone(browser, new_game.line["players_url"], me=name) for name in names}
    watchers = [Phone(browser, new_game.line["watchers_url"]) for _ in range(2)]
    every = [*phones.values(), *watchers]
    cut, cut_since, missed = watchers[1], None, 0
    entered_by = []
    started = time.perf_counter()
    for k, event in enumerate(log.events):
        if k == CUT_AT:
            cut.context.set_offline(True)
            cut_since = time.monotonic()
        elif cut_since is not None and time.monotonic() - cut_since >= CUT_FOR:
            missed = k - cut.entries()
            cut.context.set_offline(False)
            cut_since = None
        if k == CLOSED_AT:
            phones["Duarte"].page.close()
        phone = phones[event.actor] if event.actor in phones else phones[names[k % len(names)]]
        if phone.page.is_closed():
            phone.reopen(new_game.url + "/play")
            assert phone.seats() == ["Duarte"]  # the phone keeps its seat
        phone.at(k)
        if event.actor in phones:
            phone.tap(f'#options button[data-input="{notation(event)}"]')
        else:
            enter_outcome(phone, event)
        entered_by.append(phone.me)
        if k == 20:
            for p in every:
                p.at(k + 1)
            did = new_game.client(new_game.watchers).get(new_game.api()).json()["entries"][-1]
            for p in every:  # every screen shows what the latest input did on the table, each change with its rule
                shown = p.page.inner_text("#changes")
                assert did["text"] in shown and all(c["rule"] in shown for c in did["changes"])
            for name, p in phones.items():
                p.shot(f"round-1-{name}")
            watchers[0].shot("round-1-watcher")
    if cut_since is not None:  # a game quicker than the cut
        time.sleep(max(0.0, CUT_FOR - (time.monotonic() - cut_since)))
        missed = len(log.events) - cut.entries()
        cut.context.set_offline(False)
    for p in every:
        p.at(len(log.events))
    took = time.perf_counter() - started
    heads = {p.head() for p in every}
    assert len(heads) == 1 and missed > 0
    for name, p in phones.items():
        p.page.locator("#scores").scroll_into_view_if_needed()
        p.shot(f"over-{name}")
    watchers[0].page.locator("#scores").scroll_into_view_if_needed()
    watchers[0].shot("over-watcher")
    assert all(p.page.locator("#scores").is_visible() for p in every)
    assert all(p.page.locator("#options button").count() == 0 for p in phones.values())
    assert all(w.page.locator("#act, #seat-box, #seat-prompt, #undo, form").count() == 0 for w in watchers)  # only watch
    assert all(not p.errors for p in every), [p.errors for p in every]

    exported = coimbra(new_game.db, "export", new_game.game)
    assert exported.returncode == 0, exported.stderr
    export = exported.stdout.encode()
    played = GameLog(NEW.id, NEW.sha256, log.players, log.events, log.ruleset, {})  # a new game: on the named map
    assert moves(export) == moves(game_log.dumps(played))
    assert heads == {json.loads(export)["events"][-1]["hash"]}
    assert [e["by"] for e in json.loads(export)["events"]] == entered_by  # who entered each, on their phone
    print(f"\nwhole game through the pages: {len(log.events)} entries in {took:.1f} s")


SMALLEST = {"width": 360, "height": 740}
LAPTOP = {"width": 1280, "height": 800}
TOO_SMALL = """() => [...document.querySelectorAll("button, select, input, summary, a[href]")]
  .filter((e) => e.getClientRects().length && getComputedStyle(e).visibility !== "hidden")
  .map((e) => [e.id || e.className || e.tagName, e.getBoundingClientRect()])
  .filter(([, box]) => box.width < 44 || box.height < 44).map(([name, box]) => `${name} ${box.width}x${box.height}`)"""
SPILLED = "document.documentElement.scrollWidth - document.documentElement.clientWidth"


@pytest.mark.parametrize(("entries", "sizes"), [(4, (SMALLEST, LAPTOP)), (17, (SMALLEST,)), (33, (SMALLEST,)), (211, (SMALLEST,))],
                         ids=["a-deal", "a-roll", "a-players-options", "the-final-scores"])
def test_at_360_px_and_on_a_laptop_every_control_is_44_px_nothing_spills_over_and_axe_finds_nothing(
        browser, looked_at, entries: int, sizes: tuple[dict[str, int], ...]):
    served = looked_at(entries)
    for url, role in ((served.line["players_url"], "player"), (served.line["watchers_url"], "watcher")):
        for size in sizes:
            phone = Phone(browser, url, me="Ana" if role == "player" else None, audit=True, viewport=size)
            if role == "player" and entries < 211:
                phone.page.click("#more summary")  # the notes and typed inputs too
            assert phone.page.evaluate(SPILLED) <= 0
            assert phone.page.evaluate(TOO_SMALL) == []
            if size is SMALLEST:  # the same page at either size
                assert axe_violations(phone.page) == []
            phone.shot(f"{role}-{size['width']}-after-{entries}")
            assert phone.requests and all(r.startswith(served.url + "/") for r in phone.requests)  # nothing from elsewhere
            phone.context.close()


def test_each_players_panel_says_the_space_of_the_pilgrim_by_its_name(browser, serve, tmp_path_factory):
    """A new game is on the named map: after the start choices each player's panel says where the pilgrim
    stands as the map's label does (North Gate), never by the space's id."""
    log = tmp_path_factory.mktemp("named") / "named.json"
    assert coimbra(serve.db, "simulate", "--players", "4", "--seed", "3", "-o", str(log)).returncode == 0
    record = json.loads(log.read_bytes())
    log.write_text(json.dumps({**record, "events": record["events"][:33]}))
    assert coimbra(serve.db, "import", str(log), "--name", "named").returncode == 0
    view = json.loads(coimbra(serve.db, "show", "named", "--json").stdout)
    served = serve("named")
    watcher = Phone(browser, served.line["watchers_url"])
    shown = dict(watcher.page.eval_on_selector_all(
        '#boards [data-field="pilgrim"]', "dd => dd.map((d) => [d.closest('[data-player]').dataset.player, d.textContent])"))
    said = {p["name"]: view["legend"]["spaces"][p["pilgrim"]] for p in view["players"]}
    assert shown == said and all(name.endswith(" Gate") for name in said.values()), (shown, said)
    watcher.context.close()


def test_two_taps_on_one_head_one_is_stored_the_other_page_says_what_changed_and_the_cli_records_meanwhile(browser, fixture_game):
    served = fixture_game(6, "taps")  # Bruno places his pilgrim first
    bruno = Phone(browser, served.line["players_url"], me="Bruno")
    tab = Phone(browser, served.line["players_url"], me="Bruno", context=bruno.context)  # another tab of his phone
    taps = {phone: phone.page.get_attribute("#options button.option >> nth=%d" % k, "data-input")
            for k, phone in enumerate((bruno, tab))}
    assert len(set(taps.values())) == 2 and bruno.head() == tab.head()
    held: list[Any] = []  # each tap's request, held on its way out until both are made: neither page hears first
    for phone in taps:
        phone.page.route("**/inputs", lambda route: held.append(route))
    for phone, given in taps.items():
        phone.page.evaluate("given => document.querySelector(`#options button[data-input='${given}']`).click()", given)
    deadline = time.monotonic() + 15
    while len(held) < 2 and time.monotonic() < deadline:
        bruno.page.wait_for_timeout(10)
    assert len(held) == 2, "each tap sends its input"
    for route in held:
        route.continue_()
    for phone in taps:
        phone.page.unroute("**/inputs")
    for phone in taps:
        phone.at(7)
    # the loser's page may show entry 7 from its stream before its own input's answer (409) comes back to it
    deadline, told = time.monotonic() + 15, []
    while not told and time.monotonic() < deadline:
        told = [p for p in taps if p.page.get_attribute("#message", "data-kind") == "conflict"]
        bruno.page.wait_for_timeout(0 if told else 20)
    assert len(told) == 1 and bruno.head() == tab.head()
    (loser,) = told
    (winner,) = (p for p in taps if p is not loser)
    stored = served.client(served.players).get(served.api()).json()["entries"][-1]
    assert stored["notation"] == taps[winner] and stored["by"] == winner.me
    message = loser.page.inner_text("#message")
    assert "Not stored" in message and stored["text"] in message
    loser.shot("two-taps-told")

    now = served.client(served.players).get(served.api()).json()
    acted = coimbra(served.db, "act", served.game, now["legal"]["options"][0], "--after", now["head"])
    assert acted.returncode == 0, acted.stderr  # the CLI records into the same game meanwhile: the pages are told
    for phone in taps:
        phone.at(8)


def test_a_refusal_is_said_with_its_rule_before_anything_is_stored_then_accepted_undone_and_noted(browser, fixture_game):
    served = fixture_game(33, "breaks")  # Bruno retrieves a die: the alternative is two coins and two guards
    bruno = Phone(browser, served.line["players_url"], me="Bruno")
    watcher = Phone(browser, served.line["watchers_url"])
    page = bruno.page
    options = page.locator("#options .option").count()
    assert options > 8  # more than a phone shows at once: a search box finds one
    page.fill("#option-search", "2 guards")
    shown = page.eval_on_selector_all("#options .option:not([hidden])", "b => b.map((o) => o.innerText)")
    assert 0 < len(shown) < options and all("2 guards" in text for text in shown)
    page.click("#more summary")
    page.fill("#typed", "Bruno: alt 3c 0g")
    page.click("#typed-form button")
    bruno.until("document.getElementById('message').dataset.kind === 'refused'")
    refusal = page.inner_text("#message")
    assert "rule C.alternative" in refusal and "nothing stored" in refusal and bruno.entries() == 33
    bruno.shot("refused")

    page.fill("#accept-reason", "house rule: three coins")
    page.click("#accept-form button")
    for phone in (bruno, watcher):
        phone.at(35)  # the accepted break, and the move
    did = watcher.page.inner_text("#changes")  # the override with its reason, the move, and its changes by rule
    assert "house rule: three coins" in did and "Bruno: take 3 coins and no guards" in did  # words, not "alt 3c 0g"
    assert "coin marker from 12 to 15 C.alternative" in did
    entries = served.client(served.watchers).get(served.api()).json()["entries"]
    assert [e["type"] for e in entries[-2:]] == ["RuleOverridden", "AlternativeTaken"]

    asked: list[str] = []
    page.once("dialog", lambda dialog: (asked.append(dialog.message), dialog.accept()))
    page.click("#undo")
    for phone in (bruno, watcher):
        phone.at(36)
    assert asked == [f"Withdraw 35. {entries[-1]['text']}? It stays in the record, marked withdrawn."]
    page.select_option("#note-at", "33")  # the latest move left in the line of play
    page.fill("#note-text", "we always play it this way")
    page.click("#note-form button")
    for phone in (bruno, watcher):
        phone.at(37)
    said = [e["text"] for e in served.client(served.watchers).get(served.api()).json()["entries"][-2:]]
    assert "withdraw entry 35" in said[0] and "we always play it this way" in said[1]
    assert page.locator("#message").is_hidden() and not bruno.errors and not watcher.errors


def test_the_pages_are_shells_served_without_a_token_with_only_their_own_scripts(looked_at):
    served = looked_at(4)
    client = served.client()
    for path in ("/play", "/watch", "/static/board.js", "/static/seats.js", "/static/board_input.js", "/static/turn.js",
                 "/static/option_list.js", "/static/outcome.js", "/static/live.js", "/static/live.css",
                 "/static/replay.css"):
        answer = client.get(path)
        assert answer.status_code == 200, path
        assert "script-src 'self'" in answer.headers["content-security-policy"]
        assert answer.headers["referrer-policy"] == "no-referrer"
        assert served.game not in answer.text and served.players not in answer.text  # no game data, no token
    assert client.get("/play").text == client.get("/watch").text
    for path in ("/static/nothing.js", "/static/..%2Fpages.py", "/static/play.html"):
        assert client.get(path).status_code == 404
