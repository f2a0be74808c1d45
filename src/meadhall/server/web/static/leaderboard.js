"use strict";
document.addEventListener("mh:ready", async () => {
  const game = document.getElementById("leaderboard").dataset.game;
  const rows = document.getElementById("board-rows");
  try {
    const data = await MH.api("GET", `/api/leaderboard/${encodeURIComponent(game)}`);
    if (!data.players.length) rows.append(MH.el("tr", {}, MH.el("td", { colspan: 4, class: "muted" }, `No rated ${data.title} games yet.`)));
    data.players.forEach((p, i) => rows.append(MH.el("tr", {},
      MH.el("td", {}, i + 1), MH.el("td", {}, MH.el("a", { href: `/u/${encodeURIComponent(p.name)}` }, p.display_name)),
      MH.el("td", {}, p.elo), MH.el("td", {}, p.games))));
  } catch (e) {
    rows.append(MH.el("tr", {}, MH.el("td", { colspan: 4, class: "error" }, e.message)));
  }
});
