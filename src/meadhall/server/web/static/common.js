"use strict";
// Shared by every page: the JSON API, who is signed in, and the "your turn" notice.
const MH = {
  me: null,
  baseTitle: document.title,
  myTurns: 0,
  // One colour per seat, for games whose seats have no colours of their own (Völuspá, Valda).
  SEAT_COLOURS: ["#9c3b24", "#2f6aa8", "#3b7f3b", "#b8860b", "#5b3c99"],

  // "1 follower", "2 followers"; plural forms that are not word + "s" are given.
  plural(n, word, many) {
    return `${n} ${n === 1 ? word : many || `${word}s`}`;
  },

  csrf() {
    const match = document.cookie.match(/(?:^|; )meadhall_csrf=([^;]*)/);
    return match ? decodeURIComponent(match[1]) : "";
  },

  async api(method, path, body) {
    const options = { method, credentials: "same-origin", headers: { "Accept": "application/json" } };
    if (body !== undefined) {
      options.headers["Content-Type"] = "application/json";
      options.body = JSON.stringify(body);
    }
    if (method !== "GET") options.headers["X-CSRF-Token"] = MH.csrf();
    const response = await fetch(path, options);
    let data = null;
    try { data = await response.json(); } catch (e) { data = null; }
    if (!response.ok) {
      const error = new Error((data && data.message) || response.statusText);
      error.status = response.status;
      error.code = data && data.error;
      error.data = data;
      throw error;
    }
    return data;
  },

  esc(text) {
    return String(text ?? "").replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" }[c]));
  },

  el(tag, attrs = {}, ...children) {
    const node = document.createElement(tag);
    for (const [key, value] of Object.entries(attrs)) {
      if (key === "class") node.className = value;
      else if (key === "style") node.style.cssText = value;  // through the CSSOM: allowed by a Content-Security-Policy
      else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
      else if (value !== undefined && value !== null && value !== false) node.setAttribute(key, value === true ? "" : value);
    }
    for (const child of children.flat()) {
      if (child === null || child === undefined || child === false) continue;
      node.append(child instanceof Node ? child : document.createTextNode(String(child)));
    }
    return node;
  },

  async loadMe() {
    try {
      const data = await MH.api("GET", "/api/auth/me");
      MH.me = data.user;
    } catch (e) {
      MH.me = null;
    }
    MH.renderWho();
    return MH.me;
  },

  renderWho() {
    const who = document.getElementById("who");
    if (!who) return;
    who.textContent = "";
    if (!MH.me) {
      who.append(MH.el("a", { href: "/signin", id: "signin-link" }, "Sign in"));
      return;
    }
    const name = MH.me.guest ? `${MH.me.display_name} (guest)` : MH.me.display_name;
    who.append(
      MH.el("a", { href: `/u/${encodeURIComponent(MH.me.name)}`, id: "me-link" }, name), " ",
      MH.el("button", { type: "button", class: "link", id: "logout", onclick: async () => {
        await MH.api("POST", "/api/auth/logout");
        location.href = "/";
      } }, "Sign out"),
    );
  },

  setTitle(extra) {
    const prefix = MH.myTurns > 0 ? `(${MH.myTurns}) ` : "";
    document.title = prefix + (extra || MH.baseTitle);
  },

  async pollTurns() {
    if (!MH.me) return;
    try {
      const data = await MH.api("GET", "/api/me/games");
      MH.myTurns = data.my_turn;
      const badge = document.getElementById("turn-badge");
      if (badge) {
        badge.hidden = data.my_turn === 0;
        badge.textContent = data.my_turn ? `${data.my_turn} your turn` : "";
      }
      MH.setTitle(MH.titleExtra);
    } catch (e) { /* offline: try again later */ }
  },
};

document.addEventListener("DOMContentLoaded", async () => {
  await MH.loadMe();
  document.dispatchEvent(new CustomEvent("mh:ready"));
  MH.pollTurns();
  setInterval(MH.pollTurns, 20000);
});
