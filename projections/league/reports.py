"""Standings, ratings and player profiles read from the league's tables, as plain data.

Each report reads the rows of the finished games once (one query) and sums
them per person: spellings become people through ``person_key`` and the alias
map, so a person's games count together however their name was typed.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, Iterable, Mapping, Sequence

import orjson

from coimbra_events.effect_kinds import TRACKS
from coimbra_events.players import person_key, resolve
from projections.league.contribution import SOURCES
from projections.league.ratings import ordinal
from projections.league.view import Tables

TREND_GAMES = 5
"""The rating trend is the change of the conservative rating over a player's last five rated games."""


class UnknownPlayer(KeyError):
    """No finished game in the league has this player."""

    def __str__(self) -> str:
        return f"no finished game of {self.args[0]!r} in the league (coimbra league standings lists the players)"


@dataclass(frozen=True)
class SeatRow:
    """One seat of a finished game as the reports read it."""

    game_id: str
    game: str
    finished: int
    seat: int
    spelling: str
    key: str
    place: int
    total: int
    sources: tuple[int, ...]
    resources_left: int
    facts_json: str

    @cached_property
    def facts(self) -> dict[str, Any]:
        """The profile facts (read only by the reports that need them)."""
        return orjson.loads(self.facts_json)


@dataclass
class People:
    """Who is who: spelling keys to people, and the name each person is shown by."""

    targets: Mapping[str, str]
    shown: dict[str, str] = field(default_factory=dict)

    def of(self, key: str) -> str:
        return resolve(self.targets, key)

    def name(self, person: str) -> str:
        return self.shown.get(person, person)


def read_seats(tables: Tables, season: str | None) -> tuple[list[SeatRow], People]:
    """Every seat of the finished games (of a season), and the people behind the spellings."""
    everyone = [_seat(r) for r in tables.season(None)]
    rows = everyone if season is None else [_seat(r) for r in tables.season(season)]
    aliases = tables.aliases()
    people = People({a: p for a, (p, _, _) in aliases.items()})
    people.shown = shown_names(everyone, aliases, people)
    return rows, people


def shown_names(rows: Iterable[SeatRow], aliases: Mapping[str, tuple[str, str, str]], people: People) -> dict[str, str]:
    """How each person is shown: as an alias named them, else their most used own spelling, else their most used alias.

    Ties go to the spelling seen first.
    """
    used: dict[str, Counter[str]] = defaultdict(Counter)
    own: dict[str, Counter[str]] = defaultdict(Counter)
    for row in rows:  # in finishing order, so most_common breaks ties by the first seen
        person = people.of(row.key)
        used[person][row.spelling] += 1
        if row.key == person:
            own[person][row.spelling] += 1
    first = {p: c.most_common(1)[0][0] for p, c in used.items()}
    own_best = {p: c.most_common(1)[0][0] for p, c in own.items()}
    given = {}
    for _, (target, written, _) in sorted(aliases.items()):
        if people.of(target) == target:
            given.setdefault(target, written)
    return {**first, **own_best, **given}


def _seat(r: Sequence[Any]) -> SeatRow:
    n = len(SOURCES)
    game_id, seat, spelling, key, place, total = r[:6]
    return SeatRow(game_id, r[8 + n], r[9 + n], seat, spelling, key, place, total, tuple(r[6:6 + n]), r[6 + n], r[7 + n])


def by_game(rows: Iterable[SeatRow]) -> dict[str, list[SeatRow]]:
    games: dict[str, list[SeatRow]] = defaultdict(list)
    for row in rows:
        games[row.game_id].append(row)
    return games


def split_doubles(rows: list[SeatRow], people: People) -> tuple[list[SeatRow], list[str]]:
    """The seats of games in which every person holds one seat, and the names of the games where one holds two."""
    kept, doubled = [], []
    for seats in by_game(rows).values():
        persons = [people.of(s.key) for s in seats]
        if len(set(persons)) == len(persons):
            kept += seats
        else:
            doubled.append(seats[0].game)
    return kept, sorted(doubled)


# --- standings ------------------------------------------------------------------------------------


@dataclass
class Tally:
    """A person's results summed over games."""

    games: int = 0
    wins: int = 0
    shared_wins: int = 0
    points: int = 0
    best: int | None = None
    places: int = 0
    sources: list[int] = field(default_factory=lambda: [0] * len(SOURCES))

    def add(self, seat: SeatRow, shared: bool) -> None:
        self.games += 1
        self.wins += seat.place == 1
        self.shared_wins += seat.place == 1 and shared
        self.points += seat.total
        self.best = seat.total if self.best is None else max(self.best, seat.total)
        self.places += seat.place
        for k, v in enumerate(seat.sources):
            self.sources[k] += v

    def to_json(self) -> dict[str, Any]:
        n = self.games or 1
        return {
            "games": self.games,
            "wins": self.wins,
            "shared_wins": self.shared_wins,
            "win_rate": round(self.wins / n, 4),
            "average": round(self.points / n, 2),
            "best": self.best,
            "average_place": round(self.places / n, 2),
            "points": self.points,
            "points_by_source": {name: v for (name, _), v in zip(SOURCES, self.sources)},
            "average_by_source": {name: round(v / n, 2) for (name, _), v in zip(SOURCES, self.sources)},
        }


def tally(seats: Iterable[SeatRow], people: People) -> dict[str, Tally]:
    """Per person: games, wins (a shared first place is a win for each), points, best, places, sources."""
    out: dict[str, Tally] = defaultdict(Tally)
    for game in by_game(seats).values():
        firsts = sum(1 for s in game if s.place == 1)
        for s in game:
            out[people.of(s.key)].add(s, shared=firsts > 1)
    return out


def standings(tables: Tables, season: str | None = None) -> dict[str, Any]:
    """The standings of a season (a tag) or of all time: one row per person, best first."""
    rows, people = read_seats(tables, season)
    kept, doubled = split_doubles(rows, people)
    tallies = tally(kept, people)
    ordered = sorted(tallies.items(), key=lambda pt: (-pt[1].wins, -pt[1].points / pt[1].games, people.name(pt[0])))
    table, rank, previous = [], 0, None
    for k, (person, t) in enumerate(ordered, 1):
        key = (t.wins, t.points / t.games)
        rank = rank if key == previous else k
        previous = key
        table.append({"rank": rank, "player": people.name(person), **t.to_json()})
    return {
        "season": season,
        "games": len(by_game(kept)),
        "players": table,
        "left_out": _left_out(tables, doubled),
        "seasons": [{"tag": tag, "games": n} for tag, n in tables.tag_names()],
    }


def _left_out(tables: Tables, doubled: Sequence[str]) -> list[dict[str, str]]:
    out = [{"game": name, "why": f"damaged: {why}"} for name, _, why in tables.left_out()]
    out += [{"game": name, "why": "one person holds two seats (see coimbra player list)"} for name in doubled]
    return out


# --- ratings --------------------------------------------------------------------------------------


def rating_history(tables: Tables) -> dict[str, list[tuple[int, float, float]]]:
    """Per person: ``(finished, mu, sigma)`` after each rated game, oldest first."""
    out: dict[str, list[tuple[int, float, float]]] = defaultdict(list)
    for finished, person, _, mu, sigma in tables.ratings():
        out[person].append((finished, mu, sigma))
    return out


def rating_of(history: Sequence[tuple[int, float, float]]) -> dict[str, Any]:
    """A person's rating now, its trend over the last games, and the conservative ratings those games left."""
    ordinals = [ordinal(mu, sigma) for _, mu, sigma in history]
    _, mu, sigma = history[-1]
    before = ordinals[-TREND_GAMES - 1] if len(ordinals) > TREND_GAMES else 0.0
    return {
        "rating": round(ordinals[-1], 3),
        "mu": round(mu, 3),
        "sigma": round(sigma, 3),
        "games": len(history),
        "trend": round(ordinals[-1] - before, 3),
        "recent": [round(o, 3) for o in ordinals[-10:]],
    }


def ratings(tables: Tables) -> dict[str, Any]:
    """Every rated person, highest conservative rating first."""
    _, people = read_seats(tables, None)
    rows = [{"player": people.name(p), **rating_of(h)} for p, h in rating_history(tables).items()]
    rows.sort(key=lambda r: (-r["rating"], r["player"]))
    for k, row in enumerate(rows, 1):
        row["rank"] = k
    return {"model": "openskill Plackett-Luce", "shown": "mu - 3 sigma", "trend_games": TREND_GAMES,
            "players": [{"rank": r.pop("rank"), **r} for r in rows]}


# --- a player's profile ---------------------------------------------------------------------------


def _fared(seats: Iterable[SeatRow]) -> dict[str, Any]:
    seats = list(seats)
    n = len(seats)
    return {"games": n, "wins": sum(s.place == 1 for s in seats),
            "average_place": round(sum(s.place for s in seats) / n, 2), "average": round(sum(s.total for s in seats) / n, 2)}


def _per_game(total: float, games: int) -> float:
    return round(total / games, 2)


def profile(tables: Tables, name: str, season: str | None = None) -> dict[str, Any]:
    """One person's record: results, tracks, income per track, voyages and monasteries, cards, start choices, opponents."""
    rows, people = read_seats(tables, season)
    kept, _ = split_doubles(rows, people)
    person = people.of(person_key(name))
    mine = [s for s in kept if people.of(s.key) == person]
    if not mine:
        raise UnknownPlayer(name)
    n = len(mine)
    games = by_game(kept)
    t = tally(mine, people)[person]
    influence = {track: _per_game(sum(s.facts["influence"][track] for s in mine), n) for track in TRACKS}
    income = {track: dict(zip(("coins", "guards", "points"),
                              (_per_game(sum(s.facts["income"].get(track, [0, 0, 0])[k] for s in mine), n) for k in range(3))))
              for track in TRACKS}
    cards: dict[str, int] = defaultdict(int)
    for s in mine:
        for category, count in s.facts["cards"].items():
            cards[category] += count
    starts: dict[str, dict[str, list[SeatRow]]] = {"first": defaultdict(list), "space": defaultdict(list), "card": defaultdict(list)}
    for s in mine:
        start = s.facts["start"]
        starts["first"][f"{start['first']} first" if start["first"] else "none"].append(s)
        starts["space"][start["space"] or "none"].append(s)
        for card in start["cards"]:
            starts["card"][card].append(s)
    versus: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0, 0])
    for s in mine:
        for other in games[s.game_id]:
            if other is s:
                continue
            record = versus[people.of(other.key)]
            record[0] += 1
            record[1 if s.place < other.place else 2 if s.place > other.place else 3] += 1
    history = rating_history(tables).get(person)
    return {
        "player": people.name(person),
        "spellings": sorted({s.spelling for s in mine}),
        "season": season,
        **t.to_json(),
        "rating": rating_of(history) if history else None,
        "tracks": {"favourite": max(TRACKS, key=lambda tr: (influence[tr], -TRACKS.index(tr))),
                   "average_influence": influence},
        "income_per_track": income,
        "voyages": {"total": sum(s.facts["voyages"] for s in mine), "per_game": _per_game(sum(s.facts["voyages"] for s in mine), n)},
        "monasteries": {"total": sum(s.facts["monasteries"] for s in mine),
                        "per_game": _per_game(sum(s.facts["monasteries"] for s in mine), n)},
        "cards_bought": {c: {"total": v, "per_game": _per_game(v, n)} for c, v in sorted(cards.items())},
        "start_choices": {kind: {choice: _fared(seats) for choice, seats in sorted(found.items())}
                          for kind, found in starts.items()},
        "head_to_head": sorted(({"opponent": people.name(p), "games": r[0], "ahead": r[1], "behind": r[2], "level": r[3]}
                                for p, r in versus.items()), key=lambda h: (-h["games"], h["opponent"])),
        "games_list": [{"game": s.game, "place": s.place, "total": s.total} for s in mine],
    }


# --- who is who -----------------------------------------------------------------------------------


def people_report(tables: Tables) -> list[dict[str, Any]]:
    """Every person with finished games: how many, the spellings recorded, and the aliases naming them."""
    rows, people = read_seats(tables, None)
    spellings: dict[str, set[str]] = defaultdict(set)
    games: dict[str, set[str]] = defaultdict(set)
    for row in rows:
        person = people.of(row.key)
        spellings[person].add(row.spelling)
        games[person].add(row.game_id)
    aliases: dict[str, list[str]] = defaultdict(list)
    for alias_key, (_, _, alias) in tables.aliases().items():
        aliases[people.of(alias_key)].append(alias)
    everyone = set(games) | set(aliases)
    return sorted(({"player": people.name(p), "games": len(games[p]), "spellings": sorted(spellings[p]),
                    "aliases": sorted(aliases[p])} for p in everyone), key=lambda r: r["player"].casefold())
