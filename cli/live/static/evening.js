/* The evening for watchers (/evening): the evening's standings and every table's board small, read only, updated
 * by one event stream (/api/evening/events) whatever the number of tables. The evening's link holds its token in
 * its fragment (#t=...): dropped from the address bar, kept in this tab, traded for the session cookie the stream
 * sends. Each event holds a table's board only when it moved, a catalog only once, and the standings only when they
 * were read again: the page keeps the rest.
 * Boards are drawn by the replay page's script (board.js), the tracks and the map only, each table's in a shadow
 * root of its own (the parts' ids are then its own). Names are set as text, never as markup. */
(function () {
  "use strict";

  const $ = (id) => document.getElementById(id);
  const TOKEN = window.coimbraLinkToken("coimbra.evening");
  const catalogs = Object.create(null);   // the catalogs told, by key
  const shown = new Map();                // game -> {item, drawer, players}, in the order told
  let made = 0;                           // ids given to the tables' headings

  function make(tag, text, cls) {
    const node = document.createElement(tag);
    if (text !== undefined) node.textContent = text;
    if (cls) node.className = cls;
    return node;
  }

  function say(text) {
    if ($("status").textContent !== text) $("status").textContent = text;
  }

  function standings(report) {
    const body = $("standings").tBodies[0];
    if (!report) {
      $("standings-games").textContent = "This store keeps no league: no standings.";
      body.replaceChildren();
      return;
    }
    const n = report.games;
    $("standings-games").textContent = n ? `${n} ${n === 1 ? "game" : "games"} finished` : "No game finished yet.";
    body.replaceChildren(...report.players.map((p) => {
      const row = make("tr", undefined, p.rank === 1 ? "first" : "");
      row.dataset.player = p.player;
      row.append(make("td", String(p.rank)), make("td", p.player), make("td", String(p.games)),
        make("td", p.shared_wins ? `${p.wins} (${p.shared_wins} shared)` : String(p.wins)), make("td", p.average.toFixed(1)));
      return row;
    }));
  }

  /** A table's card: its name, where its game stands, each player's points, and its board small. */
  function card(table) {
    const item = make("li", undefined, "table");
    item.dataset.game = table.game;
    const title = make("h3", table.game);
    title.id = `table-${++made}`;
    item.setAttribute("aria-labelledby", title.id);
    const host = make("div", undefined, "board");
    const root = host.attachShadow({ mode: "open" });
    root.innerHTML = '<link rel="stylesheet" href="/static/replay.css"><div id="tracks" class="panel"></div><div id="map" class="panel"></div>';
    item.append(title, make("p", "", "where"), make("ul", undefined, "points"), host);
    return { item, root, drawer: null };
  }

  function update(entry, table) {
    const { item } = entry;
    item.classList.toggle("over", table.over);
    const where = table.over ? "Game over" : (table.round ? `Round ${table.round}, phase ${table.phase}` : table.phase);
    item.querySelector(".where").textContent = table.due && !table.over ? `${where}. Due: ${table.due.line}` : where;
    const points = item.querySelector(".points");
    points.setAttribute("aria-label", `Points at ${table.game}`);
    points.replaceChildren(...table.players.map((p) => {
      const li = make("li");
      const swatch = make("span", "", "swatch");
      swatch.style.background = p.color;
      swatch.setAttribute("aria-hidden", "true");
      li.append(swatch, `${p.name} `, make("b", String(p.points)));
      return li;
    }));
    if (table.board) {
      if (!entry.drawer) entry.drawer = coimbraBoard(catalogs[table.catalog], table.players).table(entry.root);  // board.js
      entry.drawer.draw(table.board);
    }
  }

  function tables(told) {
    const games = new Set(told.map((t) => t.game));
    for (const [game, entry] of shown) {
      if (!games.has(game)) { entry.item.remove(); shown.delete(game); }
    }
    const list = $("tables");
    told.forEach((table, k) => {
      let entry = shown.get(table.game);
      if (!entry) { entry = card(table); shown.set(table.game, entry); }
      if (list.children[k] !== entry.item) list.insertBefore(entry.item, list.children[k] || null);
      update(entry, table);
    });
    if (!told.length) say("No table is being played yet: the standings and the tables show here as they start.");
  }

  function told(event) {
    const evening = JSON.parse(event.data);
    Object.assign(catalogs, evening.catalogs);
    $("title").textContent = evening.tag ? `The evening: ${evening.tag}` : "The evening";
    if ("standings" in evening) standings(evening.standings);
    tables(evening.tables);
    if (evening.tables.length) say("Live: the standings and the tables change as the games are played.");
  }

  async function begin() {
    if (!TOKEN) { say("Open the evening's link the server printed (it holds the key)."); return; }
    try {
      const joined = await fetch("/api/session", { method: "POST", headers: { Authorization: `Bearer ${TOKEN}` } });
      if (!joined.ok) { say((await joined.json().catch(() => ({}))).error || `The server answered ${joined.status}.`); return; }
    } catch (e) {
      say("The server could not be reached: open the link again once it is back.");
      return;
    }
    const stream = new EventSource("/api/evening/events");
    stream.addEventListener("evening", told);
    stream.addEventListener("error", () => say("The connection to the server was lost: trying again…"));
  }

  begin();
})();
