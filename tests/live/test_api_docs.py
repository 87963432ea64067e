"""docs/serve.md says what the server does: its routes are the app's, its limits are the code's."""

from __future__ import annotations

import inspect
import re
from pathlib import Path

import pytest

from cli.live import access, api, club, evening, evening_key, follow, limits, server, stream, tables
from cli.live.access import Keys
from cli.live.server import build_app
from cli.live.tables import ServedTables
from cli.serve_command import serve_command
from coimbra_events.service import Games
from coimbra_events.service.seats import Phone, Taken
from coimbra_events.store.links import ORGANISER, links_folder
from coimbra_events.store.postgres_keeping import PostgresKeeping
from coimbra_events.store.seat_claims import seat_file
from tests.conftest import ROOT

DOC = (ROOT / "docs" / "serve.md").read_text()
PAGE = (ROOT / "cli" / "live" / "static" / "live.js").read_text()
SEATS_PAGE = (ROOT / "cli" / "live" / "static" / "seats.js").read_text()
SHELL = (ROOT / "cli" / "live" / "static" / "live.html").read_text()
SEATS_CODE = inspect.getsource(Phone)
CARDS_STYLE = (ROOT / "cli" / "live" / "static" / "cards.css").read_text()
CLUB_PAGE = (ROOT / "cli" / "live" / "static" / "club.js").read_text()
EVENING_CODE = inspect.getsource(evening)


def test_every_api_route_is_documented_and_every_documented_one_exists() -> None:
    app = build_app(ServedTables(None), ["127.0.0.1"], 8000)  # type: ignore[arg-type]  (routes only: nothing is served)
    served = {r.path for r in app.routes if r.path.startswith("/api")}
    documented = set(re.findall(r"`(?:GET |POST )?(/api/[a-z{}/]+)`", DOC))
    assert served == documented


@pytest.mark.parametrize("words, value", [
    ("a body over 16,384 bytes", access.MAX_BODY == 16_384),
    ("over 1,000 characters, a `by` over 64", (access.MAX_TEXT, access.MAX_NAME) == (1000, 64)),
    ("sent 10 wrong tokens (or cookies of this table) within 60 seconds", (access.FREE_FAILURES, access.WINDOW) == (10, 60)),
    ("each is answered after a quarter of a second", access.FAILURE_DELAY == 0.25),
    ("its token is looked at once every 6 seconds only", access.WINDOW / access.FREE_FAILURES == 6),
    ("(1 to 20, all or none)", api.MAX_INPUTS == 20),
    ("is 1 to 9 digits 0-9", access.MAX_DIGITS == 9),
    ("logged at most once a minute", server.LOG_EVERY == 60),
    ("one indexed query ten times a second", follow.FOLLOW_EVERY == 0.1),
    ("two tokens of 256 random bits", len(Keys().players) == 43),
    ("for a SQLite store in the folder `FILE.links` next to its file",
     links_folder({"PERSISTENCE_MODULE": "eventsourcing.sqlite", "SQLITE_DBNAME": "FILE"}, "") == Path("FILE.links")),
    ("(`~/.local/share/coimbra/table-links/` on Linux, one folder per database)",
     links_folder({"PERSISTENCE_MODULE": "eventsourcing.postgres"}, "a").parent.name == "table-links"
     != links_folder({"PERSISTENCE_MODULE": "eventsourcing.postgres"}, "b")),
    ("A store in memory keeps none.", links_folder({}, "memory") is None),
    ("sets the cookie `coimbra_ROLE_ID`", Keys().cookie_name("watchers").startswith("coimbra_watchers_")),
    (f'no key ("{access.NO_TOKEN}")', True),
    (f'("{access.REPLACED}"; not counted as a guess)', True),
    (f'a wrong one ("{access.WRONG_TOKEN.split(" again,")[0]} again, …")', True),
    ("(\"this is the watchers' link: it only watches; to record, scan the players' code\")",
     "to record, scan the players' code" in inspect.getsource(access.Gate.admit)),
    ("it keeps its link's token in the tab (the browser's session storage)", "sessionStorage.setItem(KEY, token)" in PAGE),
    ("a new link opened in the same tab is taken without a reload", 'addEventListener("hashchange"' in PAGE),
    ("(default 8000; `0`: any free port)", inspect.signature(serve_command).parameters["port"].default.default == 8000),
    ("must be complete within 10 seconds of its connection opening", limits.HEADER_DEADLINE == 10),
    ("One address holds at most 64 connections at once", limits.PER_ADDRESS == 64),
    ("`--per-address N` raises the cap", inspect.signature(serve_command).parameters["per_address"].default.default
     == limits.PER_ADDRESS and "Limits(per_address=per_address)" in inspect.getsource(serve_command)),
    ("also carries `view`: the game's view after it", '"view": update' in inspect.getsource(stream.OpenStreams._data)),
    ("draws the entry from the stream alone; any other page reads the game",
     "function drawn(entry)" in PAGE and "update.after !== view.head" in PAGE),  # and tests/live/test_stale_pages.py
    ("less 64 kept for the store and the pages", limits.RESERVED_FILES == 64),
    ("raises its own file limit to 4,096 where the system allows", limits.WANTED_FILES == 4096),
    ("40 open at once for the players' link, 120 for the watchers'", stream.STREAMS == {"players": 40, "watchers": 120}),
    ("again in 5 seconds\"`), with `Retry-After: 5`", stream.RETRY_AFTER == 5),  # the words: tests/live/test_load.py
    ("Every 5 seconds a stream also says", stream.PING == 5 and "const PING_EVERY = 5000;" in PAGE),
    ("a page takes 16 seconds without an entry or a ping for a dead stream",
     "const SILENT_FOR = 3 * PING_EVERY + 1000;" in PAGE and 'addEventListener("ping", alive)' in PAGE),
    ('it asks at the top **"Which seat is this phone?"**, with a button per player and "None: this phone only enters '
     'the table\'s dice and cards"', "Which seat is this phone?" in SHELL
     and "None: this phone only enters the table's dice and cards" in SHELL and "seat-prompt\").hidden = false" in SEATS_PAGE),
    ("an id its page makes once (128 random bits) and keeps in the browser's local storage; it sends it with each "
     "request (`X-Coimbra-Device`)", "new Uint8Array(16)" in SEATS_PAGE and api.DEVICE == "X-Coimbra-Device"
     and "headers: device()" in PAGE),
    ('"Ana is played from another phone (the one that plays Ana and Bruno); take the seat over to play Ana from this '
     'phone? The other phone is told."', Taken("Ana", ("Ana", "Bruno")).reason + "? The other phone is told." ==
     "Ana is played from another phone (the one that plays Ana and Bruno); take the seat over to play Ana from this "
     "phone? The other phone is told." and "${data.error}? The other phone is told." in SEATS_PAGE),
    ('"Your seat Ana was taken over by another phone"', "`Your seat ${lost.join(\" and \")} was taken over by another phone" in SEATS_PAGE),
    ('"Waiting for Carla (on another phone)." or, for a seat no phone holds, "Waiting for Carla: no phone plays this '
     'seat." with a button "This phone also plays Carla"', all(w in SEATS_PAGE for w in (
         "Waiting for ${esc(view.due.player)}", '" (on another phone)."', ": no phone plays this seat.", "This phone also plays ${"))),
    ('"not stored: Carla\'s seat is held by another phone: only that phone enters Carla\'s decisions (or take the seat '
     'over on this one)", or "not stored: no phone holds Carla\'s seat: claim it first"',
     "{player}'s seat is held by another phone: only that phone enters {player}'s decisions" in SEATS_CODE
     and "no phone holds {player}'s seat: claim it first" in SEATS_CODE),
    ('"Withdraw 57. Ana places the gray die showing 4 on …? It stays in the record, marked withdrawn."',
     "`Withdraw ${u.seq}. ${u.text}? It stays in the record, marked withdrawn.`" in SEATS_PAGE),
    ('("Withdraw entry 57")', "`Withdraw entry ${view.undo.seq}`" in SEATS_PAGE),
    ('the API answers 403 ("not withdrawn: the game is over, and its record stays as it ended")',
     "not withdrawn: the game is over, and its record stays as it ended" in SEATS_CODE),
    ("as `GAME-ID.seats` in the same folder, its owner's only, `0600`",
     seat_file(Path("FILE.links"), "GAME-ID").path == Path("FILE.links/GAME-ID.seats")),
    ("`X-Coimbra-Device`, 16 to 64 letters, digits, `-` or `_` (anything else is 400)",
     api._DEVICE.pattern == "[A-Za-z0-9_-]{16,64}"),
    ("every open stream is told (`event: seat`)", '"event": "seat"' in inspect.getsource(stream)),
    ("the server lists the games in progress again whenever something was stored",
     all(words in inspect.getsource(tables.ServedTables._moved)
         for words in ("if position == self._position:", "if self.organiser is not None:", "self.serve_every(put_away="))),
    ("The organiser's token is kept as the tables' are (beside a SQLite store, `organiser.json` in the same folder; in "
     "a PostgreSQL store, a row of `coimbra_table_keys` of its own, taken over once from a file kept before)",
     ORGANISER == "organiser" and "self._keys(OrganiserKey, ORGANISER" in inspect.getsource(PostgresKeeping)),
    ("read again as soon as any table changes (the organiser's event stream, `GET /api/tables/events`) and every 15 "
     "seconds", "const EVERY = 15000;" in CLUB_PAGE and 'new EventSource("/api/tables/events")' in CLUB_PAGE),
    ("up to 10 open at once", club.STREAMS == 10),
    ("Pinged as the tables' streams are; up to 60 open at once", evening.STREAMS == 60),
    ("(as the organiser's stream: changes within 0.3 s told once)", "from cli.live.club import GATHER" in EVENING_CODE),
    ("It is made from the organiser's token (an HMAC of it", "hmac.new(secret, PURPOSE" in inspect.getsource(evening_key)),
    ("changes that come within 0.3 s of each other are told once", club.GATHER == 0.3),
    ("a table in progress whose last entry is over 10 minutes old is marked",
     "const WAITED = 10 * 60;" in CLUB_PAGE and "!table.over && waited > WAITED" in CLUB_PAGE),
    ("(default `club-YYYY-MM-DD`, the day the server started)",
     'f"club-{date.today().isoformat()}"' in inspect.getsource(serve_command)),
    ("Seating as entered or drawn (a fair shuffle; the first seat plays first)",
     "random.SystemRandom().shuffle(seats)" in inspect.getsource(Games.start_table)),
    ("Printed, each card takes half an A4 page and is never cut across two",
     "size: A4" in CARDS_STYLE and "height: 125mm" in CARDS_STYLE and "break-inside: avoid" in CARDS_STYLE),
])
def test_the_documented_limits_are_the_code(words: str, value: bool) -> None:
    assert words in " ".join(DOC.split()) and value


def test_without_a_network_address_it_says_so_unless_host_names_one(monkeypatch: pytest.MonkeyPatch) -> None:
    import typer

    from cli import serve_command as command

    monkeypatch.setattr(command, "network_address", lambda: None)
    with pytest.raises(typer.Exit) as refused:
        command._shown_host(None)
    assert refused.value.exit_code == 2
    assert command._shown_host("127.0.0.1") == "127.0.0.1"


def test_the_readme_and_the_command_reference_say_what_serve_takes() -> None:
    from tests.commands import invoke

    readme = (ROOT / "README.md").read_text()
    section = readme[readme.index("## At the table with phones"):readme.index("## Exit codes")]
    commands = (ROOT / "docs" / "commands.md").read_text()
    row = commands[commands.index("### `coimbra serve`"):commands.index("## Reading a game")]
    helped = invoke(["serve", "--help"])
    assert helped.exit_code == 0
    for option in set(re.findall(r"--[a-z]+", section + row)):
        assert option in helped.output, option
    assert "bench/live.py" in section and "docs/serve.md" in section and "docs/serve.md" in row


FORMS = (ROOT / "cli" / "live" / "static" / "outcome.js").read_text()


def _started(catalog):
    from coimbra_events.rules import core as rules

    return rules.start(catalog, [("Ana", "red"), ("Bruno", "blue")])


def _docs_roll_order() -> bool:
    from coimbra_events.catalog import shipped_catalogs
    from projections.recording import pool_order

    orders = {tuple(dict.fromkeys(c.die_colors[d] for d in pool_order(_started(c)))) for c in shipped_catalogs()}
    return orders == {("gray", "green", "orange", "purple", "white")}


def _docs_words() -> bool:
    from coimbra_events import events as ev
    from coimbra_events.catalog import standin_catalog
    from projections.table_words import decision_words

    state = _started(standin_catalog())
    return (decision_words(state, ev.AlternativeTaken("Ana", 1, 2)), decision_words(state, ev.PilgrimStepped("Ana", "start-w"))) \
        == ("take 1 coin and 2 guards", "step to West Gate")


@pytest.mark.parametrize("words, value", [
    ('"place the gray die showing 4 in the castle", "take 1 coin and 2 guards", "step to West Gate"', _docs_words()),
    ("(gray, green, orange, purple, white in the shipped catalogs)", _docs_roll_order()),
    ('each saying it ("gray 4")', 'aria-label="${esc(c.color)} ${esc(item.name)}"' in FORMS),
    ("a colour's values are tapped in any order, each going to that colour's next die", "rolled[color]" in FORMS),
    ("a grid of only the cards the rules allow now", True),
    ("may also be chosen by tapping it on the drawn map", 'map.addEventListener("click", onMap)' in FORMS),
    ("`typed`, what `record` reads", True),
])
def test_the_documented_forms_and_words_are_the_pages(words: str, value: bool) -> None:
    """Each claim is also shown by the browser (tests/live/test_outcome_forms.py) and the words' tests
    (tests/test_table_words.py); here, that the docs say it as the code does."""
    assert words in " ".join(DOC.split()) and value
