/* Which seats this phone holds at the live table (loaded before live.js, which makes one with coimbraSeats).
 *
 * A phone is known by a device id it makes once and keeps (localStorage "coimbra.device"), sent with every
 * request (X-Coimbra-Device). It claims the seats of those who play from it (POST /api/games/{name}/seats):
 * the prompt "Which seat is this phone?" asks on the first open of the players' page with no seat, and the
 * header's button opens it again. A seat another phone holds is taken over only after a confirmation; the
 * phone that held it is told (the stream says a seat changed, the page reads the game again, and "you" no
 * longer holds it). The page enters only its seats' decisions and the table's outcomes, and withdraws only
 * what the view says it may ("undo"), after a confirmation naming the entry (docs/serve.md).
 */
(function () {
  "use strict";

  const DEVICE = "coimbra.device";

  /** This phone's id: made once (128 random bits) and kept; a page without storage makes one per open. */
  function deviceId() {
    try {
      const kept = localStorage.getItem(DEVICE);
      if (kept && /^[A-Za-z0-9_-]{16,64}$/.test(kept)) return kept;
    } catch (e) { /* private mode */ }
    const bytes = new Uint8Array(16);
    crypto.getRandomValues(bytes);
    const made = Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
    try { localStorage.setItem(DEVICE, made); } catch (e) { /* private mode: this page's own id */ }
    return made;
  }

  /** The seats of one page. ``page``: what it needs of live.js: ``api(path)``, ``game()``, ``say(kind, words)``
   * and ``refresh()`` (read the game again). */
  window.coimbraSeats = function (page) {
    const device = deviceId();
    const el = (id) => document.getElementById(id);
    const esc = coimbraEscape;  // cli/web/board.js
    let you = null;      // the seats this phone holds, as the last view said (null: not read yet)
    let letGo = [];      // seats this page let go itself (no news when they are gone)
    const keptKey = () => `coimbra.seats.${page.game()}`;  // the seats held when this page last looked
    const noneKey = () => `coimbra.no-seat.${page.game()}`; // this phone chose to hold none

    function stored(key, value) {
      try {
        if (value === undefined) return localStorage.getItem(key);
        if (value === null) localStorage.removeItem(key); else localStorage.setItem(key, value);
      } catch (e) { /* private mode */ }
      return null;
    }

    const headers = (more) => Object.assign({ "X-Coimbra-Device": device }, more || {});
    const mine = (player) => Boolean(you && you.includes(player));

    /** Who enters an input (the entry's "by"): the seat it is for if this phone holds it, else the phone's seats. */
    function by(due) {
      if (due && mine(due.player)) return due.player;
      return (you && you.length ? you.join(" & ") : "table").slice(0, 64);
    }

    /** The view just read: say a seat lost to another phone, show the seats, the prompt and the undo button;
     * whether the seats this phone holds changed (the inputs are drawn again then). */
    function shown(view) {
      const now = view.you || [];
      const before = you || JSON.parse(stored(keptKey()) || "[]");
      const lost = before.filter((s) => !now.includes(s) && !letGo.includes(s));
      const changed = !you || you.join() !== now.join();
      you = now;
      letGo = letGo.filter((s) => !now.includes(s));
      if (changed) stored(keptKey(), JSON.stringify(now));  // written only when it changes (a write costs a call to the browser)
      if (lost.length) {
        page.say("warn", `Your seat ${lost.join(" and ")} was taken over by another phone: ` +
          `this phone no longer enters ${lost.length > 1 ? "their" : "that player's"} decisions. ` +
          "To play it from here again, open “Seats” and take it back.");
      }
      if (changed) {
        document.body.dataset.seats = now.join(",");
        el("seat-words").textContent = now.length ? `This phone plays ${now.join(" and ")}` : "This phone plays no seat";
      }
      drawPrompt(view);
      if (!now.length && stored(noneKey()) !== "1" && !view.over) el("seat-prompt").hidden = false;
      const undo = el("undo");
      undo.hidden = !(view.undo && view.undo.yours);
      const withdraw = view.undo ? `Withdraw entry ${view.undo.seq}` : undo.textContent;
      if (undo.textContent !== withdraw) undo.textContent = withdraw;
      return changed;
    }

    let prompted = "";  // the seats' buttons drawn last
    function drawPrompt(view) {
      const html = view.seats.map((s) => {
        const whose = s.yours ? " (this phone)" : s.held ? " (another phone)" : "";
        return `<button type="button" class="seat" data-seat="${esc(s.player)}" aria-pressed="${s.yours}">` +
          `${esc(s.player)}<span class="whose">${esc(whose)}</span></button>`;
      }).join("");
      if (html !== prompted) el("seat-choices").innerHTML = prompted = html;
    }

    /** Claim ``seat`` for this phone; a seat held by another phone only after the table confirms taking it over. */
    async function claim(seat, takeOver) {
      const answer = await post({ seat, take_over: Boolean(takeOver) });
      const data = await answer.json().catch(() => ({}));
      if (answer.status === 409 && !takeOver) {
        if (window.confirm(`${data.error}? The other phone is told.`)) return claim(seat, true);
        return;
      }
      if (!answer.ok) { page.say("warn", data.error || `the server answered ${answer.status}`); return; }
      stored(noneKey(), null);
      el("seat-prompt").hidden = true;
      await page.refresh();
    }

    async function release(seat) {
      letGo.push(seat);
      const answer = await post({ seat, release: true });
      if (!answer.ok) page.say("warn", (await answer.json().catch(() => ({}))).error || `the server answered ${answer.status}`);
      await page.refresh();
    }

    function post(body) {
      return fetch(page.api("/seats"), {
        method: "POST", credentials: "same-origin", headers: headers({ "Content-Type": "application/json" }), body: JSON.stringify(body),
      });
    }

    /** The words asked before an undo: what will be withdrawn; null if this phone may withdraw nothing. */
    function undoQuestion(view) {
      const u = view && view.undo;
      return u && u.yours ? `Withdraw ${u.seq}. ${u.text}? It stays in the record, marked withdrawn.` : null;
    }

    /** What the inputs say when the player due is not one of this phone's seats: whom it waits for, and (a seat
     * no phone holds) the button to play it from this phone too. */
    function waiting(view) {
      const seat = view.seats.find((s) => s.player === view.due.player);
      const free = seat && !seat.held;
      return `<p class="for waiting">Waiting for ${esc(view.due.player)}${free ? ": no phone plays this seat." : " (on another phone)."}</p>` +
        (free ? `<button type="button" class="seat also" data-seat="${esc(view.due.player)}">This phone also plays ${esc(view.due.player)}</button>` : "");
    }

    /** A tap on a seat's button (the prompt's, or "also plays" under the inputs). */
    function onTap(e) {
      const b = e.target.closest("button.seat");
      if (!b) return false;
      if (b.getAttribute("aria-pressed") === "true") release(b.dataset.seat); else claim(b.dataset.seat, false);
      return true;
    }

    function wire() {
      el("seat-choices").addEventListener("click", onTap);
      el("seat-none").addEventListener("click", () => {
        stored(noneKey(), "1");
        (you || []).forEach(release);
        el("seat-prompt").hidden = true;
      });
      el("seat-done").addEventListener("click", () => {  // closed with no seat: this phone plays none, as asked
        if (!(you && you.length)) stored(noneKey(), "1");
        el("seat-prompt").hidden = true;
      });
      el("seat-change").addEventListener("click", () => {
        el("seat-prompt").hidden = false;
        el("seat-prompt").scrollIntoView({ block: "start" });
      });
    }

    return { device, headers, mine, by, shown, undoQuestion, waiting, onTap, wire };
  };
})();
