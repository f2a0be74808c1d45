"use strict";
// A finished game, step by step, drawn by the same game plugin as the live table (see
// table.js) with nobody's hidden cards: the public view, and the spectators' words.
(() => {
  const app = document.getElementById("replay-app");
  const tableId = app.dataset.table;
  let step = 0, steps = 0, table = null, ui = null;
  // The server names every seat: its player's or bot's name, else its label (Seat N).
  const name = (seat) => table.seats[seat].name || table.seats[seat].label;
  const context = { tableId, seatName: name, send: async () => {}, prompt: () => {} };

  async function show(n) {
    try {
      const data = await MH.api("GET", `/api/tables/${tableId}/replay/${n}`);
      step = data.step;
      steps = data.steps;
      const view = data.view;
      ui.render({ version: step, view, legal: [], actions: [], seat: null, status: "finished", events: data.events, words: data.words }, context);
      MH.boardKey(document.getElementById("game-area"));
      document.getElementById("step-label").textContent = `Step ${step} of ${steps}${data.action ? `: ${name(data.action.seat)} ${data.action.action}` : ""}`;
      const players = document.getElementById("players");
      players.textContent = "";
      players.append(MH.seatList(view, data.words, name, table.seats.length, ui.seatColour));
      if (view.finished) {
        const result = MH.ranking(data.words && data.words.result, name);
        players.append(MH.el("ul", { class: "ranking" }, ...result.rows.map((r) => MH.el("li", {}, r))));
        for (const note of result.notes) players.append(MH.el("p", { class: "muted" }, note));
      }
      showEnd(step === steps);
      const log = document.getElementById("log");
      log.textContent = "";
      for (const event of data.events) {
        const [text, details] = MH.eventWords(event, name);
        if (!text) continue;
        const item = MH.el("li", {}, text);
        if (details.length) item.append(MH.el("ul", {}, ...details.map((d) => MH.el("li", {}, d))));
        log.append(item);
      }
      // What happened to seats after this step (timeouts, comebacks, vacations, leaves): the server's words.
      for (const line of data.seat_events || []) log.append(MH.el("li", { class: `event event-${line.kind}` }, line.text));
    } catch (e) {
      document.getElementById("replay-error").textContent = e.message;
    }
  }

  // At the last step, the end of the game as the table showed it (GET .../end): the winner,
  // places, rating changes and the game's score breakdown.
  let end = null;
  async function showEnd(last) {
    const panel = document.getElementById("end-panel");
    if (!last || end) { panel.hidden = !last; return; }
    try {
      end = await MH.api("GET", `/api/tables/${tableId}/end`);
      MH.endScreen(document.getElementById("end-screen"), end, name);
      panel.hidden = step !== steps;   // shown once drawn, if the last step is still shown
    } catch (e) {
      document.getElementById("replay-error").textContent = e.message;
    }
  }

  document.addEventListener("mh:ready", async () => {
    try {
      table = await MH.api("GET", `/api/tables/${tableId}`);
      ui = await MH.plugin(table.game, table.board_style);
      await ui.load(context);
      ui.mount(document.getElementById("game-area"), context);
    } catch (e) {
      document.getElementById("replay-error").textContent = e.message;
      return;
    }
    // The first step is read first: until then the number of steps is unknown, and a
    // button pressed meanwhile (Last, say) waits for it rather than going to step 0.
    const loaded = show(0);
    const then = (go) => () => loaded.then(go);
    document.getElementById("first").onclick = then(() => show(0));
    document.getElementById("back").onclick = then(() => show(Math.max(0, step - 1)));
    document.getElementById("forward").onclick = then(() => show(Math.min(steps, step + 1)));
    document.getElementById("last").onclick = then(() => show(steps));
    document.addEventListener("keydown", (e) => {
      if (e.key === "ArrowRight") then(() => show(Math.min(steps, step + 1)))();
      if (e.key === "ArrowLeft") then(() => show(Math.max(0, step - 1)))();
    });
    await loaded;
  });
})();
