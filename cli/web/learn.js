/* "Learn from your mistakes", as lichess offers it: a player's mistakes and blunders one after another, as puzzles.
 *
 * Each puzzle is one decision the analysis graded mistake or blunder (projections/mistakes.py): the table as it was
 * before it, the legal options said as the table says them (printed names, never ids), and each option's winning
 * chances and grade from the analysis. The player picks one (a tap, or Enter on a focused option; ↑ ↓ move between
 * the options), is told the grade of the pick, the best option and what was played, and goes on to the next.
 *
 * coimbraLearn(root, how) fills root (a section) and runs the puzzles; how: { puzzles, show(puzzle) (draws the
 * table before the decision), leave (a function: a way back, or null), gameOf(puzzle) (which game, or "") }. On the
 * replay page (window.coimbraReplay with puzzles), the end of this file adds the mode: a player to choose, the
 * stepping and the other panels hidden while it runs. The league's page (cli/web/mistakes.js) runs it alone.
 */
function coimbraLearn(root, how) {
  "use strict";

  const esc = coimbraEscape;
  const MARKS = { best: "★", good: "✓", inaccuracy: "?!", mistake: "?", blunder: "??" };
  const percent = (chance) => `${Math.round(chance * 100)} %`;
  let list = [];
  let at = 0;

  function start(puzzles) {
    list = puzzles;
    at = 0;
    pose();
  }

  function optionItem(o, k) {
    const about = o.about && !o.words.includes(o.about) ? `<span class="about">${esc(o.about)}</span>` : "";
    return `<li><button type="button" data-option="${k}"><span class="words">${esc(o.words)}</span>${about}</button>` +
      '<span class="value"></span></li>';
  }

  function pose() {
    const p = list[at];
    how.show(p);
    const game = how.gameOf(p);
    root.innerHTML =
      `<h2 id="learn-title" tabindex="-1" data-puzzle="${at + 1}" data-puzzles="${list.length}">Learn from your mistakes: ` +
      `puzzle ${at + 1} of ${list.length}</h2>` +
      `<p class="where" data-seq="${p.seq}">${game ? `${esc(game)} · ` : ""}entry ${p.seq} · ${esc(p.where)}</p>` +
      `<p class="ask">${esc(p.player)} to decide (${esc(p.kind.replace(/-/g, " "))}), on the table as it was. ` +
      "Which option is best?</p>" +
      `<ul class="options" aria-label="${esc(p.player)}'s options">${p.options.map(optionItem).join("")}</ul>` +
      '<div class="verdict" role="status"></div>' +
      '<div class="next-row"><button type="button" class="next" hidden></button>' +
      (how.leave ? '<button type="button" class="leave">Back to the replay</button>' : "") + "</div>";
    root.querySelectorAll(".options button").forEach((b) => b.addEventListener("click", () => pick(Number(b.dataset.option))));
    root.querySelector(".next").addEventListener("click", () => { at = (at + 1) % list.length; pose(); });
    if (how.leave) root.querySelector(".leave").addEventListener("click", how.leave);
    root.querySelector("#learn-title").focus();
  }

  function verdictOf(p, mine) {
    const best = p.options.find((o) => o.best);
    const played = p.options.find((o) => o.played);
    const lost = mine.loss > 0 ? `, ${mine.loss.toFixed(1)} percentage points below the best` : "";
    const grade = (o) => `<span class="grade grade-${o.grade}">${MARKS[o.grade]} ${o.grade}</span>`;
    return `<p data-picked-grade="${mine.grade}">Your pick, ${esc(mine.words)}: ${grade(mine)} ` +
      `(${percent(mine.win)} chance of finishing first${lost}).</p>` +
      (mine === best ? "" : `<p data-best>Best: ${esc(best.words)} (${percent(best.win)}).</p>`) +
      `<p data-played>In the game, ${esc(p.player)} chose ${esc(played.words)}: ${grade(played)}.</p>`;
  }

  function pick(k) {
    const p = list[at];
    const mine = p.options[k];
    root.querySelectorAll(".options li").forEach((li, j) => {
      const o = p.options[j];
      const button = li.querySelector("button");
      button.disabled = true;
      li.className = j === k ? "picked" : "";
      li.dataset.grade = o.grade;
      const value = li.querySelector(".value");
      value.className = `value grade-${o.grade}`;
      value.textContent = `${MARKS[o.grade]} ${o.grade} · ${percent(o.win)}` +
        (o.best ? " · best" : "") + (o.played ? " · played" : "") + (j === k ? " · your pick" : "");
    });
    root.querySelector(".verdict").innerHTML = verdictOf(p, mine);
    const next = root.querySelector(".next");
    next.textContent = at + 1 < list.length ? "Next mistake" : "Start again from the first";
    next.hidden = false;
    next.focus();
  }

  /** ↑ ↓ (and ← →, Home, End) move between the options; what else the page does with those keys waits. */
  function key(e) {
    const buttons = Array.from(root.querySelectorAll(".options button:not(:disabled)"));
    const k = buttons.indexOf(document.activeElement);
    const to = { ArrowDown: k + 1, ArrowRight: k + 1, ArrowUp: k - 1, ArrowLeft: k - 1, Home: 0, End: buttons.length - 1 }[e.key];
    if (k < 0 || to === undefined) return false;
    buttons[Math.max(0, Math.min(buttons.length - 1, to))].focus();
    return true;
  }

  return { start, key };
}

(function () {
  "use strict";

  const R = window.coimbraReplay;
  if (!R || !R.data.puzzles) return;
  const esc = R.esc;
  const PUZZLES = R.data.puzzles;
  const STEPPING = ["ArrowRight", "ArrowLeft", "ArrowDown", "ArrowUp", "PageDown", "PageUp", "Home", "End"];
  const section = document.getElementById("learn");
  let back = 0;

  const learn = coimbraLearn(section, { show: (p) => R.go(p.seq - 1), leave, gameOf: () => "" });

  function chooser() {
    const counts = R.data.players.map((p) => [p.name, PUZZLES.filter((q) => q.player === p.name).length]);
    const some = counts.filter(([, n]) => n > 0);
    section.innerHTML = '<h2 id="learn-title">Learn from your mistakes</h2>' + (some.length ?
      '<p>Each mistake and blunder of a player, one after another: the table as it was, and the options to choose from.</p>' +
      '<label for="learn-player">Player</label> <select id="learn-player">' +
      some.map(([name, n]) => `<option value="${esc(name)}">${esc(name)}: ${n} ${n === 1 ? "mistake or blunder" : "mistakes and blunders"}</option>`).join("") +
      '</select> <button type="button" id="learn-start">Start</button>' :
      '<p class="none">The analysis grades no decision of this game a mistake or a blunder.</p>');
    const startButton = document.getElementById("learn-start");
    if (startButton) startButton.addEventListener("click", () => begin(document.getElementById("learn-player").value));
  }

  function begin(player) {
    back = R.at;
    document.body.classList.add("learning");
    learn.start(PUZZLES.filter((p) => p.player === player));
  }

  function leave() {
    document.body.classList.remove("learning");
    R.go(back);
    chooser();
    document.getElementById("learn-start").focus();
  }

  window.addEventListener("keydown", (e) => {
    if (!document.body.classList.contains("learning") || e.altKey || e.ctrlKey || e.metaKey) return;
    if (e.key === "Escape") leave();
    else if (!STEPPING.includes(e.key)) return;
    else learn.key(e);
    e.preventDefault();
    e.stopPropagation();  // the replay's own keys step the game: not while a puzzle's table is shown
  }, true);
  section.hidden = false;
  chooser();
})();
