"use strict";
// Valda in the browser: the world map with the seven god areas and their five
// construction sites (SVG), the Yggdrasil follower track with its safe zones, the dice as
// rolled, the open cards, your hand, and every decision as a button that sends the
// action's notation. Card, god and weapon texts come from the table's content pack
// (/api/tables/ID/content). A response window that offers you nothing but "pass" is
// passed for you by the server, after the same pause as everyone's: every seat with a
// part in the moment is asked, weapon or not, so that nobody learns who holds one.
window.MeadhallGames = window.MeadhallGames || {};
window.MeadhallGames.valda = (() => {
  const RES = { drop: ["divine blood", "divine blood"], gold: ["gold", "gold"], diamond: ["diamond", "diamonds"] };
  const RESOURCES = ["drop", "gold", "diamond"];
  const PHASES = { setup: "Setup", resources: "Resources", game: "Game", building: "Building", attack: "Attack", followers: "Followers", over: "Game over" };
  const PHASE_ORDER = ["resources", "game", "building", "attack", "followers"];
  const SAFE = [5, 12, 20];
  const SITES = 5, TRACK = 30;
  const WINDOWS = { rolled: "dice were rolled", announced: "an attack was announced", defended: "a defence held", building: "a last building was announced" };
  const ABILITIES = {
    heimdall: "Resources phase: 2 of a resource for 1 of another (two temples: 1 for 1).",
    freya: "The open cards are yours alone; buy an open card for an action (two temples: 3 open cards).",
    surtur: "Your attacks are stronger.", tyr: "Your defence is stronger.",
    thor: "Followers phase: 3 gold or 3 diamonds for a follower (two temples: 2).",
    odin: "Followers phase: 2 divine blood for a follower (two temples: also 3 for 2).",
    loki: "Followers phase: roll a white die per temple for followers.",
  };
  let C = null;
  let game = null;
  let ctx = null;
  const el = (tag, attrs, ...children) => MH.el(tag, attrs, ...children);

  async function load(context) {
    if (C) return C;
    const data = await MH.api("GET", context && context.tableId ? `/api/tables/${context.tableId}/content` : "/api/games/valda/content");
    C = { id: data.id, label: data.label, gods: {}, order: [], cards: {}, options: {}, dice: data.dice, buildings: data.buildings };
    for (const god of data.gods) { C.gods[god.id] = god; C.order.push(god.id); }
    for (const card of data.cards) {
      C.cards[card.id] = card;
      for (const option of card.options || []) C.options[option.id] = { ...option, card: card.id };
    }
    return C;
  }

  // Words ---------------------------------------------------------------------------------

  const amount = (res, n) => `${n} ${RES[res] ? RES[res][n === 1 ? 0 : 1] : res}`;
  const godName = (id) => (C.gods[id] ? C.gods[id].name : id);
  const cardName = (id) => (C.cards[id] ? C.cards[id].name : id);
  const optionName = (id) => (C.options[id] ? C.options[id].name : id);
  const buildingName = (b) => (C.gods[b] ? `temple of ${godName(b)}` : b === "drill" ? "blood drill" : b);
  const colourOf = (seat) => MH.SEAT_COLOURS[seat] || "#777";
  const costText = (cost) => RESOURCES.filter((r) => cost[r]).map((r) => amount(r, cost[r])).join(", ") || "nothing";
  const shortCost = (cost) => RESOURCES.filter((r) => cost[r]).map((r) => `${cost[r]} ${r === "drop" ? "blood" : r === "gold" ? "gold" : "diam."}`).join(" · ");
  const plural = MH.plural;
  // Race to the Gods goes on until 20 followers, up to its last round: "Round 8 of at most 20".
  const roundText = (number, last, race) => `Round ${number} of ${race ? "at most " : ""}${last}`;
  const isRace = (view) => Boolean(view.options && view.options["race-to-the-gods"]);
  function whyText(why) {
    if (why == null) return "";
    if (C.cards[why]) return cardName(why);
    if (C.options[why]) return optionName(why);
    if (C.gods[why]) return `${godName(why)}'s ability`;
    return String(why).replace(/\b[a-z]+\b/g, (w) => (C.gods[w] ? godName(w) : w));
  }
  function dieText(colour, face) {
    const shown = (C.dice[colour] || [])[face];
    if (!shown) return `${colour} ${face}`;
    const parts = Object.entries(shown.resources).map(([r, n]) => (r === "choice" ? `${n} of choice` : amount(r, n)));
    if (shown.followers) parts.push(`${shown.followers > 0 ? "+" : ""}${shown.followers} follower${Math.abs(shown.followers) === 1 ? "" : "s"}`);
    return parts.join(", ") || "blank";
  }

  function parse(text) {
    const [kind, ...rest] = text.split(":");
    const arg = rest.join(":");
    const [a, b] = arg.split(">");
    return { text, kind, a: a || "", b: b || "" };
  }

  function describe(action, view) {
    const name = ctx.seatName;
    const { kind, a, b } = action;
    switch (kind) {
      case "trade": return `Trade 4 ${RES[a][1]} for 1 ${RES[b][0]}`;
      case "swap": return `Heimdall: ${RES[a][1]} for 1 ${RES[b][0]}`;
      case "choose": return `Take ${RES[a][0]}`;
      case "take": return `Take 1 ${RES[a][0]} (an action)`;
      case "steal": return `Take 1 ${RES[a][0]}`;
      case "play": return `Play ${cardName(a)}`;
      case "use": return `Play the open ${cardName(a)}`;
      case "buy": return `Buy ${cardName(a)} (an action)`;
      case "draw": return "Draw 2 cards (two actions)";
      case "discard": return `Discard ${cardName(a)}`;
      case "build": return `Build a ${buildingName(a)} (${costText(C.gods[a] ? C.gods[a].temple_cost : C.buildings[a] || {})})`;
      case "keep": return `Keep ${cardName(a)}`;
      case "attack": return `Attack with ${cardName(a)}`;
      case "defend": return `Defend with ${cardName(a)}`;
      case "destroy": return `Destroy their ${buildingName(a)}`;
      case "move": return `Move their temple from ${godName(a)} to ${godName(b)}`;
      case "thor": return `Thor: 3 ${RES[a][1]} for a follower`;
      case "thor2": return `Thor: 2 ${RES[a][1]} for a follower`;
      case "odin": return "Odin: 2 divine blood for a follower";
      case "odin2": return "Odin: 3 divine blood for 2 followers";
      case "loki": return "Roll Loki's follower dice";
      case "convert": return "Convert once more";
      case "seat": return name(Number(a));
      case "god": return godName(a);
      case "card": return cardName(a);
      case "weapon": return `God weapon: ${optionName(a)}`;
      case "face": {
        const die = (view.dice || [])[Number(a)];
        return die ? `Die ${Number(a) + 1} (${die[0]}, ${dieText(die[0], die[1])}) → ${dieText(die[0], Number(b))}` : action.text;
      }
      case "pass": return view.decision && view.decision.kind === "attack" ? "Do not attack" : "Pass";
      case "yield": return "Stop defending";
      case "done": return view.phase === "game" ? "End the game phase" : view.phase === "building" ? "Stop building" : "Done";
      default: return action.text;
    }
  }

  // Layout ----------------------------------------------------------------------------------

  function mount(area, context) {
    ctx = context;
    area.textContent = "";
    area.append(
      el("div", { class: "board-tools" }, el("span", { id: "status-line", class: "status" })),
      el("p", { class: "muted content-label", id: "content-label" }),
      el("ol", { id: "va-phases", class: "va-phases" }),
      svgEl("svg", { id: "va-map", class: "va-map", viewBox: "-350 -310 700 620", role: "img", "aria-label": "The world map: seven god areas" }),
      svgEl("svg", { id: "va-track", class: "va-track", viewBox: `0 0 ${TRACK * 22 + 20} 52`, role: "img", "aria-label": "Yggdrasil: the follower track" }),
      el("div", { id: "va-dice", class: "va-dice" }),
      el("div", { id: "prompt", class: "prompt" }),
      el("div", { id: "va-actions", class: "action-groups" }),
      el("section", { class: "card-area" },
        el("div", { id: "decision-box" }, el("h4", { id: "decision-title" }), el("div", { id: "decision-cards", class: "card-row" })),
        el("div", { id: "open-box" }, el("h4", { id: "open-title" }, "Open cards"), el("div", { id: "open-cards", class: "card-row" })),
        el("h4", { id: "hand-title" }, "Your hand"), el("div", { id: "hand", class: "card-row" })),
    );
  }

  function svgEl(tag, attrs) {
    const node = document.createElementNS("http://www.w3.org/2000/svg", tag);
    for (const [key, value] of Object.entries(attrs || {})) node.setAttribute(key, value);
    return node;
  }
  function svgText(x, y, cls, text) { const t = svgEl("text", { x, y, class: cls }); t.textContent = text; return t; }

  // The seven god areas on a ring, each a disc with its five sites.
  function renderMap(view, actions) {
    const svg = document.getElementById("va-map");
    svg.textContent = "";
    const targets = {};
    for (const action of actions) {
      let god = null;
      if (action.kind === "build" && C.gods[action.a]) god = action.a;
      if (action.kind === "destroy" && C.gods[action.a]) god = action.a;
      if (action.kind === "move") god = action.b;
      if (action.kind === "god") god = action.a;
      if (god) (targets[god] = targets[god] || []).push(action);
    }
    C.order.forEach((id, index) => {
      const angle = -Math.PI / 2 + (index * 2 * Math.PI) / C.order.length;
      const cx = 250 * Math.cos(angle), cy = 215 * Math.sin(angle);
      const owners = (view.sites || {})[id] || [];
      const lock = (view.locks || {})[id];
      const g = svgEl("g", { class: "god-area", "data-god": id });
      const classes = ["area"];
      if (targets[id]) classes.push("target");
      if (lock != null) classes.push("locked");
      g.append(svgEl("circle", { cx, cy, r: 78, class: classes.join(" "), ...(lock != null ? { style: `stroke:${colourOf(lock)}` } : {}) }));
      g.append(svgText(cx, cy - 40, "god-name", godName(id)));
      g.append(svgText(cx, cy - 24, "god-note", `temple: ${shortCost(C.gods[id].temple_cost)}`));
      for (let s = 0; s < SITES; s++) {
        const sx = cx + (s - 2) * 26, sy = cy + 6;
        const owner = owners[s];
        const site = svgEl("circle", { cx: sx, cy: sy, r: 10, class: owner == null ? "site free" : "site temple", "data-site": s });
        if (owner != null) { site.setAttribute("fill", colourOf(owner)); site.setAttribute("data-owner", owner); }
        g.append(site);
      }
      const notes = [];
      if (lock != null) notes.push(`locked by ${ctx.seatName(lock)}`);
      if ((view.lent || []).includes(id)) notes.push("lent this turn");
      g.append(svgText(cx, cy + 38, "god-note", notes.join(" · ")));
      const title = svgEl("title");
      title.textContent = `${godName(id)}: ${ABILITIES[id] || ""} ${owners.length} of ${SITES} sites built.`;
      g.append(title);
      g.addEventListener("click", () => { if (targets[id] && targets[id].length === 1) send(targets[id][0].text); });
      svg.append(g);
    });
    const centre = svgText(0, -4, "god-name", roundText(view.round, view.last_round, isRace(view)));
    svg.append(centre, svgText(0, 14, "god-note", view.finished ? "the game is over" : `${ctx.seatName(view.current)}'s turn`));
  }

  function renderTrack(view) {
    const svg = document.getElementById("va-track");
    svg.textContent = "";
    for (let i = 0; i < TRACK; i++) {
      const x = 10 + i * 22;
      svg.append(svgEl("rect", { x, y: 4, width: 20, height: 20, rx: 3, class: `cell${SAFE.includes(i) ? " safe" : ""}` }));
      svg.append(svgText(x + 10, 18, "cell-number", String(i)));
    }
    view.seats.forEach((info, seat) => {
      const at = Math.min(info.followers, TRACK - 1);
      const x = 10 + at * 22 + 4 + (seat % 3) * 6, y = 32 + Math.floor(seat / 3) * 9;
      const token = svgEl("circle", { cx: x, cy: y, r: 5, fill: colourOf(seat), class: "follower-token", "data-seat": seat });
      const title = svgEl("title");
      title.textContent = `${ctx.seatName(seat)}: ${plural(info.followers, "follower")}${info.floor ? `, safe at ${info.floor}` : ""}`;
      token.append(title);
      svg.append(token);
    });
  }

  function renderPhases(view) {
    const list = document.getElementById("va-phases");
    list.textContent = "";
    for (const phase of PHASE_ORDER) list.append(el("li", { class: phase === view.phase ? "now" : "" }, PHASES[phase]));
  }

  function renderDice(view) {
    const box = document.getElementById("va-dice");
    box.textContent = "";
    if (!(view.dice || []).length) return;
    box.append(el("span", { class: "muted" }, "Dice: "));
    view.dice.forEach(([colour, face], index) => {
      box.append(el("span", { class: `die die-${colour}`, "data-die": index, title: `${colour} die, face ${face + 1}` }, dieText(colour, face)));
    });
  }

  async function send(text) {
    await ctx.send(text);
  }

  // Cards -----------------------------------------------------------------------------------

  function cardButton(id, actionsForCard, view, extra) {
    const card = C.cards[id] || { name: id, kind: "", text: "", god: null };
    const action = actionsForCard && actionsForCard.length === 1 ? actionsForCard[0] : null;
    const attrs = { type: "button", class: `game-card va-card kind-${card.kind}${action ? " playable" : ""}`, "data-card": id, title: `${card.name}: ${card.text}` };
    if (action) { attrs["data-action"] = action.text; attrs.onclick = () => send(action.text); } else attrs.disabled = !(actionsForCard && actionsForCard.length);
    const meta = `${card.god ? godName(card.god) : "base"} · ${card.kind}${card.power ? ` ${card.power}` : ""}`;
    const node = el("button", attrs, el("b", {}, card.name), el("small", { class: "card-meta" }, meta),
      el("small", { class: "card-text" }, card.text), extra ? el("em", {}, extra) : null);
    if (actionsForCard && actionsForCard.length > 1) {
      const wrap = el("div", { class: "va-card-choices" }, node);
      for (const a of actionsForCard) wrap.append(el("button", { type: "button", class: "action", "data-action": a.text, onclick: () => send(a.text) }, describe(a, view)));
      return wrap;
    }
    return node;
  }

  const CARD_KINDS = ["play", "use", "buy", "discard", "keep", "attack", "defend", "card"];
  function renderCards(view, actions) {
    const byCard = {};
    for (const action of actions) if (CARD_KINDS.includes(action.kind)) (byCard[action.a] = byCard[action.a] || []).push(action);
    const taken = new Set();
    const decision = view.decision || {};
    // cards the decision shows only to you (god cards to keep, the top of the deck)
    const box = document.getElementById("decision-box");
    const shown = Array.isArray(decision.cards) && decision.seat === view.seat ? decision.cards : [];
    box.hidden = !shown.length;
    const row = document.getElementById("decision-cards");
    row.textContent = "";
    if (shown.length) {
      document.getElementById("decision-title").textContent = decision.kind === "keep"
        ? `${decision.why ? whyText(decision.why) : `Temple of ${godName(decision.god)}`}: keep one god card`
        : decision.kind === "lock-card" ? `Your locked area of ${godName(decision.god)}: one god card for the open cards` : "Choose a card";
      for (const id of shown) { row.append(cardButton(id, byCard[id], view)); taken.add(id); }
    }
    const open = document.getElementById("open-cards");
    open.textContent = "";
    const openBox = document.getElementById("open-box");
    openBox.hidden = !view.open_count;
    if (view.open) {
      document.getElementById("open-title").textContent = `Open cards${view.open_closed ? " (Freya: seen by you alone)" : ""}`;
      for (const id of view.open) open.append(cardButton(id, (byCard[id] || []).filter((a) => ["use", "buy", "card"].includes(a.kind) && !taken.has(id)), view));
    } else {
      document.getElementById("open-title").textContent = `Open cards: ${view.open_count}, seen by ${ctx.seatName(view.current)} alone (Freya)`;
    }
    const hand = document.getElementById("hand");
    hand.textContent = "";
    const mine = view.hand || [];
    document.getElementById("hand-title").textContent = view.seat == null ? "You are watching" : `Your hand (${mine.length} of 10)`;
    const seen = new Set();
    for (const id of mine) {
      const forHand = (byCard[id] || []).filter((a) => !["use", "buy"].includes(a.kind) && !taken.has(id));
      hand.append(cardButton(id, seen.has(id) ? [] : forHand, view));
      seen.add(id);
    }
    if (view.seat != null && !mine.length) hand.append(el("p", { class: "muted" }, "No cards in hand."));
    // Cards you saw go under a deck (the bottom first; "?" for one you did not see).
    const under = Object.entries(view.bottoms || {}).filter(([, cards]) => cards.some((c) => c));
    if (under.length) {
      hand.append(el("p", { class: "muted under" }, "Under the decks, from the bottom: " + under.map(([deck, cards]) =>
        `${deck === "base" ? "base deck" : `${godName(deck)}'s deck`}: ${cards.map((c) => (c ? cardName(c) : "?")).join(", ")}`).join("; ")));
    }
  }

  const GROUPS = [
    ["Resources", ["take", "trade", "swap", "choose", "steal"]],
    ["Build", ["build"]],
    ["Buildings", ["destroy", "move"]],
    ["Followers", ["thor", "thor2", "odin", "odin2", "loki", "convert"]],
    ["Choose", ["seat", "god", "face"]],
    ["God weapons (no action)", ["weapon"]],
  ];
  function renderActions(view, actions) {
    const box = document.getElementById("va-actions");
    box.textContent = "";
    for (const [title, kinds] of GROUPS) {
      const group = actions.filter((a) => kinds.includes(a.kind));
      if (!group.length) continue;
      box.append(el("fieldset", { class: "action-group" }, el("legend", {}, title),
        ...group.map((a) => el("button", { type: "button", class: "action", "data-action": a.text, title: a.kind === "weapon" && C.options[a.a] ? C.options[a.a].text : "", onclick: () => send(a.text) }, describe(a, view)))));
    }
    const single = actions.filter((a) => ["draw", "done", "pass", "yield"].includes(a.kind));
    if (single.length) {
      box.append(el("div", { class: "turn-actions" },
        ...single.map((a) => el("button", { type: "button", class: "action", id: `va-${a.kind}`, "data-action": a.text, onclick: () => send(a.text) }, describe(a, view)))));
    }
  }

  // Rendering ---------------------------------------------------------------------------------

  function promptFor(view, actions) {
    const name = ctx.seatName;
    const waiting = (view.to_move || []).map((s) => name(s)).join(", ");
    if (game.status === "abandoned") return "This table was abandoned.";
    if (view.finished) return "The game is over.";
    if (!actions.length) return game.seat == null ? `You are watching. ${waiting ? `Waiting for ${waiting}.` : ""}` : `Waiting for ${waiting}.`;
    const d = view.decision || {};
    const why = d.why ? ` (${whyText(d.why)})` : "";
    const target = d.target != null ? name(d.target) : "";
    switch (d.kind) {
      case "resources": return "Resources phase: trade 4 of a resource for 1 of another as often as you like, then Done.";
      case "choose": return `Choose a resource${why}.`;
      case "game": return `Game phase: ${plural(view.actions, "action")} left${view.free_yellow ? `, ${plural(view.free_yellow, "free yellow card")}` : ""}. Play a yellow card (from your hand or the open cards), take a resource, or draw two cards.`;
      case "hand-limit": return `You hold more than 10 cards: discard one (${(view.hand || []).length} now).`;
      case "build": return `Building phase: ${plural(view.builds, "building")} left. Click a god area to build a temple, or choose a mine or blood drill.`;
      case "keep": return `${d.why ? whyText(d.why) : `Temple of ${godName(d.god)}`}: keep one of the top cards of ${godName(d.god)}'s deck; the other goes under the deck.`;
      case "lock-card": return `Your locked area of ${godName(d.god)}: choose which of the top cards of its deck joins your open cards; the other goes under the deck.`;
      case "attack": return `Attack ${target} with an attack card from your hand, or do not attack.`;
      case "defend": { const a = view.attack || {}; return `You are attacked by ${name(a.attacker)} with ${cardName(a.card)} (power ${a.power || 0}, your defence ${a.defence || 0}): add a defence card, or stop defending.`; }
      case "free-build": return `Build one building now${why}, or give it up.`;
      case "waive": return `The discount${why}: choose a resource it waives.`;
      case "convert": return `Change ${amount(d.give, d.amount)} into ${plural(d.followers, "follower")} once more${why}, or stop.`;
      case "look": return `Whose hand do you look at${why}?`;
      case "peek": return `Take one of these cards${why}.`;
      case "switch": return `Which open card goes back for the top card of the base deck${why}?`;
      case "lend": return `Which god lends you a 1-temple ability this turn${why}?`;
      case "destroy": return `Destroy one of ${target}'s buildings${why}.`;
      case "move": return `Move one of ${target}'s temples to another god area${why} (click the area).`;
      case "god-draw": return `Draw from which god deck${why}?`;
      case "discard-pick": return `Take a card from the discard pile${why}.`;
      case "steal": return `Take a resource from ${target}${why}.`;
      case "followers": return "Followers phase: convert with Thor and Odin, roll Loki's dice, then Done.";
      case "thief": return "Thief: take a random card from a player's hand, or an open card.";
      case "hammer": return "Hammertime: which yellow card is played twice?";
      case "face": return "Crown of Fortune: turn a die to the face of your choice.";
      case "redirect": return "Vanished: which player must be attacked instead?";
      case "window": return `A god weapon may answer now: ${WINDOWS[d.window] || "a moment"}. Play one, or pass.`;
      default: return "Your decision.";
    }
  }

  function render(current, context) {
    game = current;
    ctx = context;
    const view = game.view;
    const actions = (game.legal || []).map(parse);
    document.getElementById("status-line").textContent = view.finished
      ? "The game is over"
      : `${roundText(view.round, view.last_round, isRace(view))} · ${ctx.seatName(view.current)}'s turn · ${PHASES[view.phase] || view.phase} phase · base deck ${view.base} · discard ${view.discard.length}${view.options && view.options["race-to-the-gods"] ? " · Race to the Gods" : ""}${view.options && view.options.turnaround ? " · The Turnaround" : ""}`;
    document.getElementById("content-label").textContent = `Cards and dice: ${C.label}.`;
    renderPhases(view);
    renderMap(view, actions);
    renderTrack(view);
    renderDice(view);
    ctx.prompt(promptFor(view, actions));
    renderActions(view, actions);
    renderCards(view, actions);
  }

  function players(view, context) {
    const list = el("ol", { id: "scores", class: "scores clans" });
    for (const seat of view.order) {
      const info = view.seats[seat];
      const temples = Object.entries(info.temples).filter(([, n]) => n).map(([g, n]) => `${godName(g)} ${n}`).join(", ") || "none";
      const toMove = (view.to_move || []).includes(seat);
      list.append(el("li", { class: `${toMove ? "to-move" : ""}${seat === view.current ? " current" : ""}`, "data-seat": seat, style: `--clan:${colourOf(seat)}` },
        el("b", {}, `${context.seatName(seat)}${seat === view.start ? " (start player)" : ""}`),
        el("ul", { class: "clan-sheet" },
          el("li", { class: "followers" }, `${plural(info.followers, "follower")}${info.floor ? ` (safe at ${info.floor})` : ""}`),
          el("li", { class: "resources" }, RESOURCES.map((r) => amount(r, info.resources[r])).join(" · ")),
          el("li", {}, `${plural(info.mines, "mine")} · ${plural(info.drills, "blood drill")} · ${plural(info.hand, "card")} in hand`),
          el("li", {}, `Temples: ${temples}`),
          seat !== view.seat && ((view.known || [])[seat] || []).length
            ? el("li", { class: "known" }, `Known in hand: ${view.known[seat].map(cardName).join(", ")}`) : null)));
    }
    return list;
  }

  function eventText(e, name) {
    const w = (key = "seat") => name(e[key]);
    const cards = (list) => (list || []).map(cardName).join(", ") || "nothing";
    const why = whyText(e.why);
    switch (e.kind) {
      case "round": return [`${roundText(e.round, e.last_round, e.race)} begins`, [`Order: ${e.order.map((s) => name(s)).join(", ")}`]];
      case "turn": return [`${w()}'s turn`, []];
      case "rolled": return [`${w()} rolls (${why}): ${e.dice.map(([c, f]) => `${c} ${dieText(c, f)}`).join("; ")}`, []];
      case "turned-die": return [`${w()} turns die ${e.die + 1} to ${dieText(e.colour, e.face)}`, []];
      case "gained": return [`${w()} takes ${amount(e.resource, e.amount)} (${why})`, []];
      case "traded": return [`${w()} trades ${amount(e.give, e.amount)} for ${amount(e.get, 1)}${e.why === "heimdall" ? " with Heimdall" : ""}`, []];
      case "followers": {
        // A loss carries "shielded": what was not lost, kept by the safe zone the player
        // stands on (the new total), or not there to lose (a total of 0).
        if (e.shielded === undefined) {
          const paid = e.paid ? ` for ${costText(e.paid)}` : "";
          return [`${w()} gains ${plural(e.change, "follower")}${paid} (${why}): ${e.total}`, []];
        }
        const lost = -e.change;
        if (e.total === 0) {
          return [lost ? `${w()} loses ${lost === 1 ? "their last follower" : `all ${lost} of their followers`} (${why}): 0`
            : `${w()} has no followers to lose (${why})`, []];
        }
        const saved = e.shielded ? `the safe zone at ${e.total} saves ${plural(e.shielded, "follower")}` : "";
        if (!lost) return [`${w()} loses no followers (${why})${saved ? `: ${saved}` : ""}`, []];
        return [`${w()} loses ${plural(lost, "follower")} (${why}): ${e.total}${saved ? `; ${saved}` : ""}`, []];
      }
      case "opened": return [`Open cards for ${w()}: ${cards(e.cards)}`, []];
      case "opened-closed": return [game && game.seat === e.seat ? "" : `${w()} turns up ${plural(e.count, "open card")}, seen by them alone (Freya)`, []];
      case "reshuffled": return [`The discard pile is shuffled into a new base deck (${plural(e.cards, "card")})`, []];
      case "played": return [`${w()} plays ${cardName(e.card)}${e.twice ? " twice (Hammertime)" : ""}`, []];
      case "drew": return [`You draw ${cards(e.cards)} (${why})`, []];
      case "drew-count": return [game && game.seat === e.seat ? "" : `${w()} draws ${plural(e.count, "card")} (${why})`, []];
      case "bought": return [`${w()} buys ${cardName(e.card)} from the open cards`, []];
      case "discarded": return [`${w()} discards ${cards(e.cards)} (${why})`, []];
      case "built": return [`${w()} builds a ${buildingName(e.building)} for ${costText(e.paid || {})} (${why})`, []];
      case "build-negated": return [`Backstab: ${w()}'s ${buildingName(e.building)} is not built`, []];
      case "free-build-lapsed": {
        const lost = {
          full: "its area's five sites are taken", locked: "another player locked its area",
          "no-temples": "no temple figure is left", limit: "the limit of mines or blood drills is reached",
        }[e.reason];
        return [lost
          ? `${w()} can no longer build the free ${buildingName(e.building)} (${why}): ${lost}; it is not built`
          : `${w()} can no longer pay for the free ${buildingName(e.building)} (${why}): it is not built`, []];
      }
      case "locked": return [`${w()} locks the area of ${godName(e.god)} with a third temple`, []];
      case "unlocked": return [`The area of ${godName(e.god)} is no longer locked`, []];
      case "looked": return [`You look at ${godName(e.god)}'s cards (${why}): ${cards(e.cards)}`, []];
      case "god-cards": return [game && game.seat === e.seat ? "" : `${w()} looks at the top ${plural(e.count, "card")} of ${godName(e.god)}'s deck (${why})`, []];
      case "kept": return [`You keep ${cardName(e.card)}${e.to === "open" ? " for the open cards" : ""}; the other goes under the deck`, []];
      case "passed": return [`${w()} does not attack`, []];
      case "attacked": return [`${w()} attacks ${w("target")} with ${cardName(e.card)} (power ${e.power})`, []];
      case "attack-power": return [`The attack's power is now ${e.power}`, []];
      case "attack-redirected": return [`Vanished: ${w()} passes the attack on to ${w("target")}`, []];
      case "attack-cancelled": return [`${w()} cancels the attack (${cardName(e.card)})`, []];
      case "defended": return [`${w()} defends with ${cardName(e.card)}: ${e.defence} against ${e.power}`, []];
      case "attack-held": return [`${w("target")} holds off ${w("attacker")}'s ${cardName(e.card)}`, []];
      case "attack-through": return [`${w("attacker")}'s ${cardName(e.card)} gets through to ${w("target")}`, []];
      case "stole": return [`${w()} takes ${amount(e.resource, 1)} from ${w("target")} (${why})`, []];
      case "stole-cards": return [`${w()} takes ${cards(e.cards)} from ${w("target")}'s hand (${why})`, []];
      case "stole-count": return [game && (game.seat === e.seat || game.seat === e.target) ? "" : `${w()} takes ${plural(e.count, "card")} from ${w("target")}'s hand (${why})`, []];
      case "stole-open": return [`${w()} takes the open card ${cardName(e.card)} (Thief)`, []];
      case "destroyed": return [`${w("target")}'s ${buildingName(e.building)} is destroyed (${why})`, []];
      case "moved-temple": return [`${w("target")}'s temple moves from ${godName(e.source)} to ${godName(e.dest)} (${why})`, []];
      case "looked-at-hand": return [`You look at ${w("target")}'s hand: ${cards(e.cards)}`, []];
      case "looked-at": return [`${w()} looks at ${w("target")}'s hand`, []];
      case "peeked": return [`You look at the top of the base deck: ${cards(e.cards)}`, []];
      case "took-peeked": return [`You take ${cardName(e.card)}`, []];
      case "switched": return [`${w()} swaps the open card ${cardName(e.out)}${e.card ? ` for ${cardName(e.card)}` : ""}`, []];
      case "took-from-discard": return [`${w()} takes ${cardName(e.card)} from the discard pile`, []];
      case "lent": return [`${godName(e.god)} lends ${w()} a 1-temple ability this turn`, []];
      case "weapon": return [`${w()} plays the god weapon ${cardName(e.card)}: ${optionName(e.option)}`, C.options[e.option] ? [C.options[e.option].text] : []];
      case "game-over": return [{ race: "Race to the Gods is won: the game is over",
        "round limit": "Nobody reached 20 followers by the last round of the race: the game is over" }[e.why] || "The sixth round is over: the game is over",
        (e.places || []).map((place, seat) => `${name(seat)}: ${plural(e.followers[seat], "follower")}, place ${place}`)];
      default: return [e.kind, []];
    }
  }

  function ranking(view, name) {
    const rows = view.seats.map((info, seat) => ({ seat, info, place: view.places ? view.places[seat] : null,
      buildings: info.mines + info.drills + Object.values(info.temples).reduce((a, b) => a + b, 0) }));
    rows.sort((a, b) => a.place - b.place || a.seat - b.seat);
    const notes = [];
    for (const r of rows) {
      const tied = rows.filter((o) => o.info.followers === r.info.followers && o.seat !== r.seat);
      if (tied.length && tied.some((o) => o.place > r.place) && view.winner !== r.seat) {
        notes.push(`${name(r.seat)} wins the tie on ${plural(r.info.followers, "follower")} with more buildings (${r.buildings}).`);
      }
    }
    if (view.winner != null) notes.push(`${name(view.winner)} reached 20 followers first: Race to the Gods.`);
    notes.push("Most followers win; a tie goes to the most buildings (mines, blood drills and temples).");
    return { rows: rows.map((r) => `${r.place}. ${name(r.seat)} — ${plural(r.info.followers, "follower")}, ${plural(r.buildings, "building")}`), notes };
  }

  return { load, mount, render, players, eventText, ranking };
})();
