"use strict";
// Blood Rage: Valhalla in the browser: the map of Asgard as SVG (Valhalla in the centre,
// the other regions around it as islands in a sea, each with its token: its reward's icon, the
// god standing there, or the stone of the region token closing it, its land then in ruins; the
// battle's region in red), the clan sheets (each clan's stat tracks, its current step
// marked, and its Rage left), your hand or the pack you draft from, your upgrades and
// quests, the last battle, and every decision. Each legal action comes from the server with
// its label, group and target (the region, card, figure or seat it names): a region on the
// map opens a chooser of its actions, a card plays its action, and every action that is not a
// card's is also a button under its group. Names and texts of regions, gods, monsters and
// cards, of the clans and of the stat tracks and their steps come from the table's components
// (/api/tables/ID/content); the map's shape, the tracks' lengths and the clans' colours from
// its content pack; the pictures of clans, gods, monsters, figures and Valhalla from the game's
// icon sprite (web/icons.svg, drawn by MH.icon). The regions the last move's events name are marked.
// A region with no move now is a place (data-place): focusable, and its preview (the game's words,
// GET /api/tables/ID/preview) says what it is and why nothing can be done there. Everything a player reads is the game's words: this file only draws and picks
// (it never reads notation). The page (table.js, replay.js) draws the players, the log, the
// prompt and the end from the words.
window.MeadhallGames = window.MeadhallGames || {};
window.MeadhallGames["bloodrage-valhalla"] = (() => {
  const RING_INNER = 105, RING_OUTER = 290, VALHALLA_R = 95;
  let regions = {};        // region id -> {id, neighbours, valhalla} (the map's shape)
  let order = [];          // region ids in the content pack's order
  let kinds = {};          // card id -> battle, upgrade or quest (the card's frame)
  let parts = {};          // component key -> {name, value, facts, text}
  let tracks = {};         // stat -> its values, step by step (the content pack's tracks)
  let colours = [];        // the clans' colours, by seat
  let game = null;
  let ctx = null;
  let mapView = null;      // MH.PanZoom of the map
  let focus = null;        // the region whose actions the chooser lists
  let lastBattle = null;   // the words of the last battle's reveal and result: {reveal, result}
  let spots = {};          // region id -> where its figures stand on the map [x, y] (for motion)
  const el = (tag, attrs, ...children) => MH.el(tag, attrs, ...children);
  const words = (text) => MH.fill(text, ctx.seatName);
  // The board's own words (its headings, the map's name): the game's words for this view, by key.
  const titleOf = (key) => words(((game && game.words && game.words.titles) || {})[key] || "");
  const part = (key) => parts[key] || { key, name: key, value: "", facts: "", text: "" };
  const hover = (key) => { const p = part(key); return [p.name, p.facts, p.text].filter(Boolean).join(" · "); };
  const colour = (seat) => colours[seat] || MH.SEAT_COLOURS[seat] || "#777";

  async function load(context) {
    const data = await MH.api("GET", `/api/tables/${context.tableId}/content`);
    regions = {};
    order = [];
    for (const region of data.regions || []) { regions[region.id] = region; order.push(region.id); }
    kinds = {};
    for (const card of data.cards || []) kinds[card.id] = card.kind;
    parts = {};
    for (const component of data.components || []) parts[component.key] = component;
    tracks = data.tracks || {};
    colours = data.clan_colours || [];
  }

  function svgEl(tag, attrs) {
    const node = document.createElementNS("http://www.w3.org/2000/svg", tag);
    for (const [key, value] of Object.entries(attrs || {})) node.setAttribute(key, value);
    return node;
  }

  function mount(area, context) {
    ctx = context;
    area.textContent = "";
    const svg = svgEl("svg", { id: "br-map", class: "br-map", viewBox: "-300 -300 600 600", role: "group" });   // named by the words (render)
    mapView = new MH.PanZoom(svg);   // pan, pinch and zoom on a phone (common.js)
    // A region with no move now is asked about by its id: the game's words say what it is and why (core/preview.py).
    MH.previews(svg, (node) => (node.hasAttribute("data-place") ? { region: node.getAttribute("data-place") } : null));
    area.append(
      el("div", { class: "board-tools" }, ...mapView.tools(), el("span", { id: "status-line", class: "status" })),
      el("div", { id: "prompt", class: "prompt" }),   // what to do now, above the map; what to do it with just below
      svg,
      el("div", { id: "chooser", class: "chooser", hidden: true }),
      el("section", { id: "battle-panel", class: "br-battle", hidden: true }),
      el("div", { id: "br-actions", class: "action-groups" }),
      el("section", { class: "card-area" },
        el("h4", { id: "hand-title" }), el("div", { id: "hand", class: "card-row" }),
        el("div", { id: "chosen", class: "card-row" }),
        el("div", { id: "slots-box" }, el("h4", { id: "slots-title" }), el("div", { id: "slots", class: "card-row" }))),
      el("section", { id: "br-clans", class: "br-clans" }),
    );
  }

  // The legal actions, as the server words them.
  const actions = () => (game && game.actions ? game.actions : []);
  const kindOf = (action) => (action.target ? action.target.kind : null);
  const onRegion = (action) => Boolean(action.target && action.target.region);
  const onCard = (action) => Boolean(action.target && action.target.card);

  function byRegion() {
    const found = {};
    for (const action of actions()) if (onRegion(action)) (found[action.target.region] = found[action.target.region] || []).push(action);
    return found;
  }

  // The map ----------------------------------------------------------------------------------
  // The provinces around Valhalla as islands in a sea: each region a land shape with a drawn
  // coastline (the same every time: its wobble comes from its place in the ring), a fjord of
  // sea between neighbours (a bridge across it), Yggdrasil's roots reaching out from the centre
  // to each province, and on each province its token: the reward a contest there raises (its
  // icon), the god standing on it, or the stone of its region token when the region is closed.

  function polar(r, angle) { return [r * Math.cos(angle), r * Math.sin(angle)]; }
  const FJORD = 9;   // half the width of the sea between two provinces

  // A closed path through `points`, rounded (each corner a curve through the middle of its sides).
  function rounded(points) {
    const mid = (p, q) => [(p[0] + q[0]) / 2, (p[1] + q[1]) / 2];
    const n = points.length;
    let d = `M${mid(points[n - 1], points[0]).map((v) => v.toFixed(1)).join(",")}`;
    for (let i = 0; i < n; i++) {
      const m = mid(points[i], points[(i + 1) % n]);
      d += ` Q${points[i][0].toFixed(1)},${points[i][1].toFixed(1)} ${m[0].toFixed(1)},${m[1].toFixed(1)}`;
    }
    return `${d} Z`;
  }

  // Outer regions sit clockwise from the top, in the content pack's order: a land shape each.
  function sector(index, count) {
    const step = (2 * Math.PI) / count;
    const a0 = -Math.PI / 2 + index * step - step / 2, a1 = a0 + step;
    const wobble = (t, k) => 5 * Math.sin(t * 9 + index * 2.3 + k) + 2.5 * Math.sin(t * 23 + index * 1.1 + k);
    const points = [];
    const coast = 16, side = 6;
    for (let i = 0; i <= coast; i++) {   // the outer coast
      const t = i / coast, r = RING_OUTER - 6 + wobble(t, 0);
      const a = a0 + FJORD / r + t * (step - (2 * FJORD) / r);
      points.push(polar(r, a));
    }
    for (let i = 1; i < side; i++) {   // the fjord on its clockwise side, inwards
      const t = i / side, r = RING_OUTER - t * (RING_OUTER - RING_INNER);
      points.push(polar(r, a1 - (FJORD + wobble(t, 4) * 0.6 + 2) / r));
    }
    for (let i = 0; i <= 4; i++) {   // the inner shore, facing Valhalla
      const t = i / 4, r = RING_INNER + 2 + wobble(t, 7) * 0.3;
      points.push(polar(r, a1 - FJORD / r - t * (step - (2 * FJORD) / r)));
    }
    for (let i = 1; i < side; i++) {   // the fjord on its other side, outwards
      const t = i / side, r = RING_INNER + t * (RING_OUTER - RING_INNER);
      points.push(polar(r, a0 + (FJORD + wobble(t, 9) * 0.6 + 2) / r));
    }
    const mid = (a0 + a1) / 2;
    // Where its name, token, figures and battle mark go: placed by layout() (clear of each other).
    return { path: rounded(points), mid, half: step / 2, figures: polar(RING_INNER + 58, mid) };
  }

  // Laying out a province: its words are drawn no smaller than 11 CSS pixels (MH.PanZoom), which
  // on a phone's whole map is about WORDS of the map's units; each province's name (above) and its
  // token with what it gives (beside it) are one box as wide as those words would be, placed near
  // its coast; its figures one box nearer Valhalla, the battle's mark another: each box inside the
  // province's own wedge of the ring (clear of the fjords, so of every other province's boxes) and
  // clear of the others, as near to where it belongs as there is room for it.
  const WORDS = 22, GAP = 5, TOKEN = 34, FIGURE = 25, PER_ROW = 4;

  // How wide `text` is drawn with class `cls` at WORDS units (measured on the map itself).
  function wide(svg, text, cls) {
    const probe = svgEl("text", { class: cls, style: `font-size:${WORDS}px` });
    probe.textContent = text;
    svg.append(probe);
    const measured = probe.getComputedTextLength();
    probe.remove();
    return (measured > 0 ? measured : text.length * 0.72 * WORDS) * 1.05;
  }

  const meets = (a, b) => a.x < b.x + b.w + GAP && b.x < a.x + a.w + GAP && a.y < b.y + b.h + GAP && b.y < a.y + a.h + GAP;

  // Is the box {x, y, w, h} inside the province's wedge (between its fjords, off Valhalla's channel, on the map)?
  function inWedge(shape, box) {
    if (box.x < -343 || box.x + box.w > 343 || box.y < -298 || box.y + box.h > 298) return false;
    for (const [x, y] of [[box.x, box.y], [box.x + box.w, box.y], [box.x, box.y + box.h], [box.x + box.w, box.y + box.h]]) {
      const r = Math.hypot(x, y);
      if (r < RING_INNER + 6) return false;
      let off = Math.atan2(y, x) - shape.mid;
      off = Math.atan2(Math.sin(off), Math.cos(off));
      if (Math.abs(off) > shape.half - (FJORD + 4) / r) return false;
    }
    return true;
  }

  // A box w × h in the province: the fitting place nearest to `ideal` [x, y] (there if none fits).
  function place(shape, w, h, ideal, taken) {
    let best = null, bestDistance = Infinity;
    for (let r = RING_INNER + 10; r <= RING_OUTER + 50; r += 4) {
      for (let off = -shape.half; off <= shape.half; off += 0.02) {
        const [cx, cy] = polar(r, shape.mid + off);
        const box = { x: cx - w / 2, y: cy - h / 2, w, h };
        const distance = Math.hypot(cx - ideal[0], cy - ideal[1]);
        if (distance < bestDistance && inWedge(shape, box) && !taken.some((t) => meets(t, box))) { best = box; bestDistance = distance; }
      }
    }
    return best || { x: ideal[0] - w / 2, y: ideal[1] - h / 2, w, h };
  }

  // Where a province's things go: its name's centre, its token's centre, its caption's start (left,
  // its middle), its figures' centre and its battle mark's centre.
  function layout(svg, id, shape, view, figures) {
    const closed = (view.region_tokens || []).includes(id);
    const caption = closed ? "" : tokenWords(id, view);
    const nameW = wide(svg, part(id).name, "region-name");
    const captionW = caption ? wide(svg, caption, "token-caption") : 0;
    const chipW = TOKEN + (caption ? GAP + captionW : 0);
    const nameH = WORDS * 1.25;
    const w = Math.max(nameW, chipW), h = nameH + GAP + TOKEN;
    const words = place(shape, w, h, polar(RING_OUTER - 40, shape.mid), []);
    const rows = Math.max(1, Math.ceil(figures / PER_ROW));
    const crowd = place(shape, Math.max(1, Math.min(figures, PER_ROW)) * FIGURE, rows * FIGURE, polar(RING_INNER + 58, shape.mid), [words]);
    const mark = place(shape, 30, 30, polar(RING_INNER + 40, shape.mid + 0.3), [words, crowd]);
    const chipX = words.x + (w - chipW) / 2, chipY = words.y + nameH + GAP + TOKEN / 2;
    return { name: [words.x + w / 2, words.y + nameH / 2], token: [chipX + TOKEN / 2, chipY],
      caption: [chipX + TOKEN + GAP, chipY], figures: [crowd.x + crowd.w / 2, crowd.y + crowd.h / 2],
      mark: [mark.x + 15, mark.y + 15] };
  }

  // What a region's token gives, in words: the god's name standing there, or the reward's value.
  function tokenWords(id, view) {
    const god = (view.gods_at || {})[id];
    const region = regions[id];
    return god ? part(god).name : region.reward ? part(`reward:${region.reward}`).value : "";
  }

  // The sea, Yggdrasil's roots and the land's patterns (one map per page: the ids are its own).
  function scenery(svg, outer, shapes) {
    const defs = svgEl("defs");
    const waves = svgEl("pattern", { id: "br-waves", width: 40, height: 18, patternUnits: "userSpaceOnUse" });
    waves.append(svgEl("path", { d: "M2 10 q8 -6 16 0 t16 0", class: "wave" }));
    const ruin = svgEl("pattern", { id: "br-ruin", width: 12, height: 12, patternUnits: "userSpaceOnUse", patternTransform: "rotate(35)" });
    ruin.append(svgEl("rect", { width: 12, height: 12, class: "ruin-ground" }), svgEl("path", { d: "M0 6h12", class: "ruin-hatch" }));
    defs.append(waves, ruin);
    svg.append(defs, svgEl("rect", { x: -400, y: -400, width: 800, height: 800, class: "sea" }),
      svgEl("rect", { x: -400, y: -400, width: 800, height: 800, fill: "url(#br-waves)", class: "sea-waves" }));
    // Yggdrasil's roots: from the centre out to each province, across the channel around Valhalla.
    const roots = svgEl("g", { class: "roots" });
    for (const id of outer) {
      const m = shapes[id].mid;
      const [x0, y0] = polar(40, m), [x1, y1] = polar(RING_INNER + 22, m), [cx, cy] = polar(85, m + 0.18);
      roots.append(svgEl("path", { d: `M${x0},${y0} Q${cx},${cy} ${x1},${y1}`, class: "root" }));
    }
    svg.append(roots);
  }

  // A region's token: the reward a contest there raises, the god standing there (its token covers
  // the reward), or the stone of the region token that closes it this Age (it covers the reward too).
  function regionToken(g, id, [x, y], view, captionAt) {
    const god = (view.gods_at || {})[id];
    const closed = (view.region_tokens || []).includes(id);
    const region = regions[id];
    if (closed) {
      g.append(svgEl("path", { d: `M${x - 17},${y + 4} L${x - 10},${y - 14} L${x + 9},${y - 16} L${x + 18},${y} L${x + 10},${y + 15} L${x - 9},${y + 15} Z`, class: "region-stone" }));
      const number = svgEl("text", { x, y: y + 5, class: "stone-number" });
      number.textContent = ` ${region.token}`;   // a leading space (not drawn): read apart from the name (SPACED)
      g.append(number);
      return;
    }
    g.append(svgEl("circle", { cx: x, cy: y, r: 17, class: god ? "reward-token god-token" : "reward-token" }));
    if (god) g.append(MH.icon("bloodrage-valhalla", god, { x: x - 13, y: y - 13, width: 26, height: 26, cls: "god-mark" }));
    else if (region.reward) g.append(MH.icon("bloodrage-valhalla", `reward:${region.reward}`, { x: x - 12, y: y - 12, width: 24, height: 24, cls: `reward-mark reward-${region.reward}` }));
    // Beside the token, what it gives: the god's name or the reward's value (the components' words).
    const caption = svgEl("text", { x: captionAt[0], y: captionAt[1], class: `token-caption${captionAt.below ? " below" : ""}` });
    caption.textContent = ` ${tokenWords(id, view)}`;   // SPACED, as the stone's number
    g.append(caption);
  }

  // SPACED: an SVG text after the region's name starts with a space, which the board does not draw
  // (SVG drops it) but which keeps the words apart where the texts are read as one (the
  // accessibility checks' "visible text" of the region, and its accessible name, begin alike).

  // The battle's mark: crossed swords on a red shield.
  function battleMark(g, [x, y]) {
    const mark = svgEl("g", { class: "battle-mark", transform: `translate(${x} ${y})` });
    mark.append(svgEl("circle", { r: 15, class: "battle-disc" }),
      svgEl("path", { d: "M-8,-8 L8,8 M8,-8 L-8,8 M-10,4 L-4,10 M10,4 L4,10", class: "battle-swords" }));
    g.append(mark);
  }

  // A closed region's ruin: cracks across its land.
  function cracks(g, mid) {
    const [x0, y0] = polar(RING_INNER + 30, mid - 0.12), [x1, y1] = polar(RING_INNER + 95, mid + 0.05), [x2, y2] = polar(RING_OUTER - 40, mid - 0.08);
    const [x3, y3] = polar(RING_INNER + 70, mid + 0.2);
    g.append(svgEl("path", { d: `M${x0},${y0} L${x1},${y1} L${x2},${y2} M${x1},${y1} L${x3},${y3}`, class: "crack" }));
  }

  function renderMap(view) {
    const svg = document.getElementById("br-map");
    svg.textContent = "";
    svg.setAttribute("aria-label", titleOf("map"));
    const outer = order.filter((id) => !regions[id].valhalla);
    const targets = byRegion();
    const battleRegion = view.battle ? view.battle.region : null;
    const marchFrom = view.march ? view.march.from : null;
    const lastMove = MH.touched(game.events, ["region", "from", "to"]);   // the regions the last move's events name
    const shapes = {};
    spots = {};
    outer.forEach((id, index) => { shapes[id] = sector(index, outer.length); });
    scenery(svg, outer, shapes);
    svg.append(pathways(outer, shapes));
    for (const id of order) {
      const region = regions[id];
      const g = svgEl("g", { class: "region", "data-region": id });
      const classes = ["area"];
      const closed = (view.region_tokens || []).includes(id);
      if (targets[id]) classes.push("target");
      if (id === battleRegion) { classes.push("battle"); g.classList.add("in-battle"); }
      if (id === marchFrom) classes.push("march-from");
      if (closed) { classes.push("sealed"); g.classList.add("ruined"); }
      if ((view.claimed || []).includes(id)) classes.push("claimed");
      if (lastMove.has(id)) { classes.push("last-move"); g.classList.add("last-moved"); }
      let labelAt, figuresAt, tokenAt, captionAt, markAt;
      if (region.valhalla) {
        // Valhalla: its name across the top, its hall behind its figures, its token and what it gives below.
        g.append(svgEl("circle", { cx: 0, cy: 0, r: VALHALLA_R, class: `${classes.join(" ")} valhalla` }));
        g.append(MH.icon("bloodrage-valhalla", id, { x: -42, y: -54, width: 84, height: 84, cls: "region-mark" }));
        labelAt = [0, -VALHALLA_R + 21];
        figuresAt = [0, -12];
        tokenAt = [0, 46];
        captionAt = Object.assign([0, 46 + 17 + GAP + WORDS * 0.6], { below: true });
        markAt = [62, -40];
      } else {
        const shape = shapes[id];
        g.append(svgEl("path", { d: shape.path, class: classes.join(" ") }));
        if (closed) {
          g.append(svgEl("path", { d: shape.path, fill: "url(#br-ruin)", class: "ruin" }));
          cracks(g, shape.mid);
        }
        const placed = layout(svg, id, shape, view, ((view.board || {})[id] || []).length);
        labelAt = placed.name;
        figuresAt = placed.figures;
        tokenAt = placed.token;
        captionAt = placed.caption;
        markAt = placed.mark;
      }
      const label = svgEl("text", { x: labelAt[0], y: labelAt[1], class: "region-name" });
      label.textContent = part(id).name;
      g.append(label);
      const god = (view.gods_at || {})[id];
      regionToken(g, id, tokenAt, view, captionAt);
      if (id === battleRegion) battleMark(g, markAt);
      spots[id] = figuresAt;
      renderFigures(g, (view.board || {})[id] || [], figuresAt, region.valhalla ? 5 : PER_ROW);
      // Its name for screen readers: what it shows (its name, its token's words), its facts (the components' words), then its moves.
      const named = [MH.shownText(g), part(id).facts].filter(Boolean).join(", ");
      const title = svgEl("title");
      const strength = ((game.words && game.words.places) || {})[id];   // each clan's STR there, a line each
      title.textContent = [hover(id), god ? hover(god) : "", strength ? words(strength) : ""].filter(Boolean).join("\n");
      g.append(title);
      g.addEventListener("click", () => { if (targets[id]) openChooser(id, targets[id]); });
      if (targets[id]) {
        // A region with moves: a keyboard target named by the region and its first move; its preview is that move's.
        g.setAttribute("data-target", JSON.stringify({ region: id }));
        g.setAttribute("aria-label", `${named}: ${targets[id].map((a) => words(a.label)).join("; ")}`);
      } else {
        // A region with no move now: focusable all the same; its preview says what it is and why nothing can be done there.
        g.setAttribute("data-place", id);
        g.setAttribute("aria-label", named);
        g.setAttribute("role", "group");   // a place, not a control: named by its label alone (the board may show it cut at the edge)
      }
      svg.append(g);
    }
    mapView.setExtent({ x: -345, y: -300, w: 690, h: 600 });   // wide enough for the side regions' notes
  }

  // The pathways between adjacent regions: a bridge across each fjord between neighbours, and a
  // dashed road between regions that touch without sharing one (possible in a content pack).
  // Valhalla's neighbours are reached by Yggdrasil's roots (drawn with the sea).
  function pathways(outer, shapes) {
    const layer = svgEl("g", { class: "pathways" });
    const count = outer.length;
    const step = (2 * Math.PI) / count;
    const seen = new Set();
    for (const id of order) {
      for (const other of regions[id].neighbours || []) {
        const key = [id, other].sort().join("|");
        if (seen.has(key) || !regions[other]) continue;
        seen.add(key);
        const [a, b] = [id, other].map((r) => outer.indexOf(r));
        if (a < 0 || b < 0) continue;   // Valhalla and a province: a root
        if ((a + 1) % count === b || (b + 1) % count === a) {
          const first = (a + 1) % count === b ? a : b;
          const angle = -Math.PI / 2 + first * step + step / 2;
          const [x, y] = polar((RING_INNER + RING_OUTER) / 2 - 20, angle);
          const degrees = (angle * 180) / Math.PI;
          layer.append(svgEl("rect", { x: x - 15, y: y - 6, width: 30, height: 12, rx: 3, class: "pathway",
            transform: `rotate(${degrees + 90} ${x} ${y})` }));
        } else {
          const [p, q] = [shapes[id].figures, shapes[other].figures];
          layer.append(svgEl("line", { x1: p[0], y1: p[1], x2: q[0], y2: q[1], class: "pathway-road" }));
        }
      }
    }
    return layer;
  }

  // Each figure as its picture (a warrior's helmet, an Elite's winged one, each monster its own)
  // in white on a token of its clan's colour: a disc for clan figures, a rounded square for monsters.
  function renderFigures(g, figures, [cx, cy], per = PER_ROW) {
    const size = FIGURE, rows = Math.ceil(figures.length / per);
    figures.forEach(([owner, kind], index) => {
      const row = Math.floor(index / per), col = index % per;
      const inRow = Math.min(per, figures.length - row * per);
      const x = cx + (col - (inRow - 1) / 2) * size, y = cy + (row - (rows - 1) / 2) * size;
      g.append(...figure(owner, kind, x, y));
    });
  }

  // One figure's token and picture at (x, y).
  function figure(owner, kind, x, y) {
    const monster = kind !== "warrior" && kind !== "elite";
    const shape = monster
      ? svgEl("rect", { x: x - 11.5, y: y - 11.5, width: 23, height: 23, rx: 5, fill: colour(owner), class: "figure monster" })
      : svgEl("circle", { cx: x, cy: y, r: kind === "elite" ? 12 : 11, fill: colour(owner), class: `figure ${kind}` });
    shape.setAttribute("data-owner", owner);
    shape.setAttribute("data-figure", kind);
    return [shape, MH.icon("bloodrage-valhalla", kind, { x: x - 8.5, y: y - 8.5, width: 17, height: 17, cls: "figure-icon",
      style: `--icon-detail:${colour(owner)}` })];
  }

  // What the latest events did, in motion (a live update only, once: MH.motion), each where the
  // event says: a figure marching (or joining a battle) travels from its region to the other; a
  // battle's region flashes, its winner's sheet shines and the losers' dim; a destroyed figure
  // leaves its region (for the kill pile or the Feast Hall, whose clan sheet pulses); Glory pulses
  // with +N on the clan's sheet and in the players' list.
  function motion(svg) {
    const ghost = (owner, kind, [x, y], name, vars = {}) => {
      const g = svgEl("g", { class: "figure-ghost", "aria-hidden": "true" });
      g.append(...figure(owner, kind, x, y));
      svg.append(g);
      MH.animate(g, name, { ghost: true, vars });
    };
    const sheet = (seat) => document.querySelector(`#br-clans .br-clan[data-seat="${seat}"]`);
    for (const event of MH.motion(game, svg)) {
      if ((event.kind === "moved" || event.kind === "joined") && spots[event.from]) {
        const to = spots[event.to || event.region];
        if (to) ghost(event.seat, event.figure, spots[event.from], "mh-march",
          { dx: `${to[0] - spots[event.from][0]}px`, dy: `${to[1] - spots[event.from][1]}px` });
      } else if (event.kind === "killed" && spots[event.region]) {
        ghost(event.owner, event.figure, spots[event.region], "mh-fall");
        if (event.by != null) MH.animate(sheet(event.by), "mh-pulse");
      } else if (event.kind === "battle") {
        MH.animate(svg.querySelector(`g.region[data-region="${event.region}"] .area`), "mh-battle");
        for (const seat of Object.keys(event.strength || {})) {
          MH.animate(sheet(seat), Number(seat) === event.winner ? "mh-win" : "mh-lose");
        }
      } else if (event.kind === "glory") {
        MH.animate(sheet(event.seat), "mh-pulse", { delta: event.amount });
        MH.scored(event.seat, event.amount);
      }
    }
  }

  function openChooser(region, offered) {
    focus = region;
    MH.chooser(document.getElementById("chooser"), `${part(region).name}:`, offered, ctx.seatName, send, () => { focus = null; });
  }

  // Escape: the chooser closes; the focus goes back to its region.
  function cancel() {
    const chooser = document.getElementById("chooser");
    const was = focus;
    chooser.hidden = true;
    focus = null;
    const region = was && document.querySelector(`#br-map [data-region="${was}"]`);
    if (region) region.focus();
  }

  async function send(notation) {
    document.getElementById("chooser").hidden = true;
    focus = null;
    await ctx.send(notation);
  }

  // Cards ------------------------------------------------------------------------------------

  function cardButton(id, action, label) {
    const p = part(id);
    const attrs = { type: "button", class: `game-card br-card kind-${kinds[id] || "card"}${action ? " playable" : ""}`, "data-card": id, title: hover(id) };
    if (action) { attrs["data-action"] = action.notation; attrs.onclick = () => send(action.notation); } else attrs.disabled = true;
    // A card with a move: the move's label ("Keep ...") is its button face, and part of its name.
    return el("button", attrs, el("b", {}, p.name), el("small", { class: "card-meta" }, p.facts),
      el("small", { class: "card-text" }, p.text), label ? el("span", { class: "card-act" }, label) : null);
  }

  function renderCards(view) {
    const byCard = {};
    for (const action of actions()) if (onCard(action)) (byCard[action.target.card] = byCard[action.target.card] || []).push(action);
    const hand = document.getElementById("hand");
    hand.textContent = "";
    const drafting = view.phase === "draft" && view.pack && view.pack.length;
    const shown = drafting ? view.pack : view.hand || [];
    document.getElementById("hand-title").textContent = titleOf("cards");
    for (const id of shown) {
      const offered = byCard[id] || [];
      if (!offered.length && view.seat != null) {
        // A card with no move now: its preview says which rule keeps it (the game's words pick the action).
        const idle = cardButton(id, null, null);
        idle.setAttribute("data-target", JSON.stringify({ card: id }));
        hand.append(idle);
      } else if (offered.length <= 1) hand.append(cardButton(id, offered[0], offered[0] ? words(offered[0].label) : null));
      else for (const action of offered) hand.append(cardButton(id, action, words(action.label)));
    }
    // cards chosen and set aside: drafted and kept from the last Age, this round's pick, the battle card
    const chosen = document.getElementById("chosen");
    chosen.textContent = "";
    const aside = [...(drafting ? view.my_drafted || [] : []), ...(view.my_saved || [])];
    if (view.my_pick) aside.push(view.my_pick);
    if (view.my_card) aside.push(view.my_card);
    for (const id of aside) chosen.append(cardButton(id, null, null));
    const slots = document.getElementById("slots");
    slots.textContent = "";
    const me = view.seat == null ? null : view.clans[view.seat];
    document.getElementById("slots-box").hidden = !me;
    if (!me) return;
    document.getElementById("slots-title").textContent = titleOf("slots");
    for (const id of me.upgrades) slots.append(cardButton(id, null, null));
    for (const id of view.my_quests || []) slots.append(cardButton(id, null, null));
  }

  // Every action that is not a card's, as a button under its group (regions' too: the map is one way, these another).
  function renderActions() {
    const box = document.getElementById("br-actions");
    box.textContent = "";
    const groups = new Map();
    for (const action of actions()) {
      if (onCard(action)) continue;
      if (!groups.has(action.group)) groups.set(action.group, []);
      groups.get(action.group).push(action);
    }
    for (const [group, offered] of groups) {
      box.append(el("fieldset", { class: "action-group" }, el("legend", {}, words(group)),
        ...offered.map((a) => el("button", { type: "button", class: "action", id: a.target && Object.keys(a.target).length === 1 ? `br-${kindOf(a)}` : null,
          "data-action": a.notation, onclick: () => send(a.notation) }, words(a.label)))));
    }
  }

  // The clan sheets -----------------------------------------------------------------------------

  // Each clan's sheet from the view's numbers: its name (in its colour), its Rage left as pips
  // out of its Rage stat, and each stat track as its steps with the clan's step marked.
  function renderClans(view) {
    const box = document.getElementById("br-clans");
    box.textContent = "";
    for (const clan of view.clans || []) {
      const seat = clan.seat;
      const rows = Object.entries(tracks).map(([stat, values]) => el("div", { class: "br-track", "data-stat": stat, title: hover(`track:${stat}`) },
        el("b", {}, part(`track:${stat}`).name),
        ...values.map((_, step) => el("span", { class: `br-step${step === clan.steps[stat] ? " now" : ""}`, title: hover(`track:${stat}:${step}`) },
          part(`track:${stat}:${step}`).value))));
      const left = el("div", { class: "br-rage-left", title: `${part("track:rage").name}: ${clan.rage}/${clan.stats.rage}` },
        ...Array.from({ length: clan.stats.rage }, (_, i) => el("span", { class: `br-pip${i < clan.rage ? " full" : ""}` })));
      box.append(el("div", { class: `br-clan${(view.to_move || []).includes(seat) ? " to-move" : ""}`, "data-seat": seat,
        style: `--clan:${colour(seat)}` },
        el("h4", { title: hover(`clan:${seat}`) }, MH.icon("bloodrage-valhalla", `clan:${seat}`, { cls: "clan-icon" }),
          part(`clan:${seat}`).name, " · ", ctx.seatName(seat)), left, ...rows));
    }
  }

  // The last battle -----------------------------------------------------------------------------

  // The words of the last battle's reveal and result stay on the table until the next one starts.
  function noteBattle(events) {
    for (const event of events || []) {
      if (typeof event.text !== "string") continue;
      if (event.kind === "revealed") lastBattle = { reveal: event, result: null };
      if (event.kind === "battle" && lastBattle && lastBattle.reveal.region === event.region) lastBattle.result = event;
    }
  }

  function renderBattle(view) {
    const panel = document.getElementById("battle-panel");
    if (view.battle || !lastBattle || !lastBattle.result) { panel.hidden = true; return; }
    panel.hidden = false;
    panel.textContent = "";
    const said = (event) => [el("p", {}, words(event.text)), el("ul", {}, ...(event.details || []).map((d) => el("li", {}, words(d))))];
    panel.append(el("h4", {}, titleOf("battle")), ...said(lastBattle.reveal), ...said(lastBattle.result));
  }

  // Rendering ---------------------------------------------------------------------------------

  function render(current, context) {
    game = current;
    ctx = context;
    const view = game.view;
    document.getElementById("status-line").textContent = game.words ? words(game.words.status[0]) : "";
    if (view.phase === "draft" || view.phase === "keep") lastBattle = null;
    noteBattle(game.events);
    renderMap(view);
    renderClans(view);
    motion(document.getElementById("br-map"));
    renderBattle(view);
    renderActions();
    renderCards(view);
    const chooser = document.getElementById("chooser");
    if (focus && !chooser.hidden) {
      const still = byRegion()[focus];
      if (still) openChooser(focus, still); else { chooser.hidden = true; focus = null; }
    }
    // Keyboard: the map's regions with moves, the cards of the hand, each a roving group.
    // Every region takes the focus (one with no move shows why in its preview); the Tab stop is a region with moves.
    MH.roving(document.getElementById("br-map"), "g.region", { onEscape: cancel, prefer: "g[data-target]",
      keyOf: (node) => node.getAttribute("data-region"),
      onEnter: (node) => { const id = node.getAttribute("data-region"); if (!byRegion()[id]) return;
        openChooser(id, byRegion()[id]);
        const first = document.querySelector("#chooser button"); if (first) first.focus(); } });
    MH.roving(document.getElementById("hand"), "button:not([disabled])", { onEscape: cancel });
    chooser.onkeydown = (e) => { if (e.key === "Escape") cancel(); };
  }

  return { load, mount, render, seatColour: colour };
})();
