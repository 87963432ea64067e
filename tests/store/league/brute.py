"""The league computed the slow, obvious way: from exported logs, one game at a time, with no projection at all.

Every finished game that is not a fork is validated from its log and scored by
``final_scores``; results are summed per person (spelling key, then the alias
map followed to its end); ratings are openskill's Plackett-Luce, game after game
in the order given.
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any, Iterable, Mapping

from coimbra_events.log import GameLog
from coimbra_events.players import person_key
from coimbra_events.rules.scoring import final_scores
from coimbra_events.validation import validate


def person(aliases: Mapping[str, str], name: str) -> str:
    key = person_key(name)
    seen = {key}
    while key in aliases and aliases[key] not in seen:
        key = aliases[key]
        seen.add(key)
    return key


def results(logs: Iterable[tuple[str, GameLog]]) -> list[tuple[str, list[Any]]]:
    """(game name, score sheets) of each finished non-fork game, in the order given."""
    out = []
    for name, log in logs:
        if "parent" in log.meta:
            continue
        state = validate(log).state
        if state.over:
            out.append((name, final_scores(state)))
    return out


def standings(games: list[tuple[str, list[Any]]], aliases: Mapping[str, str]) -> dict[str, dict[str, Any]]:
    """Per person key: games, wins, shared wins, points, best, average place, points by source."""
    out: dict[str, dict[str, Any]] = {}
    for _, sheets in games:
        if len({person(aliases, s.name) for s in sheets}) != len(sheets):
            continue  # one person in two seats: left out
        firsts = sum(1 for s in sheets if s.place == 1)
        for s in sheets:
            t = out.setdefault(person(aliases, s.name), {"games": 0, "wins": 0, "shared_wins": 0, "points": 0,
                                                          "best": None, "places": 0, "sources": defaultdict(int)})
            t["games"] += 1
            t["wins"] += s.place == 1
            t["shared_wins"] += s.place == 1 and firsts > 1
            t["points"] += s.total
            t["best"] = s.total if t["best"] is None else max(t["best"], s.total)
            t["places"] += s.place
            for source, v in s.sources().items():
                t["sources"][source] += v
    for t in out.values():
        t["sources"] = dict(t["sources"])
        t["average_place"] = round(t.pop("places") / t["games"], 2)
    return out


def ratings(games: list[tuple[str, list[Any]]], aliases: Mapping[str, str]) -> dict[str, tuple[float, float]]:
    """Each person's (mu, sigma) after every game, played in the order given."""
    from openskill.models import PlackettLuce

    model = PlackettLuce()
    now: dict[str, Any] = {}
    for _, sheets in games:
        people = [person(aliases, s.name) for s in sheets]
        if len(set(people)) != len(people):
            continue
        rated = model.rate([[now.get(p) or model.rating()] for p in people], ranks=[s.place for s in sheets])
        for p, (r,) in zip(people, rated):
            now[p] = r
    return {p: (r.mu, r.sigma) for p, r in now.items()}


def reported(report: dict[str, Any], aliases: Mapping[str, str]) -> dict[str, dict[str, Any]]:
    """The league's standings in the brute force's terms (per person key)."""
    out = {}
    for row in report["players"]:
        out[person(aliases, row["player"])] = {
            "games": row["games"], "wins": row["wins"], "shared_wins": row["shared_wins"], "points": row["points"],
            "best": row["best"], "average_place": row["average_place"], "sources": row["points_by_source"],
        }
    return out


def profile(logs: Iterable[tuple[str, GameLog]], aliases: Mapping[str, str], who: str) -> dict[str, Any]:
    """A person's profile facts, folding each finished non-fork plain log event by event."""
    from coimbra_events.events import IncomeActivated
    from coimbra_events.rules.core import apply

    games, income, voyages, monasteries = 0, defaultdict(lambda: [0, 0, 0]), 0, 0
    cards: dict[str, int] = defaultdict(int)
    first: dict[str, int] = defaultdict(int)
    versus: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0, 0])
    for _, log in logs:
        if "parent" in log.meta:
            continue
        state = validate(log.with_events(())).state  # the table before the first event
        for event in log.events:
            after = apply(state, event)
            if isinstance(event, IncomeActivated) and person(aliases, event.actor) == who:
                i = state.index[event.actor]
                got = income[event.track]
                got[0] += after.players[i].coins - state.players[i].coins
                got[1] += after.players[i].guards - state.players[i].guards
                got[2] += after.players[i].points - state.players[i].points
            state = after
        if not state.over:
            continue
        sheets = {s.name: s.place for s in final_scores(state)}
        mine = [p for p in state.players if person(aliases, p.name) == who]
        if not mine:
            continue
        me = mine[0]
        games += 1
        voyages += len(me.voyages)
        monasteries += len(me.monasteries)
        for card in me.cards:
            cards[state.catalog.characters[card].category] += 1
        first[f"{me.start_choices[0]} first"] += 1
        for other in state.players:
            if other is not me:
                record = versus[person(aliases, other.name)]
                record[0] += 1
                mine_place, theirs = sheets[me.name], sheets[other.name]
                record[1 if mine_place < theirs else 2 if mine_place > theirs else 3] += 1
    return {"games": games, "income": {t: v for t, v in income.items()}, "voyages": voyages,
            "monasteries": monasteries, "cards": dict(cards), "first": dict(first), "versus": dict(versus)}
