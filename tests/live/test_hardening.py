"""A server that holds on a club's Wi-Fi (docs/serve.md): odd queries, unknown paths, forged hosts and floods of
errors are answered in one line of JSON, never a 500 or a traceback."""

from __future__ import annotations

import pytest

from tests.live.conftest import Served

ODD_NUMBERS = ["²", "١٢", "-1", "", " 1", "1" * 5000, "0x1", "1.0"]
"""Entry numbers no query or header may give: a superscript and Arabic-Indic digits (``str.isdigit`` takes both),
a negative one, none, a space, 5,000 digits (over ``int``'s limit), hex, a fraction."""


@pytest.mark.parametrize("value", ODD_NUMBERS, ids=lambda v: f"{v[:6]!r}x{len(v)}")
def test_an_entry_number_that_is_not_plain_digits_is_400_naming_it(table_game: Served, value: str) -> None:
    client = table_game.client(table_game.players)
    for path, name in ((table_game.api(), "since"), (table_game.api("/events"), "last")):
        answer = client.get(path, params={name: value})
        assert answer.status_code == 400, (name, answer.text)
        assert answer.headers["content-type"] == "application/json" and name in answer.json()["error"]
    if value.strip() not in ("", "1"):  # a header's value is sent without the spaces around it; an empty one is none
        answer = client.get(table_game.api("/events"), headers={"Last-Event-ID": _header(value)})
        assert answer.status_code == 400 and "Last-Event-ID" in answer.json()["error"], answer.text
    assert "rror answering" not in table_game.log()


def _header(value: str) -> bytes:
    """``value`` as the bytes a header sends: Latin-1 where it can be (the server reads a header so), else UTF-8."""
    try:
        return value.encode("latin-1")
    except UnicodeEncodeError:
        return value.encode()


@pytest.mark.parametrize("method, path, status", [
    ("GET", "/nowhere", 404), ("GET", "/static/nothing.js", 404), ("GET", "/api/games", 404),
    ("DELETE", "/play", 405), ("PUT", "/api/session", 405), ("GET", "/api/session", 405),
])
def test_an_unknown_path_or_method_is_answered_in_json(table_game: Served, method: str, path: str, status: int) -> None:
    answer = table_game.client().request(method, path)
    assert answer.status_code == status and answer.headers["content-type"] == "application/json", answer.text
    assert answer.json()["error"] and answer.headers["cache-control"] == "no-store"
    assert status == 404 or "allowed" in answer.json()["error"] and answer.headers["allow"]


def test_every_answer_says_nosniff(table_game: Served) -> None:
    client, anonymous = table_game.client(table_game.players), table_game.client()
    answers = [client.get("/play"), client.get("/static/live.js"), client.get(table_game.api()),
               anonymous.get(table_game.api()), client.get("/nowhere"), client.delete("/play"),
               client.get(table_game.api(), params={"since": "²"}),
               client.post(table_game.api("/notes"), content=b"x" * 20_000, headers={"Content-Type": "application/json"})]
    with client.stream("GET", table_game.api("/events")) as stream:
        answers.append(stream)
    assert [a.headers.get("x-content-type-options") for a in answers] == ["nosniff"] * len(answers), \
        [(a.url, a.status_code) for a in answers]
