/* The drawn board as the input (the players' page, cli/live/static/live.js): the due player taps on the board.
 *
 * Each legal option names what it picks by id (the API's ``legal.described[k].pick``, with its event ``type``):
 * a die to place (tap the die in the dice area: the places it may go light up; tap one), a card in a row, a
 * favor tile, a track, a map space, a voyage (one tap each). The tappable parts are buttons (role, tabindex,
 * Enter or Space, an accessible name in words: the option's own); ids only in data-attributes. The line
 * (#pick-line) says what the tap chose before it is sent. The board is drawn by cli/web/board.js (shared with
 * the replay page, which stays a picture): this file only marks what board.js drew, after every drawing.
 *
 * coimbraBoardInput(root, choose) marks root's #dice, #city, #tracks, #map and #voyages; choose(option) sends it.
 */
function coimbraBoardInput(root, choose) {
  "use strict";

  /** Where each kind of one-pick option is on the drawn board: the part, and the element's data-attribute. */
  const ONE_TAP = {
    CardBought: ["city", "data-card", "card"],
    FavorTileTaken: ["city", "data-favor", "tile"],
    TrackChosen: ["tracks", "data-track-row", "track"],
    PilgrimStepped: ["map", "data-space", "to"],
    PilgrimPlaced: ["map", "data-space", "space"],
    VoyageInvested: ["voyages", "data-voyage", "voyage"],
  };
  const PAD = 3;       // px around a tappable part's drawing
  const LEAST = 30;    // px: the least width and height a tappable part takes (a map space is drawn smaller)
  let options = [];    // the options offered on the board now
  let dice = null;     // the dice area's dice by id ({die, color, value})
  let chosenDie = "";  // the die tapped, whose places are lit
  let sent = false;    // the line says what this phone sent (kept until its next tap), not a choice under way
  const boxes = new WeakMap();  // a drawn part's box (getBBox, before its lit area): measured once, until it is drawn anew

  const part = (name) => root.querySelector(`#${name}`);
  const line = () => document.getElementById("pick-line");
  const capital = (words) => words.charAt(0).toUpperCase() + words.slice(1);
  const words = (o) => o.about ? `${o.text} — ${o.about}` : o.text;

  /** A die of the dice area in words: "Gray die showing 4". */
  function dieWords(id) {
    const d = dice[id];
    return d ? capital(`${d.color} die showing ${d.value === null ? "no value yet" : d.value}`) : id;
  }

  function tell(text) {
    const node = line();
    if (!node) return;
    node.textContent = text;
    node.hidden = !text;
  }

  /** Offer ``described`` (the due player's options) on the board drawn from ``table``; none: nothing offered. */
  function offer(described, table) {
    options = described || [];
    dice = Object.create(null);
    ((table && table.dice_area) || []).forEach((d) => { dice[d.die] = d; });
    if (chosenDie && !options.some((o) => o.type === "DiePlaced" && o.pick.die === chosenDie)) chosenDie = "";
    mark();
    if (!options.length && !sent) tell("");
  }

  /** Forget the die tapped (a new decision is due); the line keeps what this phone sent last. */
  function reset() {
    chosenDie = "";
    if (!sent) tell("");
  }

  /** Mark again what may be tapped (board.js may have drawn parts again since). The part focused (a keyboard's
   * user on it) keeps the focus where it is still to be tapped: a read of the game is no reason to lose one's place. */
  function mark() {
    const focused = document.activeElement && document.activeElement.closest ? document.activeElement.closest(".choosable") : null;
    const die = focused && focused.isConnected ? focused.dataset.chooseDie : undefined;
    clear();
    const marks = [];  // [node, name, data, chosen, wide]: every part found first, then all measured, then all marked
    const placing = options.filter((o) => o.type === "DiePlaced");
    const byDie = Object.create(null);
    placing.forEach((o) => { (byDie[o.pick.die] = byDie[o.pick.die] || []).push(o); });
    Object.keys(byDie).forEach((die) => {
      const node = find("dice", "data-pool-die", die);
      if (node) marks.push([node, `${dieWords(die)}: ${byDie[die].length} places it may go`, { die }, die === chosenDie, false]);
    });
    (byDie[chosenDie] || []).forEach((o) => {
      const node = find("city", "data-location", o.pick.location);
      if (node) marks.push([node, words(o), { option: options.indexOf(o) }, false, true]);
    });
    options.forEach((o, k) => {
      const where = ONE_TAP[o.type];
      const node = where && find(where[0], where[1], o.pick[where[2]]);
      if (node) marks.push([node, words(o), { option: k }, false, false]);
    });
    const unmeasured = marks.find(([node]) => !boxes.has(node));
    if (unmeasured) unmeasured[0].getBoundingClientRect();  // lays the page out once: Chromium's getBBox alone gave 0×0 for a group just made
    marks.forEach(([node]) => { if (!boxes.has(node)) boxes.set(node, node.getBBox()); });  // all read before any is written
    marks.forEach((m) => tappable(...m, boxes.get(m[0])));
    const again = focused && focused.isConnected && focused.classList.contains("choosable") ? focused
      : die !== undefined ? root.querySelector(`#dice [data-choose-die="${CSS.escape(die)}"]`) : null;
    if (again && document.activeElement !== again) again.focus({ preventScroll: true });
  }

  /** The drawn element of ``part`` with ``attribute`` = ``id``, as a group (a lone shape is wrapped in one, with
   * the same attribute, so that it can hold its lit area). */
  function find(name, attribute, id) {
    const within = part(name);
    const node = within && id !== undefined ? within.querySelector(`[${attribute}="${CSS.escape(String(id))}"]`) : null;
    if (!node || node.tagName.toLowerCase() === "g") return node;
    const group = document.createElementNS("http://www.w3.org/2000/svg", "g");
    group.setAttribute(attribute, node.getAttribute(attribute));
    node.replaceWith(group);
    group.appendChild(node);
    return group;
  }

  /** Make a drawn part a button: its name in words, a lit area to tap (at least LEAST px around its drawing's
   * ``box``), what it stands for. */
  function tappable(node, name, data, chosen, wide, box) {
    const svg = node.closest("svg");
    const width = Math.max(LEAST, box.width + 2 * PAD);
    const height = Math.max(LEAST, box.height + 2 * PAD);
    const x = wide ? 0 : box.x + box.width / 2 - width / 2;
    const span = wide && svg ? svg.viewBox.baseVal.width : width;
    node.insertAdjacentHTML("afterbegin", `<rect class="hit" x="${x}" y="${box.y + box.height / 2 - height / 2}" ` +
      `width="${span}" height="${height}" rx="5"/>`);
    if (svg) svg.setAttribute("role", "group");  // a picture holds no buttons: a group of them does
    node.classList.add("choosable");
    if (chosen) node.classList.add("chosen");
    node.setAttribute("role", "button");
    node.setAttribute("tabindex", "0");
    node.setAttribute("aria-label", name);
    if (chosen) node.setAttribute("aria-pressed", "true");
    if (data.die !== undefined) node.dataset.chooseDie = data.die;
    if (data.option !== undefined) node.dataset.option = String(data.option);
  }

  function clear() {
    root.querySelectorAll(".choosable").forEach((node) => {
      node.classList.remove("choosable", "chosen");
      ["role", "tabindex", "aria-label", "aria-pressed", "data-choose-die", "data-option"].forEach((a) => node.removeAttribute(a));
    });
    root.querySelectorAll("rect.hit").forEach((r) => r.remove());
    root.querySelectorAll("svg[role='group']").forEach((svg) => svg.setAttribute("role", "img"));
  }

  /** A tap (or Enter, or Space) on the board: a die lights its places, a place or a one-pick part is sent. */
  function tapped(node) {
    if (document.body.dataset.live !== "1") {  // as the page's buttons are off while it is not up to date
      tell("Not up to date: tap again once this page has read the game.");
      return;
    }
    sent = false;
    if (node.dataset.chooseDie !== undefined) {
      chosenDie = node.dataset.chooseDie === chosenDie ? "" : node.dataset.chooseDie;
      mark();
      tell(chosenDie ? `${dieWords(chosenDie)}: tap a place for it (lit), or another die` : "");
      const lit = chosenDie && root.querySelector("#city .choosable");
      if (lit) { coimbraBring(lit.closest(".panel")); lit.focus({ preventScroll: true }); }  // after this phone's own tap
      return;
    }
    const o = options[Number(node.dataset.option)];
    if (!o) return;
    sent = true;
    tell(`Sending: ${words(o)}`);
    Promise.resolve(choose(o)).then((stored) => { tell(stored ? `Done: ${o.text}` : ""); });
  }

  function wire() {
    const table = root.querySelector("#table") || root;
    table.addEventListener("click", (e) => {
      const node = e.target.closest && e.target.closest(".choosable");
      if (node) tapped(node);
    });
    table.addEventListener("keydown", (e) => {
      const node = e.target.closest && e.target.closest(".choosable");
      if (node && (e.key === "Enter" || e.key === " ")) { e.preventDefault(); tapped(node); }
    });
  }

  wire();
  return { offer, mark, reset, dieWords, tell, first: () => root.querySelector("#table .choosable") };
}
