/* The live table's page (cli/live/pages.py serves it as /play and /watch).
 *
 * The link's fragment holds the token (#t=..., never sent to the server); it is traded for the session
 * cookie (POST /api/session), dropped from the address bar and kept in this tab (sessionStorage), so that
 * a restarted server whose cookie this page lost, or whose links were replaced, is asked again and the
 * page goes on, or says to scan the new code. A link pasted into the same tab later is taken the same
 * way, without a reload (hashchange). The page then reads the game
 * (GET /api/games/{name}) and follows its event stream (EventSource: it reconnects by itself and
 * resumes after the last entry it saw, Last-Event-ID); at each new head the game is read again, with the
 * entries after those shown (?since=N). It is "live" only while the stream is open and it holds the head
 * the server last told (each entry on the stream carries its head, each read the game's); else it says it
 * is not up to date, its buttons are off, and it reads the game again until it is (docs/serve.md). The board is
 * drawn by cli/web/board.js, the replay page's own drawing. Every input carries the head this page
 * shows ("after"): if the record moved on, nothing is stored and the page says what changed.
 * On /watch, nothing can be entered. Text from the record is always escaped.
 */
(function () {
  "use strict";

  const WATCHING = location.pathname.replace(/\/+$/, "").endsWith("/watch");
  const el = (id) => document.getElementById(id);
  let game = null;       // the game's name
  let view = null;       // the last GET /api/games/{name}
  let board = null;      // coimbraBoard for this game, and its drawer
  let drawer = null;
  let reading = null;    // the read under way, and whether another is wanted after it
  let again = false;
  let stream = null;     // the event stream, and when this page opened it (Date.now())
  let streamSince = 0;
  let wasOpen = false;   // a stream was open once (until then the page is connecting, not reconnecting)
  let told = { events: 0, head: "" };  // the newest entry count and head the server told, by its stream or a read
  let confirmed = false; // a read made since the stream (re)opened came back (else the page may have missed entries)
  let failures = 0;      // reads failed in a row, and why the latest did, in words
  let problem = "";
  let halted = false;    // the server refused this page's key: reading again would not help
  let planned = null;    // the next read, planned while the page is not live
  let sayLater = null;   // the words "not up to date", held back a moment (an entry being read is no news)
  let sending = false;
  let outcome = null;    // the table outcome's form (outcome.js)
  let refusedInput = null;
  let boardInput = null;  // the board as the input (board_input.js), and the turn's signals (turn.js)
  let turn = null;

  const FIND_FROM = 8;  // more options than a phone shows at once, and a search box finds one
  const READ_EVERY = 1000;   // ms between two reads while the page is not live
  const RETRY_FIRST = 250;   // ms before reading again after a failed read, doubled at each failure up to READ_EVERY
  const REOPEN_AFTER = 2000; // ms a stream may take to open before a page whose reads come back opens another
  const SAY_AFTER = 400;     // ms a live page may be behind (reading the entry just told) before it says so
  const STREAM_GRACE = 300; // ms the page waits for the stream to tell its own input, with the view, before reading
  const ROUNDS = 4;          // reads one refresh makes at most (then the reads planned while not live go on)
  const LISTED = 30;         // entries in the page's list
  const HISTORY = new Set(["Corrected", "Retracted", "RuleOverridden", "Noted", "Bookmarked"]);
  const esc = coimbraEscape;  // cli/web/board.js
  const held = new WeakMap();  // the HTML put in a node (``put``)
  /** Put ``html`` in ``node``, unless it holds it already: a part that says the same is not drawn again. */
  function put(node, html) {
    if (held.get(node) === html) return;
    held.set(node, html);
    node.innerHTML = html;
  }
  const short = (head) => (head || "").slice(0, 12);

  // --- who this device is -----------------------------------------------------------------

  // A players' page is a phone holding seats (seats.js): it enters only their decisions and the table's outcomes.
  const seats = WATCHING ? null : coimbraSeats({ api: (path) => api(path), game: () => game, say, refresh, put });
  const mine = (player) => Boolean(seats && seats.mine(player));
  const device = (more) => (seats ? seats.headers(more) : Object.assign({}, more));  // a request's headers

  // --- talking to the server --------------------------------------------------------------

  const KEY = "coimbra.key";  // sessionStorage: this tab's token

  /** The token of a link just opened in this tab (dropped from the address bar), or null. */
  function linkToken() {
    const m = /(?:^#|&)t=([^&]+)/.exec(location.hash);
    if (!m) return null;
    try { history.replaceState(null, "", location.pathname + location.search); } catch (e) { /* no history */ }
    return decodeURIComponent(m[1]);
  }

  function keptToken() {
    try { return sessionStorage.getItem(KEY); } catch (e) { return null; }
  }

  /** Trade a token for the session cookie: the game's name, or an Error with the server's words why not. */
  async function join(token) {
    const answer = await fetch("/api/session", { method: "POST", headers: { Authorization: `Bearer ${token}` }, credentials: "same-origin" });
    const body = await answer.json().catch(() => ({}));
    if (!answer.ok) throw new Error(body.error || `the server answered ${answer.status}`);
    try { sessionStorage.setItem(KEY, token); localStorage.setItem("coimbra.game", body.game); } catch (e) { /* private mode */ }
    return body.game;
  }

  async function session() {
    const token = linkToken() || keptToken();
    if (token) return join(token);
    const stored = (() => { try { return localStorage.getItem("coimbra.game"); } catch (e) { return null; } })();
    if (!stored) throw new Error("open the link the table's screen shows (it holds the key to this table)");
    return stored;
  }

  /** The server refused this page's cookie (its links were replaced, or the cookie is gone): trade the kept
   * token again; false, the server's words said and nothing more tried, if that is refused too. */
  async function rejoined() {
    const token = keptToken();
    try {
      if (!token) throw new Error("this page has no key to the table: scan the table's code, or open the link its screen shows");
      await join(token);
      return true;
    } catch (e) {
      confirmed = false;
      if (e instanceof TypeError) { keepUp(); return false; }  // the server is not reached: the planned reads go on
      halted = true;
      if (stream) { stream.close(); stream = null; }
      say("warn", e.message);
      return false;
    }
  }

  /** A link opened in this tab after the page started (pasted, or a new code scanned): its table, no reload. */
  async function enter(token) {
    try {
      const name = await join(token);
      halted = false;
      clearMessage();
      if (name !== game) { game = name; view = null; }
      await refresh();
      follow();
    } catch (e) {
      say("warn", e instanceof TypeError ? "The server could not be reached: open the link again once it is back." : e.message);
    }
  }

  const api = (path) => `/api/games/${encodeURIComponent(game)}${path}`;

  /** Read the game again (one read at a time; a read asked for meanwhile follows the one under way, and so
   * does one for entries the stream told that the read did not bring: it was answered before they were stored). */
  function refresh() {
    if (halted) return Promise.resolve();
    if (reading) { again = true; return reading; }
    reading = (async () => {
      const wanted = () => again || !view || told.events > view.events;
      let asked = false;  // the key traded again once: a second refusal is said
      try {
        let rounds = 0;
        do {
          again = false;
          const known = view ? view.events : 0;
          const data = await read(known);
          if (data === 401 && !asked) {  // the cookie refused (a restart with other links, or it is gone)
            asked = again = true;
            if (await rejoined()) continue;
            return;
          }
          if (typeof data === "number") { failed(data); return; }
          const whole = withEntries(data, known);
          if (whole) { show(whole); heard(whole.events, whole.head); } else { view = null; again = true; }  // not the record shown: read it whole
        } while (wanted() && ++rounds < ROUNDS);
        if (!wanted()) caughtUp();  // else the planned reads go on
      } finally {
        reading = null;
        keepUp();
      }
    })();
    return reading;
  }

  /** GET the game, with the entries after ``known``: its view, or the status the read failed with (0: no answer). */
  async function read(known) {
    try {
      const answer = await fetch(api(known ? `?since=${known}` : ""), { credentials: "same-origin", cache: "no-store", headers: device() });
      return answer.ok ? await answer.json() : answer.status;
    } catch (e) {
      return 0;
    }
  }

  /** A read came back: the page holds the head the server had when it answered. A stream that has not
   * opened since long (the browser waits seconds between its own tries) is opened again now. */
  function caughtUp() {
    confirmed = true;
    failures = 0;
    problem = "";
    if (stream && stream.readyState !== EventSource.OPEN && Date.now() - streamSince > REOPEN_AFTER) follow();
  }

  /** A read failed (``status`` 0: no answer): read again soon, unless the server refused this page's key or
   * what it asked (then say so: reading again would not help). */
  function failed(status) {
    confirmed = false;
    if (status >= 400 && status < 500 && status !== 408 && status !== 429) {
      halted = true;
      say("warn", status === 401 ? "this page's key has expired: open the table's link again" : `the server answered ${status}`);
      return;
    }
    failures += 1;
    problem = status ? `the server answered ${status}` : "the server could not be reached";
  }

  /** The server has ``events`` entries, the newest with ``head`` (an older count is old news). */
  function heard(events, head) {
    if (events >= told.events) told = { events, head: String(head) };
  }

  /** The server told of entry ``seq`` and the head after it (its stream, or the answer to this page's input):
   * read the game if the page does not hold it (a read under way reads on if it does not bring it). The answer
   * to this page's own input (``answered``) is followed by the stream's telling of it, with the view after it:
   * while the stream is open, the page waits STREAM_GRACE ms for that before it reads. */
  function toldOf(seq, head, answered) {
    heard(seq, head);
    if (reading || holds()) return;
    if (answered && stream && stream.readyState === EventSource.OPEN) {
      setTimeout(() => { if (!reading && !holds()) refresh(); }, STREAM_GRACE);
    } else {
      refresh();
    }
  }

  /** Draw the newest entry with the view the stream told with it (``entry.view``: the game's view, without the
   * catalog, the entries and this phone's seats, which the page holds; its table only the parts that changed
   * since the head ``after``), if it follows the entries and the head shown and no read is under way; whether
   * it did (else the page reads the game). */
  function drawn(entry) {
    const update = entry.view;
    if (!update || !view || reading || update.events !== entry.seq || view.events !== entry.seq - 1 ||
        (update.after !== null && update.after !== view.head)) return false;
    delete entry.view;
    const undo = update.undo && Object.assign({}, update.undo, { yours: update.undo.seat === null || mine(update.undo.seat) });
    const data = Object.assign({}, view, update, { entries: view.entries.concat([entry]), undo });
    delete data.after;
    data.table = keep(view.table, update.after === null ? update.table : Object.assign({}, view.table, update.table));
    show(data);
    heard(data.events, data.head);
    return true;
  }

  const PING_EVERY = 5000;  // ms between two pings on a stream (cli/live/stream.py, PING)
  const SILENT_FOR = 3 * PING_EVERY + 1000;  // ms an open stream may say nothing (no entry, no ping) before it is dead
  let silence = null;       // the timer that takes a silent stream for dead

  /** Follow the game's event stream from the entry shown on. The browser reconnects by itself after a cut
   * (sending the last entry number it saw, Last-Event-ID); a stream it gave up on, or is slow to retry, is
   * opened again when a read comes back (caughtUp), and at once when the phone wakes or comes back online.
   * An open stream that says nothing for three pings (a connection the Wi-Fi dropped without a word) is
   * closed and another opened: else it would look live while nothing reaches it. */
  function follow() {
    if (halted) return;
    if (stream) stream.close();
    confirmed = false;
    streamSince = Date.now();
    const source = stream = new EventSource(api(`/events?last=${view ? view.events : 0}`), { withCredentials: true });
    const alive = () => {
      clearTimeout(silence);
      silence = setTimeout(() => { if (stream === source && source.readyState === EventSource.OPEN) follow(); }, SILENT_FOR);
    };
    alive();
    stream.addEventListener("open", () => { alive(); wasOpen = true; confirmed = false; refresh(); keepUp(); });
    stream.addEventListener("ping", alive);
    stream.addEventListener("error", keepUp);
    if (seats) stream.addEventListener("seat", () => { alive(); refresh(); });  // a phone claimed or let go a seat
    stream.addEventListener("entry", (e) => {
      alive();
      let entry = null;
      try { entry = JSON.parse(e.data); } catch (err) { /* read the game instead */ }
      if (entry && Number.isInteger(entry.seq)) { if (!drawn(entry)) toldOf(entry.seq, entry.head); }
      else { confirmed = false; refresh(); }  // not an entry as the stream tells one: read the game instead
      keepUp();
    });
    keepUp();
  }

  function wake() {
    if (!game || document.hidden || halted) return;
    if (!stream || stream.readyState !== EventSource.OPEN) follow();
    else refresh();
  }

  /** The page holds the head the server last told. */
  function holds() {
    return Boolean(view && view.events === told.events && view.head === told.head);
  }

  /** Live: the stream is open, a read since it opened came back, and the page holds the head the server told. */
  function isLive() {
    return Boolean(stream && stream.readyState === EventSource.OPEN && confirmed && holds());
  }

  /** Say whether the page is live, let its buttons be tapped only then, and while it is not, plan the next
   * read (soon after a failed one, then every READ_EVERY ms). */
  function keepUp() {
    const live = isLive();
    document.body.dataset.live = live ? "1" : "";
    guard(live);
    showStatus(live, false);
    if (live) { clearTimeout(planned); planned = null; return; }
    if (halted || planned || reading) return;  // a read under way plans the next when it is over
    const wait = failures ? Math.min(RETRY_FIRST * 2 ** (failures - 1), READ_EVERY) : READ_EVERY;
    planned = setTimeout(() => { planned = null; refresh(); }, wait);
  }

  /** Every button that records is off while the page is not live (a tap on an old table is not sent). */
  function guard(live) {
    document.querySelectorAll("fieldset.guarded").forEach((f) => { f.disabled = !live; });
  }

  /** The status line: "live", or why not. A live page that falls behind says so after SAY_AFTER ms, so that
   * the entry it is reading (every entry, a moment each) does not blink the words. */
  function showStatus(live, now) {
    const line = el("connection");
    if (!live && !now && line.dataset.state === "live") {
      if (!sayLater) sayLater = setTimeout(() => { sayLater = null; showStatus(isLive(), true); }, SAY_AFTER);
      return;
    }
    clearTimeout(sayLater);
    sayLater = null;
    const words = live ? "live" : behind();
    if (line.textContent !== words) line.textContent = words;
    line.dataset.state = live ? "live" : "behind";
    el("status").dataset.state = line.dataset.state;
    const note = el("behind-note");
    if (note) note.hidden = live;
  }

  /** Why the page is not live, in words (the status line). */
  function behind() {
    if (halted) return "not up to date";
    if (!view || !wasOpen) return "connecting…";
    const why = failures ? ` (${problem})` : "";
    return stream && stream.readyState === EventSource.OPEN
      ? `not up to date: reading the game again…${why}` : `not up to date: reconnecting…${why}`;
  }

  /** Send an input (path "/inputs"), an undo ("/undo"), an accepted break ("/accept") or a note ("/notes") with
   * the head shown and who enters it; say what came of it. */
  async function send(path, body) {
    if (sending || !isLive()) return;
    sending = true;
    document.body.dataset.sending = "1";
    const shownHead = view.head;
    try {
      const answer = await fetch(api(path), {
        method: "POST", credentials: "same-origin",
        headers: device({ "Content-Type": "application/json" }),
        body: JSON.stringify(Object.assign(path === "/notes" ? {} : { after: shownHead }, { by: seats.by(view.due) }, body)),
      });
      const data = await answer.json().catch(() => ({}));
      if (answer.ok) {
        clearMessage();
        refusedInput = null;
        if (outcome) outcome.reset();
        // read the table it brings, not awaited: a tap on that table is another input, not lost to this one
        const stored = (data.entries || []).slice(-1)[0];
        if (stored && Number.isInteger(stored.seq)) toldOf(stored.seq, data.head, true); else refresh();
        keepUp();
      } else if (answer.status === 409) {
        const since = (data.entries || []).map((e) => e.text || e.notation);
        say("conflict", `Not stored: the record moved on while this page showed head ${short(shownHead)}` +
          (since.length ? ` — since then: ${since.join("; ")}` : "") + ". The page now shows the table as it is; look again before you tap.");
        refresh();
      } else if (answer.status === 422) {
        refusedInput = path === "/inputs" ? body.input : null;
        say("refused", `Refused, nothing stored: ${data.reason || "against the rules"} (rule ${data.rule || "?"}).`, Boolean(refusedInput));
      } else if (answer.status === 401) {
        if (await rejoined()) say("warn", "Not stored: this page joined the table again; look, then tap again.");
      } else if (answer.status === 403) {  // another phone's seat (it may have been taken over): read who holds what
        say("warn", data.error || "this page may only watch: nothing stored");
        refresh();
      } else {
        say("warn", `${data.error || `the server answered ${answer.status}`}; nothing stored.`);
      }
    } catch (e) {
      say("warn", "The server could not be reached: nothing stored. The page will catch up when it is back.");
    } finally {
      sending = false;
      document.body.dataset.sending = "";
    }
  }

  // --- messages ----------------------------------------------------------------------------

  function say(kind, words, offerAccept) {
    const box = el("message");
    box.hidden = false;
    box.dataset.kind = kind;
    box.innerHTML = `<p>${esc(words)}</p>` + (offerAccept
      ? `<form id="accept-form"><fieldset class="guarded"><label for="accept-reason">Accept it anyway, because</label>` +
        `<input id="accept-reason" required maxlength="300" autocomplete="off"><button type="submit">Accept the rule break</button></fieldset></form>`
      : "") + `<button type="button" id="dismiss">OK</button>`;
    guard(isLive());
    el("dismiss").addEventListener("click", clearMessage);
    const form = el("accept-form");
    if (form) {
      form.addEventListener("submit", (e) => {
        e.preventDefault();
        send("/accept", { input: refusedInput, reason: el("accept-reason").value });
      });
    }
  }

  function clearMessage() {
    el("message").hidden = true;
    el("message").innerHTML = "";
  }

  // --- showing the game --------------------------------------------------------------------

  function show(data) {
    const first = !view || view.game !== data.game;
    const moved = !view || view.head !== data.head;
    const before = view && !first ? view.events : 0;
    view = data;
    if (first) {
      board = coimbraBoard(data.catalog, data.players);  // cli/web/board.js
      drawer = board.table(document, true);  // lazy: a part out of view is drawn after what is in view
      document.title = `${data.game} · coimbra ${WATCHING ? "(watching)" : "live table"}`;
      el("title").textContent = `${data.game}${WATCHING ? " · watching" : ""}`;
    }
    el("head").textContent = short(data.head);
    document.body.dataset.head = data.head;
    document.body.dataset.entries = String(data.events);
    drawer.draw(data.table);
    const reseated = Boolean(seats) && seats.shown(data);
    if (!WATCHING && data.due && (data.outcome_form || mine(data.due.player))) drawer.flush();  // the board is input now
    const offering = (moved || reseated) && !WATCHING;  // the inputs shown anew: the board is marked with them, once
    if (boardInput && !offering) boardInput.mark();  // the parts drawn again are tappable again
    showDue(data);
    if (moved) {
      if (!WATCHING) outcome.reset();
      showEntries(data.entries, before);
    }
    if (moved && !WATCHING) boardInput.reset();  // a new decision: the die tapped for the last one is forgotten
    if (offering) { showInputs(data); showTurn(data); }  // a new head or seats: a search typed in stays
    const scores = el("scores");
    scores.hidden = !data.scores;
    put(scores, data.scores ? board.scoresPanel(data.scores, names(data)) : "");
  }

  /** The game read with only the entries after the ``known`` ones shown already, made whole again; and its
   * table sharing every part that did not change with the table shown (so only changed parts are drawn again). */
  function withEntries(data, known) {
    const told = data.entries;
    const follows = known && view && (told.length ? told[0].seq === known + 1 : data.events === known);
    if (known && !follows) return null;
    if (known) data.entries = view.entries.concat(told);
    if (view) data.table = keep(view.table, data.table);
    return data;
  }

  /** ``now``, sharing every part equal to ``before``'s (``before``'s own object where the whole is equal): the board
   * draws again only the parts whose objects changed (cli/web/board.js compares references), so a player's coins
   * changing draws that player's board again, not the tracks' discs nor the other boards. */
  function keep(before, now) {
    if (before === now || typeof now !== "object" || now === null || typeof before !== "object" || before === null ||
        Array.isArray(now) !== Array.isArray(before)) return before === now ? before : now;
    const keys = Object.keys(now);
    let same = keys.length === Object.keys(before).length;
    const out = Array.isArray(now) ? [] : {};
    for (const k of keys) {
      out[k] = keep(before[k], now[k]);
      if (out[k] !== before[k] || !(k in before)) same = false;
    }
    return same ? before : out;
  }

  function names(data) {
    const out = Object.create(null);
    Object.keys(data.catalog.cards).forEach((id) => { out[id] = data.catalog.cards[id].name; });
    Object.keys(data.catalog.favor_tiles).forEach((id) => { out[id] = data.catalog.favor_tiles[id].name; });
    data.table.voyages.forEach((v) => { out[v.id] = v.name; });
    data.table.monasteries.forEach((m) => { out[m.id] = m.name; });
    return out;
  }

  function showDue(data) {
    const due = data.due;
    const text = el("due-text");
    if (!due) {
      put(text, "The game is over: the final scores are below.");
      text.dataset.player = "";
      return;
    }
    const who = due.player === "table" ? "The table" : due.player;
    text.dataset.player = due.player;
    put(text, `<b>${esc(who)}</b>${mine(due.player) ? " (you)" : ""} — ${esc(due.what)}<br><span class="where">${esc(due.line)}</span>`);
  }

  /** This phone's turn or not: the title, the vibration, the screen kept awake, the controls brought into view
   * (the first tappable part of the board, else the list or the form); after the inputs are shown. */
  function showTurn(data) {
    if (WATCHING || !turn) return;
    const yours = Boolean(data.due) && mine(data.due.player);
    const tap = boardInput.first();  // the part of the board to tap on (the dice area, with the city above it)
    const controls = tap ? tap.closest(".panel") : el("outcome").hidden ? el("options") : el("outcome");
    turn.show(yours, yours ? data.due.what : "", yours && controls);
  }

  /** The entries the latest input made (an accepted break is two: the override and the move), each with what
   * it did on the table; and the latest entries, newest first. */
  function showEntries(entries, before) {
    const made = before > 0 && entries.length - before <= 4 ? entries.slice(before) : entries.slice(-1);
    el("changes-body").innerHTML = made.length ? made.map((e) =>
      `<p class="notation" data-seq="${e.seq}">${e.seq}. ${esc(e.text)}` +
      `${e.by ? ` <span class="by">entered by ${esc(e.by)}</span>` : ""}</p>` + (board.changesOf(e) || "")).join("")
      : "nothing yet";
    const more = el("more");  // none on the watchers' page
    if (more && more.open) showNotable(entries);
    showEntryList(entries, before);
  }

  /** The moves a note may be on, in the notes' form: the latest moves (not history entries), newest first. Filled
   * only while the form is open: a select filled anew lays the page out once for each of its options. */
  function showNotable(entries) {
    put(el("note-at"), entries.filter((e) => !HISTORY.has(e.type)).slice(-12).reverse().map((e) =>
      `<option value="${e.seq}">${e.seq}. ${esc(e.text)}</option>`).join(""));
  }

  /** The latest LISTED entries, newest first: the entries after ``before`` put on top of the list drawn for it
   * (the rest is as it was), or the list drawn anew. */
  function showEntryList(entries, before) {
    const list = el("entry-list");
    const item = (e) => `<li value="${e.seq}" data-seq="${e.seq}"><span class="text">${esc(e.text)}</span>` +
      `${e.by ? ` <span class="by">· ${esc(e.by)}</span>` : ""}</li>`;
    const top = list.firstElementChild;
    const fresh = entries.slice(before);
    if (before > 0 && top && Number(top.dataset.seq) === before && fresh.length <= LISTED) {
      list.insertAdjacentHTML("afterbegin", fresh.reverse().map(item).join(""));
      while (list.children.length > LISTED) list.lastElementChild.remove();
    } else {
      list.innerHTML = entries.slice(-LISTED).reverse().map(item).join("");
    }
  }

  // --- what can be entered -----------------------------------------------------------------

  function showInputs(data) {
    const legal = data.legal || {};
    const options = el("options");
    const form = el("outcome");
    const due = data.due;
    if (!due || data.outcome_form) boardInput.offer([], data.table);
    if (!due) {
      put(options, "");
      form.hidden = true;
      return;
    }
    if (data.outcome_form) {
      put(options, "");
      form.hidden = false;
      outcome.show(data.outcome_form, legal.outcome);
      return;
    }
    form.hidden = true;
    form.innerHTML = "";
    if (!mine(due.player)) {  // never a button, nor a lit part of the board, for a seat this phone does not hold
      boardInput.offer([], data.table);
      put(options, seats.waiting(data));
      return;
    }
    const listed = legal.described || [];
    boardInput.offer(listed, data.table);
    const onBoard = boardInput.first() ? `<p class="for">Tap your choice on the board below, or in this list.</p>` : "";
    const find = listed.length > FIND_FROM
      ? `<label for="option-search">Find one of the ${listed.length} options</label><input id="option-search" type="search" autocomplete="off">` : "";
    put(options, onBoard + find + coimbraOptionList(listed, boardInput.dieWords, board.placeName));  // option_list.js
  }

  function filterOptions() {
    const words = el("option-search").value.trim().toLowerCase();
    document.querySelectorAll("#options .option").forEach((b) => { b.hidden = Boolean(words) && !b.dataset.search.includes(words); });
    document.querySelectorAll("#options .option-row").forEach((row) => { row.hidden = !row.querySelector(".option:not([hidden])"); });
  }

  /** Send an option tapped on the board: true if it was stored (no message said otherwise). */
  async function choose(option) {
    await send("/inputs", { input: option.notation });
    return el("message").hidden;
  }

  // --- start -------------------------------------------------------------------------------

  function wire() {
    if (WATCHING) {
      ["act", "seat-box", "seat-prompt"].forEach((id) => { const node = el(id); if (node) node.remove(); });
      return;
    }
    seats.wire();
    el("options").addEventListener("click", (e) => seats.onTap(e));  // "This phone also plays Carla"
    boardInput = coimbraBoardInput(document, choose);  // cli/live/static/board_input.js
    turn = coimbraTurn();                              // cli/live/static/turn.js
    el("options").addEventListener("click", (e) => {
      const b = e.target.closest("button[data-input]");
      if (b) send("/inputs", { input: b.dataset.input });
    });
    el("options").addEventListener("input", (e) => { if (e.target.id === "option-search") filterOptions(); });
    outcome = coimbraOutcome(el("outcome"), el("map"), (input) => send("/inputs", { input }));  // outcome.js
    el("undo").addEventListener("click", () => {  // only this phone's seats' latest play, once the words are confirmed
      const question = seats.undoQuestion(view);
      if (question && window.confirm(question)) send("/undo", {});
    });
    el("more").addEventListener("toggle", () => { if (el("more").open && view) showNotable(view.entries); });
    el("note-form").addEventListener("submit", (e) => {
      e.preventDefault();
      const words = el("note-text").value.trim();
      const at = Number(el("note-at").value);
      if (words && at) send("/notes", { text: words, at }).then(() => { if (el("message").hidden) el("note-text").value = ""; });
    });
    el("typed-form").addEventListener("submit", (e) => {
      e.preventDefault();
      const typed = el("typed").value.trim();
      if (typed) send("/inputs", { input: typed }).then(() => { if (el("message").hidden) el("typed").value = ""; });
    });
  }

  async function start() {
    document.body.dataset.role = WATCHING ? "watchers" : "players";
    wire();
    window.addEventListener("hashchange", () => { const token = linkToken(); if (token) enter(token); });
    try {
      game = await session();
    } catch (e) {
      say("warn", e.message);
      return;
    }
    await refresh();
    follow();
    window.addEventListener("online", wake);
    window.addEventListener("offline", () => {  // it cannot know what it misses: its stream is let go, opened again online
      confirmed = false;
      if (stream) stream.close();
      keepUp();
    });
    document.addEventListener("visibilitychange", wake);
  }

  start();
})();
