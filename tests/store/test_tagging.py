"""``tag`` and ``archive`` with several games, and a game's name never becomes a tag.

The property: whatever words are typed after ``coimbra tag`` (games' names, tags, names of games that do not exist,
with or without ``--add``), no game ever carries a stored game's name as a tag, and a refused command changes no
game at all.
"""

from __future__ import annotations

from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from coimbra_events import log_reader
from coimbra_events.service import Games
from coimbra_events.store.game_store import GameStore
from tests.commands import invoke, scratch
from tests.store.conftest import GAMES

NAMES = ("club-01", "club-02", "club-03")
WORDS = (*NAMES, "2026-spring", "friday", "nosuch")


def _club(folder: Path) -> Path:
    db = folder / "club.sqlite"
    with Games(GameStore(db)) as games:
        for name, path in zip(NAMES, GAMES):
            games.import_log(log_reader.read(path), name)
    return db


def _tags(db: Path) -> dict[str, tuple[str, ...]]:
    store = GameStore(db)
    try:
        return {i.name: i.tags for i in store.games()}
    finally:
        store.close()


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(words=st.lists(st.sampled_from(WORDS), min_size=1, max_size=4),
       added=st.lists(st.sampled_from(WORDS), max_size=2))
def test_a_game_name_never_becomes_a_tag(words, added):
    with scratch() as folder:
        db = _club(folder)
        args = ["tag", *(a for tag in added for a in ("--add", tag)), *words, "--db", str(db)]
        out = invoke(args)
        tags = _tags(db)
        assert not any(set(t) & set(NAMES) for t in tags.values()), (args, tags)
        if out.exit_code != 0:
            assert all(t == () for t in tags.values()), (args, tags)  # refused: no game changed
        else:
            assert set(words) <= set(NAMES) and added and not set(added) & set(NAMES)
            assert all(tags[w] == tuple(dict.fromkeys(added)) for w in words)


def test_archive_several_games_and_restore_them(tmp_path):
    db = _club(tmp_path)
    out = invoke(["archive", "club-01", "club-02", "--db", str(db), "--json"])
    assert out.exit_code == 0, out.output
    assert [g["name"] for g in _listed(db)] == ["club-03"]
    refused = invoke(["archive", "--restore", "club-01", "nosuch", "--db", str(db)])
    assert refused.exit_code == 2 and "no game named 'nosuch'" in refused.output
    assert [g["name"] for g in _listed(db)] == ["club-03"]  # every game is checked before any is changed
    assert invoke(["archive", "--restore", "club-01", "club-02", "--db", str(db)]).exit_code == 0
    assert [g["name"] for g in _listed(db)] == list(NAMES)
    marked = invoke(["archive", "--not-counted", "club-03", "--db", str(db)])
    assert marked.exit_code == 0 and "club-03: not counted by the league" in marked.output
    assert [g["name"] for g in _listed(db)] == list(NAMES)  # still listed


def _listed(db: Path) -> list[dict]:
    import orjson

    return orjson.loads(invoke(["games", "--db", str(db), "--json"]).stdout)["games"]
