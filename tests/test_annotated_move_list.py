"""The annotated move list (issue 42, item 6): ``coimbra export --format text --analysis`` marks each graded decision
as PGN does, with the loss and the best option as a comment, and ``coimbra import`` reads it back to the same record
(the marks and comments left out). The installed command on an analysed game: tests/test_analysis_views.py, which
analyses that game once for each way of looking at it."""

from __future__ import annotations


import pytest

from coimbra_events import log as game_log, movelist
from coimbra_events.log_reader import read
from projections.annotations import HARD_LOSS, annotation, hard_to_find
from tests.conftest import FIXTURES
from tests.test_movelist import eventful

GAME = FIXTURES / "games" / "standin-2p-seed1.json"


def decision(grade: str, losses: list[float], played: int = 0, total: int | None = None, forced: bool = False) -> dict:
    """A decision of the read model built by hand: its options' losses best first, the one played at ``played``."""
    options = [{"option": f"option {k}", "played": k == played, "loss": loss} for k, loss in enumerate(losses)]
    return {"seq": 7, "grade": grade, "loss": losses[played], "best": "option 0", "forced": forced,
            "options": options, "options_total": len(losses) if total is None else total}


@pytest.mark.parametrize(("grade", "mark"), [("inaccuracy", "?!"), ("mistake", "?"), ("blunder", "??")])
def test_a_decision_that_loses_is_marked_with_its_grade_and_commented_with_the_loss_and_the_best(grade, mark):
    said = annotation(decision(grade, [0.0, 12.5, 30.0], played=1))
    assert said == (mark, f"{grade.capitalize()}: 12.5 points of winning chances lost. Best: option 0")


@pytest.mark.parametrize(("case", "expected"), [
    (decision("best", [0.0, HARD_LOSS, 40.0]), True),
    (decision("best", [0.0, HARD_LOSS - 0.1, 40.0]), False),  # another option about as good: not an only move
    (decision("best", [0.0, 20.0]), False),  # two options: a coin finds it one time in two
    (decision("best", [0.0, 2.0, 20.0], played=1), False),  # best grade, but not the best option played
    (decision("good", [0.0, 3.0, 20.0], played=1), False),
])
def test_hard_to_find_is_the_only_option_that_is_not_a_mistake_among_three_or_more(case, expected):
    assert hard_to_find(case) is expected
    assert (annotation(case) is not None and annotation(case)[0] == "!") is expected


def test_best_good_and_forced_decisions_are_not_marked():
    assert annotation(decision("good", [0.0, 3.0], played=1)) is None
    assert annotation(decision("best", [0.0])) is None
    assert annotation(decision("blunder", [0.0, 20.0], played=1, forced=True)) is None


def every_decision_marked(log: game_log.GameLog) -> dict[int, tuple[str, str]]:
    """A mark at every entry a player made, awkward comments among them (braces, the marks, a colon)."""
    marks = ("?!", "?", "??", "!")
    comments = ("Mistake: 12.5 points lost. Best: Ana places die orange-2 (4) in the upper city.", "a {brace} here",
                "?? {x}", "")
    return {k + 1: (marks[k % 4], comments[k % 4]) for k, e in enumerate(log.events) if e.actor != "table"}


@pytest.mark.parametrize("log", [read(GAME), eventful().to_log()], ids=["fixture", "history"])
def test_an_annotated_move_list_reads_back_to_the_same_record(log):
    """Every decision marked and commented (a graded one then ends its line): read back, the same record byte for
    byte, marks and comments left out, notes that look like annotations kept as they are."""
    marked = every_decision_marked(log)
    text = movelist.dumps(log, annotations=marked)
    lines = entry_lines(text)
    firsts = sorted(lines)
    last_of = {first: (firsts[k + 1] - 1 if k + 1 < len(firsts) else len(log.events)) for k, first in enumerate(firsts)}
    ending = {last_of[first]: line for first, line in lines.items()}
    assert {seq for seq, line in ending.items() if line.endswith("}") and " {" in line and seq in marked} == set(marked)
    for seq, (mark, comment) in marked.items():
        assert ending[seq].endswith(f" {mark} {{{comment.replace('{', '(').replace('}', ')')}}}"), ending[seq]
    assert game_log.dumps(movelist.loads(text)) == game_log.dumps(log)


def test_a_note_that_looks_like_an_annotation_reads_back_as_written():
    game = eventful()
    game.note(3, "what ?? {a}")
    text = movelist.dumps(game.to_log(), annotations=every_decision_marked(game.to_log()))
    assert "{table: note 3 what ?? {a}}" in text
    assert game_log.dumps(movelist.loads(text)) == game_log.dumps(game.to_log())


def entry_lines(text: str) -> dict[int, str]:
    """The entry lines of a move list, by the number they begin with."""
    return {int(line.split(".", 1)[0]): line for line in text.splitlines() if line[:1].isdigit()}
