"""Rule ids and the ``RuleViolation`` a refused event carries.

Every rule the core checks has a stable id here, with a one-line statement and
the place in the rule texts (``000``, ``002``, ``003``: the files in
``shared/rules``) or in ``GAPS.md`` it comes from. Ids never change meaning;
new rules get new ids. Errors, tests and the audit trail cite these ids.

A statement never quotes a component value: where it needs one it names a term of
:data:`CATALOG_TERMS` (``{cards_per_row}``), and :meth:`Rule.statement_for` fills it
in from the catalog in force, so the rules a table reads are the rules of its box.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Mapping

from coimbra_events.catalog.effect_kinds import PILES

if TYPE_CHECKING:
    from coimbra_events.catalog.model import Catalog


def _monastery_spaces(catalog: Catalog) -> str:
    by_pile = [(len(catalog.map.monastery_spaces[p]), p) for p in PILES]
    return ", ".join(f"{n} from pile {p}" for n, p in by_pile if n)


def _voyage_discount(catalog: Catalog) -> str:
    held = [(e.params["amount"], t.name) for t in catalog.favor_tiles.values() for e in t.effects if e.kind == "voyage_discount"]
    return " or ".join(f"{amount} while {name} is held" for amount, name in held) or "nothing: no favor tile gives a discount"


CATALOG_TERMS: Mapping[str, tuple[str, Callable[[Catalog], str]]] = {
    "monastery_spaces": ("as many from each pile as the map has spaces of that pile", _monastery_spaces),
    "voyage_spaces": ("N (the catalog's number of voyage spaces)", lambda c: str(len(c.voyage_spaces))),
    "cards_per_row": ("N (the catalog's cards per row)", lambda c: str(c.cards_per_row)),
    "cards_per_group": ("N (the catalog's cards per start group)", lambda c: str(c.cards_per_group)),
    "alternative_coins": ("N (the catalog's alternative action)", lambda c: str(c.alternative_coins)),
    "alternative_guards": ("N (the catalog's alternative action)", lambda c: str(c.alternative_guards)),
    "voyage_discount": ("the voyage discount of a favor tile held", _voyage_discount),
}
"""The catalog values a statement may name: ``{term}`` -> (what it reads without a
catalog, how a catalog gives it)."""

Seen = list[tuple[str, dict[str, Any]]]
"""The rules a ``check`` found holding, in order, each with the facts it checked (``check(..., seen)``)."""


@dataclass(frozen=True)
class Rule:
    """A rule the core enforces: id, statement (``text``, with ``{term}`` for catalog values) and source.

    ``consequence``: a rule the core carries out by itself (a die token's
    discard, the new player order, income): it is never broken, only narrated
    (``rules.narration``), and each change it makes on the table cites it.
    """

    id: str
    text: str
    source: str
    consequence: bool = False

    def statement_for(self, catalog: Catalog | None) -> str:
        """The statement with the values of ``catalog`` (without one: what each value is)."""
        terms = {name: (read(catalog) if catalog is not None else unknown) for name, (unknown, read) in CATALOG_TERMS.items()}
        return self.text.format_map(terms)


RULES: Mapping[str, Rule] = {
    r.id: r
    for r in (
        Rule("TURN.actor", "Only the player (or the table) whose input is due may act now.", "002 A round; 000 Game Turn"),
        Rule("TURN.kind", "Only the kind of input the game is waiting for is accepted now.", "002 A round; 000 Game Turn"),
        Rule("GAME.over", "After phase F of the round in which the character deck runs out, the game is over.", "003 End of the round; GAPS 17"),
        Rule("SETUP.monasteries", "Monasteries go face up on the pilgrimage map, one on each space of their pile ({monastery_spaces}); each tile once.", "000 Setup 2"),
        Rule("SETUP.scoring-tiles", "One influence scoring tile lies above each of the 4 influence tracks.", "000 Setup 3"),
        Rule("SETUP.voyages", "{voyage_spaces} different voyage cards are drawn, one per voyage space.", "000 Setup 5"),
        Rule("SETUP.seating", "The player order is a random order of all the players, each once.", "000 Setup 8"),
        Rule("SETUP.rows", "Each city row gets {cards_per_row} cards from the top pile of the character deck (pile II, then pile III), each card once.", "000 Setup 9, 11; 003 End of the round"),
        Rule("SETUP.start-groups", "One group of {cards_per_group} start cards (pile I) per player, each card once.", "000 Setup 13"),
        Rule("A.dice", "The first player rolls every die of the pool once; each shows a value from 1 to 6.", "000 Phase A; 000 Setup 6; 002 Phase A"),
        Rule("START.group", "A start group still on the table must be chosen.", "000 start choices; 002 Choosing start conditions"),
        Rule("START.space", "The pilgrim goes on a free start space in the centre of the map.", "000 start choices; 002 Choosing start conditions"),
        Rule("START.once", "Each player takes each start action once: one in reverse player order, the other in player order.", "000 start choices; 002 Choosing start conditions"),
        Rule("CHOICE.track", "A reward on a track of your choice goes to one of the four influence tracks.", "003 Phase E bonuses; GAPS effect vocabulary"),
        Rule("PILGRIM.adjacent", "One step moves the pilgrim to an adjacent space of the pilgrimage map.", "GAPS 7"),
        Rule("B.die", "The die must be taken from this round's dice area.", "000 Phase B; 002 Phase B"),
        Rule("B.location", "A die goes to the castle or to the upper, central or lower city.", "000 Phase B; 002 Phase B"),
        Rule("C.location", "In the castle a die takes a favor tile; in a city it buys a card from the row beside that city.", "000 Phase C"),
        Rule("C.tile", "Only a favor tile still beside the castle can be taken.", "000 Phase C"),
        Rule("C.card", "Only a card still in the row beside the die's city can be bought.", "000 Phase C"),
        Rule("C.cost", "A card costs the die's value in the resource on the card; you can never spend what you do not have.", "000 Phase C; 003 Limits"),
        Rule("C.alternative", "The alternative action gains up to {alternative_coins} coins and up to {alternative_guards} guards.", "000 Phase C Alternative Action"),
        Rule("E.die", "Each die on your shutter spaces (and the extra-die tile, if you hold it) collects income once.", "003 Phase E; GAPS 4"),
        Rule("E.track", "A die pays the income of the track of its own colour; the white die and the extra-die tile pay a track of your choice.", "003 Phase E; GAPS 4"),
        Rule("E.exchange", "Exchanging needs a card that allows it and enough coins or guards to pay.", "003 Phase E bonuses"),
        Rule("F.voyage", "Investment goes into one of the voyage cards on the board.", "003 Phase F"),
        Rule("F.once", "A player invests in each voyage at most once.", "003 Phase F; GAPS 9"),
        Rule("HISTORY.target", "A correction, retraction, note or bookmark names an earlier game event that is still in the line of play.", "project: nothing recorded is lost (README)"),
        Rule("HISTORY.pair", "A correction or a table-accepted rule break is followed by the game event it introduces.", "project: nothing recorded is lost (README)"),
        Rule("HISTORY.override", "A table-accepted rule break names the rule the event breaks, and the event must still be playable on the table.", "project: nothing recorded is lost (README)"),
        Rule("F.cost", "A voyage costs the amount of its space (less {voyage_discount}) in the space's resource; you can never spend what you do not have.", "003 Phase F; 003 Limits"),
        # What follows from an input by itself: the consequences the rules narrate (projections.consequences).
        Rule("START.cards", "Once every start choice is made, each player in player order uses their start cards one at a time: the disc moves up the card's track by its influence value, and an immediate bonus is gained once.", "000 start choices; 002 Choosing start conditions", True),
        Rule("ROUND.phases", "A round runs through its phases A to F in order; a phase no one acts in (D) passes by itself.", "002 A round; 000 Game Turn", True),
        Rule("ROUND.crown-tokens", "With new character rows, the crown tokens go out again: scanning the columns from the right, each from top to bottom, the first card of each category gets that category's token; a category with no card leaves its token unused.", "000 Setup 12; 003 End of the round; GAPS 14", True),
        Rule("ROUND.end", "After phase F the favor tiles go back beside the castle and the crown tokens back to their stock; then a new round begins, or the game ends if the character deck cannot fill the rows again.", "003 End of the round; GAPS 3, 17", True),
        Rule("B.position", "In the castle a die goes right of every die of lower or equal value; in a city, right of every die (or die token) of higher or equal value.", "000 Phase B; 002 Phase B", True),
        Rule("C.retrieve", "After its action, an activated die goes back to its owner's shutter spaces, and the next die to the right is activated.", "000 Phase C", True),
        Rule("C.influence", "A card bought advances its buyer's disc on the track of the card's category by the card's influence value (never above the top of the track).", "000 Phase C; 003 Limits", True),
        Rule("C.card-bonus", "A card bought with an immediate bonus gives that bonus once, at once.", "000 Phase C", True),
        Rule("C.start-bonus", "When its owner acquires a card that meets its condition, a start card's phase C bonus is gained once for that card.", "000 Phase C; GAPS 12", True),
        Rule("C.crown-token", "A crown token on a card bought goes to the buyer and counts its crowns in phase D.", "000 Phase C", True),
        Rule("C.tile-bonus", "A favor tile's immediate bonus is gained when the tile is taken.", "000 Phase C; GAPS 3", True),
        Rule("C.token-discard", "A die token whose turn comes discards the card of highest influence beside its city (the leftmost of those tied) and is flipped face down.", "000 Phase C Important", True),
        Rule("C.location-end", "When every die of a location has been activated, the cards left beside it go to the discard pile and its die tokens are flipped face up again.", "000 Phase C", True),
        Rule("D.order", "Phase D: the player with the most crowns (this round's crown tokens and favor tiles, plus the crowns beside the flag of their lion) moves to flag 1, the next to flag 2, and so on; players tied are put in the reverse of their current order.", "000 Phase D; GAPS 2", True),
        Rule("E.income", "A die activated in phase E pays what the catalog's income table gives for its track at the owner's disc position (the top tier adds victory points); amounts above a limit are lost.", "003 Phase E; 003 Limits; GAPS 5, 16", True),
        Rule("E.start-bonus", "At the beginning of a player's phase E, the 'beginning of phase E' bonuses of the cards in their phase E zone happen.", "003 Phase E bonuses; GAPS 15", True),
        Rule("E.per-die", "For each die of a card's colour activated in phase E (never the white die or the extra-die tile), the card's per-die bonus is gained.", "003 Phase E bonuses; GAPS 4", True),
        Rule("E.end", "When every player has collected their income, the dice go back to the dice area for the next round.", "003 The white die; 000 Phase E", True),
        Rule("MONASTERY.reward", "A pilgrim entering a monastery space its player has not marked yet marks the monastery with one of the player's discs and gives its reward on first visit.", "GAPS 7, 8", True),
        Rule("END.influence-tiles", "At the end of the game each influence scoring tile gives victory points by rank on its track; on one space the disc that arrived first is ahead, and a disc on the first space scores nothing.", "000 Setup 3; 003 Limits; GAPS 6", True),
        Rule("END.cards", "At the end of the game each card with an end-game bonus scores what it says.", "000 Phase C; GAPS 10", True),
        Rule("END.monasteries", "At the end of the game each monastery marked whose reward is an end-game condition scores it.", "GAPS 8, 10", True),
        Rule("END.voyages", "At the end of the game each voyage a player invested in scores its task for that player.", "003 Phase F; GAPS 9, 10", True),
        Rule("END.leftover", "At the end of the game leftover coins and guards score at the catalog's rates (none, if it sets none).", "GAPS 10", True),
        Rule("END.places", "The most victory points wins; players tied are parted by the catalog's tie break, and still tied they share the place.", "000 Game Objective; GAPS 11", True),
        Rule("HISTORY.correction", "A correction puts the table as the corrected line of play has it: the moves that undo what the replaced entry did and do what its replacement does.", "project: nothing recorded is lost (README)", True),
        Rule("HISTORY.undo", "A retraction puts the table back as it was before the play it withdraws.", "project: nothing recorded is lost (README)", True),
    )
}


def held(seen: Seen | None, rule: str, facts: dict[str, Any]) -> None:
    """Note that ``rule`` held, with the facts it checked: the dict its violation would carry.

    Checkers call it only when asked to explain (``seen`` given), so a plain
    ``check`` builds no facts for rules that hold.
    """
    if seen is not None:
        seen.append((rule, facts))


class RuleViolation(Exception):
    """An event the rules refuse: which rule, why in plain English, and the facts checked.

    A plain exception (not a frozen dataclass): Python sets attributes such as
    ``__traceback__`` on exceptions as they travel, and they must pickle.
    """

    def __init__(self, rule: str, reason: str, facts: Mapping[str, Any] | None = None) -> None:
        if rule not in RULES:
            raise ValueError(f"unknown rule id {rule!r}")
        super().__init__(rule, reason, dict(facts or {}))
        self.rule = rule
        self.reason = reason
        self.facts: Mapping[str, Any] = dict(facts or {})

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, RuleViolation):
            return NotImplemented
        return (self.rule, self.reason, self.facts) == (other.rule, other.reason, other.facts)

    def __hash__(self) -> int:
        return hash((self.rule, self.reason))

    def __repr__(self) -> str:
        return f"RuleViolation({self.rule!r}, {self.reason!r}, {dict(self.facts)!r})"

    def __str__(self) -> str:
        return f"[{self.rule}] {self.reason}"

    def to_json(self, catalog: Catalog | None = None) -> dict[str, Any]:
        """The violation as plain JSON values; the rule's statement with ``catalog``'s values."""
        return {
            "rule": self.rule,
            "message": self.reason,
            "rule_text": RULES[self.rule].statement_for(catalog),
            "source": RULES[self.rule].source,
            "facts": {k: (list(v) if isinstance(v, (tuple, frozenset, set)) else v) for k, v in self.facts.items()},
        }
