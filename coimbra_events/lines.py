"""One line per thing a person does: several entries of one player's turn on one line of notation.

A player's whole income, or a pilgrim's walk, is one thing done at the table but
several entries of the record (one per die, exchange and step). This module
groups entries into such lines and reads a line back into its entries, for
every front-end alike (the move list, ``coimbra act``, the recorder, the phones
through ``Games.record``)::

    Ana: income white-1 orange; exchange coins 3; income gray-1 gray; orange-2 orange; end
    Bruno: walk start-n, road-n
    Bruno: income purple-1 purple; walk start-n, road-n; income gray-2 gray

- Entries are separated by ``;``; the line's ``Name:`` is said once, for all of
  them. An entry that leaves out its verb repeats the verb before it
  (``income gray-1 gray; orange-2 orange``, ``buy c-II-09; c-II-24``).
- ``walk SPACE, SPACE, …`` is one ``step`` per space, in order. Given the table
  (``state``), ``walk SPACE`` to a space further away takes the shortest route,
  asking (``NotationError``) only when two routes differ in the monasteries they
  pass.
- ``income DIE`` without a track, read with a catalog (``names``), goes to the
  die's own track; the white die and the extra die always name theirs.
- Only a player's decisions share a line: table outcomes and the entries about
  the record (corrections, notes, …) stand alone, so a note's free text may
  hold ``;``.

Every entry is still its own event with its own hash: a line is a way of
writing them, nothing more. Documented in ``docs/notation.md``.
"""

from __future__ import annotations

from typing import Callable, Sequence

from coimbra_events import events as ev
from coimbra_events.catalog import Catalog
from coimbra_events.catalog.effect_kinds import TRACKS
from coimbra_events.events import GameEvent
from coimbra_events.names import Kind, Names, UnknownName, space_entries
from coimbra_events.record import replace
from coimbra_events.notation import BY_TYPE, BY_WORD, NotationError, did_you_mean, parse, render
from coimbra_events.rules import core
from coimbra_events.rules.fast import Fold
from coimbra_events.state import TABLE, GameState
from coimbra_events.violations import RuleViolation

SEPARATOR = "; "
"""Between the entries of one line (``;`` on reading, spaces around it optional)."""
WALK = "walk"
"""The word of a pilgrim's several steps on one line."""

_HISTORY = frozenset(ev.HISTORY_TYPES)
_INCOME = BY_TYPE[ev.IncomeActivated.TYPE].word


def shares_a_line(event: GameEvent) -> bool:
    """Whether an entry may share a line with others: a player's decision (not a table outcome, not about the record)."""
    return event.actor != TABLE and not event.RANDOM and type(event) not in _HISTORY


def groups(events: Sequence[GameEvent], breaks: Callable[[int], bool] = lambda k: False) -> list[range]:
    """The entries (indices into ``events``) written on each line: consecutive decisions of one player, a line
    each otherwise; ``breaks(k)``: a new line must begin at entry ``k`` (a heading stands before it)."""
    out: list[range] = []
    start = 0
    for k in range(1, len(events) + 1):
        if k == len(events) or breaks(k) or not _joins(events[k - 1], events[k]):
            out.append(range(start, k))
            start = k
    return out


def _joins(before: GameEvent, event: GameEvent) -> bool:
    return shares_a_line(before) and shares_a_line(event) and before.actor == event.actor


def render_line(events: Sequence[GameEvent], names: Names | None = None) -> str:
    """The entries of one line (``groups``) as notation: the actor once, a verb left out where it repeats,
    consecutive steps as one walk; with ``names``, components by name (``notation.render``)."""
    parts: list[str] = []
    verb = ""
    k = 0
    while k < len(events):
        steps = _steps_from(events, k)
        if len(steps) > 1:
            parts.append(f"{WALK} " + ", ".join(_said(s, names).partition(" ")[2] for s in steps))
            verb, k = WALK, k + len(steps)
            continue
        text = _said(events[k], names)
        word, _, args = text.partition(" ")
        parts.append(args if word == verb and args and not _is_verb(args) else text)
        verb, k = word, k + 1
    return f"{events[0].actor}: " + SEPARATOR.join(parts)


def _said(event: GameEvent, names: Names | None) -> str:
    """An entry's notation without its actor (``step Celas``)."""
    return render(event, names).split(":", 1)[1].strip()


def _steps_from(events: Sequence[GameEvent], k: int) -> list[ev.PilgrimStepped]:
    steps: list[ev.PilgrimStepped] = []
    for event in events[k:]:
        if not isinstance(event, ev.PilgrimStepped):
            break
        steps.append(event)
    return steps


def split(text: str) -> tuple[str | None, list[str]]:
    """A line's ``Name:`` (``None`` if left out) and its entries' texts, cut at each ``;`` that stands outside
    braces and double quotes (a move list's ``{[%at "…"]}`` may follow an entry). A table outcome or an entry
    about the record is one entry, whatever it holds."""
    actor, rest = _actor(text)
    first = rest.split(None, 1)[0].lower() if rest.split() else ""
    verb = BY_WORD.get(first)
    if verb is not None and (verb.random or verb.event in _HISTORY):
        return actor, [rest]
    return actor, [part.strip() for part in _cut(rest)]


def _actor(text: str) -> tuple[str | None, str]:
    name, sep, rest = text.partition(":")
    if not sep or not name.strip() or "{" in name or '"' in name:
        return None, text.strip()
    return name.strip(), rest.strip()


def _cut(text: str) -> list[str]:
    parts: list[str] = []
    depth, quoted, escaped, start = 0, False, False, 0
    for k, ch in enumerate(text):
        if quoted:
            escaped, quoted = (not escaped and ch == "\\"), quoted and (escaped or ch != '"')
        elif ch == '"':
            quoted = True
        elif ch in "{[":
            depth += 1
        elif ch in "}]":
            depth -= 1
        elif ch == ";" and depth == 0:
            parts.append(text[start:k])
            start = k + 1
    parts.append(text[start:])
    return parts


def read(text: str, default_actor: str | None = None, names: Names | None = None,
         state: GameState | None = None) -> list[GameEvent]:
    """The entries a line holds, in order (``NotationError`` naming the entry that does not read).

    Without ``Name:`` they are ``default_actor``'s; ``names`` reads components by
    name, and players by name in any case (``ana:`` is Ana); ``state``, the table
    before the line, lets ``walk`` name only where it goes.
    """
    return [_seated(event, names) for event in _read(text, default_actor, names, state)]


def _read(text: str, default_actor: str | None, names: Names | None, state: GameState | None) -> list[GameEvent]:
    actor, parts = split(text)
    if len(parts) == 1 and not _is_walk(parts[0]):
        tracked = _own_track(parts[0], names) if [w.lower() for w in parts[0].split()[:1]] == [_INCOME] else parts[0]
        return [parse(text if tracked == parts[0] else f"{actor or ''}: {tracked}".lstrip(": "), default_actor, names)]
    who = actor if actor is not None else default_actor
    out: list[GameEvent] = []
    verb = ""
    for n, part in enumerate(parts, 1):
        try:
            verb, events = _entry(part, verb, who, names, state, out)
        except NotationError as exc:
            raise NotationError(f"entry {n} of the line ({part!r}): {exc}") from None
        out.extend(events)
    return out


def _seated(event: GameEvent, names: Names | None) -> GameEvent:
    """The event with its actor as the player is named (``ana`` is Ana); an actor who is no player is left for the
    rules to refuse."""
    if names is None or event.actor == TABLE:
        return event
    try:
        player = names.resolve("players", event.actor)
    except UnknownName:
        return event
    return replace(event, actor=player) if player != event.actor else event


def needs_table(text: str) -> bool:
    """Whether a line holds a walk that may name one space only (no commas: ``walk Santa Clara``): read with the
    table, it may take several steps."""
    return any(_is_walk(part) and len(part.split()) > 1 and "," not in part for part in split(text)[1])


def _is_walk(part: str) -> bool:
    return part.split(None, 1)[0].lower() == WALK if part.split() else False


def _is_verb(args: str) -> bool:
    """Whether an entry's arguments begin with a word that is a verb (a card called Pilgrim): its verb is then
    written, so that the entry does not read as that verb."""
    first = args.split(None, 1)[0].lower()
    return first in BY_WORD or first == WALK


def _entry(part: str, verb: str, actor: str | None, names: Names | None, state: GameState | None,
           before: Sequence[GameEvent]) -> tuple[str, list[GameEvent]]:
    """One entry of a line: its verb (for the next entry to repeat) and its events."""
    own, bare = _actor(part)
    if own is not None and actor is not None and own.lower() != actor.lower():
        raise NotationError(f"one line is one player's turn: '{own}:' after '{actor}:'; begin a new line")
    words = bare.split(None, 1)
    if not words:
        raise NotationError("nothing between two ';'")
    word = words[0].lower()
    if word == WALK:
        return WALK, _walk(words[1] if len(words) > 1 else "", actor, names, state, before)
    if word not in BY_WORD:
        if not verb or verb == WALK:
            raise NotationError(f"unknown verb {words[0]!r}{did_you_mean(word, BY_WORD)}; an entry may leave out "
                                "its verb only after one that has it")
        bare, word = f"{verb} {bare}", verb
        if did_you_mean(words[0], BY_WORD):  # a mistyped verb, not the arguments of the one before
            try:
                return word, [_decision(bare, word, actor, names)]
            except NotationError:
                parse(words[0], actor)  # says: unknown verb, did you mean
    return word, [_decision(bare, word, actor, names)]


def _decision(bare: str, word: str, actor: str | None, names: Names | None) -> GameEvent:
    event = parse(_own_track(bare, names) if word == _INCOME else bare, actor, names)
    if not shares_a_line(event):
        raise NotationError(f"'{word}' goes on a line of its own")
    return event


def _own_track(text: str, names: Names | None) -> str:
    """``income gray-1`` is ``income gray-1 gray``: a coloured die pays on its own track (the catalog says its
    colour); the white die and the extra die name their track."""
    words = text.split()
    colour = names.catalog.die_colors.get(words[1]) if names is not None and len(words) == 2 else None
    return f"{text} {colour}" if colour is not None and colour in TRACKS else text


def _walk(text: str, actor: str | None, names: Names | None, state: GameState | None,
          before: Sequence[GameEvent]) -> list[GameEvent]:
    spaces = _spaces(text, names)
    if not spaces or not all(spaces):
        raise NotationError("expected 'walk SPACE, SPACE, …' (the spaces stepped to, in order)")
    steps = [parse(f"step {space}", actor, names) for space in spaces]
    if state is not None and len(steps) == 1 and isinstance(steps[0], ev.PilgrimStepped):
        return list(route(state, steps[0], before))
    return steps


def _spaces(text: str, names: Names | None) -> list[str]:
    """The spaces a walk names: parted by commas, else by blanks unless the whole is one space's name
    (``walk Santa Clara``, a name holding blanks)."""
    if "," in text:
        return [s.strip() for s in text.split(",")]
    return [text.strip()] if len(text.split()) > 1 and _names_a_space(text, names) else text.split()


def _names_a_space(text: str, names: Names | None) -> bool:
    try:
        return names is not None and bool(names.resolve("spaces", text))
    except UnknownName:
        return False


class TableAsRead:
    """The table as a record's lines are read, for the lines that need it (a walk naming only where it goes): folded
    when asked, from where it was last; ``None`` once an entry does not fold (about the record, or illegal: the
    rules say why when the whole record is checked)."""

    def __init__(self, catalog: Catalog, players: Sequence[tuple[str, str]]) -> None:
        self.catalog, self.players = catalog, tuple(players)
        self._state: GameState | None = None
        self._folded = 0
        self._fold = Fold()
        self._broken = False

    def after(self, events: Sequence[GameEvent]) -> GameState | None:
        """The table after ``events`` (the same record, longer each time it is asked)."""
        if self._broken:
            return None
        try:
            state = self._state if self._state is not None else core.start(self.catalog, self.players)
            for event in events[self._folded:]:
                state = core.apply(state, event, self._fold)
        except (RuleViolation, ValueError):
            self._broken = True
            return None
        self._state, self._folded = state, len(events)
        return state


def route(state: GameState, step: ev.PilgrimStepped, before: Sequence[GameEvent] = ()) -> list[ev.PilgrimStepped]:
    """The steps of a walk to ``step.to`` from where the pilgrim stands (after ``before``): the shortest route;
    ``NotationError`` if two shortest routes pass different monasteries (the walk must then name its steps)."""
    here = _pilgrim_at(state, step.actor, before)
    neighbours = state.catalog.map.neighbours
    if here is None or step.to in neighbours.get(here, ()) or step.to not in neighbours:
        return [step]
    routes = _shortest(neighbours, here, step.to)
    if not routes:
        return [step]
    monastery = {s for spaces in state.catalog.map.monastery_spaces.values() for s in spaces}
    passed = {tuple(s for s in r if s in monastery) for r in routes}
    if len(passed) > 1:
        said = space_entries(state.catalog, dict(state.monasteries))
        name = Kind("spaces", said).name
        shown = " or ".join(f"'{WALK} {', '.join(map(name, r))}'" for r in routes[:2])
        raise NotationError(f"two routes to {name(step.to)} pass different monasteries: write {shown}")
    return [ev.PilgrimStepped(step.actor, space) for space in routes[0]]


def _pilgrim_at(state: GameState, actor: str, before: Sequence[GameEvent]) -> str | None:
    here: str | None = next((p.pilgrim for p in state.players if p.name == actor), None)
    for event in before:
        if isinstance(event, ev.PilgrimStepped) and event.actor == actor:
            here = event.to
    return here


def _shortest(neighbours: dict[str, tuple[str, ...]], start: str, goal: str) -> list[tuple[str, ...]]:
    """Every shortest route from ``start`` to ``goal`` (the spaces entered, in order), in the map's order."""
    paths: list[tuple[str, ...]] = [()]
    seen = {start}
    while paths:
        found = [p for p in paths if p and p[-1] == goal]
        if found:
            return found
        step: list[tuple[str, ...]] = []
        reached: set[str] = set()
        for path in paths:
            for nxt in neighbours.get(path[-1] if path else start, ()):
                if nxt not in seen:
                    step.append((*path, nxt))
                    reached.add(nxt)
        seen |= reached
        paths = step
    return []


__all__ = ["SEPARATOR", "WALK", "TableAsRead", "groups", "needs_table", "read", "render_line", "route", "shares_a_line", "split"]
