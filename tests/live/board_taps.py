"""Where a player taps on the live table's board for a decision, and what a page records of the taps.

Shared by the browser tests of the board as the input (tests/live/test_board_input.py) and the benchmark of
taps on four phones (bench/board_taps.py).
"""

from __future__ import annotations

from typing import Any

from cli.presenter import notation

RECORDER = """
window.buzzes = [];
window.locks = [];
Object.defineProperty(navigator, "vibrate", { configurable: true, value: (pattern) => { window.buzzes.push(pattern); return true; } });
Object.defineProperty(navigator, "wakeLock", { configurable: true, value: { request: async (kind) => {
  const lock = { kind, released: false, release: async () => { lock.released = true; }, addEventListener: () => {} };
  window.locks.push(lock);
  return lock;
} } });
window.taps = { all: 0, hidden: 0, at: 0 };
document.addEventListener("click", () => {
  const due = document.getElementById("due-text");
  const box = due && due.getBoundingClientRect();
  window.taps.all += 1;
  window.taps.at = Date.now();
  if (!box || box.height === 0 || box.top < 0 || box.bottom > window.innerHeight) window.taps.hidden += 1;
}, true);
window.shownAt = {};
new MutationObserver(() => { const n = document.body.dataset.entries; if (n && !(n in window.shownAt)) window.shownAt[n] = Date.now(); })
  .observe(document, { subtree: true, attributes: true, attributeFilter: ["data-entries"] });
"""
"""Put before the page's own script: what the page asks of the phone's vibration and screen, recorded; every tap
counted (and when the latest was, ``Date.now()``), with those at which who is due was not in view; and when the
page first showed each entry count (``shownAt``: as it draws it)."""
DUE_IN_VIEW = """() => { const box = document.getElementById("due-text").getBoundingClientRect();
  return box.height > 0 && box.top >= 0 && box.bottom <= window.innerHeight; }"""
WHERE = {  # an option's event type: the part of the board it is tapped on, the attribute naming it there, the field
    "CardBought": ("city", "data-card", "card"),
    "FavorTileTaken": ("city", "data-favor", "tile"),
    "TrackChosen": ("tracks", "data-track-row", "track"),
    "PilgrimStepped": ("map", "data-space", "to"),
    "PilgrimPlaced": ("map", "data-space", "space"),
    "VoyageInvested": ("voyages", "data-voyage", "voyage"),
}


def board_taps(event: Any) -> list[str]:
    """Where a player taps on the board for ``event``: the die then its place, or the one part it picks; the
    list's button for a decision the board does not show."""
    fields = event.payload()
    if event.TYPE == "DiePlaced":
        return [f'#dice [data-choose-die="{fields["die"]}"]', f'#city [data-location="{fields["location"]}"][data-option]']
    if event.TYPE in WHERE:
        part, attribute, field = WHERE[event.TYPE]
        return [f'#{part} [{attribute}="{fields[field]}"][data-option]']
    return [f'#options button[data-input="{notation(event)}"]']
