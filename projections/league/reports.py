"""Standings, ratings and player profiles read from the league's tables, as plain data.

Spellings become people through ``person_key`` and the alias map, so a person's
games count together however their name was typed. The reports ask the tables
for sums per spelling (standings), each person's latest ratings (ratings) and
one person's games (a profile): what they read grows with the number of people,
or with one person's games, not with the whole archive.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from dataclasses import dataclass, field
from typing import Any, Iterable, Iterator, Mapping, Sequence

import orjson

from coimbra_events.catalog.effect_kinds import TRACKS
from coimbra_events.players import person_key, resolve
from projections.league.contribution import SOURCES, Seat
from projections.league.ratings import ordinal, rated
from projections.league.view import Tables

TREND_GAMES = 5
"""The rating trend is the change of the conservative rating over a player's last five rated games."""
RECENT = 10
"""A rating shows the conservative ratings its last ten games left."""
PROVISIONAL = 5
"""A rating from fewer rated games than this is provisional: its sigma is still wide, its rank may move a lot."""


class UnknownPlayer(KeyError):
    """No finished game in the league has this player; ``near`` are players whose names are close."""

    def __init__(self, name: str, near: Sequence[str] = ()) -> None:
        super().__init__(name)
        self.near = tuple(near)

    def __str__(self) -> str:
        hint = f"; did you mean {' or '.join(repr(n) for n in self.near)}?" if self.near else ""
        return f"no finished game of {self.args[0]!r} in the league{hint} (coimbra league standings lists the players)"


# --- who is who -----------------------------------------------------------------------------------


@dataclass
class People:
    """Who is who: spelling keys to people, the spellings each person was recorded as, and how they are shown."""

    targets: Mapping[str, str]
    aliases: dict[str, list[str]] = field(default_factory=dict)
    """Per person, the aliases (as written) that name them."""
    spellings: dict[str, dict[str, int]] = field(default_factory=dict)
    """Per person, each spelling recorded and how many seats it holds."""
    shown: dict[str, str] = field(default_factory=dict)

    def of(self, key: str) -> str:
        return resolve(self.targets, key)

    def name(self, person: str) -> str:
        return self.shown.get(person, person)

    def keys(self, person: str) -> list[str]:
        """Every spelling key that is this person."""
        keys = {person_key(s) for s in self.spellings.get(person, {})} | {person}
        return sorted(k for k in keys if self.of(k) == person)

    def together(self) -> list[list[str]]:
        """The groups of two or more spelling keys that are one person."""
        return [keys for keys in (self.keys(p) for p in self.spellings) if len(keys) > 1]


def people_of(tables: Tables) -> People:
    """Who is who in the league's tables.

    A person is shown as an alias names them, else by their most used own
    spelling, else by their most used alias; ties go to the spelling seen first.
    """
    aliases = tables.aliases()
    people = People({a: p for a, (p, _, _) in aliases.items()})
    for _, (target, _, alias) in sorted(aliases.items()):
        people.aliases.setdefault(people.of(target), []).append(alias)
    ranked: dict[str, list[tuple[int, int, int, str]]] = defaultdict(list)
    for key, spelling, seats, first in tables.spellings():
        person = people.of(key)
        people.spellings.setdefault(person, {})[spelling] = seats
        ranked[person].append((key != person, -seats, first, spelling))
    given: dict[str, str] = {}
    for _, (target, written, _) in sorted(aliases.items()):
        if people.of(target) == target:
            given.setdefault(target, written)
    people.shown = {**{person: min(options)[3] for person, options in ranked.items()}, **given}
    return people


def near_names(people: People, name: str) -> list[str]:
    """Players whose names (as shown, or as recorded) are close to a mistyped one, as the league shows them."""
    import difflib

    spelled = {spelling.casefold(): person for person, spellings in people.spellings.items() for spelling in spellings}
    spelled.update({people.name(person).casefold(): person for person in people.spellings})
    close = difflib.get_close_matches(name.casefold(), list(spelled), n=3, cutoff=0.6)
    return list(dict.fromkeys(people.name(spelled[c]) for c in close))


def people_report(tables: Tables) -> list[dict[str, Any]]:
    """Every person with finished games: how many seats, the spellings recorded, and the aliases naming them."""
    people = people_of(tables)
    everyone = set(people.spellings) | set(people.aliases)
    return sorted(({"player": people.name(p), "games": sum(people.spellings.get(p, {}).values()),
                    "spellings": sorted(people.spellings.get(p, {})), "aliases": sorted(people.aliases.get(p, []))}
                   for p in everyone), key=lambda r: r["player"].casefold())


# --- standings ------------------------------------------------------------------------------------


@dataclass
class PersonTally:
    """A person's results summed over games."""

    games: int = 0
    wins: int = 0
    shared_wins: int = 0
    points: int = 0
    best: int | None = None
    places: int = 0
    sources: list[int] = field(default_factory=lambda: [0] * len(SOURCES))

    def add(self, games: int, wins: int, shared_wins: int, points: int, best: int, places: int,
            sources: Sequence[int]) -> None:
        """Add the sums of some games (one spelling's, say)."""
        self.games += games
        self.wins += wins
        self.shared_wins += shared_wins
        self.points += points
        self.best = best if self.best is None else max(self.best, best)
        self.places += places
        for k, v in enumerate(sources):
            self.sources[k] += v

    def add_seat(self, seat: Seat) -> None:
        self.add(1, seat.place == 1, seat.place == 1 and seat.shared, seat.total, seat.total, seat.place, seat.sources)

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


def standings(tables: Tables, season: str | None = None) -> dict[str, Any]:
    """The standings of a season (a tag) or of all time: one row per person, best first.

    Most wins first, then the highest average score; equal on both, equal rank.
    """
    people = people_of(tables)
    doubled = tables.doubled(people.together())
    left = [g for g, _ in doubled]
    tallies: dict[str, PersonTally] = defaultdict(PersonTally)
    for key, games, wins, shared, points, best, places, *sources in tables.tallies(season, left):
        tallies[people.of(key)].add(games, wins, shared, points, best, places, sources)
    ordered = sorted(tallies.items(), key=lambda pt: (-pt[1].wins, -pt[1].points / pt[1].games, people.name(pt[0])))
    table, rank, previous = [], 0, None
    for k, (person, t) in enumerate(ordered, 1):
        key = (t.wins, t.points / t.games)
        rank = rank if key == previous else k
        previous = key
        table.append({"rank": rank, "player": people.name(person), **t.to_json()})
    return {
        "season": season,
        "games": tables.games_counted(season, left),
        "players": table,
        **left_out_of(tables, season, doubled),
        "seasons": [{"tag": tag, "games": n} for tag, n in tables.tag_names()],
    }


def left_out_of(tables: Tables, season: str | None, doubled: Sequence[tuple[str, str]]) -> dict[str, Any]:
    """The finished games the league leaves out (of a season), each with its ``reason`` and ``why``, and how many
    for each reason: damaged, one person in two seats (``doubled``), a copy, not counted, archived, the same record."""
    left_out = [{"game": name, "reason": "damaged", "why": why} for name, _, why in tables.left_out()]
    left_out += [{"game": name, "reason": "two seats", "why": "one person holds two seats (see coimbra player list)"}
                 for _, name in doubled]
    left_out += [{"game": name, "reason": reason, "why": why} for name, reason, why in tables.left_out_counting(season)]
    return {"left_out": left_out, "left_out_counts": dict(Counter(item["reason"] for item in left_out))}


# --- ratings --------------------------------------------------------------------------------------


def rating_of(history: Sequence[tuple[int, float, float]], games: int | None = None) -> dict[str, Any]:
    """A person's rating now, its trend over the last games, and the conservative ratings those games left.

    ``history`` holds the latest ``(finished, mu, sigma)`` at least ``TREND_GAMES + 1`` long when there were
    that many games; ``games`` is how many were rated in all (default: the length of ``history``).
    """
    games = len(history) if games is None else games
    ordinals = [ordinal(mu, sigma) for _, mu, sigma in history]
    _, mu, sigma = history[-1]
    before = ordinals[-TREND_GAMES - 1] if games > TREND_GAMES else 0.0
    return {
        "rating": round(ordinals[-1], 3),
        "mu": round(mu, 3),
        "sigma": round(sigma, 3),
        "games": games,
        "trend": round(ordinals[-1] - before, 3),
        "recent": [round(o, 3) for o in ordinals[-RECENT:]],
    }


def recent_ratings(tables: Tables) -> dict[str, dict[str, Any]]:
    """Each rated person's rating (``rating_of``), by person key."""
    history: dict[str, list[tuple[int, float, float]]] = defaultdict(list)
    counts: dict[str, int] = {}
    for person, n, finished, mu, sigma in tables.recent_ratings(max(RECENT, TREND_GAMES + 1)):
        history[person].append((finished, mu, sigma))
        counts[person] = n
    return {person: rating_of(h, counts[person]) for person, h in history.items()}


def season_ratings(tables: Tables, season: str, people: People) -> dict[str, dict[str, Any]]:
    """Each person's rating over one season's games alone (every player starts the season unrated), by person key."""
    history: dict[str, list[tuple[int, float, float]]] = defaultdict(list)
    for finished, person, _, mu, sigma in rated(tables.placings(0, season), people.of, {}):
        history[person].append((finished, mu, sigma))
    return {person: rating_of(h) for person, h in history.items()}


def ratings(tables: Tables, season: str | None = None) -> dict[str, Any]:
    """Every rated person (of a season: rated over its games alone), highest conservative rating first; a rating
    from fewer than ``PROVISIONAL`` games is marked provisional."""
    people = people_of(tables)
    found = recent_ratings(tables) if season is None else season_ratings(tables, season, people)
    rows = sorted(({"player": people.name(p), **r, "provisional": r["games"] < PROVISIONAL} for p, r in found.items()),
                  key=lambda r: (-r["rating"], r["player"]))
    return {"model": "openskill Plackett-Luce", "shown": "mu - 3 sigma", "trend_games": TREND_GAMES, "season": season,
            "provisional_below": PROVISIONAL, "players": [{"rank": k, **r} for k, r in enumerate(rows, 1)],
            **left_out_of(tables, season, tables.doubled(people.together()))}


# --- a player's profile ---------------------------------------------------------------------------


@dataclass(frozen=True)
class SeatRow(Seat):
    """One seat of a finished game as a profile reads it: the seat, and which game it is of."""

    game_id: str = ""
    game: str = ""
    finished: int = 0


class Facts(Mapping[str, Any]):
    """A seat's facts as stored (JSON), read when first asked for."""

    def __init__(self, text: str) -> None:
        self.text = text
        self._read: dict[str, Any] | None = None

    def _facts(self) -> dict[str, Any]:
        if self._read is None:
            self._read = orjson.loads(self.text)
        return self._read

    def __getitem__(self, key: str) -> Any:
        return self._facts()[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._facts())

    def __len__(self) -> int:
        return len(self._facts())


def _seat(r: Sequence[Any]) -> SeatRow:
    n = len(SOURCES)
    game_id, seat, spelling, key, place, shared, total = r[:7]
    return SeatRow(seat, spelling, key, place, bool(shared), total, tuple(r[7:7 + n]), r[7 + n], Facts(r[8 + n]),
                   game_id=game_id, game=r[9 + n], finished=r[10 + n])


def by_game(rows: Iterable[SeatRow]) -> dict[str, list[SeatRow]]:
    games: dict[str, list[SeatRow]] = defaultdict(list)
    for row in rows:
        games[row.game_id].append(row)
    return games


def _fared(seats: Iterable[SeatRow]) -> dict[str, Any]:
    seats = list(seats)
    n = len(seats)
    return {"games": n, "wins": sum(s.place == 1 for s in seats),
            "average_place": round(sum(s.place for s in seats) / n, 2), "average": round(sum(s.total for s in seats) / n, 2)}


def _per_game(total: float, games: int) -> float:
    return round(total / games, 2)


def _played(tables: Tables, name: str, season: str | None) -> tuple[People, str, dict[str, list[SeatRow]], list[SeatRow]]:
    """Who ``name`` is, every seat of the finished games (of a season) they played, by game, and their own seats, in
    finishing order; ``UnknownPlayer`` if they played none."""
    people = people_of(tables)
    person = people.of(person_key(name))
    games = {g: seats for g, seats in by_game(_seat(r) for r in tables.seats_with(people.keys(person), season)).items()
             if len({people.of(s.key) for s in seats}) == len(seats)}  # one person in two seats: left out
    mine = [s for seats in games.values() for s in seats if people.of(s.key) == person]
    if not mine:
        raise UnknownPlayer(name, near_names(people, name))
    return people, person, games, mine


def games_of(tables: Tables, name: str, season: str | None = None) -> dict[str, Any]:
    """A person as the league shows them, and the finished games (of a season) the league counts for them, in
    finishing order, each with the spelling they played it under (how the game's record names them)."""
    people, person, _, mine = _played(tables, name, season)
    return {"player": people.name(person), "games": [{"game": s.game, "spelling": s.spelling} for s in mine]}


def profile(tables: Tables, name: str, season: str | None = None) -> dict[str, Any]:
    """One person's record: results, tracks, income per track, voyages and monasteries, cards, start choices, opponents."""
    people, person, games, mine = _played(tables, name, season)
    n = len(mine)
    t = PersonTally()
    for s in mine:
        t.add_seat(s)
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
    rating = recent_ratings(tables).get(person)
    return {
        "player": people.name(person),
        "spellings": sorted({s.spelling for s in mine}),
        "season": season,
        **t.to_json(),
        "rating": rating,
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
