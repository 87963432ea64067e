"""The whole line of play analysed: each decision's options measured and graded, each random entry's luck.

Entries are independent once the table before each is known, so they are shared out among
worker processes (``jobs``); every playout is seeded from the analysis seed, the entry and its
number, so the result does not depend on how many processes did the work, nor in which order.
"""

from __future__ import annotations

import os
from contextlib import ExitStack
from dataclasses import dataclass
from functools import partial
from typing import Callable, Iterable, Sequence

from coimbra_events.analysis.evaluation import Decision, Settings, Tally, decide, option_list, win_vector
from coimbra_events.analysis.grades import certain, grade
from coimbra_events.analysis.luck import Luck, run_luck, total
from coimbra_events.analysis.reasons import gains
from coimbra_events.catalog import Catalog
from coimbra_events.events import GameEvent
from coimbra_events.history import replay, resolve
from coimbra_events.log import GameLog
from coimbra_events.rulesets import under_current_rules
from coimbra_events.state import TABLE, GameState
from coimbra_events.validation import start_state


@dataclass(frozen=True)
class LineEntry:
    """One entry of the line of play: where it stands, the log entry that says it, and the table just before it;
    ``run``: for a random entry, the index of the first of the random entries it follows with no decision between
    (``analysis.luck``), else its own index."""

    index: int
    seq: int
    event: GameEvent
    before: GameState
    run: int

    @property
    def is_outcome(self) -> bool:
        return self.event.actor == TABLE


@dataclass(frozen=True)
class OptionValue:
    """One option measured (``option``: its place in ``option_list``): every player's P(first) and expected score,
    how far it trails the best (points, signed) and SE."""

    option: int
    win: tuple[float, ...]
    score: tuple[float, ...]
    playouts: int
    signed_loss: float
    se: float

    @property
    def loss(self) -> float:
        """Points lost against the best: at least 0."""
        return max(0.0, self.signed_loss)


@dataclass(frozen=True)
class GradedDecision:
    """One decision: its options best first (``played``: the one taken), its grade, signed loss (below 0: the option
    played beat every rival) and the loss's SE."""

    index: int
    seq: int
    player: str
    kind: str
    options: tuple[OptionValue, ...]
    played: int
    options_total: int
    evaluated: int
    grade: str
    signed_loss: float
    se: float
    certain: bool
    playouts: int
    gains: tuple[tuple[str, float], ...] = ()
    """What the best option gains over the one played, in expected points by source (``reasons.gains``); only where
    the grade is not best."""

    @property
    def loss(self) -> float:
        """Points lost against the best: at least 0 (what grades and accuracy read)."""
        return max(0.0, self.signed_loss)

    @property
    def win_after(self) -> tuple[float, ...]:
        return self.options[self.played].win


@dataclass(frozen=True)
class Lucky:
    """One random entry: the points of P(first) it gave each player (against the average outcome) with their standard
    errors, P(first) after it, what the luck sums to (``luck.Luck.shared``), its run and its paired differences per
    player (what a total's standard error is taken from: ``Analysis.luck_total``)."""

    index: int
    seq: int
    kind: str
    luck: tuple[float, ...]
    win_after: tuple[float, ...]
    playouts: int
    se: tuple[float, ...] = ()
    shared: float = 0.0
    run: int = -1
    differences: tuple[tuple[float, ...], ...] = ()


@dataclass(frozen=True)
class Analysis:
    """Every decision graded and every random entry's luck, in the order of the line of play."""

    settings: Settings
    players: tuple[str, ...]
    decisions: tuple[GradedDecision, ...]
    luck: tuple[Lucky, ...]

    def luck_total(self, player: int) -> tuple[float, float]:
        """``player``'s luck over the game in points, and its standard error (``analysis.luck.total``)."""
        return total([(u.run, u.luck[player], u.differences[player]) for u in self.luck])


def line_of_play(log: GameLog, catalog: Catalog) -> list[LineEntry]:
    """The entries in force (corrections and retractions read), each with the table before it."""
    folded, _ = under_current_rules(log)
    state = start_state(folded, catalog)
    line = resolve(folded.events)
    tables: list[GameState] = []
    replay(state, line, True, lambda event, before, after: tables.append(before))
    entries: list[LineEntry] = []
    for k, (play, before) in enumerate(zip(line.plays, tables)):
        follows = k > 0 and play.event.actor == TABLE and entries[-1].is_outcome  # a random entry right after one
        entries.append(LineEntry(k, play.seq, play.event, before, entries[-1].run if follows else k))
    return entries


def default_jobs() -> int:
    """Every core this process may run on."""
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1


def analyse(entries: Sequence[LineEntry], settings: Settings, jobs: int = 1,
            progress: Callable[[int], None] | None = None) -> Analysis:
    """Measure every entry (in ``jobs`` processes); ``progress`` is told each time one more is done."""
    import multiprocessing  # here: the views that only read a kept analysis do not pay for process pools
    from concurrent.futures import ProcessPoolExecutor

    work = Work(settings, tuple(entries))
    results: list[GradedDecision | Lucky] = []
    shares = units(work.entries)
    with ExitStack() as stack:
        done: Iterable[list[GradedDecision | Lucky]] = map(partial(measure_unit, work), shares)
        if jobs > 1 and "fork" in multiprocessing.get_all_start_methods():
            pool = stack.enter_context(ProcessPoolExecutor(jobs, multiprocessing.get_context("fork"),
                                                           initializer=_take, initargs=(work,)))
            done = pool.map(_measure_taken, shares, chunksize=1)
        for measured in done:
            results.extend(measured)
            if progress:
                progress(len(measured))
    players = tuple(p.name for p in entries[0].before.players) if entries else ()
    return Analysis(settings, players, tuple(r for r in results if isinstance(r, GradedDecision)),
                    tuple(r for r in results if isinstance(r, Lucky)))


@dataclass(frozen=True)
class Work:
    """The analysis under way: the settings and every entry with the table before it."""

    settings: Settings
    entries: tuple[LineEntry, ...]


_TAKEN: Work | None = None
"""The work a worker process was started with (``_take``). The pool's processes are forked, so it reaches them
without pickling, as the rules core's compiled states do not pickle; a worker is sent only the number of the entry to
measure, and sends back numbers."""


def _take(work: Work) -> None:
    """A worker's start (the pool's ``initializer``): keep the work it was forked with."""
    global _TAKEN
    _TAKEN = work


def _measure_taken(unit: tuple[int, ...]) -> list[GradedDecision | Lucky]:
    """A unit of the work this worker was started with, measured."""
    assert _TAKEN is not None, "runs in a worker started by analyse()"
    return measure_unit(_TAKEN, unit)


def follows(before: LineEntry | Lucky, after: LineEntry | Lucky) -> bool:
    """``after`` is the random entry right after ``before`` in the same run: ``luck.run_luck`` plays the table between
    them out once, as the table after one and the next's before."""
    return (before.run, before.index + 1) == (after.run, after.index)


def units(entries: Sequence[LineEntry]) -> list[tuple[int, ...]]:
    """The work shared out, by place in ``entries``: each decision alone, and the random entries of a run that follow
    each other there together (``luck.run_luck`` plays out the table after one of them, the next's before, once)."""
    shares: list[tuple[int, ...]] = []
    for k, entry in enumerate(entries):
        last = entries[shares[-1][-1]] if shares else None
        if entry.is_outcome and last is not None and last.is_outcome and follows(last, entry):
            shares[-1] += (k,)
        else:
            shares.append((k,))
    return shares


def measure_unit(work: Work, unit: tuple[int, ...]) -> list[GradedDecision | Lucky]:
    """A unit of ``work`` (``units``) measured: a decision graded, or a run's random outcomes' luck."""
    entries = [work.entries[k] for k in unit]
    if not entries[0].is_outcome:
        return [graded_decision(work.settings, entries[0])]
    settings = work.settings
    found = run_luck([(e.before, e.event, e.index) for e in entries], settings.seed, entries[0].run, settings.luck)
    return [_lucky(e, u) for e, u in zip(entries, found)]


def _lucky(entry: LineEntry, found: Luck) -> Lucky:
    pending = entry.before.pending
    players = range(len(entry.before.players))
    return Lucky(entry.index, entry.seq, pending.kind if pending else "", tuple(found.points(p) for p in players),
                 found.win_after(), 2 * found.n, tuple(found.se(p) for p in players), found.shared(), entry.run,
                 tuple(found.differences(p) for p in players))


def graded_decision(settings: Settings, entry: LineEntry) -> GradedDecision:
    """A decision's entry graded: its options measured against the one played, and what the best gains by source."""
    state = entry.before
    pending = state.pending
    kind = pending.kind if pending else ""
    decision = decide(state, entry.event, settings, entry.index)
    options = tuple(_value(decision, t) for t in decision.tallies)
    played = decision.tallies.index(decision.played)
    loss, se = decision.loss(decision.played)
    graded = grade(loss)
    found = () if graded == "best" else gains(state, option_list(state, entry.event)[options[0].option], entry.event,
                                              settings, entry.index)
    return GradedDecision(entry.index, entry.seq, entry.event.actor, kind, options, played, len(options), decision.evaluated,
                          graded, loss, se, certain(loss, se), decision.playouts, found)


def _value(decision: Decision, tally: Tally) -> OptionValue:
    loss, se = decision.loss(tally)
    players = range(len(tally.first_sums))
    return OptionValue(tally.option, win_vector(tally), tuple(tally.score(p) for p in players), tally.n, loss, se)
