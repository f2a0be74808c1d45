"use strict";
// Toy Duel's board in the browser: the round's die, the runes on the table, the hand, and
// picking among the legal actions the server sends. Each action comes with its target
// ({kind: "play" | "answer" | "pass", rune}) and its label; rune names and texts come from
// the table's components (/api/tables/ID/content). Everything a player reads is the game's
// words, sent by the server: this file only draws and picks (it never reads notation and
// knows no rule: which runes may be played is which actions the server offers).
// The page (table.js, replay.js) draws the players, the log, the prompt and the end.
window.MeadhallGames = window.MeadhallGames || {};
window.MeadhallGames.toy = (() => {
  let parts = {};      // component key -> {name, value, facts, text}
  let ctx = null;
  const el = (tag, attrs, ...children) => MH.el(tag, attrs, ...children);
  const words = (text) => MH.fill(text, ctx.seatName);
  const hover = (key) => { const p = parts[key]; return p ? `${p.name}: ${p.text}` : ""; };
  const colour = (seat) => MH.SEAT_COLOURS[seat] || "#777";

  async function load(context) {
    const data = await MH.api("GET", `/api/tables/${context.tableId}/content`);
    parts = {};
    for (const component of data.components || []) parts[component.key] = component;
  }

  function mount(area, context) {
    ctx = context;
    area.textContent = "";
    area.append(
      el("div", { class: "board-tools" }, el("span", { id: "status-line", class: "status" })),
      el("div", { id: "toy-round", class: "card" },
        el("p", {}, el("b", { id: "toy-die", title: hover("die") }), " ", el("span", { id: "toy-stake" })),
        el("div", { id: "toy-table", class: "card-row" })),
      el("div", { id: "prompt", class: "prompt" }),
      el("div", { id: "hand", class: "hand" }),
      el("div", { id: "turn-actions", class: "turn-actions" }),
    );
  }

  // A rune as a tile: its value big, a line under it; coloured by the seat that played it.
  function rune(value, seat, line, attrs) {
    return el("button", { type: "button", class: "hand-tile", title: hover(String(value)),
      style: `--tile:${seat === null ? "#5b4a2f" : colour(seat)}`, ...attrs },
      el("b", {}, String(value)), el("small", {}, line));
  }

  function render(game, context) {
    ctx = context;
    const view = game.view;
    const actions = game.actions || [];
    document.getElementById("status-line").textContent = game.words ? words(game.words.status[0]) : "";
    document.getElementById("toy-die").textContent = `${parts.die ? parts.die.name : ""} ${view.die}`;
    document.getElementById("toy-stake").textContent = game.words ? words(game.words.status[1]) : "";
    // The board's own words (the names of the table and the hand): the game's, by key.
    const titles = (game.words && game.words.titles) || {};
    const table = document.getElementById("toy-table");
    table.setAttribute("aria-label", words(titles.table || ""));
    table.textContent = "";
    for (const entry of view.table) {
      table.append(rune(entry.rune, entry.seat, ctx.seatName(entry.seat),
        { disabled: true, "data-seat": entry.seat, "data-rune": entry.rune }));
    }
    // The hand: a rune is a pick when an action targets it (a lead or an answer).
    const byRune = new Map();
    for (const action of actions) if (action.target && action.target.rune !== undefined) byRune.set(action.target.rune, action);
    const hand = document.getElementById("hand");
    hand.setAttribute("aria-label", words(titles.hand || ""));
    hand.textContent = "";
    for (const value of view.hand || []) {
      const action = byRune.get(value);
      hand.append(rune(value, null, action ? words(action.label) : "", {
        class: `hand-tile${action ? " playable" : ""}`, "data-rune": value, disabled: !action,
        "data-action": action ? action.notation : null, onclick: () => action && ctx.send(action.notation),
      }));
    }
    // Keyboard: the playable runes are one Tab stop, arrow keys between them, Enter plays (common.js).
    MH.roving(hand, "button:not([disabled])");
    // The actions that target no rune (pass) are buttons with their labels.
    const buttons = document.getElementById("turn-actions");
    buttons.textContent = "";
    for (const action of actions) {
      if (action.target && action.target.rune !== undefined) continue;
      buttons.append(el("button", { type: "button", class: action.target ? action.target.kind : "action",
        "data-action": action.notation, title: words(action.group), onclick: () => ctx.send(action.notation) },
        words(action.label)));
    }
  }

  return { load, mount, render };
})();
