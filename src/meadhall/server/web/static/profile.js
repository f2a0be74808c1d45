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
    const guides = document.getElementById("profile-guides");
    if (!data.guides.length) guides.append(MH.el("li", { class: "muted" }, "None yet."));
    for (const g of data.guides) guides.append(MH.el("li", { "data-game": g.game }, g.title));
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
    if (data.vacation) box.append(MH.el("p", { class: "muted", id: "profile-vacation" }, data.vacation));
    if (MH.me && MH.me.name === data.user.name && !MH.me.guest) await vacation();
    if (MH.me && MH.me.name === data.user.name && !MH.me.guest) await notifications();
  } catch (e) {
    box.append(MH.el("p", { class: "error" }, e.message));
  }
});

// My e-mail notices (PUT /api/me/notifications), on my own profile. Each choice's words are the
// server's (GET's labels). A server that sends no e-mail says so, and offers nothing to set.
async function notifications() {
  const box = document.getElementById("notifications");
  const shown = await MH.api("GET", "/api/me/notifications");
  box.hidden = false;
  box.textContent = "";
  box.append(MH.el("h2", {}, "E-mail"));
  if (!shown.mail) {
    box.append(MH.el("p", { id: "no-mail" }, "This server does not send e-mail (it has no mail server set up), so there is nothing to choose here."));
    return;
  }
  const address = MH.el("input", { type: "email", id: "notify-email", autocomplete: "email", value: shown.email || "", maxlength: 254 });
  const choices = Object.entries(shown.labels || {});
  const boxes = {};
  const form = MH.el("form", { id: "notify-form" },
    MH.el("label", { for: "notify-email" }, "Address "), address,
    MH.el("p", { class: "muted", id: "notify-confirmed" }, shown.email ? (shown.confirmed ? "Confirmed." : "Waiting for you to follow the link sent to it.") : ""),
    ...choices.map(([key, words]) => {
      boxes[key] = MH.el("input", { type: "checkbox", id: `notify-${key}` });
      boxes[key].checked = Boolean(shown[key]);
      return MH.el("p", {}, MH.el("label", { class: "notify-choice" }, boxes[key], " ", words));
    }),
    MH.el("button", { type: "submit", class: "primary", id: "notify-save" }, "Save"),
    MH.el("span", { role: "status", id: "notify-status" }));
  form.onsubmit = async (event) => {
    event.preventDefault();
    const body = { email: address.value.trim() || null };
    for (const [key] of choices) body[key] = boxes[key].checked;
    try {
      await MH.api("PUT", "/api/me/notifications", body);
      await notifications();
      document.getElementById("notify-status").textContent = "Saved.";
    } catch (e) {
      document.getElementById("notify-status").textContent = e.message;
    }
  };
  box.append(form);
}

// My vacation for async play (POST /api/me/vacation), on my own profile: the server's words.
async function vacation() {
  let box = document.getElementById("vacation");
  if (!box) {
    box = MH.el("section", { id: "vacation" });
    document.getElementById("notifications").before(box);
  }
  const shown = await MH.api("GET", "/api/me/vacation");
  box.textContent = "";
  box.append(MH.el("h2", {}, "Vacation"), MH.el("p", { class: "muted" }, shown.rule),
    MH.el("p", { id: "vacation-status" }, shown.words));
  const button = MH.el("button", { type: "button", id: "vacation-button", class: shown.on ? "primary" : "",
    onclick: async () => {
      try { await MH.api("POST", "/api/me/vacation", { on: !shown.on }); await vacation(); }
      catch (e) { document.getElementById("vacation-status").textContent = e.message; }
    } }, shown.on ? "End my vacation" : "Go on vacation");
  if (!shown.on && shown.days_left <= 0) button.disabled = true;
  box.append(button);
}
