"use strict";
function formData(form) {
  return Object.fromEntries([...new FormData(form).entries()].filter(([, v]) => v !== ""));
}
function next() {
  const target = new URLSearchParams(location.search).get("next");
  location.href = target && target.startsWith("/") && !target.startsWith("//") ? target : "/lobby";
}
for (const [id, path] of [["guest-form", "/api/auth/guest"], ["login-form", "/api/auth/login"], ["register-form", "/api/auth/register"]]) {
  document.getElementById(id).addEventListener("submit", async (event) => {
    event.preventDefault();
    const error = document.getElementById("signin-error");
    error.textContent = "";
    try {
      await MH.api("POST", path, formData(event.target));
      next();
    } catch (e) {
      error.textContent = e.message;
    }
  });
}
