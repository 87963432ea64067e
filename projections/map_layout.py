"""The pilgrimage map laid out for drawing: a position for every space, from the catalog's graph alone.

A catalog's map names its spaces and which neighbour which, with no coordinates;
the replay page and the live table's pages draw it from this layout (``map_layout``),
the same for a catalog every time.
"""

from __future__ import annotations

import math
from functools import lru_cache
from typing import Any

from coimbra_events.catalog import Catalog


@lru_cache(maxsize=8)
def map_layout(catalog: Catalog) -> dict[str, Any]:
    """Every map space with a position (0..100 both ways) and its kind, and the edges.

    A catalog's map is a graph with no coordinates, so it is laid out by stress
    majorization (each pair of spaces as far apart as the steps between them),
    started from rings around the start spaces: deterministic for a catalog.
    """
    graph = catalog.map
    ids = list(graph.spaces)
    steps = {s: _steps_from(graph.neighbours, s) for s in ids}
    positions = _majorized(ids, steps, _rings(ids, graph.start_spaces, graph.neighbours))
    xs, ys = [p[0] for p in positions.values()], [p[1] for p in positions.values()]
    span = max(max(xs) - min(xs), max(ys) - min(ys)) or 1.0
    scaled = {s: (round(6 + 88 * (x - min(xs)) / span, 1), round(6 + 88 * (y - min(ys)) / span, 1)) for s, (x, y) in positions.items()}
    edges = sorted({tuple(sorted((a, b))) for a in ids for b in graph.neighbours.get(a, ())})
    return {
        "spaces": [{"id": s, "kind": graph.spaces[s].kind, "name": graph.spaces[s].name or s, "x": scaled[s][0],
                    "y": scaled[s][1]} for s in ids],
        "edges": [list(e) for e in edges],
    }


def _steps_from(neighbours: dict[str, tuple[str, ...]], start: str) -> dict[str, int]:
    """Steps from ``start`` to every space it reaches (breadth first)."""
    seen, frontier = {start: 0}, [start]
    while frontier:
        nxt = []
        for space in frontier:
            for n in neighbours.get(space, ()):
                if n not in seen:
                    seen[n] = seen[space] + 1
                    nxt.append(n)
        frontier = nxt
    return seen


def _rings(ids: list[str], starts: tuple[str, ...], neighbours: dict[str, tuple[str, ...]]) -> dict[str, tuple[float, float]]:
    """A first guess: the start spaces on a small ring, every space further out by its steps from the
    nearest, at the mean angle of the start spaces nearest to it."""
    angle = {s: 2 * math.pi * k / max(len(starts), 1) for k, s in enumerate(starts)}
    reach = {s: _steps_from(neighbours, s) for s in starts}
    out = {}
    for k, space in enumerate(ids):
        near = {s: r[space] for s, r in reach.items() if space in r} or {starts[0] if starts else space: 0}
        depth = min(near.values())
        closest = [angle.get(s, 0.0) for s, d in near.items() if d == depth]
        theta = math.atan2(sum(map(math.sin, closest)), sum(map(math.cos, closest))) + 0.01 * k
        out[space] = ((1 + depth) * math.cos(theta), (1 + depth) * math.sin(theta))
    return out


def _majorized(ids: list[str], steps: dict[str, dict[str, int]], start: dict[str, tuple[float, float]],
               rounds: int = 200) -> dict[str, tuple[float, float]]:
    """Stress majorization (Gansner, Koren, North 2004) with weights 1/d²; unreachable pairs are left out."""
    pos = dict(start)
    for _ in range(rounds):
        moved = {}
        for i in ids:
            xi, yi = pos[i]
            sx = sy = sw = 0.0
            for j, d in steps[i].items():
                if j == i:
                    continue
                xj, yj = pos[j]
                w = 1.0 / (d * d)
                dist = math.hypot(xi - xj, yi - yj) or 1e-9
                sx += w * (xj + d * (xi - xj) / dist)
                sy += w * (yj + d * (yi - yj) / dist)
                sw += w
            moved[i] = (sx / sw, sy / sw) if sw else (xi, yi)
        pos = moved
    return pos


__all__ = ["map_layout"]
