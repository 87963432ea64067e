/* The table's outcome as a form a tap per part (loaded by live.html before live.js, which calls it).
 *
 * The server says what the table enters now as a form (``outcome_form`` of GET /api/games/{name}:
 * projections/outcome_form.py): slots, what may go in each by printed name, and how the picks are written
 * back into the notation ``record`` reads. A roll is a row per die colour in the order the board and
 * ``record`` list the dice, its value buttons in the dice's colour: a colour's values are tapped in any
 * order, each goes to the colour's next die (dice + 1 taps with Record). A deal, a draw or a seating is a
 * compact grid of what the rules allow, a tap a card, each into the next place left. A monastery space
 * may also be chosen on the drawn map (its space lights up while it is being filled).
 *
 *   const form = coimbraOutcome(formElement, mapElement, (input) => send(input));
 *   form.show(spec, words)  // draw the spec (words: legal.outcome, what the table enters, or null)
 *   form.reset()            // forget what was picked (a new head)
 */
(function () {
  "use strict";

  const esc = coimbraEscape;  // cli/web/board.js

  function coimbraOutcome(form, map, record) {
    let spec = null;
    let words = null;
    let picks = [];     // a list of ids per slot
    let slotAt = 0;     // the slot a picked item goes into
    let rolled = {};    // a roll: the values tapped per colour, in the order tapped

    const kindWords = () => spec.kind.replace(/-/g, " ");

    function reset() {
      picks = [];
      slotAt = 0;
      rolled = {};
    }

    function show(next, said) {
      spec = next;
      words = said;
      while (picks.length < spec.slots.length) picks.push([]);
      if (spec.colors) fillDice();
      const full = spec.slots.every((s, k) => picks[k].length === s.size);
      const heading = `<p class="for">The table enters ${esc(kindWords())}${words ? `: ${esc(words.description)}` : ""}.</p>`;
      const body = spec.colors ? spec.colors.map(colorRow).join("") : slotsOf();
      form.innerHTML = heading + `<div class="slots">${body}</div>` +
        `<div class="form-buttons"><button type="submit" class="record" ${full ? "" : "disabled"}>Record ${esc(kindWords())}</button>` +
        `<button type="button" class="clear">Clear</button></div>`;
      form.dataset.verb = spec.verb;
      lightMap();
    }

    // --- a roll: the values of each colour ------------------------------------------------

    /** Each colour's values, tapped in any order, go to its dice in the slots' order. */
    function fillDice() {
      const slotOf = Object.create(null);
      spec.slots.forEach((s, k) => { slotOf[s.key] = k; });
      spec.colors.forEach((c) => {
        const values = rolled[c.color] || [];
        c.dice.forEach((die, j) => { picks[slotOf[die]] = j < values.length ? [values[j]] : []; });
      });
    }

    function colorRow(c) {
      const values = rolled[c.color] || [];
      const left = c.dice.length - values.length;
      const fill = CSS.supports("color", c.color) ? ` style="--die: ${c.color}"` : "";
      const many = c.dice.length === 1 ? "die" : "dice";
      const chips = values.map((v, j) => `<button type="button" class="chip" data-color="${esc(c.color)}" data-remove="${j}" ` +
        `aria-label="remove ${esc(c.color)} ${esc(v)}">${esc(v)} ×</button>`).join("");
      const faces = spec.pools.values.map((item) => `<button type="button" class="value die-face" data-color="${esc(c.color)}" ` +
        `data-value="${esc(item.id)}" aria-label="${esc(c.color)} ${esc(item.name)}"${fill} ${left ? "" : "disabled"}>` +
        `<span class="face">${esc(item.name)}</span></button>`).join("");
      return `<fieldset class="slot die-slot" data-color="${esc(c.color)}"><legend>${esc(c.color)}: ${c.dice.length} ${many} ·` +
        ` <span class="room">${left ? `${left} to enter` : "done"}</span></legend>${chips}<span class="faces">${faces}</span></fieldset>`;
    }

    // --- a deal or a draw: items into places -----------------------------------------------

    function slotsOf() {
      const taken = new Set(picks.flat());
      const nameOf = Object.create(null);
      Object.keys(spec.pools).forEach((pool) => spec.pools[pool].forEach((item) => { nameOf[item.id] = item.name; }));
      const open = (k) => k >= 0 && k < spec.slots.length && picks[k].length < spec.slots[k].size;
      if (!open(slotAt)) slotAt = spec.slots.findIndex((s, k) => open(k));
      return spec.slots.map((s, k) => {
        const chips = picks[k].map((id, j) => `<button type="button" class="chip" data-slot="${k}" data-remove="${j}" ` +
          `aria-label="remove ${esc(nameOf[id] || id)}">${esc(nameOf[id] || id)} ×</button>`).join("");
        const room = s.size - picks[k].length;
        return `<div class="slot${k === slotAt ? " current" : ""}" data-slot="${k}" data-key="${esc(s.key || "")}">` +
          `<button type="button" class="slot-pick" data-choose="${k}" aria-pressed="${k === slotAt}"><span class="slot-label">${esc(s.label)}</span> ` +
          `<span class="room">${room ? `${room} to pick` : "full"}</span></button>${chips}</div>` + (k === slotAt ? poolOf(s, taken) : "");
      }).join("");
    }

    /** What the current slot may take (what the rules allow, less what is picked), a tap each. */
    function poolOf(slot, taken) {
      const items = spec.pools[slot.pool].filter((item) => !taken.has(item.id));
      return `<div class="pool" role="group" aria-label="${esc(`for ${slot.label}`)}">` + items.map((item) =>
        `<button type="button" class="pick" data-id="${esc(item.id)}">${esc(item.name)}</button>`).join("") + "</div>";
    }

    /** The monastery space being filled, lit on the drawn map. */
    function lightMap() {
      if (!map) return;
      map.querySelectorAll("[data-picking]").forEach((node) => node.removeAttribute("data-picking"));
      const slot = spec && !spec.colors && spec.slots[slotAt];
      if (!slot || !slot.key) return;
      map.querySelectorAll(`[data-space="${CSS.escape(slot.key)}"]`).forEach((node) => node.setAttribute("data-picking", "1"));
    }

    function input() {
      const parts = spec.slots.map((s, k) => (s.key ? `${s.key}=` : "") + picks[k].join(spec.sep));
      return `table: ${spec.verb} ${parts.join(" ")}`;
    }

    function onClick(e) {
      const t = spec && e.target.closest("button");
      if (!t) return;
      const color = t.dataset.color;
      if (color !== undefined && t.dataset.value !== undefined) {
        rolled[color] = (rolled[color] || []).concat([t.dataset.value]);
      } else if (color !== undefined && t.dataset.remove !== undefined) {
        rolled[color].splice(Number(t.dataset.remove), 1);
      } else if (t.dataset.id !== undefined && slotAt >= 0) {
        picks[slotAt].push(t.dataset.id);
      } else if (t.dataset.remove !== undefined) {
        picks[Number(t.dataset.slot)].splice(Number(t.dataset.remove), 1);
        slotAt = Number(t.dataset.slot);
      } else if (t.dataset.choose !== undefined) {
        slotAt = Number(t.dataset.choose);
      } else if (t.classList.contains("clear")) {
        reset();
      } else {
        return;
      }
      show(spec, words);
    }

    /** A tap on a map space the form has a place for chooses that place. */
    function onMap(e) {
      const node = spec && !spec.colors && !form.hidden && e.target.closest("[data-space]");
      const k = node ? spec.slots.findIndex((s) => s.key === node.dataset.space) : -1;
      if (k < 0) return;
      slotAt = k;
      show(spec, words);
    }

    form.addEventListener("click", onClick);
    form.addEventListener("submit", (e) => {
      e.preventDefault();
      if (spec) record(input());
    });
    if (map) map.addEventListener("click", onMap);
    return { show, reset };
  }

  window.coimbraOutcome = coimbraOutcome;
})();
