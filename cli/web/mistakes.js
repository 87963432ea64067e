/* The page of `coimbra league mistakes` (cli/mistakes_page.py, format "coimbra-mistakes", version 1): a person's
 * mistakes and blunders from every analysed game of theirs, as the puzzles of cli/web/learn.js, one after another,
 * on the replay page's template (cli/web/replay.html) without its stepping.
 * Each puzzle carries the board view of the table before its decision, drawn by cli/web/board.js with its own game's
 * players and catalog. Everything shown comes from the data; nothing is fetched; text from the records is escaped.
 */
(function () {
  "use strict";

  const DATA = JSON.parse(document.getElementById("coimbra-data").textContent);
  const esc = coimbraEscape;
  const BOARDS = DATA.games.map((g) => coimbraBoard(DATA.catalogs[g.catalog], g.players));
  let drawer = null;
  let drawn = -1;

  /** The table before the puzzle's decision; a drawer of its own game's (one remembers what it drew last). */
  function show(p) {
    if (p.game !== drawn) {
      drawer = BOARDS[p.game].table(document);
      drawn = p.game;
    }
    drawer.draw(p.before);
  }

  const section = document.getElementById("learn");
  document.body.classList.add("learning");  // the replay page's template: its stepping and panels stay hidden
  section.hidden = false;
  const games = DATA.games.length;
  const n = DATA.puzzles.length;
  document.getElementById("title").textContent = `${DATA.player}: learn from your mistakes`;
  document.getElementById("players").textContent = `${n} ${n === 1 ? "mistake or blunder" : "mistakes and blunders"} ` +
    `from ${games} analysed game${games === 1 ? "" : "s"}` +
    (DATA.not_analysed.length ? `; not analysed yet: ${DATA.not_analysed.join(", ")} (coimbra analyse GAME)` : "");
  document.getElementById("identity").innerHTML = "written by coimbra league mistakes: the grades are those of each " +
    "game's kept analysis (coimbra analyse). Games: " +
    DATA.games.map((g) => `${esc(g.game)} (record head <code>${esc(g.head)}</code>)`).join(", ") + ".";
  const learn = coimbraLearn(section, { show, leave: null, gameOf: (p) => DATA.games[p.game].game });
  window.addEventListener("keydown", (e) => { if (!e.altKey && !e.ctrlKey && !e.metaKey && learn.key(e)) e.preventDefault(); });
  learn.start(DATA.puzzles);
})();
