"""The analysis of a game as people read it: a read model kept beside the record, never an entry of it.

``analysis_for`` gives the whole analysis (``coimbra analyse --json`` prints it; the replayer and
the replay page show it): every decision graded with its options, every random outcome's luck,
the curve of winning chances and each player's summary, with names, not ids. The result is kept
under a key made of what decides it (the record's head, ruleset and catalog, the settings and the
seed): asked again with the same key, it is read back, not computed (``cached_analysis`` only reads).
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path
from typing import Any, Callable

import orjson

from coimbra_events.analysis.engine import Analysis, LineEntry, GradedDecision, analyse, default_jobs, line_of_play
from coimbra_events.analysis.evaluation import FINAL_LOOK, FUTILE_Z, LUCK, METHOD, SETTLE_Z, STOP_SE, Settings, option_list
from coimbra_events.analysis.grades import (ACCURACY, ACCURACY_FORMULA, GRADES, THRESHOLDS, accuracy, counted_loss, interval,
                                            reach, stake)
from coimbra_events.analysis.playouts import POLICY
from coimbra_events.catalog import Catalog
from coimbra_events.files import write_atomically
from coimbra_events.log import GameLog
from projections.analysis_luck import luck_entries, luck_summary
from projections.analysis_reasons import TOP, losses_by, turning_points
from projections.naming import name_of
from projections.words import entry_words

__all__ = ["DEEPER", "LUCK", "Settings",
           "analysis_for", "entry_alone", "cached_analysis", "latest_analysis", "analysis_key", "default_cache_dir"]

FORMAT = 6
"""The read model's shape; a new shape is a new key, so an old file is never read as a new one (2: ``reach``;
3: ``signed_loss``, the intervals drawn around it; 4: the reasons: ``round``, ``top``, ``gains``, ``turning_points``,
``by_kind``, ``by_round``; a decision's ``win_before``, its curve point's ``before`` and each player's ``summed_loss``:
the curve steps by the loss; 5: luck with intervals, ``shared``, and each player's ``result`` and ``luck_adjusted``;
6: accuracy calibrated on the calibration bench's games (``grades.ACCURACY``), each decision's loss counted less one
standard error (its ``se``), a player's weighted by each decision's ``stake``)."""


def default_cache_dir() -> Path:
    """Where analyses are kept: ``$COIMBRA_ANALYSES``, else ``coimbra/analyses`` in the user's cache directory."""
    if os.environ.get("COIMBRA_ANALYSES"):
        return Path(os.environ["COIMBRA_ANALYSES"])
    return Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "coimbra" / "analyses"


def analysis_key(log: GameLog, settings: Settings) -> dict[str, Any]:
    """What decides an analysis: the record (its head), the rules and components, the settings and the seed."""
    work = settings.to_json()
    seed = work.pop("seed")
    return {"format": FORMAT, "head": log.head(), "ruleset": log.ruleset,
            "catalog": {"id": log.catalog_id, "sha256": log.catalog_sha256},
            "settings": {**work, "policy": POLICY, "method": METHOD}, "seed": seed}


def cached_analysis(log: GameLog, settings: Settings = Settings(), cache_dir: Path | None = None) -> dict[str, Any] | None:
    """The analysis kept for this record and settings, or ``None``: never computes one."""
    path = _path(cache_dir, analysis_key(log, settings))
    try:
        report: dict[str, Any] = orjson.loads(path.read_bytes())
    except (OSError, orjson.JSONDecodeError):
        return None
    return report if report.get("key") == analysis_key(log, settings) else None


def analysis_for(log: GameLog, catalog: Catalog, settings: Settings = Settings(), cache_dir: Path | None = None,
                 jobs: int | None = None, progress: Callable[[int, int], None] | None = None,
                 keep: bool = True) -> dict[str, Any]:
    """The analysis of a legal record: read back when kept under the same key, else computed (in ``jobs`` processes,
    default every core; ``progress(done, total)``) and kept (unless ``keep`` is false)."""
    found = cached_analysis(log, settings, cache_dir) if keep else None
    if found is not None:
        return found
    entries = line_of_play(log, catalog)
    done = [0]

    def tick(n: int) -> None:
        done[0] += n
        if progress:
            progress(done[0], len(entries))

    result = analyse(entries, settings, jobs or default_jobs(), tick)
    report = read_model(result, entries, analysis_key(log, settings))
    if keep:
        _keep(cache_dir, report)
    return report


DEEPER = 4
"""``coimbra analyse --seq``: one entry alone gets this many times the playouts of a whole game's analysis."""


def entry_alone(log: GameLog, catalog: Catalog, seq: int, settings: Settings) -> dict[str, Any]:
    """Entry ``seq`` of the line of play measured alone (``coimbra analyse --seq``, often with more playouts than a
    whole game's analysis can afford): the read model of that one entry (its decision or its luck), never kept.
    The same settings and seed give the same figures as the whole game's analysis gives that entry. ``LookupError``
    for an entry not in the line of play (retracted, corrected, or past the end)."""
    entries = line_of_play(log, catalog)
    found = [e for e in entries if e.seq == seq]
    if not found:
        raise LookupError(f"entry {seq} is not in the line of play (retracted, corrected, or past the last entry, "
                          f"{entries[-1].seq if entries else 0})")
    return read_model(analyse(found, settings), entries, {**analysis_key(log, settings), "seq": seq})


def latest_analysis(log: GameLog, cache_dir: Path | None = None) -> dict[str, Any] | None:
    """The analysis kept last for exactly this record (its head, ruleset and catalog) in this shape (``FORMAT``),
    whatever its settings and seed, or ``None``: never computes one (what the replayer and the replay page show)."""
    folder = cache_dir or default_cache_dir()
    try:
        report: dict[str, Any] = orjson.loads((folder / orjson.loads((_pointer(folder, log.head())).read_bytes())).read_bytes())
    except (OSError, orjson.JSONDecodeError, TypeError):
        return None
    key = report.get("key", {})
    same = {"format": FORMAT, "head": log.head(), "ruleset": log.ruleset,
            "catalog": {"id": log.catalog_id, "sha256": log.catalog_sha256}}
    return report if all(key.get(k) == v for k, v in same.items()) else None


def _keep(cache_dir: Path | None, report: dict[str, Any]) -> None:
    """Write the report under its key, and point the record's head at it (the newest for that record)."""
    path = _path(cache_dir, report["key"])
    path.parent.mkdir(parents=True, exist_ok=True)
    write_atomically(path, orjson.dumps(report))
    pointer = _pointer(path.parent, report["key"]["head"])
    pointer.parent.mkdir(exist_ok=True)
    write_atomically(pointer, orjson.dumps(path.name))


def _pointer(folder: Path, head: str) -> Path:
    return folder / "heads" / f"{head}.json"


def _path(cache_dir: Path | None, key: dict[str, Any]) -> Path:
    digest = hashlib.sha256(orjson.dumps(key, option=orjson.OPT_SORT_KEYS)).hexdigest()
    return (cache_dir or default_cache_dir()) / f"{digest}.json"


def read_model(result: Analysis, entries: list[LineEntry], key: dict[str, Any]) -> dict[str, Any]:
    """The analysis as JSON-ready data, in words (see docs/analysis.md for every field)."""
    players = result.players
    decisions = [_decision(d, entries[d.index], players, result.settings.playouts) for d in result.decisions]
    luck = luck_entries(result, entries, _words)
    lucky = luck_summary(result, entries)
    curve = sorted([{"seq": d["seq"], "index": d["index"], "round": d["round"], "before": d["win_before"],
                     "win": d["win_after"]} for d in decisions] +
                   [{"seq": u["seq"], "index": u["index"], "round": u["round"], "win": u["win_after"]} for u in luck],
                   key=lambda point: point["index"])
    return {
        "key": key,
        "players": list(players),
        "decisions": decisions,
        "luck": luck,
        "curve": curve,
        "summary": {name: _summary(name, decisions) | lucky[name] for name in players},
        "turning_points": turning_points(curve, decisions, luck),
        "by_kind": losses_by(decisions, players, "kind"),
        "by_round": losses_by(decisions, players, "round"),
        "notes": _notes(result.settings),
    }


def _decision(d: GradedDecision, entry: LineEntry, players: tuple[str, ...], carried: int) -> dict[str, Any]:
    """One decision in words; an option with fewer than ``carried`` playouts was sampled less (``first_pass_only``)."""
    events = option_list(entry.before, entry.event)
    actor = players.index(d.player)
    options = [{"option": _words(entry, events[o.option]), "played": k == d.played, "best": k == 0,
                "win": round(o.win[actor], 4), "score": round(o.score[actor], 2), "loss": round(o.loss, 2),
                "signed_loss": round(o.signed_loss, 2), "interval": _interval(o.signed_loss, o.se), "playouts": o.playouts,
                "first_pass_only": o.playouts < carried}
               for k, o in enumerate(d.options)]
    return {"seq": d.seq, "index": d.index, "round": entry.before.round, "player": d.player, "kind": d.kind,
            "played": options[d.played]["option"],
            "best": options[0]["option"], "grade": d.grade, "loss": round(d.loss, 2),
            "signed_loss": round(d.signed_loss, 2), "se": round(d.se, 2), "interval": _interval(d.signed_loss, d.se),
            "certain": d.certain, "reach": list(reach(d.signed_loss, d.se)), "forced": d.options_total == 1,
            "accuracy": round(accuracy(counted_loss(d.loss, d.se)), 1),
            "stake": round(stake([o.win[actor] for o in d.options]), 2),
            "options_total": d.options_total, "options_evaluated": d.evaluated, "options": options,
            "top": [{k: o[k] for k in ("option", "played", "win", "score")} for o in options[:TOP]],
            "gains": {name_of(entry.before.catalog, source): points for source, points in d.gains},
            "win_before": _by_player(players, d.options[0].win, 4), "win_after": _by_player(players, d.win_after, 4)}


def _summary(name: str, decisions: list[dict[str, Any]]) -> dict[str, Any]:
    """A player's accuracy over their decisions with a choice, and their three costliest decisions (their luck:
    ``analysis_luck.luck_summary``)."""
    mine = [d for d in decisions if d["player"] == name and not d["forced"]]
    costliest = sorted(mine, key=lambda d: (-d["loss"], d["seq"]))[:3]
    return {
        "decisions": len(mine),
        "summed_loss": round(sum(d["loss"] for d in mine), 1) + 0.0,
        "mean_loss": round(sum(d["loss"] for d in mine) / len(mine), 2) if mine else 0.0,
        "accuracy": round(ACCURACY.of_player([(counted_loss(d["loss"], d["se"]), d["stake"]) for d in mine]), 1),
        "grades": {g: sum(1 for d in mine if d["grade"] == g) for g in GRADES},
        "costliest": [{"seq": d["seq"], "loss": d["loss"], "grade": d["grade"], "played": d["played"],
                       "best": d["best"]} for d in costliest],
    }


def _notes(settings: Settings) -> dict[str, str]:
    grades = ", ".join(f"{name} from {threshold:g}" for threshold, name in reversed(THRESHOLDS))
    return {
        "win": "P(first): the share of playouts the player finishes first; a first place shared after the tie break "
               "counts as first for each (GAPS 11)",
        "playouts": f"from the table as it was, played on by the {POLICY}; rolls and deals drawn from what was possible "
                    "then, never from the record (no peeking); the same random numbers for every option of a decision, "
                    "each bot's pick keyed by where its decision falls, so the games after two options stay alike",
        "options": f"every legal option gets {settings.first_pass} playouts (the better {2 * settings.candidates} as many "
                   f"again when there are more); the best {settings.candidates} and the one played go on to "
                   f"{settings.playouts}, except those the best leads by {STOP_SE:g} standard errors (first_pass_only: "
                   f"sampled less); the best {2 * settings.rivals} others get {FINAL_LOOK} times as many; then the one "
                   f"played is settled against the {settings.rivals} best of them at once (with no more other options "
                   f"than that, against every one, unranked) on "
                   f"fresh paired playouts until its loss lies within one grade by {SETTLE_Z:g} standard errors (looked "
                   f"at again and again, so wider than the 95 % shown) and no other rival could raise it, at most "
                   f"{settings.settle} each, or until even that many would leave it within {FUTILE_Z:g} standard "
                   f"error of a grade's bound; the one played and those rivals are shown with those settling playouts "
                   "(the others with their ranking ones), so the list and the grade read the same playouts",
        "grades": f"loss in percentage points of P(first) against the best option: {grades}; certain: the best leads "
                  "by at least 2 standard errors of the paired difference; signed_loss: the best rival's P(first) "
                  "minus the one played's, below 0 where the one played beats every rival (loss: at least 0); "
                  "interval: 95 %, around the signed loss; reach: the grades that "
                  "interval spans (more than one: the loss lies near a grade's edge, and another seed could grade the "
                  "decision on the other side of it)",
        "accuracy": ACCURACY_FORMULA + "; forced decisions (one legal option) are left out",
        "luck": f"percentage points of P(first) an outcome gave each player against the average outcome possible then "
                f"(the chances before it), on {settings.luck} paired playouts each side, those of a run of outcomes with "
                "no decision between on the same streams (before the seating each playout's first places are shared "
                "out evenly: no player can be favoured yet); interval: 95 %, from the spread of the paired differences "
                "(a player's total: of each run's summed differences); shared: what the players' luck sums to, the "
                "points by which the outcome raised the expected number of players sharing first place; "
                "luck_adjusted: the result (100 for a first place, shared or not, else 0) less the luck",
    }


def _words(entry: LineEntry, event: Any = None) -> str:
    return entry_words(entry.before, entry.event if event is None else event)


def _interval(signed_loss: float, se: float) -> list[float]:
    low, high = interval(signed_loss, se)
    return [round(low, 2), round(high, 2)]


def _by_player(players: tuple[str, ...], values: tuple[float, ...], digits: int) -> dict[str, float]:
    return {name: round(v, digits) for name, v in zip(players, values)}
