"use strict";
// A table: the waiting room before the start, then the game, live over a WebSocket.
(() => {
  const app = document.getElementById("table-app");
  const tableId = app.dataset.table;
  const code = new URLSearchParams(location.search).get("code");
  let table = null;      // lobby description (seats, names)
  let game = null;       // {version, view, legal, seat, status}
  let selected = null;   // tile code chosen in the hand
  let socket = null;
  let retry = 500;
  let sending = false;
  let seenLog = 0;

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
      startGame();
    }
  }

  // The game --------------------------------------------------------------------------------

  let board = null;

  function startGame() {
    $("waiting").hidden = true;
    $("game").hidden = false;
    if (!board) {
      board = new Voluspa.Board($("board"), onCell);
      $("zoom-in").onclick = () => board.zoom(0.8);
      $("zoom-out").onclick = () => board.zoom(1.25);
      $("zoom-fit").onclick = () => board.fit();
      $("chat-form").addEventListener("submit", sendChat);
      loadChat();
      connect();
    }
  }

  function connect() {
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    socket = new WebSocket(`${scheme}://${location.host}/ws/tables/${tableId}`);
    socket.onopen = () => { retry = 500; };
    socket.onmessage = (message) => receive(JSON.parse(message.data));
    socket.onclose = () => {
      socket = null;
      if (game && (game.status === "finished" || game.status === "abandoned")) return;
      setTimeout(connect, retry);
      retry = Math.min(retry * 2, 10000);
    };
  }

  function receive(message) {
    if (message.type === "snapshot") {
      const first = !game;
      game = message;
      render();
      if (first) loadLog();
    } else if (message.type === "update") {
      if (game && message.version <= game.version) return;          // already have it (our own move)
      if (!game || message.version !== game.version + 1) {          // missed a version: ask again
        if (socket) socket.send(JSON.stringify({ type: "resync" }));
        return;
      }
      game = message;
      addLog(message.events || []);
      render();
    } else if (message.type === "resync-needed") {
      if (socket) socket.send(JSON.stringify({ type: "resync" }));
    } else if (message.type === "chat") {
      addChat(message.message);
    } else if (message.type === "abandoned") {
      game.status = "abandoned";
      render();
    }
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

  function render() {
    window.__mhVersion = game.version;  // tests wait on it
    const view = game.view;
    const mine = game.seat;
    const myTurn = game.legal && game.legal.length > 0;
    const actions = legalActions();
    if (view.stage === "raven" && myTurn) selected = "RA";
    if (selected && !actions.some((a) => a.tile === selected && (a.kind === "place" || a.kind === "bump"))) selected = null;
    const marked = (view.turn_cells && view.turn_cells.length ? view.turn_cells : (view.last_turn ? view.last_turn.cells : []))
      .map((c) => `${c[0]},${c[1]}`);
    board.render(view, selected ? targetsFor(selected) : [], marked);
    // status and prompt
    const toMove = (view.to_move || []).map(seatName).join(", ");
    $("status-line").textContent = view.finished ? "Game over" : `Turn ${view.turn} · ${toMove} to play · pile ${view.pile}`;
    const prompt = $("prompt");
    if (game.status === "abandoned") prompt.textContent = "This table was abandoned.";
    else if (view.finished) prompt.textContent = "The game is over.";
    else if (!myTurn) prompt.textContent = mine == null ? "You are watching." : `Waiting for ${toMove}.`;
    else if (view.stage === "hermod") prompt.textContent = "Hermod: place one more tile in its row or column line, or end the turn.";
    else if (view.stage === "raven") prompt.textContent = "Raven: place it once more on another cell, or end the turn.";
    else if (view.stage === "discard-down") prompt.textContent = "Skadi brought Freyas back: discard down to five tiles.";
    else if (actions.every((a) => a.kind === "discard")) prompt.textContent = "No tile in your hand can be played: discard one.";
    else prompt.textContent = selected ? `Choose where ${Voluspa.tileName(selected)} goes (highlighted cells).` : "Your turn: choose a tile from your hand.";
    MH.titleExtra = myTurn ? `Your turn — ${table.title} — meadhall` : `${table.title} — meadhall`;
    MH.setTitle(MH.titleExtra);
    if (myTurn) document.title = `● ${document.title}`;
    renderHand(view, myTurn, actions);
    renderTurnActions(myTurn, actions);
    renderAbandon();
    renderScores(view);
    renderEnd(view);
  }

  function renderHand(view, myTurn, actions) {
    const hand = $("hand");
    hand.textContent = "";
    if (!view.hand) return;
    const playable = new Set(actions.filter((a) => a.kind === "place" || a.kind === "bump").map((a) => a.tile));
    view.hand.forEach((code, index) => {
      const button = MH.el("button", {
        type: "button", class: `hand-tile${selected === code ? " selected" : ""}${playable.has(code) ? " playable" : ""}`,
        "data-tile": code, "data-index": index, disabled: !myTurn || !playable.has(code),
        title: `${Voluspa.tileName(code)}: ${Voluspa.tilePower(code)}`,
        style: `--tile:${Voluspa.COLORS[code] || "#888"}`,
        onclick: () => { selected = selected === code ? null : code; render(); },
      }, MH.el("b", {}, code), MH.el("small", {}, `${Voluspa.tileName(code)} ${Voluspa.tileValue(code, 0)}`));
      hand.append(button);
    });
  }

  function renderTurnActions(myTurn, actions) {
    const box = $("turn-actions");
    box.textContent = "";
    if (!myTurn) return;
    for (const action of actions) {
      if (action.kind === "end") box.append(MH.el("button", { type: "button", id: "end-turn", onclick: () => send(action.text) }, "End turn"));
      if (action.kind === "discard") box.append(MH.el("button", { type: "button", class: "discard", "data-action": action.text, onclick: () => send(action.text) }, `Discard ${Voluspa.tileName(action.tile)}`));
    }
  }

  function onCell(x, y) {
    if (!selected || sending) return;
    const options = legalActions().filter((a) => (a.kind === "place" || a.kind === "bump") && a.tile === selected && a.x === x && a.y === y);
    if (!options.length) return;
    if (options.length === 1) { send(options[0].text); return; }
    const chooser = $("chooser");
    chooser.textContent = "";
    chooser.append(MH.el("p", {}, "Choose:"));
    for (const option of options) {
      chooser.append(MH.el("button", { type: "button", class: "choice", "data-action": option.text,
        onclick: () => { chooser.hidden = true; send(option.text); } }, Voluspa.describe(option, game.view)));
    }
    chooser.append(MH.el("button", { type: "button", onclick: () => { chooser.hidden = true; } }, "Cancel"));
    chooser.hidden = false;
  }

  async function send(text) {
    if (sending) return;
    sending = true;
    $("chooser").hidden = true;
    try {
      const result = await MH.api("POST", `/api/tables/${tableId}/actions`, { action: text, version: game.version });
      if (result.version > game.version) {
        game = result;
        selected = null;
        addLog(result.events || []);
        render();
      }
    } catch (e) {
      $("prompt").textContent = e.message;
      if (e.code === "stale" && socket) socket.send(JSON.stringify({ type: "resync" }));
    } finally {
      sending = false;
    }
  }

  function renderScores(view) {
    const list = $("scores");
    list.textContent = "";
    for (const s of view.seats) {
      const known = Object.entries(s.known || {}).map(([k, n]) => `${n}×${k}`).join(" ");
      list.append(MH.el("li", { class: (view.to_move || []).includes(s.seat) ? "to-move" : "" },
        MH.el("b", {}, seatName(s.seat)), ` ${s.score} points · ${s.tiles} tiles${s.hels ? ` + ${s.hels} Hel` : ""}${known ? ` · known: ${known}` : ""}`));
    }
  }

  function renderAbandon() {
    const box = $("turn-actions");
    if (!MH.me || !table.created_by || MH.me.id !== table.created_by.id || game.status !== "active") return;
    if (game.view.finished || $("abandon-game")) return;
    box.append(MH.el("button", { type: "button", id: "abandon-game", class: "quiet", onclick: async () => {
      if (!confirm("Abandon this game for everyone? It ends without a result.")) return;
      try { await MH.api("POST", `/api/tables/${tableId}/abandon`); location.reload(); }
      catch (e) { $("prompt").textContent = e.message; }
    } }, "Abandon game"));
  }

  function renderEnd(view) {
    const panel = $("end-panel");
    if (!view.finished) { panel.hidden = true; return; }
    panel.hidden = false;
    const result = Voluspa.ranking(view, seatName);
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
      const [text, details] = Voluspa.eventText(event, seatName);
      const item = MH.el("li", { class: `event event-${event.kind}` }, text);
      if (details.length) item.append(MH.el("ul", {}, ...details.map((d) => MH.el("li", {}, d))));
      log.prepend(item);
      seenLog++;
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
    } catch (e) { $("prompt").textContent = e.message; }
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
    } catch (e) { $("prompt").textContent = e.message; }
  }

  document.addEventListener("mh:ready", async () => {
    await Voluspa.loadContent();
    try {
      await refreshTable();
    } catch (e) {
      $("waiting").hidden = false;
      $("waiting-title").textContent = e.message;
    }
  });
})();
