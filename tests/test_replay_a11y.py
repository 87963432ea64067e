"""The replay page (``export --format html``) for people who use a keyboard or a screen reader.

axe-core audits the page of every fixture game, and of a record with every kind of
history entry, at several states (before the first entry, the first entry, mid-game,
the last entry with the scores and their details open): no violation, including
axe-core's ``label-content-name-mismatch``, which it runs only when asked. The entry
list is reached with Tab and stepped through with the arrow keys; a control that
becomes disabled under the focus hands the focus to the slider, never to the page.
The pages are exported by the installed command and opened from disk in Debian's
Chromium (``tests/browser_kit.py``).
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path
from typing import Any, Iterator

import pytest

from coimbra_events import log as game_log, log_reader
from tests.browser_kit import axe_violations, chromium
from tests.conftest import FIXTURES, installed_coimbra
from tests.test_movelist import eventful

GAMES = sorted((FIXTURES / "games").glob("*.json"))
ALSO = ("label-content-name-mismatch",)


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    yield from chromium()


@pytest.fixture(scope="module")
def pages(tmp_path_factory: pytest.TempPathFactory) -> dict[str, tuple[Path, int]]:
    """Every fixture game's page and the page of a record with history entries, with their entry counts."""
    folder = tmp_path_factory.mktemp("pages")
    game_log.write(folder / "eventful.json", eventful().to_log())
    sources = [*GAMES, folder / "eventful.json"]
    out = {}
    for source in sources:
        page = folder / f"{source.stem}.html"
        done = subprocess.run([installed_coimbra(), "export", str(source), "--format", "html", "-o", str(page)],
                              capture_output=True, timeout=120, env={**os.environ, "COIMBRA_DB": str(folder / "g.sqlite")})
        assert done.returncode == 0, done.stderr.decode()
        out[source.stem] = (page, len(log_reader.read(source).events))
    return out


@pytest.fixture
def tab(browser: Any) -> Iterator[Any]:
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    yield page
    page.close()
    assert errors == []


def open_at(page: Any, html: Path, n: int) -> None:
    page.goto(f"{html.as_uri()}#entry={n}")
    page.wait_for_function(f"() => window.coimbraReplay && window.coimbraReplay.at === {n}")


NAMES = [p.stem for p in GAMES] + ["eventful"]


@pytest.mark.parametrize("name", NAMES)
def test_axe_finds_no_violation_at_any_state_of_the_page(tab: Any, pages: dict[str, tuple[Path, int]], name: str) -> None:
    html, last = pages[name]
    open_at(tab, html, 0)
    for n in (0, 1, last // 2, last):
        tab.evaluate(f"() => window.coimbraReplay.go({n})")
        if n == last:  # the scores and where their points came from, and the section list in use
            tab.evaluate("() => document.querySelectorAll('#scores details').forEach((d) => { d.open = true; })")
            tab.focus("#jump")
        assert axe_violations(tab, also=ALSO) == [], f"{name} at entry {n}"


def test_each_control_s_name_begins_with_what_it_shows(tab: Any, pages: dict[str, tuple[Path, int]]) -> None:
    """WCAG 2.5.3 (label in name): a person who says "click P plus" reaches the button that shows P+."""
    open_at(tab, pages[NAMES[0]][0], 1)
    controls = tab.evaluate("() => [...document.querySelectorAll('#controls button')]"
                            ".map((b) => [b.textContent.trim(), b.getAttribute('aria-label')])")
    lettered = [(shown, name) for shown, name in controls if any(c.isalpha() for c in shown)]
    assert len(lettered) == 4  # R− P− P+ R+; the arrows are symbols, named by what they do
    assert all(name.startswith(shown + " ") for shown, name in lettered), lettered


def focused(page: Any) -> str:
    """What has the focus: ``#id``, ``entry N`` (an entry of the list), or the element's tag."""
    return page.evaluate("""() => {
        const a = document.activeElement;
        const li = a.closest('#entry-list li[data-seq]');
        return li ? `entry ${li.dataset.seq}` : a.id ? `#${a.id}` : a.tagName;
    }""")


def test_the_entry_list_is_reached_with_tab_and_stepped_with_the_arrow_keys(tab: Any, pages: dict[str, tuple[Path, int]]) -> None:
    html, last = pages["eventful"]
    open_at(tab, html, 0)
    for _ in range(20):
        tab.keyboard.press("Tab")
        if focused(tab).startswith("entry"):
            break
    assert focused(tab) == "entry 0"  # the current entry: the list is one tab stop
    for key, n in (("ArrowDown", 1), ("ArrowDown", 2), ("ArrowDown", 3), ("ArrowUp", 2), ("End", last), ("Home", 0)):
        tab.keyboard.press(key)
        assert tab.evaluate("() => window.coimbraReplay.at") == n and focused(tab) == f"entry {n}", key
    tab.keyboard.press("End")
    shown = tab.evaluate("""() => {
        const list = document.getElementById('entry-list').getBoundingClientRect();
        const item = document.activeElement.getBoundingClientRect();
        return item.top >= list.top && item.bottom <= list.bottom;
    }""")
    assert shown  # the focused entry is scrolled into the list's view
    tab.keyboard.press("Tab")
    assert not focused(tab).startswith("entry")  # one tab stop: Tab leaves the list
    tab.keyboard.press("Shift+Tab")
    assert focused(tab) == f"entry {last}"
    assert tab.evaluate("() => document.querySelectorAll('#entry-list button[tabindex=\"0\"]').length") == 1


@pytest.mark.parametrize(("start", "button"), [("last-1", "next"), ("1", "prev"), ("last-1", "last"), ("1", "first")])
def test_a_control_disabled_under_the_focus_hands_it_to_the_slider(tab: Any, pages: dict[str, tuple[Path, int]],
                                                                   start: str, button: str) -> None:
    html, last = pages["eventful"]
    open_at(tab, html, last - 1 if start == "last-1" else 1)
    tab.focus(f"#{button}")
    tab.keyboard.press("Enter")
    assert tab.evaluate("() => window.coimbraReplay.at") == (last if start == "last-1" else 0)
    assert tab.evaluate(f"() => document.getElementById('{button}').disabled")
    assert focused(tab) == "#slider"
    assert tab.get_attribute("#slider", "aria-valuetext") == f"entry {last if start == 'last-1' else 0} of {last}"
