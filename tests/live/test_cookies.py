"""Session cookies per table and role: a watchers' tab beside a players' tab, two tables on one computer, a restart.

One httpx client is one browser: its cookie jar holds what every tab of it was given (cookies do not tell ports
apart), and each request sends them all, as a page's requests do.
"""

from __future__ import annotations

from typing import Callable

import httpx

from tests.live.conftest import Served


def joined(browser: httpx.Client, served: Served, token: str) -> None:
    """A tab of ``browser`` opens ``served``'s link: the page trades its token for the session cookie."""
    answer = browser.post(f"{served.url}/api/session", headers={"Authorization": f"Bearer {token}", "Origin": served.url})
    assert answer.status_code == 200, answer.text


def noted(browser: httpx.Client, served: Served) -> int:
    """A note written with the cookies alone, as a page writes; the answer's status."""
    return browser.post(f"{served.url}{served.api('/notes')}", json={"at": 1, "text": "cookie"},
                        headers={"Origin": served.url}).status_code


def test_the_watchers_link_in_another_tab_leaves_the_players_tab_writing(fixture_game: Callable[..., Served]) -> None:
    served = fixture_game(8, "two-tabs")
    with httpx.Client(timeout=30) as browser:
        joined(browser, served, served.players)
        joined(browser, served, served.watchers)
        names = {cookie.name for cookie in browser.cookies.jar}
        assert len(names) == 2 and all(n.startswith("coimbra_") for n in names)
        assert noted(browser, served) == 200


def test_two_tables_on_one_computer_keep_their_sessions(fixture_game: Callable[..., Served]) -> None:
    first, second = fixture_game(8, "first-table"), fixture_game(8, "second-table")
    assert first.url != second.url
    with httpx.Client(timeout=30) as browser:
        joined(browser, first, first.players)
        joined(browser, second, second.players)
        assert noted(browser, first) == 200 and noted(browser, second) == 200
        assert browser.get(f"{first.url}{first.api()}").status_code == 200


def test_a_restarted_table_takes_the_cookies_its_pages_hold(fixture_game: Callable[..., Served], serve) -> None:
    served = fixture_game(8, "cookie-restart")
    with httpx.Client(timeout=30) as browser:
        joined(browser, served, served.players)
        assert served.stop() == 0
        again = serve(served.game)
        assert browser.get(f"{again.url}{again.api()}").status_code == 200
        assert again.stop() == 0
        renewed = serve(served.game, "--new-links")
        assert browser.get(f"{renewed.url}{renewed.api()}").status_code == 401
