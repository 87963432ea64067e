/* The organiser's tournament panel on /club: begin a tournament from the league's people (and names typed), seat and
 * start each next round's tables, and the standings after each round. Read again whenever the organiser's page has
 * read its tables (club.js tells "coimbra:tables": an entry stored or a game finished at any table), so that the
 * standings move as each game ends. Uses club.js's requests (the organiser's token); names are set as text. */
(function () {
  "use strict";

  const { make, call } = window.coimbraClub;
  const $ = (id) => document.getElementById(id);
  const say = (text) => { $("tournament-said").textContent = text; };
  const shownPoints = (n) => (Number.isInteger(n) ? String(n) : n.toFixed(2));

  function peopleBoxes(people) {
    const box = $("tournament-people");
    const boxes = people.map((p, k) => {
      const label = make("label", undefined, "check");
      const input = make("input");
      input.type = "checkbox";
      input.name = "tournament-person";
      input.id = `tournament-person-${k}`;
      input.value = p.name;
      label.append(input, ` ${p.name}`);
      return label;
    });
    box.replaceChildren(make("legend", "Players from the league"), ...boxes);
    box.hidden = people.length === 0;
  }

  function asked() {
    const chosen = [...document.querySelectorAll("input[name=tournament-person]:checked")].map((i) => i.value);
    const typed = $("tournament-more").value.split(",").map((s) => s.trim()).filter(Boolean);
    return {
      name: $("tournament-name").value.trim(),
      players: chosen.concat(typed),
      rounds: Number($("tournament-rounds").value),
      points: $("tournament-points").value.split(",").map((s) => Number(s.trim())),
      seed: Number($("tournament-seed").value),
      ratings: $("tournament-ratings").checked ? "league" : null,
    };
  }

  async function begin(event) {
    event.preventDefault();
    $("tournament-start").disabled = true;
    try {
      const begun = await call("/api/tournaments", asked());
      say(`Began ${begun.tournament}: round 1 seated, ${Object.keys(begun.started).length} tables started.`);
      $("tournament-new").open = false;
      await read();
    } catch (e) {
      say(`Not begun: ${e.message}`);
    } finally {
      $("tournament-start").disabled = false;
    }
  }

  async function next(name) {
    try {
      const answer = await call(`/api/tournaments/${encodeURIComponent(name)}/next`, {});
      say(answer.over ? `${name} is over: every round is played.`
        : `${name}: round ${answer.round} seated, ${Object.keys(answer.started).length} tables started.`);
      await read();
    } catch (e) {
      say(`${name}: ${e.message}`);
    }
  }

  function tables(round) {
    const list = make("ol", undefined, "round-tables");
    list.setAttribute("aria-label", `Round ${round.round}'s tables`);
    for (const t of round.tables) {
      const item = make("li");
      const game = t.games.length ? `${t.games.join(", ")}, ` : "";
      item.append(make("span", `Table ${t.table} (${game}${t.state}): `, "table-state"),
        make("span", t.players.join(", ")));
      if (t.result) item.append(make("span", ` · ${t.result.map((r) => `${r.place}. ${r.name} ${r.score}`).join(", ")}`));
      list.append(item);
    }
    return list;
  }

  function standings(lines, caption) {
    const table = make("table", undefined, "standings");
    table.append(make("caption", caption));
    const head = make("tr");
    for (const h of ["Rank", "Player", "Points", "Scored", "Opponents"]) {
      const th = make("th", h);
      th.scope = "col";
      head.append(th);
    }
    table.append(head);
    for (const l of lines) {
      const row = make("tr");
      row.append(make("td", String(l.rank)), make("td", l.player), make("td", shownPoints(l.points)),
        make("td", String(l.scored)), make("td", shownPoints(l.opponents)));
      table.append(row);
    }
    return table;
  }

  function roundShown(round) {
    const part = make("div", undefined, "round");
    const finished = round.tables.filter((t) => t.state === "over").length;
    part.append(make("h4", `Round ${round.round}: ${round.over ? "over" : `${finished} of ${round.tables.length} tables finished`}`),
      tables(round));
    for (const sentence of round.explanations) part.append(make("p", sentence, "why"));
    part.append(standings(round.standings, `Standings after round ${round.round}${round.over ? "" : " (so far)"}`));
    return part;
  }

  function shown(t) {
    const item = make("article", undefined, "tournament");
    item.setAttribute("aria-labelledby", `tn-${t.tournament}`);
    const title = make("h3", t.tournament);
    title.id = `tn-${t.tournament}`;
    const seated = t.seated.length;
    item.append(title, make("p", t.over ? `${t.rounds} rounds, over` : `Round ${seated} of ${t.rounds}`, "where"));
    if (!t.over && seated < t.rounds) {
      const button = make("button", `Seat round ${seated + 1}`, "next");
      button.type = "button";
      button.setAttribute("aria-label", `Seat and start round ${seated + 1} of ${t.tournament}`);
      button.addEventListener("click", () => next(t.tournament));
      item.append(button);
    }
    const rounds = t.seated.map(roundShown);
    if (rounds.length) item.append(rounds[rounds.length - 1]);
    if (rounds.length > 1) {
      const earlier = make("details", undefined, "earlier");
      earlier.append(make("summary", "Earlier rounds"), ...rounds.slice(0, -1).reverse());
      item.append(earlier);
    }
    return item;
  }

  let reading = false;
  let drawn = "";              // the answer drawn last: the same answer is not drawn again (a details left open stays)
  async function read() {
    if (reading) return;
    reading = true;
    try {
      const listed = await call("/api/tournaments");
      const answer = JSON.stringify(listed);
      if (answer === drawn) return;
      drawn = answer;
      const open = new Set([...document.querySelectorAll("#tournaments details[open]")].map((d) => d.closest("article").id));
      const shownNow = listed.tournaments.map(shown);
      shownNow.forEach((a, k) => { a.id = `t-${k}`; if (open.has(a.id)) a.querySelector("details").open = true; });
      $("tournaments").replaceChildren(...shownNow);
    } catch (e) {
      say(e.message);
    } finally {
      reading = false;
    }
  }

  async function ready() {
    $("tournament-form").addEventListener("submit", begin);
    document.addEventListener("coimbra:tables", read);
    try { peopleBoxes((await call("/api/people")).people); } catch (e) { peopleBoxes([]); }
  }

  ready();
})();
