/* The replay page's script (coimbra export --format html).
 *
 * Reads the game embedded by cli/replay_page.py (format "coimbra-replay", version 1):
 * state 0's board view whole, every later state as its change from the one before,
 * rebuilt here once with the unchanged parts shared, so a step only draws the parts
 * of the table whose data changed (the drawing is cli/web/board.js's). Everything shown comes from the data; nothing is
 * fetched. Text from the record (names, notes) is always escaped, and the maps keyed by it have
 * no prototype (a player may be called "constructor").
 */
(function () {
  "use strict";

  const DATA = JSON.parse(document.getElementById("coimbra-data").textContent);
  const ENTRIES = DATA.entries;
  const LAST = ENTRIES.length;
  const CAT = DATA.catalog;
  const STATES = rebuild(DATA.states);
  const SECTIONS = DATA.sections;
  const PHASE_STARTS = SECTIONS.map((s) => s.start);
  const ROUND_STARTS = SECTIONS.filter((s) => s.new_round).map((s) => s.start);
  const BOARD = coimbraBoard(CAT, DATA.players);  // cli/web/board.js, inlined before this script
  const { esc, attrs, changesOf } = BOARD;
  const TABLE = BOARD.table(document);

  let at = -1;

  // --- the data -----------------------------------------------------------------------

  /** base with change applied: [v] replaces, {} changes parts (indices for a list), [] removes a key. */
  function apply(base, change) {
    if (Array.isArray(change)) return change[0];
    const out = Array.isArray(base) ? base.slice() : Object.assign({}, base);
    for (const key of Object.keys(change)) {
      const part = change[key];
      const index = Array.isArray(out) ? Number(key) : key;
      if (Array.isArray(part) && part.length === 0) delete out[index];
      else out[index] = apply(out[index], part);
    }
    return out;
  }

  function rebuild(list) {
    const out = [list[0]];
    for (let k = 1; k < list.length; k++) out.push(apply(out[k - 1], list[k]));
    return out;
  }

  /** The printed name of any component the last table shows, else the id (or words) as they are. */
  const NAMES = (() => {
    const out = Object.create(null);
    const last = STATES[STATES.length - 1];
    Object.keys(CAT.cards).forEach((id) => { out[id] = CAT.cards[id].name; });
    Object.keys(CAT.favor_tiles).forEach((id) => { out[id] = CAT.favor_tiles[id].name; });
    last.voyages.forEach((v) => { out[v.id] = v.name; });
    last.monasteries.forEach((m) => { out[m.id] = m.name; });
    return out;
  })();

  function entryLink(seq) {
    return `<a class="entry-link" data-go="${seq}">entry ${seq}</a>`;
  }

  // --- the entry --------------------------------------------------------------------------

  function sectionAt(n) {
    let found = SECTIONS[0];
    for (const s of SECTIONS) if (s.start <= n) found = s;
    return found;
  }

  function marksOf(e) {
    const out = [];
    if (e.kind === "correction") out.push(`<li class="mark-warn">a correction: the next entry replaces what ${entryLink(e.target)} said</li>`);
    if (e.kind === "retraction") out.push(`<li class="mark-warn">withdraws ${entryLink(e.target)} from the line of play</li>`);
    if (e.kind === "override") out.push(`<li class="mark-warn">the next entry breaks rule <b>${esc(e.rule)}</b>, and the table accepted it: ${esc(e.reason)}</li>`);
    if (e.kind === "note") out.push(`<li class="mark-note">✎ a note on ${entryLink(e.target)}</li>`);
    if (e.kind === "bookmark") out.push(`<li class="mark-bookmark">★ a bookmark on ${entryLink(e.target)}</li>`);
    if (e.replaces) out.push(`<li class="mark-warn">replaces what ${entryLink(e.replaces)} said</li>`);
    if (e.accepted) out.push(`<li class="mark-warn">⚠ accepted against rule <b>${esc(e.accepted.rule)}</b>: ${esc(e.accepted.reason)}</li>`);
    (e.corrected_by || []).forEach((s) => out.push(`<li class="mark-warn">corrected: ${entryLink(s)} says what it should have said</li>`));
    (e.withdrawn_by || []).forEach((s) => out.push(`<li class="mark-warn">withdrawn by ${entryLink(s)}</li>`));
    (e.notes || []).forEach((m) => out.push(`<li class="mark-note">✎ note (${entryLink(m.by)}): ${esc(m.text)}</li>`));
    (e.bookmarks || []).forEach((m) => out.push(`<li class="mark-bookmark">★ bookmark (${entryLink(m.by)}): ${esc(m.label)}</li>`));
    return out;
  }


  /** The round and phase of a table: ``round 1 · phase B: …`` (setup, start choices and the game's end stand alone). */
  function whereOf(view) {
    return view.phase === "setup" || view.phase === "start" || view.phase === "over" ? view.phase_name : `round ${view.round} · ${view.phase_name}`;
  }

  /** Entry n (table n is shown): its header names the round and phase it was played in (table n - 1's, as the move
   * list heads it, and the replayer); an entry that ends a phase says, below it, which phase the table enters. */
  function currentPanel(n, view) {
    const played = STATES[Math.max(n - 1, 0)];
    const pending = view.pending ? `<div class="where" data-pending="${esc(view.pending.actor)}">next: ${esc(view.pending.actor)} — ${esc(view.pending.kind.replace(/_/g, " "))}</div>` : "";
    const head = `<div class="where"${attrs({ "data-at": n, "data-round": played.round, "data-phase": played.phase })}>entry ${n} of ${LAST} · ${esc(whereOf(played))}</div>`;
    if (n === 0) return head + `<div class="notation">before the first entry</div>` + pending;
    const e = ENTRIES[n - 1];
    const marks = marksOf(e);
    const enters = whereOf(view) === whereOf(played) ? "" :
      `<div class="where"${attrs({ "data-enters": view.phase, "data-round": view.round })}>→ the table enters ${esc(whereOf(view))}</div>`;
    return head + `<div class="notation"${attrs({ "data-seq": e.seq })}>${esc(e.said)}</div>` +
      `<div class="about">${esc(e.words)}</div>` + enters +
      (e.names.length ? `<div class="names">${esc(e.names.join(" · "))}</div>` : "") +
      (marks.length ? `<ul>${marks.join("")}</ul>` : "") + changesOf(e) + pending;
  }

  function badges(e) {
    const out = [];
    if ((e.notes || []).length) out.push('<span class="badge note" title="noted">✎</span>');
    if ((e.bookmarks || []).length) out.push('<span class="badge bookmark" title="bookmarked">★</span>');
    if (e.corrected_by) out.push('<span class="badge history">corrected</span>');
    if (e.replaces) out.push(`<span class="badge history">replaces ${e.replaces}</span>`);
    if (e.withdrawn_by) out.push('<span class="badge gone">withdrawn</span>');
    if (e.accepted) out.push(`<span class="badge warn">⚠ ${esc(e.accepted.rule)}</span>`);
    return out.join("");
  }

  /** An entry of the list as a button that goes there: only the current one is in the tab order (go), the arrow keys move on. */
  function goButton(content) {
    return `<button type="button" class="go" tabindex="-1">${content}</button>`;
  }

  function entryList() {
    const items = [`<li data-seq="0">${goButton(`<span class="seq">0.</span><span class="text">before the first entry</span>`)}</li>`];
    const heads = Object.create(null);
    SECTIONS.forEach((s) => { (heads[s.start + 1] = heads[s.start + 1] || []).push(s.title); });
    ENTRIES.forEach((e) => {
      (heads[e.seq] || []).forEach((title) => items.push(`<li class="heading">${esc(title)}</li>`));
      const cls = `kind-${e.kind}${e.withdrawn_by ? " withdrawn" : ""}`;
      items.push(`<li${attrs({ "data-seq": e.seq, class: cls })}>${goButton(`<span class="seq">${e.seq}.</span><span class="text">${esc(e.said)}</span>${badges(e)}`)}</li>`);
    });
    return items.join("");
  }


  function footer() {
    const id = DATA.identity;
    return `record head <code data-head>${esc(id.head)}</code> · ${id.entries} entries · log schema ${id.schema} · ` +
      `ruleset <code data-ruleset>${esc(id.ruleset)}</code> · catalog <code data-catalog>${esc(id.catalog.id)}</code> ` +
      `(${esc(id.catalog.title)}, sha256 <code>${esc(id.catalog.sha256)}</code>) · written by coimbra: the states shown are the rules engine's own, ` +
      "folded once from the record; verify the record with <code>coimbra verify</code>.";
  }


  const el = (id) => document.getElementById(id);
  const list = el("entry-list");
  const ITEMS = [];
  const STEPPED = [];  // what else the page shows of an entry (analysis.js): called with n after each step

  function go(n) {
    n = Math.max(0, Math.min(LAST, Math.round(Number(n)) || 0));
    if (n === at) return;
    const view = STATES[n];
    TABLE.draw(view);
    el("current").innerHTML = currentPanel(n, view);
    el("scores").hidden = n !== LAST;
    const focused = document.activeElement;
    const old = list.querySelector("li.current");
    if (old) {
      old.classList.remove("current");
      old.firstElementChild.tabIndex = -1;
      old.firstElementChild.removeAttribute("aria-current");
    }
    const item = ITEMS[n];
    const link = item.firstElementChild;
    item.classList.add("current");
    link.tabIndex = 0;
    link.setAttribute("aria-current", "step");
    if (focused && list.contains(focused)) link.focus({ preventScroll: true });  // the list keeps the focus as it steps
    el("slider").value = n;
    el("slider").setAttribute("aria-valuetext", `entry ${n} of ${LAST}`);
    el("jump").value = String(sectionAt(n).start);
    el("first").disabled = el("prev").disabled = n === 0;
    el("last").disabled = el("next").disabled = n === LAST;
    el("prev-phase").disabled = previous(PHASE_STARTS, n) === null;
    el("next-phase").disabled = following(PHASE_STARTS, n) === null;
    el("prev-round").disabled = previous(ROUND_STARTS, n) === null;
    el("next-round").disabled = following(ROUND_STARTS, n) === null;
    if (focused && focused.disabled) el("slider").focus();  // not the page: the slider says where the game is
    at = n;
    STEPPED.forEach((show) => show(n));
    scrollTo(item);  // last: the one layout of the step, after every change is made
    if (location.hash !== `#entry=${n}`) {
      try { history.replaceState(null, "", `#entry=${n}`); } catch (e) { /* a page without history (sandboxed viewer) */ }
    }
  }

  /** The entry list scrolled so that the current entry shows, a third down, if it did not. */
  function scrollTo(item) {
    const top = item.offsetTop - list.offsetTop;
    if (top < list.scrollTop || top > list.scrollTop + list.clientHeight - item.offsetHeight) list.scrollTop = top - list.clientHeight / 3;
  }

  function following(starts, n) {
    for (const s of starts) if (s > n) return s;
    return null;
  }

  function previous(starts, n) {
    let found = null;
    for (const s of starts) if (s < n) found = s;
    return found;
  }

  function step(to) {
    if (to !== null) go(to);
  }

  function fromHash() {
    const m = /^#entry=(\d+)$/.exec(location.hash);
    return m ? Number(m[1]) : null;
  }

  function start() {
    document.title = `${DATA.game} · coimbra replay`;
    el("title").textContent = DATA.game;
    el("players").innerHTML = DATA.players.map((p) => `<span class="swatch" style="background:${esc(BOARD.color(p.name))}"></span>${esc(p.name)}`).join(" · ");
    el("identity").innerHTML = footer();
    el("scores").innerHTML = BOARD.scoresPanel(DATA.scores, NAMES);
    list.innerHTML = entryList();
    list.querySelectorAll("li[data-seq]").forEach((li) => { ITEMS[Number(li.dataset.seq)] = li; });
    el("slider").max = LAST;
    el("jump").innerHTML = SECTIONS.map((s) => `<option value="${s.start}">${esc(s.title)}</option>`).join("");
    const actions = {
      first: () => 0, last: () => LAST, prev: () => (at > 0 ? at - 1 : null), next: () => (at < LAST ? at + 1 : null),
      "prev-phase": () => previous(PHASE_STARTS, at), "next-phase": () => following(PHASE_STARTS, at),
      "prev-round": () => previous(ROUND_STARTS, at), "next-round": () => following(ROUND_STARTS, at),
    };
    Object.keys(actions).forEach((id) => el(id).addEventListener("click", () => step(actions[id]())));
    el("slider").addEventListener("input", (e) => go(e.target.value));
    el("jump").addEventListener("change", (e) => go(e.target.value));
    list.addEventListener("click", (e) => {
      const li = e.target.closest("li[data-seq]");
      if (li) go(li.dataset.seq);
    });
    document.addEventListener("click", (e) => {
      const link = e.target.closest("[data-go]");
      if (link) go(link.dataset.go);
    });
    const keys = {
      ArrowRight: "next", ArrowLeft: "prev", ArrowDown: "next-phase", ArrowUp: "prev-phase",
      PageDown: "next-round", PageUp: "prev-round", Home: "first", End: "last",
    };
    const inList = { ArrowDown: "next", ArrowUp: "prev" };  // in the entry list, ↑ ↓ step as in any list
    document.addEventListener("keydown", (e) => {
      const action = (list.contains(e.target) && inList[e.key]) || keys[e.key];
      if (!action || e.altKey || e.ctrlKey || e.metaKey || /^(INPUT|SELECT|TEXTAREA)$/.test(e.target.tagName)) return;
      e.preventDefault();
      step(actions[action]());
    });
    window.addEventListener("hashchange", () => { const n = fromHash(); if (n !== null) go(n); });
    const asked = fromHash();
    go(asked === null ? 0 : asked);
  }

  window.coimbraReplay = {
    go, get at() { return at; }, last: LAST, state: (n) => STATES[n], entries: ENTRIES, data: DATA,
    color: (name) => BOARD.color(name) || "#777", esc, onStep: (show) => { STEPPED.push(show); show(at); },
  };
  start();
})();

