"use strict";
// Völuspá's board in the browser: the grid as SVG (pan, zoom, coordinates), the hand, and
// picking a move among the legal actions the server sends. Each action comes with its
// target (tile, cell, boost, line) and its label; tile names, values and powers come from
// the table's components (/api/tables/ID/content), each tile's picture from the game's icon
// sprite (web/icons.svg, drawn by MH.icon); the last turn's tiles are marked. Everything a player reads is the game's
// words, sent by the server; this file only draws and picks (it never reads notation).
// The page (table.js, replay.js) draws the players, the log and the end from the words.
window.MeadhallGames = window.MeadhallGames || {};
window.MeadhallGames.voluspa = (() => {
  const CELL = 60;
  const COLORS = {
    OD: "#d4a017", TH: "#3b6fb6", TR: "#4d7a3a", DR: "#b23a2e", FE: "#6f6f6f", SK: "#7fb3d5",
    VA: "#c77fb0", LO: "#7b4fa0", HE: "#1c1c1c", HM: "#2a9d8f", JO: "#8d5b3a", SS: "#1d5d6b",
    DW: "#d2772b", FR: "#d96c8a", RA: "#34495e", NI: "#7d1f2a", LB: "#e6c229",
  };
  // Tiles light enough that white words on them are hard to read: dark words (WCAG contrast).
  const LIGHT = new Set(["OD", "SK", "VA", "HM", "DW", "FR", "LB"]);
  let parts = {};          // component key -> {name, value, facts, text}
  let board = null;
  let selected = null;     // the tile chosen in the hand
  let guided = null;       // a guided game's target ({tile, cell}): what the guide shows
  let focusBoard = false;  // the tile was chosen with the keyboard: focus moves to the board's targets
  let game = null;
  let ctx = null;
  const el = (tag, attrs, ...children) => MH.el(tag, attrs, ...children);
  const part = (key) => parts[key] || { key, name: key, value: "", text: "" };
  const hover = (key) => { const p = part(key); return p.text ? `${p.name}: ${p.text}` : p.name; };
  const words = (text) => MH.fill(text, ctx.seatName);
  // The board's own words (the board's name): the game's words for this view, by key.
  const titleOf = (key) => words(((game && game.words && game.words.titles) || {})[key] || "");

  async function load(context) {
    const data = await MH.api("GET", `/api/tables/${context.tableId}/content`);
    parts = {};
    for (const component of data.components || []) parts[component.key] = component;
  }

  function svgEl(tag, attrs) {
    const node = document.createElementNS("http://www.w3.org/2000/svg", tag);
    for (const [key, value] of Object.entries(attrs || {})) node.setAttribute(key, value);
    return node;
  }

  // A tile's face at (x, y) in the board's units: its colour, and its picture (web/icons.svg: its
  // god or creature; its name is written below it).
  function face(code, x, y) {
    return [svgEl("rect", { x: x + 3, y: y + 3, width: CELL - 6, height: CELL - 6, rx: 8, fill: COLORS[code] || "#888" }),
      MH.icon("voluspa", code, { x: x + CELL / 2 - 14, y: y + 12, width: 28, height: 28, cls: "tile-icon" })];
  }

  class Board {
    constructor(svg, onCell) {
      this.svg = svg;
      this.onCell = onCell;
      this.view = new MH.PanZoom(svg, { wheel: true });   // pan, pinch and zoom (common.js)
      svg.addEventListener("click", (e) => {   // a drag is not a click: PanZoom swallows it
        const cell = e.target.closest && e.target.closest("[data-x]");
        if (cell && this.onCell) this.onCell(Number(cell.dataset.x), Number(cell.dataset.y));
      });
    }

    extent(view, targets) {
      const cells = view.board.map((t) => [t.x, t.y]).concat(targets);
      if (!cells.length) cells.push([0, 0]);
      const xs = cells.map((c) => c[0]), ys = cells.map((c) => c[1]);
      return { minX: Math.min(...xs) - 1, maxX: Math.max(...xs) + 1, minY: Math.min(...ys) - 1, maxY: Math.max(...ys) + 1 };
    }

    // The board's cells and their coordinates, in the SVG's units.
    box() {
      const e = this.extentBox;
      const pad = CELL * 0.8;
      return { x: e.minX * CELL - pad, y: e.minY * CELL - pad,
               w: (e.maxX - e.minX + 1) * CELL + 2 * pad, h: (e.maxY - e.minY + 1) * CELL + 2 * pad };
    }

    // targets: [x, y] cells to highlight; marked: [x, y] cells of the last move
    render(view, targets = [], marked = [], labels = new Map()) {
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
      const markedSet = new Set(marked.map((c) => `${c[0]},${c[1]}`));
      const tiles = svgEl("g", { class: "tiles" });
      for (const tile of view.board) {
        const last = markedSet.has(`${tile.x},${tile.y}`) ? " marked last-move" : "";
        const g = svgEl("g", { class: `tile tile-${tile.tile}${last}${LIGHT.has(tile.tile) ? " light-tile" : ""}`,
                               "data-x": tile.x, "data-y": tile.y, "data-tile": tile.tile, style: `--icon-detail:${COLORS[tile.tile] || "#888"}` });
        const x = tile.x * CELL, y = tile.y * CELL;
        g.append(...face(tile.tile, x, y));
        // What the tile is worth now (the view's; 0 beside Loki), not only what it shows.
        const lowered = tile.value !== undefined && tile.value < tile.printed;
        const value = svgEl("text", { x: x + 9, y: y + 17, class: lowered ? "value lowered" : "value" });
        value.textContent = tile.value !== undefined ? tile.value : part(tile.tile).value;
        g.append(value);
        if (lowered) {   // the printed value under it, struck through: the hand shows that one
          const printed = svgEl("text", { x: x + 7, y: y + 31, class: "printed", "aria-hidden": "true" });
          printed.textContent = tile.printed;
          g.append(printed);
        }
        const name = svgEl("text", { x: x + CELL / 2, y: y + CELL - 9, class: "name" });
        name.textContent = part(tile.tile).name.slice(0, 9);
        g.append(name);
        if (tile.boost) {
          g.append(svgEl("circle", { cx: x + CELL - 13, cy: y + 14, r: 9, class: "boost" }));
          const b = svgEl("text", { x: x + CELL - 13, y: y + 18, class: "boost-text" });
          b.textContent = `+${tile.boost}`;
          g.append(b);
        }
        const place = game && game.words && game.words.places ? game.words.places[`${tile.x},${tile.y}`] : null;
        const title = svgEl("title");
        title.textContent = place ? `${place}. ${part(tile.tile).text}` : hover(tile.tile);
        g.append(title);
        if (place) g.setAttribute("aria-label", place);
        tiles.append(g);
      }
      svg.append(tiles);
      const overlay = svgEl("g", { class: "targets" });
      for (const [x, y] of targets) {
        // A target names its tile and cell (the game's words find its action); its name is the action's label.
        overlay.append(svgEl("rect", { x: x * CELL + 4, y: y * CELL + 4, width: CELL - 8, height: CELL - 8, rx: 10,
                                       class: "target", "data-x": x, "data-y": y, "aria-label": labels.get(`${x},${y}`) || `${x},${y}`,
                                       "data-target": JSON.stringify({ tile: selected, cell: [x, y] }) }));
      }
      svg.append(overlay);
      this.view.setExtent(this.box());
    }
  }

  function mount(area, context) {
    ctx = context;
    area.textContent = "";
    const svg = document.createElementNS("http://www.w3.org/2000/svg", "svg");
    svg.setAttribute("id", "board");
    svg.setAttribute("class", "board");
    svg.setAttribute("role", "group");
    board = new Board(svg, onCell);
    area.append(
      el("div", { class: "board-tools" }, ...board.view.tools(), el("span", { id: "status-line", class: "status" })),
      el("div", { id: "prompt", class: "prompt" }),   // what to do now, above the board; the hand just below
      svg,
      el("p", { id: "vo-values", class: "vo-values", hidden: true }),   // the board's caption: its lowered values
      el("div", { id: "hand", class: "hand" }),
      el("div", { id: "turn-actions", class: "turn-actions" }),
      el("div", { id: "chooser", class: "chooser", hidden: true }));
    // Escape anywhere on the page puts a chosen tile back (the focus may be off the board after a click).
    document.addEventListener("keydown", (e) => {
      if (e.key === "Escape" && (selected || !document.getElementById("chooser").hidden)) cancel();
    });
    // Hovering any cell with a tile chosen previews it there (an illegal cell: the rule that forbids it).
    MH.previews(svg, (node) => (selected && node.hasAttribute("data-x") && !node.hasAttribute("data-target")
      ? { tile: selected, cell: [Number(node.getAttribute("data-x")), Number(node.getAttribute("data-y"))] } : null));
  }

  // Escape: the chosen tile (and the chooser) are put back; the focus returns to the hand.
  function cancel() {
    document.getElementById("chooser").hidden = true;
    const was = selected;
    selected = null;
    render(game, ctx);
    const tile = document.querySelector(`#hand .hand-tile[data-tile="${was}"]`) || document.querySelector("#hand .hand-tile:not([disabled])");
    if (tile) tile.focus();
  }

  // The legal actions picked on the board (a cell), and the others (buttons).
  function onBoard() { return (game && game.actions ? game.actions : []).filter((a) => a.target && a.target.cell); }
  function offBoard() { return (game && game.actions ? game.actions : []).filter((a) => !(a.target && a.target.cell)); }

  async function send(notation) {
    document.getElementById("chooser").hidden = true;
    selected = null;
    await ctx.send(notation);
  }

  function render(current, context) {
    game = current;
    ctx = context;
    const view = game.view;
    const picks = onBoard();
    const tiles = new Set(picks.map((a) => a.target.tile));
    // One tile to place, not from the hand (the Raven's second placement): it is chosen already.
    if (tiles.size === 1 && !(view.hand || []).includes([...tiles][0])) selected = [...tiles][0];
    if (selected && !tiles.has(selected)) selected = null;
    const cells = new Map();   // each cell once, however many actions it offers
    const labels = new Map();  // the first action's label names the cell's target
    for (const a of picks) {
      if (a.target.tile !== selected) continue;
      const key = a.target.cell.join(",");
      cells.set(key, a.target.cell);
      if (!labels.has(key)) labels.set(key, words(a.label));
    }
    const targets = [...cells.values()];
    const marked = view.turn_cells && view.turn_cells.length ? view.turn_cells : (view.last_turn ? view.last_turn.cells : []);
    board.render(view, targets, marked, labels);
    const svg = document.getElementById("board");
    svg.setAttribute("aria-label", titleOf("board"));
    motion(svg);
    MH.roving(svg, "rect.target", { keyOf: (n) => n.getAttribute("data-target"), onEscape: cancel,
      onEnter: (n) => onCell(Number(n.getAttribute("data-x")), Number(n.getAttribute("data-y"))) });
    document.getElementById("status-line").textContent = game.words ? words(game.words.status[0]) : "";
    renderHand(view, tiles);
    renderValues(view);
    renderButtons();
    MH.roving(document.getElementById("hand"), ".hand-tile:not([disabled])", { keyOf: (n) => n.dataset.tile, onEscape: cancel });
    markGuided();
    if (focusBoard) {
      focusBoard = false;
      const first = svg.querySelector("rect.target");
      if (first) first.focus();
    }
  }

  // What the latest move did, in motion (a live update only, once: MH.motion): the placed tile
  // drops into its cell, a tile it bumped slides on from there to where the event says it went,
  // a tile it covered or took back leaves, and the mover's points pulse with +N.
  function motion(svg) {
    for (const event of MH.motion(game, svg)) {
      if (event.kind === "scored") MH.scored(event.seat, event.points);
      if (event.kind !== "placed") continue;
      const at = (x, y) => svg.querySelector(`g.tile[data-x="${x}"][data-y="${y}"]`);
      const placed = at(event.x, event.y);
      const gone = event.covered || event.took;
      if (gone && placed) {
        const ghost = svgEl("g", { class: "tile-ghost", "aria-hidden": "true", style: `--icon-detail:${COLORS[gone] || "#888"}` });
        ghost.append(...face(gone, event.x * CELL, event.y * CELL));
        placed.after(ghost);
        MH.animate(ghost, "mh-leave", { ghost: true });
      }
      MH.animate(placed, "mh-drop");
      if (event.bumped && event.to) {
        MH.animate(at(event.to[0], event.to[1]), "mh-bump",
          { vars: { dx: `${(event.x - event.to[0]) * CELL}px`, dy: `${(event.y - event.to[1]) * CELL}px` } });
      }
    }
  }

  // Under the board, as its caption, the tiles of the board worth less now than printed (the yellow numbers),
  // each as the game's words say it (words.places: "worth 0 now (printed 7; Loki beside it)").
  function renderValues(view) {
    const box = document.getElementById("vo-values");
    const places = game.words && game.words.places ? game.words.places : {};
    const said = (view.board || []).filter((t) => t.value !== undefined && t.value < t.printed)
      .map((t) => places[`${t.x},${t.y}`]).filter(Boolean);
    box.textContent = said.join(" · ");
    box.hidden = !said.length;
  }

  function renderHand(view, playable) {
    const hand = document.getElementById("hand");
    hand.textContent = "";
    if (!view.hand) return;
    view.hand.forEach((code, index) => {
      const p = part(code);
      hand.append(el("button", {
        type: "button", class: `hand-tile${selected === code ? " selected" : ""}${playable.has(code) ? " playable" : ""}${LIGHT.has(code) ? " light-tile" : ""}`,
        "data-tile": code, "data-index": index, disabled: !playable.has(code),
        title: hover(code),
        "aria-pressed": selected === code ? "true" : "false",
        style: `--tile:${COLORS[code] || "#888"};--icon-detail:${COLORS[code] || "#888"}`,
        onclick: (e) => { selected = selected === code ? null : code; focusBoard = Boolean(selected) && e.detail === 0; render(game, ctx); },
      }, MH.icon("voluspa", code, { cls: "hand-icon" }),
        el("small", {}, el("span", { class: "tile-name" }, p.name), " ", el("span", { class: "tile-value" }, p.value))));
    });
  }

  function renderButtons() {
    const box = document.getElementById("turn-actions");
    box.textContent = "";
    for (const action of offBoard()) {
      const kind = action.target ? action.target.kind : null;
      box.append(el("button", { type: "button", id: kind === "end" ? "end-turn" : null, class: kind || "action",
        "data-action": action.notation, title: words(action.group), onclick: () => send(action.notation) }, words(action.label)));
    }
  }

  function onCell(x, y) {
    if (!selected) return;
    const options = onBoard().filter((a) => a.target.tile === selected && a.target.cell[0] === x && a.target.cell[1] === y);
    if (!options.length) {
      // A tap or click where the tile cannot go: the preview says which rule forbids it.
      const target = JSON.stringify({ tile: selected, cell: [x, y] });
      const cell = document.querySelector(`svg#board rect.cell[data-x="${x}"][data-y="${y}"]`);
      MH.previewOf(target).then((preview) => MH.showPreview(preview, cell));
      return;
    }
    const chooser = document.getElementById("chooser");
    MH.pick(chooser, options, ctx.seatName, send);
    if (!chooser.hidden) chooser.querySelector("button").focus();   // the keyboard goes on in the chooser
  }

  // A guided game's step marks a tile in the hand and a cell (the shell passes the target
  // of the step, or null): both are marked until the step is played.
  function highlight(target) {
    guided = target && target.cell ? target : null;
    markGuided();
  }

  function markGuided() {
    for (const node of document.querySelectorAll(".guide-target")) node.classList.remove("guide-target");
    if (!guided) return;
    const tile = document.querySelector(`#hand .hand-tile[data-tile="${guided.tile}"]`);
    if (tile && selected !== guided.tile) tile.classList.add("guide-target");
    const [x, y] = guided.cell;
    for (const cell of document.querySelectorAll(`svg#board rect[data-x="${x}"][data-y="${y}"]`)) cell.classList.add("guide-target");
  }

  return { load, mount, render, highlight };
})();
