// The web table's page. Every piece of user text goes into the page with textContent or a
// form value, never as markup: a name or a note that looks like HTML stays text.
"use strict";

const $ = (id) => document.getElementById(id);
let token = localStorage.getItem("solum.token");

async function api(method, path, body) {
  const headers = { "Content-Type": "application/json" };
  if (token) headers["Authorization"] = "Bearer " + token;
  const resp = await fetch("/api" + path, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const data = await resp.json().catch(() => ({}));
  if (!resp.ok) throw new Error(data.error || resp.statusText);
  return data;
}

function say(error) {
  $("error").textContent = error ? String(error.message || error) : "";
}

function describe(entry) {
  switch (entry.kind) {
    case "note": return "Note: " + entry.text;
    case "scene-start": return "Scene: " + entry.title + (entry.goal ? " — " + entry.goal : "");
    case "scene-end": return "Scene ends" + (entry.summary ? ": " + entry.summary : "");
    case "oracle":
      return "Oracle: " + entry.question + " → " + JSON.stringify(entry.outcome.answer);
    default: {
      const text = JSON.stringify(entry);
      return entry.kind + ": " + (text.length > 300 ? text.slice(0, 300) + "…" : text);
    }
  }
}

function show(entry) {
  const li = document.createElement("li");
  li.dataset.seq = String(entry.seq);
  li.textContent = "#" + entry.seq + " " + describe(entry);
  $("journal").appendChild(li);
}

function listen() {
  // EventSource reconnects by itself and sends Last-Event-ID: the server catches up.
  const source = new EventSource("/api/events?token=" + encodeURIComponent(token));
  source.addEventListener("entry", (e) => show(JSON.parse(e.data)));
}

async function enter() {
  const me = await api("GET", "/me");
  $("who").textContent = me.table_name + " — " + me.member.name + " (" + me.member.role + ")";
  $("signin").hidden = true;
  $("table").hidden = false;
  $("invite").hidden = me.member.role !== "gm";
  $("secret-label").hidden = me.member.role !== "gm";
  listen();
}

function signedIn(joined) {
  token = joined.token;
  localStorage.setItem("solum.token", token);
  history.replaceState(null, "", "/");
  return enter();
}

function form(id, handler) {
  $(id).addEventListener("submit", async (e) => {
    e.preventDefault();
    say(null);
    try {
      await handler(new FormData(e.target));
    } catch (err) {
      say(err);
    }
  });
}

form("create", (f) => api("POST", "/tables", { table: f.get("table"), name: f.get("name") }).then(signedIn));
form("join", (f) => {
  const invite = new URLSearchParams(location.hash.slice(1)).get("invite");
  return api("POST", "/join", { invite, name: f.get("name") }).then(signedIn);
});
form("ask", async (f) => {
  const view = await api("POST", "/oracle", {
    question: f.get("question"),
    leaning: f.get("leaning"),
    secret: f.get("secret") === "on",
  });
  $("answer").textContent = view.answer + (view.event ? " — " + view.event : "");
});
form("note", (f) => api("POST", "/notes", { text: f.get("text") }));
form("invite", async () => {
  const invite = await api("POST", "/invites", { role: "player" });
  $("invite-link").value = location.origin + "/#invite=" + invite.token;
});

window.addEventListener("DOMContentLoaded", () => {
  const invite = new URLSearchParams(location.hash.slice(1)).get("invite");
  if (invite) {
    token = null;
    $("signin").hidden = false;
    $("create").hidden = true;
    $("join").hidden = false;
  } else if (token) {
    enter().catch((err) => {
      token = null;
      localStorage.removeItem("solum.token");
      $("signin").hidden = false;
      say(err);
    });
  } else {
    $("signin").hidden = false;
  }
});
