/* The table drawn in SVG and HTML from a board view (projections.board.board_view): the castle and city,
 * the dice, the tracks, the pilgrimage map, the voyages and each player's board; the changes an entry made;
 * the scores. Shared by the replay page (cli/web/replay.js, inlined with it) and the live table's pages
 * (cli/live/static/live.js, served beside it).
 *
 * coimbraBoard(catalog, players) takes what replay_page.catalog_lookup makes and the players
 * ([{name, color}]); its table(root) draws into root's #city, #dice, #tracks, #map, #voyages and #boards,
 * drawing again only the parts whose data changed since the view it drew before (compared by reference), and
 * none that root lacks (the evening page draws only the tracks and the map).
 * Text from the record is always escaped; maps keyed by it have no prototype.
 */
/** Any text as HTML text or an attribute value: what the record says is never read as markup. */
function coimbraEscape(value) {
  return String(value).replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]);
}

function coimbraBoard(CAT, players) {
  "use strict";

  const PALETTE = ["#c0392b", "#2471a3", "#d4ac0d", "#229954", "#7d3c98", "#ca6f1e"];
  const PLAYER_COLOR = Object.create(null);
  players.forEach((p, k) => { PLAYER_COLOR[p.name] = cssColor(p.color, PALETTE[k % PALETTE.length]); });
  const LOCATION_NAMES = { castle: "Castle", upper: "Upper city", central: "Central city", lower: "Lower city" };
  const ZONES = [["immediate", "immediate"], ["phase_c", "phase C"], ["phase_e", "phase E"], ["end_game", "end of game"], ["none", "no bonus"]];

  // --- small helpers ------------------------------------------------------------------

  const esc = coimbraEscape;

  function attrs(values) {
    return Object.keys(values).map((k) => ` ${k}="${esc(values[k] === null || values[k] === undefined ? "" : values[k])}"`).join("");
  }

  function cssColor(name, fallback) {
    return typeof name === "string" && CSS.supports("color", name) ? name : fallback;
  }

  const inkCache = Object.create(null);
  /** Dark or light text, whichever reads on this fill. */
  function inkOn(fill) {
    if (!(fill in inkCache)) {
      const ctx = document.createElement("canvas").getContext("2d");
      ctx.fillStyle = "#000";
      ctx.fillStyle = fill;
      const hex = ctx.fillStyle;
      const rgb = /^#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(hex);
      const [r, g, b] = rgb ? rgb.slice(1).map((h) => parseInt(h, 16)) : [0, 0, 0];
      inkCache[fill] = 0.299 * r + 0.587 * g + 0.114 * b > 150 ? "#1d1b18" : "#ffffff";
    }
    return inkCache[fill];
  }

  function dieFill(color) {
    return color === "token" ? "#ece7dc" : cssColor(color, "#999");
  }

  function svg(width, height, body, label) {
    return `<svg viewBox="0 0 ${width} ${height}" role="img" aria-label="${esc(label)}" xmlns="http://www.w3.org/2000/svg">${body}</svg>`;
  }

  /** A part's box in its drawing's units ("x y width height"): where the players' page lights it to be tapped
   * (board_input.js), known here without asking the browser to lay the page out. */
  function box(x, y, width, height) {
    return `${x} ${y} ${width} ${height}`;
  }

  function text(x, y, content, cls, extra) {
    return `<text x="${x}" y="${y}" class="${cls}"${extra || ""}>${esc(content)}</text>`;
  }

  function wrap(words, width) {
    const lines = [];
    let line = "";
    for (const w of String(words).split(/\s+/)) {
      if (line && (line + " " + w).length > width) { lines.push(line); line = w; } else line = line ? line + " " + w : w;
    }
    if (line) lines.push(line);
    return lines;
  }

  function cardName(id) {
    return CAT.cards[id] ? CAT.cards[id].name : id;
  }


  function playerDisc(x, y, r, name, data) {
    return `<circle cx="${x}" cy="${y}" r="${r}" fill="${esc(PLAYER_COLOR[name] || "#777")}" stroke="#000" stroke-width=".6"${attrs(data)}><title>${esc(name)}</title></circle>`;
  }


  // --- the parts of the table ---------------------------------------------------------

  function die(x, y, size, d, hook) {
    const fill = dieFill(d.color);
    const value = d.value === null ? "·" : d.value;
    const owner = d.owner ? playerDisc(x + size - 3, y + 3, 4.5, d.owner, {}) : "";
    const dash = d.color === "token" ? ' stroke-dasharray="3 2"' : "";
    const data = { [hook]: d.die, "data-value": d.value === null ? "" : d.value, "data-color": d.color, "data-owner": d.owner || "",
      "data-box": box(x, y, size, size) };
    return `<g${attrs(data)}><rect x="${x}" y="${y}" width="${size}" height="${size}" rx="5" fill="${esc(fill)}" stroke="#3a342b"${dash}/>` +
      text(x + size / 2, y + size / 2, value, "value", ` fill="${inkOn(fill)}"`) + owner +
      `<title>${esc(d.color === "token" ? "Die token" : `${d.color} die`)}${d.value === null ? "" : ` showing ${d.value}`}${d.owner ? " · " + esc(d.owner) : ""}</title></g>`;
  }

  function card(x, y, c) {
    const band = cssColor(c.category, "#999");
    const lines = wrap(c.name, 15).slice(0, 2).map((l, k) => text(x + 4, y + 22 + k * 10, l, "small")).join("");
    const crown = c.crown_token ? text(x + 70, y + 10, "♛", "small", ' data-crown-mark="1"') : "";
    return `<g${attrs({ "data-card": c.id, "data-crown": c.crown_token ? 1 : "", "data-box": box(x, y, 82, 56) })}><rect x="${x}" y="${y}" width="82" height="56" rx="4" class="cardbox"/>` +
      `<rect x="${x}" y="${y}" width="82" height="12" rx="4" fill="${esc(band)}"/>` +
      text(x + 4, y + 9, `${c.category} · ${c.influence}`, "tiny", ` fill="${inkOn(band)}"`) + crown + lines +
      text(x + 4, y + 51, `pays ${c.cost}`, "tiny") + `<title>${esc(c.name)}</title></g>`;
  }

  function favorTile(x, y, t) {
    const extra = CAT.favor_tiles[t.id] && CAT.favor_tiles[t.id].extra_die;
    return `<g${attrs({ "data-favor": t.id, "data-box": box(x, y, 82, 40) })}><rect x="${x}" y="${y}" width="82" height="40" rx="4" fill="#f6efd9" stroke="#b59b54"/>` +
      wrap(t.name, 15).slice(0, 2).map((l, k) => text(x + 4, y + 13 + k * 10, l, "small")).join("") +
      text(x + 4, y + 35, "♛".repeat(t.crowns) + (extra ? " + extra die" : ""), "tiny") + `<title>${esc(t.name)}</title></g>`;
  }

  /** Where each location's row of dice and the cards (or favor tiles) beside it lie: fixed by the locations, so
   * the dice and the cards are drawn apart (a die placed draws its row of dice again, not the cards' words). */
  function cityRows(view) {
    let y = 18;
    return Object.keys(view.locations).map((loc) => {
      const row = { loc, diceY: y, besideY: y + 38 };
      y += 38 + (loc === "castle" ? 46 : 62) + 6;
      return row;
    });
  }

  function citySize(view) {
    const rows = cityRows(view);
    const last = rows[rows.length - 1];
    return [360, last ? last.besideY + (last.loc === "castle" ? 46 : 62) + 6 : 18, "castle and city: dice placed and the cards beside each location"];
  }

  function cityDice(view) {
    return cityRows(view).map(({ loc, diceY }) => {
      const dice = view.locations[loc];
      return `<g${attrs({ "data-location": loc, "data-box": box(0, diceY + 4, 78 + Math.max(1, dice.length) * 34, 28) })}>` +
        text(0, diceY + 20, LOCATION_NAMES[loc] || loc, "label") + dice.map((d, k) => die(78 + k * 34, diceY + 4, 28, d, "data-die")).join("") + "</g>";
    }).join("");
  }

  function cityBeside(view) {
    return text(0, 12, "Castle and city", "title") + cityRows(view).map(({ loc, besideY }) => {
      const castle = loc === "castle";
      const beside = castle ? view.favor_tiles : view.character_rows[loc] || [];
      return `<g${attrs({ [castle ? "data-favor-tiles" : "data-row"]: loc })}>` +
        beside.map((c, k) => (castle ? favorTile(k * 88, besideY, c) : card(k * 88, besideY, c))).join("") +
        (beside.length ? "" : text(0, besideY + 14, castle ? "no favor tiles left" : "no cards", "label")) + "</g>";
    }).join("");
  }

  function dicePanel(view) {
    const dice = view.dice_area;
    const rolled = dice.some((d) => d.value !== null);
    let body = text(0, 12, rolled ? "Dice not drafted yet" : "Dice area (not rolled)", "title");
    dice.forEach((d, k) => { body += die((k % 10) * 35, 20 + Math.floor(k / 10) * 34, 28, d, "data-pool-die"); });
    if (!dice.length) body += text(0, 34, "every die has been drafted", "label");
    return svg(360, 24 + Math.max(1, Math.ceil(dice.length / 10)) * 34, body, "the dice area");
  }

  // The tracks and the map are drawn in layers: the board itself (cells, spaces, tiles) rarely
  // changes, the discs and pilgrims on it at most steps.
  const CELL = Math.min(18, 290 / (CAT.max_influence + 1));
  const TRACK_ROW = 44;
  const SCORE_TOP = 20 + CAT.tracks.length * TRACK_ROW;

  function trackGrid(view) {
    let body = text(0, 12, "Influence tracks", "title");
    CAT.tracks.forEach((track, t) => {
      const y = 20 + t * TRACK_ROW;
      const fill = cssColor(track, "#999");
      const tileId = view.scoring_tiles[track];
      const tile = tileId ? view.legend.scoring_tiles[tileId] : null;
      body += `<g${attrs({ "data-track-row": track, "data-box": box(0, y, 62 + (CAT.max_influence + 1) * CELL, 22) })}><rect x="0" y="${y}" width="56" height="22" rx="3" fill="${esc(fill)}"/>` +
        text(4, y + 14, track, "small", ` fill="${inkOn(fill)}"`);
      for (let k = 0; k <= CAT.max_influence; k++) {
        body += `<rect x="${62 + k * CELL}" y="${y}" width="${CELL - 1}" height="22" fill="#f4efe4" stroke="#d5cbb8"/>` +
          (k % 5 === 0 ? text(62 + k * CELL + 2, y + 30, k, "tiny") : "");
      }
      body += "</g>";
      body += text(62, y - 2, tile ? `${tile.name}: ${tile.points.join(" / ")} points by rank` : "no scoring tile yet", "tiny");
    });
    return body + text(0, SCORE_TOP + 4, "Scoring track", "title");
  }

  function trackDiscs(view) {
    return CAT.tracks.map((track, t) => {
      const y = 20 + t * TRACK_ROW;
      return `<g${attrs({ "data-track": track })}>` + view.players.map((p, i) => {
        const pos = Math.min(p.influence[track], CAT.max_influence);
        return playerDisc(62 + pos * CELL + CELL / 2 - 0.5 + (i % 2 ? 3 : -3) * (CELL > 12 ? 1 : 0.5), y + 6 + Math.floor(i / 2) * 10, 3.6,
          p.name, { "data-disc": p.name, "data-position": p.influence[track] });
      }).join("") + "</g>";
    }).join("");
  }

  function scoreTrack(view) {
    const top = Math.max(50, ...view.players.map((p) => p.points));
    const scale = 270 / (Math.ceil(top / 10) * 10);
    return view.players.map((p, i) => {
      const y = SCORE_TOP + 12 + i * 14;
      return `<g${attrs({ "data-score": p.name, "data-points": p.points })}>` + text(0, y + 9, p.name, "small") +
        `<rect x="62" y="${y + 2}" width="${Math.max(1, p.points * scale)}" height="8" fill="${esc(PLAYER_COLOR[p.name])}" opacity=".75"/>` +
        text(66 + p.points * scale, y + 10, p.points, "small") + "</g>";
    }).join("");
  }

  const MAP_SCALE = 3.4;
  const SPACE_AT = Object.create(null);
  CAT.map.spaces.forEach((s) => { SPACE_AT[s.id] = [s.x * MAP_SCALE, 14 + s.y * MAP_SCALE]; });

  function mapBoard(view) {
    const tiles = Object.create(null);
    view.monasteries.forEach((m) => { tiles[m.space] = m; });
    let body = text(0, 12, "Pilgrimage map", "title");
    for (const [a, b] of CAT.map.edges) {
      body += `<line x1="${SPACE_AT[a][0]}" y1="${SPACE_AT[a][1]}" x2="${SPACE_AT[b][0]}" y2="${SPACE_AT[b][1]}" class="edge"/>`;
    }
    for (const s of CAT.map.spaces) {
      const [x, y] = SPACE_AT[s.id];
      const m = tiles[s.id];
      if (s.kind === "start") {
        body += `<rect x="${x - 6}" y="${y - 6}" width="12" height="12" fill="#d8c9a8" stroke="#7c6a45"${attrs({ "data-space": s.id, "data-box": box(x - 6, y - 6, 12, 12) })}><title>${esc(s.name)}</title></rect>` +
          text(x, y + 15, s.name, "tiny", ' text-anchor="middle"');
      } else if (m) {
        body += `<g${attrs({ "data-space": s.id, "data-monastery": m.id, "data-marked-by": m.marked_by.join(","), "data-box": box(x - 9, y - 9, 18, 18) })}>` +
          `<circle cx="${x}" cy="${y}" r="9" fill="#efe3c6" stroke="#7c6a45"/>` + text(x, y + 17, m.name, "tiny", ' text-anchor="middle"') +
          m.marked_by.map((name, i) => playerDisc(x - 6 + i * 4, y - 1, 2.6, name, { "data-marker": name })).join("") +
          `<title>${esc(m.name)} on ${esc(s.name)}</title></g>`;
      } else {
        const r = s.kind === "monastery" ? 7 : 4.5;
        body += `<circle cx="${x}" cy="${y}" r="${r}" class="road"${attrs({ "data-space": s.id, "data-box": box(x - r, y - r, 2 * r, 2 * r) })}><title>${esc(s.name)}</title></circle>` +
          text(x, y + 12, s.name, "tiny", ' text-anchor="middle"');
      }
    }
    return body;
  }

  const SPACE_NAME = Object.create(null);
  CAT.map.spaces.forEach((s) => { SPACE_NAME[s.id] = s.name; });

  function spaceName(view, space) {
    const tile = view.monasteries.find((m) => m.space === space);
    return tile ? tile.name : SPACE_NAME[space] || space;
  }

  function mapPilgrims(view) {
    return view.players.map((p, i) => {
      if (!p.pilgrim || !SPACE_AT[p.pilgrim]) return "";
      const [x, y] = SPACE_AT[p.pilgrim];
      const dx = (i - (view.players.length - 1) / 2) * 6;
      return `<g${attrs({ "data-pilgrim": p.name, "data-at": p.pilgrim })}><path d="M${x + dx - 3.5} ${y - 2} l3.5 -9 l3.5 9 z" ` +
        `fill="${esc(PLAYER_COLOR[p.name])}" stroke="#000" stroke-width=".7"/><title>${esc(p.name)}'s pilgrim on ${esc(spaceName(view, p.pilgrim))}</title></g>`;
    }).join("");
  }

  function voyagesPanel(view) {
    let body = text(0, 12, "Voyages", "title");
    view.voyages.forEach((v, k) => {
      const x = (k % 3) * 120;
      const y = 20 + Math.floor(k / 3) * 66;
      body += `<g${attrs({ "data-voyage": v.id, "data-space": v.space, "data-box": box(x, y, 114, 60) })}><rect x="${x}" y="${y}" width="114" height="60" rx="4" fill="#e8f0f4" stroke="#7f9aa8"/>` +
        text(x + 4, y + 13, v.name, "small") + text(x + 4, y + 25, `costs ${v.cost} ${v.resource}`, "tiny") +
        v.investors.map((name, i) => playerDisc(x + 10 + i * 12, y + 44, 5, name, { "data-investor": name })).join("") +
        `<title>${esc(v.name)}</title></g>`;
    });
    if (!view.voyages.length) body += text(0, 34, "no voyages laid out yet", "label");
    return svg(360, 20 + Math.max(1, Math.ceil(view.voyages.length / 3)) * 66, body, "voyages with the players' discs");
  }

  function holding(kind, id, label) {
    return `<span${attrs({ [kind]: id })}>${esc(label)}</span>`;
  }

  function board(view, p) {
    const held = p.start_cards.concat(p.cards);
    const zones = ZONES.map(([zone, label]) => {
      const cards = held.filter((id) => (CAT.cards[id] ? CAT.cards[id].zone : "none") === zone);
      return cards.length ? `<div class="zone"><b>${esc(label)}:</b> ${cards.map((id) => holding("data-held-card", id, cardName(id) + (p.start_cards.includes(id) ? " (start)" : ""))).join(", ")}</div>` : "";
    }).join("");
    const names = (list, lookup) => list.map((id) => lookup[id] || id);
    const monasteryNames = Object.create(null);
    view.monasteries.forEach((m) => { monasteryNames[m.id] = m.name; });
    const voyageNames = Object.create(null);
    view.voyages.forEach((v) => { voyageNames[v.id] = v.name; });
    const tiles = p.favor_tiles.map((id) => {
      const t = CAT.favor_tiles[id];
      return holding("data-held-tile", id, t ? t.name + (t.extra_die ? " with the extra-die tile" : "") : id);
    });
    const list = (kind, ids, labels) => ids.length ? ids.map((id, k) => holding(kind, id, labels[k])).join(", ") : "—";
    return `<article class="board"${attrs({ "data-player": p.name })}>` +
      `<h3><span class="swatch" style="background:${esc(PLAYER_COLOR[p.name])}"></span>${esc(p.name)}` +
      `<span class="flag">${p.flag ? "flag " + p.flag : "no flag yet"}</span></h3><dl>` +
      `<dt>coins</dt><dd data-field="coins">${p.coins}</dd><dt>guards</dt><dd data-field="guards">${p.guards}</dd>` +
      `<dt>points</dt><dd data-field="points">${p.points}</dd>` +
      `<dt>influence</dt><dd>${CAT.tracks.map((t) => `${esc(t)} <span data-influence="${esc(t)}">${p.influence[t]}</span>`).join(" · ")}</dd>` +
      `<dt>pilgrim</dt><dd${attrs({ "data-field": "pilgrim", "data-space": p.pilgrim || "" })}>${esc(p.pilgrim ? spaceName(view, p.pilgrim) : "—")}</dd>` +
      `<dt>favor tiles</dt><dd>${tiles.length ? tiles.join(", ") : "—"}</dd>` +
      `<dt>crown tokens</dt><dd>${list("data-crown-token", p.crown_tokens, p.crown_tokens.map(cardName))}</dd>` +
      `<dt>crowns</dt><dd data-field="crowns">${p.crowns_collected}</dd>` +
      `<dt>monasteries</dt><dd>${list("data-held-monastery", p.monasteries, names(p.monasteries, monasteryNames))}</dd>` +
      `<dt>voyages</dt><dd>${list("data-held-voyage", p.voyages, names(p.voyages, voyageNames))}</dd>` +
      `<dt>dice on shutter</dt><dd>${list("data-shutter-die", p.dice_on_shutter, p.dice_on_shutter)}</dd>` +
      (p.income_left.length ? `<dt>income to take</dt><dd>${esc(p.income_left.join(", "))}</dd>` : "") +
      `<dt>discs in supply</dt><dd data-field="discs">${p.discs_in_supply}</dd></dl>` +
      `<h3>Cards</h3>${zones || '<div class="zone">—</div>'}</article>`;
  }

  function boardOrder(view) {
    return view.player_order.length ? view.player_order : view.players.map((p) => p.name);
  }

  /** A value of a change in words: text as it is, anything else as its JSON. */
  function said(value) {
    return typeof value === "string" || typeof value === "number" ? String(value) : JSON.stringify(value);
  }

  /** The entry's changes on the table, each with the rule that caused it and the facts that decided it
   * ({"who", "what", "from", "to", "rule", "facts"}, the consequences read model's items), when the data has them. */
  function changesOf(e) {
    if (!e.changes || !e.changes.length) return "";
    return `<h3>Its changes</h3><ul class="changes">` + e.changes.map((c) =>
      `<li${attrs({ "data-change-rule": c.rule, title: c.facts ? said(c.facts) : "" })}>${esc(c.who)}: ${esc(c.what)}` +
      `${c.from !== null && c.from !== undefined ? " from " + esc(said(c.from)) : ""}` +
      `${c.to !== null && c.to !== undefined ? " to " + esc(said(c.to)) : ""} <span class="badge history">${esc(c.rule)}</span></li>`).join("") + "</ul>";
  }

  /** The scores (``projections.scores.score_report``), each source named by ``names`` (id -> printed name). */
  function scoresPanel(s, names) {
    const players = s.players;
    const sources = players.length ? Object.keys(players[0].sources) : [];
    const cell = (p, source, value) => `<td${attrs({ "data-score-player": p.name, "data-source": source })}>${value}</td>`;
    const rows = sources.map((src) => `<tr><td>${esc(src)}</td>${players.map((p) => cell(p, src, p.sources[src])).join("")}</tr>`);
    const details = players.map((p) => `<details><summary>${esc(p.name)}: where the points came from</summary><ul>` +
      Object.keys(p.details).flatMap((kind) => Object.keys(p.details[kind]).map((src) =>
        `<li>${esc(kind)}: ${esc(names[src] || src)} — ${p.details[kind][src]}</li>`)).join("") + "</ul></details>").join("");
    return `<h2>${s.final ? "Final scores" : `Scores so far (round ${s.round}, phase ${esc(s.phase)}: not over)`}</h2>` +
      `<table><thead><tr><th scope="col">points from</th>${players.map((p) => `<th scope="col">${p.place}. ${esc(p.name)}</th>`).join("")}</tr></thead><tbody>` +
      rows.join("") + `<tr class="total"><td>total</td>${players.map((p) => cell(p, "total", p.total)).join("")}</tr>` +
      `<tr><td>coins + guards left</td>${players.map((p) => cell(p, "resources_left", p.resources_left)).join("")}</tr>` +
      `</tbody></table>${details}`;
  }

  // --- moving -------------------------------------------------------------------------

  /** The parts of the table, each with what it is drawn from: a part is drawn again only when one of
   * those changed (states share what did not change, so comparing references is enough). */
  const PARTS = [
    {
      el: "city", svg: citySize,
      layers: [{ from: (v) => [v.character_rows, v.favor_tiles], draw: cityBeside }, { from: (v) => [v.locations], draw: cityDice }],
    },
    { el: "dice", layers: [{ from: (v) => [v.dice_area], draw: dicePanel }] },
    {
      el: "tracks", svg: [360, SCORE_TOP + 12 + players.length * 14 + 4, "influence tracks with scoring tiles, and the scoring track"],
      layers: [
        { from: (v) => [v.scoring_tiles], draw: trackGrid },
        { from: (v) => v.players.map((p) => p.influence), draw: trackDiscs },
        { from: (v) => v.players.map((p) => p.points), draw: scoreTrack },
      ],
    },
    {
      el: "map", svg: [340, 14 + 100 * MAP_SCALE, "pilgrimage map with pilgrims and marked monasteries"],
      layers: [{ from: (v) => [v.monasteries], draw: mapBoard }, { from: (v) => v.players.map((p) => p.pilgrim), draw: mapPilgrims }],
    },
    { el: "voyages", layers: [{ from: (v) => [v.voyages], draw: voyagesPanel }] },
  ];

  /** Draw a part, or only its layers whose data changed since the table drawn before. */
  function drawPart(part, view, drawn) {
    if (!part.svg) {
      const layer = part.layers[0];
      if (!drawn || changed(layer.from(drawn), layer.from(view))) part.node.innerHTML = layer.draw(view);
      return;
    }
    if (!drawn) {
      const [width, height, label] = typeof part.svg === "function" ? part.svg(view) : part.svg;
      part.node.innerHTML = svg(width, height, part.layers.map((l, k) => `<g data-layer="${k}">${l.draw(view)}</g>`).join(""), label);
      return;
    }
    part.layers.forEach((l, k) => {
      if (changed(l.from(drawn), l.from(view))) part.node.querySelector(`g[data-layer="${k}"]`).innerHTML = l.draw(view);
    });
  }

  function changed(before, now) {
    return before.length !== now.length || before.some((x, k) => x !== now[k]);
  }

  /** The player boards, in flag order: only the boards of players whose holdings changed are drawn again. */
  function drawBoards(node, view, drawn) {
    const order = boardOrder(view);
    const byName = Object.create(null);
    view.players.forEach((p) => { byName[p.name] = p; });
    if (!drawn || changed(boardOrder(drawn), order)) {
      node.innerHTML = order.map((name) => board(view, byName[name])).join("");
      return;
    }
    const before = Object.create(null);
    drawn.players.forEach((p) => { before[p.name] = p; });
    order.forEach((name, k) => {
      if (before[name] !== byName[name]) node.children[k].outerHTML = board(view, byName[name]);
    });
  }

  const NEAR = "100% 0px";  // a part within a screen's height of the view is drawn as if in it
  const LATER_MS = 200;     // ms: a part out of view is drawn this long after the latest view, if none came since

  /** A drawer into root's parts (a part root lacks is not drawn); each part remembers the view it drew last.
   * ``lazy`` (the live table's pages, told an entry every few seconds on a phone): a part out of view is drawn when
   * it comes near the view, or LATER_MS after the latest view (after the page has shown what is in view); until
   * then it says it is being updated (aria-busy). ``flush()`` draws every part now (before the board is marked for
   * input). */
  function table(root, lazy) {
    const find = (id) => root.querySelector(`#${id}`);
    const parts = PARTS.map((p) => Object.assign({}, p, { node: find(p.el) })).filter((p) => p.node);
    const boards = find("boards");
    if (boards) parts.push({ node: boards, boards: true });
    parts.forEach((p) => { p.drawn = null; p.near = true; });  // near until an observer says otherwise
    let latest = null;
    let later = null;

    function drawOne(part) {
      if (!latest || part.drawn === latest) return;
      if (part.boards) drawBoards(part.node, latest, part.drawn); else drawPart(part, latest, part.drawn);
      part.drawn = latest;
      if (part.node.hasAttribute("aria-busy")) part.node.removeAttribute("aria-busy");
    }

    function flush() {
      clearTimeout(later);
      later = null;
      parts.forEach(drawOne);
    }

    if (lazy && typeof IntersectionObserver === "function") {
      const byNode = new Map(parts.map((p) => [p.node, p]));
      const watch = new IntersectionObserver((seen) => {
        seen.forEach((e) => { const part = byNode.get(e.target); part.near = e.isIntersecting; if (part.near) drawOne(part); });
      }, { rootMargin: NEAR });
      parts.forEach((p) => watch.observe(p.node));
    }

    return {
      draw(view) {
        latest = view;
        let waiting = false;
        for (const part of parts) {
          if (!lazy || part.near || !part.drawn) drawOne(part);
          else if (part.drawn !== latest) {
            waiting = true;
            if (!part.node.hasAttribute("aria-busy")) part.node.setAttribute("aria-busy", "true");
          }
        }
        clearTimeout(later);
        later = waiting ? setTimeout(flush, LATER_MS) : null;
      },
      flush,
    };
  }

  return { esc, attrs, color: (name) => PLAYER_COLOR[name], cardName, changesOf, said, scoresPanel, table,
    placeName: (loc) => LOCATION_NAMES[loc] || loc };
}
