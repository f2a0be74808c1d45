"use strict";
// Shared by every page: the JSON API, who is signed in, the "your turn" notice, and the
// game's words as the server sends them (seat placeholders filled in, the players, the
// log, the end), which the table and replay pages draw for every game the same way.
const MH = {
  me: null,
  baseTitle: document.title,
  // The release, as this script was asked for (?v=...): game plugins are loaded with it too.
  version: new URL(document.currentScript.src).searchParams.get("v") || "",
  myTurns: 0,
  // One colour per seat, for games whose seats have no colours of their own.
  SEAT_COLOURS: ["#9c3b24", "#2f6aa8", "#3b7f3b", "#b8860b", "#5b3c99"],
  // What a page says once a game is over: the table's prompt, the end screen with no winner to name.
  GAME_OVER: "The game is over.",

  // A text of the game's words with each seat's name: "{1} scores" -> "Ann scores"; "{{" and "}}" are braces.
  fill(text, seatName) {
    return String(text ?? "").replace(/\{\{|\}\}|\{(\d{1,3})\}/g, (token, seat) =>
      token === "{{" ? "{" : token === "}}" ? "}" : seatName(Number(seat)));
  },

  // The board plugin of a game, served by the server from the game's package
  // (/games/NAME/plugin.js); it registers itself in window.MeadhallGames. With `style`
  // (the table's board_style: the game ships one), its stylesheet is linked too
  // (/games/NAME/plugin.css): style.css holds only what every game shares.
  plugin(game, style = false) {
    window.MeadhallGames = window.MeadhallGames || {};
    const query = `?v=${encodeURIComponent(MH.version)}`;
    const sheet = `/games/${encodeURIComponent(game)}/plugin.css${query}`;
    if (style && !document.querySelector(`link[href="${sheet}"]`)) {
      document.head.append(MH.el("link", { rel: "stylesheet", href: sheet }));
    }
    if (window.MeadhallGames[game]) return Promise.resolve(window.MeadhallGames[game]);
    return new Promise((resolve, reject) => {
      const script = document.createElement("script");
      script.src = `/games/${encodeURIComponent(game)}/plugin.js${query}`;
      script.onload = () => (window.MeadhallGames[game] ? resolve(window.MeadhallGames[game])
        : reject(new Error("This page cannot show this game.")));
      script.onerror = () => reject(new Error("This page cannot show this game: its board did not load."));
      document.head.append(script);
    });
  },

  // One event of the log: [text, details], from the game's words ("" for a game without
  // words: the log leaves it out).
  eventWords(event, seatName) {
    if (typeof event.text !== "string") return ["", []];
    return [MH.fill(event.text, seatName), (event.details || []).map((d) => MH.fill(d, seatName))];
  },

  // The legal actions of a game without words: each labelled with its notation, in one group.
  bareActions(legal) {
    return legal.map((notation) => ({ notation, label: notation, group: "", target: null }));
  },

  // The players panel from the game's words: a line per seat (in its colour: the plugin's
  // `seatColour(seat)` if it has one, else MH.SEAT_COLOURS), then the other facts; for a game
  // without words (`words` null), its `count` seats by name.
  seatList(view, words, seatName, count, seatColour) {
    const box = document.createDocumentFragment();
    const list = MH.el("ol", { id: "scores", class: "scores clans" });
    const lines = words ? words.seats : Array.from({ length: count }, () => "");
    lines.forEach((line, seat) => {
      list.append(MH.el("li", { class: (view.to_move || []).includes(seat) ? "to-move" : "", "data-seat": seat,
        style: `--clan:${(seatColour && seatColour(seat)) || MH.SEAT_COLOURS[seat] || "#777"}` }, MH.el("b", {}, seatName(seat)), " ", MH.fill(line, seatName)));
    });
    box.append(list);
    for (const line of words ? words.status.slice(1) : []) box.append(MH.el("p", { class: "muted" }, MH.fill(line, seatName)));
    return box;
  },

  // The end of a game from the game's words: {rows, notes} (none for a game without words).
  ranking(result, seatName) {
    if (!result) return { rows: [], notes: [] };
    return {
      rows: result.standings.map((s) => `${s.place}. ${seatName(s.seat)} — ${MH.fill(s.score, seatName)}`),
      notes: result.notes.map((note) => MH.fill(note, seatName)),
    };
  },

  // "1 follower", "2 followers"; plural forms that are not word + "s" are given.
  plural(n, word, many) {
    return `${n} ${n === 1 ? word : many || `${word}s`}`;
  },

  csrf() {
    const match = document.cookie.match(/(?:^|; )meadhall_csrf=([^;]*)/);
    return match ? decodeURIComponent(match[1]) : "";
  },

  async api(method, path, body) {
    const options = { method, credentials: "same-origin", headers: { "Accept": "application/json" } };
    if (body !== undefined) {
      options.headers["Content-Type"] = "application/json";
      options.body = JSON.stringify(body);
    }
    if (method !== "GET") options.headers["X-CSRF-Token"] = MH.csrf();
    const response = await fetch(path, options);
    let data = null;
    try { data = await response.json(); } catch (e) { data = null; }
    if (!response.ok) {
      const error = new Error((data && data.message) || response.statusText);
      error.status = response.status;
      error.code = data && data.error;
      error.data = data;
      throw error;
    }
    return data;
  },

  esc(text) {
    return String(text ?? "").replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" }[c]));
  },

  el(tag, attrs = {}, ...children) {
    const node = document.createElement(tag);
    for (const [key, value] of Object.entries(attrs)) {
      if (key === "class") node.className = value;
      else if (key === "style") node.style.cssText = value;  // through the CSSOM: allowed by a Content-Security-Policy
      else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
      else if (value !== undefined && value !== null && value !== false) node.setAttribute(key, value === true ? "" : value);
    }
    for (const child of children.flat()) {
      if (child === null || child === undefined || child === false) continue;
      node.append(child instanceof Node ? child : document.createTextNode(String(child)));
    }
    return node;
  },

  async loadMe() {
    try {
      const data = await MH.api("GET", "/api/auth/me");
      MH.me = data.user;
    } catch (e) {
      MH.me = null;
    }
    MH.renderWho();
    return MH.me;
  },

  renderWho() {
    const who = document.getElementById("who");
    if (!who) return;
    who.textContent = "";
    if (!MH.me) {
      who.append(MH.el("a", { href: "/signin", id: "signin-link" }, "Sign in"));
      return;
    }
    const name = MH.me.guest ? `${MH.me.display_name} (guest)` : MH.me.display_name;
    const alerts = MH.alertsOn();
    who.append(
      MH.el("button", { type: "button", class: "link", id: "turn-alerts", "aria-pressed": String(alerts),
        title: "A chime and a notification when it becomes your turn while this tab is in the background",
        onclick: () => MH.setAlerts(!MH.alertsOn()) }, alerts ? "Turn alerts: on" : "Turn alerts: off"), " ",
      MH.el("a", { href: `/u/${encodeURIComponent(MH.me.name)}`, id: "me-link" }, name), " ",
      MH.el("button", { type: "button", class: "link", id: "logout", onclick: async () => {
        await MH.api("POST", "/api/auth/logout");
        location.href = "/";
      } }, "Sign out"),
    );
  },

  setTitle(extra) {
    const prefix = MH.myTurns > 0 ? `(${MH.myTurns}) ` : "";
    document.title = prefix + (extra || MH.baseTitle);
  },

  async pollTurns() {
    if (!MH.me) return;
    try {
      const data = await MH.api("GET", "/api/me/games");
      MH.myTurns = data.my_turn;
      // A table that became this player's turn since the last poll: alert (the table page alerts for its own table).
      const waiting = new Set(data.tables.filter((t) => t.my_turn).map((t) => t.id));
      if (MH.turnTables) {
        for (const t of data.tables) {
          if (waiting.has(t.id) && !MH.turnTables.has(t.id) && t.id !== MH.tableId) {
            MH.turnAlert(`Your turn: ${t.title}`, "A table is waiting for your move.", `/t/${t.id}`);
          }
        }
      }
      MH.turnTables = waiting;
      const badge = document.getElementById("turn-badge");
      if (badge) {
        badge.hidden = data.my_turn === 0;
        badge.textContent = data.my_turn ? `${data.my_turn} your turn` : "";
      }
      MH.setTitle(MH.titleExtra);
    } catch (e) { /* offline: try again later */ }
  },

  // The end of a game (GET /api/tables/ID/end) drawn into `box`: the winner banner, the
  // places with scores (the game's words) and rating changes, the game's score breakdown
  // (its sections, rows and totals, as the game words them: a game without a breakdown
  // shows places and scores alone), the tie-break notes, and the replay and export links.
  // `extra` (optional) is appended after the links (the table page's rematch button).
  endScreen(box, end, seatName, extra) {
    box.textContent = "";
    const winners = end.winners || [];
    let banner;
    if (end.ending === "abandoned") banner = "This game was abandoned: it has no winner.";
    else if (winners.length === 1) banner = `${seatName(winners[0])} wins!`;
    else if (winners.length > 1) banner = `${winners.map(seatName).join(" and ")} share first place!`;
    else banner = MH.GAME_OVER;
    box.append(MH.el("h2", { class: "end-banner", id: "end-banner" }, banner));
    if (end.ending === "resigned" && end.resigned != null) {
      box.append(MH.el("p", { class: "muted" }, `${seatName(end.resigned)} resigned.`));
    }
    // Timeouts, comebacks, vacations and leaves: the server's words, one line each.
    for (const line of end.seat_events || []) box.append(MH.el("p", { class: "muted seat-event" }, line));
    const standings = (end.result && end.result.standings) ||
      end.seats.filter((s) => s.place != null).slice().sort((a, b) => a.place - b.place || a.seat - b.seat)
        .map((s) => ({ seat: s.seat, place: s.place, score: String(s.score) }));
    if (standings.length) {
      const list = MH.el("ol", { class: "ranking end-ranking" });
      for (const s of standings) {
        const item = MH.el("li", { "data-seat": s.seat, class: s.place === 1 ? "winner" : "" },
          `${s.place}. ${seatName(s.seat)} — ${MH.fill(s.score, seatName)}`);
        const rating = (end.seats[s.seat] || {}).rating;
        if (rating) {
          const sign = rating.change > 0 ? "+" : rating.change < 0 ? "−" : "±";
          item.append(" ", MH.el("span", { class: "rating-change" },
            `rating ${Math.round(rating.before)} → ${Math.round(rating.after)} (${sign}${Math.abs(Math.round(rating.change))})`));
        }
        list.append(item);
      }
      box.append(list);
    }
    const table = end.breakdown;
    if (table) {
      box.append(MH.el("h3", {}, table.title));
      const seats = table.totals.map((_, seat) => seat);
      for (const part of table.sections) {
        if (!part.rows.length) continue;
        const head = MH.el("tr", {}, MH.el("th", { scope: "col" }, part.title),
          ...seats.map((seat) => MH.el("th", { scope: "col" }, seatName(seat))));
        const body = part.rows.map((row) => MH.el("tr", {}, MH.el("th", { scope: "row" }, MH.fill(row.label, seatName)),
          ...row.points.map((n) => MH.el("td", {}, String(n)))));
        const grid = MH.el("table", { class: "breakdown" }, MH.el("thead", {}, head), MH.el("tbody", {}, ...body));
        if (part.adds_up) {
          grid.append(MH.el("tfoot", {}, MH.el("tr", {}, MH.el("th", { scope: "row" }, "Total"),
            ...table.totals.map((n) => MH.el("td", {}, String(n))))));
        }
        // A long section (a row per round) folds away, its title and totals in view.
        if (part.rows.length > 8) {
          const total = part.adds_up ? ` — ${table.totals.map((n, seat) => `${seatName(seat)} ${n}`).join(", ")}` : "";
          box.append(MH.el("details", { class: "breakdown-wrap" },
            MH.el("summary", {}, `${part.title} (${part.rows.length} rows)${total}`), grid));
        } else box.append(MH.el("div", { class: "breakdown-wrap" }, grid));
      }
    }
    const notes = (end.result && end.result.notes) || (table && table.notes) || [];
    for (const note of notes) box.append(MH.el("p", { class: "muted end-note" }, MH.fill(note, seatName)));
    const links = end.links || {};
    box.append(MH.el("p", { class: "end-links" },
      MH.el("a", { href: links.replay, id: "replay-link" }, "Replay this game"), " · ",
      MH.el("a", { href: links.export, id: "export-link" }, "Export JSON")));
    if (extra) box.append(extra);
  },

  // A chooser among several legal actions on one target (a cell, a region, a god area),
  // drawn in a plugin's chooser box: `heading`, a button per action with its label (its
  // group as the tooltip), and Cancel. `send(notation)` plays one; `onCancel` runs on Cancel.
  chooser(box, heading, actions, seatName, send, onCancel) {
    box.textContent = "";
    box.append(MH.el("p", {}, heading));
    for (const action of actions) {
      box.append(MH.el("button", { type: "button", class: "choice", "data-action": action.notation,
        title: action.group ? MH.fill(action.group, seatName) : null, onclick: () => send(action.notation) },
      MH.fill(action.label, seatName)));
    }
    box.append(MH.el("button", { type: "button", onclick: () => { box.hidden = true; if (onCancel) onCancel(); } }, "Cancel"));
    box.hidden = false;
  },

  // The legal actions on one target: none, nothing; one, sent at once; several, the chooser.
  pick(box, actions, seatName, send, heading = "Choose:") {
    if (!actions.length) return;
    if (actions.length === 1) { send(actions[0].notation); return; }
    MH.chooser(box, heading, actions, seatName, send);
  },

  // Pan, pinch and zoom for a game's SVG board (phones and tablets): one finger or the mouse
  // drags, two fingers pinch, Ctrl+wheel (a touchpad's pinch) zooms, and `tools()` gives the
  // zoom buttons. The plugin says where its board lies (`setExtent`); the first view shows
  // the whole board at every size (a newcomer sees every place at once), its text drawn no
  // smaller than `minText` CSS pixels; closer views pan. A drag never counts as a click on
  // what it started on.
  PanZoom: class {

    constructor(svg, { minText = 11, wheel = false } = {}) {
      this.svg = svg;
      this.minText = minText;
      this.full = null;       // the whole board, in the board's own units
      this.box = null;        // what is shown now
      this.mode = "home";     // "home", "whole" (the Fit button) or "moved" (the player's own view: redraws keep it)
      this.pointers = new Map();
      this.gesture = null;
      svg.classList.add("pan-zoom");
      svg.addEventListener("pointerdown", (e) => this.down(e));
      svg.addEventListener("pointermove", (e) => this.move(e));
      for (const type of ["pointerup", "pointercancel"]) svg.addEventListener(type, (e) => this.up(e));
      svg.addEventListener("wheel", (e) => {
        if (!wheel && !e.ctrlKey) return;   // a plain wheel scrolls the page
        e.preventDefault();
        this.zoom(e.deltaY < 0 ? 0.85 : 1.18, e.clientX, e.clientY);
      }, { passive: false });
      if (window.ResizeObserver) new ResizeObserver(() => this.setExtent(this.full)).observe(svg);
    }

    // The board's extent {x, y, w, h}; a board not moved by the player is shown anew, whole.
    setExtent(box) {
      if (!box) return;
      this.full = box;
      if (!this.box || this.mode === "home") this.home();
      else if (this.mode === "whole") this.fit();
      else this.apply();
    }

    // The smallest font size of the board's texts, in the board's units.
    smallestText() {
      let least = Infinity;
      for (const text of this.svg.querySelectorAll("text")) {
        const size = Number(text.getAttribute("data-mh-size")) || parseFloat(getComputedStyle(text).fontSize);
        if (size > 0 && text.textContent) least = Math.min(least, size);
      }
      for (const html of this.svg.querySelectorAll("foreignObject *")) {   // HTML drawn in the board
        const size = parseFloat(getComputedStyle(html).fontSize);
        if (size > 0 && html.textContent) least = Math.min(least, size);
      }
      return least;
    }

    // Drawn pixels per board unit for a view box (the SVG keeps its aspect: the smaller ratio).
    scaleOf(box) {
      const r = this.svg.getBoundingClientRect();
      return Math.min(r.width / box.w, r.height / box.h);
    }

    // The first view: the whole board, on a phone too (its text drawn no smaller than
    // minText: readable()); closer is a pinch or a button away.
    home() {
      if (!this.full) return;
      this.box = { ...this.full };
      this.mode = "home";
      this.apply();
    }

    // The whole board (the "whole board" button): a redraw keeps it whole.
    fit() {
      if (!this.full) return;
      this.box = { ...this.full };
      this.mode = "whole";
      this.apply();
    }

    apply() {
      if (!this.box) return;
      const b = this.box, f = this.full;
      if (f) {   // a view smaller than the board stays on it; a larger one is centred
        const keep = (at, size, from, length) => (size <= length ? Math.min(Math.max(at, from), from + length - size) : from + (length - size) / 2);
        b.x = keep(b.x, b.w, f.x, f.w);
        b.y = keep(b.y, b.h, f.y, f.h);
      }
      this.svg.setAttribute("viewBox", `${b.x} ${b.y} ${b.w} ${b.h}`);
      // Part of the board out of view: one finger pans it; else it scrolls the page.
      const whole = f && b.w >= f.w - 0.5 && b.h >= f.h - 0.5;
      this.svg.style.touchAction = whole ? "pan-y" : "none";
      this.svg.dataset.view = whole ? "whole" : "part";
      this.readable();
    }

    // No text of the board drawn under minText CSS pixels: at a scale that would draw one
    // smaller (the whole board on a phone), it is drawn at minText; its own size is kept
    // (data-mh-size) for closer views. Runs when the scale changes or new text is drawn.
    readable() {
      const scale = this.scaleOf(this.box);
      if (!(scale > 0) || !Number.isFinite(scale)) return;
      const texts = [...this.svg.querySelectorAll("text")];
      const fresh = texts.filter((text) => !text.hasAttribute("data-mh-size"));
      if (scale === this.textScale && !fresh.length) return;
      this.textScale = scale;
      for (const text of fresh) text.setAttribute("data-mh-size", parseFloat(getComputedStyle(text).fontSize) || 0);
      for (const text of texts) {
        const own = Number(text.getAttribute("data-mh-size"));
        text.style.fontSize = own > 0 && own * scale < this.minText ? `${this.minText / scale}px` : "";
      }
    }

    // A point of the screen in the board's units.
    toBoard(clientX, clientY) {
      const m = this.svg.getScreenCTM();
      return m ? new DOMPoint(clientX, clientY).matrixTransform(m.inverse()) : { x: 0, y: 0 };
    }

    // Zoom by `factor` (< 1 closer) around a point of the screen (the board's centre if none).
    zoom(factor, clientX, clientY, from = this.box) {
      if (!from || !this.full) return;
      const fitScale = this.scaleOf(this.full);
      const least = this.smallestText();
      const most = Math.max(fitScale, Number.isFinite(least) ? this.minText / least : fitScale) * 3;
      const scale = Math.min(Math.max(this.scaleOf(from) / factor, fitScale * 0.8), most);
      const k = this.scaleOf(from) / scale;
      const p = clientX === undefined ? { x: from.x + from.w / 2, y: from.y + from.h / 2 } : this.toBoard(clientX, clientY);
      this.box = { x: p.x - (p.x - from.x) * k, y: p.y - (p.y - from.y) * k, w: from.w * k, h: from.h * k };
      this.mode = "moved";
      this.apply();
    }

    down(e) {
      this.pointers.set(e.pointerId, { x: e.clientX, y: e.clientY });
      if (this.pointers.size === 1) {
        this.gesture = { kind: "press", x: e.clientX, y: e.clientY, box: { ...this.box }, id: e.pointerId };
      } else if (this.pointers.size === 2 && this.box) {
        const [a, b] = [...this.pointers.values()];
        this.gesture = { kind: "pinch", dist: Math.hypot(a.x - b.x, a.y - b.y) || 1, box: { ...this.box },
          mid: { x: (a.x + b.x) / 2, y: (a.y + b.y) / 2 } };
        for (const id of this.pointers.keys()) if (this.svg.hasPointerCapture && !this.svg.hasPointerCapture(id)) this.capture(id);
      }
    }

    capture(id) {
      try { this.svg.setPointerCapture(id); } catch (error) { /* the pointer is gone */ }
    }

    move(e) {
      if (!this.pointers.has(e.pointerId)) return;
      this.pointers.set(e.pointerId, { x: e.clientX, y: e.clientY });
      const g = this.gesture;
      if (!g || !g.box || !this.box) return;
      if (g.kind === "pinch" && this.pointers.size >= 2) {
        const [a, b] = [...this.pointers.values()];
        const dist = Math.hypot(a.x - b.x, a.y - b.y) || 1;
        this.zoom(g.dist / dist, g.mid.x, g.mid.y, g.box);
        g.dragged = true;
        return;
      }
      if (g.kind !== "press" && g.kind !== "pan") return;
      const dx = e.clientX - g.x, dy = e.clientY - g.y;
      if (g.kind === "press") {
        if (Math.hypot(dx, dy) < 6) return;   // a tap or a click, not a drag
        g.kind = "pan";
        this.capture(e.pointerId);
      }
      const scale = this.scaleOf(g.box);
      this.box = { ...g.box, x: g.box.x - dx / scale, y: g.box.y - dy / scale };
      this.mode = "moved";
      this.apply();
    }

    up(e) {
      if (!this.pointers.delete(e.pointerId)) return;
      const g = this.gesture;
      if (g && (g.kind === "pan" || g.kind === "pinch")) {
        // The click that ends a drag is not a pick: swallow it once.
        const swallow = (click) => { click.stopPropagation(); click.preventDefault(); };
        this.svg.addEventListener("click", swallow, { capture: true, once: true });
        setTimeout(() => this.svg.removeEventListener("click", swallow, { capture: true }), 0);
      }
      if (!this.pointers.size) this.gesture = null;
      else if (g && g.kind === "pinch") this.gesture = { kind: "done" };
    }

    // The zoom buttons: closer, further, the whole board.
    tools() {
      const button = (label, text, onclick) => MH.el("button", { type: "button", class: "icon zoom", "aria-label": label, title: label, onclick }, text);
      return [button("Zoom in", "+", () => this.zoom(0.8)), button("Zoom out", "−", () => this.zoom(1.25)),
        button("Fit the whole board", "Fit", () => this.fit())];
    }
  },

  // Tap to see a power: on a touch screen, where hover tooltips cannot be reached, a tap on
  // anything of a board that has a tooltip (its title, or an SVG <title>: the game's words
  // and components as the plugin drew them) shows that text in a panel at the foot of the
  // screen. A tap still plays what it plays; the panel only says what was touched.
  powerText(target) {
    for (let node = target; node && node !== document.body; node = node.parentNode) {
      if (!(node instanceof Element)) continue;
      if (node.id === "power-panel" || node.matches(".board-tools, .turn-actions, .action-groups, .chooser")) return null;
      const own = node.getAttribute("title");
      if (own) return own;
      const svgTitle = [...node.children].find((child) => child.tagName.toLowerCase() === "title");
      if (svgTitle && svgTitle.textContent) return svgTitle.textContent;
      if (node.id === "game-area" || node.tagName.toLowerCase() === "main") return null;
    }
    return null;
  },

  showPower(text) {
    let panel = document.getElementById("power-panel");
    if (!panel) {
      panel = MH.el("aside", { id: "power-panel", class: "power-panel", "aria-label": "What you touched", "aria-live": "polite" },
        MH.el("p", { id: "power-text" }),
        MH.el("button", { type: "button", class: "icon", "aria-label": "Close", onclick: () => { panel.hidden = true; MH.markTapped(null); } }, "×"));
      document.body.append(panel);
    }
    document.getElementById("power-text").textContent = text;
    panel.hidden = false;
  },

  watchTaps() {
    let press = null;
    document.addEventListener("pointerdown", (e) => {
      press = e.pointerType === "mouse" ? null : { x: e.clientX, y: e.clientY, target: e.target };
    }, true);
    document.addEventListener("pointerup", (e) => {
      const p = press;
      press = null;
      if (!p || Math.hypot(e.clientX - p.x, e.clientY - p.y) > 10) return;   // a drag, not a tap
      if (!p.target.closest || !p.target.closest("#game-area")) return;
      const preview = document.getElementById("mh-preview");
      if (preview && !preview.hidden) return;   // a long press: its preview says it already
      const text = MH.powerText(p.target);
      if (text) {
        MH.showPower(text);
        MH.markTapped(MH.powerNode(p.target));
      }
    }, true);
    // A board drawn again (a move, a tile chosen) gets the tapped mark back (MH.markTapped).
    new MutationObserver(() => { if (MH.tapped && !MH.tapped.node.isConnected) MH.drawTapped(); })
      .observe(document.body, { childList: true, subtree: true });
  },

  // Targets on a board (issue 21: explanations before a move, keyboard play) -----------------
  // A board plugin marks each element a move can be made on with data-target (the JSON of the
  // action's target, as the game's words give it: MH.markTargets does it for every element
  // with data-action). MH.previews(board) shows, on hover, focus or a long press, what the
  // target would do: the game's words from GET /api/tables/ID/preview (the points and lines,
  // the cost and effect, or the rule that forbids it), in one panel (#mh-preview). The table
  // page says where to ask (MH.previewSource = {tableId, version(), seatName}).
  previewSource: null,
  previewCache: new Map(),

  // Give every element with data-action among `box` its action's target (data-target) and,
  // if it shows no text of its own (a cell, a die face), an accessible name from the action's
  // label; one that shows text keeps it as its name (a screen reader reads what is seen) and
  // gets the label as its description.
  markTargets(box, actions, seatName) {
    const byNotation = new Map((actions || []).map((a) => [a.notation, a]));
    for (const node of box.querySelectorAll("[data-action]")) {
      const action = byNotation.get(node.dataset.action);
      if (!action) continue;
      if (action.target && !node.hasAttribute("data-target")) node.setAttribute("data-target", JSON.stringify(action.target));
      if (node.hasAttribute("aria-label")) continue;
      const label = MH.fill(action.label, seatName);
      if (!node.textContent.trim()) node.setAttribute("aria-label", label);
      else if (!node.textContent.includes(label)) node.setAttribute("aria-description", label);
    }
  },

  // The text an SVG group shows (its <text> elements, not its tooltip): the start of its accessible name.
  shownText(node) {
    return [...node.querySelectorAll("text")].map((t) => t.textContent.trim()).filter(Boolean).join(" ");
  },

  async previewOf(target) {
    const source = MH.previewSource;
    const version = source && MH.me ? source.version() : null;
    if (version === null) return null;   // nobody to ask for: a spectator, no game yet
    const key = `${version}|${target}`;
    if (!MH.previewCache.has(key)) {
      if (MH.previewCache.size > 200) MH.previewCache.clear();
      const path = `/api/tables/${encodeURIComponent(source.tableId)}/preview?target=${encodeURIComponent(target)}`;
      // A failed request (a rate limit, the network) is not kept: the next hover asks again.
      MH.previewCache.set(key, MH.api("GET", path).then((data) => data.preview).catch(() => { MH.previewCache.delete(key); return null; }));
    }
    return MH.previewCache.get(key);
  },

  // The preview panel, drawn from the game's words (seat placeholders filled in).
  showPreview(preview, near) {
    let panel = document.getElementById("mh-preview");
    if (!panel) {
      panel = MH.el("aside", { id: "mh-preview", class: "mh-preview", role: "status", "aria-live": "polite", hidden: true });
      document.body.append(panel);
    }
    panel.textContent = "";
    if (!preview) { panel.hidden = true; return; }
    // A preview is only fetched through a page's MH.previewSource, which names the seats.
    const fill = (text) => MH.fill(text, MH.previewSource.seatName);
    panel.classList.toggle("illegal", !preview.legal);
    panel.append(MH.el("b", { class: "preview-title" }, fill(preview.title)));
    if (preview.points) panel.append(" ", MH.el("span", { class: "preview-points" }, fill(preview.points)));
    if (preview.cost) panel.append(" ", MH.el("span", { class: "preview-cost" }, fill(preview.cost)));
    if (preview.refusal) panel.append(MH.el("p", { class: "preview-refusal" }, fill(preview.refusal)));
    if (preview.lines.length) panel.append(MH.el("ul", {}, ...preview.lines.map((line) => MH.el("li", {}, fill(line)))));
    panel.hidden = false;
    if (near && near.getBoundingClientRect) {
      const r = near.getBoundingClientRect();
      const left = Math.max(4, Math.min(r.left, window.innerWidth - panel.offsetWidth - 4));
      const below = r.bottom + 8 + panel.offsetHeight < window.innerHeight;
      panel.style.left = `${left}px`;
      panel.style.top = `${below ? r.bottom + 8 : Math.max(4, r.top - panel.offsetHeight - 8)}px`;
    }
  },

  // Previews for the targets inside `board` (it may be redrawn: the listeners sit on it):
  // `targetOf(node)` may name a target for an element without data-target (an empty cell).
  previews(board, targetOf) {
    // touch: the last pointer was a finger. A tap's own mouseover and focus then show nothing:
    // the tap's panel (MH.watchTaps) says what was touched, once, and the board stays in view.
    let shown = null, timer = null, hovering = null, pressed = false, touch = false;
    const find = (node) => {
      for (let n = node; n && n !== board.parentNode; n = n.parentNode) {
        if (!n.getAttribute) continue;
        if (n.hasAttribute("data-target")) return [n, n.getAttribute("data-target")];
        const other = targetOf ? targetOf(n) : null;
        if (other) return [n, JSON.stringify(other)];
      }
      return [null, null];
    };
    const show = async (event) => {
      const [node, target] = find(event.target);
      if (!node) return;
      shown = target;
      const preview = await MH.previewOf(target);
      if (shown === target) MH.showPreview(preview, node);
    };
    const hide = () => { shown = null; clearTimeout(timer); clearTimeout(hovering); MH.showPreview(null); };
    // The pointer passing over a board asks only where it rests (a tenth of a second).
    board.addEventListener("mouseover", (e) => { clearTimeout(hovering); if (!touch) hovering = setTimeout(() => show(e), 100); });
    board.addEventListener("pointermove", (e) => { if (e.pointerType === "mouse") touch = false; });
    board.addEventListener("keydown", () => { touch = false; });
    board.addEventListener("focusin", (e) => { if (!touch) show(e); });
    board.addEventListener("mouseleave", hide);
    board.addEventListener("focusout", (e) => { if (!board.contains(e.relatedTarget)) hide(); });
    // A long press (touch, half a second) shows it too, and the finger lifting then plays nothing.
    board.addEventListener("pointerdown", (e) => {
      pressed = false;
      touch = e.pointerType !== "mouse";
      if (e.pointerType !== "touch") return;
      clearTimeout(timer);
      timer = setTimeout(() => { pressed = true; show(e); }, 500);
    });
    const swallow = (e) => { if (pressed) { e.stopImmediatePropagation(); e.preventDefault(); } };
    board.addEventListener("pointerup", (e) => { clearTimeout(timer); swallow(e); }, { capture: true });
    board.addEventListener("click", (e) => { swallow(e); pressed = false; }, { capture: true });
    board.addEventListener("pointercancel", () => clearTimeout(timer));
  },

  // Roving focus over the elements `selector` finds in `box` (one Tab stop for the lot):
  // arrow keys move to the nearest one that way on screen (cells of a grid, cards of a row,
  // regions of a map), Enter or Space plays it (`onEnter(node)`, else a click), Escape calls
  // `onEscape`. Call again after each redraw: the focused element is kept by `keyOf`.
  roving(box, selector, { onEnter, onEscape, keyOf, prefer } = {}) {
    const items = [...box.querySelectorAll(selector)];
    const key = keyOf || ((node) => node.getAttribute("data-target") || node.getAttribute("data-action") || "");
    const was = box.dataset.rovingKey;
    // The Tab stop: among the elements `prefer` matches if any (the regions with moves), else among all, the one
    // last focused, else the first.
    const preferred = prefer ? items.filter((node) => node.matches(prefer)) : [];
    const pool = preferred.length ? preferred : items;
    let current = pool.find((node) => key(node) === was) || pool[0];
    for (const node of items) {
      node.setAttribute("tabindex", node === current ? "0" : "-1");
      if (!node.hasAttribute("role") && !/^(BUTTON|A|INPUT)$/.test(node.tagName)) node.setAttribute("role", "button");
    }
    box.rovingOptions = { selector, onEnter, onEscape, key };
    if (box.dataset.roving) return items;
    box.dataset.roving = "1";
    box.addEventListener("focusin", (e) => {
      const { selector: sel, key: keyFn } = box.rovingOptions;
      const node = e.target.closest && e.target.closest(sel);
      if (!node || !box.contains(node)) return;
      for (const other of box.querySelectorAll(sel)) other.setAttribute("tabindex", other === node ? "0" : "-1");
      box.dataset.rovingKey = keyFn(node);
    });
    box.addEventListener("keydown", (e) => {
      const { selector: sel, onEnter: enter, onEscape: escape } = box.rovingOptions;
      const node = e.target.closest && e.target.closest(sel);
      if (e.key === "Escape") { if (escape) { e.preventDefault(); escape(); } return; }
      if (!node || !box.contains(node)) return;
      if (e.key === "Enter" || e.key === " ") {
        e.preventDefault();
        if (enter) enter(node); else node.dispatchEvent(new MouseEvent("click", { bubbles: true }));
        return;
      }
      const next = MH.arrowKeys(e.key, node, [...box.querySelectorAll(sel)]);
      if (next) { e.preventDefault(); next.focus(); }
    });
    return items;
  },

  // The element of `items` nearest to `from` in the direction of arrow key `key` (null: none that way).
  arrowKeys(key, from, items) {
    const way = { ArrowRight: [1, 0], ArrowLeft: [-1, 0], ArrowDown: [0, 1], ArrowUp: [0, -1] }[key];
    if (!way) return null;
    const centre = (n) => { const r = n.getBoundingClientRect(); return [r.left + r.width / 2, r.top + r.height / 2]; };
    const [fx, fy] = centre(from);
    let best = null, bestScore = Infinity;
    for (const node of items) {
      if (node === from) continue;
      const [x, y] = centre(node);
      const along = (x - fx) * way[0] + (y - fy) * way[1];
      if (along <= 1) continue;
      const across = Math.abs((x - fx) * way[1]) + Math.abs((y - fy) * way[0]);
      const score = along + 2 * across;
      if (score < bestScore) { bestScore = score; best = node; }
    }
    return best;
  },

  // Icons: each game's sprite (/games/NAME/icons.svg, its web/icons.svg) holds a <symbol> per
  // component its board draws, its id the component's key made safe for a URL (god:odin ->
  // god-odin, as meadhall.server.plugins.icon_id). MH.icon draws one as an <svg><use>: in
  // HTML, or inside a board's SVG with x, y, width and height. With `label` it is an image of
  // that name (role img); without, it is decoration beside words that say the same.
  iconId(key) { return String(key).replace(/[^A-Za-z0-9_-]/g, "-"); },

  icon(game, key, { label = null, cls = "", ...attrs } = {}) {
    const ns = "http://www.w3.org/2000/svg";
    const svg = document.createElementNS(ns, "svg");
    svg.setAttribute("class", `mh-icon${cls ? ` ${cls}` : ""}`);
    svg.setAttribute("data-icon", MH.iconId(key));
    for (const [name, value] of Object.entries(attrs)) if (value != null) svg.setAttribute(name, value);
    if (label) { svg.setAttribute("role", "img"); svg.setAttribute("aria-label", label); }
    else { svg.setAttribute("aria-hidden", "true"); svg.setAttribute("focusable", "false"); }
    const use = document.createElementNS(ns, "use");
    use.setAttribute("href", `/games/${encodeURIComponent(game)}/icons.svg?v=${encodeURIComponent(MH.version)}#${MH.iconId(key)}`);
    svg.append(use);
    return svg;
  },

  // The last move: the values that the latest events name under `fields` (a region, a god,
  // a seat ...), as the server sent them, for a board to mark what just changed. Only what
  // the events say: nothing is worked out from the rules here.
  touched(events, fields) {
    const found = new Set();
    for (const event of events || []) {
      for (const field of fields) {
        const value = event[field];
        if (value !== undefined && value !== null && typeof value !== "object") found.add(String(value));
      }
    }
    return found;
  },

  // Turn alerts: a chime and a browser notification (the Notification API) when it becomes
  // this player's turn while the tab is in the background. Off until the player turns them on
  // with the header's button (a click, which browsers require before they ask for permission);
  // the choice is kept in this browser. Without the permission the chime still plays.
  alertsOn() {
    try { return localStorage.getItem("mh-turn-alerts") === "on"; } catch (e) { return false; }
  },

  async setAlerts(on) {
    try { localStorage.setItem("mh-turn-alerts", on ? "on" : "off"); } catch (e) { /* private mode: this page only */ }
    if (on && "Notification" in window && Notification.permission === "default") {
      try { await Notification.requestPermission(); } catch (e) { /* refused: the chime alone */ }
    }
    if (on) MH.chime();   // the click is the gesture that lets the page play sound later
    MH.renderWho();
  },

  turnAlert(title, body, url) {
    if (!MH.alertsOn() || !document.hidden) return;
    MH.chime();
    if ("Notification" in window && Notification.permission === "granted") {
      const note = new Notification(title, { body, tag: url, icon: "/static/favicon.svg" });
      note.onclick = () => {
        window.focus();
        if (url && location.pathname !== url) location.href = url;
        note.close();
      };
    }
  },

  chime() {
    const Context = window.AudioContext || window.webkitAudioContext;
    if (!Context) return;
    try {
      MH.audio = MH.audio || new Context();
      const start = MH.audio.currentTime;
      for (const [offset, pitch] of [[0, 660], [0.16, 880]]) {   // two soft rising notes
        const tone = MH.audio.createOscillator();
        const level = MH.audio.createGain();
        tone.frequency.value = pitch;
        level.gain.setValueAtTime(0.0001, start + offset);
        level.gain.exponentialRampToValueAtTime(0.15, start + offset + 0.02);
        level.gain.exponentialRampToValueAtTime(0.0001, start + offset + 0.3);
        tone.connect(level).connect(MH.audio.destination);
        tone.start(start + offset);
        tone.stop(start + offset + 0.32);
      }
    } catch (e) { /* no audio device: the notification alone */ }
  },

  // Motion for what just happened (issue 21): a board plugin animates the events of an update
  // that arrived live, once: a tile dropping into its cell, a figure marching, a die tumbling,
  // a +N pulse. Never on a page's first drawing, a resync, a replay or a redraw of the same
  // version, and never where the reader asks for reduced motion. The board's final state is
  // drawn at once either way: motion only decorates it, for at most MH.MOTION_MS, and never
  // waits for anything. table.js says which version arrived live (MH.liveUpdate).
  MOTION_MS: 600,
  liveVersion: null,     // the version the latest live update brought
  movedVersion: null,    // the version whose motion was played

  liveUpdate(version) { MH.liveVersion = version; },

  reducedMotion() {
    return Boolean(window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches);
  },

  // The events of `game` to animate: those of a live update not animated yet (none otherwise,
  // and none for reduced motion). The last move's marks inside `box` (.last-move) glow once.
  motion(game, box) {
    if (!game || game.version !== MH.liveVersion || MH.movedVersion === game.version) return [];
    MH.movedVersion = game.version;
    if (MH.reducedMotion()) return [];
    if (box) for (const node of box.querySelectorAll(".last-move")) MH.animate(node, "mh-glow");
    return game.events || [];
  },

  // Motion `name` (a class, mh-...) on `node` once: that class and mh-motion (keyframes in style.css
  // or the game's plugin.css), taken off again after MH.MOTION_MS. With `delta` (a signed number:
  // points, Glory, followers), a +N / −N label rises from the node. `vars` set CSS custom
  // properties for the keyframes (a distance to travel); a `ghost` (a copy drawn only for the
  // motion: a figure on its way, a tile leaving) is removed at the end. Tests read window.__mhMotions.
  animate(node, name, { delta = 0, vars = {}, ghost = false } = {}) {
    if (!node) return null;
    for (const [key, value] of Object.entries(vars)) node.style.setProperty(`--${key}`, value);
    node.classList.add("mh-motion", name);
    let label = null;
    if (delta) {
      const text = `${delta > 0 ? "+" : "−"}${Math.abs(delta)}`;
      const svg = node.namespaceURI === "http://www.w3.org/2000/svg" && node.tagName.toLowerCase() !== "svg";
      if (svg) {
        const box = node.getBBox();
        label = document.createElementNS("http://www.w3.org/2000/svg", "text");
        label.setAttribute("x", box.x + box.width / 2);
        label.setAttribute("y", box.y - 2);
        label.setAttribute("class", `mh-motion mh-delta ${delta > 0 ? "up" : "down"}`);
        label.textContent = text;
        node.parentNode.append(label);
      } else {
        label = MH.el("span", { class: `mh-motion mh-delta ${delta > 0 ? "up" : "down"}`, "aria-hidden": "true" }, text);
        node.append(label);
      }
    }
    const running = node.getAnimations ? node.getAnimations().length : 0;
    (window.__mhMotions = window.__mhMotions || []).push({ name, running, delta });
    setTimeout(() => {
      if (ghost) node.remove();
      else node.classList.remove("mh-motion", name);
      if (label) label.remove();
    }, MH.MOTION_MS + 50);
    return node;
  },

  // A seat's line in the players' list pulses with the change of its score (`delta`: points,
  // Glory, followers, as the event gives them). The page draws that list after the board: later.
  scored(seat, delta) {
    if (delta) setTimeout(() => MH.animate(document.querySelector(`#scores li[data-seat="${seat}"]`), "mh-pulse", { delta }), 0);
  },

  // A guided first game (server/guides.py): start a guided table of `game` and go there
  // (signing in first). `leaving`: a guided table to abandon first (Start again).
  async learnToPlay(game, leaving) {
    if (!MH.me) { location.href = `/signin?next=${encodeURIComponent(location.pathname)}`; return; }
    if (leaving) await MH.api("POST", `/api/tables/${encodeURIComponent(leaving)}/abandon`).catch(() => null);
    const table = await MH.api("POST", `/api/guides/${encodeURIComponent(game)}`, {});
    location.href = `/t/${table.id}`;
  },

  // Every [data-learn] button on a page starts that game's guided first game (the rules pages).
  learnButtons(box) {
    for (const button of box.querySelectorAll("button[data-learn]")) {
      button.addEventListener("click", () => MH.learnToPlay(button.dataset.learn).catch((e) => { button.title = e.message; }));
    }
  },

  // The guide's panel at a guided table (payload.guide: title, step, steps, say, target, done):
  // the step's words, names filled; Skip the guide (the table is abandoned, back to the lobby)
  // and Start again. The board plugin's highlight(target), if it has one, points at the target.
  guidePanel(panel, guide, seatName, tableId, game) {
    panel.hidden = !guide;
    if (!guide) return;
    panel.textContent = "";
    const where = guide.done ? "done" : `step ${guide.step + 1} of ${guide.steps}`;
    panel.append(MH.el("h3", {}, `${guide.title} (${where})`));
    for (const para of MH.fill(guide.say, seatName).split("\n\n")) panel.append(MH.el("p", {}, para));
    const tools = MH.el("p", { class: "guide-tools" });
    tools.append(MH.el("button", { type: "button", id: "guide-restart", onclick: () => MH.learnToPlay(game, tableId) }, "Start again"), " ");
    if (!guide.done) {
      tools.append(MH.el("button", { type: "button", id: "guide-skip", class: "quiet", onclick: async () => {
        await MH.api("POST", `/api/tables/${encodeURIComponent(tableId)}/abandon`).catch(() => null);
        location.href = "/lobby";
      } }, "Skip the guide"));
    }
    panel.append(tools);
  },

  // The seats' clocks (a table with a time control) in `box`: the server sends each seat's
  // remaining seconds, whose clocks run and a note per seat (its words); the page only
  // counts the running ones down from the moment it received them, and redraws.
  clocks(box, clock, seatName) {
    clearInterval(MH.clockTimer);
    box.textContent = "";
    box.hidden = !clock;
    if (!clock) return;
    const received = performance.now();
    const format = (seconds) => {
      const whole = Math.ceil(seconds);
      if (whole >= 86400) return `${Math.floor(whole / 86400)}d ${Math.floor((whole % 86400) / 3600)}h`;
      if (whole >= 3600) return `${Math.floor(whole / 3600)}h ${String(Math.floor((whole % 3600) / 60)).padStart(2, "0")}m`;
      return `${Math.floor(whole / 60)}:${String(whole % 60).padStart(2, "0")}`;
    };
    const items = clock.remaining.map((_, seat) => MH.el("li", { class: "clock", "data-seat": seat }));
    const draw = () => {
      const spent = (performance.now() - received) / 1000;
      clock.remaining.forEach((left, seat) => {
        if (left === null) return;   // a bot's seat has no clock
        const running = clock.running.includes(seat);
        const now = running ? Math.max(0, left - spent) : left;
        const note = (clock.notes || [])[seat];
        items[seat].textContent = `${seatName(seat)}: ${format(now)}${note ? ` (${note})` : ""}`;
        items[seat].classList.toggle("running", running);
        items[seat].classList.toggle("low", running && now < 20);
      });
    };
    draw();
    box.append(...items.filter((_, seat) => clock.remaining[seat] !== null));
    if (clock.running.length) MH.clockTimer = setInterval(draw, 250);
  },

  // The element whose words a tap shows (MH.powerText's): the one with the title or the <title>.
  powerNode(target) {
    for (let node = target; node && node !== document.body; node = node.parentNode) {
      if (!(node instanceof Element)) continue;
      if (node.getAttribute("title") || [...node.children].some((c) => c.tagName.toLowerCase() === "title")) return node;
    }
    return null;
  },

  // What a tap showed the power of stays marked on the board while its panel is open (issue 21):
  // .mh-tapped on it (style.css: a ring round a card or tile, a halo round a shape of a map).
  // When the board is drawn again, the element with the same tag and data-* attributes gets it.
  tapped: null,

  markTapped(node) {
    let key = null;
    if (node) {
      const data = [...node.attributes].filter((a) => a.name.startsWith("data-") && a.name !== "data-target");
      key = data.length ? node.tagName.toLowerCase() + data.map((a) => `[${a.name}="${CSS.escape(a.value)}"]`).join("") : null;
    }
    MH.tapped = node ? { node, key } : null;
    MH.drawTapped();
  },

  drawTapped() {
    for (const old of document.querySelectorAll(".mh-tapped")) old.classList.remove("mh-tapped");
    const tapped = MH.tapped;
    if (!tapped) return;
    if (!tapped.node.isConnected) {
      const again = tapped.key ? document.querySelector(`#game-area ${tapped.key}`) : null;
      if (!again) return;
      tapped.node = again;
    }
    tapped.node.classList.add("mh-tapped");
  },

  // The key to the board's marks (issue 21), beside the zoom buttons while the board marks the
  // last move (.last-move): its words are the page's (<template id="board-key-words">, from the server).
  boardKey(area) {
    const words = document.getElementById("board-key-words");
    const tools = area && area.querySelector(".board-tools");
    if (!words || !tools) return;
    let key = tools.querySelector(".board-key");
    if (!key) {
      key = words.content.firstElementChild.cloneNode(true);
      tools.append(key);
    }
    key.hidden = !area.querySelector(".last-move");
  },

  // The site's header on a phone (issue 21): the Menu button (base.html) opens and closes what
  // folds behind it; Escape closes it and gives the focus back to the button. On a wide screen
  // the button is not shown and everything is in the row (style.css).
  topMenu() {
    const button = document.getElementById("menu-button");
    if (!button) return;
    const nav = button.closest("nav");
    const set = (open) => { button.setAttribute("aria-expanded", String(open)); nav.classList.toggle("open", open); };
    button.addEventListener("click", () => set(button.getAttribute("aria-expanded") !== "true"));
    nav.addEventListener("keydown", (e) => {
      if (e.key !== "Escape" || button.getAttribute("aria-expanded") !== "true") return;
      set(false);
      button.focus();
    });
  },

  // A guided game's step, for a board plugin without highlight(): every element of `box` whose
  // move (data-action) is one the step asks for (guide.expect) is marked .guide-target.
  markGuided(box, guide) {
    for (const node of box.querySelectorAll(".guide-target")) node.classList.remove("guide-target");
    const wanted = new Set(guide && !guide.done ? guide.expect || [] : []);
    for (const node of box.querySelectorAll("[data-action]")) {
      if (wanted.has(node.dataset.action)) node.classList.add("guide-target");
    }
  },
};

document.addEventListener("DOMContentLoaded", async () => {
  MH.topMenu();
  MH.watchTaps();
  await MH.loadMe();
  document.dispatchEvent(new CustomEvent("mh:ready"));
  MH.learnButtons(document);
  MH.pollTurns();
  setInterval(MH.pollTurns, 20000);
});
