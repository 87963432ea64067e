"""The organiser's tournament panel (``/club``) in a real browser: a tournament begun from the league's people (and
two names typed) seats round 1 and serves its tables with the evening's tag; "Seat round 2" names the tables not
finished; once their games are over (played through the store, as tables do) the standings after round 1 show
without a reload, and round 2 is seated; axe-core finds no violation on a laptop (1280×800) and a phone (390×844)."""

from __future__ import annotations

import json
from typing import Callable

import pytest

from tests.browser_kit import axe_violations
from tests.live.conftest import Served, coimbra
from tests.live.test_club import imported
from tests.live.test_club_page import LAPTOP, PHONE, browser  # noqa: F401  (browser: the module's Chromium, a fixture)
from tests.tournament_play import finish


@pytest.fixture(scope="module")
def club(serve: Callable[..., Served], tmp_path_factory: pytest.TempPathFactory) -> Served:
    """A finished game (the league knows Ana, Bruno, Carla, Duarte) and the server of every table, tagged."""
    imported(serve.db, tmp_path_factory.mktemp("logs"), "finished", None)  # type: ignore[attr-defined]
    return serve("--tag", "cup-night")


def test_a_tournament_begun_on_the_page_is_seated_played_and_standings_shown(browser, club: Served) -> None:
    context = browser.new_context(viewport=LAPTOP, bypass_csp=True)
    page = context.new_page()
    page.goto(club.line["organiser_url"])
    page.wait_for_function("document.querySelectorAll('#tournament-people input').length === 4")
    page.click("#tournament-new summary")
    assert axe_violations(page) == []
    page.fill("#tournament-name", "cup")
    for person in ("Ana", "Bruno", "Carla", "Duarte"):
        page.check(f"#tournament-people input[value={person}]")
    page.fill("#tournament-more", "Eva, Filipe")
    page.fill("#tournament-rounds", "2")
    page.click("#tournament-start")
    cup = page.locator("#tournaments article", has=page.locator("h3", has_text="cup"))
    cup.locator(".round-tables li").nth(1).wait_for(timeout=10_000)
    assert page.inner_text("#tournament-said") == "Began cup: round 1 seated, 2 tables started."
    assert cup.locator(".where").inner_text() == "Round 1 of 2"
    seated = cup.locator(".round-tables li").all_inner_texts()
    assert [t.split(" (")[0] for t in seated] == ["Table 1", "Table 2"] and "cup-r1-t1, in progress" in seated[0]
    page.locator("#tables h3", has_text="cup-r1-t2").wait_for(timeout=10_000)  # served at once, on the page's list
    listed = club.client(club.line["organiser_token"]).get("/api/tables").json()["tables"]
    assert {t["game"] for t in listed} >= {"cup-r1-t1", "cup-r1-t2"}

    cup.locator("button.next").click()
    page.wait_for_function("document.querySelector('#tournament-said').textContent.includes('is not over')")
    assert page.inner_text("#tournament-said").startswith("cup: round 1 is not over: table 1 (cup-r1-t1: ")

    finish(club.db, ["cup-r1-t1", "cup-r1-t2"])
    cup.locator("h4", has_text="Round 1: over").wait_for(timeout=10_000)
    shown = [row.split("\t") for row in cup.locator(".standings tr").all_inner_texts()[1:]]
    told = coimbra(club.db, "tournament", "standings", "cup", "--json")
    assert told.returncode == 0, told.stderr
    lines = json.loads(told.stdout)["standings"]
    assert [(r[1], float(r[2])) for r in shown] == [(line["player"], line["points"]) for line in lines]
    assert sum(line["points"] for line in lines) == 12  # two tables of three: 4 + 2 + 0 each
    assert axe_violations(page) == []

    cup.locator("button.next").click()
    page.wait_for_function("document.querySelector('#tournament-said').textContent === 'cup: round 2 seated, 2 tables started.'")
    cup.locator("h4", has_text="Round 2: 0 of 2 tables finished").wait_for(timeout=10_000)
    assert cup.locator("button.next").count() == 0  # both rounds seated
    games = json.loads(coimbra(club.db, "games", "--tag", "cup/round-2", "--json").stdout)
    assert sorted(g["name"] for g in games["games"]) == ["cup-r2-t1", "cup-r2-t2"]
    assert all(set(g["tags"]) == {"cup", "cup/round-2", "cup-night"} for g in games["games"])
    context.close()

    phone = browser.new_context(viewport=PHONE, bypass_csp=True, has_touch=True, is_mobile=True).new_page()
    phone.goto(club.line["organiser_url"])
    phone.locator("#tournaments article h4", has_text="Round 2").wait_for(timeout=10_000)
    phone.click("#tournaments details.earlier summary")
    assert axe_violations(phone) == []
    phone.context.close()
