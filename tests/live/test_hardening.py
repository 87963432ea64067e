"""A server that holds on a club's Wi-Fi (docs/serve.md): odd queries, unknown paths, forged hosts and floods of
errors are answered in one line of JSON, never a 500 or a traceback."""

from __future__ import annotations

import asyncio

import httpx
import orjson
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


def test_a_host_the_server_is_not_reached_at_is_refused_before_anything(table_game: Served) -> None:
    client, port = table_game.client(table_game.players), table_game.line["port"]
    for host in ("evil.example", f"evil.example:{port}", "192.0.2.77", ""):
        for method, path in (("GET", "/play"), ("GET", "/play/"), ("GET", table_game.api()), ("POST", "/api/session")):
            answer = client.request(method, path, headers={"Host": host, "Origin": f"http://{host}"})
            assert answer.status_code == 400 and "location" not in answer.headers, (host, path, answer.text)
            assert table_game.players not in answer.text and "\"head\"" not in answer.text
    for host in (f"localhost:{port}", f"127.0.0.1:{port}", f"[::1]:{port}"):
        assert client.get(table_game.api(), headers={"Host": host}).status_code == 200, host
    assert client.get("/play/", headers={"Host": f"localhost:{port}"}).headers["location"].startswith("http://localhost:")


def test_the_origin_of_a_write_is_the_servers_own_whatever_the_host_says(table_game: Served) -> None:
    client, port = table_game.client(table_game.players), table_game.line["port"]
    other = f"127.0.0.1:{port + 1 if port < 65535 else port - 1}"  # an allowed name, another port: another site
    refused = client.post(table_game.api("/notes"), json={"at": 1, "text": "hi"},
                          headers={"Host": other, "Origin": f"http://{other}"})
    assert refused.status_code == 403 and "another site" in refused.json()["error"], refused.text
    for own in (f"localhost:{port}", f"127.0.0.1:{port}"):
        answer = client.post(table_game.api("/notes"), json={"at": 1, "text": "hi"},
                             headers={"Host": own, "Origin": f"http://{own}"})
        assert answer.status_code == 200, answer.text


@pytest.mark.parametrize("host, loopback_answers", [(None, False), ("0.0.0.0", True)])
def test_it_listens_on_the_address_its_links_name_unless_told_every_one(serve, host: str | None,
                                                                        loopback_answers: bool) -> None:
    from cli.serve_command import network_address
    from tests.live.test_api_serve_command import started, stopped

    address = network_address()
    if address is None:
        pytest.skip("this machine has no network address but loopback")
    process, line = started(serve.db, "--players", "Ana:red,Bruno:blue", "--port", "0", "--json",
                            *(("--host", host) if host else ()))
    try:
        ready = orjson.loads(line)
        assert ready["host"] == address and ready["url"] == f"http://{address}:{ready['port']}"
        try:
            answered = httpx.get(f"http://127.0.0.1:{ready['port']}/play", timeout=5).status_code == 200
        except httpx.ConnectError:
            answered = False
        assert answered == loopback_answers
    finally:
        assert stopped(process)[0] == 0


class Clock:
    """A monotonic clock the test moves on."""

    def __init__(self) -> None:
        self.now = 1000.0

    def monotonic(self) -> float:
        return self.now


def test_a_flood_of_one_error_is_one_log_line_per_minute_with_its_count(monkeypatch: pytest.MonkeyPatch,
                                                                       caplog: pytest.LogCaptureFixture) -> None:
    from starlette.applications import Starlette
    from starlette.middleware import Middleware
    from starlette.routing import Route

    from cli.live import server

    async def failing(request):
        raise RuntimeError(f"the store is gone ({request.path_params['why']})")

    clock = Clock()
    monkeypatch.setattr(server, "time", clock)
    app = Starlette(routes=[Route("/{why}", failing)], middleware=[Middleware(server.OneLineErrors)])

    async def flood() -> None:
        async with httpx.AsyncClient(transport=httpx.ASGITransport(app), base_url="http://127.0.0.1") as client:
            for _ in range(100):  # a page retrying twice a second
                assert (await client.get("/disk")).status_code == 500
                clock.now += 0.5
            assert (await client.get("/network")).status_code == 500  # another cause: logged at once
            clock.now += server.LOG_EVERY
            await client.get("/disk")

    with caplog.at_level("ERROR", "coimbra.serve"):
        asyncio.run(flood())
    lines = [r.getMessage() for r in caplog.records]
    assert lines == ["error answering GET /disk: RuntimeError: the store is gone (disk)",
                     "error answering GET /network: RuntimeError: the store is gone (network)",
                     "error answering GET /disk: RuntimeError: the store is gone (disk) "
                     "(and 99 more times since it was last logged)"], lines


@pytest.mark.parametrize("control", ["\x1b[2J", "\x00", "\n", "\x7f", "\x9b", "\u202e"], ids=repr)
def test_a_control_character_in_a_name_or_a_text_is_refused_with_its_field(table_game: Served, control: str) -> None:
    client = table_game.client(table_game.players)
    view = client.get(table_game.api()).json()
    head, option = view["head"], view["legal"]["options"][0]
    writes = [("/notes", {"at": 1, "text": f"ruling{control}"}, "text"),
              ("/notes", {"at": 1, "text": "fine", "by": f"Ana{control}"}, "by"),
              ("/inputs", {"input": f"{option}{control}", "after": head}, "input"),
              ("/inputs", {"inputs": [option, f"{control}pass"], "after": head}, "input"),
              ("/accept", {"input": option, "reason": f"we{control}agreed", "after": head}, "reason")]
    for path, body, field in writes:
        answer = client.post(table_game.api(path), json=body)
        assert answer.status_code == 400 and repr(field) in answer.json()["error"], (path, answer.text)
        assert "control character" in answer.json()["error"]
    assert client.get(table_game.api()).json()["events"] == view["events"]
