"""The board is the input, and a turn is unmistakable (issue 40, items 1 and 2), in a real browser.

Phones at 390×844 with touch open the players' page of the 4-player fixture cut at a decision: the due
player taps a die in the dice area and then one of the places lit for it (two taps), or the card, the
favor tile, the track, the map space or the voyage (one tap); the compact list beside it has one row per
die. Who is due stays in view at every tap; the phone whose seat becomes due is told (the tab's title, a
vibration: ``navigator.vibrate`` is replaced by a recorder before the page loads) and shown its controls,
while another phone's page does not move.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from typing import Any, Iterator

import pytest

from cli.presenter import notation
from coimbra_events import log as game_log, log_reader
from coimbra_events.log import GameLog
from tests.browser_kit import axe_violations, axe_violations_of, chromium
from tests.live.board_taps import DUE_IN_VIEW, RECORDER, WHERE, board_taps
from tests.live.conftest import FIXTURE, Served, coimbra
from tests.live.test_pages import LAPTOP, NEW, PHONE, Phone, enter_outcome, moves, new_game, picks  # noqa: F401 (a fixture)

EVENTS = log_reader.read(FIXTURE).events


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    yield from chromium()


class TappingPhone(Phone):
    """A phone whose vibration and screen wake lock are recorded, and whose taps are counted by the page, with
    those at which who is due was not in view (``tests.live.board_taps.RECORDER``)."""

    def open(self, url: str) -> None:
        self.page.add_init_script(RECORDER)
        super().open(url)

    def claim(self, seat: str) -> None:
        """Claim ``seat`` on the prompt, then count from zero: the claim is the phone's setup, not a decision's tap."""
        super().claim(seat)
        self.page.evaluate("window.taps.all = 0; window.taps.hidden = 0;")

    @property
    def taps(self) -> int:
        return self.page.evaluate("window.taps.all")

    @property
    def hidden_due(self) -> int:
        return self.page.evaluate("window.taps.hidden")


def test_a_die_is_drafted_by_two_taps_on_the_board_and_the_line_says_what_each_does(browser, fixture_game):
    served = fixture_game(18, "draft")  # Duarte drafts first
    duarte = TappingPhone(browser, served.line["players_url"], me="Duarte")
    page = duarte.page
    assert page.locator("#city .choosable").count() == 0  # no place lit before a die is tapped
    first, then = board_taps(EVENTS[18])
    duarte.tap(first)
    line = page.inner_text("#pick-line")
    assert line.startswith("Orange die showing ") and "tap a place" in line
    lit = page.eval_on_selector_all("#city .choosable", "g => g.map((n) => n.dataset.location)")
    places = {o["pick"]["location"] for o in served.client(served.players).get(served.api()).json()["legal"]["described"]
              if o["pick"].get("die") == "orange-3"}
    assert set(lit) == places and len(lit) >= 2
    label = page.get_attribute(then, "aria-label")
    assert "orange" in label.lower() and page.get_attribute(then, "role") == "button"
    duarte.tap(then)
    duarte.at(19)
    duarte.until("document.getElementById('pick-line').textContent.startsWith('Done: ')")
    stored = served.client(served.players).get(served.api()).json()["entries"][-1]
    assert stored["notation"] == notation(EVENTS[18]) and stored["by"] == "Duarte"
    assert duarte.taps == 2 and duarte.hidden_due == 0 and not duarte.errors


def test_the_board_is_tapped_with_the_keyboard_too_and_axe_finds_nothing(browser, fixture_game):
    served = fixture_game(18, "keys")
    for size in (None, LAPTOP):
        phone = Phone(browser, served.line["players_url"], me="Duarte", audit=True, **({"viewport": size} if size else {}))
        page = phone.page
        page.focus('#dice [data-choose-die="orange-3"]')
        page.keyboard.press("Enter")
        phone.until("document.querySelectorAll('#city .choosable').length > 0")
        assert page.get_attribute('#dice [data-choose-die="orange-3"]', "aria-pressed") == "true"
        assert axe_violations(page) == []
        if size is LAPTOP:
            page.focus('#city [data-location="lower"][data-option]')
            page.keyboard.press(" ")
            phone.at(19)
        phone.context.close()


def test_a_die_focused_with_the_keyboard_keeps_the_focus_when_the_page_reads_the_game_again(browser, fixture_game):
    """Another phone claims a seat while a keyboard's user is on a die: the page reads the game again and marks
    its board anew, and the die keeps the focus, so that Enter still lights its places."""
    served = fixture_game(18, "joining")
    duarte = Phone(browser, served.line["players_url"], me="Duarte")
    page = duarte.page
    page.focus('#dice [data-choose-die="orange-3"]')
    Phone(browser, served.line["players_url"], me="Carla")
    duarte.until("""document.querySelector('#seat-choices button[data-seat="Carla"]').textContent.includes('another phone')""")
    page.keyboard.press("Enter")
    duarte.until("document.querySelectorAll('#city .choosable').length > 0")
    assert page.get_attribute('#dice [data-choose-die="orange-3"]', "aria-pressed") == "true"


def test_a_page_not_up_to_date_sends_nothing_from_the_board(browser, fixture_game):
    """Another device records two entries at once while this page's reads fail (its stream stays open and tells
    them; the first comes without the view after it, so the page must read the game): the page is not up to date,
    and a tap on its board, which shows the table before, sends nothing and says so."""
    served = fixture_game(18, "offline")
    phone = Phone(browser, served.line["players_url"], me="Duarte")
    reads = re.compile(r"/api/games/[^/?]+\?since=")
    phone.page.route(reads, lambda route: route.abort())
    with served.client(served.players) as scribe:
        head = scribe.get(served.api()).json()["head"]
        inputs = [notation(e) for e in EVENTS[18:20]]
        assert scribe.post(served.api("/inputs"), json={"inputs": inputs, "after": head}).status_code == 200
    phone.until("document.body.dataset.live !== '1' && document.getElementById('connection').textContent.includes('could not be reached')")
    assert phone.page.evaluate("document.body.dataset.entries") == "18"  # it still shows the table before
    phone.page.locator('#dice [data-choose-die="orange-3"]').click()
    assert "Not up to date" in phone.page.inner_text("#pick-line")
    assert phone.page.locator("#city .choosable").count() == 0
    phone.page.unroute(reads)
    phone.at(20)
    phone.until("document.body.dataset.live === '1'")
    assert served.client(served.players).get(served.api()).json()["events"] == 20  # the tap sent nothing


@pytest.mark.parametrize("entries", [6, 14, 16, 30, 34, 67],
                         ids=["a-start-space", "a-step", "a-track", "a-favor-tile", "a-card", "a-voyage"])
def test_a_pick_on_the_board_is_one_tap(browser, fixture_game, entries: int):
    served = fixture_game(entries, f"pick-{entries}")
    event = EVENTS[entries]
    phone = TappingPhone(browser, served.line["players_url"], me=event.actor)
    (where,) = board_taps(event)
    assert where.startswith("#options") is False
    phone.tap(where)
    phone.at(entries + 1)
    stored = served.client(served.players).get(served.api()).json()["entries"][-1]
    assert stored["notation"] == notation(event) and phone.taps == 1 and phone.hidden_due == 0 and not phone.errors


def test_the_list_has_one_row_per_die_each_place_a_button_of_its_own(browser, fixture_game):
    served = fixture_game(18, "list")
    phone = Phone(browser, served.line["players_url"], me="Duarte")
    described = served.client(served.players).get(served.api()).json()["legal"]["described"]
    dice = {o["pick"]["die"] for o in described if o["type"] == "DiePlaced"}
    rows = phone.page.eval_on_selector_all(
        "#options .option-row", "rows => rows.map((r) => [r.getAttribute('aria-label'), r.querySelectorAll('.option').length])")
    assert len(rows) == len(dice) and sum(n for _, n in rows) == len(described) and all(n <= 4 for _, n in rows)
    assert all(label.endswith(tuple("123456")) and " die showing " in label for label, _ in rows)
    widths = phone.page.eval_on_selector_all("#options .option", "b => b.map((o) => o.getBoundingClientRect().width)")
    assert max(widths) < 0.5 * 390  # never one full-width button per combination
    phone.tap(f'#options button[data-input="{notation(EVENTS[18])}"]')  # one tap in the list
    phone.at(19)


def test_on_your_turn_the_phone_is_told_and_shown_its_controls_and_another_page_stays_still(browser, fixture_game):
    served = fixture_game(18, "turn")  # Duarte, then Carla drafts
    duarte, carla, ana = (TappingPhone(browser, served.line["players_url"], me=n) for n in ("Duarte", "Carla", "Ana"))
    assert duarte.page.title().startswith("Your turn · ") and duarte.page.evaluate("window.buzzes.length") == 1
    assert duarte.page.evaluate("window.locks.length") == 1
    assert not carla.page.title().startswith("Your turn") and carla.page.evaluate("window.buzzes.length") == 0
    for phone in (carla, ana):
        phone.page.evaluate("window.scrollTo(0, 900)")
    # what a person sees stays where it is: the board's place on the screen (the browser keeps it there by moving
    # the scroll position when entries above it change height: scroll anchoring)
    in_view = "document.getElementById('table').getBoundingClientRect().top"
    still = ana.page.evaluate(in_view)
    assert ana.page.evaluate("window.scrollY") > 0 and 0 < still < 844
    for selector in board_taps(EVENTS[18]):
        duarte.tap(selector)
    for phone in (duarte, carla, ana):
        phone.at(19)
    assert ana.page.evaluate(in_view) == still  # not its turn: the page did not move under the thumb
    assert ana.page.evaluate("window.buzzes.length") == 0 and not ana.page.title().startswith("Your turn")
    carla.until("document.title.startsWith('Your turn · ')")
    assert carla.page.evaluate("window.buzzes.length") == 1  # its turn: told, and its controls in view
    assert carla.page.evaluate("""() => { const box = document.querySelector("#table .choosable").getBoundingClientRect();
      return box.top >= 0 && box.bottom <= window.innerHeight; }""")
    assert not duarte.page.title().startswith("Your turn") and duarte.page.evaluate("window.locks[0].released")
    assert all(p.page.evaluate(DUE_IN_VIEW) for p in (duarte, carla, ana))


def test_a_whole_game_tapped_on_the_board_by_four_phones_counting_taps_and_who_is_due_in_view(browser, new_game: Served):
    """The fixture played from a new game: each decision tapped on its player's phone (on the board where the
    board shows it, else in the list), each outcome entered on the table's form. axe-core audits every state the
    game passes through on both pages at both sizes: the phone due (before its last tap: with a die tapped, for a
    draft, or the outcome's form filled in), a players' page of the other size waiting, and both watchers' pages.
    One player's page and one watchers' page are a laptop's (1280×800), the others a phone's (390×844)."""
    log = log_reader.read(FIXTURE)
    names = [n for n, _ in log.players]
    phones = {name: TappingPhone(browser, new_game.line["players_url"], me=name, audit=True,
                                 viewport=LAPTOP if name == names[0] else PHONE) for name in names}
    watchers = [Phone(browser, new_game.line["watchers_url"], audit=True, viewport=size) for size in (PHONE, LAPTOP)]
    taps: dict[str, list[int]] = {}
    outcomes: dict[str, list[int]] = {}
    by_list = Counter()
    audits = 0

    def audit(phone: TappingPhone, k: int, event: Any) -> None:
        """axe-core on every page of the state after ``k`` entries (``phone``: the one about to enter entry k+1)."""
        nonlocal audits
        other = phones[names[1]] if phone is phones[names[0]] else phones[names[0]]  # the other size, waiting
        for page in (other, *watchers):
            page.at(k)
        pages = [phone, other, *watchers]
        found = axe_violations_of([p.page for p in pages])
        audits += len(pages)
        assert found == [[]] * len(pages), (k, event.TYPE, [(p.me, f) for p, f in zip(pages, found) if f])

    for k, event in enumerate(log.events):
        phone = phones[event.actor] if event.actor in phones else phones[names[k % len(names)]]
        phone.at(k)
        before = phone.taps
        if event.actor not in phones:
            enter_outcome(phone, event, lambda: audit(phone, k, event))
        else:
            where = board_taps(event)
            by_list[event.TYPE] += where[0].startswith("#options")
            for step, selector in enumerate(where):
                if step == len(where) - 1:  # a die tapped, for a draft
                    audit(phone, k, event)
                phone.page.locator(selector).click()
        (outcomes if event.RANDOM else taps).setdefault(event.TYPE, []).append(phone.taps - before)
        if event.RANDOM:  # a tap per die, card or tile drawn, and Record: nothing typed, nothing searched
            assert phone.taps - before <= sum(len(ids) for _, ids in picks(event)) + 1, (k, event.TYPE, phone.taps - before)
    for p in phones.values():
        p.at(len(log.events))
    audit(phones[names[0]], len(log.events), log.events[-1])  # and the game over
    assert audits == 4 * (len(log.events) + 1)
    decisions = {kind: max(counts) for kind, counts in taps.items()}
    print(f"\ntaps per decision (most): {decisions}; per outcome (most): { {kind: max(c) for kind, c in outcomes.items()} }; "
          f"through the list: {dict(by_list)}")
    assert decisions.pop("DiePlaced") == 2 and set(decisions.values()) == {1}
    assert sum(by_list[kind] for kind in (*WHERE, "DiePlaced")) == 0  # every pick the board shows was tapped on it
    assert sum(p.hidden_due for p in phones.values()) == 0 and sum(p.taps for p in phones.values()) >= len(log.events)
    assert all(not p.errors for p in (*phones.values(), *watchers)), [p.errors for p in (*phones.values(), *watchers)]
    exported = coimbra(new_game.db, "export", new_game.game)
    assert exported.returncode == 0, exported.stderr
    played = GameLog(NEW.id, NEW.sha256, log.players, log.events, log.ruleset, {})
    assert moves(exported.stdout.encode()) == moves(game_log.dumps(played))
    assert json.loads(exported.stdout)["events"][-1]["by"] in names
