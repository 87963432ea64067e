/* "Your turn", unmistakable (the players' page, cli/live/static/live.js): when this phone's seat becomes due,
 * the tab's title says so, the phone vibrates once and keeps its screen awake (where the browser allows:
 * the Vibration API, the Screen Wake Lock API), and the page brings the controls into view. Otherwise the
 * page never scrolls by itself: who is due stays in the sticky header instead. The wake lock is let go
 * when the turn passes, and taken again when the page is shown again while it is still this phone's turn.
 *
 * coimbraTurn() gives {show(mine, what, controls)}: called at every new head with whether the due seat is
 * this phone's, what is due in words, and the element holding the controls to bring into view.
 */

/** Bring ``node`` into view below the sticky header (#top), as little as it takes; nothing moves if it is in
 * view already. Only on this phone's turn, or after its own tap: a page never moves under a thumb otherwise. */
function coimbraBring(node) {
  "use strict";
  if (!node) return;
  const box = node.getBoundingClientRect();
  const top = (document.getElementById("top") || { offsetHeight: 0 }).offsetHeight + 8;
  const bottom = window.innerHeight - 8;
  if (box.top >= top && box.bottom <= bottom) return;
  window.scrollBy(0, box.bottom > bottom ? Math.min(box.bottom - bottom, box.top - top) : box.top - top);
}

/** Run ``then`` once the page has drawn its next frame (its layout done: measuring then forces none). */
function afterPaint(then) {
  "use strict";
  requestAnimationFrame(() => setTimeout(then, 0));
}

function coimbraTurn() {
  "use strict";

  const PREFIX = "Your turn · ";
  const BUZZ = [120, 60, 120];  // ms: the vibration when a turn begins
  let mine = false;
  let lock = null;              // the screen wake lock held, or the request under way

  let base = "";                // the title the page gave itself

  function title(what) {
    if (!document.title.startsWith(PREFIX)) base = document.title;
    const now = what ? `${PREFIX}${what} · ${base}` : base;
    if (document.title !== now) document.title = now;  // set only when it changes: each setting is news to the browser
  }

  function buzz() {
    try { if (navigator.vibrate) navigator.vibrate(BUZZ); } catch (e) { /* not allowed here */ }
  }

  function awake() {
    if (lock || !navigator.wakeLock || document.hidden) return;
    lock = navigator.wakeLock.request("screen").then((held) => {
      if (!mine) { held.release(); lock = null; return null; }
      held.addEventListener("release", () => { lock = null; });
      lock = held;
      return held;
    }).catch(() => { lock = null; });
  }

  function asleep() {
    const held = lock;
    lock = null;
    if (held && typeof held.release === "function") held.release().catch(() => {});
  }

  /** The due seat is this phone's (``now``), due for ``what``; ``controls`` are the controls to tap. */
  function show(now, what, controls) {
    const began = now && !mine;
    mine = now;
    title(now ? what : "");
    document.body.dataset.turn = now ? "mine" : "";
    if (!now) { asleep(); return; }
    if (began) buzz();
    awake();
    afterPaint(() => coimbraBring(controls));  // measured once the page is laid out: no layout forced while it draws
  }

  document.addEventListener("visibilitychange", () => { if (!document.hidden && mine) awake(); });
  return { show };
}
