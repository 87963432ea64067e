"""The pure half of ``coimbra record``: what a typed line means, and what to tell the table.

At a physical table the recorder must read whatever is quickest to type (an
option's number, the start of an option, a whole notation line, the dice in
pool order) and tell the players in words what is due and what the tool drew.
Those are plain functions of the game state and the text, kept here so they are
tested without a terminal or a store, and so any front-end reads a line as the
terminal does; the terminal's own commands (undo, correct, help, ...) are
``cli.record_words``, its texts, completions and toolbar ``cli.record_texts`` and
``cli.record_completion``, and ``cli/record_command.py`` only reads lines, stores and prints.
Legality is never decided here: the options come from ``rules.core.legal``, and every event this module builds is checked by the rules
core when it is stored (``Game.record``), which also makes the table outcome
plausibility checks (``rules.outcomes``) the only ones there are.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Mapping, Sequence

from coimbra_events.catalog.effect_kinds import TRACKS
from coimbra_events.events import (
    CharacterRowsDealt,
    DiceRolled,
    GameEvent,
    MonasteriesDrawn,
    ScoringTilesPlaced,
    SeatingDrawn,
    StartGroupsDealt,
    VoyagesDrawn,
)
from coimbra_events.lines import WALK, split
from coimbra_events.names import Names, fold
from coimbra_events.notation import BY_WORD, VERB_LIST, NotationError, did_you_mean, parse, render
from coimbra_events.state import CITIES, SETUP, TABLE, GameState, Pending
from projections.naming import named, said
from projections.options import Option, options

SETUP_KINDS = ("monasteries", "scoring-tiles", "voyages", "seating", "rows", "start-groups")
"""The table's setup outcomes in the order the rules ask for them (for "setup 2 of 6")."""

KIND_WORDS: Mapping[str, str] = {
    "start-choice": "take a start group or place your pilgrim",
    "track-choice": "choose the track this reward goes to",
    "steps": "move your pilgrim one step, or stop",
    "draft": "take a die from the dice area and place it in a location",
    "retrieve": "take back your die: a favor tile (castle), a card (city), or the alternative",
    "income": "collect income with a die, exchange, or end",
    "voyage": "invest in a voyage, or pass",
    "monasteries": "draw the monastery tiles onto the map",
    "scoring-tiles": "lay a scoring tile above each influence track",
    "voyages": "draw the voyage cards onto the voyage spaces",
    "seating": "draw the player order (lion flags)",
    "rows": "deal the character cards beside the three cities",
    "start-groups": "deal the groups of start cards",
    "dice": "roll the dice",
}
"""What each kind of pending input asks of the table, in words."""



# --- what a typed line means -----------------------------------------------------------------


@dataclass(frozen=True)
class Choice:
    """A game event to record; ``how`` says how it was read (number, exact, prefix, notation, dice)."""

    event: GameEvent
    how: str


@dataclass(frozen=True)
class Ambiguous:
    """Several legal options start with what was typed: they are listed, nothing is taken."""

    typed: str
    matches: tuple[tuple[int, str], ...]


@dataclass(frozen=True)
class Unreadable:
    """A line that is no readable input (nor a front-end's command); the message says what was expected."""

    message: str


@dataclass(frozen=True)
class Turn:
    """Several entries of one player's turn on one line (``coimbra_events.lines``), recorded all or none by the
    table's use case, which reads them on the table as it is when they are stored."""

    text: str


Reading = Choice | Ambiguous | Unreadable | Turn


class Numbers:
    """Option numbers that last while a player's turn does (the same player due in the same round and phase).

    A number typed means the option it was shown with: the options still legal keep their numbers after each
    entry (``income`` 3 is still 3 once 1 is collected), a new option takes the next number free, and a new
    kind of input within the turn (pilgrim steps between two incomes) is numbered on its own and the turn's
    numbers come back after it.
    """

    def __init__(self) -> None:
        self.turn: tuple[str, int, str] | None = None
        self.kinds: dict[str, dict[str, int]] = {}

    def of(self, state: GameState, listed: Sequence[Option]) -> list[int]:
        """The number of each of ``listed``, the options now."""
        due = state.pending
        turn = (due.actor, state.round, state.phase) if due is not None else ("", state.round, state.phase)
        if turn != self.turn:
            self.turn, self.kinds = turn, {}
        known = self.kinds.setdefault(due.kind if due is not None else "", {})
        for option in listed:
            if option.notation not in known:
                known[option.notation] = max(known.values(), default=0) + 1
        return [known[o.notation] for o in listed]


def read_line(line: str, state: GameState, numbers: Numbers | None = None, commands: Sequence[str] = ()) -> Reading:
    """What a line of input asks for, given the table now (and the numbers the options were shown with; without
    them, 1 to N in the order listed). ``commands``: the words the front-end reads itself before the line comes
    here (``cli.record_words``), offered when the line's verb is unknown."""
    text = " ".join(line.split())
    due = state.pending
    if due is None:
        return Unreadable("the game is over: nothing more can be entered")
    if not text:
        return Unreadable("type a number or a decision")
    if due.actor == TABLE:
        return _outcome(text, state, due, commands)
    return _decision(text, state, due, numbers, commands)


def names_of(state: GameState) -> Names:
    """The names a line may use at this table: the catalog's components, the map's spaces (a monastery space
    by its monastery) and the players."""
    return Names(state.catalog, [p.name for p in state.players], dict(state.monasteries))


def _outcome(text: str, state: GameState, due: Pending, commands: Sequence[str]) -> Reading:
    words = text.split()
    if due.kind == "dice" and all(w.isdigit() for w in words):
        return dice_form(words, state)
    try:
        return Choice(parse(text, TABLE, names_of(state)), "notation")
    except NotationError as exc:
        return Unreadable(_unreadable(exc, commands))


def dice_form(values: Sequence[str], state: GameState) -> Reading:
    """``3 5 1 …``: one value per die of the pool, in the order a roll is written (``pool_order``).

    Only the count is checked here (values cannot be matched to dice
    otherwise); whether the values can be rolled is the rules core's call.
    """
    pool = pool_order(state)
    if len(values) != len(pool):
        return Unreadable(f"the dice form takes one value per die, {len(pool)} for {len(state.players)} players "
                          f"({' '.join(pool)}); got {len(values)}. Or write 'roll DIE=VALUE ...'")
    return Choice(DiceRolled(TABLE, tuple(sorted(zip(pool, (int(v) for v in values))))), "dice")


def pool_order(state: GameState) -> tuple[str, ...]:
    """The dice of this player count in the order a roll is written everywhere (``roll gray-1=… gray-2=…``, by id):
    the order the dice form is typed in, so the dice are typed in the order they are listed."""
    return tuple(sorted(state.catalog.dice_for(len(state.players))))


def _decision(text: str, state: GameState, due: Pending, numbers: Numbers | None, commands: Sequence[str]) -> Reading:
    """A number, an option (as listed, with names or ids), a notation line, the start of an option, or a line of
    several entries."""
    if is_turn(text):
        return Turn(text)
    listed = options(state)
    shown = numbers.of(state, listed) if numbers is not None else list(range(1, len(listed) + 1))
    if text.isdigit():
        k = int(text)
        if k in shown:
            return Choice(listed[shown.index(k)].event, "number")
        return Unreadable(f"there is no option {k}: choose {_choices(shown)} ('legal' lists them)")
    typed = fold(_bare(text, due.actor))
    exact = [o for o in listed if typed in (fold(o.text), fold(o.notation))]
    if exact:
        return Choice(exact[0].event, "exact")
    event: GameEvent | None = None
    problem = NotationError("")
    try:
        event = parse(text, due.actor, names_of(state))
    except NotationError as exc:
        problem = exc
    if event is not None and any(o.event == event for o in listed):
        return Choice(event, "notation")  # ``alt 2c`` is ``alt 2c 0g``, even though ``alt 2c 1g`` starts so too
    starting = tuple((k, o.text) for k, o in zip(shown, listed)
                     if fold(o.text).startswith(typed) or fold(o.notation).startswith(typed))
    if len(starting) == 1:
        return Choice(listed[shown.index(starting[0][0])].event, "prefix")
    if starting:
        return Ambiguous(text, starting)
    if event is not None:
        return Choice(event, "notation")
    return Unreadable(_unreadable(problem, commands))


def _choices(shown: Sequence[int]) -> str:
    """``1 to 28``, or the numbers one by one when some were taken in this turn (``3, 4``)."""
    if list(shown) == list(range(1, len(shown) + 1)):
        return f"1 to {len(shown)}"
    return ", ".join(str(k) for k in sorted(shown))


def is_turn(text: str) -> bool:
    """Whether a typed line holds several entries (``a; b``) or a walk: read by ``lines.read`` where it is stored."""
    _, parts = split(text)
    return len(parts) > 1 or parts[0].split(None, 1)[0].lower() == WALK if parts and parts[0].split() else False


def _unreadable(exc: NotationError, commands: Sequence[str]) -> str:
    """A notation error as the recorder says it: a mistyped verb may be one of the front-end's commands too."""
    message = str(exc)
    if not message.startswith("unknown verb"):
        return message
    typed = message.split("'")[1] if "'" in message else ""
    near = did_you_mean(typed, [*BY_WORD, *commands])
    if not commands:
        return f"unknown verb '{typed}'{near}: type an option's number or its start, or a decision in notation ({VERB_LIST})"
    return (f"unknown verb '{typed}'{near}: type an option's number or its start, a decision in notation "
            f"({VERB_LIST}), or a command: {', '.join(commands)} ('help' says what each does)")


def _bare(text: str, actor: str) -> str:
    """The line without its ``Name:`` when the name is the player due (options are listed without it)."""
    name, sep, rest = text.partition(":")
    return " ".join(rest.split()) if sep and name.strip().lower() == actor.lower() else text


# --- what is due, and what was stored, in words ------------------------------------------------


def entry_echo(event: GameEvent, state: GameState) -> str:
    """A stored entry as the recorder says it: names beside ids, and rolled dice in the order typed (``pool_order``)."""
    if isinstance(event, DiceRolled):
        values = dict(event.values)
        return "table: roll " + " ".join(f"{d}={values[d]}" for d in pool_order(state) if d in values)
    return said(state.catalog, event, monasteries=dict(state.monasteries))


def step_header(state: GameState) -> str:
    """What kind of input is due, in words, with the setup step when the table is setting up."""
    due = state.pending
    if due is None:
        return "the game is over"
    words = KIND_WORDS.get(due.kind, due.kind)
    if state.phase == SETUP and due.kind in SETUP_KINDS:
        words = f"setup {SETUP_KINDS.index(due.kind) + 1} of {len(SETUP_KINDS)}: {words}"
    return words


# --- telling the table what was drawn --------------------------------------------------------


def outcome_words(event: GameEvent, state: GameState) -> list[str]:
    """What the players lay out for an outcome the tool drew, in words, catalog names beside ids."""
    catalog = state.catalog
    if isinstance(event, MonasteriesDrawn):
        placed = dict(event.placement)
        return ["Monastery tiles on the map:"] + [
            f"  pile {pile}: " + ", ".join(f"{s} {named(catalog, placed[s])}" for s in spaces)
            for pile, spaces in catalog.map.monastery_spaces.items()
        ]
    if isinstance(event, ScoringTilesPlaced):
        tiles = dict(event.tiles)
        return ["Scoring tiles above the influence tracks: "
                + ", ".join(f"{t} track {named(catalog, tiles[t])}" for t in TRACKS)]
    if isinstance(event, VoyagesDrawn):
        return ["Voyage cards on the voyage spaces, left to right: " + ", ".join(
            f"space {k} ({s.cost} {s.resource}) {named(catalog, v)}"
            for k, (v, s) in enumerate(zip(event.voyages, catalog.voyage_spaces), 1))]
    if isinstance(event, SeatingDrawn):
        return ["Seating (player order): " + ", ".join(f"lion flag {k} {name}" for k, name in enumerate(event.order, 1))]
    if isinstance(event, CharacterRowsDealt):
        rows = dict(event.rows)
        return ["Character cards beside the cities, left to right:"] + [
            f"  {city}: " + ", ".join(named(catalog, c) for c in rows[city]) for city in CITIES
        ]
    if isinstance(event, StartGroupsDealt):
        return ["Start groups: " + "; ".join(
            f"group {k} " + " + ".join(named(catalog, c) for c in group)
            for k, group in enumerate(event.groups, 1))]
    if isinstance(event, DiceRolled):
        values = dict(event.values)
        return ["Dice: " + ", ".join(f"{d} shows {values[d]}" for d in pool_order(state) if d in values)]
    return [render(event)]
