"use strict";
document.addEventListener("mh:ready", async () => {
  const box = document.getElementById("profile");
  const name = box.dataset.name;
  try {
    const data = await MH.api("GET", `/api/users/${encodeURIComponent(name)}`);
    document.getElementById("profile-name").textContent = data.user.display_name + (data.user.guest ? " (guest)" : "");
    const ratings = document.getElementById("profile-ratings");
    const entries = Object.entries(data.ratings);
    if (!entries.length) ratings.append(MH.el("li", { class: "muted" }, "Not rated yet."));
    for (const [game, r] of entries) {
      ratings.append(MH.el("li", { "data-game": game }, MH.el("a", { href: `/leaderboard/${encodeURIComponent(game)}` }, r.title),
        `: ${r.elo} Elo (${MH.plural(r.games, "rated game")})`));
    }
    const games = document.getElementById("profile-games");
    if (!data.games.length) games.append(MH.el("li", { class: "muted" }, "No games yet."));
    for (const t of data.games) {
      games.append(MH.el("li", {}, MH.el("a", { href: t.status === "finished" ? `/replay/${t.id}` : `/t/${t.id}` },
        `${t.title} · ${MH.plural(t.players, "player")} · ${t.status}`)));
    }
    if (MH.me && MH.me.name !== data.user.name) {
      const button = document.getElementById("mute-button");
      button.hidden = false;
      let muted = false;
      button.onclick = async () => {
        muted = !muted;
        await MH.api("POST", `/api/users/${encodeURIComponent(data.user.name)}/mute`, { mute: muted });
        button.textContent = muted ? "Unmute in chat" : "Mute in chat";
      };
    }
  } catch (e) {
    box.append(MH.el("p", { class: "error" }, e.message));
  }
});
