"use strict";
let GAMES = [];
let LEVELS = [];
const TILE_NAMES = {};

function tableSummary(table) {
  const seats = table.seats.map((s) => {
    if (s.name) return s.name;
    if (s.kind === "invite") return `invited: ${s.invited}`;
    if (s.kind === "link") return "by link";
    return "open";
  }).join(", ");
  const setup = table.options && table.options.kinds ? ` · ${MH.plural(table.options.kinds.length, "tile kind")}` : "";
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

async function refresh() {
  const open = document.getElementById("open-tables");
  try {
    const data = await MH.api("GET", "/api/tables");
    open.textContent = "";
    if (!data.tables.length) open.append(MH.el("li", { class: "muted" }, "No open table. Create one!"));
    for (const table of data.tables) open.append(tableItem(table, true));
  } catch (e) { open.textContent = e.message; }
  if (!MH.me) return;
  const mine = document.getElementById("my-games");
  try {
    const data = await MH.api("GET", "/api/me/games");
    mine.textContent = "";
    if (!data.tables.length) mine.append(MH.el("li", { class: "muted" }, "No games yet."));
    for (const table of data.tables) mine.append(tableItem(table, false));
  } catch (e) { mine.textContent = e.message; }
}

function seatRow(index) {
  const kind = MH.el("select", { name: `seat-${index}`, "data-seat": index, "aria-label": `Seat ${index + 1}` },
    ...(index === 0 ? [["me", "Me"]] : []).concat([["open", "Open seat"], ["invite", "Invite a user"], ["link", "Invitation link"], ["bot", "Bot"]])
      .map(([value, label]) => MH.el("option", { value }, label)));
  const name = MH.el("input", { name: `invite-${index}`, placeholder: "user name", "aria-label": `Seat ${index + 1}: user name`, hidden: true });
  const level = MH.el("select", { name: `bot-${index}`, "aria-label": `Seat ${index + 1}: bot level`, hidden: true },
    ...LEVELS.map((l) => MH.el("option", { value: l.name, selected: l.name === "medium" }, `${l.name} (${l.bot})`)));
  kind.addEventListener("change", () => {
    name.hidden = kind.value !== "invite";
    level.hidden = kind.value !== "bot";
  });
  if (index > 0) { kind.value = "bot"; level.hidden = false; }
  return MH.el("div", { class: "seat-row" }, MH.el("span", {}, `Seat ${index + 1}`), kind, name, level);
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

// One field per option the presets do not cover: check boxes for yes/no options, a text
// field for the rest (a content pack can also be read from a file).
function optionField(option) {
  if (option.kind === "bool") {
    return [MH.el("label", { class: "check", title: option.help },
      MH.el("input", { type: "checkbox", name: `option-${option.name}`, "data-kind": "bool" }), ` ${option.name}`),
      MH.el("small", { class: "muted" }, option.help)];
  }
  const placeholder = typeof option.default === "string" ? option.default : JSON.stringify(option.default);
  const input = MH.el("input", { name: `option-${option.name}`, "data-kind": option.kind, placeholder, title: option.help });
  const parts = [MH.el("label", { class: "text-option" }, `${option.name} `, input), MH.el("small", { class: "muted" }, option.help)];
  if (option.name === "content") {
    const file = MH.el("input", { type: "file", accept: ".json,application/json", name: "content-file" });
    file.addEventListener("change", async () => {
      if (file.files.length) input.value = await file.files[0].text();
    });
    parts.push(MH.el("label", { class: "file-option" }, "or read a content pack from a file ", file));
  }
  return parts;
}

function renderGame() {
  const game = currentGame();
  localStorage.setItem("meadhall-lobby-game", game.name);
  const presets = document.getElementById("preset-select");
  presets.textContent = "";
  for (const preset of game.presets) {
    presets.append(MH.el("option", { value: preset.name, selected: preset.name === game.default_preset }, preset.title));
  }
  const kinds = document.getElementById("kind-fields");
  kinds.textContent = "";
  const kindOption = game.options.find((o) => o.name === "kinds");
  if (kindOption) {
    for (const code of kindOption.choices) {
      kinds.append(MH.el("label", { class: "check", title: TILE_NAMES[code] || code },
        MH.el("input", { type: "checkbox", name: "kind", value: code }), ` ${TILE_NAMES[code] || code}`));
    }
  }
  document.getElementById("kinds-box").hidden = !kindOption;
  const fields = document.getElementById("option-fields");
  fields.textContent = "";
  for (const option of game.options) {
    if (option.name === "kinds") continue;
    fields.append(...optionField(option));
  }
  const players = document.getElementById("players-select");
  for (const option of players.options) option.disabled = Number(option.value) < game.min_players || Number(option.value) > game.max_players;
  const count = Number(players.value);
  if (count < game.min_players || count > game.max_players) {
    players.value = String(Math.min(Math.max(count, game.min_players), game.max_players));
    renderSeats();
  }
}

function optionValue(input) {
  const kind = input.dataset.kind;
  if (kind === "bool") return input.checked;
  const text = input.value.trim();
  if (!text) return undefined;
  if (kind === "int") return Number(text);
  if (/^[[{"]/.test(text)) {
    try { return JSON.parse(text); } catch (e) { throw new Error(`${input.name.slice(7)}: this is not valid JSON (${e.message})`); }
  }
  return text;
}

async function create(event) {
  event.preventDefault();
  const error = document.getElementById("lobby-error");
  error.textContent = "";
  if (!MH.me) { location.href = "/signin?next=/lobby"; return; }
  const form = event.target;
  const options = { preset: form.preset.value };
  const chosenKinds = [...form.querySelectorAll("input[name=kind]:checked")].map((box) => box.value);
  if (document.getElementById("kinds-box").open && chosenKinds.length) options.kinds = chosenKinds;
  try {
    for (const input of form.querySelectorAll("[name^=option-]")) {
      const value = optionValue(input);
      if (value !== undefined) options[input.name.slice(7)] = value;
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
    const table = await MH.api("POST", "/api/tables", { game: form.game.value, options, seats });
    location.href = `/t/${table.id}`;
  } catch (e) { error.textContent = e.message; }
}

document.addEventListener("mh:ready", async () => {
  const data = await MH.api("GET", "/api/games");
  GAMES = data.games;
  for (const game of GAMES) {
    try {
      const content = await MH.api("GET", `/api/games/${game.name}/content`);
      for (const tile of content.tiles || []) TILE_NAMES[tile.code] = tile.name;
    } catch (e) { /* names are a nicety */ }
  }
  LEVELS = data.bot_levels;
  const select = document.getElementById("game-select");
  const wanted = new URLSearchParams(location.search).get("game") || localStorage.getItem("meadhall-lobby-game");
  for (const game of GAMES) select.append(MH.el("option", { value: game.name, selected: game.name === wanted }, game.title));
  select.addEventListener("change", renderGame);
  document.getElementById("players-select").addEventListener("change", renderSeats);
  document.getElementById("create-form").addEventListener("submit", create);
  renderSeats();
  renderGame();
  refresh();
  setInterval(refresh, 5000);
});
