"use strict";
// Blood Rage: Valhalla in the browser: the map of Asgard as SVG (Valhalla in the centre,
// eight halls around it), the clan sheets, your hand and the pack you draft from, the
// battle in progress, and every decision as a button that sends the action's notation.
// Card, god and monster texts come from the table's content pack (/api/tables/ID/content).
window.MeadhallGames = window.MeadhallGames || {};
window.MeadhallGames["bloodrage-valhalla"] = (() => {
  const CLANS = [
    { name: "Bear", color: "#9c3b24" },
    { name: "Raven", color: "#5b3c99" },
    { name: "Wolf", color: "#2f6aa8" },
    { name: "Stag", color: "#3b7f3b" },
    { name: "Serpent", color: "#b8860b" },
  ];
  const STAT_NAMES = { rage: "Rage", axes: "Axes", horns: "Horns" };
  const PHASES = {
    draft: "Draft", action: "Action phase", march: "March", call: "Call to Battle", battle: "Battle cards",
    resolving: "Battle", quest: "Quest phase", valor: "Prove Valor", keep: "End of Age: keep up to three cards", over: "Game over",
  };
  const RING_INNER = 105, RING_OUTER = 290, VALHALLA_R = 95;
  let C = null;            // content: regions, cards, gods, monsters by id
  let game = null;
  let ctx = null;
  let focus = null;        // region whose actions are listed in the chooser
  const el = (tag, attrs, ...children) => MH.el(tag, attrs, ...children);

  async function load(context) {
    if (C) return C;
    const data = await MH.api("GET", context && context.tableId ? `/api/tables/${context.tableId}/content` : "/api/games/bloodrage-valhalla/content");
    C = { id: data.id, label: data.label, tracks: data.tracks, regions: {}, order: [], cards: {}, gods: {}, monsters: {} };
    for (const region of data.regions) { C.regions[region.id] = region; C.order.push(region.id); }
    for (const card of data.cards) C.cards[card.id] = card;
    for (const god of data.gods) C.gods[god.id] = god;
    for (const monster of data.monsters) C.monsters[monster.id] = monster;
    return C;
  }

  // Names ---------------------------------------------------------------------------------

  const regionName = (id) => (C.regions[id] ? C.regions[id].name : id);
  const cardName = (id) => (id == null ? "no card" : C.cards[id] ? C.cards[id].name : id);
  const godName = (id) => (C.gods[id] ? C.gods[id].name : id);
  const clanOf = (seat) => CLANS[seat] || { name: `Clan ${seat + 1}`, color: "#777" };
  function figureName(kind) {
    if (kind === "warrior") return "Warrior";
    if (kind === "elite") return "Elite";
    return C.monsters[kind] ? C.monsters[kind].name : kind;
  }
  function who(seat, name) { return `${name(seat)} (${clanOf(seat).name})`; }
  function cardLine(id) {
    const card = C.cards[id];
    if (!card) return id;
    const kind = card.kind === "upgrade" ? `${card.upgrade || ""} upgrade, costs ${card.strength} Rage` : card.kind === "battle" ? `battle +${card.strength}` : "quest";
    // a monster's own card belongs to no god (god: null in the content pack)
    return `${card.name} (${card.god ? `${godName(card.god)}, ` : ""}${kind}): ${card.text}`;
  }

  // Actions in words ------------------------------------------------------------------------

  function parse(text) {
    const [kind, ...rest] = text.split(":");
    const arg = rest.join(":");
    if (kind === "summon" || kind === "join") { const [figure, region] = arg.split("@"); return { text, kind, figure, region }; }
    if (kind === "move") { const [figure, region] = arg.split(">"); return { text, kind, figure, region }; }
    if (kind === "march" || kind === "contest") return { text, kind, region: arg };
    if (kind === "destroy") { const [seat, figure] = arg.split(":"); return { text, kind, seat: Number(seat), figure }; }
    if (kind === "kill") { const [region, seat, figure] = arg.split(":"); return { text, kind, region, seat: Number(seat), figure }; }
    if (["pick", "upgrade", "quest", "play", "drop"].includes(kind)) return { text, kind, card: arg };
    if (kind === "raise" || kind === "reinforce") return { text, kind, arg };
    return { text, kind };
  }

  function describe(action) {
    const name = ctx.seatName;
    switch (action.kind) {
      case "summon": return `Summon ${figureName(action.figure)} into ${regionName(action.region)}`;
      case "march": return `March from ${regionName(action.region)}`;
      case "move": return `Move ${figureName(action.figure)} to ${regionName(action.region)}`;
      case "contest": return `Contest ${regionName(action.region)}`;
      case "join": return `Join with ${figureName(action.figure)} from ${regionName(action.region)}`;
      case "destroy": return `Destroy ${who(action.seat, name)}'s ${figureName(action.figure)}`;
      case "kill": return `Kill ${who(action.seat, name)}'s ${figureName(action.figure)} in ${regionName(action.region)}`;
      case "pick": return `Keep ${cardName(action.card)}`;
      case "upgrade": return `Upgrade: ${cardName(action.card)}`;
      case "quest": return `Quest: ${cardName(action.card)}`;
      case "play": return action.card === "none" ? "Play no card (your hand is empty)" : `Play ${cardName(action.card)}`;
      case "drop": return `Remove ${cardName(action.card)} from the game`;
      case "raise": return action.arg === "none" ? "Raise no stat" : `Raise ${STAT_NAMES[action.arg] || action.arg}`;
      case "reinforce": return `Summon ${figureName(action.arg)} into the battle`;
      case "pass": return "Pass (your Rage drops to 0)";
      case "done": return "End the march";
      case "stay": return "Stay out of the battle";
      case "skip": return "Stop here";
      case "keep": return "Keep the rest of your hand";
      default: return action.text;
    }
  }

  // Layout ----------------------------------------------------------------------------------

  function mount(area, context) {
    ctx = context;
    area.textContent = "";
    const svg = svgEl("svg", { id: "br-map", class: "br-map", viewBox: "-300 -300 600 600", role: "img", "aria-label": "The map of Asgard" });
    area.append(
      el("div", { class: "board-tools" }, el("span", { id: "status-line", class: "status" })),
      el("p", { class: "muted content-label", id: "content-label" }),
      svg,
      el("div", { id: "prompt", class: "prompt" }),
      el("div", { id: "chooser", class: "chooser", hidden: true }),
      el("section", { id: "battle-panel", class: "br-battle", hidden: true }),
      el("div", { id: "br-actions", class: "action-groups" }),
      el("section", { class: "card-area" },
        el("h4", { id: "hand-title" }, "Your hand"), el("div", { id: "hand", class: "card-row" }),
        el("div", { id: "slots-box" }, el("h4", {}, "Your upgrades and quests"), el("div", { id: "slots", class: "card-row" }))),
    );
  }

  function svgEl(tag, attrs) {
    const node = document.createElementNS("http://www.w3.org/2000/svg", tag);
    for (const [key, value] of Object.entries(attrs || {})) node.setAttribute(key, value);
    return node;
  }

  function polar(r, angle) { return [r * Math.cos(angle), r * Math.sin(angle)]; }

  // Outer regions sit clockwise from the top, in the content pack's order.
  function sector(index, count) {
    const step = (2 * Math.PI) / count;
    const a0 = -Math.PI / 2 + index * step - step / 2 + 0.01, a1 = a0 + step - 0.02;
    const [x0, y0] = polar(RING_OUTER, a0), [x1, y1] = polar(RING_OUTER, a1);
    const [x2, y2] = polar(RING_INNER, a1), [x3, y3] = polar(RING_INNER, a0);
    const path = `M${x0},${y0} A${RING_OUTER},${RING_OUTER} 0 0 1 ${x1},${y1} L${x2},${y2} A${RING_INNER},${RING_INNER} 0 0 0 ${x3},${y3} Z`;
    const mid = (a0 + a1) / 2;
    return { path, mid, label: polar(RING_OUTER - 24, mid), figures: polar(RING_INNER + 68, mid) };
  }

  function actionsByRegion(actions) {
    const byRegion = {};
    for (const action of actions) {
      let region = action.region;
      if (action.kind === "move" || action.kind === "join") region = action.region;
      if (!region) continue;
      (byRegion[region] = byRegion[region] || []).push(action);
    }
    return byRegion;
  }

  function renderMap(view, actions) {
    const svg = document.getElementById("br-map");
    svg.textContent = "";
    const outer = C.order.filter((id) => !C.regions[id].valhalla);
    const targets = actionsByRegion(actions);
    const godAt = {};
    for (const [region, god] of Object.entries(view.gods_at || {})) godAt[region] = god;
    const battleRegion = view.battle ? view.battle.region : null;
    const marchFrom = view.march ? view.march.from : null;
    const shapes = {};
    outer.forEach((id, index) => { shapes[id] = sector(index, outer.length); });
    for (const id of C.order) {
      const region = C.regions[id];
      const g = svgEl("g", { class: "region", "data-region": id });
      const classes = ["area"];
      if (targets[id]) classes.push("target");
      if (id === battleRegion) classes.push("battle");
      if (id === marchFrom) classes.push("march-from");
      if ((view.region_tokens || []).includes(id)) classes.push("sealed");
      if ((view.claimed || []).includes(id)) classes.push("claimed");
      let labelAt, figuresAt;
      if (region.valhalla) {
        g.append(svgEl("circle", { cx: 0, cy: 0, r: VALHALLA_R, class: `${classes.join(" ")} valhalla` }));
        labelAt = [0, -VALHALLA_R + 22];
        figuresAt = [0, 8];
      } else {
        const shape = shapes[id];
        g.append(svgEl("path", { d: shape.path, class: classes.join(" ") }));
        labelAt = shape.label;
        figuresAt = shape.figures;
      }
      const label = svgEl("text", { x: labelAt[0], y: labelAt[1], class: "region-name" });
      label.textContent = region.name;
      g.append(label);
      const notes = [];
      if (region.reward) notes.push(region.reward === "all" ? "+all stats" : region.reward === "choice" ? "+a stat" : `+${STAT_NAMES[region.reward] || region.reward}`);
      if ((view.region_tokens || []).includes(id)) notes.push(`token ${region.token}: closed`);
      if (godAt[id]) notes.push(godName(godAt[id]));
      if ((view.claimed || []).includes(id)) notes.push("won this Age");
      const note = svgEl("text", { x: labelAt[0], y: labelAt[1] + 13, class: "region-note" });
      note.textContent = notes.join(" · ");
      g.append(note);
      renderFigures(g, view.board[id] || [], figuresAt);
      const title = svgEl("title");
      const strength = (view.strength || {})[id] || {};
      const figures = Object.entries(strength).map(([seat, total]) => {
        const mine = (view.board[id] || []).filter(([o]) => o === Number(seat)).map(([, k]) => figureName(k));
        return `${clanOf(Number(seat)).name}: ${mine.join(", ")} = STR ${total}`;
      }).join("; ");
      title.textContent = `${region.name}: reward ${region.reward}${godAt[id] ? `; ${godName(godAt[id])} is here: ${C.gods[godAt[id]].bonus}` : ""}${figures ? `; ${figures}` : ""}`;
      g.append(title);
      g.addEventListener("click", () => { if (targets[id]) openChooser(id, targets[id]); });
      svg.append(g);
    }
    svg.append(pathways(outer, shapes));
  }

  // The pathways between adjacent regions: a bridge across each shared border, and a
  // dashed road between regions that touch without sharing one (possible in a content pack).
  function pathways(outer, shapes) {
    const layer = svgEl("g", { class: "pathways" });
    const count = outer.length;
    const step = (2 * Math.PI) / count;
    const seen = new Set();
    for (const id of C.order) {
      for (const other of C.regions[id].neighbours || []) {
        const key = [id, other].sort().join("|");
        if (seen.has(key) || !C.regions[other]) continue;
        seen.add(key);
        const [a, b] = [id, other].map((r) => outer.indexOf(r));
        let at = null;
        if (a < 0 || b < 0) {
          const ring = a < 0 ? b : a;
          if (ring >= 0) at = { point: polar(RING_INNER - 5, shapes[outer[ring]].mid), angle: shapes[outer[ring]].mid };
        } else if ((a + 1) % count === b || (b + 1) % count === a) {
          const first = (a + 1) % count === b ? a : b;
          const angle = -Math.PI / 2 + first * step + step / 2;
          at = { point: polar((RING_INNER + RING_OUTER) / 2 - 30, angle), angle: angle + Math.PI / 2 };
        }
        if (at) {
          const degrees = (at.angle * 180) / Math.PI;
          layer.append(svgEl("rect", { x: at.point[0] - 9, y: at.point[1] - 3.5, width: 18, height: 7, rx: 3, class: "pathway",
            transform: `rotate(${degrees + 90} ${at.point[0]} ${at.point[1]})` }));
        } else {
          const [p, q] = [shapes[id].figures, shapes[other].figures];
          layer.append(svgEl("line", { x1: p[0], y1: p[1], x2: q[0], y2: q[1], class: "pathway-road" }));
        }
      }
    }
    return layer;
  }

  function renderFigures(g, figures, [cx, cy]) {
    const per = 5, size = 17;
    figures.forEach(([owner, kind], index) => {
      const row = Math.floor(index / per), col = index % per;
      const inRow = Math.min(per, figures.length - row * per);
      const x = cx + (col - (inRow - 1) / 2) * size, y = cy + row * size - 8;
      const monster = kind !== "warrior" && kind !== "elite";
      const shape = monster
        ? svgEl("rect", { x: x - 7, y: y - 7, width: 14, height: 14, rx: 3, fill: clanOf(owner).color, class: "figure monster" })
        : svgEl("circle", { cx: x, cy: y, r: kind === "elite" ? 8 : 6.5, fill: clanOf(owner).color, class: `figure ${kind}` });
      shape.setAttribute("data-owner", owner);
      shape.setAttribute("data-figure", kind);
      g.append(shape);
      const letter = svgEl("text", { x, y: y + 3.5, class: "figure-letter" });
      letter.textContent = kind === "warrior" ? "" : kind === "elite" ? "E" : figureName(kind).slice(0, 1);
      g.append(letter);
    });
  }

  function openChooser(region, actions) {
    focus = region;
    const chooser = document.getElementById("chooser");
    chooser.textContent = "";
    chooser.append(el("p", {}, `${regionName(region)}:`));
    for (const action of actions) {
      chooser.append(el("button", { type: "button", class: "choice", "data-action": action.text, onclick: () => send(action.text) }, describe(action)));
    }
    chooser.append(el("button", { type: "button", onclick: () => { chooser.hidden = true; focus = null; } }, "Cancel"));
    chooser.hidden = false;
  }

  async function send(text) {
    document.getElementById("chooser").hidden = true;
    focus = null;
    await ctx.send(text);
  }

  // Cards -----------------------------------------------------------------------------------

  function cardButton(id, action, extra) {
    const card = C.cards[id] || { name: id, kind: "", text: "", god: "" };
    const attrs = { type: "button", class: `game-card br-card kind-${card.kind}${action ? " playable" : ""}`, "data-card": id, title: cardLine(id) };
    if (action) { attrs["data-action"] = action.text; attrs.onclick = () => send(action.text); } else attrs.disabled = true;
    const cost = card.kind === "battle" ? `+${card.strength}` : card.kind === "upgrade" ? `${card.strength} Rage` : "quest";
    return el("button", attrs,
      el("b", {}, card.name), el("small", { class: "card-meta" }, card.god ? `${godName(card.god)} · ${cost}` : cost),
      el("small", { class: "card-text" }, card.text), extra ? el("em", {}, extra) : null);
  }

  function renderCards(view, actions) {
    const byCard = {};
    for (const action of actions) if (action.card && action.card !== "none") (byCard[action.card] = byCard[action.card] || []).push(action);
    const hand = document.getElementById("hand");
    hand.textContent = "";
    const drafting = view.phase === "draft" && view.pack && view.pack.length;
    document.getElementById("hand-title").textContent = drafting
      ? `Draft: keep one card of this pack (${view.my_drafted.length} of ${view.draft_keep} kept so far${view.my_saved.length ? `, ${view.my_saved.length} saved from the last Age` : ""})`
      : view.seat == null ? "You are watching" : `Your hand (${(view.hand || []).length})`;
    const shown = drafting ? view.pack : view.hand || [];
    for (const id of shown) {
      const options = byCard[id] || [];
      if (options.length <= 1) hand.append(cardButton(id, options[0]));
      else for (const option of options) hand.append(cardButton(id, option, describe(option)));
    }
    if (drafting && view.my_drafted.length) {
      hand.append(el("p", { class: "muted" }, `Kept: ${view.my_drafted.map(cardName).join(", ")}`));
    }
    if (view.my_pick) hand.append(el("p", { class: "muted" }, `You keep ${cardName(view.my_pick)}; waiting for the others.`));
    if (view.my_card !== undefined) hand.append(el("p", { class: "muted" }, `Your battle card, hidden until all have chosen: ${cardName(view.my_card)}`));
    const slots = document.getElementById("slots");
    slots.textContent = "";
    const me = view.seat == null ? null : view.clans[view.seat];
    document.getElementById("slots-box").hidden = !me;
    if (!me) return;
    for (const id of me.upgrades) slots.append(cardButton(id, null));
    for (const id of view.my_quests || []) slots.append(cardButton(id, null, "quest, face down"));
    if (!slots.children.length) slots.append(el("p", { class: "muted" }, "None yet: seven slots free."));
  }

  // Buttons for every decision that is not a card (cards are clicked in the hand above).
  const GROUPS = [
    ["summon", "Summon"], ["march", "March"], ["move", "Move"], ["contest", "Contest"], ["join", "Call to Battle"],
    ["raise", "Raise a stat"], ["destroy", "Destroy"], ["kill", "Kill anywhere"], ["reinforce", "Reinforce"],
    ["play", "Battle card"],
  ];
  function renderActions(actions) {
    const box = document.getElementById("br-actions");
    box.textContent = "";
    for (const [kind, title] of GROUPS) {
      const group = actions.filter((a) => a.kind === kind && !(kind === "play" && a.card !== "none"));
      if (!group.length) continue;
      box.append(el("fieldset", { class: `action-group group-${kind}` }, el("legend", {}, title),
        ...group.map((a) => el("button", { type: "button", class: "action", "data-action": a.text, onclick: () => send(a.text) }, describe(a)))));
    }
    const single = actions.filter((a) => ["pass", "done", "stay", "skip", "keep"].includes(a.kind));
    if (single.length) {
      box.append(el("div", { class: "turn-actions" },
        ...single.map((a) => el("button", { type: "button", class: "action", id: `br-${a.kind}`, "data-action": a.text, onclick: () => send(a.text) }, describe(a)))));
    }
  }

  // The last battle's reveal and result stay on the table until the next one starts.
  let lastBattle = null;
  function noteBattle(events) {
    for (const event of events || []) {
      if (event.kind === "revealed") lastBattle = { region: event.region, cards: event.cards, strength: null, winner: null };
      if (event.kind === "battle" && lastBattle && lastBattle.region === event.region) {
        lastBattle.strength = event.strength;
        lastBattle.winner = event.winner;
      }
    }
  }

  function renderLastBattle(panel) {
    const name = ctx.seatName;
    if (!lastBattle || !lastBattle.strength) { panel.hidden = true; return; }
    panel.hidden = false;
    panel.textContent = "";
    const result = lastBattle.winner == null ? "a tie: everybody in it lost" : `${who(lastBattle.winner, name)} won`;
    panel.append(el("h4", {}, `Last battle, in ${regionName(lastBattle.region)}: ${result}`),
      el("ul", {}, ...Object.entries(lastBattle.strength).map(([seat, total]) =>
        el("li", {}, `${who(Number(seat), name)}: ${cardName(lastBattle.cards[seat])} — STR ${total}`))));
  }

  function renderBattle(view) {
    const panel = document.getElementById("battle-panel");
    const battle = view.battle;
    if (!battle) { renderLastBattle(panel); return; }
    panel.hidden = false;
    panel.textContent = "";
    const name = ctx.seatName;
    panel.append(el("h4", {}, `Battle in ${regionName(battle.region)}, started by ${who(battle.attacker, name)}`));
    if (battle.calls.length) panel.append(el("p", {}, `Call to Battle: ${battle.calls.map((s) => name(s)).join(", ")} may still move a figure in.`));
    const rows = battle.participants.map((seat) => {
      let card = "choosing a card";
      if (battle.revealed) card = cardName(battle.cards[String(seat)]);
      else if (battle.chosen.includes(seat)) card = "card chosen";
      else if (battle.empty.includes(seat)) card = "no card in hand";
      const bonus = battle.bonus[String(seat)] ? `, +${battle.bonus[String(seat)]} from effects` : "";
      const figures = (view.board[battle.region] || []).filter(([o]) => o === seat).map(([, k]) => figureName(k));
      const total = ((view.strength || {})[battle.region] || {})[String(seat)] || 0;
      return el("li", {}, `${who(seat, name)}: ${figures.join(", ") || "no figures"} (STR ${total}) — ${card}${bonus}`);
    });
    panel.append(el("ul", {}, ...rows));
  }

  // Rendering ---------------------------------------------------------------------------------

  function promptFor(view, myTurn, actions) {
    const name = ctx.seatName;
    const waiting = (view.to_move || []).map((s) => name(s)).join(", ");
    if (game.status === "abandoned") return "This table was abandoned.";
    if (view.finished) return "The game is over: Ragnarök.";
    if (!myTurn) return game.seat == null ? `You are watching. ${waiting ? `Waiting for ${waiting}.` : ""}` : `Waiting for ${waiting}.`;
    if (view.decision) {
      const type = view.decision.type;
      if (type === "raise") {
        return view.decision.data[3]
          ? `You may raise one stat of your choice, or none (${view.decision.data[2]}).`
          : `Raise one stat of your choice (${view.decision.data[2]}).`;
      }
      if (type === "destroy") return `Choose an enemy figure to destroy (${view.decision.data[4] || "a card's effect"}).`;
      if (type === "kill") return `Kill enemy figures in any regions: ${view.decision.data[2]} left, or stop.`;
      if (type === "reinforce") return `Summon figures from your reserve into the battle: ${view.decision.data[3]} left, or stop.`;
    }
    switch (view.phase) {
      case "draft": return "Draft: click the card you keep. Everybody chooses at once; the packs pass when all have chosen.";
      case "action": return `Your turn, ${view.clans[game.seat].rage} Rage left: summon, march, upgrade, quest, contest (click a highlighted region or a card) or pass.`;
      case "march": return "March: move figures from the marching region to adjacent regions, then end the march.";
      case "call": return `Call to Battle in ${regionName(view.battle.region)}: move in one figure from an adjacent region, or stay out.`;
      case "battle": return actions.some((a) => a.card === "none") ? "Your hand is empty: you fight without a card." : "Choose the card you fight with (click it in your hand). All cards are revealed together.";
      case "keep": {
        const drops = view.clans[game.seat].drops;
        return drops
          ? `End of the Age: keep up to three cards. Remove ${drops} more from the game (click a card in your hand).`
          : "End of the Age: keep the rest of your hand for the next Age, or remove more cards from the game (click a card).";
      }
      default: return "Your decision.";
    }
  }

  function render(current, context) {
    game = current;
    ctx = context;
    const view = game.view;
    const actions = (game.legal || []).map(parse);
    const myTurn = actions.length > 0;
    const gods = (view.gods || []).map((g, i) => `${godName(g)}${i + 1 === view.age ? " (this Age)" : ""}`).join(", ");
    document.getElementById("status-line").textContent = view.finished
      ? "Ragnarök: the game is over"
      : `Age ${view.age} · ${PHASES[view.phase] || view.phase} · gods: ${gods} · deck ${view.deck}`;
    document.getElementById("content-label").textContent = `Cards and map: ${view.content_label || C.label}.`;
    if (view.phase === "draft" || view.phase === "keep") lastBattle = null;
    noteBattle(game.events);
    renderMap(view, actions);
    ctx.prompt(promptFor(view, myTurn, actions));
    renderBattle(view);
    renderActions(actions);
    renderCards(view, actions);
    const chooser = document.getElementById("chooser");
    if (focus && !chooser.hidden) {
      const still = actionsByRegion(actions)[focus];
      if (still) openChooser(focus, still); else { chooser.hidden = true; focus = null; }
    }
  }

  // A stat track as boxes, the current step marked: "Axes 3 4 [5] 6 8 8".
  function track(stat, clan) {
    const values = C.tracks[stat] || [];
    return el("span", { class: `track track-${stat}`, title: `${STAT_NAMES[stat]}: step ${clan.steps[stat] + 1} of ${values.length}` },
      el("b", {}, STAT_NAMES[stat]), " ",
      ...values.map((v, i) => el("span", { class: `step${i === clan.steps[stat] ? " now" : ""}${i >= 3 ? " legendary" : ""}` }, String(v))));
  }

  function players(view, context) {
    const list = el("ol", { id: "scores", class: "scores clans" });
    for (const clan of view.clans) {
      const seat = clan.seat;
      const toMove = (view.to_move || []).includes(seat);
      const reserve = `${clan.reserve.warrior} Warriors, ${clan.reserve.elite} Elites${clan.reserve.monsters.length ? `, ${clan.reserve.monsters.map(figureName).join(", ")}` : ""}`;
      const rageMax = clan.stats.rage;
      const rage = el("span", { class: "rage-track", title: `Rage left: ${clan.rage} of ${rageMax}` },
        ...Array.from({ length: rageMax }, (_, i) => el("span", { class: `pip${i < clan.rage ? " full" : ""}` })));
      const slots = [];
      for (const id of clan.upgrades) slots.push(el("span", { class: "slot upgrade", title: cardLine(id) }, cardName(id)));
      for (let i = 0; i < clan.quests; i++) slots.push(el("span", { class: "slot quest", title: "a quest, face down" }, "quest"));
      while (slots.length < 7) slots.push(el("span", { class: "slot empty", title: "a free slot" }, "·"));
      const details = [
        el("li", {}, `${clan.glory} Glory · Rage ${clan.rage}/${rageMax}${clan.passed ? " (passed)" : ""} `, rage),
        el("li", { class: "tracks" }, track("rage", clan), track("axes", clan), track("horns", clan)),
        el("li", { class: "slots", title: "the seven upgrade and quest slots" }, ...slots),
        el("li", {}, `Reserve: ${reserve}`),
        el("li", {}, `Hand ${clan.hand} · kill pile ${(view.killpiles[seat] || []).length} · battles won ${clan.battles_won}`),
      ];
      if (clan.known.length && seat !== view.seat) details.push(el("li", {}, `Known in hand: ${clan.known.map(cardName).join(", ")}`));
      list.append(el("li", { class: toMove ? "to-move" : "", "data-seat": seat, style: `--clan:${clanOf(seat).color}` },
        el("b", {}, `${context.seatName(seat)} — ${clanOf(seat).name}`),
        el("ul", { class: "clan-sheet" }, ...details)));
    }
    if (view.feast && view.feast.length) list.append(el("li", { class: "muted" }, `Feast Hall: ${MH.plural(view.feast.length, "figure")}`));
    if (view.spent && view.spent.length) list.append(el("li", { class: "muted" }, `Spent (removed from the game): ${view.spent.map(cardName).join(", ")}`));
    if (view.monsters_in_play) {
      list.append(el("li", { class: "muted", title: view.monsters_in_play.map((m) => `${figureName(m)} (STR ${C.monsters[m] ? C.monsters[m].strength : "?"}, costs ${C.monsters[m] ? C.monsters[m].cost : "?"} Rage): ${C.monsters[m] ? C.monsters[m].text : ""}`).join("\n") },
        `Monsters in this game: ${view.monsters_in_play.map(figureName).join(", ")}`));
    }
    return list;
  }

  function eventText(event, name) {
    const w = (seat) => who(seat, name);
    switch (event.kind) {
      case "god-arrives": return [`Age ${event.age}: ${godName(event.god)} arrives in ${regionName(event.region)}`, []];
      case "dealt": {
        // fewer than six when the deck ran short (ruling r of the rules page)
        const cards = event.pack_size ?? 6;
        if (cards === 0) return [`Age ${event.age}: the deck is too short for a draft; no cards are dealt`, []];
        if (cards < 6) return [`Age ${event.age}: the deck is short, so ${cards} cards are dealt to each clan (keep ${cards - 1}); the packs pass ${event.direction}`, []];
        return [`Age ${event.age}: six cards dealt to each clan; the packs pass ${event.direction}`, []];
      }
      case "packs-passed": return [`The packs pass ${event.direction}`, []];
      case "picked": return [`You keep ${cardName(event.card)}`, []];
      case "chose": return [event.what === "play" ? `${w(event.seat)} has chosen a battle card` : "", []];
      case "my-card": return [event.card === "none" ? "You fight without a card" : `You play ${cardName(event.card)}, face down`, []];
      case "stayed": return [`${w(event.seat)} stays out of the battle in ${regionName(event.region)}`, []];
      case "draft-over": return ["The draft is over", []];
      case "turn": return [`${w(event.seat)} to act`, []];
      case "summoned": return [`${w(event.seat)} summons ${figureName(event.figure)} into ${regionName(event.region)}`, []];
      case "march": return [`${w(event.seat)} marches from ${regionName(event.region)}`, []];
      case "moved": return [`${w(event.seat)} moves ${figureName(event.figure)} from ${regionName(event.from)} to ${regionName(event.to)}`, []];
      case "upgraded": return [`${w(event.seat)} plays the upgrade ${cardName(event.card)}`, []];
      case "committed": return [`${w(event.seat)} commits to a quest (face down)`, []];
      case "committed-card": return [`Your quest: ${cardName(event.card)}`, []];
      case "contest": return [`${w(event.seat)} contests ${regionName(event.region)}`, []];
      case "joined": return [`${w(event.seat)} joins the battle with ${figureName(event.figure)} from ${regionName(event.from)}`, []];
      case "no-battle": return [`No enemy in ${regionName(event.region)}: ${w(event.seat)} wins it without a battle`, []];
      case "revealed": return [`Battle cards in ${regionName(event.region)}`,
        Object.entries(event.cards).map(([seat, card]) => `${w(Number(seat))}: ${cardName(card)}`)];
      case "battle": return [event.winner == null ? `Battle in ${regionName(event.region)}: a tie, everybody loses` : `${w(event.winner)} wins the battle in ${regionName(event.region)}`,
        Object.entries(event.strength).map(([seat, total]) => `${w(Number(seat))}: STR ${total}`)];
      case "killed": return [`${w(event.owner)}'s ${figureName(event.figure)} in ${regionName(event.region)} is destroyed (${event.why})`, []];
      case "saved": return [`${w(event.seat)}'s ${figureName(event.figure)} is saved`, []];
      case "spent": return [`${w(event.seat)}'s ${cardName(event.card)} is spent: removed from the game`, []];
      case "reinforced": return [`${w(event.seat)} brings ${figureName(event.figure)} into ${regionName(event.region)}`, []];
      case "claimed": return [`${w(event.seat)} claims the reward of ${regionName(event.region)}`, []];
      case "glory": return [`${w(event.seat)} gains ${event.amount} Glory (${event.why}), now ${event.total}`, []];
      case "rage": return [`${w(event.seat)} ${event.amount >= 0 ? `gains ${event.amount}` : `loses ${-event.amount}`} Rage (${event.why})`, []];
      case "raised": return [`${w(event.seat)} raises ${STAT_NAMES[event.stat] || event.stat} to ${event.value} (${event.why})`, []];
      case "strength": return [`${w(event.seat)} +${event.amount} STR (${event.why})`, []];
      case "drew": return [`You draw ${cardName(event.card)}`, []];
      case "drew-count": return [`${w(event.seat)} draws ${MH.plural(event.count, "card")}`, []];
      case "passed": return [`${w(event.seat)} passes`, []];
      case "quest-phase": return [`Age ${event.age}: quests are revealed`, []];
      case "quest": return [`${w(event.seat)} ${event.fulfilled ? "fulfils" : "fails"} the quest ${cardName(event.card)}`, []];
      case "valor": return [`${w(event.seat)} proves valor in ${regionName(event.region)} with ${MH.plural(event.figures, "figure")}`, []];
      case "release": return [`Age ${event.age}: the warriors return from the kill piles and the Feast Hall`, []];
      case "dropped": return [`You remove ${cardName(event.card)} from the game`, []];
      case "kept": return [`${w(event.seat)} keeps ${event.count} card${event.count === 1 ? "" : "s"} for the next Age`, []];
      case "no-raise": return [`${w(event.seat)} raises no stat (${event.why})`, []];
      case "game-over": return ["Ragnarök: the game is over", (event.places || []).map((place, seat) => `${w(seat)}: ${event.scores[seat]} Glory, place ${place}`)];
      default: return [event.kind, []];
    }
  }

  function ranking(view, name) {
    const clans = view.clans.map((c) => ({ ...c, place: view.places ? view.places[c.seat] : null }));
    clans.sort((a, b) => a.place - b.place);
    const rows = clans.map((c) => `${c.place}. ${who(c.seat, name)} — ${c.glory} Glory (${c.rage} Rage left)`);
    const notes = [];
    for (const c of clans) {
      const tied = clans.filter((o) => o.glory === c.glory && o.seat !== c.seat);
      if (tied.length && tied.some((o) => o.place !== c.place) && c.place === Math.min(...clans.filter((o) => o.glory === c.glory).map((o) => o.place))) {
        notes.push(`${who(c.seat, name)} wins the tie on ${c.glory} Glory with more Rage left (${c.rage}).`);
      }
    }
    notes.push("Legendary stat bonuses are included in the Glory above; the game log lists every gain.");
    return { rows, notes };
  }

  return { load, mount, render, players, eventText, ranking };
})();
