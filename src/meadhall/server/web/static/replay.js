"use strict";
(() => {
  const app = document.getElementById("replay-app");
  const tableId = app.dataset.table;
  let step = 0, steps = 0, table = null;
  const board = new Voluspa.Board(document.getElementById("board"), null);
  const name = (seat) => {
    const s = table && table.seats[seat];
    return s ? (s.user ? s.user.display_name : s.bot ? `${s.bot} bot` : `Seat ${seat + 1}`) : `Seat ${seat + 1}`;
  };

  async function show(n) {
    try {
      const data = await MH.api("GET", `/api/tables/${tableId}/replay/${n}`);
      step = data.step;
      steps = data.steps;
      const view = data.view;
      const marked = (view.turn_cells && view.turn_cells.length ? view.turn_cells : (view.last_turn ? view.last_turn.cells : [])).map((c) => `${c[0]},${c[1]}`);
      board.render(view, [], marked);
      document.getElementById("step-label").textContent = `Step ${step} of ${steps}${data.action ? `: ${name(data.action.seat)} ${data.action.action}` : ""}`;
      const scores = document.getElementById("scores");
      scores.textContent = "";
      for (const s of view.seats) scores.append(MH.el("li", {}, MH.el("b", {}, name(s.seat)), ` ${s.score} points`));
      if (view.finished) {
        const result = Voluspa.ranking(view, name);
        for (const note of result.notes) scores.append(MH.el("li", { class: "muted" }, note));
      }
      const log = document.getElementById("log");
      log.textContent = "";
      for (const event of data.events) {
        const [text, details] = Voluspa.eventText(event, name);
        const item = MH.el("li", {}, text);
        if (details.length) item.append(MH.el("ul", {}, ...details.map((d) => MH.el("li", {}, d))));
        log.append(item);
      }
    } catch (e) {
      document.getElementById("replay-error").textContent = e.message;
    }
  }

  document.addEventListener("mh:ready", async () => {
    await Voluspa.loadContent();
    table = await MH.api("GET", `/api/tables/${tableId}`);
    document.getElementById("first").onclick = () => show(0);
    document.getElementById("back").onclick = () => show(Math.max(0, step - 1));
    document.getElementById("forward").onclick = () => show(Math.min(steps, step + 1));
    document.getElementById("last").onclick = () => show(steps);
    document.addEventListener("keydown", (e) => {
      if (e.key === "ArrowRight") show(Math.min(steps, step + 1));
      if (e.key === "ArrowLeft") show(Math.max(0, step - 1));
    });
    await show(0);
  });
})();
