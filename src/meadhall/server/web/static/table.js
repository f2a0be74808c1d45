"use strict";
// A table: the waiting room before the start, then the game, live over a WebSocket.
// This file is the same for every game and names none. The game's board is a plugin the
// server serves from the game's package (/games/NAME/plugin.js, loaded by MH.plugin): it
// has load(ctx) (fetch its components), mount(area, ctx) and render(game, ctx) (and may have
// seatColour(seat), the colour its seats are drawn in), and only
// draws and picks; ctx = {tableId, seatName, send(notation), prompt(text)}. Everything a
// player reads comes from the game's words, which the server sends with every message
// (the socket asks for them, ?words=1): each legal action's label, group and target
// (game.actions), each event's text, the prompt, the status, each seat's line and the
// result (game.words). This page draws the players, the log, the prompt and the end.
// A game without words (Game.words() is None) gets none: its actions are labelled with
// their notation, its seats listed by name, its events left out of the log.
(() => {
  const app = document.getElementById("table-app");
  const tableId = app.dataset.table;
  MH.tableId = tableId;  // turn alerts: this page alerts for its own table, the menu's poll for the others
  const code = new URLSearchParams(location.search).get("code");
  let table = null;      // lobby description (seats, names)
  let game = null;       // {version, view, legal, seat, status}
  let ui = null;         // the game's plugin
  let socket = null;
  let sending = false;
  let nextActId = 1;
  const pending = new Map();   // act id -> {resolve, reject}: moves sent over the socket
  let logVersion = -1;         // the version the game log shows

  const $ = (id) => document.getElementById(id);

  // Seats are named by the server (table.seats[i].name, else its label, Seat N): the same
  // names on every page.
  function seatName(seat) {
    const s = table.seats[seat];
    const base = s.name || s.label;
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
      if (seat.name) who = seat.name;
      else if (seat.kind === "invite") who = `invited: ${seat.invited}`;
      else if (seat.kind === "link") who = "for whoever has the invitation link";
      list.append(MH.el("li", {}, `${seat.label}: ${who}`));
    }
    $("rating-note").textContent = table.rating || "";
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

  // The waiting room follows the table every two seconds (one timer, however it was asked).
  let waitingTimer = null;
  async function pollWaiting() {
    if (ui) return;   // the game is on: its socket keeps the page current
    try {
      await refreshTable();
    } catch (e) {
      $("waiting-error").textContent = e.message;
      clearTimeout(waitingTimer);
      waitingTimer = setTimeout(pollWaiting, 2000);
    }
  }

  // The game's rules, one click from its table (a game without a rules page has no link).
  function showRules() {
    const link = $("table-rules");
    link.hidden = !table.rules;
    if (table.rules) {
      link.href = table.rules;
      link.textContent = `Rules of ${table.title}`;
    }
  }

  async function refreshTable() {
    table = await MH.api("GET", `/api/tables/${tableId}`);
    showRules();
    if (table.status === "open") {
      renderWaiting();
      clearTimeout(waitingTimer);
      waitingTimer = setTimeout(pollWaiting, 2000);
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
    let plugin;
    try {
      plugin = await MH.plugin(table.game, table.board_style);
    } catch (e) {
      $("game-area").textContent = `This page cannot show ${table.title}: ${e.message}`;
      return;
    }
    if (ui) return;   // another call got here first while the plugin loaded
    ui = plugin;
    await ui.load(context);
    ui.mount($("game-area"), context);
    // Previews of targets (what a move would do, or why it cannot be made) for the seat playing here.
    MH.previewSource = { tableId, seatName, version: () => (game && game.seat != null ? game.version : null) };
    MH.previews($("game-area"));
    $("chat-form").addEventListener("submit", sendChat);
    loadChat();
    connect();
  }

  // The connection ----------------------------------------------------------------------------
  // The live socket's state shows in #connection (role=status, aria-live): connecting,
  // connected, reconnecting or offline. A socket that stops answering (a ping without a
  // pong, a move without an answer) is given up and replaced, like one that closes: a new
  // socket starts with a snapshot, so whatever the old one lost (an update, the answer to a
  // move) is caught up. Reconnection backs off from half a second to ten.
  const PING_EVERY = 10000;     // ms between pings on a quiet socket
  const ANSWER_WITHIN = 6000;   // ms a ping or a move may wait for a word from the server
  const RETRY_FIRST = 500, RETRY_MOST = 10000;
  const CONNECTION_WORDS = {
    connecting: "Connecting…",
    connected: "Connected",
    reconnecting: "Connection lost: reconnecting…",
    offline: "Offline: moves can be made again once the connection is back",
  };
  let retry = RETRY_FIRST;
  let retryTimer = null;
  let answerTimer = null;
  let pingTimer = null;

  function over() {
    return Boolean(game && (game.status === "finished" || game.status === "abandoned"));
  }

  function showConnection(state) {
    const box = $("connection");
    if (box.dataset.state === state) return;
    box.dataset.state = state;
    box.textContent = CONNECTION_WORDS[state];
  }

  function connect() {
    clearTimeout(retryTimer);
    retryTimer = null;
    if (socket || over()) return;
    if (!navigator.onLine) { showConnection("offline"); return; }   // the "online" event calls again
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    const ws = new WebSocket(`${scheme}://${location.host}/ws/tables/${tableId}?words=1`);
    socket = ws;
    ws.onmessage = (message) => {
      if (socket !== ws) return;
      clearTimeout(answerTimer);   // the server is there
      answerTimer = null;
      receive(JSON.parse(message.data));
    };
    ws.onclose = () => { if (socket === ws) dropped(); };
    clearInterval(pingTimer);
    pingTimer = setInterval(() => {
      if (socket === ws && ws.readyState === WebSocket.OPEN) {
        ws.send(JSON.stringify({ type: "ping" }));
        expectAnswer();
      }
    }, PING_EVERY);
  }

  // Give the socket up if the server says nothing for a while (a half-dead connection
  // keeps a socket "open" and swallows what is sent both ways).
  function expectAnswer() {
    if (!answerTimer) answerTimer = setTimeout(() => { answerTimer = null; dropped(); }, ANSWER_WITHIN);
  }

  // The socket closed or was given up: settle the moves in flight, then connect again.
  function dropped() {
    const old = socket;
    socket = null;
    clearTimeout(answerTimer);
    answerTimer = null;
    clearInterval(pingTimer);
    if (old) {
      old.onmessage = old.onclose = null;
      if (old.readyState <= WebSocket.OPEN) old.close();
    }
    for (const [, waiting] of pending) {
      const error = new Error("No answer from the server yet: reconnecting; the table will show whether your move was played.");
      error.code = "disconnected";
      waiting.reject(error);
    }
    pending.clear();
    if (over()) return;
    showConnection(navigator.onLine ? "reconnecting" : "offline");
    if (!navigator.onLine) return;
    clearTimeout(retryTimer);
    retryTimer = setTimeout(connect, retry * (0.75 + Math.random() / 2));
    retry = Math.min(retry * 2, RETRY_MOST);
  }

  window.addEventListener("offline", () => { if (socket || retryTimer) dropped(); else if (ui) showConnection("offline"); });
  window.addEventListener("online", () => {
    if (!ui || socket) return;
    retry = RETRY_FIRST;
    showConnection("reconnecting");
    connect();
  });

  function resync() {
    if (socket && socket.readyState === WebSocket.OPEN) {
      socket.send(JSON.stringify({ type: "resync" }));
      expectAnswer();
    }
  }

  function receive(message) {
    if (message.type === "snapshot") {
      // A fresh snapshot is the truth: moves still waiting for an answer (the server may
      // have dropped a stuck socket's backlog) are settled by it.
      for (const [, waiting] of pending) waiting.resolve(message);
      pending.clear();
      retry = RETRY_FIRST;
      showConnection("connected");
      const missed = !game || message.version !== game.version;
      game = message;
      render();
      if (missed || logVersion < 0) loadLog();   // the log catches up with what the socket missed
    } else if (message.type === "update") {
      // My held moves (a confirm-turn table): dropping one takes my version back, confirming
      // keeps it; both come to my seat only.
      const mine = game && game.held && (message.confirmed || message.taken_back === game.seat);
      if (!mine && game && message.version <= game.version) return;  // already have it (our own move)
      if (!mine && (!game || message.version !== game.version + 1)) { // missed a version: ask again
        resync();
        return;
      }
      game = message;
      if (message.taken_back !== undefined) {
        // A seat took its latest move back: the log loses that move's lines.
        render();
        tookBack(message.taken_back);
        return;
      }
      if (logVersion >= 0 && message.version > logVersion) {
        addLog(message.events || []);
        logVersion = message.version;
      }
      MH.liveUpdate(message.version);   // its events just happened: the board may show them moving
      render();
    } else if (["acted", "undone", "confirmed", "refused"].includes(message.type)) {
      const waiting = pending.get(message.id);
      pending.delete(message.id);
      // The move was played (or taken back), yet its update never came: the page is behind, catch up.
      if (message.type !== "refused" && game && message.version > game.version) resync();
      if (!waiting) return;
      if (message.type !== "refused") waiting.resolve(message);
      else {
        const error = new Error(message.message || "The move was refused.");
        error.code = message.error;
        waiting.reject(error);
      }
    } else if (message.type === "pong") {
      if (game && message.version > game.version) resync();         // an update went missing
    } else if (message.type === "resync-needed") {
      resync();
    } else if (message.type === "chat") {
      addChat(message.message);
    } else if (message.type === "abandoned") {
      game.status = "abandoned";
      render();
    } else if (message.type === "rematch") {
      if (game) renderEnd(game.view, true);
      context.prompt(`${seatName(message.by)} asks for a rematch.`);
    } else if (message.type === "resigned") {
      location.reload();
    } else if (["timeout", "seat-back", "left", "vacation", "back-from-vacation"].includes(message.type)) {
      // A seat ran out of time (a bot takes it), its player took it back, left, or went on or came back
      // from vacation: the server's words;
      // the snapshot that follows draws the clocks and the seat.
      addSeatEvent({ kind: message.type, text: message.text });
      context.prompt(message.text);
      if (message.result) location.reload();   // a leave ended the game: the end shows it
    } else if (message.type === "abandon-requested") {
      context.prompt(`Seats ${message.seats.map((s) => s + 1).join(", ")} asked to abandon the game; it ends when every player asks.`);
    }
  }

  let wasMyTurn = null;
  function render() {
    window.__mhVersion = game.version;  // tests wait on it
    const myTurn = Boolean((game.legal && game.legal.length) || (game.held && game.held.length));  // held moves wait for my Confirm
    // the "your turn" count in the menu and the title follows this table at once, not at the next poll
    if (wasMyTurn !== null && wasMyTurn !== myTurn) MH.pollTurns();
    if (wasMyTurn === false && myTurn) MH.turnAlert(`Your turn: ${table.title}`, prompt(), location.pathname);
    wasMyTurn = myTurn;
    MH.titleExtra = myTurn ? `Your turn — ${table.title} — meadhall` : `${table.title} — meadhall`;
    MH.setTitle(MH.titleExtra);
    if (myTurn) document.title = `● ${document.title}`;
    if (!game.actions && game.legal) game.actions = MH.bareActions(game.legal);
    context.prompt(prompt());
    ui.render(game, context);
    MH.boardKey($("game-area"));
    MH.guidePanel($("guide-panel"), game.guide, seatName, tableId, table.game);
    if (ui.highlight) ui.highlight(game.guide && !game.guide.done ? game.guide.target : null);
    else MH.markGuided($("game-area"), game.guide);
    MH.showPreview(null);   // the targets may have changed
    MH.markTargets($("game-area"), game.actions, seatName);
    // A response window where this seat can only pass: the server answers after the same pause as everyone's.
    if (game.answered) context.prompt("Nothing in your hand answers this: the table passes for you in a moment.");
    if (game.held && game.held.length && !(game.legal && game.legal.length)) {
      context.prompt("Your turn is held: nobody sees it until you confirm it (Confirm), or take a move back (Undo).");
    }
    const players = $("players");
    players.textContent = "";
    players.append(MH.seatList(game.view, game.words, seatName, table.seats.length, ui.seatColour));
    MH.clocks($("clocks"), game.status === "active" ? game.clock : null, seatName);
    renderAbandon();
    renderEnd(game.view);
    $("connection").hidden = over();   // a game that is over no longer changes
  }

  // What this seat is asked now: the game's words when it decides, else who it waits for.
  function prompt() {
    if (game.status === "abandoned") return "This table was abandoned.";
    if (game.view.finished || game.status === "finished") return MH.GAME_OVER;
    if (game.words && game.words.prompt) return MH.fill(game.words.prompt, seatName);
    if (game.seat === null || game.seat === undefined) return "You are watching.";
    return `Waiting for ${(game.to_move || []).map(seatName).join(", ")}.`;
  }

  // A move shows as pending (#game.pending, aria-busy) from the moment it leaves until the
  // server answers; without an answer in time the socket is replaced (see expectAnswer).
  function setPending(on) {
    $("game").classList.toggle("pending", on);
    $("game-area").setAttribute("aria-busy", on ? "true" : "false");
  }

  // A message over the live socket that the server answers by id (acted, undone or refused).
  function overSocket(message) {
    return new Promise((resolve, reject) => {
      const id = nextActId++;
      pending.set(id, { resolve, reject });
      socket.send(JSON.stringify({ ...message, id }));
      expectAnswer();
    });
  }

  // Take back my latest move: offered (game.undo) while the rules allow it; the server decides.
  async function takeBack() {
    if (sending) { context.prompt("Your last move is still on its way."); return; }
    sending = true;
    setPending(true);
    try {
      if (socket && socket.readyState === WebSocket.OPEN) {
        await overSocket({ type: "undo", version: game.version });
        return;
      }
      const result = await MH.api("POST", `/api/tables/${tableId}/undo?words=1`, { version: game.version });
      if (result.version > game.version || game.held) {   // a dropped held move takes my version back
        game = result;
        render();
        tookBack(result.taken_back);
      }
    } catch (e) {
      if (game) render();
      context.prompt(e.status || e.code ? e.message : "The server cannot be reached: nothing was taken back.");
      if (e.code === "stale") resync();
    } finally {
      sending = false;
      setPending(false);
    }
  }

  // Confirm my turn (a confirm-turn table): the moves I hold go to the table; the server decides.
  async function confirmTurn() {
    if (sending) { context.prompt("Your last move is still on its way."); return; }
    sending = true;
    setPending(true);
    try {
      if (socket && socket.readyState === WebSocket.OPEN) {
        await overSocket({ type: "confirm", version: game.version });
        return;
      }
      game = await MH.api("POST", `/api/tables/${tableId}/confirm?words=1`, { version: game.version });
      render();
    } catch (e) {
      if (game) render();
      context.prompt(e.status || e.code ? e.message : "The server cannot be reached: your turn is not confirmed yet.");
      if (e.code === "stale") resync();
    } finally {
      sending = false;
      setPending(false);
    }
  }

  // After a take-back: the log again from the server, and a line saying who took a move back.
  async function tookBack(seat) {
    await loadLog();
    $("log").prepend(MH.el("li", { class: "event event-taken-back" }, `${seatName(seat)} took back a move.`));
  }

  async function send(text) {
    if (sending) { context.prompt("Your last move is still on its way."); return; }
    if (!navigator.onLine) {
      context.prompt("You are offline: the move was not sent. Make it again once the connection is back.");
      return;
    }
    sending = true;
    setPending(true);
    const chosenOn = game.version;
    const slow = setTimeout(() => { if (game.version === chosenOn) context.prompt("Sending your move…"); }, 400);
    try {
      if (socket && socket.readyState === WebSocket.OPEN) {
        // Over the live socket: the update arrives on it before the answer.
        await overSocket({ type: "act", action: text, version: game.version });
        return;
      }
      let result;
      try {
        result = await MH.api("POST", `/api/tables/${tableId}/actions?words=1`, { action: text, version: game.version });
      } catch (e) {
        if (e.status) throw e;   // the server answered: a refusal
        throw new Error("The move was not sent: the server cannot be reached. Make it again once the connection is back.");
      }
      if (result.version > game.version) {
        const next = result.version === game.version + 1;
        game = result;
        if (next && logVersion >= 0) { addLog(result.events || []); logVersion = result.version; }
        else loadLog();
        if (next) MH.liveUpdate(result.version);
        render();
      }
    } catch (e) {
      if (game) render();   // the table as it stands, then what became of the move
      context.prompt(e.message);
      if (e.code === "stale") resync();
    } finally {
      clearTimeout(slow);
      sending = false;
      setPending(false);
    }
  }

  function renderAbandon() {
    // Resign: a loss for me, the game ends. Abandon: no result; the server decides whether
    // it ends now or waits for every seated player to ask too (a rated game under way).
    const box = $("table-tools");
    box.textContent = "";
    if (!MH.me || game.status !== "active" || game.view.finished) return;
    const creator = table.created_by && MH.me.id === table.created_by.id;
    if (game.undo) {
      // Only my payload says how many of my moves I may take back (none shows nothing).
      box.append(MH.el("button", { type: "button", id: "undo-move", title: "Take back your latest move",
        onclick: takeBack }, "Undo"), " ");
    }
    if (game.held && game.held.length) {
      // Only my payload holds my unconfirmed moves: nobody else sees them until I confirm.
      const count = game.held.length === 1 ? "1 move" : `${game.held.length} moves`;
      box.append(MH.el("button", { type: "button", id: "confirm-turn", class: "primary",
        title: `Play your ${count} for everyone to see`, onclick: confirmTurn }, "Confirm"), " ");
    }
    if (game.clock && (game.clock.bot_plays || []).includes(game.seat)) {
      // My time ran out and a bot plays my seat: I may take it back (the bot stops).
      box.append(MH.el("button", { type: "button", id: "seat-back", class: "primary", onclick: async () => {
        try { await MH.api("POST", `/api/tables/${tableId}/seat-back`); }
        catch (e) { context.prompt(e.message); }
      } }, "Take my seat back"), " ");
    }
    if (game.seat !== null && game.seat !== undefined) {
      box.append(MH.el("button", { type: "button", id: "resign-game", class: "quiet", onclick: async () => {
        if (!confirm("Resign this game? It ends now and counts as a loss for you.")) return;
        try { await MH.api("POST", `/api/tables/${tableId}/resign`); location.reload(); }
        catch (e) { context.prompt(e.message); }
      } }, "Resign"), " ");
    }
    if (game.seat !== null && game.seat !== undefined && table.leave_rule && !(game.left || []).includes(game.seat)) {
      // Leave: a loss for me (the server's words say how); a bot plays on for the others.
      box.append(MH.el("button", { type: "button", id: "leave-game", class: "quiet", onclick: async () => {
        if (!confirm(table.leave_rule)) return;
        try { await MH.api("POST", `/api/tables/${tableId}/leave`); location.reload(); }
        catch (e) { context.prompt(e.message); }
      } }, "Leave game"), " ");
    }
    if (!creator && (game.seat === null || game.seat === undefined)) return;
    box.append(MH.el("button", { type: "button", id: "abandon-game", class: "quiet", onclick: async () => {
      if (!confirm("Abandon this game for everyone? It ends without a result.")) return;
      try {
        const answer = await MH.api("POST", `/api/tables/${tableId}/abandon`);
        if (answer.status === "abandoned") location.reload();
        else context.prompt(`Waiting for every player to agree to abandon (seats ${answer.abandon_requests.map((s) => s + 1).join(", ")} asked).`);
      } catch (e) { context.prompt(e.message); }
    } }, "Abandon game"));
  }

  // The end of the game (GET .../end), above the board: banner, places, rating changes, the
  // game's score breakdown, links, and the rematch. Fetched once the game is over, and again
  // when someone at the table asks for a rematch (the socket says so).
  let endShown = null;       // the end as last fetched
  let endAsked = false;
  async function renderEnd(view, again) {
    const panel = $("end-panel");
    if (!view.finished && game.status !== "finished") { panel.hidden = true; return; }
    if (endShown && !again) { panel.hidden = false; return; }
    if (endAsked && !again) return;
    endAsked = true;
    try {
      endShown = await MH.api("GET", `/api/tables/${tableId}/end`);
    } catch (e) {
      $("end-screen").textContent = e.message;
      panel.hidden = false;
      endAsked = false;   // asked again on the next update, or in a moment
      setTimeout(() => { if (!endShown && game) renderEnd(game.view); }, 2000);
      return;
    }
    MH.endScreen($("end-screen"), endShown, seatName, rematchBox(endShown));
    panel.hidden = false;   // shown once drawn: whoever sees it sees the whole end
    // The socket tells of a rematch; a page whose socket is gone (the game is over, so it
    // is not replaced) looks now and then instead.
    clearTimeout(endTimer);
    if (!endShown.rematch && endShown.my_seat != null) watchForRematch();
  }
  let endTimer = null;
  function watchForRematch() {
    endTimer = setTimeout(() => {
      if (!socket && !document.hidden) renderEnd(game.view, true);   // fetches again, and watches on
      else watchForRematch();
    }, 15000);
  }

  // Rematch: a player of the game asks (the first one makes the table, the others take their
  // seats in it) and goes to the new table; anyone else may watch it once it exists.
  function rematchBox(end) {
    const box = MH.el("p", { class: "actions rematch", id: "rematch" });
    const player = MH.me && end.my_seat !== null && end.my_seat !== undefined;
    if (player && end.status === "finished") {
      const label = end.rematch ? "Join the rematch" : "Rematch";
      box.append(MH.el("button", { type: "button", class: "primary", id: "rematch-button", onclick: async () => {
        try {
          const made = await MH.api("POST", `/api/tables/${tableId}/rematch`);
          location.href = `/t/${made.id}`;
        } catch (e) { context.prompt(e.message); }
      } }, label));
      box.append(" ", MH.el("span", { class: "muted" }, end.rematch
        ? "Someone at this table asked to play again: the same game, options and seats."
        : "Play again with the same game, options and seats: bots keep their level, the other players are invited."));
    } else if (end.rematch) {
      box.append(MH.el("a", { href: `/t/${end.rematch}`, id: "rematch-link" }, "Watch the rematch"));
    }
    return box;
  }

  function addLog(events) {
    const log = $("log");
    for (const event of events) {
      const [text, details] = MH.eventWords(event, seatName);
      if (!text) continue;
      const item = MH.el("li", { class: `event event-${event.kind}${event.heading ? " heading" : ""}` }, text);
      if (details.length) item.append(MH.el("ul", {}, ...details.map((d) => MH.el("li", {}, d))));
      log.prepend(item);
    }
  }

  // A seat ran out of time, or its player took it back: the server's words.
  function addSeatEvent(event) {
    $("log").prepend(MH.el("li", { class: `event event-${event.kind}` }, event.text));
  }

  // The whole log, from the server (on arrival, and after the socket missed updates).
  async function loadLog() {
    try {
      const data = await MH.api("GET", `/api/tables/${tableId}/log`);
      $("log").textContent = "";
      const seatEvents = [...(data.table_events || [])];   // timeouts, comebacks, vacations, leaves: after their step
      for (const step of data.steps) {
        while (seatEvents.length && seatEvents[0].version < step.version) addSeatEvent(seatEvents.shift());
        addLog(step.events);
      }
      for (const event of seatEvents) addSeatEvent(event);
      logVersion = data.version;
      if (game && game.version > data.version) loadLog();   // updates came meanwhile
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
