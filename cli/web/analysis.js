/* The replay page's analysis (coimbra analyse), when the page carries one (cli/replay_page.py: page_analysis).
 *
 * A graph of every player's chance of finishing first after each entry, the rounds marked as bands, the entry
 * shown marked and each inaccuracy, mistake and blunder ticked below it (a click on the graph goes to that entry);
 * each decision of the entry list marked with its grade; the grade of the entry shown, with the winning chances it
 * lost, their 95 % interval, the best option and what it gains by source of points; and each player's accuracy,
 * mean loss and luck. Runs after replay.js, on its data.
 */
(function () {
  "use strict";

  const R = window.coimbraReplay;
  const A = R.data.analysis;
  if (!A) return;
  const esc = R.esc;
  const MARKS = { best: "★", good: "✓", inaccuracy: "?!", mistake: "?", blunder: "??" };
  const DECISIONS = Object.create(null);
  A.decisions.forEach((d) => { DECISIONS[d.seq] = d; });
  const LUCK = Object.create(null);
  A.luck.forEach((u) => { LUCK[u.seq] = u; });

  // --- the graph ----------------------------------------------------------------------------
  // Drawn in the units of the side column it sits in (about 400 px wide), so that its labels read at the size of
  // the page's small print; it scales with the column (the viewBox), and spans the page on a narrow screen.

  const W = 400;
  const H = 236;
  const TOP = 20;      // the rounds' labels above
  const BOTTOM = 196;  // 0 % here, 100 % at TOP; the grade ticks below
  const LEFT = 34;
  const RIGHT = 6;
  const x = (seq) => LEFT + (W - LEFT - RIGHT) * seq / Math.max(1, R.last);
  const y = (chance) => BOTTOM - (BOTTOM - TOP) * chance;

  function rounds() {
    // Each round a band from its first entry to the next round's, shaded one in two, labelled above ("setup": 0).
    const starts = [];
    A.curve.forEach((p, k) => {
      const before = k ? A.curve[k - 1].seq : 0;
      if (!k || p.round !== A.curve[k - 1].round) starts.push({ round: p.round, seq: before });
    });
    return starts.map((s, k) => {
      const from = x(s.seq);
      const to = k + 1 < starts.length ? x(starts[k + 1].seq) : x(R.last);
      const label = s.round ? `round ${s.round}` : "setup";
      return `<g data-round="${s.round}"><rect x="${from.toFixed(1)}" y="${TOP}" width="${Math.max(0, to - from).toFixed(1)}"` +
        ` height="${BOTTOM - TOP}" class="${k % 2 ? "band" : "band odd"}"/>` +
        `<line x1="${from.toFixed(1)}" x2="${from.toFixed(1)}" y1="${TOP - 4}" y2="${BOTTOM}" class="round-edge"/>` +
        `<text x="${((from + to) / 2).toFixed(1)}" y="${TOP - 6}" class="axis" text-anchor="middle">` +
        `${to - from > 34 ? label : s.round || "s"}</text></g>`;
    }).join("");
  }

  function curve() {
    const grid = [0, 0.25, 0.5, 0.75, 1].map((c) => `<line x1="${LEFT}" x2="${W - RIGHT}" y1="${y(c)}" y2="${y(c)}"` +
      ` class="${c === 0.5 ? "grid half" : "grid"}"/>` +
      `<text x="${LEFT - 4}" y="${y(c) + 4}" class="axis" text-anchor="end">${c * 100}%</text>`).join("");
    const lines = A.players.map((name) => {
      // At a decision the line drops straight from the best option's chances to the played one's: by its loss.
      const points = A.curve.map((p) => (p.before ? `${x(p.seq).toFixed(1)},${y(p.before[name]).toFixed(1)} ` : "") +
        `${x(p.seq).toFixed(1)},${y(p.win[name]).toFixed(1)}`).join(" ");
      return `<polyline points="${points}" fill="none" stroke="${esc(R.color(name))}" stroke-width="2.2"` +
        ` stroke-linejoin="round" data-curve-player="${esc(name)}"><title>${esc(name)}</title></polyline>`;
    }).join("");
    const ticks = A.decisions.filter((d) => ["inaccuracy", "mistake", "blunder"].includes(d.grade)).map((d) =>
      `<rect x="${(x(d.seq) - 2).toFixed(1)}" y="${BOTTOM + 6}" width="4" height="${d.grade === "blunder" ? 30 : d.grade === "mistake" ? 22 : 14}"` +
      ` class="tick-${d.grade}" data-tick-seq="${d.seq}" data-tick-grade="${d.grade}"><title>entry ${d.seq}: ${d.grade}</title></rect>`).join("");
    const label = `every player's chance of finishing first after each entry, by round: ${A.players.join(", ")}`;
    return `<svg viewBox="0 0 ${W} ${H}" role="img" aria-label="${esc(label)}" xmlns="http://www.w3.org/2000/svg">` +
      rounds() + grid + lines + ticks + `<line id="curve-at" y1="${TOP}" y2="${BOTTOM + 36}" class="at"/></svg>`;
  }

  function legend() {
    return A.players.map((name) => `<span class="swatch" style="background:${esc(R.color(name))}"></span>${esc(name)} ` +
      `<span data-win-player="${esc(name)}"></span>`).join(" · ");
  }

  // --- the grades -------------------------------------------------------------------------

  function markEntries() {
    document.querySelectorAll("#entry-list li[data-seq]").forEach((li) => {
      const d = DECISIONS[li.dataset.seq];
      if (!d) return;
      const mark = document.createElement("span");
      mark.className = `grade grade-${d.grade}`;
      mark.dataset.grade = d.grade;
      mark.title = d.grade;
      mark.textContent = MARKS[d.grade];
      li.appendChild(mark);
    });
  }

  function gradeOf(n) {
    const d = DECISIONS[n];
    if (d) {
      const [low, high] = d.interval;
      const lost = d.forced ? "the only legal option" :
        `${d.loss.toFixed(1)} percentage points of winning chances lost (95 % interval ${low.toFixed(1)} to ${high.toFixed(1)}` +
        `${d.certain ? ", certain" : ""})`;
      const gains = Object.keys(d.gains || {}).slice(0, 4).map((source) =>
        `${d.gains[source] >= 0 ? "+" : "−"}${Math.abs(d.gains[source]).toFixed(1)} ${esc(source)}`).join(", ");
      const best = d.grade !== "best" && d.best !== d.played ? `<div class="best">best: ${esc(d.best)}` +
        `${gains ? `<br><span data-gains>it gains ${gains} (expected points by source)</span>` : ""}</div>` : "";
      return `<div class="grade-line" data-grade="${d.grade}" data-seq="${d.seq}"><span class="grade grade-${d.grade}">` +
        `${MARKS[d.grade]} ${d.grade}</span> ${esc(d.player)}: ${lost}</div>${best}`;
    }
    const u = LUCK[n];
    if (u) {
      return `<div class="grade-line" data-luck-seq="${u.seq}">luck of this outcome: ` +
        Object.keys(u.luck).map((name) => `${esc(name)} ${signed(u.luck[name])} (${span(u.interval[name])})`).join(", ") +
        " percentage points (95 %)</div>";
    }
    return n ? '<div class="grade-line none">no decision or random outcome here</div>' : "";
  }

  function signed(points) { return (points > 0 ? "+" : "") + points.toFixed(1); }

  function span(interval) { return `${signed(interval[0])} to ${signed(interval[1])}`; }

  function accuracy() {
    const head = "<tr><th>player</th><th>accuracy</th><th>mean loss</th><th>?!</th><th>?</th><th>??</th>" +
      "<th>luck (95 %)</th><th>result</th><th>luck-adjusted</th></tr>";
    const rows = A.players.map((name) => {
      const s = A.summary[name];
      const cell = (field, value) => `<td data-summary-player="${esc(name)}" data-field="${field}">${value}</td>`;
      return `<tr><td>${esc(name)}</td>${cell("accuracy", s.accuracy.toFixed(1))}${cell("mean_loss", s.mean_loss.toFixed(1))}` +
        `${cell("inaccuracy", s.grades.inaccuracy)}${cell("mistake", s.grades.mistake)}${cell("blunder", s.grades.blunder)}` +
        `${cell("luck", `${signed(s.luck)} (${span(s.luck_interval)})`)}` +
        `${cell("result", s.result === null ? "–" : s.result.toFixed(0))}` +
        `${cell("luck_adjusted", s.luck_adjusted === null ? "–" : s.luck_adjusted.toFixed(1))}</tr>`;
    }).join("");
    const settings = A.key.settings;
    return `<table><thead>${head}</thead><tbody>${rows}</tbody></table>` +
      `<p class="about-analysis">Grades: ${esc(A.notes.grades)}. Accuracy: ${esc(A.notes.accuracy)}. ` +
      `${settings.playouts} playouts per option (${esc(settings.policy)}), seed ${A.key.seed}.</p>`;
  }

  // --- on each step -------------------------------------------------------------------------

  function pointAt(n) {
    let found = null;
    for (const p of A.curve) { if (p.seq <= n) found = p; else break; }
    return found;
  }

  function show(n) {
    const at = document.getElementById("curve-at");
    at.setAttribute("x1", x(n).toFixed(1));
    at.setAttribute("x2", x(n).toFixed(1));
    const p = pointAt(n);
    document.querySelectorAll("#analysis [data-win-player]").forEach((span) => {
      span.textContent = p ? `${Math.round(p.win[span.dataset.winPlayer] * 100)} %` : "";
    });
    document.getElementById("grade").innerHTML = gradeOf(n);
  }

  const section = document.getElementById("analysis");
  section.hidden = false;
  document.getElementById("curve").innerHTML = curve() + `<div class="legend">${legend()}</div>`;
  document.getElementById("accuracy").innerHTML = accuracy();
  document.querySelector("#curve svg").addEventListener("click", (e) => {
    const box = e.currentTarget.getBoundingClientRect();
    const seq = ((e.clientX - box.left) * W / box.width - LEFT) / (W - LEFT - RIGHT) * R.last;
    R.go(Math.max(0, Math.min(R.last, Math.round(seq))));
  });
  markEntries();
  R.onStep(show);
})();
