// The panels' test page: signs in as the page does (a new table, or an invite from the
// address's fragment), mounts the Characters and Combat panels, and feeds them the live
// stream's entries. Dropped once the page's shell mounts the panels.
import { ctx } from "./ctx.js";
import * as sheets from "./sheets.js";
import * as combat from "./combat.js";

const $ = (id) => document.getElementById(id);

async function enter() {
  const me = await ctx.api("GET", "/me");
  ctx.me = {
    name: me.member.name,
    gm: me.member.role === "gm",
    member: me.member,
    table: me.table,
  };
  $("who").textContent = me.table_name + " — " + me.member.name + " (" + (ctx.me.gm ? "game master" : "player") + ")";
  $("signin").hidden = true;
  $("panels").hidden = false;
  for (const node of document.querySelectorAll(".gm-only")) node.hidden = !ctx.me.gm;
  sheets.mount($("characters-panel"));
  combat.mount($("combat-panel"));
  ctx.emit("signed-in", ctx.me);
  const source = new EventSource("/api/events?token=" + encodeURIComponent(ctx.token));
  source.addEventListener("entry", (e) => ctx.emit("entry", JSON.parse(e.data)));
}

function signedIn(joined) {
  ctx.token = joined.token;
  localStorage.setItem("solum.token", ctx.token);
  history.replaceState(null, "", "/dev-panels.html");
  return enter();
}

function form(id, handler) {
  $(id).addEventListener("submit", async (e) => {
    e.preventDefault();
    try {
      await handler(e.target.elements);
      ctx.clearError(e.target);
    } catch (err) {
      ctx.showError(e.target, err);
    }
  });
}

form("create", (f) => ctx.api("POST", "/tables", { table: f.table.value, name: f.name.value }).then(signedIn));
form("join", async (f) => {
  const invite = new URLSearchParams(location.hash.slice(1)).get("invite");
  return signedIn(await ctx.api("POST", "/join", { invite, name: f.name.value, replace: true }));
});
form("invite", async () => {
  const invite = await ctx.api("POST", "/invites", { role: "player" });
  $("invite-link").value = location.origin + "/dev-panels.html#invite=" + invite.token;
});
for (const [tab, panel] of [["tab-characters", "characters-panel"], ["tab-combat", "combat-panel"]]) {
  $(tab).addEventListener("click", () => {
    for (const [t, p] of [["tab-characters", "characters-panel"], ["tab-combat", "combat-panel"]]) {
      $(t).setAttribute("aria-pressed", String(t === tab));
      $(p).hidden = p !== panel;
    }
  });
}

const invite = new URLSearchParams(location.hash.slice(1)).get("invite");
if (invite) {
  ctx.token = null;
  $("signin").hidden = false;
  $("create").hidden = true;
  $("join").hidden = false;
} else if (ctx.token) {
  enter().catch(() => {
    ctx.token = null;
    localStorage.removeItem("solum.token");
    $("signin").hidden = false;
  });
} else {
  $("signin").hidden = false;
}
