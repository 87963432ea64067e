"""One entry explained, and the record's own history: why an entry stands, what it changed, what happened to the record.

``explain_entry`` answers "why was that allowed?" for one log entry: the rules
``check`` covers for its kind of event with the facts each checked, as ``check``
itself reports them (``rules_checked``), or the rule the table overrode, or why
a play was skipped; then every change it made on the table, input and derived,
each with its rule and facts (``projections.consequences``), and its resource
rows. ``game_overview`` lists what happened to the record itself (overrides,
corrections, retractions, skipped plays, notes) and each player's totals.
"""

from __future__ import annotations

from typing import Any, Iterable, Mapping

from coimbra_events.catalog import Catalog
from coimbra_events.events import HISTORY_TYPES, Bookmarked, Corrected, GameEvent, Noted, Retracted, RuleOverridden
from coimbra_events.game import Game
from coimbra_events.history import is_plain
from coimbra_events.rules.core import RULES_CHECKED, check
from coimbra_events.violations import RULES, Seen
from projections.audit import Audit, AuditError, Step
from projections.board import PHASE_NAMES
from projections.changes import Change, plain
from projections.consequences import Changes, counts_crowns, fold, told_changes
from projections.ledger import acquisitions, notation, player_ledger, step_rows
from projections.words import quiet_words

def _event_json(event: GameEvent) -> dict[str, Any]:
    about = (type(event).__doc__ or event.TYPE).strip().splitlines()[0]
    return {"type": event.TYPE, "actor": event.actor, "notation": notation(event), "about": about}


def _entry(game: Game, seq: int) -> dict[str, Any]:
    return {"seq": seq, "notation": notation(game.events[seq - 1])}


def _content_before(game: Game, original: int, entry: int) -> int:
    """The entry whose content a play (first recorded as ``original``) had just before log entry ``entry``."""
    return max([original, *(r for r in game.line.corrections.get(original, ()) if r < entry)])


def _original_of(game: Game, seq: int) -> int:
    """The entry that first recorded the play a game event entry is (or was) the content of."""
    return next((orig for orig, rs in game.line.corrections.items() if seq in rs), seq)


def _history_record(game: Game, seq: int, event: GameEvent) -> tuple[dict[str, Any], int | None]:
    """What a history entry did, and the play (by first entry) it is about, if any.

    A correction, retraction or note may name a play by its first entry or by
    the entry of a correction's replacement; both lead to the same play.
    """
    if isinstance(event, RuleOverridden):
        rule = RULES.get(event.rule)
        return {"kind": "override", "rule": event.rule, "statement": rule.statement_for(game.catalog) if rule else None,
                "reason": event.reason, "move": _entry(game, seq + 1)}, seq + 1
    original = _original_of(game, event.seq)
    content = _entry(game, _content_before(game, original, seq))
    if isinstance(event, Corrected):
        return {"kind": "correction", "corrects": original, "replaced": content, "replacement": _entry(game, seq + 1)}, original
    if isinstance(event, Retracted):
        return {"kind": "retraction", "withdrew": content}, None
    kind, text = ("note", event.text) if isinstance(event, Noted) else ("bookmark", event.label)
    return {"kind": kind, "about": content, "text": text}, original


def _withdrawn_by(game: Game, original: int) -> int | None:
    """The retraction entry that withdrew a play (named by its first entry or a replacement's)."""
    return next((k for k, e in enumerate(game.events, 1) if isinstance(e, Retracted) and _original_of(game, e.seq) == original),
                None)


def _event_record(audit: Audit, seq: int) -> tuple[dict[str, Any], int | None]:
    """Where a game event entry stands in the line of play, and the play (by first entry) it is about.

    ``status``: ``in force``, ``skipped`` (illegal where it now stands),
    ``replaced`` (by a correction: ``in_force`` is the content in force, or
    ``replaced_by`` the next one if the play is gone), ``withdrawn``.
    """
    game = audit.game
    original = _original_of(game, seq)
    replacements = game.line.corrections.get(original, ())
    step = audit.by_seq.get(original)
    later = [r for r in (original, *replacements) if r > seq]
    withdrawn = _withdrawn_by(game, original)
    if step is not None and step.play.source == seq:
        status = "skipped" if step.skipped else "in force"
    elif step is not None or later:
        status = "replaced"
    else:
        status = "withdrawn" if withdrawn else "not in the line of play"
    record = {
        "kind": "game event", "status": status, "first_recorded": original, "corrections": list(replacements),
        "in_force": _entry(game, step.play.source) if step is not None and status == "replaced" else None,
        "replaced_by": _entry(game, later[0]) if later else None,
        "withdrawn_by": withdrawn,
    }
    return record, original if step is not None else None


def rules_checked(step: Step) -> list[dict[str, Any]]:
    """Each rule checked for the play, with the facts ``check`` itself reported: holds, broken, or not checked.

    ``check`` stops at the first broken rule (an accepted rule break), so the
    rules after it (``RULES_CHECKED`` gives their order) are not checked.
    """
    seen: Seen = []
    broken = check(step.before, step.play.event, seen)
    found = dict(seen)
    out = []
    for rule in RULES_CHECKED[type(step.play.event)]:
        if rule in found:
            status, facts = "holds", found[rule]
        elif broken is not None and rule == broken.rule:
            status, facts = "broken", dict(broken.facts)
        else:
            status, facts = "not checked", {}
        out.append({"rule": rule, "statement": RULES[rule].statement_for(step.before.catalog), "source": RULES[rule].source,
                    "status": status, "facts": plain(facts)})
    return out


def changes_json(changes: Iterable[Change]) -> list[dict[str, Any]]:
    """Changes as the JSON every command prints: ``who``, ``what``, ``from``, ``to``, ``rule``, ``facts``."""
    return [c.to_json() for c in changes]


def reasons(changes: Iterable[Mapping[str, Any]], catalog: Catalog) -> dict[str, dict[str, str]]:
    """The statement (with the catalog's values) and source of each rule the changes cite."""
    cited = dict.fromkeys(c["rule"] for c in changes if c["rule"] is not None)
    return {rule: {"statement": RULES[rule].statement_for(catalog), "source": RULES[rule].source} for rule in cited}


def play_json(audit: Audit, step: Step) -> dict[str, Any]:
    """A play of the line: why it stands (or was skipped), what it changed, and its resource rows."""
    play = step.play
    status = "skipped" if step.skipped else ("overridden" if play.override else "legal")
    changes = [] if step.skipped else changes_json(told_changes(step.told, step.before))
    return {
        "seq": play.seq, "entry": play.source, **_event_json(play.event),
        "round": step.before.round, "phase": step.before.phase, "phase_name": PHASE_NAMES[step.before.phase],
        "status": status,
        "override": None if play.override is None else {"rule": play.override[0], "reason": play.override[1]},
        "violation": None if step.violation is None else step.violation.to_json(step.before.catalog),
        "rules": [] if step.skipped else rules_checked(step),
        "changes": changes, "reasons": reasons(changes, step.before.catalog),
        "resources": step_rows(audit, step, got=acquisitions(audit)),
    }


def _entry_changes(audit: Audit, seq: int) -> list[dict[str, Any]]:
    """What entry ``seq`` did on the table when it was recorded (a correction's or an undo's moves too).

    A plain record's entries are its plays, already folded; a record with
    history entries is folded entry by entry up to ``seq``, and so is an entry
    that scores crowns, to say which favor tiles and crown tokens they came from.
    """
    game = audit.game
    if is_plain(game.events):
        step = audit.steps[seq - 1]
        made = told_changes(step.told, step.before)
        if not any(counts_crowns(c) for c in made):
            return changes_json(made)
    return changes_json(Changes(fold(game.initial, game.events[:seq]))[seq])


def explain_entry(audit: Audit, seq: int) -> dict[str, Any]:
    """Everything about log entry ``seq``: what it is, where it stands, and the play it is about."""
    game = audit.game
    if not 1 <= seq <= len(game.events):
        raise AuditError(f"{game.name} has no entry {seq}: its entries are 1 to {len(game.events)}")
    event = game.events[seq - 1]
    if type(event) not in HISTORY_TYPES:
        record, target = _event_record(audit, seq)
    else:
        record, target = _history_record(game, seq, event)
    step = audit.by_seq.get(target) if target is not None else None
    about = target if target is not None else seq
    changes = _entry_changes(audit, seq)
    return {
        "seq": seq, "of": len(game.events), **_event_json(event), "record": record,
        "changes": changes, "reasons": reasons(changes, game.catalog),
        "unchanged": None if changes else quiet_words(event, step.after if step is not None and target == seq else None),
        "play": None if step is None else play_json(audit, step),
        "notes": list(game.line.notes.get(about, ())), "bookmark": game.line.bookmarks.get(about),
    }


# --- the game: what happened to the record itself ------------------------------------------------


def _skip_json(step: Step) -> dict[str, Any]:
    v = step.violation
    return {"seq": step.play.seq, "entry": step.play.source, "notation": notation(step.play.event),
            "rule": v.rule, "message": v.reason}


def game_overview(audit: Audit) -> dict[str, Any]:
    """Overrides, corrections, retractions, skipped plays, notes, and each player's totals."""
    game, line, final = audit.game, audit.game.line, audit.final
    overrides = [
        {"seq": s.play.seq - 1, "entry": s.play.seq, "notation": notation(s.play.event), "rule": s.play.override[0],
         "reason": s.play.override[1], "violation": None if s.violation is None else s.violation.to_json(game.catalog),
         "skipped": s.skipped}
        for s in audit.steps if s.play.override is not None
    ]
    corrections = [
        {"seq": r - 1, "corrects": orig, "replaced": _entry(game, _content_before(game, orig, r)), "replacement": _entry(game, r)}
        for orig, rs in line.corrections.items() for r in rs
    ]
    retractions = [{"seq": k, "withdrew": _entry(game, _content_before(game, _original_of(game, e.seq), k))}
                   for k, e in enumerate(game.events, 1) if isinstance(e, Retracted)]
    notes = [{"seq": k, "about": e.seq, "kind": "bookmark" if isinstance(e, Bookmarked) else "note",
              "text": e.label if isinstance(e, Bookmarked) else e.text}
             for k, e in enumerate(game.events, 1) if isinstance(e, (Noted, Bookmarked))]
    players = []
    for pl in final.players:
        ledger = player_ledger(audit, pl.name)
        players.append({"name": pl.name, "place": ledger["place"], **ledger["totals"], "breakdown": ledger["breakdown"],
                        "balanced": ledger["balanced"]})
    problem = None
    if line.problem is not None:
        problem = {"seq": line.problem[0], **line.problem[1].to_json(game.catalog)}
    return {
        "entries": len(game.events), "plays": len(line.plays), "over": final.over, "round": final.round, "phase": final.phase,
        "overrides": overrides, "corrections": corrections, "retractions": retractions,
        "skipped": [_skip_json(s) for s in audit.steps if s.skipped], "notes": notes, "problem": problem,
        "players": players,
    }


__all__ = ["changes_json", "explain_entry", "game_overview", "play_json", "reasons", "rules_checked"]
