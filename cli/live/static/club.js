/* The organiser's page (/club): start a table, every table at a glance (read again whenever the organiser's event
 * stream tells of a change at any table, and every 15 s for the times shown), and put a table away. The organiser's link holds the token in its fragment (#t=...): dropped from the address bar and kept
 * in this tab (sessionStorage, which the table cards' page of this tab reads too), and shown as a bearer token to
 * the organiser's routes (/api/tables, /api/people). Names are set as text, never as markup. */
(function () {
  "use strict";

  const EVERY = 15000;         // ms between two reads of the tables when nothing changed (for the times shown)
  const WAITED = 10 * 60;      // seconds without an entry after which a table in progress is marked
  const COLORS = ["red", "blue", "yellow", "green"];
  const $ = (id) => document.getElementById(id);
  let people = [];             // [{name, aliases}], the league's

  const TOKEN = window.coimbraOrganiserToken();

  function make(tag, text, cls) {
    const node = document.createElement(tag);
    if (text !== undefined) node.textContent = text;
    if (cls) node.className = cls;
    return node;
  }

  async function call(path, body) {
    const init = { headers: { Authorization: `Bearer ${TOKEN}` } };
    if (body !== undefined) {
      init.method = "POST";
      init.headers["Content-Type"] = "application/json";
      init.body = JSON.stringify(body);
    }
    const answer = await fetch(path, init);
    const data = await answer.json().catch(() => ({}));
    if (!answer.ok) throw new Error(data.error || `the server answered ${answer.status}`);
    return data;
  }

  function seatRows() {
    const rows = $("seat-rows");
    for (let k = 0; k < 4; k++) {
      const row = make("div", undefined, "seat-row");
      const name = make("input");
      name.id = `player-${k}`;
      name.setAttribute("list", "people");
      name.autocomplete = "off";
      const label = make("label", k < 2 ? `Player ${k + 1}` : `Player ${k + 1} (optional)`);
      label.htmlFor = name.id;
      const color = make("select");
      color.id = `color-${k}`;
      for (const c of COLORS) color.append(new Option(c, c, false, c === COLORS[k]));
      const colorLabel = make("label", "colour", "sr");
      colorLabel.htmlFor = color.id;
      row.append(label, name, colorLabel, color);
      rows.append(row);
    }
  }

  /** A typed name as the league knows its person: an alias (any case) is its person's name. */
  function person(typed) {
    const folded = typed.trim().toLowerCase();
    for (const p of people) {
      if (p.name.toLowerCase() === folded || p.aliases.some((a) => a.toLowerCase() === folded)) return p.name;
    }
    return typed.trim();
  }

  async function start(event) {
    event.preventDefault();
    const players = [];
    for (let k = 0; k < 4; k++) {
      const name = $(`player-${k}`).value.trim();
      if (name) players.push({ name: person(name), color: $(`color-${k}`).value });
    }
    const seating = document.querySelector("input[name=seating]:checked").value;
    $("start-button").disabled = true;
    try {
      const table = await call("/api/tables", { players, seating });
      $("start-said").textContent = `Started ${table.game}: ${table.players.map((p) => p.name).join(", ")}.`;
      for (let k = 0; k < 4; k++) $(`player-${k}`).value = "";
      await read();
    } catch (e) {
      $("start-said").textContent = `Not started: ${e.message}`;
    } finally {
      $("start-button").disabled = false;
    }
  }

  function ago(seconds) {
    if (seconds < 60) return "less than a minute ago";
    const minutes = Math.floor(seconds / 60);
    return minutes < 120 ? `${minutes} min ago` : `${Math.floor(minutes / 60)} h ago`;
  }

  function row(table) {
    const item = make("li", undefined, "table");
    const title = make("h3", table.game);
    const where = table.over ? "game over" : (table.round ? `round ${table.round}, phase ${table.phase}` : table.phase);
    item.append(title, make("p", where, "where"));
    if (table.due) item.append(make("p", `Due: ${table.due.line}`, "due"));
    const scores = make("ul", undefined, "scores");
    scores.setAttribute("aria-label", `Points so far at ${table.game}`);
    for (const p of table.players) scores.append(make("li", `${p.name} (${p.color}): ${p.points} points`));
    item.append(scores);
    if (table.last_at) {
      const waited = (Date.now() - Date.parse(table.last_at)) / 1000;
      const last = make("p", `Last entry ${ago(waited)} (${table.entries} entries)`, "last");
      if (!table.over && waited > WAITED) {
        item.classList.add("waiting");
        last.textContent = `Waiting: no entry for ${Math.floor(waited / 60)} min (${table.entries} entries)`;
      }
      item.append(last);
    } else {
      item.append(make("p", table.entries ? `${table.entries} entries, none with its time` : "No entry yet", "last"));
    }
    const watch = make("a", `Watch ${table.game}`, "watch");
    watch.href = table.watchers_url;
    watch.target = "_blank";
    watch.rel = "noopener noreferrer";
    item.append(make("p", undefined, "links"));
    item.lastChild.append(watch);
    const done = make("button", table.over ? "Put away" : "Archive", "done");
    done.type = "button";
    done.setAttribute("aria-label", `${table.over ? "Put away" : "Archive"} ${table.game}`);
    done.addEventListener("click", () => putAway(table));
    item.append(done);
    return item;
  }

  async function putAway(table) {
    const archive = !table.over;
    if (archive && !window.confirm(`Archive ${table.game}? It is left out of the games and the league, and no longer served.`)) return;
    try {
      await call(`/api/tables/${encodeURIComponent(table.game)}/done`, { archive });
      await read();
    } catch (e) {
      $("status").textContent = `${table.game}: ${e.message}`;
    }
  }

  let reading = null;          // the read under way
  let again = false;           // a change was told while it was under way

  /** Read the tables again: one read at a time, and one more after it if a change was told meanwhile. */
  async function read() {
    if (reading) { again = true; return reading; }
    reading = readTables();
    const done = await reading;
    reading = null;
    if (again) { again = false; return read(); }
    return done;
  }

  /** Follow the organiser's event stream (its session cookie first): every change at any table reads them again. */
  async function follow() {
    try {
      const joined = await fetch("/api/session", { method: "POST", headers: { Authorization: `Bearer ${TOKEN}` } });
      if (!joined.ok) return;
    } catch (e) { return; }
    const stream = new EventSource("/api/tables/events");
    stream.addEventListener("tables", () => read());
  }

  async function readTables() {
    try {
      const listed = await call("/api/tables");
      $("tag-line").textContent = listed.tag ? `Every table started here is tagged ${listed.tag} (league --season ${listed.tag}).` : "";
      $("tables").replaceChildren(...listed.tables.map(row));
      const n = listed.tables.length;
      $("status").textContent = `${n} ${n === 1 ? "table" : "tables"}, read at ${new Date().toLocaleTimeString()}.`;
      return true;
    } catch (e) {
      $("status").textContent = e instanceof TypeError ? "The server could not be reached: trying again." : e.message;
      return e instanceof TypeError;  // unreached: read again later; refused: say why and stop
    }
  }

  async function begin() {
    seatRows();
    $("start-form").addEventListener("submit", start);
    if (!TOKEN) { $("status").textContent = "Open the organiser's link the server printed (it holds the key)."; return; }
    if (!(await read())) return;
    try {
      people = (await call("/api/people")).people;
      $("people").replaceChildren(...people.map((p) => new Option(p.aliases.length ? `also ${p.aliases.join(", ")}` : "", p.name)));
    } catch (e) { /* no league: names are typed */ }
    follow();
    setInterval(read, EVERY);
  }

  begin();
})();
