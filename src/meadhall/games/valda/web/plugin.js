"use strict";
// Valda's board in the browser: the five phases, the world map with the god areas and
// their construction sites (SVG), the Yggdrasil follower track with its safe zones, the
// dice as rolled, the cards (yours, the open ones, those a decision shows you), and every
// legal action picked by its target: a card, a god area, or a button under its group.
// Names, costs, faces and texts are the table's components (/api/tables/ID/content);
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
  let game = null;
  let ctx = null;
  const el = (tag, attrs, ...children) => MH.el(tag, attrs, ...children);
  const part = (key) => parts[key] || { key, name: key, value: "", facts: "", text: "" };
  const keysOf = (prefix) => order.filter((key) => key.startsWith(prefix));
  const hover = (key) => { const p = part(key); return [p.name, p.facts, p.text].filter(Boolean).join(": "); };
  const words = (text) => MH.fill(text, ctx.seatName);
  const colourOf = (seat) => MH.SEAT_COLOURS[seat] || "#777";

  async function load(context) {
    const data = await MH.api("GET", `/api/tables/${context.tableId}/content`);
    parts = {};
    order = [];
    for (const component of data.components || []) { parts[component.key] = component; order.push(component.key); }
    kinds = {};
    for (const card of data.cards || []) kinds[card.id] = card.kind;
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
    area.append(
      el("div", { class: "board-tools" }, el("span", { id: "status-line", class: "status" })),
      el("ol", { id: "va-phases", class: "va-phases" }),
      svgEl("svg", { id: "va-map", class: "va-map", viewBox: "-350 -310 700 620", role: "img", "aria-label": "The world map: the god areas" }),
      svgEl("svg", { id: "va-track", class: "va-track", role: "img", "aria-label": "The score track" }),
      el("div", { id: "va-dice", class: "va-dice" }),
      el("div", { id: "prompt", class: "prompt" }),
      el("div", { id: "chooser", class: "chooser", hidden: true }),
      el("div", { id: "va-actions", class: "action-groups" }),
      el("section", { class: "card-area" },
        el("div", { id: "decision-box" }, el("h4", {}, "Cards for you to choose from"), el("div", { id: "decision-cards", class: "card-row" })),
        el("div", { id: "open-box" }, el("h4", { id: "open-title" }, "Open cards"), el("div", { id: "open-cards", class: "card-row" })),
        el("h4", { id: "hand-title" }, "Your hand"), el("div", { id: "hand", class: "card-row" })),
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

  // The god areas on a ring, each a disc with its construction sites.
  function renderMap(view, actions) {
    const svg = document.getElementById("va-map");
    svg.textContent = "";
    const sites = Number(part("site").value) || 0;
    const targets = {};
    for (const action of actions) {
      const god = action.target && action.target.god;
      if (god) (targets[god] = targets[god] || []).push(action);   // its button stays too
    }
    const gods = keysOf("god:");
    gods.forEach((key, index) => {
      const id = key.slice("god:".length);
      const angle = -Math.PI / 2 + (index * 2 * Math.PI) / gods.length;
      const cx = 250 * Math.cos(angle), cy = 215 * Math.sin(angle);
      const owners = (view.sites || {})[id] || [];
      const lock = (view.locks || {})[id];
      const g = svgEl("g", { class: `god-area${(view.lent || []).includes(id) ? " lent" : ""}`, "data-god": id });
      const classes = ["area"];
      if (targets[id]) classes.push("target");
      if (lock != null) classes.push("locked");
      g.append(svgEl("circle", { cx, cy, r: 78, class: classes.join(" "), ...(lock != null ? { style: `stroke:${colourOf(lock)}`, "data-locked-by": lock } : {}) }));
      g.append(svgText(cx, cy - 40, "god-name", part(key).name));
      g.append(svgText(cx, cy - 24, "god-note", part(key).facts));
      for (let s = 0; s < Math.max(sites, owners.length); s++) {
        const sx = cx + (s - (Math.max(sites, owners.length) - 1) / 2) * 26, sy = cy + 6;
        const owner = owners[s];
        const site = svgEl("circle", { cx: sx, cy: sy, r: 10, class: owner == null ? "site free" : "site built", "data-site": s });
        if (owner != null) {
          site.setAttribute("fill", colourOf(owner));
          site.setAttribute("data-owner", owner);
          site.append(svgTitle(ctx.seatName(owner)));
        }
        g.append(site);
      }
      g.append(svgTitle(hover(key)));
      g.addEventListener("click", () => pick(targets[id] || []));
      svg.append(g);
    });
  }

  function renderTrack(view) {
    const svg = document.getElementById("va-track");
    svg.textContent = "";
    const safe = new Map(keysOf("safe:").map((key) => [Number(part(key).value), key]));
    const furthest = Math.max(0, ...safe.keys(), ...view.seats.map((info) => info.followers));
    const spaces = furthest + TRACK_AHEAD;
    svg.setAttribute("viewBox", `0 0 ${spaces * 22 + 20} 52`);
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

  function renderDice(view, actions, drawn) {
    const box = document.getElementById("va-dice");
    box.textContent = "";
    const turns = {};   // die -> the actions turning it to another face
    for (const action of actions) {
      if (action.target && action.target.die != null) (turns[action.target.die] = turns[action.target.die] || []).push(action);
    }
    (view.dice || []).forEach(([colour, face], index) => {
      const key = `die:${colour}:${face}`;
      box.append(el("span", { class: `die die-${colour}`, "data-die": index, title: hover(key) }, part(key).value));
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
    const node = el("button", attrs, el("b", {}, p.name), el("small", { class: "card-meta" }, p.facts), el("small", { class: "card-text" }, p.text));
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
    const chosen = document.getElementById("decision-cards");
    chosen.textContent = "";
    for (const id of shown) row(id, "shown", chosen);
    const open = document.getElementById("open-cards");
    open.textContent = "";
    document.getElementById("open-box").hidden = !view.open_count;
    const openTitle = document.getElementById("open-title");
    if (view.open) {
      openTitle.textContent = "Open cards";
      for (const id of view.open) row(id, "open", open);
    } else {
      openTitle.textContent = `Open cards: ${view.open_count}, hidden from you`;
    }
    const hand = document.getElementById("hand");
    hand.textContent = "";
    const mine = view.hand || [];
    document.getElementById("hand-title").textContent = view.seat == null ? "You are watching" : `Your hand (${mine.length})`;
    for (const id of mine) row(id, "hand", hand);
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
    renderDice(view, actions, drawn);
    renderCards(view, actions, drawn);
    renderActions(actions, drawn);
  }

  return { load, mount, render };
})();
