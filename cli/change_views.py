"""What the table must do, as text: a list of changes grouped by who makes them, each with its rule.

Every command that says what happened on the table (``record`` and ``act`` after
each input, ``explain --seq``, ``diff --table``, the replayer) shows a change
list through this module, in one style. The functions take changes in their JSON
form (``Change.to_json()``), so a view can be drawn from a command's ``--json``
output as well; ``change_lines`` gives plain lines (for the recorder's prompt
and a Textual pane), ``changes_view`` a Rich renderable.
"""

from __future__ import annotations

from typing import Any, Callable, Iterable, Mapping, Sequence

from rich.console import Console, ConsoleOptions, Group, RenderableType, RenderResult
from rich.markup import escape
from rich.table import Table
from rich.text import Text

from cli.views import score_table
from coimbra_events.catalog import Catalog
from coimbra_events.game import Game
from coimbra_events.state import GameState
from projections.changes import Change, tier_words
from projections.consequences import entries_since
from projections.naming import named_text
from projections.scores import score_report
from projections.words import NOTHING, quiet_words

ChangeJson = Mapping[str, Any]


def as_json(changes: Iterable[Change | ChangeJson]) -> list[ChangeJson]:
    """Changes in their JSON form, whichever form they came in."""
    return [c.to_json() if isinstance(c, Change) else c for c in changes]


def _names(items: Any) -> str:
    return ", ".join(str(i) for i in items)


def _pays(facts: ChangeJson) -> str:
    bonus = f" and {facts['bonus_points']} points" if facts["bonus_points"] else ""
    return f"{facts['pays']} {facts['resource']}{bonus}"


def _order(facts: ChangeJson) -> str:
    crowns = ", ".join(f"{name} {c['total']}" for name, c in dict(facts["crowns"]).items())
    tied = "; ".join(f"{_names(t)} tied, order reversed" for t in facts["ties_reversed"])
    return f"crowns {crowns}" + (f"; {tied}" if tied else "")


def _token(facts: ChangeJson) -> str:
    if facts.get("discarded") is None:
        return f"die token {facts['token']}: no card left beside the {facts['city']} city"
    tie = f", the leftmost of {len(facts['tied'])} tied: {_names(facts['tied'])}" if facts["leftmost_of_tie"] else ""
    return f"die token {facts['token']}: highest influence {facts['highest']}{tie}"


def _location(location: str) -> str:
    return location if location == "castle" else f"{location} city"


def _cost(facts: ChangeJson) -> str:
    less = "".join(f" less {d} ({t})" for t, d in dict(facts["discounts"]).items())
    return f"voyage space {facts['space']} costs {facts['space_cost']}{less}"


def _plural(n: Any, word: str, words: str = "") -> str:
    return f"{n} {word}" if n == 1 else f"{n} {words or word + 's'}"


def _one_count(c: ChangeJson) -> str:
    """One scoring effect's count: ``2 gray cards (c-II-02, c-II-05) × 3``."""
    per, each = c["per"], c.get("points_each")
    if per == "fixed":
        return f"{c['points']} points"
    if per == "influence":
        return f"space {c['space']} on the {c['track']} track: {c['count']} × {c['spaces_each']} spaces × {each}"
    if per == "symbol set":
        return f"{_plural(c['count'], 'set')} of {' '.join(c['symbols'])} × {each}"
    if per == "crown":
        items = f": {', '.join(c['counted'])}" if c.get("counted") else ""
        return f"{_plural(c['count'], 'crown')} taken over the game (favor tiles and crown tokens{items}) × {each}"
    what = f"{c['category']} card" if per == "card" and c["category"] != "any" else per
    listed = f": {_names(c['counted'])}" if c.get("counted") else ""
    return f"{_plural(c['count'], what, 'monasteries' if per == 'monastery' else '')} × {each}{listed}"


def _counted(facts: ChangeJson) -> str:
    """What an end-game card, monastery or voyage counted, effect by effect."""
    counted = facts.get("counted") or ()
    return ("; " + "; ".join(_one_count(c) for c in counted)) if counted else ""


_BECAUSE: dict[str, Callable[[ChangeJson], str]] = {
    "C.token-discard": _token,
    "B.position": lambda f: f"value {f['value']}; the row was {' '.join(str(v) for v in f['row']) or 'empty'}",
    "C.location-end": lambda f: f"every die of the {_location(f['location'])} activated",
    "D.order": _order,
    "E.income": lambda f: f"disc on space {f['disc_on']} of the {f['track']} track, tier {tier_words(f['tier'])}: {_pays(f)}",
    "E.per-die": lambda f: f"{f['card']}: per {f['color']} die",
    "E.start-bonus": lambda f: f"{f['card']}: beginning of phase E",
    "C.cost": lambda f: f"{f['card']} costs die {f['die']}'s {f['price']} {f['resource']}",
    "F.cost": _cost,
    "C.start-bonus": lambda f: f"start card {f['start_card']}: phase C bonus for {f['card']}",
    "C.card-bonus": lambda f: f"{f['card']}: immediate bonus",
    "C.influence": lambda f: f"{f['card']}: influence {f['influence']}",
    "C.tile-bonus": lambda f: f"{f['tile']}: bonus",
    "START.cards": lambda f: f"start card {f['card']}",
    "MONASTERY.reward": lambda f: f"first visit to {f['monastery']}",
    "ROUND.crown-tokens": lambda f: f"first {f['category']} card, column {f['column']}",
    "ROUND.end": lambda f: f"end of round {f['round']}" if "round" in f else "",
    "END.influence-tiles": lambda f: f"rank {f['rank']} on the {f['track']} track ({f['tile']})",
    "END.cards": lambda f: f"end-game bonus of {f['card']}{_counted(f)}",
    "END.monasteries": lambda f: f"{f['monastery']}{_counted(f)}",
    "END.voyages": lambda f: f"task of {f['voyage']}{_counted(f)}",
    "END.places": lambda f: f"{f['total']} points" + (f", shared with {_names(f['shared_with'])}" if f["shared_with"] else ""),
    "HISTORY.correction": lambda f: f"correction of entry {f['corrects']} (entry {f['correction']})",
    "HISTORY.undo": lambda f: f"entry {f['withdrew']} withdrawn",
}
"""Why, in a few words, from a change's facts: for the rules a table most often asks about."""


def because(change: ChangeJson, catalog: Catalog | None = None) -> str:
    """The change's rule with the facts that decided it, in a few words: ``E.income: disc on space 5 …``.

    The facts name components by catalog id; with the ``catalog``, the words name them as printed
    (``Crossbowman (c-II-02)``).
    """
    rule = change["rule"]
    if rule is None:
        return ""
    why = _BECAUSE.get(rule)
    text = why(change["facts"]) if why is not None and change["facts"] else ""
    if text and catalog is not None:
        text = named_text(catalog, text)
    return f"{rule}: {text}" if text else rule


def change_text(change: ChangeJson) -> str:
    """One change without its player: ``coin marker 7 → 3`` or ``Crossbowman (c-II-02): central city row → discard pile``."""
    src, dst = change["from"], change["to"]
    if src is None:
        return f"{change['what']}: {dst}"
    if src == dst:  # a die rolled to the face it showed, a marker at its limit
        return f"{change['what']}: rolled {dst} again" if change["what"].startswith("die ") else f"{change['what']}: stays at {dst}"
    return f"{change['what']}: {src} → {dst}"


def change_lines(changes: Sequence[ChangeJson], limit: int | None = None, catalog: Catalog | None = None) -> list[str]:
    """The changes grouped by who makes them (in order: a new group when the player changes), one a line.

    ``limit``: at most that many changes, then a line saying how many more; ``catalog``: reasons name components.
    """
    lines: list[str] = []
    who = None
    for k, (change, reason) in enumerate(zip(changes, _reasons(changes, catalog))):
        if limit is not None and k == limit:
            lines.append(f"  … {len(changes) - limit} more")
            break
        if change["who"] != who:
            who = change["who"]
            lines.append(f"  {who}:")
        lines.append(f"    {change_text(change)}" + (f"  ({reason})" if reason else ""))
    return lines


def _reasons(changes: Sequence[ChangeJson], catalog: Catalog | None) -> list[str]:
    """Each change's reason, left out where it repeats the one before (a die token's card and its crown token)."""
    out, last = [], None
    for change in changes:
        reason = because(change, catalog)
        out.append("" if reason == last else reason)
        last = reason
    return out


class ChangeList:
    """A change list for the terminal: who in bold, each change, its rule and reason dimmed: beside it when
    there is room (``WIDE`` columns), under it in a narrow pane (the replayer's)."""

    WIDE = 100

    def __init__(self, changes: Iterable[Change | ChangeJson], limit: int | None = None, title: str | None = None,
                 catalog: Catalog | None = None, empty: str = NOTHING) -> None:
        changes = list(changes)
        self.items, self.limit, self.title, self.empty = as_json(changes), limit, title, empty
        self.catalog = catalog or next((c.catalog for c in changes if isinstance(c, Change)), None)

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        if not self.items:
            yield Text(self.empty, style="dim")
            return
        wide = options.max_width >= self.WIDE
        table = Table(show_header=False, box=None, padding=(0, 1), title=self.title, title_justify="left")
        table.add_column(style="bold", no_wrap=True)
        table.add_column(overflow="fold")
        if wide:
            table.add_column(style="dim", overflow="fold")
        who = None
        for k, (change, reason) in enumerate(zip(self.items, _reasons(self.items, self.catalog))):
            if self.limit is not None and k == self.limit:
                table.add_row("", Text(f"… {len(self.items) - self.limit} more", style="dim"), *([""] if wide else []))
                break
            shown = change["who"] if change["who"] != who else ""
            who = change["who"]
            text = Text(change_text(change))
            if wide:
                table.add_row(escape(shown), text, reason)
            else:
                table.add_row(escape(shown), text + Text(f"\n  {reason}", style="dim") if reason else text)
        yield table


def changes_view(changes: Iterable[Change | ChangeJson], limit: int | None = None, title: str | None = None,
                 catalog: Catalog | None = None, empty: str = NOTHING) -> RenderableType:
    """A change list for the terminal (``ChangeList``; changes in JSON form name components with ``catalog``;
    ``empty``: what to say when there is none, ``projections.words.quiet_words``)."""
    return ChangeList(changes, limit, title, catalog, empty)


def table_lines(game: Game, stored: int, table: GameState, quiet: bool = False) -> list[str]:
    """For the recorder, after a line was handled: what each entry stored after the first ``stored`` (whose
    table was ``table``) asks of the table, then at game over the final scores by source and the winner, as
    plain lines (``quiet``: the scores only)."""
    lines: list[str] = []
    if not quiet:
        for seq, changes in entries_since(table, game.initial, game.events, stored):
            after = game.state if seq == game.entries else None
            lines += [f"entry {seq}: {quiet_words(game.events[seq - 1], after)}"] if not changes else \
                change_lines(as_json(changes), catalog=game.catalog)
    if game.over and not table.over:
        report = score_report(game.state)
        lines += ["final scores:"] + [
            f"  {p['place']}. {p['name']}: {p['total']} ("
            + ", ".join(f"{source} {points}" for source, points in p["sources"].items() if points) + ")"
            for p in report["players"]
        ] + [winner_line(report)]
    return lines


def final_scores_view(report: Mapping[str, Any]) -> RenderableType:
    """At game over: the score pad by source, and who won."""
    return Group(score_table(dict(report)), Text(winner_line(report), style="bold"))


def winner_line(report: Mapping[str, Any]) -> str:
    """``winner: Bruno (79 points)``, or the players sharing first place."""
    first = [p for p in report["players"] if p["place"] == 1]
    names = ", ".join(f"{p['name']} ({p['total']} points)" for p in first)
    return f"winner: {names}" if len(first) == 1 else f"winners, sharing first place: {names}"


__all__ = ["ChangeList", "as_json", "because", "change_lines", "change_text", "changes_view", "final_scores_view", "table_lines",
           "winner_line"]
