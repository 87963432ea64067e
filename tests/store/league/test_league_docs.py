"""What docs/league.md and docs/commands.md say of the league's counting and ratings, held to the code."""

from __future__ import annotations

from pathlib import Path

from cli.app import COMMANDS
from projections.league.counting import LEFT_OUT
from projections.league.reports import PROVISIONAL
from tests.commands import invoke

ROOT = Path(__file__).resolve().parents[3]
DOC = (ROOT / "docs" / "league.md").read_text()
COMMANDS_DOC = " ".join((ROOT / "docs" / "commands.md").read_text().split())


def test_the_provisional_threshold_is_the_one_the_docs_and_the_help_state():
    assert f"fewer than **{PROVISIONAL}** rated games is **provisional**" in DOC
    assert f"from fewer than {PROVISIONAL} games" in COMMANDS_DOC
    assert f"from fewer than {PROVISIONAL} rated games is marked provisional" in " ".join(
        invoke(["league", "ratings", "--help"]).output.split())


def test_the_reasons_the_docs_show_are_the_ones_the_standings_give():
    for reason in ("archived", "copy", "not counted"):
        assert LEFT_OUT[reason] in DOC
    assert LEFT_OUT["same record"].format(game="a") in DOC


def test_the_tag_form_the_docs_teach_is_the_command_s():
    assert "coimbra tag --add 2026-spring club-01 club-02" in DOC
    assert COMMANDS["tag"].summary == "Tag stored games, or take tags off them; coimbra games --tag lists a tag's games."
    assert "coimbra tag --add 2026-spring club-01 club-02" in invoke(["tag", "--help"]).output
