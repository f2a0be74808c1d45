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
    who.append(
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
    else banner = "The game is over.";
    box.append(MH.el("h2", { class: "end-banner", id: "end-banner" }, banner));
    if (end.ending === "resigned" && end.resigned != null) {
      box.append(MH.el("p", { class: "muted" }, `${seatName(end.resigned)} resigned.`));
    }
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
};

document.addEventListener("DOMContentLoaded", async () => {
  await MH.loadMe();
  document.dispatchEvent(new CustomEvent("mh:ready"));
  MH.pollTurns();
  setInterval(MH.pollTurns, 20000);
});
