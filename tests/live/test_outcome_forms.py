"""The table's outcome forms in Chromium (``tests.browser_kit``), as fast as the table can read them out:
a roll in dice + 1 taps, a colour's values in any order, on buttons in the dice's colours; a deal a tap per
card, from only the cards the rules allow; a refusal that names the card; setup forms by printed names, a
monastery space also chosen on the drawn map. axe-core finds nothing on the forms."""

from __future__ import annotations

import re
from typing import Any, Callable, Iterator

import pytest

from coimbra_events import log_reader
from coimbra_events.catalog import standin_catalog
from coimbra_events.rules.outcomes import KINDS
from coimbra_events.state import TABLE
from projections.naming import KINDS as NAMED, name_of
from tests.browser_kit import axe_violations, chromium
from tests.live.conftest import FIXTURE, Served, coimbra
from tests.live.test_pages import Phone

LOG = log_reader.read(FIXTURE)
ROLL_AT = next(k for k, e in enumerate(LOG.events) if e.TYPE == "DiceRolled")
"""Entries of the fixture before its first roll."""
ROWS_AT = next(k for k, e in enumerate(LOG.events) if e.TYPE == "CharacterRowsDealt")
CATALOG = standin_catalog()


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    yield from chromium()


@pytest.fixture(scope="module")
def deal(fixture_game: Callable[..., Served]) -> Served:
    """The fixture where the table deals the character rows (only looked at)."""
    return fixture_game(ROWS_AT, "deal")


@pytest.fixture(scope="module")
def named_map(serve: Callable[..., Served]) -> Served:
    """A new game on the catalog with the map's printed names, its monasteries to be drawn."""
    players = ",".join(f"{n}:{c}" for n, c in LOG.players)
    made = coimbra(serve.db, "new", "--players", players, "--name", "named")  # type: ignore[attr-defined]
    assert made.returncode == 0, made.stderr
    return serve("named")


def view_of(served: Served) -> dict[str, Any]:
    return served.client(served.players).get(served.api()).json()


def taps(phone: Phone) -> Callable[[str], None]:
    """A tap that counts itself in ``phone.taps``."""
    phone.taps = 0  # type: ignore[attr-defined]

    def tap(selector: str) -> None:
        phone.page.locator(selector).click()
        phone.taps += 1  # type: ignore[attr-defined]

    return tap


@pytest.fixture(scope="module")
def roll(fixture_game: Callable[..., Served]) -> Served:
    """The fixture where the table rolls the dice of round 1 (only looked at)."""
    return fixture_game(ROLL_AT, "roll")


def test_a_roll_form_is_in_the_boards_order_its_buttons_in_the_dice_colours_saying_them(browser, roll: Served):
    rolled = dict(LOG.events[ROLL_AT].values)
    phone = Phone(browser, roll.line["players_url"], me="Ana", audit=True)
    page = phone.page
    colors = page.eval_on_selector_all("#outcome fieldset[data-color]", "rows => rows.map((r) => r.dataset.color)")
    board = page.eval_on_selector_all("#dice [data-pool-die]", "dice => dice.map((d) => d.dataset.color)")
    assert colors == list(dict.fromkeys(board)) == list(dict.fromkeys(CATALOG.die_colors[d] for d in sorted(rolled)))
    for color in colors:  # each row's buttons wear its colour, and say it
        button = page.locator(f'#outcome fieldset[data-color="{color}"] button[data-value="4"]')
        assert button.get_attribute("aria-label") == f"{color} 4"
        assert button.evaluate("(b, c) => { const probe = document.createElement('i'); probe.style.color = c; "
                               "document.body.append(probe); const want = getComputedStyle(probe).color; probe.remove(); "
                               "return getComputedStyle(b).backgroundColor === want; }", color)
    assert axe_violations(page) == []
    page.locator("#outcome").scroll_into_view_if_needed()
    phone.shot("outcome-roll")
    assert phone.errors == []


@pytest.fixture(scope="module")
def to_roll(fixture_game: Callable[..., Served]) -> Served:
    """The fixture where the table rolls the dice of round 1, to be rolled here."""
    return fixture_game(ROLL_AT, "rolled")


def test_a_roll_is_dice_plus_one_taps_a_colours_values_in_any_order(browser, to_roll: Served):
    served = to_roll
    rolled = dict(LOG.events[ROLL_AT].values)
    phone = Phone(browser, served.line["players_url"], me="Ana")
    tap = taps(phone)
    for die in sorted(rolled, reverse=True):  # a colour's values backwards: gray-3's first
        tap(f'#outcome fieldset[data-color="{CATALOG.die_colors[die]}"] button[data-value="{rolled[die]}"]')
    tap("#outcome button.record")
    phone.at(ROLL_AT + 1)
    assert phone.taps == len(rolled) + 1  # type: ignore[attr-defined]
    shown = view_of(served)["table"]["dice_area"]
    for color in set(CATALOG.die_colors.values()):  # each colour shows the values read out, whichever die got which
        assert sorted(d["value"] for d in shown if d["color"] == color) == \
            sorted(v for d, v in rolled.items() if CATALOG.die_colors[d] == color)
    assert phone.errors == []


def test_a_roll_form_takes_no_more_values_of_a_colour_than_it_has_dice_and_a_value_is_taken_back(browser, roll: Served):
    phone = Phone(browser, roll.line["players_url"], me="Ana")
    page = phone.page
    white = '#outcome fieldset[data-color="white"]'
    page.click(f'{white} button[data-value="3"]')
    assert page.locator(f"{white} button.die-face:disabled").count() == 6  # one white die: its row is done
    page.click(f"{white} button.chip")  # taken back
    assert page.locator(f"{white} button.die-face:disabled").count() == 0
    assert page.locator("#outcome button.record").is_disabled()


def test_a_deal_is_a_grid_of_only_the_cards_the_rules_allow_a_tap_each(browser, deal: Served):
    state_allows = {str(c) for c, _ in KINDS["rows"].next_pieces(_state(deal), ())}
    phone = Phone(browser, deal.line["players_url"], me="Carla", audit=True)
    page = phone.page
    offered = page.eval_on_selector_all("#outcome .pool button.pick", "b => b.map((p) => p.dataset.id)")
    undealt = [c for pile in ("II", "III") for c in CATALOG.pile(pile)]
    assert set(offered) == state_allows and len(offered) < len(undealt)
    assert page.locator("#outcome input").count() == 0  # nothing to type
    names = page.eval_on_selector_all("#outcome .pool button.pick", "b => b.map((p) => p.innerText)")
    assert names == [name_of(CATALOG, c) for c in offered]
    assert axe_violations(page) == []
    page.locator("#outcome").scroll_into_view_if_needed()
    phone.shot("outcome-deal")
    rows = dict(LOG.events[ROWS_AT].rows)
    keys = page.eval_on_selector_all("#outcome .slot[data-slot]", "slots => slots.map((s) => s.dataset.key)")
    tap = taps(phone)
    for card in [c for city in keys for c in rows[city]]:
        tap(f'#outcome .pool button.pick[data-id="{card}"]')
    assert page.locator("#outcome .pool").count() == 0 and page.locator("#outcome button.record").is_enabled()
    assert phone.taps == 3 * len(rows[keys[0]])  # type: ignore[attr-defined]
    assert phone.errors == []


def test_a_refused_deal_names_the_card(browser, deal: Served):
    phone = Phone(browser, deal.line["players_url"], me="Carla")
    page = phone.page
    rows = LOG.events[ROWS_AT]
    stray = CATALOG.pile("III")[0]
    first = rows.rows[0][1][0]
    wrong = " ".join(f"{city}={','.join(stray if c == first else c for c in cards)}" for city, cards in rows.rows)
    page.click("#more summary")
    page.fill("#typed", f"table: rows {wrong}")
    page.click("#typed-form button")
    phone.until("document.getElementById('message').dataset.kind === 'refused'")
    said = page.inner_text("#message")
    assert name_of(CATALOG, stray) in said and "SETUP.rows" in said and phone.entries() == ROWS_AT


def test_the_setup_forms_say_printed_names_and_a_monastery_space_is_chosen_on_the_map(browser, named_map: Served):
    phone = Phone(browser, named_map.line["players_url"], me="Ana", audit=True)
    page = phone.page
    shown = page.inner_text("#outcome")
    ids = {i for table, _ in NAMED for i in getattr(CATALOG, table)} | set(CATALOG.map.spaces)
    assert not [i for i in ids if re.search(rf"(?<![\w-]){re.escape(i)}(?![\w-])", shown)], shown
    space = CATALOG.map.monastery_spaces["II"][1]
    page.click(f'#map [data-space="{space}"]')
    current = page.locator("#outcome .slot.current")
    assert current.get_attribute("data-key") == space
    assert page.locator(f'#map [data-space="{space}"][data-picking]').count() == 1
    phone.shot("outcome-monasteries")
    tiles = page.eval_on_selector_all("#outcome .pool button.pick", "b => b.map((p) => p.innerText)")
    assert tiles == [CATALOG.monasteries[m].name for m in CATALOG.monasteries_of("II")]
    assert axe_violations(page) == []
    assert phone.errors == []


def _state(served: Served) -> Any:
    """The table the served game is at: the fixture's, cut where the server's game ends."""
    from projections.timeline import timeline

    state = timeline(LOG.prefix(view_of(served)["events"])).final
    assert state.pending.actor == TABLE
    return state
