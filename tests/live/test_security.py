"""Nobody in who does not belong (docs/serve.md, "Security"): every route of a real server, refused as documented.

Wrong tokens are sent from loopback addresses of their own (``127.0.0.x``), as a stranger's device would be
another address: one address's failures slow that address only, and the table's own address is answered.
"""

from __future__ import annotations

import base64
import subprocess
import sys
import time

from cli.live import access
from cli.live.access import FAILURE_DELAY, FREE_FAILURES, MAX_BODY, WINDOW
from tests.live.conftest import Served

WRITES = {"/inputs": {"input": "pass"}, "/undo": {}, "/accept": {"input": "pass", "reason": "we agreed"},
          "/notes": {"at": 1, "text": "hello"}, "/seats": {"seat": "Ana"}}
"""Every write route, with a body it takes (the head is added)."""


def routes(served: Served) -> list[tuple[str, str, dict | None]]:
    """Every route of the API: method, path, JSON body."""
    head = served.client(served.players).get(served.api()).json()["head"]
    return [("GET", served.api(), None), ("GET", served.api("/events"), None), ("POST", "/api/session", {}),
            *(("POST", served.api(path), {**body, "after": head}) for path, body in WRITES.items())]


def events(served: Served) -> int:
    return served.client(served.players).get(served.api()).json()["events"]


def test_tokens_have_at_least_128_random_bits_and_differ(table_game: Served) -> None:
    players, watchers = (base64.urlsafe_b64decode(t + "=" * (-len(t) % 4)) for t in (table_game.players, table_game.watchers))
    assert len(players) * 8 >= 128 and len(watchers) * 8 >= 128 and players != watchers


def test_every_route_refuses_a_request_without_a_token_or_with_a_wrong_one(table_game: Served) -> None:
    before = events(table_game)
    anonymous, stranger = table_game.client(source="127.0.0.3"), table_game.client("x" * 43, source="127.0.0.4")
    wrong_cookie = table_game.client(source="127.0.0.5", cookies={cookie_name(table_game, table_game.players): "nope"})
    for method, path, body in routes(table_game):
        for client in (anonymous, stranger, wrong_cookie):
            answer = client.request(method, path, json=body, headers={"Origin": table_game.url} if body is not None else {})
            assert answer.status_code == 401, (method, path, answer.text)
            assert answer.json()["error"] == (access.NO_TOKEN if client is anonymous else access.WRONG_TOKEN)
            assert answer.headers["WWW-Authenticate"] == "Bearer" and table_game.players not in answer.text
    assert events(table_game) == before


def test_the_watchers_token_reads_but_never_writes(table_game: Served) -> None:
    before = events(table_game)
    watcher = table_game.client(table_game.watchers)
    assert watcher.get(table_game.api()).status_code == 200
    for method, path, body in routes(table_game):
        if method == "POST" and path != "/api/session":
            answer = watcher.post(path, json=body)
            assert answer.status_code == 403, (path, answer.text)
            assert answer.json()["error"] == "this is the watchers' link: it only watches; to record, scan the players' code"
    session = watcher.post("/api/session")
    assert session.json()["role"] == "watchers"
    assert watcher.post(table_game.api("/notes"), json=WRITES["/notes"], headers={"Origin": table_game.url,
                                                                               "Authorization": ""}).status_code == 403
    assert events(table_game) == before


def test_a_write_from_another_sites_page_is_refused(table_game: Served) -> None:
    before = events(table_game)
    player = table_game.client(table_game.players)
    session = player.post("/api/session", headers={"Origin": table_game.url})
    assert session.status_code == 200 and "samesite=strict" in session.headers["set-cookie"].lower()
    cookie_only = table_game.client(cookies=dict(player.cookies))
    for method, path, body in routes(table_game):
        if method != "POST":
            continue
        for client in (player, cookie_only):
            for headers in ({"Origin": "http://evil.example"}, {"Sec-Fetch-Site": "cross-site", "Origin": table_game.url}):
                answer = client.post(path, json=body, headers=headers)
                assert answer.status_code == 403, (path, headers, answer.text)
                assert answer.json()["error"] == "not stored: this came from another site's page, not the table's"
    form = cookie_only.post(table_game.api("/inputs"), content=b"input=pass", headers={
        "Content-Type": "text/plain", "Origin": table_game.url})  # what a form of another site could send
    assert form.status_code == 415
    no_origin = cookie_only.post(table_game.api("/notes"), json=WRITES["/notes"])
    assert no_origin.status_code == 403  # with the cookie, a write must say where it comes from
    assert events(table_game) == before


def test_oversized_bodies_and_inputs_are_refused(table_game: Served) -> None:
    before = events(table_game)
    player = table_game.client(table_game.players)
    head = player.get(table_game.api()).json()["head"]
    big = player.post(table_game.api("/inputs"), json={"input": "x" * (MAX_BODY + 1), "after": head})
    assert big.status_code == 413

    def chunks():  # no Content-Length: refused as soon as it goes over
        yield b'{"input": "'
        for _ in range(MAX_BODY // 1024 + 2):
            yield b"x" * 1024
        yield b'"}'

    streamed = player.post(table_game.api("/inputs"), content=chunks(), headers={"Content-Type": "application/json"})
    assert streamed.status_code == 413
    long_input = player.post(table_game.api("/inputs"), json={"input": "x" * 5000, "after": head})
    assert long_input.status_code == 400 and "at most" in long_input.json()["error"]
    long_name = player.post(table_game.api("/notes"), json={"at": 1, "text": "hello", "by": "x" * 65})
    assert long_name.status_code == 400 and "'by'" in long_name.json()["error"]
    assert events(table_game) == before


FLOOD = """
import asyncio, sys, time, httpx
url, path, count = sys.argv[1], sys.argv[2], int(sys.argv[3])

async def main():
    transport = httpx.AsyncHTTPTransport(local_address="127.0.0.9", limits=httpx.Limits(max_connections=20))
    async with httpx.AsyncClient(base_url=url, transport=transport, timeout=httpx.Timeout(60, pool=None)) as client:
        async def guess(k):
            return (await client.get(path, headers={"Authorization": f"Bearer wrong-{k:040d}"})).status_code
        started = time.monotonic()
        codes = await asyncio.gather(*(guess(k) for k in range(count)))
        print(codes.count(401), codes.count(429), len(codes), time.monotonic() - started)

asyncio.run(main())
"""
"""A stranger's device guessing tokens: COUNT wrong ones, 20 at a time, from 127.0.0.9; prints how they were answered."""


def cookie_name(served: Served, token: str) -> str:
    """The name of the session cookie ``token`` is traded for."""
    return next(iter(served.client(token).post("/api/session").cookies.jar)).name


def test_cookies_of_another_table_are_not_counted_as_guesses(table_game: Served) -> None:
    players = cookie_name(table_game, table_game.players)
    other = players.rsplit("_", 1)[0] + "_0123456789abcdef"  # the players' cookie of other links
    stale = table_game.client(source="127.0.0.6", cookies={other: "an-other-tables-session", "coimbra_table": "x"})
    for _ in range(3 * access.FREE_FAILURES):
        assert stale.get(table_game.api()).status_code == 401
    fresh = table_game.client(table_game.watchers, source="127.0.0.6")
    assert fresh.get(table_game.api()).status_code == 200


def test_a_thousand_wrong_tokens_are_slowed_while_the_table_is_answered(table_game: Served) -> None:
    table = table_game.client(table_game.players, source="127.0.0.2")
    view = table.get(table_game.api()).json()
    flood = subprocess.Popen([sys.executable, "-c", FLOOD, table_game.url, table_game.api(), "1000"],
                             stdout=subprocess.PIPE, text=True)
    answered = []
    while flood.poll() is None:  # the table meanwhile, each answer timed
        started = time.monotonic()
        assert table.get(table_game.api()).status_code == 200
        answered.append(time.monotonic() - started)
        time.sleep(0.1)
    wrong, slowed, count, took = flood.stdout.read().split()
    assert int(count) == 1000 and int(wrong) + int(slowed) == 1000 and int(wrong) <= FREE_FAILURES
    assert float(took) >= FAILURE_DELAY and answered and max(answered) < 10
    recorded = table.post(table_game.api("/inputs"), json={"input": view["legal"]["options"][0], "after": view["head"]})
    assert recorded.status_code == 200, recorded.text
    print(f"1,000 wrong tokens answered in {float(took):.1f} s ({wrong} with 401 after {FAILURE_DELAY} s, the rest 429); "
          f"the table meanwhile: {len(answered)} reads, the slowest {max(answered) * 1000:.0f} ms")


def test_a_throttled_address_that_shows_the_right_token_is_let_in(table_game: Served) -> None:
    """A phone that sent stale links ten times, then the table's: let in; a guesser's credentials are looked at
    once every 6 seconds only (the right token too, in between)."""
    wrong, right = table_game.client("x" * 43, source="127.0.0.10"), table_game.client(table_game.players, source="127.0.0.10")
    assert [wrong.get(table_game.api()).status_code for _ in range(FREE_FAILURES)] == [401] * FREE_FAILURES
    assert right.get(table_game.api()).status_code == 200
    assert right.post("/api/session").status_code == 200
    guessed = wrong.get(table_game.api())
    assert guessed.status_code == 429 and 0 < int(guessed.headers["Retry-After"]) <= WINDOW / FREE_FAILURES + 1
    unlooked = right.get(table_game.api())
    assert unlooked.status_code == 429 and int(unlooked.headers["Retry-After"]) <= WINDOW / FREE_FAILURES + 1


def test_a_throttled_guesser_is_looked_at_once_a_spell() -> None:
    import asyncio

    throttle = access.Throttle(free=2, window=60, delay=0)

    async def guess() -> list[tuple[bool, float]]:
        said = []
        for _ in range(4):
            said.append((await throttle.failed("10.9.9.9"), throttle.wait_for("10.9.9.9")))
        return said

    said = asyncio.run(guess())
    assert [throttled for throttled, _ in said] == [False, False, True, True]
    assert said[1][1] == 0 and 29 < said[2][1] <= 30  # the third is looked at at once, the fourth a spell later


def test_no_token_in_any_log_line_after_start_up(table_game: Served) -> None:
    player = table_game.client(table_game.players)
    player.get(table_game.api(), params={"t": table_game.players})  # a client that put it in the address too
    player.get(f"/play?t={table_game.watchers}")
    player.post(table_game.api("/inputs"), json={"input": table_game.players, "after": "0" * 12})
    log = table_game.log()
    assert table_game.players not in log and table_game.watchers not in log
    assert "GET /" not in log and "POST /" not in log  # no request lines at all


def test_addresses_whose_failures_expired_are_forgotten() -> None:
    import asyncio

    throttle = access.Throttle(free=2, window=0.5, delay=0)  # long enough for 1,024 failures on a loaded machine

    async def fail_from_many() -> None:
        for k in range(access.KEPT_ADDRESSES):
            await throttle.failed(f"10.0.{k // 256}.{k % 256}")
        assert not throttle.throttled("10.0.0.0")  # one failure: not slowed yet
        await throttle.failed("10.0.0.0")
        assert throttle.throttled("10.0.0.0")  # two within the window: slowed
        await asyncio.sleep(0.55)
        await throttle.failed("192.168.1.9")

    asyncio.run(fail_from_many())
    assert not throttle.throttled("10.0.0.0") and len(throttle._failures) == 1
