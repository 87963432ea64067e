/* The table cards (/cards): every table of a club night's server, its name, its seats and the QR code of its
 * players' link, to print and put on each table. The organiser's link holds the token in its fragment (#t=...),
 * which never reaches the server: it is dropped from the address bar and kept in this tab (sessionStorage), and
 * shown as a bearer token to GET /api/tables. Names are set as text, never as markup. */
(function () {
  "use strict";

  const $ = (id) => document.getElementById(id);

  function make(tag, text, cls) {
    const node = document.createElement(tag);
    if (text !== undefined) node.textContent = text;
    if (cls) node.className = cls;
    return node;
  }

  function card(table, k) {
    const article = make("article", undefined, "card");
    const title = make("h2", table.game);
    title.id = `card-${k}`;
    article.setAttribute("aria-labelledby", title.id);
    article.append(title);
    const seats = make("ol", undefined, "seats");
    seats.setAttribute("aria-label", "Seats, first player first");
    for (const p of table.players) {
      const seat = make("li");
      const swatch = make("span", "", "swatch");
      swatch.style.background = p.color;
      swatch.setAttribute("aria-hidden", "true");
      seat.append(swatch, make("span", `${p.name} (${p.color})`));
      seats.append(seat);
    }
    article.append(seats);
    const code = make("img", undefined, "qr");
    code.src = table.players_qr;
    code.alt = `QR code of the players' link of ${table.game}`;
    article.append(code, make("p", "Players: scan the code, or open", "how"));
    article.append(make("p", table.players_url, "link"));
    return article;
  }

  async function show() {
    const given = window.coimbraOrganiserToken();
    if (!given) { $("status").textContent = "Open the organiser's link the server printed (it holds the key)."; return; }
    try {
      const answer = await fetch("/api/tables", { headers: { Authorization: `Bearer ${given}` } });
      const body = await answer.json().catch(() => ({}));
      if (!answer.ok) { $("status").textContent = body.error || `The server answered ${answer.status}.`; return; }
      $("cards").replaceChildren(...body.tables.map(card));
      $("status").textContent = body.tables.length === 1 ? "1 table." : `${body.tables.length} tables.`;
    } catch (e) {
      $("status").textContent = "The server could not be reached: open the link again once it is back.";
    }
  }

  $("print").addEventListener("click", () => window.print());
  show();
})();
