"""The options of one decision measured by playouts (a random entry's luck: ``luck.py``).

Every option of a decision is played out with the same seeded streams (playout ``k`` of every
option rolls the same dice: common random numbers), so two options are compared on paired
playouts and the noise is that of their difference. The work is adaptive, in three steps:

1. a cheap first pass over every option, ranked by the mean lead in points (steadier than a
   chance of finishing first over a few playouts); with many options, the better ``2 * candidates``
   get as many playouts again and are ranked anew, so that the best is not lost to a few unlucky ones;
2. the best few (and the option played) carried on, batch by batch, except those the best
   leads clearly (by three standard errors of the paired difference); then the best
   ``2 * rivals`` others get ``FINAL_LOOK`` times as many, and the best ``rivals`` of them go on;
3. the option played settled against the ``rivals`` best other options at once, on fresh paired
   playouts (so the loss is not inflated by having picked the best on the same playouts, and an
   option played that led by chance is found out), batch by batch until the loss lies within one
   grade by ``SETTLE_Z`` standard errors and no other rival could raise it, or the most playouts
   the settings allow, or (past ``RACE``) until even those could not settle it (``FUTILE_Z``); a rival
   that cannot decide the grade stops early, and past ``RACE`` playouts only the leading rival goes on.
   The loss stays signed (below 0 where the option played beats every rival), and the option list
   shows those settling playouts for the options settled: one valuation for list and grade.

A decision with no more other options than ``rivals`` skips steps 1 and 2: each of them is a rival whatever they say.
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass
from typing import Final, Sequence

from coimbra_events.analysis.grades import BOUNDS
from coimbra_events.analysis.playouts import Result, Streams, legal_options, play_out
from coimbra_events.events import GameEvent
from coimbra_events.rules.fast import Fold
from coimbra_events.state import GameState

METHOD: Final = 7
"""How a decision is measured, by number: raised whenever the same settings and seed would give other figures, so an
analysis kept by another way is never read as this one's (``projections.analysis.analysis_key``). 5: the playouts
are played by the playout policy (``coimbra_events/analysis/policy.py``), no longer by the seeded bots. 6: a decision
with no more other options than rivals goes straight to the settling step, and that step stops where even its cap
could not settle the grade (``FUTILE_Z``). 7: a random outcome's luck counts each playout of a table before the
seating shared out evenly among the players (``analysis.luck.exchangeable``)."""

STOP_SE: Final = 3.0
"""An option stops early once the best is ahead of it by this many standard errors of the paired difference."""

SETTLE_Z: Final = 3.0
"""The settling step stops once the loss's interval at this many standard errors lies within one grade: a 99.7 %
interval, wider than the 95 % one reported, because the step looks again and again (about a dozen times), and at
1.96 or 2.58 it would stop now and then on an unlucky run of playouts that another seed does not have."""

FINAL_LOOK: Final = 3
"""The best few other options get this many times the playouts before the rivals are picked from them."""

RACE: Final = 512
"""Paired playouts each after which the settling step goes on against the leading rival alone. Rivals close to each
other in value would keep each other going to the cap, most of an analysis spent playing out three rivals where one
decides the loss; spent on the lead alone, the playouts make the loss's standard error at the cap smaller."""

FUTILE_Z: Final = 1.0
"""The settling step stops early once even its cap would leave the loss within this many standard errors (those the
cap's playouts would give) of a grade's bound: the grade there is a coin's toss at the cap too, and the playouts
settle other decisions instead."""

LUCK: Final = 12
"""Paired playouts each side of a random outcome, per playout of an option carried on (``Settings.luck``): a
player's luck over a game sums a dozen outcomes' and more, each from two sets of playouts, where a grade reads one
difference; 768 at the default settings, 8 per playout (512) until a run's tables were played out once each
(``luck.run_luck``), which left the same CPU for half as many again (docs/analysis.md: what they cost and how far
the total still spreads)."""

SETTLING: Final = 1 << 20
"""Playouts of the settling step are numbered from here: fresh streams, never those the best was picked on."""


@dataclass(frozen=True)
class Settings:
    """How much work an analysis does; with the seed, what makes it reproducible.

    ``first_pass``: playouts per option in the cheap first pass; ``candidates``: how many options
    (besides the one played) go on past it; ``playouts``: per option carried on, and per random
    outcome; ``settle``: the most paired playouts that settle the option played against the best;
    ``batch``: playouts added between two looks; ``luck``: paired playouts each side of a random outcome
    (``coimbra_events/analysis/luck.py``), ``LUCK`` times ``playouts`` unless given. The defaults are sized for the
    playout policy, whose playouts cost six to seven times the bots' (``docs/analysis.md``, Cost): half the bots'
    playouts per option and a twelfth of their settling cap bring a 2-player game's analysis to about five minutes on
    two cores (estimated from a slice of the fixture).
    """

    playouts: int = 64
    first_pass: int = 16
    candidates: int = 6
    rivals: int = 3
    settle: int = 2048
    batch: int = 32
    luck: int = 0
    seed: int = 0

    def __post_init__(self) -> None:
        if not self.luck:
            object.__setattr__(self, "luck", LUCK * self.playouts)

    def to_json(self) -> dict[str, int]:
        return asdict(self)


class Tally:
    """The playouts of one option: the acting player's first places one by one, and every player's sums."""

    def __init__(self, option: int, start: GameState, actor: int, players: int, offset: int = 0) -> None:
        self.option = option
        self.start = start
        self.actor = actor
        self.offset = offset
        self.firsts: list[int] = []
        self.first_sums = [0] * players
        self.score_sums = [0] * players
        self.margin_sum = 0

    @property
    def n(self) -> int:
        return len(self.firsts)

    def run(self, settings: Settings, entry: int, until: int) -> None:
        """Play out this option's playouts ``n .. until - 1`` (each with its own numbered streams)."""
        fold = Fold(scratch=True)
        for k in range(self.n, until):
            self.add(play_out(self.start, Streams(settings.seed, entry, self.offset + k), fold))

    def add(self, result: Result) -> None:
        """Count one playout's result."""
        self.firsts.append(int(result.first[self.actor]))
        for p, (first, score) in enumerate(zip(result.first, result.scores)):
            self.first_sums[p] += first
            self.score_sums[p] += score
        mine = result.scores[self.actor]
        self.margin_sum += mine - max(s for p, s in enumerate(result.scores) if p != self.actor)

    def win(self, player: int | None = None) -> float:
        """P(first) of the acting player (or of ``player``)."""
        return self.first_sums[self.actor if player is None else player] / self.n

    def score(self, player: int | None = None) -> float:
        """Expected final score of the acting player (or of ``player``)."""
        return self.score_sums[self.actor if player is None else player] / self.n

    def rank(self) -> tuple[float, float]:
        return self.win(), self.score()

    def promise(self) -> float:
        """The acting player's mean lead in points over the best other player: what the first pass ranks options by
        (a few playouts tell a margin much better than a chance of finishing first)."""
        return self.margin_sum / self.n


def paired(best: Tally, other: Tally) -> tuple[float, float]:
    """How far ``best`` is ahead of ``other`` in P(first) on their common playouts, and its standard error.

    The playouts of two options of one decision stay so alike that most pairs end the same, and the few that
    differ tell the difference. The standard error counts one more pair differing each way (Agresti and Caffo's
    adjustment for paired proportions), so a run of pairs that all agree is not taken for certainty.
    """
    n = min(best.n, other.n)
    differences = [b - o for b, o in zip(best.firsts[:n], other.firsts[:n])]
    ahead, behind = differences.count(1), differences.count(-1)
    pairs = n + 2
    variance = (ahead + behind + 2 - (ahead - behind) ** 2 / pairs) / pairs
    return (ahead - behind) / n if n else 0.0, math.sqrt(variance / pairs)


@dataclass(frozen=True)
class Settled:
    """The settling step's result: fresh tallies, on the same streams, of the option played (``mine``) and of every
    rival (in the order given); the leading rival's, the one the option played trails most (or leads least); the
    signed loss against it (points of P(first): below 0 where the option played beats every rival), its SE, and the
    playouts spent."""

    mine: Tally
    rivals: tuple[Tally, ...]
    lead: Tally
    loss: float
    se: float
    spent: int


class Decision:
    """The options of one decision, each with one valuation (``tallies``, best first): the settling playouts for the
    option played and the rivals it was settled against, the ranking playouts for the rest. The best is the leading
    rival, or the option played where it beats every rival, so the list and the grade read the same playouts."""

    def __init__(self, ranked: list[Tally], played: Tally, evaluated: int, settled: Settled | None = None) -> None:
        self.evaluated = evaluated
        self.playouts = sum(t.n for t in ranked) + (settled.spent if settled else 0)
        """Every playout this decision took."""
        if settled is None:
            self.tallies, self.played, self._settled, self._ranking_best = ranked, played, (0.0, 0.0), ranked[0]
            return
        best = settled.lead if settled.loss > 0 else settled.mine
        fresh = {t.option: t for t in (settled.mine, *settled.rivals)}
        self.tallies = [best] + [fresh.get(t.option, t) for t in ranked if t.option != best.option]
        self.played = settled.mine
        self._settled = settled.loss, settled.se
        self._ranking_best = next(t for t in ranked if t.option == best.option)

    def loss(self, tally: Tally) -> tuple[float, float]:
        """Points of P(first) ``tally`` trails the best by, signed (the option played: below 0 where it beats every
        rival), and the standard error; an option not settled is paired with the best on the ranking playouts."""
        if tally is self.played:
            return self._settled
        best = self.tallies[0]
        if tally is best:
            return 0.0, 0.0
        return _points(paired(best if tally.offset == best.offset else self._ranking_best, tally))


def option_list(state: GameState, played: GameEvent) -> list[GameEvent]:
    """The options of the decision due, in the rules core's order; a move the table accepted against the rules
    is an option that was taken, last."""
    options: list[GameEvent] = list(legal_options(state))
    return options if played in options else options + [played]


def decide(state: GameState, played: GameEvent, settings: Settings, entry: int) -> Decision:
    """Measure every option of the decision due in ``state``; ``played`` is the one the record says was taken."""
    options = option_list(state, played)
    return _measured(state, options, options.index(played), settings, entry)


def _measured(state: GameState, options: list[GameEvent], played: int | None, settings: Settings,
              entry: int) -> Decision:
    """``decide``'s measure of ``options``, option ``played`` the one taken; with ``played`` None, none was taken yet
    and the option the ranking puts first stands in for it (the first option where every one is settled, with no more
    other options than rivals; ``analysis_choice``: what the analysis itself would play), so a player choosing by the
    analysis is measured by exactly the steps that grade a player who took that option."""
    if 1 <= len(options) - 1 <= settings.rivals:  # a forced decision has no rival to settle against: ranked alone
        return _all_rivals(state, options, 0 if played is None else played, settings, entry)
    ranked, evaluated = rank(state, options, settings, entry, played)
    chosen = ranked[0] if played is None else next(t for t in ranked if t.option == played)
    if len(ranked) == 1:
        return Decision(ranked, chosen, evaluated)
    rivals = _final_look(ranked, chosen, settings, entry)
    return Decision(ranked, chosen, evaluated, settle(rivals, chosen, settings, entry))  # even when the played one leads


def _all_rivals(state: GameState, options: list[GameEvent], played: int, settings: Settings, entry: int) -> Decision:
    """A decision with no more other options than rivals: every one of them is settled against whatever a ranking
    said, so none is ranked first (those playouts would tell nothing the settling step does not); listed best first
    by the settling playouts."""
    tallies = _tallies(state, options)
    chosen = tallies[played]
    settled = settle([t for t in tallies if t is not chosen], chosen, settings, entry)
    by_value = sorted((settled.mine, *settled.rivals), key=Tally.rank, reverse=True)
    return Decision([tallies[t.option] for t in by_value], chosen, len(tallies), settled)


def _tallies(state: GameState, options: Sequence[GameEvent]) -> list[Tally]:
    """An empty tally for every option, each from the table after it."""
    actor = state.index[state.pending.actor] if state.pending else 0
    return [Tally(k, Fold().apply(state, o), actor, len(state.players)) for k, o in enumerate(options)]


def _final_look(ranked: list[Tally], chosen: Tally, settings: Settings, entry: int) -> list[Tally]:
    """The rivals to settle against: the best ``2 * rivals`` other options carried to the end, given ``FINAL_LOOK``
    times the playouts, and the best ``rivals`` of them after that longer look. Many options are often within a few
    points of each other; at ``settings.playouts`` the best of them is now and then ranked fourth or sixth, and
    would be left out. ``ranked`` is put in the new order: those looked at longer first, best first."""
    done = ranked[0].n
    others = [t for t in ranked if t is not chosen]
    finalists = [t for t in others if t.n == done][: 2 * settings.rivals] or others[:1]
    if len(finalists) > settings.rivals:  # else every finalist is a rival whatever the longer look would say
        for t in finalists:
            t.run(settings, entry, FINAL_LOOK * done)
    finalists.sort(key=Tally.rank, reverse=True)
    ranked[:] = finalists + [t for t in ranked if t not in finalists]
    return finalists[: settings.rivals]


def rank(state: GameState, options: Sequence[GameEvent], settings: Settings, entry: int,
         keep: int | None = None) -> tuple[list[Tally], int]:
    """Every option measured, best first (those carried to the end before those sampled less), and how many were
    carried on past the first pass; option ``keep`` (the one played) is always carried on."""
    tallies = _tallies(state, options)
    first = min(settings.first_pass, settings.playouts)
    if len(tallies) == 1:
        tallies[0].run(settings, entry, first)
        return tallies, 1
    for t in tallies:
        t.run(settings, entry, first)
    ranked = sorted(tallies, key=Tally.promise, reverse=True)
    wide, second = ranked[: 2 * settings.candidates], min(2 * first, settings.playouts)
    if len(ranked) > len(wide) and second > first:  # many options: a second look at the better ones before the pick
        for t in wide:
            t.run(settings, entry, second)
        ranked = sorted(wide, key=Tally.promise, reverse=True) + ranked[len(wide):]
    live = ranked[: settings.candidates]
    kept = None if keep is None else tallies[keep]
    if kept is not None and kept not in live:
        live.append(kept)
    _carry_on(live, kept, settings, entry)
    done = max(t.n for t in tallies)
    finished = sorted((t for t in tallies if t.n == done), key=Tally.rank, reverse=True)
    rest = sorted((t for t in tallies if t.n < done), key=Tally.rank, reverse=True)
    return finished + rest, len(live)


def best_option(state: GameState, settings: Settings, entry: int) -> GameEvent:
    """The option the analysis's ranking (its first step, ``rank``) rates best in ``state``: a cheap player choosing by
    the analysis, for many games at a few playouts an option (``strength.duel``, the ladder). It stops short of the
    longer look and the settling that grade a decision, so at the same settings it plays worse than the analysis judges
    (``analysis_choice``)."""
    options = list(legal_options(state))
    return options[rank(state, options, settings, entry)[0][0].option]


def analysis_choice(state: GameState, settings: Settings, entry: int) -> GameEvent:
    """The option the analysis's whole evaluation rates best in ``state``: how a player plays who takes what the
    analysis judges best. The evaluation is ``decide``'s, as it would grade a player who took the option its ranking
    puts first (ranked, the finalists looked at longer, that option settled against the best rivals on fresh paired
    playouts), and the choice is the best that leaves (``Decision.tallies[0]``): a rival that leads it there
    instead of it. At the analysis's own settings it costs about what grading the decision does."""
    options = list(legal_options(state))
    if len(options) == 1:
        return options[0]
    return options[_measured(state, options, None, settings, entry).tallies[0].option]


def _carry_on(live: list[Tally], chosen: Tally | None, settings: Settings, entry: int) -> None:
    """Add playouts batch by batch up to ``settings.playouts``; clearly worse options (not the one played) stop."""
    while live and live[0].n < settings.playouts:
        until = min(settings.playouts, live[0].n + settings.batch)
        for t in live:
            t.run(settings, entry, until)
        best = max(live, key=Tally.rank)
        live = [t for t in live if t is best or t is chosen or _unsettled(best, t)]


def _unsettled(best: Tally, other: Tally) -> bool:
    mean, se = paired(best, other)
    return mean <= STOP_SE * se


def settle(rivals: Sequence[Tally], chosen: Tally, settings: Settings, entry: int) -> Settled:
    """The signed loss of ``chosen`` against the best of ``rivals`` on fresh paired playouts (all of them on the same
    streams), with those playouts (``Settled``).

    A batch, then half as many again as so far, until the loss lies within one grade (``grades.BOUNDS``) by
    ``SETTLE_Z`` standard errors and no other rival could still put it in a higher one, or ``settings.settle``
    playouts each.
    A rival stops once it cannot be the one that decides the grade: clearly behind the leading rival (``STOP_SE``
    standard errors of their paired difference), or surely below both the option played and the leading rival;
    after ``RACE`` playouts each, every rival but the leading one stops.
    """
    players = len(chosen.first_sums)
    mine = Tally(chosen.option, chosen.start, chosen.actor, players, SETTLING)
    fresh = tuple(Tally(t.option, t.start, t.actor, players, SETTLING) for t in rivals)
    live = list(fresh)
    spent = 0
    while True:
        n = mine.n
        until = min(settings.settle, n + max(settings.batch, n // 2))  # looks ever further apart: few looks in all
        for t in (mine, *live):
            spent += until - t.n
            t.run(settings, entry, until)
        gaps = {t: _points(paired(t, mine)) for t in live}
        lead = max(live, key=lambda t: gaps[t][0])
        loss, se = gaps[lead]
        floor = max(0.0, loss - SETTLE_Z * se)
        live = [lead] if until >= RACE else [
            t for t in live if t is lead or (gaps[t][0] + SETTLE_Z * gaps[t][1] >= floor and _unsettled(lead, t))]
        top = next((b for b in BOUNDS if b > max(0.0, loss)), math.inf)
        settled = until >= 2 * settings.batch and _within_one_grade(loss, se) and all(
            gaps[t][0] + SETTLE_Z * gaps[t][1] < top for t in live if t is not lead)
        if until >= settings.settle or settled or until >= RACE and _futile(loss, se, until, settings.settle):
            return Settled(mine, fresh, lead, loss, se, spent)


def _points(difference: tuple[float, float]) -> tuple[float, float]:
    return 100 * difference[0], 100 * difference[1]


def _futile(loss: float, se: float, n: int, cap: int) -> bool:
    """Even ``cap`` paired playouts would leave ``loss`` (its SE ``se`` after ``n``) within ``FUTILE_Z`` standard
    errors of a grade's bound."""
    at_cap = se * math.sqrt(n / cap)
    return any(abs(loss - bound) < FUTILE_Z * at_cap for bound in BOUNDS)


def _within_one_grade(loss: float, se: float) -> bool:
    low, high = loss - SETTLE_Z * se, loss + SETTLE_Z * se
    return not any(low < bound < high for bound in BOUNDS)


def win_vector(tally: Tally) -> tuple[float, ...]:
    """Every player's P(first) in ``tally``'s playouts."""
    return tuple(s / tally.n for s in tally.first_sums)


__all__: Sequence[str] = ("METHOD", "LUCK", "Settings", "Tally", "Settled", "Decision", "option_list", "decide", "rank",
                          "best_option", "analysis_choice", "settle",
                          "paired", "win_vector")
