"use strict";
// Völuspá in the browser: the board as SVG (pan, zoom, coordinates), actions in notation,
// and the game log in words. The tile table comes from /api/games/voluspa/content.
const Voluspa = (() => {
  const CELL = 60;
  const COLORS = {
    OD: "#d4a017", TH: "#3b6fb6", TR: "#4d7a3a", DR: "#b23a2e", FE: "#6f6f6f", SK: "#7fb3d5",
    VA: "#c77fb0", LO: "#7b4fa0", HE: "#1c1c1c", HM: "#2a9d8f", JO: "#8d5b3a", SS: "#1d5d6b",
    DW: "#d2772b", FR: "#d96c8a", RA: "#34495e", NI: "#7d1f2a", LB: "#e6c229",
  };
  const DIRS = { N: "north", E: "east", S: "south", W: "west" };
  let TILES = {};

  async function loadContent() {
    if (Object.keys(TILES).length) return TILES;
    const data = await MH.api("GET", "/api/games/voluspa/content");
    for (const tile of data.tiles) TILES[tile.code] = tile;
    return TILES;
  }

  function tileName(code) { return (TILES[code] && TILES[code].name) || code; }
  function tilePower(code) { return (TILES[code] && TILES[code].power) || ""; }
  function tileValue(code, boost) {
    const tile = TILES[code];
    if (!tile || tile.value === null) return "";
    return String(tile.value + (boost || 0));
  }

  // "FR+ FR+ TH@4,-1", "JO@1,0>E", "SS@3,0:row", "end", "discard:TH"
  function parse(text) {
    const tokens = text.trim().split(/\s+/);
    let boost = 0;
    while (tokens.length > 1 && tokens[0].toUpperCase() === "FR+") { boost++; tokens.shift(); }
    const step = tokens[0];
    if (step.toLowerCase() === "end") return { text, kind: "end" };
    if (step.toLowerCase().startsWith("discard:")) return { text, kind: "discard", tile: step.slice(8).toUpperCase() };
    const match = step.match(/^([A-Z]{2})@(-?\d+),(-?\d+)(?:>([NESW])|:(row|col))?$/i);
    if (!match) return { text, kind: "unknown" };
    return {
      text, kind: match[4] ? "bump" : "place", tile: match[1].toUpperCase(), x: Number(match[2]), y: Number(match[3]),
      boost, dir: match[4] ? match[4].toUpperCase() : null, line: match[5] || null,
    };
  }

  function describe(action, view) {
    const at = (x, y) => `${x},${y}`;
    if (action.kind === "end") return "End the turn (decline the follow-up)";
    if (action.kind === "discard") return `Discard ${tileName(action.tile)}`;
    const occupant = view ? view.board.find((t) => t.x === action.x && t.y === action.y) : null;
    let text;
    if (action.kind === "bump") {
      text = `Jotunn bumps ${occupant ? tileName(occupant.tile) : "the tile"} at ${at(action.x, action.y)} to the ${DIRS[action.dir]}`;
    } else if (occupant) {
      const verb = action.tile === "SK" ? "swap with" : "cover";
      text = `${tileName(action.tile)}: ${verb} ${tileName(occupant.tile)} at ${at(action.x, action.y)}`;
    } else {
      text = `${tileName(action.tile)} at ${at(action.x, action.y)}`;
    }
    if (action.boost) text += `, boosted ${action.boost}× with Freya (value ${tileValue(action.tile, action.boost)})`;
    if (action.line) text += action.line === "row" ? ", scoring its row" : ", scoring its column";
    return text;
  }

  // Board ------------------------------------------------------------------------------

  function svgEl(tag, attrs) {
    const node = document.createElementNS("http://www.w3.org/2000/svg", tag);
    for (const [key, value] of Object.entries(attrs || {})) node.setAttribute(key, value);
    return node;
  }

  class Board {
    constructor(svg, onCell) {
      this.svg = svg;
      this.onCell = onCell;
      this.view = null;
      this.box = null;
      this.userMoved = false;
      this.drag = null;
      svg.addEventListener("pointerdown", (e) => this.pointerDown(e));
      svg.addEventListener("pointermove", (e) => this.pointerMove(e));
      svg.addEventListener("pointerup", (e) => this.pointerUp(e));
      svg.addEventListener("pointercancel", () => { this.drag = null; });
      svg.addEventListener("wheel", (e) => { e.preventDefault(); this.zoom(e.deltaY < 0 ? 0.85 : 1.18, e); }, { passive: false });
    }

    extent(view, targets) {
      const cells = view.board.map((t) => [t.x, t.y]).concat(targets.map((k) => k.split(",").map(Number)));
      if (!cells.length) cells.push([0, 0]);
      const xs = cells.map((c) => c[0]), ys = cells.map((c) => c[1]);
      return { minX: Math.min(...xs) - 1, maxX: Math.max(...xs) + 1, minY: Math.min(...ys) - 1, maxY: Math.max(...ys) + 1 };
    }

    fit() {
      if (!this.extentBox) return;
      const e = this.extentBox;
      const pad = CELL * 0.8;
      this.box = { x: e.minX * CELL - pad, y: e.minY * CELL - pad,
                   w: (e.maxX - e.minX + 1) * CELL + 2 * pad, h: (e.maxY - e.minY + 1) * CELL + 2 * pad };
      this.userMoved = false;
      this.applyBox();
    }

    applyBox() {
      const b = this.box;
      this.svg.setAttribute("viewBox", `${b.x} ${b.y} ${b.w} ${b.h}`);
    }

    zoom(factor, event) {
      if (!this.box) return;
      const b = this.box;
      let cx = b.x + b.w / 2, cy = b.y + b.h / 2;
      if (event && event.clientX !== undefined) {
        const r = this.svg.getBoundingClientRect();
        cx = b.x + ((event.clientX - r.left) / r.width) * b.w;
        cy = b.y + ((event.clientY - r.top) / r.height) * b.h;
      }
      const w = Math.min(Math.max(b.w * factor, CELL * 2), CELL * 80);
      const h = b.h * (w / b.w);
      this.box = { x: cx - (cx - b.x) * (w / b.w), y: cy - (cy - b.y) * (h / b.h), w, h };
      this.userMoved = true;
      this.applyBox();
    }

    pointerDown(e) {
      this.drag = { x: e.clientX, y: e.clientY, box: { ...this.box }, moved: false, target: e.target };
    }

    pointerMove(e) {
      if (!this.drag || !this.box) return;
      const dx = e.clientX - this.drag.x, dy = e.clientY - this.drag.y;
      if (!this.drag.moved && Math.hypot(dx, dy) < 6) return;
      this.drag.moved = true;
      const r = this.svg.getBoundingClientRect();
      const scale = this.drag.box.w / r.width;
      this.box = { ...this.drag.box, x: this.drag.box.x - dx * scale, y: this.drag.box.y - dy * scale };
      this.userMoved = true;
      this.applyBox();
    }

    pointerUp(e) {
      const drag = this.drag;
      this.drag = null;
      if (drag && !drag.moved) {
        const cell = drag.target.closest && drag.target.closest("[data-x]");
        if (cell && this.onCell) this.onCell(Number(cell.dataset.x), Number(cell.dataset.y));
      }
    }

    // targets: "x,y" keys to highlight; marked: "x,y" keys of the last move
    render(view, targets = [], marked = []) {
      this.view = view;
      const svg = this.svg;
      svg.textContent = "";
      this.extentBox = this.extent(view, targets);
      const e = this.extentBox;
      const axes = svgEl("g", { class: "axes" });
      for (let x = e.minX; x <= e.maxX; x++) {
        const label = svgEl("text", { x: x * CELL + CELL / 2, y: e.minY * CELL - 8, class: "coord" });
        label.textContent = x;
        axes.append(label);
      }
      for (let y = e.minY; y <= e.maxY; y++) {
        const label = svgEl("text", { x: e.minX * CELL - 10, y: y * CELL + CELL / 2 + 4, class: "coord", "text-anchor": "end" });
        label.textContent = y;
        axes.append(label);
      }
      svg.append(axes);
      const grid = svgEl("g", { class: "grid" });
      for (let x = e.minX; x <= e.maxX; x++) {
        for (let y = e.minY; y <= e.maxY; y++) {
          grid.append(svgEl("rect", { x: x * CELL + 1, y: y * CELL + 1, width: CELL - 2, height: CELL - 2, class: "cell", "data-x": x, "data-y": y }));
        }
      }
      svg.append(grid);
      const markedSet = new Set(marked);
      const tiles = svgEl("g", { class: "tiles" });
      for (const tile of view.board) {
        const g = svgEl("g", { class: `tile tile-${tile.tile}${markedSet.has(`${tile.x},${tile.y}`) ? " marked" : ""}`,
                               "data-x": tile.x, "data-y": tile.y, "data-tile": tile.tile });
        const x = tile.x * CELL, y = tile.y * CELL;
        g.append(svgEl("rect", { x: x + 3, y: y + 3, width: CELL - 6, height: CELL - 6, rx: 8, fill: COLORS[tile.tile] || "#888" }));
        const code = svgEl("text", { x: x + CELL / 2, y: y + CELL / 2 + 4, class: "code" });
        code.textContent = tile.tile;
        g.append(code);
        const value = svgEl("text", { x: x + 9, y: y + 17, class: "value" });
        value.textContent = tileValue(tile.tile, tile.boost);
        g.append(value);
        const name = svgEl("text", { x: x + CELL / 2, y: y + CELL - 9, class: "name" });
        name.textContent = tileName(tile.tile).slice(0, 9);
        g.append(name);
        if (tile.boost) {
          g.append(svgEl("circle", { cx: x + CELL - 13, cy: y + 14, r: 9, class: "boost" }));
          const b = svgEl("text", { x: x + CELL - 13, y: y + 18, class: "boost-text" });
          b.textContent = `+${tile.boost}`;
          g.append(b);
        }
        const title = svgEl("title");
        title.textContent = `${tileName(tile.tile)} at ${tile.x},${tile.y}${tile.boost ? ` (boosted +${tile.boost})` : ""}: ${(TILES[tile.tile] || {}).power || ""}`;
        g.append(title);
        tiles.append(g);
      }
      svg.append(tiles);
      const overlay = svgEl("g", { class: "targets" });
      for (const key of targets) {
        const [x, y] = key.split(",").map(Number);
        overlay.append(svgEl("rect", { x: x * CELL + 4, y: y * CELL + 4, width: CELL - 8, height: CELL - 8, rx: 10,
                                       class: "target", "data-x": x, "data-y": y }));
      }
      svg.append(overlay);
      if (!this.box || !this.userMoved) this.fit();
      else this.applyBox();
    }
  }

  // Log ----------------------------------------------------------------------------------

  function lineText(line) {
    const cells = line.cells || [];
    let where = "no tiles";
    if (line.kind === "neighbours") where = "around it";
    else if (cells.length > 1) where = `${cells[0][0]},${cells[0][1]} to ${cells[cells.length - 1][0]},${cells[cells.length - 1][1]}`;
    else if (cells.length) where = `${cells[0][0]},${cells[0][1]}`;
    return `${line.kind} ${where}: ${line.points} — ${line.reason}`;
  }

  // One event in words: [main text, [detail lines]]
  function eventText(event, name) {
    switch (event.kind) {
      case "placed": {
        let text = `${name(event.seat)} played ${tileName(event.tile)}${event.boost ? `+${event.boost}` : ""} at ${event.x},${event.y}`;
        if (event.covered) text += `, covering ${tileName(event.covered)}`;
        if (event.took) text += `, taking ${tileName(event.took)}${event.freyas_back ? ` and ${event.freyas_back} Freya back` : ""}`;
        if (event.bumped) text += `, bumping ${tileName(event.bumped)} to ${event.to[0]},${event.to[1]}`;
        if (event.either_line) text += ", no line named (its row and column score the same)";
        return [text, []];
      }
      case "scored":
        return [`${name(event.seat)} scores ${event.points} (total ${event.total})`, (event.lines || []).map(lineText)];
      case "drew": return [`You drew ${tileName(event.tile)}`, []];
      case "refilled": return [`${name(event.seat)} drew ${MH.plural(event.count, "tile")} (${event.pile} left in the pile)`, []];
      case "discarded": return [`${name(event.seat)} discarded ${tileName(event.tile)}`, []];
      case "passed": return [`${name(event.seat)} passes: no tiles left`, []];
      case "turn": return [`Turn ${event.turn}: ${name(event.seat)}`, []];
      case "lifted": return [`${name(event.seat)} lifts the Raven from ${event.x},${event.y}`, []];
      case "ended": return [`${name(event.seat)} ends the turn`, []];
      case "hels-removed": return ["The last tile was drawn: every Hel left in a hand is removed (no-late-hel)", []];
      case "game-over": return ["The game is over", []];
      default: return [event.kind, []];
    }
  }

  function ranking(view, name) {
    const seats = view.seats.map((s) => ({ ...s, place: view.places ? view.places[s.seat] : null }));
    seats.sort((a, b) => a.place - b.place);
    const rows = seats.map((s) => `${s.place}. ${name(s.seat)} — ${MH.plural(s.score, "point")}`);
    const notes = [];
    for (const s of seats) {
      const tied = seats.filter((o) => o.score === s.score && o.seat !== s.seat);
      if (tied.length && s.place === 1 && !tied.some((o) => o.place === 1)) {
        notes.push(`${name(s.seat)} wins the tie on ${s.score}: reached it first (step ${s.reached_at}, against ${tied.map((o) => `${name(o.seat)} at step ${o.reached_at}`).join(", ")}).`);
      }
    }
    return { rows, notes };
  }

  return { CELL, COLORS, loadContent, tileName, tilePower, tileValue, parse, describe, Board, eventText, lineText, ranking };
})();

// The table plugin: what table.js needs to host a Völuspá game (see table.js for the interface).
window.MeadhallGames = window.MeadhallGames || {};
window.MeadhallGames.voluspa = (() => {
  let board = null;
  let selected = null;   // tile code chosen in the hand
  let game = null;
  let ctx = null;
  const el = (tag, attrs, ...children) => MH.el(tag, attrs, ...children);

  function mount(area, context) {
    ctx = context;
    area.textContent = "";
    area.append(
      el("div", { class: "board-tools" },
        el("button", { type: "button", id: "zoom-in", title: "Zoom in" }, "+"),
        el("button", { type: "button", id: "zoom-out", title: "Zoom out" }, "−"),
        el("button", { type: "button", id: "zoom-fit", title: "Fit the board" }, "Fit"),
        el("span", { id: "status-line", class: "status" })),
    );
    const svg = document.createElementNS("http://www.w3.org/2000/svg", "svg");
    svg.setAttribute("id", "board");
    svg.setAttribute("class", "board");
    svg.setAttribute("role", "img");
    svg.setAttribute("aria-label", "The board");
    area.append(svg,
      el("div", { id: "prompt", class: "prompt" }),
      el("div", { id: "hand", class: "hand" }),
      el("div", { id: "turn-actions", class: "turn-actions" }),
      el("div", { id: "chooser", class: "chooser", hidden: true }));
    board = new Voluspa.Board(svg, onCell);
    document.getElementById("zoom-in").onclick = () => board.zoom(0.8);
    document.getElementById("zoom-out").onclick = () => board.zoom(1.25);
    document.getElementById("zoom-fit").onclick = () => board.fit();
  }

  function legalActions() {
    return (game && game.legal ? game.legal : []).map(Voluspa.parse);
  }

  function targetsFor(code) {
    const keys = new Set();
    for (const action of legalActions()) {
      if ((action.kind === "place" || action.kind === "bump") && action.tile === code) keys.add(`${action.x},${action.y}`);
    }
    return [...keys];
  }

  async function send(text) {
    document.getElementById("chooser").hidden = true;
    selected = null;
    await ctx.send(text);
  }

  function render(current, context) {
    game = current;
    ctx = context;
    const view = game.view;
    const myTurn = Boolean(game.legal && game.legal.length);
    const actions = legalActions();
    if (view.stage === "raven" && myTurn) selected = "RA";
    if (selected && !actions.some((a) => a.tile === selected && (a.kind === "place" || a.kind === "bump"))) selected = null;
    const marked = (view.turn_cells && view.turn_cells.length ? view.turn_cells : (view.last_turn ? view.last_turn.cells : []))
      .map((c) => `${c[0]},${c[1]}`);
    board.render(view, selected ? targetsFor(selected) : [], marked);
    const toMove = (view.to_move || []).map(ctx.seatName).join(", ");
    document.getElementById("status-line").textContent = view.finished ? "Game over" : `Turn ${view.turn} · ${toMove} to play · pile ${view.pile}`;
    let prompt;
    if (game.status === "abandoned") prompt = "This table was abandoned.";
    else if (view.finished) prompt = "The game is over.";
    else if (!myTurn) prompt = game.seat == null ? "You are watching." : `Waiting for ${toMove}.`;
    else if (view.stage === "hermod") prompt = "Hermod: place one more tile in its row or column line, or end the turn.";
    else if (view.stage === "raven") prompt = "Raven: place it once more on another cell, or end the turn.";
    else if (view.stage === "discard-down") prompt = "Skadi brought Freyas back: discard down to five tiles.";
    else if (actions.every((a) => a.kind === "discard")) prompt = "No tile in your hand can be played: discard one.";
    else prompt = selected ? `Choose where ${Voluspa.tileName(selected)} goes (highlighted cells).` : "Your turn: choose a tile from your hand.";
    ctx.prompt(prompt);
    renderHand(view, myTurn, actions);
    renderTurnActions(myTurn, actions);
  }

  function renderHand(view, myTurn, actions) {
    const hand = document.getElementById("hand");
    hand.textContent = "";
    if (!view.hand) return;
    const playable = new Set(actions.filter((a) => a.kind === "place" || a.kind === "bump").map((a) => a.tile));
    view.hand.forEach((code, index) => {
      hand.append(el("button", {
        type: "button", class: `hand-tile${selected === code ? " selected" : ""}${playable.has(code) ? " playable" : ""}`,
        "data-tile": code, "data-index": index, disabled: !myTurn || !playable.has(code),
        title: `${Voluspa.tileName(code)}: ${Voluspa.tilePower(code)}`,
        style: `--tile:${Voluspa.COLORS[code] || "#888"}`,
        onclick: () => { selected = selected === code ? null : code; render(game, ctx); },
      }, el("b", {}, code), el("small", {}, `${Voluspa.tileName(code)} ${Voluspa.tileValue(code, 0)}`)));
    });
  }

  function renderTurnActions(myTurn, actions) {
    const box = document.getElementById("turn-actions");
    box.textContent = "";
    if (!myTurn) return;
    for (const action of actions) {
      if (action.kind === "end") box.append(el("button", { type: "button", id: "end-turn", onclick: () => send(action.text) }, "End turn"));
      if (action.kind === "discard") box.append(el("button", { type: "button", class: "discard", "data-action": action.text, onclick: () => send(action.text) }, `Discard ${Voluspa.tileName(action.tile)}`));
    }
  }

  function onCell(x, y) {
    if (!selected) return;
    const options = legalActions().filter((a) => (a.kind === "place" || a.kind === "bump") && a.tile === selected && a.x === x && a.y === y);
    if (!options.length) return;
    if (options.length === 1) { send(options[0].text); return; }
    const chooser = document.getElementById("chooser");
    chooser.textContent = "";
    chooser.append(el("p", {}, "Choose:"));
    for (const option of options) {
      // A line left out beside its named forms: the engine offers it where both lines score the same.
      const either = !option.line && options.some((o) => o.line && o.boost === option.boost);
      chooser.append(el("button", { type: "button", class: "choice", "data-action": option.text,
        onclick: () => send(option.text) }, Voluspa.describe(option, game.view) + (either ? ", either line (both score the same)" : "")));
    }
    chooser.append(el("button", { type: "button", onclick: () => { chooser.hidden = true; } }, "Cancel"));
    chooser.hidden = false;
  }

  // Each seat in its own colour (the board's tiles belong to nobody), as in the other games.
  function players(view, context) {
    const list = el("ol", { id: "scores", class: "scores clans" });
    for (const s of view.seats) {
      const known = Object.entries(s.known || {}).map(([k, n]) => `${n}×${k}`).join(" ");
      list.append(el("li", { class: (view.to_move || []).includes(s.seat) ? "to-move" : "", "data-seat": s.seat,
        style: `--clan:${MH.SEAT_COLOURS[s.seat] || "#777"}` },
        el("b", {}, context.seatName(s.seat)),
        ` ${MH.plural(s.score, "point")} · ${MH.plural(s.tiles, "tile")}${s.hels ? ` + ${s.hels} Hel` : ""}${known ? ` · known: ${known}` : ""}`));
    }
    return list;
  }

  return {
    load: () => Voluspa.loadContent(),
    mount, render, players,
    eventText: Voluspa.eventText,
    ranking: Voluspa.ranking,
  };
})();
