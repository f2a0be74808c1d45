"use strict";
let GAMES = [];
let LEVELS = [];

function tableSummary(table) {
  const seats = table.seats.map((s) => {
    if (s.name) return s.name;
    if (s.kind === "invite") return `invited: ${s.invited}`;
    if (s.kind === "link") return "by link";
    return "open";
  }).join(", ");
  const setup = (table.setup || []).map((words) => ` · ${words}`).join("");
  return `${table.title} · ${MH.plural(table.players, "player")}${setup} · ${seats}`;
}

function tableItem(table, withJoin) {
  const state = table.status === "active" ? (table.my_turn ? "your turn" : "playing") : table.status;
  const item = MH.el("li", { class: table.my_turn ? "my-turn" : "" },
    MH.el("a", { href: `/t/${table.id}` }, tableSummary(table)), " ",
    MH.el("span", { class: `tag ${table.my_turn ? "hot" : ""}` }, state));
  if (table.status === "finished") item.append(" ", MH.el("a", { href: `/replay/${table.id}` }, "replay"));
  if (withJoin && MH.me && table.my_seat == null) {
    item.append(" ", MH.el("button", { type: "button", onclick: async () => {
      try {
        await MH.api("POST", `/api/tables/${table.id}/join`, {});
        location.href = `/t/${table.id}`;
      } catch (e) { document.getElementById("lobby-error").textContent = e.message; }
    } }, "Join"));
  }
  return item;
}

// One list of tables drawn: `empty` when there is none; a Join button with `withJoin`.
function drawTables(listId, tables, empty, withJoin) {
  const list = document.getElementById(listId);
  list.textContent = "";
  if (!tables.length) list.append(MH.el("li", { class: "muted" }, empty));
  for (const table of tables) list.append(tableItem(table, withJoin));
}

const OPEN_EMPTY = "No open table. Create one!";
const MINE_EMPTY = "No games yet.";

// One list of tables from the API (the poll).
async function fillTables(listId, path, empty, withJoin) {
  try {
    drawTables(listId, (await MH.api("GET", path)).tables, empty, withJoin);
  } catch (e) { document.getElementById(listId).textContent = e.message; }
}

async function refresh() {
  await fillTables("open-tables", "/api/tables", OPEN_EMPTY, true);
  if (MH.me) await fillTables("my-games", "/api/me/games", MINE_EMPTY, false);
}

// The live lobby: /ws/lobby sends the lists again whenever a table is made, joined, left,
// started or ends (`mine` only when the change concerns this player). While it is down the
// page polls every 5 s, as before; while it is up, every 30 s (a turn taken at one of my
// tables sends nothing on it).
const POLL_EVERY = 5000;
const POLL_LIVE_EVERY = 30000;
const RETRY_FIRST = 1000;
const RETRY_MOST = 30000;
const lobby = { socket: null, live: false, pollTimer: null, retry: RETRY_FIRST };

function schedulePoll() {
  clearTimeout(lobby.pollTimer);
  lobby.pollTimer = setTimeout(async () => { await refresh(); schedulePoll(); }, lobby.live ? POLL_LIVE_EVERY : POLL_EVERY);
}

function showLive(live) {
  lobby.live = live;
  document.getElementById("open-tables").dataset.live = live ? "1" : "0";
  schedulePoll();
}

function connectLobby() {
  if (lobby.socket || typeof WebSocket !== "function") return;
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  let ws;
  try { ws = new WebSocket(`${scheme}://${location.host}/ws/lobby`); } catch { return; }
  lobby.socket = ws;
  ws.onmessage = (event) => {
    const message = JSON.parse(event.data);
    if (message.type !== "lobby") return;
    if (!lobby.live) { lobby.retry = RETRY_FIRST; showLive(true); }
    drawTables("open-tables", message.tables, OPEN_EMPTY, true);
    if (message.mine) drawTables("my-games", message.mine.tables, MINE_EMPTY, false);
  };
  ws.onclose = () => {
    if (lobby.socket !== ws) return;
    lobby.socket = null;
    showLive(false);
    setTimeout(connectLobby, lobby.retry * (0.75 + Math.random() / 2));
    lobby.retry = Math.min(lobby.retry * 2, RETRY_MOST);
  };
}

function seatRow(index) {
  const label = currentGame().seat_labels[index];   // the server's words for the seat
  const kind = MH.el("select", { name: `seat-${index}`, "data-seat": index, "aria-label": label },
    ...(index === 0 ? [["me", "Me"]] : []).concat([["open", "Open seat"], ["invite", "Invite a user"], ["link", "Invitation link"], ["bot", "Bot"]])
      .map(([value, label]) => MH.el("option", { value }, label)));
  const name = MH.el("input", { name: `invite-${index}`, placeholder: "user name", "aria-label": `${label}: user name`, hidden: true });
  const level = MH.el("select", { name: `bot-${index}`, "aria-label": `${label}: bot level`, hidden: true },
    ...LEVELS.map((l) => MH.el("option", { value: l.name, selected: l.name === "medium" }, `${l.label} — ${l.strength}`)));
  kind.addEventListener("change", () => {
    name.hidden = kind.value !== "invite";
    level.hidden = kind.value !== "bot";
  });
  if (index > 0) { kind.value = "bot"; level.hidden = false; }
  return MH.el("div", { class: "seat-row" }, MH.el("span", {}, label), kind, name, level);
}

function renderSeats() {
  const count = Number(document.getElementById("players-select").value);
  const box = document.getElementById("seat-fields");
  box.textContent = "";
  for (let i = 0; i < count; i++) box.append(seatRow(i));
}

function currentGame() {
  return GAMES.find((g) => g.name === document.getElementById("game-select").value) || GAMES[0];
}

// One control per option, drawn from the game's declared options (label, help, choices
// with their words, bounds): a check box for yes/no, a number field within its bounds, a
// menu of choices, check boxes for a set (left to the preset unless opened), a file for a
// content pack. Nothing is sent for a control left alone, so the preset's value stands.
function optionField(option) {
  const id = `option-${option.name}`;
  const help = MH.el("small", { class: "muted", id: `${id}-help` }, option.help);
  const described = { title: option.help, "aria-describedby": `${id}-help` };
  if (option.kind === "bool") {
    return [MH.el("label", { class: "check" },
      MH.el("input", { type: "checkbox", id, name: id, "data-kind": "bool", ...described }), ` ${option.label}`), help];
  }
  if (option.kind === "int") {
    const input = MH.el("input", { type: "number", id, name: id, "data-kind": "int", step: 1, placeholder: String(option.default),
      min: option.minimum ?? undefined, max: option.maximum ?? undefined, ...described });
    return [MH.el("label", { class: "text-option" }, `${option.label} `, input), help];
  }
  if (option.kind === "choice") {
    const select = MH.el("select", { id, name: id, "data-kind": "choice", ...described },
      MH.el("option", { value: "" }, "as the setup says"),
      ...option.choices.map((c) => MH.el("option", { value: c.value }, c.label)));
    return [MH.el("label", { class: "text-option" }, `${option.label} `, select), help];
  }
  if (option.kind === "set") {
    return [MH.el("details", { class: "set-option", id, "data-kind": "set", "data-option": option.name },
      MH.el("summary", {}, `Or choose ${option.label.toLowerCase()} yourself`), help,
      MH.el("div", { class: "kinds" }, ...option.choices.map((c) => MH.el("label", { class: "check", title: c.label },
        MH.el("input", { type: "checkbox", name: `${id}-choice`, value: c.value }), ` ${c.label}`))))];
  }
  if (option.kind === "pack") {
    // The pack is read here and sent as the option's value; the server checks it and says what is wrong.
    const file = MH.el("input", { type: "file", id, name: id, "data-kind": "pack", accept: ".json,application/json", ...described });
    return [MH.el("label", { class: "file-option" }, `${option.label} (default if none) `, file), help];
  }
  // Text in the game's own short form (e.g. "thor,loki,tyr"); the game reads and checks it.
  const input = MH.el("input", { id, name: id, "data-kind": "text", placeholder: "as the setup says", ...described });
  return [MH.el("label", { class: "text-option" }, `${option.label} `, input), help];
}

function renderGame() {
  const game = currentGame();
  localStorage.setItem("meadhall-lobby-game", game.name);
  const presets = document.getElementById("preset-select");
  presets.textContent = "";
  for (const preset of game.presets) {
    presets.append(MH.el("option", { value: preset.name, selected: preset.name === game.default_preset }, preset.title));
  }
  const learn = document.getElementById("learn-to-play");
  learn.hidden = !game.guide;
  if (game.guide) learn.textContent = game.guide.title;
  const rules = document.getElementById("rules-link");
  rules.hidden = !game.rules;
  if (game.rules) {
    rules.href = game.rules;
    rules.textContent = `Rules of ${game.title}`;
  }
  const fields = document.getElementById("option-fields");
  fields.textContent = "";
  for (const option of game.options) fields.append(...optionField(option));
  fields.hidden = !game.options.length;
  const players = document.getElementById("players-select");
  for (const option of players.options) option.disabled = Number(option.value) < game.min_players || Number(option.value) > game.max_players;
  const count = Number(players.value);
  if (count < game.min_players || count > game.max_players) {
    players.value = String(Math.min(Math.max(count, game.min_players), game.max_players));
    renderSeats();
  }
}

// The value of one option's control, or undefined to leave the preset's.
async function optionValue(control, option) {
  const label = option.label;
  const kind = control.dataset.kind;
  if (kind === "bool") return control.checked ? true : undefined;
  if (kind === "set") {
    const chosen = [...control.querySelectorAll("input:checked")].map((box) => box.value);
    return control.open && chosen.length ? chosen : undefined;
  }
  if (kind === "pack") {
    if (!control.files.length) return undefined;
    const text = await control.files[0].text();
    let pack;
    try { pack = JSON.parse(text); } catch (e) { throw new Error(`${label}: the file is not JSON (${e.message})`); }
    // The server checks the pack; its size limit (sent with the option) is checked here too, so a
    // file far too large is not sent at all.
    const size = new Blob([JSON.stringify(pack)]).size;
    if (option.max_bytes && size > option.max_bytes) {
      throw new Error(`${label}: the pack is ${size.toLocaleString("en")} bytes as compact JSON; at most ${option.max_bytes.toLocaleString("en")}`);
    }
    return pack;
  }
  const text = control.value.trim();
  if (!text) return undefined;
  return kind === "int" ? Number(text) : text;
}

async function create(event) {
  event.preventDefault();
  const error = document.getElementById("lobby-error");
  error.textContent = "";
  if (!MH.me) { location.href = "/signin?next=/lobby"; return; }
  const form = event.target;
  const options = { preset: form.preset.value };
  try {
    for (const option of currentGame().options) {
      const value = await optionValue(document.getElementById(`option-${option.name}`), option);
      if (value !== undefined) options[option.name] = value;
    }
  } catch (e) { error.textContent = e.message; return; }
  const seats = [];
  const count = Number(form.players.value);
  for (let i = 0; i < count; i++) {
    const kind = form[`seat-${i}`].value;
    const seat = { kind };
    if (kind === "invite") seat.name = form[`invite-${i}`].value;
    if (kind === "bot") seat.bot = form[`bot-${i}`].value;
    seats.push(seat);
  }
  try {
    const table = await MH.api("POST", "/api/tables", {
      game: form.game.value, options, seats, pace: form.pace.value, confirm_turns: form.confirm_turns.checked,
      ...(form.clock.checked ? {
        clock: true, base_minutes: Number(form.base_minutes.value), increment_seconds: Number(form.increment_seconds.value),
        days_per_move: Number(form.days_per_move.value), on_timeout: form.on_timeout.value, timeout_bot: form.timeout_bot.value,
      } : {}),
    });
    location.href = `/t/${table.id}`;
  } catch (e) { error.textContent = e.message; }
}

document.addEventListener("mh:ready", async () => {
  const data = await MH.api("GET", "/api/games");
  GAMES = data.games;
  LEVELS = data.bot_levels;
  // Confirming each turn is on by default for tables played at one's own pace.
  const pace = document.getElementById("pace-select");
  // A live clock has minutes and an increment, an async one days per move.
  const clockFields = () => {
    for (const node of document.querySelectorAll(".clock-live")) node.hidden = pace.value === "async";
    for (const node of document.querySelectorAll(".clock-async")) node.hidden = pace.value !== "async";
  };
  pace.addEventListener("change", () => { document.getElementById("confirm-turns").checked = pace.value === "async"; clockFields(); });
  const timeoutBot = document.getElementById("timeout-bot");
  for (const level of LEVELS) timeoutBot.append(MH.el("option", { value: level.name, selected: level.name === "medium" }, level.label));
  const select = document.getElementById("game-select");
  const wanted = new URLSearchParams(location.search).get("game") || localStorage.getItem("meadhall-lobby-game");
  for (const game of GAMES) select.append(MH.el("option", { value: game.name, selected: game.name === wanted }, game.title));
  select.addEventListener("change", renderGame);
  document.getElementById("learn-to-play").addEventListener("click", () => {
    MH.learnToPlay(currentGame().name).catch((e) => { document.getElementById("lobby-error").textContent = e.message; });
  });
  document.getElementById("players-select").addEventListener("change", renderSeats);
  document.getElementById("create-form").addEventListener("submit", create);
  renderSeats();
  renderGame();
  refresh();
  schedulePoll();
  connectLobby();
});
