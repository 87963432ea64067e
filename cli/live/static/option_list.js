/* The players' page's compact list of options (cli/live/static/live.js shows it above the board, for those who
 * prefer a list to the board): never one full-width button per combination. Text from the record is escaped. */

/** The options (the API's ``legal.described``) as a compact list: one row per die (its places, or its tracks, side
 * by side, as `record`'s grid), per resource given or coins taken; the other options side by side, each a button of
 * its own words. ``dieWords(id)`` says a die of the dice area, ``placeName(location)`` a place. */
function coimbraOptionList(listed, dieWords, placeName) {
  "use strict";
  const esc = coimbraEscape;  // cli/web/board.js
  const rows = [];
  const byKey = new Map();
  listed.forEach((o) => {
    const key = rowKey(o);
    if (!byKey.has(key)) { byKey.set(key, []); rows.push(key); }
    byKey.get(key).push(o);
  });
  return `<div class="option-list">` + rows.map((key) => {
    const group = byKey.get(key);
    const label = rowLabel(group[0]);
    return `<div class="option-row" role="group"${label ? ` aria-label="${esc(label)}"` : ""}>` +
      (label ? `<span class="row-label" aria-hidden="true">${esc(label)}</span>` : "") +
      group.map((o) => optionButton(o, label)).join("") + "</div>";
  }).join("") + "</div>";

  /** The row an option goes in: its die's, its resource's, its coins', else its kind's. */
  function rowKey(o) {
    const p = o.pick || {};
    if (o.type === "DiePlaced" || o.type === "IncomeActivated") return `${o.type} ${p.die}`;
    if (o.type === "PointsExchanged") return `${o.type} ${p.give}`;
    if (o.type === "AlternativeTaken") return `${o.type} ${p.coins}`;
    return o.type || "";
  }

  /** A row's words (its die, the resource given, the coins taken); none for a row of options of one kind. */
  function rowLabel(o) {
    const p = o.pick || {};
    if (o.type === "DiePlaced") return dieWords(p.die);
    if (o.type === "IncomeActivated") return `Income from ${p.die.replace(/-\d+$/, "")} die`;
    if (o.type === "PointsExchanged") return `Give ${p.give}`;
    if (o.type === "AlternativeTaken") return `Take ${p.coins} coin${p.coins === 1 ? "" : "s"} and`;
    return "";
  }

  /** An option's button: in a labelled row its short words (a place, a track, a count), else its text; its
   * whole words (what it does) for a screen reader, the search box and a long press. */
  function optionButton(o, inRow) {
    const p = o.pick || {};
    const short = !inRow ? o.text
      : o.type === "DiePlaced" ? placeName(p.location)
        : o.type === "IncomeActivated" ? p.track
          : o.type === "PointsExchanged" ? `${p.times}×`
            : o.type === "AlternativeTaken" ? `${p.guards} guard${p.guards === 1 ? "" : "s"}` : o.text;
    const whole = o.about ? `${o.text} — ${o.about}` : o.text;
    return `<button type="button" class="option" data-input="${esc(o.notation)}" title="${esc(whole)}" ` +
      `data-search="${esc(`${short} ${o.text} ${o.about}`.toLowerCase())}"><span class="label">${esc(short)}</span>` +
      `<span class="${inRow ? "sr" : "about"}">${esc(inRow ? `: ${whole}` : o.about)}</span></button>`;
  }
}
