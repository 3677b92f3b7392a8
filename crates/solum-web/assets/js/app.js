// The page's shell: sign-in and sessions, the header (table, scene, who is at the table,
// the connection), the tabs beside the feed, and the one live stream that feeds them all.
import { ctx } from "./ctx.js";
import * as feed from "./feed.js";
import * as play from "./play.js";
import * as solo from "./solo.js";
import * as systems from "./systems.js";
import * as sheets from "./sheets.js";
import * as combat from "./combat.js";
import * as vehicles from "./vehicles.js";

const $ = (id) => document.getElementById(id);
const phone = window.matchMedia("(max-width: 600px)");

// ---- Tabs (WAI-ARIA tabs: arrows, Home and End move between them and select) ----

function tabs() {
  return [...$("tabs").querySelectorAll('[role="tab"]')].filter((t) => !t.hidden && getComputedStyle(t).display !== "none");
}

function select(tab, focus) {
  for (const t of $("tabs").querySelectorAll('[role="tab"]')) {
    const on = t === tab;
    t.setAttribute("aria-selected", String(on));
    t.tabIndex = on ? 0 : -1;
    const panel = $(t.getAttribute("aria-controls"));
    if (panel && panel.id !== "feed") panel.hidden = !on;
  }
  document.body.classList.toggle("feed-open", tab.id === "tab-feed");
  if (tab.id === "tab-feed") feed.atLatest();
  if (focus) tab.focus();
}

function setupTabs() {
  $("tabs").addEventListener("click", (e) => {
    const tab = e.target.closest('[role="tab"]');
    if (tab) select(tab, false);
  });
  $("tabs").addEventListener("keydown", (e) => {
    const list = tabs();
    const at = list.indexOf(document.activeElement);
    if (at < 0) return;
    const to = { ArrowRight: at + 1, ArrowLeft: at - 1, Home: 0, End: list.length - 1 }[e.key];
    if (to === undefined) return;
    e.preventDefault();
    select(list[(to + list.length) % list.length], true);
  });
  // Back on a wide screen the feed is beside the work: a work tab is selected again.
  phone.addEventListener("change", () => {
    if (!phone.matches && $("tab-feed").getAttribute("aria-selected") === "true") select($("tab-play"), false);
  });
  $("open-systems").addEventListener("click", () => {
    showSystemsTab();
    select($("tab-systems"), true);
  });
}

// The Other systems tab, shown; More lists only the tabs not shown, so it goes.
function showSystemsTab() {
  $("tab-systems").hidden = false;
  $("more").open = false;
  $("more").hidden = true;
}

// ---- Header ----

function role(m) {
  return m.role === "gm" ? "game master" : "player";
}

function showHeader() {
  const me = ctx.me;
  $("table-name").textContent = me.table_name;
  $("who").textContent = me.member.name + " (" + role(me.member) + ")";
  // Who is present comes with the live stream (a presence event on every stream opened or
  // closed); until the first one, everyone listed counts as present.
  const here = ctx.present;
  const list = (me.members || [me.member]).flatMap((m, i) => {
    const away = here && !here.has(m.id);
    const span = ctx.el("span", m.name + (m.role === "gm" ? " (GM)" : "") + (away ? " (away)" : ""), away ? "member away" : "member present");
    return i ? [", ", span] : [span];
  });
  $("members").replaceChildren(...list);
  $("table-info").hidden = false;
  // A game master re-invites the other members (shown only when there are some).
  const others = me.gm ? (me.members || []).filter((m) => m.id !== me.member.id) : [];
  $("reinvite").hidden = !others.length;
  if (others.length) {
    const pick = $("reinvite").elements.member;
    const was = pick.value;
    pick.replaceChildren(...others.map((m) => {
      const o = ctx.el("option", m.name + (m.role === "gm" ? " (GM)" : ""));
      o.value = String(m.id);
      return o;
    }));
    if (others.some((m) => String(m.id) === was)) pick.value = was;
  }
  $("menu").hidden = false;
  document.title = me.table_name + " — solum";
}

function showScene(scene) {
  ctx.scene = scene;
  ctx.emit("scene", scene);
  $("scene-title").textContent = scene ? scene.title + (scene.goal ? " — " + scene.goal : "") : "none";
}

// Who is at the table: the members as /api/me lists them, read again when the stream
// (re)opens, when the presence names a member not listed yet (someone joined), and once a
// minute while the page is seen.
const refreshMembers = ctx.coalesce(async () => {
  const me = await ctx.api("GET", "/me");
  ctx.me = { ...ctx.me, members: me.members, may_type_dice: me.may_type_dice, real_dice: me.real_dice };
  $("real-dice").elements.on.checked = !!me.real_dice;
  ctx.applyRole(document);
  showHeader();
  reentryText();
});
setInterval(() => {
  if (ctx.me && document.visibilityState === "visible") refreshMembers();
}, 60000);

// ---- The live stream: one EventSource after the feed's first page ----

let source = null;
let reconnectTimer = null;
function connection(state) {
  const conn = $("conn");
  conn.hidden = false;
  conn.textContent = state;
  conn.className = "conn " + state;
}

// Characters and combat refetch once per burst of entries, not once per entry.
const changed = { characters: false, combat: false };
let changeTimer = null;
function noteChange(entry) {
  if (["character", "fast-static", "static", "reveal"].includes(entry.kind)) changed.characters = true;
  if (entry.kind === "combat") {
    changed.combat = true;
    // A combat's end writes the hit points lost to the sheets.
    if (entry.change && entry.change.ended) changed.characters = true;
  }
  if (changeTimer) return;
  changeTimer = setTimeout(() => {
    changeTimer = null;
    for (const k of Object.keys(changed)) {
      if (changed[k]) {
        changed[k] = false;
        ctx.emit(k);
      }
    }
  }, 150);
}

function listen(after) {
  if (source) source.close();
  clearTimeout(reconnectTimer);
  connection("reconnecting");
  const url = "/api/events?token=" + encodeURIComponent(ctx.token) + "&after=" + encodeURIComponent(String(after));
  source = new EventSource(url);
  source.addEventListener("open", () => {
    connection("live");
    refreshMembers();
  });
  source.addEventListener("error", () => {
    if (source.readyState === EventSource.CLOSED) {
      connection("offline");
      // The browser gave up (the server refused or went away): try again from the last
      // entry shown, after a pause, while the session lasts.
      reconnectTimer = setTimeout(() => ctx.me && listen(feed.lastSeq()), 5000);
    } else {
      connection("reconnecting");
    }
  });
  source.addEventListener("presence", (e) => {
    const ids = JSON.parse(e.data).present || [];
    ctx.present = new Set(ids);
    const known = new Set((ctx.me.members || [ctx.me.member]).map((m) => m.id));
    if (ids.some((id) => !known.has(id))) refreshMembers();
    else showHeader();
  });
  source.addEventListener("entry", (e) => {
    const entry = JSON.parse(e.data);
    if (!feed.add(entry)) return;
    if (entry.kind === "scene-start") showScene(entry);
    if (entry.kind === "scene-end") showScene(null);
    noteChange(entry);
    // The table plays another system now: its tab appears for everyone.
    if (["sol", "classic", "soluna", "dietype"].includes(entry.kind)) showSystemsTab();
    ctx.emit("entry", entry);
  });
}
window.addEventListener("offline", () => connection("offline"));
// An invite link opened in a tab that shows the page already changes only the fragment:
// start again, so the invite is asked about like any other.
window.addEventListener("hashchange", () => {
  const hash = new URLSearchParams(location.hash.slice(1));
  if (hash.get("invite") || hash.get("reentry")) location.reload();
});

// ---- Features the server offers beyond the base (from its OpenAPI description) ----

async function features() {
  try {
    const spec = await (await fetch("/api/openapi.json")).json();
    const paths = Object.keys(spec.paths || {});
    const journal = ((spec.paths || {})["/api/journal"] || {}).get || {};
    ctx.features.before = (journal.parameters || []).some((p) => p.name === "before");
  } catch (err) {
    console.warn("openapi", err);
  }
}

// ---- Signing in, joining, logging out ----

let mounted = false;
async function enter() {
  const me = await ctx.api("GET", "/me");
  ctx.me = { ...me, name: me.member.name, gm: me.member.role === "gm" };
  $("signin").hidden = true;
  $("table").hidden = false;
  showHeader();
  ctx.applyRole(document);
  $("real-dice").elements.on.checked = !!me.real_dice;
  reentryText();
  if (!mounted) {
    mounted = true;
    // The feed first: its first page tells where the stream starts.
    const [scene] = await Promise.all([feed.currentScene(), features()]);
    showScene(scene);
    feed.mount($("feed"));
    for (const [panel, id] of [[play, "panel-play"], [sheets, "panel-characters"], [combat, "panel-combat"], [vehicles, "panel-combat"], [solo, "panel-solo"], [systems, "panel-systems"]]) {
      try {
        panel.mount($(id));
      } catch (err) {
        ctx.showError($(id), err);
      }
    }
    ctx.applyRole(document);
    const last = await feed.loaded;
    listen(last);
    // Other systems get their tab when the table plays them.
    systems.used().then((used) => {
      if (used) showSystemsTab();
    });
  }
  ctx.emit("signed-in", ctx.me);
}

function reentryText() {
  const me = ctx.me;
  const gms = (me.members || []).filter((m) => m.role === "gm");
  let text;
  if (me.gm && gms.length === 1 && me.table !== 0) {
    text = "You are this table's only game master. Log out without a re-entry link and no one can invite you back: keep this browser signed in, or make your re-entry link (Table menu) and keep it.";
  } else if (me.gm && me.table === 0) {
    text = "This is the campaign's own table: each start of solum serve prints a new game-master link; a re-entry link (Table menu) brings you back too.";
  } else {
    text = "To come back after logging out you need a new invite or a re-entry link from a game master, or your own re-entry link (Table menu).";
  }
  $("reentry-text").textContent = text;
  $("reentry-make").hidden = false;
}

function signedIn(joined) {
  ctx.token = joined.token;
  localStorage.setItem("solum.token", ctx.token);
  history.replaceState(null, "", "/");
  if (mounted) {
    // Another table in this page: start again from a clean page.
    location.replace("/");
    return null;
  }
  return enter();
}

function setupSignin() {
  ctx.form($("create"), (f) => ctx.api("POST", "/tables", { table: f.table.value, name: f.name.value }).then(signedIn));
  ctx.form($("join"), async (f) => {
    const invite = new URLSearchParams(location.hash.slice(1)).get("invite");
    const body = { invite, name: f.name.value };
    // Sent with the session held, if any: the server refuses (409 session-held) unless the
    // member chose to switch, so a switch is always asked first.
    try {
      return await signedIn(await ctx.api("POST", "/join", body));
    } catch (err) {
      if (err.code !== "session-held") throw err;
      const here = held ? held.table_name : "another table";
      const ok = await ctx.confirm(
        "Switch tables?",
        "You are signed in at " + here + (held ? " as " + held.member.name : "") + ". Joining the invited table"
          + " (its name shows once you are in) signs this browser out of " + here + ".",
        "Leave " + here + " and join",
        "Stay at " + here,
      );
      if (!ok) return stay();
      return await signedIn(await ctx.api("POST", "/join", { ...body, replace: true }));
    }
  });
  $("join-stay").addEventListener("click", () => stay().catch((err) => ctx.showError($("join"), err)));
  // A personal re-entry link: like an invite, sent with the session held, and a switch
  // away from another table is asked first.
  ctx.form($("back"), async () => {
    const token = new URLSearchParams(location.hash.slice(1)).get("reentry");
    try {
      return await signedIn(await ctx.api("POST", "/reentry", { token }));
    } catch (err) {
      // An unknown, used, expired or revoked link never works again: the answer says which,
      // and the button that would send it once more goes.
      if (String(err.code || "").startsWith("reentry-")) {
        $("back").dataset.refused = err.code;
        $("back").querySelector("button:not([type])").hidden = true;
        throw err;
      }
      if (err.code !== "session-held") throw err;
      const here = held ? held.table_name : "another table";
      const ok = await ctx.confirm(
        "Switch tables?",
        "You are signed in at " + here + (held ? " as " + held.member.name : "") + ". Using this re-entry link"
          + " signs this browser out of " + here + " and in as the member the link was made for.",
        "Leave " + here + " and sign in again",
        "Stay at " + here,
      );
      if (!ok) return stay();
      return await signedIn(await ctx.api("POST", "/reentry", { token, replace: true }));
    }
  });
  $("back-stay").addEventListener("click", () => stay().catch((err) => ctx.showError($("back"), err)));
}

// Leaves an invite unused and goes back to the table the member is at.
let held = null;
function stay() {
  history.replaceState(null, "", "/");
  $("join").hidden = true;
  $("back").hidden = true;
  $("signin").hidden = true;
  return enter();
}

function setupMenu() {
  // Whether the table rolls real dice (the game master's say): every member then types the
  // faces they rolled; the others' pages learn it with /api/me.
  const real = $("real-dice");
  real.addEventListener("submit", (e) => e.preventDefault());
  real.elements.on.addEventListener("change", async () => {
    const on = real.elements.on.checked;
    try {
      await ctx.api("PUT", "/settings/real-dice", { on });
      ctx.clearError(real);
      await refreshMembers();
    } catch (err) {
      real.elements.on.checked = !on;
      ctx.showError(real, err);
    }
  });
  ctx.form($("invite"), async (f) => {
    const invite = await ctx.api("POST", "/invites", { role: f.role.value });
    $("invite-link").value = location.origin + "/#invite=" + invite.token;
    $("invite-link").select();
  });
  $("copy-invite").addEventListener("click", () => {
    const link = $("invite-link");
    link.select();
    if (navigator.clipboard) navigator.clipboard.writeText(link.value).catch(() => document.execCommand("copy"));
    else document.execCommand("copy");
  });
  // The personal re-entry link (shown once; a newer one revokes it).
  $("reentry-make").addEventListener("click", async () => {
    try {
      const made = await ctx.api("POST", "/me/reentry", {});
      $("reentry-for").textContent = "Your re-entry link (shown once: keep it)";
      $("reentry-link").value = location.origin + "/#reentry=" + made.token;
      $("reentry-box").hidden = false;
      ctx.clearError($("reentry"));
    } catch (err) {
      ctx.showError($("reentry"), err);
    }
  });
  // A game master re-invites a member who lost their way in: a re-entry link for them.
  ctx.form($("reinvite"), async (f) => {
    const id = Number(f.member.value);
    const made = await ctx.api("POST", "/members/" + encodeURIComponent(String(id)) + "/reentry", {});
    $("reentry-for").textContent = "Re-entry link for " + made.member.name + " (shown once: give it to them)";
    $("reentry-link").value = location.origin + "/#reentry=" + made.token;
    $("reentry-box").hidden = false;
  });
  // Every roll of the journal re-derived from its seed or typed dice (as `solum journal
  // verify`): a player's check covers the entries they can see.
  $("verify-run").addEventListener("click", async () => {
    $("verify-result").textContent = "Checking…";
    try {
      const v = await ctx.api("GET", "/journal/verify");
      const wrong = v.mismatches.length + v.integrity.length + v.sheet_mismatches.length;
      const parts = [v.entries + " entries read, " + v.rolls + " rolls re-derived, " + v.sheets + " sheets compared"];
      if (v.mismatches.length) parts.push(v.mismatches.length + " rolls differ from their dice");
      if (v.integrity.length) parts.push(v.integrity.length + " problems in the store");
      if (v.sheet_mismatches.length) {
        parts.push("sheets that differ from the journal: " + v.sheet_mismatches.map((m) => m.name + " (" + m.reason + ")").join(", "));
      }
      $("verify-result").textContent = (wrong ? "Problems: " : "All sound: ") + parts.join("; ") + ".";
      ctx.clearError($("verify"));
    } catch (err) {
      $("verify-result").textContent = "";
      ctx.showError($("verify"), err);
    }
  });
  // The exports need the session: fetched with it, then saved as a file.
  for (const [id, file] of [["export-md", "journal.md"], ["export-json", "journal.json"]]) {
    $(id).addEventListener("click", async (e) => {
      e.preventDefault();
      try {
        const resp = await ctx.request("GET", $(id).getAttribute("href").slice(4));
        const url = URL.createObjectURL(await resp.blob());
        const a = ctx.el("a");
        a.href = url;
        a.download = file;
        a.click();
        setTimeout(() => URL.revokeObjectURL(url), 1000);
        ctx.clearError($("menu").querySelector(".menu-body"));
      } catch (err) {
        ctx.showError($("menu").querySelector(".menu-body"), err);
      }
    });
  }
  // Logging out asks first, and says when there is no way back.
  $("logout").addEventListener("click", async () => {
    const ok = await ctx.confirm("Log out?", $("reentry-text").textContent, "Log out", "Stay signed in");
    if (!ok) return;
    try {
      await ctx.request("POST", "/logout");
    } catch (err) {
      // An expired session is logged out already.
    }
    if (source) source.close();
    ctx.token = null;
    localStorage.removeItem("solum.token");
    location.replace("/");
  });
}

function showPageError(err) {
  const box = $("page-error");
  box.textContent = String(err.message || err);
  box.hidden = false;
}

async function boot() {
  setupTabs();
  setupSignin();
  setupMenu();
  const hash = new URLSearchParams(location.hash.slice(1));
  const invite = hash.get("invite");
  const reentry = !invite && hash.get("reentry");
  if (invite || reentry) {
    const form = invite ? "join" : "back";
    $("signin").hidden = false;
    $("create").hidden = true;
    $(form).hidden = false;
    if (ctx.token) {
      // Signed in already: say where, and offer to stay.
      try {
        held = await ctx.api("GET", "/me");
        $(form + "-held").textContent = "You are signed in at " + held.table_name + " as " + held.member.name
          + (invite
            ? ". Joining with this link switches this browser to the invited table; you will be asked first."
            : ". Using this link switches this browser to the member it was made for; you will be asked first.");
        $(form + "-held").hidden = false;
        $(form + "-stay").hidden = false;
        $(form + "-stay").textContent = "Stay at " + held.table_name;
      } catch (err) {
        // The session held is gone: join as anyone new would.
        held = null;
        ctx.token = null;
        localStorage.removeItem("solum.token");
      }
    }
  } else if (ctx.token) {
    try {
      await enter();
    } catch (err) {
      if (err.status === 401) {
        ctx.token = null;
        localStorage.removeItem("solum.token");
        $("signin").hidden = false;
      }
      showPageError(err);
    }
  } else {
    $("signin").hidden = false;
  }
}

boot();
