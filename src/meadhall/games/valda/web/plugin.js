"use strict";
// Valda's board in the browser: the five phases, the world map (SVG: Yggdrasil in the middle,
// each god area a temple's precinct with the god's symbol, its construction sites and who built
// there, the temple's cost as resource pictures; an area with no move now previews why), the Yggdrasil follower track with its safe zones, the
// dice as rolled, the cards (yours, the open ones, those a decision shows you), and every
// legal action picked by its target: a card, a god area, or a button under its group.
// Names, costs, faces and texts are the table's components (/api/tables/ID/content), the
// pictures of gods, temples, resources, dice faces and card kinds the game's icon sprite
// (web/icons.svg, drawn by MH.icon); the god areas and seats the last move's events name are marked;
// labels, groups and the lines beside the board are the game's words, sent by the server.
// This file only draws and picks: it never reads notation and words nothing of the game.
// The page (table.js, replay.js) draws the players, the log, the prompt and the end.
window.MeadhallGames = window.MeadhallGames || {};
window.MeadhallGames.valda = (() => {
  // Spaces drawn on the track past the last safe zone (or the leader, if further).
  const TRACK_AHEAD = 10;
  let parts = {};          // component key -> {key, name, value, facts, text}, in the order sent
  let order = [];          // component keys in the order sent
  let kinds = {};          // card id -> its kind (yellow, attack, defence, weapon), for its colour
  let godCost = {};      // god id -> its temple's cost, {resource: amount} (the content pack's)
  let game = null;
  let ctx = null;
  let mapView = null;      // MH.PanZoom of the world map
  const el = (tag, attrs, ...children) => MH.el(tag, attrs, ...children);
  const part = (key) => parts[key] || { key, name: key, value: "", facts: "", text: "" };
  const keysOf = (prefix) => order.filter((key) => key.startsWith(prefix));
  const hover = (key) => { const p = part(key); return [p.name, p.facts, p.text].filter(Boolean).join(": "); };
  const words = (text) => MH.fill(text, ctx.seatName);
  // The board's own words (its headings, the map's name): the game's words for this view, by key.
  const titleOf = (key) => words(((game && game.words && game.words.titles) || {})[key] || "");
  const colourOf = (seat) => MH.SEAT_COLOURS[seat] || "#777";

  async function load(context) {
    const data = await MH.api("GET", `/api/tables/${context.tableId}/content`);
    parts = {};
    order = [];
    for (const component of data.components || []) { parts[component.key] = component; order.push(component.key); }
    kinds = {};
    for (const card of data.cards || []) kinds[card.id] = card.kind;
    godCost = {};
    for (const god of data.gods || []) godCost[god.id] = god.temple_cost;
  }

  function svgEl(tag, attrs) {
    const node = document.createElementNS("http://www.w3.org/2000/svg", tag);
    for (const [key, value] of Object.entries(attrs || {})) node.setAttribute(key, value);
    return node;
  }
  function svgText(x, y, cls, text) { const t = svgEl("text", { x, y, class: cls }); t.textContent = text; return t; }
  function svgTitle(text) { const t = svgEl("title"); t.textContent = text; return t; }

  // Layout ----------------------------------------------------------------------------------

  function mount(area, context) {
    ctx = context;
    area.textContent = "";
    const map = svgEl("svg", { id: "va-map", class: "va-map", viewBox: "-350 -310 700 620", role: "group" });   // named by the words (render)
    mapView = new MH.PanZoom(map);   // pan, pinch and zoom on a phone (common.js)
    // A god area with no move now is asked about by its god: the game's words say what it is and why (core/preview.py).
    MH.previews(map, (node) => (node.hasAttribute("data-place") ? { god: node.getAttribute("data-place") } : null));
    area.append(
      el("div", { class: "board-tools" }, ...mapView.tools(), el("span", { id: "status-line", class: "status" })),
      el("div", { id: "prompt", class: "prompt" }),   // what to do now, above the map; what to do it with just below
      el("ol", { id: "va-phases", class: "va-phases" }),
      map,
      el("div", { id: "chooser", class: "chooser", hidden: true }),
      el("div", { id: "va-actions", class: "action-groups" }),
      el("div", { id: "va-stores", class: "va-stores" }),
      el("div", { id: "va-dice", class: "va-dice", role: "group", "aria-label": part("dice").name }),
      el("section", { class: "card-area" },
        el("div", { id: "decision-box" }, el("h4", { id: "decision-title" }), el("div", { id: "decision-cards", class: "card-row" })),
        el("div", { id: "open-box" }, el("h4", { id: "open-title" }), el("div", { id: "open-cards", class: "card-row" })),
        el("h4", { id: "hand-title" }), el("div", { id: "hand", class: "card-row" })),
      // The track scrolls sideways where the screen is too narrow to read its numbers.
      el("h4", { id: "va-track-title", title: [part("track").facts, part("track").text].filter(Boolean).join(": ") }, part("track").name),
      el("div", { class: "va-track-scroll", tabindex: 0, role: "region", "aria-labelledby": "va-track-title" }, svgEl("svg", { id: "va-track", class: "va-track", role: "img", "aria-label": part("track").name })),
    );
  }

  async function send(notation) {
    document.getElementById("chooser").hidden = true;
    await ctx.send(notation);
  }

  // One action: send it; several (a god area offering more than one): choose among their labels.
  function pick(actions) {
    MH.pick(document.getElementById("chooser"), actions, ctx.seatName, send);
  }

  // The board ---------------------------------------------------------------------------------

  function renderPhases(view) {
    const list = document.getElementById("va-phases");
    list.textContent = "";
    for (const key of keysOf("phase:")) {
      list.append(el("li", { class: key === `phase:${view.phase}` ? "now" : "", "data-phase": key.slice("phase:".length),
        title: part(key).text }, part(key).name));
    }
  }

  // The world: Yggdrasil in the middle, the god areas on a ring around it, each a temple's
  // precinct: the temple drawn (roof, the god's symbol between its columns, steps), its
  // construction sites below as plinths (a built one in its builder's colour with a temple
  // on it), and the temple's cost as the resources' pictures with their numbers. Each in a band
  // of its own, with room for its words as large as a phone draws them (no smaller than 11 CSS
  // pixels: MH.PanZoom): the name on the entablature, the numbers beside their resources.
  const PLATE = { w: 150, top: -84, bottom: 96 };

  // The seven god areas of the rulebook's board, clockwise from the top: an ellipse would put the areas
  // beside the roots on the plates of their upper neighbours, so the two at the foot sit closer in and
  // lower, with a gap between every two plates (PLATE: 150 × 180). Any other number: an even ring.
  const SEVEN = [[0, -222], [200, -150], [265, 40], [105, 210], [-105, 210], [-265, 40], [-200, -150]];
  function areaCentre(index, count) {
    if (count === SEVEN.length) return SEVEN[index];
    const angle = -Math.PI / 2 + (index * 2 * Math.PI) / count;
    return [250 * Math.cos(angle), 215 * Math.sin(angle) - 4];
  }

  function tree(svg) {
    const g = svgEl("g", { class: "world-tree" });
    g.append(svgEl("path", { d: "M-10,70 C-8,30 -6,0 -4,-20 L4,-20 C6,0 8,30 10,70 Z", class: "trunk" }));
    for (const [d] of [["M-4,70 C-30,80 -60,78 -90,96"], ["M4,70 C30,80 60,78 90,96"], ["M0,70 C-4,90 -10,100 -20,118"], ["M0,70 C4,90 12,104 26,116"]]) {
      g.append(svgEl("path", { d, class: "root" }));
    }
    for (const [cx, cy, r] of [[0, -60, 46], [-42, -34, 34], [42, -34, 34], [-24, -92, 30], [26, -92, 30], [0, -20, 30]]) {
      g.append(svgEl("circle", { cx, cy, r, class: "canopy" }));
    }
    svg.append(g);
  }

  // The temple of a god area, drawn around (cx, cy): roof, entablature (its middle at cy - 31: the god's name), columns.
  function drawTemple(g, cx, cy, key) {
    const x = (dx) => cx + dx, y = (dy) => cy + dy;
    g.append(svgEl("path", { d: `M${x(-62)},${y(-46)} L${x(0)},${y(-78)} L${x(62)},${y(-46)} Z`, class: "roof" }));
    g.append(svgEl("rect", { x: x(-60), y: y(-46), width: 120, height: 30, class: "entablature" }));
    for (const dx of [-54, -40, 32, 46]) g.append(svgEl("rect", { x: x(dx), y: y(-16), width: 8, height: 42, class: "column" }));
    g.append(svgEl("rect", { x: x(-64), y: y(26), width: 128, height: 7, rx: 2, class: "steps" }));
    g.append(MH.icon("valda", key, { x: x(-19), y: y(-11), width: 38, height: 36, cls: "god-mark" }));
  }

  // A cost as the resources' pictures with their numbers, centred on (cx, y).
  function costRow(g, cx, y, cost) {
    const items = Object.entries(cost || {}).filter(([, n]) => n);
    const each = 44, left = cx - (items.length * each - 6) / 2;
    items.forEach(([resource, amount], i) => {
      const x = left + i * each;
      g.append(MH.icon("valda", `resource:${resource}`, { x, y: y - 9, width: 18, height: 18, cls: `cost-mark resource-${resource}` }));
      // A leading space, not drawn (SVG drops it): the numbers read apart from the name and each other.
      g.append(svgText(x + 30, y, "cost-number", ` ${amount}`));
    });
  }

  function renderMap(view, actions) {
    const svg = document.getElementById("va-map");
    svg.textContent = "";
    svg.setAttribute("aria-label", titleOf("map"));
    tree(svg);
    const sites = Number(part("site").value) || 0;
    const targets = {};
    for (const action of actions) {
      const god = action.target && action.target.god;
      if (god) (targets[god] = targets[god] || []).push(action);   // its button stays too
    }
    const gods = keysOf("god:");
    const lastMove = MH.touched(game.events, ["god", "building"]);   // the god areas the last move's events name
    gods.forEach((key, index) => {
      const id = key.slice("god:".length);
      const [cx, cy] = areaCentre(index, gods.length);
      const owners = (view.sites || {})[id] || [];
      const lock = (view.locks || {})[id];
      const g = svgEl("g", { class: `god-area${(view.lent || []).includes(id) ? " lent" : ""}${lastMove.has(id) ? " last-moved" : ""}`, "data-god": id });
      const classes = ["area"];
      if (lastMove.has(id)) classes.push("last-move");
      if (targets[id]) classes.push("target");
      if (lock != null) classes.push("locked");
      g.append(svgEl("rect", { x: cx - PLATE.w / 2, y: cy + PLATE.top, width: PLATE.w, height: PLATE.bottom - PLATE.top, rx: 16,
        class: classes.join(" "), ...(lock != null ? { style: `stroke:${colourOf(lock)}`, "data-locked-by": lock } : {}) }));
      drawTemple(g, cx, cy, key);
      g.append(svgText(cx, cy - 31, "god-name", part(key).name));
      const slots = Math.max(sites, owners.length);
      for (let s = 0; s < slots; s++) {
        const sx = cx + (s - (slots - 1) / 2) * 27, sy = cy + 46;
        const owner = owners[s];
        const site = svgEl("rect", { x: sx - 11, y: sy - 11, width: 22, height: 22, rx: 4, class: owner == null ? "site free" : "site built", "data-site": s });
        if (owner != null) {
          site.setAttribute("fill", colourOf(owner));
          site.setAttribute("data-owner", owner);
          site.append(svgTitle(ctx.seatName(owner)));
        }
        g.append(site);
        if (owner != null) g.append(MH.icon("valda", "site", { x: sx - 8, y: sy - 8, width: 16, height: 16, cls: "temple-mark" }));
      }
      costRow(g, cx, cy + 78, godCost[id]);
      g.append(svgTitle(hover(key)));
      g.addEventListener("click", () => { if (targets[id]) pick(targets[id]); });
      // Its name for screen readers: what it shows (the god's name, the cost's numbers), the temple's cost in the
      // components' words, then its moves.
      const named = `${MH.shownText(g)}, ${part(key).facts}`;
      if (targets[id]) {
        // A god area with moves: a keyboard target named by the god and its moves; its preview is the first move's.
        g.setAttribute("data-target", JSON.stringify({ god: id }));
        g.setAttribute("aria-label", `${named}: ${targets[id].map((a) => words(a.label)).join("; ")}`);
      } else {
        // A god area with no move now: focusable all the same; its preview says what it is and why nothing can be done there.
        g.setAttribute("data-place", id);
        g.setAttribute("aria-label", named);
        g.setAttribute("role", "group");   // a place, not a control: named by its label alone (the board may show it cut at the edge)
      }
      svg.append(g);
    });
    mapView.setExtent({ x: -350, y: -310, w: 700, h: 620 });
  }

  function renderTrack(view) {
    const svg = document.getElementById("va-track");
    svg.textContent = "";
    const safe = new Map(keysOf("safe:").map((key) => [Number(part(key).value), key]));
    const furthest = Math.max(0, ...safe.keys(), ...view.seats.map((info) => info.followers));
    const spaces = furthest + TRACK_AHEAD;
    svg.setAttribute("viewBox", `0 0 ${spaces * 22 + 20} 52`);
    svg.style.minWidth = `${spaces * 22 + 20}px`;   // one pixel per unit at least: its numbers stay readable
    for (let i = 0; i < spaces; i++) {
      const x = 10 + i * 22;
      const cell = svgEl("rect", { x, y: 4, width: 20, height: 20, rx: 3, class: `cell${safe.has(i) ? " safe" : ""}`, "data-space": i });
      if (safe.has(i)) cell.append(svgTitle(hover(safe.get(i))));
      svg.append(cell, svgText(x + 10, 18, "cell-number", String(i)));
    }
    const lines = (game.words && game.words.seats) || [];
    view.seats.forEach((info, seat) => {
      const x = 10 + info.followers * 22 + 4 + (seat % 3) * 6, y = 32 + Math.floor(seat / 3) * 9;
      const token = svgEl("circle", { cx: x, cy: y, r: 5, fill: colourOf(seat), class: "follower-token", "data-seat": seat });
      token.append(svgTitle(`${ctx.seatName(seat)}: ${lines[seat] ? words(lines[seat]) : info.followers}`));
      svg.append(token);
    });
  }

  // Each seat's stores: its resources (the view's numbers) by their pictures, named for screen
  // readers by the components' words; a seat the last move's events name is marked.
  function renderStores(view) {
    const box = document.getElementById("va-stores");
    box.textContent = "";
    const lastMove = MH.touched(game.events, ["seat", "target"]);
    view.seats.forEach((info, seat) => {
      const items = keysOf("resource:").map((key) => {
        const amount = (info.resources || {})[key.slice("resource:".length)] ?? 0;
        return el("span", { class: "va-store", "data-resource": key.slice("resource:".length), title: `${part(key).name}: ${amount}` },
          MH.icon("valda", key, { label: part(key).name }), String(amount));
      });
      box.append(el("div", { class: `va-seat-stores${lastMove.has(String(seat)) ? " last-move" : ""}`, "data-seat": seat,
        style: `--seat:${colourOf(seat)}` }, el("b", {}, ctx.seatName(seat)), ...items));
    });
  }

  function renderDice(view, actions, drawn) {
    const box = document.getElementById("va-dice");
    box.textContent = "";
    const turns = {};   // die -> the actions turning it to another face
    for (const action of actions) {
      if (action.target && action.target.die != null) (turns[action.target.die] = turns[action.target.die] || []).push(action);
    }
    // A caption says what the chips are; each die's icon is named for screen readers ("Yellow die").
    if ((view.dice || []).length) box.append(el("span", { class: "va-dice-title", title: hover("dice") }, part("dice").name));
    (view.dice || []).forEach(([colour, face], index) => {
      const key = `die:${colour}:${face}`;
      box.append(el("span", { class: `die die-${colour}`, "data-die": index, title: hover(key) },
        MH.icon("valda", key, { label: part(key).name }), part(key).value));
      if (turns[index]) {
        const faces = el("span", { class: "va-faces" });
        for (const action of turns[index]) {
          const to = `die:${colour}:${action.target.face}`;
          faces.append(el("button", { type: "button", class: `action die die-${colour}`, "data-action": action.notation,
            title: words(action.label), onclick: () => send(action.notation) }, part(to).value));
          drawn.add(action.notation);
        }
        box.append(faces);
      }
    });
  }

  // Cards -----------------------------------------------------------------------------------

  function cardButton(id, actions) {
    const key = `card:${id}`;
    const p = part(key);
    const one = actions.length === 1 ? actions[0] : null;
    const attrs = { type: "button", class: `game-card va-card kind-${kinds[id] || "card"}${actions.length ? " playable" : ""}`, "data-card": id, title: hover(key) };
    if (one) { attrs["data-action"] = one.notation; attrs.onclick = () => send(one.notation); } else attrs.disabled = !actions.length;
    const node = el("button", attrs, el("b", {}, MH.icon("valda", `kind:${kinds[id]}`, { cls: "kind-icon" }), p.name),
      el("small", { class: "card-meta" }, p.facts), el("small", { class: "card-text" }, p.text));
    if (actions.length > 1) {
      const wrap = el("div", { class: "va-card-choices" }, node);
      for (const a of actions) wrap.append(el("button", { type: "button", class: "action", "data-action": a.notation, onclick: () => send(a.notation) }, words(a.label)));
      return wrap;
    }
    return node;
  }

  function renderCards(view, actions, drawn) {
    const byPlace = { hand: {}, open: {}, shown: {} };
    for (const action of actions) {
      const t = action.target || {};
      if (t.card && byPlace[t.place]) (byPlace[t.place][t.card] = byPlace[t.place][t.card] || []).push(action);
    }
    const row = (id, place, cards) => {
      const forCard = (byPlace[place][id] || []);
      delete byPlace[place][id];   // a card held twice is played from its first copy
      for (const a of forCard) drawn.add(a.notation);
      cards.append(cardButton(id, forCard));
    };
    const decision = view.decision || {};
    const shown = Array.isArray(decision.cards) && decision.seat === view.seat && view.seat != null ? decision.cards : [];
    const box = document.getElementById("decision-box");
    box.hidden = !shown.length;
    document.getElementById("decision-title").textContent = titleOf("decision");
    const chosen = document.getElementById("decision-cards");
    chosen.textContent = "";
    for (const id of shown) row(id, "shown", chosen);
    const open = document.getElementById("open-cards");
    open.textContent = "";
    document.getElementById("open-box").hidden = !view.open_count;
    document.getElementById("open-title").textContent = titleOf("open");   // how many, while they are hidden
    for (const id of view.open || []) row(id, "open", open);
    const hand = document.getElementById("hand");
    hand.textContent = "";
    const mine = view.hand || [];
    document.getElementById("hand-title").textContent = titleOf("hand");
    for (const id of mine) row(id, "hand", hand);
    // A card of the hand with no move now: its preview says which rule keeps it (the game's words pick the action).
    // A second copy of a playable card is not one: its moves are on the first copy.
    const playable = new Set([...hand.querySelectorAll("button.va-card:not([disabled])")].map((node) => node.dataset.card));
    for (const idle of hand.querySelectorAll("button.va-card[disabled]")) {
      if (!playable.has(idle.dataset.card)) idle.setAttribute("data-target", JSON.stringify({ card: idle.dataset.card }));
    }
  }

  // Buttons: every action not picked on a card, an area or a die, under its group.
  function renderActions(actions, drawn) {
    const box = document.getElementById("va-actions");
    box.textContent = "";
    const groups = new Map();
    for (const action of actions) {
      if (drawn.has(action.notation)) continue;
      if (!groups.has(action.group)) groups.set(action.group, []);
      groups.get(action.group).push(action);
    }
    for (const [group, items] of groups) {
      box.append(el("fieldset", { class: "action-group" }, el("legend", {}, words(group)),
        ...items.map((a) => {
          const option = a.target && a.target.option ? `weapon:${a.target.option}` : null;
          const plain = a.target && Object.keys(a.target).length === 1;   // draw, done, pass, yield ...
          return el("button", { type: "button", class: "action", id: plain ? `va-${a.target.kind}` : null,
            "data-action": a.notation, title: option ? hover(option) : "", onclick: () => send(a.notation) }, words(a.label));
        })));
    }
  }

  // What the latest events did, in motion (a live update only, once: MH.motion), each where the
  // event says: rolled dice tumble to the faces drawn (the dice the event rolled are the last
  // ones of the view's), a turned die flips; followers gained or lost move the seat's token along
  // the track from where it stood and pulse with +N / −N (in the players' list too); a built
  // temple rises on its site, a mine or drill pulses the builder's stores; a resource gained pulses with +N.
  function motion(view) {
    const stores = (seat) => document.querySelector(`#va-stores .va-seat-stores[data-seat="${seat}"]`);
    for (const event of MH.motion(game, document.getElementById("game-area"))) {
      if (event.kind === "rolled") {
        const dice = document.querySelectorAll("#va-dice span.die[data-die]");
        const first = (view.dice || []).length - (event.dice || []).length;
        for (const die of dice) if (Number(die.dataset.die) >= first) MH.animate(die, "mh-roll");
      } else if (event.kind === "turned-die") {
        MH.animate(document.querySelector(`#va-dice span.die[data-die="${event.die}"]`), "mh-roll");
      } else if (event.kind === "followers" && event.change) {
        MH.animate(document.querySelector(`#va-track .follower-token[data-seat="${event.seat}"]`), "mh-advance",
          { delta: event.change, vars: { dx: `${-22 * event.change}px` } });
        MH.scored(event.seat, event.change);
      } else if (event.kind === "built") {
        const built = [...document.querySelectorAll(`#va-map g.god-area[data-god="${event.building}"] .site[data-owner="${event.seat}"]`)].pop();
        MH.animate(built || stores(event.seat), built ? "mh-build" : "mh-pulse");
      } else if (event.kind === "gained" && event.amount) {
        MH.animate(stores(event.seat) && stores(event.seat).querySelector(`.va-store[data-resource="${event.resource}"]`), "mh-pulse", { delta: event.amount });
      }
    }
  }

  function render(current, context) {
    game = current;
    ctx = context;
    const view = game.view;
    const actions = game.actions || [];
    const drawn = new Set();   // notations picked on the board (cards, areas, dice)
    document.getElementById("status-line").textContent = game.words ? words(game.words.status[0]) : "";
    document.getElementById("chooser").hidden = true;
    renderPhases(view);
    renderMap(view, actions);
    renderTrack(view);
    renderStores(view);
    renderDice(view, actions, drawn);
    renderCards(view, actions, drawn);
    renderActions(actions, drawn);
    motion(view);
    // Keyboard: the god areas with moves and the playable cards of the hand, each a roving group.
    const chooser = document.getElementById("chooser");
    // Every god area takes the focus (one with no move shows why in its preview); the Tab stop is one with moves.
    MH.roving(document.getElementById("va-map"), "g.god-area", { onEscape: () => { chooser.hidden = true; },
      prefer: "g[data-target]", keyOf: (node) => node.getAttribute("data-god"),
      onEnter: (node) => { if (!node.hasAttribute("data-target")) return; node.dispatchEvent(new MouseEvent("click", { bubbles: true }));
        const first = chooser.hidden ? null : chooser.querySelector("button"); if (first) first.focus(); } });
    MH.roving(document.getElementById("hand"), "button:not([disabled])", { onEscape: () => { chooser.hidden = true; } });
  }

  return { load, mount, render };
})();
