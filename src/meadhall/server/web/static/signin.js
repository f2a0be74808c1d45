"use strict";
function formData(form) {
  return Object.fromEntries([...new FormData(form).entries()].filter(([, v]) => v !== ""));
}
// Where to go after signing in: the server has checked the page's ?next= (data-next);
// resolved against this origin and followed only if it stays here.
function next() {
  const target = new URL(document.getElementById("signin-forms").dataset.next || "/lobby", location.origin);
  location.href = target.origin === location.origin ? target.href : "/lobby";
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
