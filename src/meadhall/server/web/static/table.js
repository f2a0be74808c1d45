"use strict";
// A table: the waiting room before the start, then the game, live over a WebSocket.
// The game's own interface (board, hand, actions, words) is a plugin registered in
// window.MeadhallGames by voluspa.js and bloodrage.js; this file is the same for every game.
// A plugin has load(ctx) (fetch its components), mount(area, ctx), render(game, ctx),
// players(view, ctx) -> Node, eventText(event, seatName) -> [text, details] and
// ranking(view, seatName) -> {rows, notes}; ctx = {tableId, seatName, send(text), prompt(text)}.
(() => {
  const app = document.getElementById("table-app");
  const tableId = app.dataset.table;
  const code = new URLSearchParams(location.search).get("code");
  let table = null;      // lobby description (seats, names)
  let game = null;       // {version, view, legal, seat, status}
  let ui = null;         // the game's plugin
  let socket = null;
  let retry = 500;
  let sending = false;
  let nextActId = 1;
  const pending = new Map();   // act id -> {resolve, reject}: moves sent over the socket

  const $ = (id) => document.getElementById(id);

  function seatName(seat) {
    if (!table) return `Seat ${seat + 1}`;
    const s = table.seats[seat];
    if (!s) return `Seat ${seat + 1}`;
    const base = s.user ? s.user.display_name : s.bot ? `${s.bot} bot` : `Seat ${seat + 1}`;
    return game && game.seat === seat ? `${base} (you)` : base;
  }

  // Waiting room ---------------------------------------------------------------------------

  function renderWaiting() {
    $("waiting").hidden = false;
    $("game").hidden = true;
    $("waiting-title").textContent = `${table.title}: waiting for players`;
    const list = $("seat-list");
    list.textContent = "";
    for (const seat of table.seats) {
      let who = "open seat";
      if (seat.user) who = seat.user.display_name;
      else if (seat.bot) who = `${seat.bot} bot`;
      else if (seat.kind === "invite") who = `invited: ${seat.invited}`;
      else if (seat.kind === "link") who = "for whoever has the invitation link";
      list.append(MH.el("li", {}, `Seat ${seat.seat + 1}: ${who}`));
    }
    const actions = $("waiting-actions");
    actions.textContent = "";
    if (!MH.me) {
      actions.append(MH.el("a", { class: "button primary", href: `/signin?next=${encodeURIComponent(location.pathname + location.search)}` }, "Sign in to join"));
    } else if (table.my_seat == null) {
      actions.append(MH.el("button", { class: "primary", id: "join-button", onclick: () => post(`/api/tables/${tableId}/join`, code ? { code } : {}) }, "Join"));
    } else {
      actions.append(MH.el("button", { id: "leave-button", onclick: () => post(`/api/tables/${tableId}/leave`) }, "Leave"));
    }
    if (MH.me && table.created_by && MH.me.id === table.created_by.id) {
      actions.append(" ", MH.el("button", { class: "primary", id: "start-button", onclick: () => post(`/api/tables/${tableId}/start`) }, "Start the game"));
      actions.append(" ", MH.el("button", { id: "abandon-button", onclick: () => post(`/api/tables/${tableId}/abandon`) }, "Abandon"));
      if (table.join_code) {
        $("invite").hidden = false;
        $("invite-link").value = `${location.origin}/t/${tableId}?code=${table.join_code}`;
      }
    }
  }

  async function post(path, body) {
    $("waiting-error").textContent = "";
    try {
      table = await MH.api("POST", path, body || {});
      await refreshTable();
    } catch (e) {
      $("waiting-error").textContent = e.message;
    }
  }

  async function refreshTable() {
    table = await MH.api("GET", `/api/tables/${tableId}`);
    if (table.status === "open") {
      renderWaiting();
      setTimeout(refreshTable, 2000);
    } else if (table.status === "abandoned") {
      $("waiting").hidden = false;
      $("game").hidden = true;
      $("waiting-title").textContent = "This table was abandoned.";
      $("waiting-actions").textContent = "";
      $("seat-list").textContent = "";
    } else {
      await startGame();
    }
  }

  // The game --------------------------------------------------------------------------------

  const context = {
    tableId,
    seatName,
    send: (text) => send(text),
    prompt: (text) => { const p = document.getElementById("prompt"); if (p) p.textContent = text; },
  };

  async function startGame() {
    $("waiting").hidden = true;
    $("game").hidden = false;
    if (ui) return;
    ui = (window.MeadhallGames || {})[table.game];
    if (!ui) {
      $("game-area").textContent = `This page cannot show ${table.title} yet.`;
      return;
    }
    await ui.load(context);
    ui.mount($("game-area"), context);
    $("chat-form").addEventListener("submit", sendChat);
    loadChat();
    connect();
  }

  function connect() {
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    socket = new WebSocket(`${scheme}://${location.host}/ws/tables/${tableId}`);
    socket.onopen = () => { retry = 500; };
    socket.onmessage = (message) => receive(JSON.parse(message.data));
    socket.onclose = () => {
      socket = null;
      for (const [, waiting] of pending) {
        const error = new Error("The connection dropped; the table reloads from the server.");
        error.code = "disconnected";
        waiting.reject(error);
      }
      pending.clear();
      if (game && (game.status === "finished" || game.status === "abandoned")) return;
      setTimeout(connect, retry);
      retry = Math.min(retry * 2, 10000);
    };
  }

  function resync() {
    if (socket) socket.send(JSON.stringify({ type: "resync" }));
  }

  function receive(message) {
    if (message.type === "snapshot") {
      // A fresh snapshot is the truth: moves still waiting for an answer (the server may
      // have dropped a stuck socket's backlog) are settled by it.
      for (const [, waiting] of pending) waiting.resolve(message);
      pending.clear();
      const first = !game;
      game = message;
      render();
      if (first) loadLog();
    } else if (message.type === "update") {
      if (game && message.version <= game.version) return;          // already have it (our own move)
      if (!game || message.version !== game.version + 1) {          // missed a version: ask again
        resync();
        return;
      }
      game = message;
      addLog(message.events || []);
      render();
    } else if (message.type === "acted" || message.type === "refused") {
      const waiting = pending.get(message.id);
      pending.delete(message.id);
      if (!waiting) return;
      if (message.type === "acted") waiting.resolve(message);
      else {
        const error = new Error(message.message || "The move was refused.");
        error.code = message.error;
        waiting.reject(error);
      }
    } else if (message.type === "resync-needed") {
      resync();
    } else if (message.type === "chat") {
      addChat(message.message);
    } else if (message.type === "abandoned") {
      game.status = "abandoned";
      render();
    }
  }

  let wasMyTurn = null;
  function render() {
    window.__mhVersion = game.version;  // tests wait on it
    const myTurn = Boolean(game.legal && game.legal.length);
    // the "your turn" count in the menu and the title follows this table at once, not at the next poll
    if (wasMyTurn !== null && wasMyTurn !== myTurn) MH.pollTurns();
    wasMyTurn = myTurn;
    MH.titleExtra = myTurn ? `Your turn — ${table.title} — meadhall` : `${table.title} — meadhall`;
    MH.setTitle(MH.titleExtra);
    if (myTurn) document.title = `● ${document.title}`;
    ui.render(game, context);
    // A response window where this seat can only pass: the server answers after the same pause as everyone's.
    if (game.answered) context.prompt("Nothing in your hand answers this: the table passes for you in a moment.");
    const players = $("players");
    players.textContent = "";
    players.append(ui.players(game.view, context));
    renderAbandon();
    renderEnd(game.view);
  }

  async function send(text) {
    if (sending) return;
    sending = true;
    try {
      if (socket && socket.readyState === WebSocket.OPEN) {
        // Over the live socket: the update arrives on it before the answer.
        await new Promise((resolve, reject) => {
          const id = nextActId++;
          pending.set(id, { resolve, reject });
          socket.send(JSON.stringify({ type: "act", id, action: text, version: game.version }));
        });
        return;
      }
      const result = await MH.api("POST", `/api/tables/${tableId}/actions`, { action: text, version: game.version });
      if (result.version > game.version) {
        game = result;
        addLog(result.events || []);
        render();
      }
    } catch (e) {
      context.prompt(e.message);
      if (e.code === "stale") resync();
    } finally {
      sending = false;
    }
  }

  function renderAbandon() {
    const box = $("table-tools");
    box.textContent = "";
    if (!MH.me || !table.created_by || MH.me.id !== table.created_by.id || game.status !== "active") return;
    if (game.view.finished) return;
    box.append(MH.el("button", { type: "button", id: "abandon-game", class: "quiet", onclick: async () => {
      if (!confirm("Abandon this game for everyone? It ends without a result.")) return;
      try { await MH.api("POST", `/api/tables/${tableId}/abandon`); location.reload(); }
      catch (e) { context.prompt(e.message); }
    } }, "Abandon game"));
  }

  function renderEnd(view) {
    const panel = $("end-panel");
    if (!view.finished) { panel.hidden = true; return; }
    panel.hidden = false;
    const result = ui.ranking(view, seatName);
    const box = $("end-screen");
    box.textContent = "";
    box.append(MH.el("ul", { class: "ranking" }, ...result.rows.map((r) => MH.el("li", {}, r))));
    for (const note of result.notes) box.append(MH.el("p", {}, note));
    box.append(MH.el("p", {}, MH.el("a", { href: `/replay/${tableId}` }, "Replay this game"), " · ",
      MH.el("a", { href: `/api/tables/${tableId}/record` }, "Export JSON")));
  }

  function addLog(events) {
    const log = $("log");
    for (const event of events) {
      const [text, details] = ui.eventText(event, seatName);
      if (!text) continue;
      const item = MH.el("li", { class: `event event-${event.kind}` }, text);
      if (details.length) item.append(MH.el("ul", {}, ...details.map((d) => MH.el("li", {}, d))));
      log.prepend(item);
    }
  }

  async function loadLog() {
    try {
      const data = await MH.api("GET", `/api/tables/${tableId}/log`);
      $("log").textContent = "";
      for (const step of data.steps) addLog(step.events);
    } catch (e) { /* the log fills from live updates */ }
  }

  // Chat ----------------------------------------------------------------------------------

  function addChat(message) {
    const list = $("chat");
    const item = MH.el("li", { "data-user": message.user_id }, MH.el("b", {}, message.name || "?"), ": ", message.text);
    if (MH.me && message.user_id !== MH.me.id) {
      item.append(" ", MH.el("button", { type: "button", class: "link mute", title: "Hide this person's messages",
        onclick: () => mute(message) }, "mute"));
    }
    list.append(item);
    list.scrollTop = list.scrollHeight;
  }

  async function mute(message) {
    try {
      await MH.api("POST", `/api/users/${encodeURIComponent(message.user_name)}/mute`, { mute: true });
      for (const li of [...$("chat").children]) if (li.dataset.user === String(message.user_id)) li.remove();
    } catch (e) { context.prompt(e.message); }
  }

  async function loadChat() {
    try {
      const data = await MH.api("GET", `/api/tables/${tableId}/chat`);
      $("chat").textContent = "";
      for (const message of data.messages) addChat(message);
    } catch (e) { /* chat is optional */ }
  }

  async function sendChat(event) {
    event.preventDefault();
    const input = event.target.text;
    if (!input.value.trim()) return;
    try {
      await MH.api("POST", `/api/tables/${tableId}/chat`, { text: input.value });
      input.value = "";
    } catch (e) { context.prompt(e.message); }
  }

  document.addEventListener("mh:ready", async () => {
    try {
      await refreshTable();
    } catch (e) {
      $("waiting").hidden = false;
      $("waiting-title").textContent = e.message;
    }
  });
})();
