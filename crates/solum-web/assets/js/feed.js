// The table's feed: the journal and the live feed are one list, oldest at the top and the
// newest at the bottom, kept in view as entries arrive (unless the reader scrolled up).
// Each entry says who (when the server says), when, and what: dice as dice, verdicts,
// oracle answers with their event, combat events, notes; a game master's secret entries
// are marked "secret" with a Reveal button.
import { ctx } from "./ctx.js";

const PAGE = 100;
let list = null;
let older = null;
let oldest = null;
let newest = 0;
let resolveLoaded;
/** Resolves with the last seq of the first page, where the live stream starts. */
export const loaded = new Promise((r) => (resolveLoaded = r));

const siblingKinds = new Set(["sol", "classic", "soluna", "dietype"]);

function words(kebab) {
  return String(kebab || "").replace(/-/g, " ");
}

/** One line of text for a check of So1um Expanded. */
export function checkText(name, c) {
  const against = c.inputs.check.against;
  const vs = against.difficulty !== undefined ? "difficulty " + against.difficulty : "an opposing pool of " + against.opposed.dice;
  const own = c.result.own ? c.result.own.result : "auto";
  const verdict = c.result.verdict ? c.result.verdict : c.result.passed ? "passed" : "failed";
  const rollOff = c.result.roll_off && c.result.roll_off.length
    ? " (rolled off: " + c.result.roll_off.map((p) => p[0] + " vs " + p[1]).join(", ") + ")"
    : "";
  return name + " checks " + c.inputs.check.attribute + " against " + vs + ": " + own + " — " + verdict + rollOff;
}

/** A rolled dice expression's dice: a rerolled face struck, an explosion joined, a dropped die faded. */
export function notationDice(terms) {
  const row = ctx.el("span", undefined, "terms");
  for (const t of terms || []) {
    const part = ctx.el("span", undefined, "term");
    part.appendChild(ctx.el("span", t.term + (t.label ? " [" + t.label + "]" : "") + ": ", "term-name"));
    const dice = ctx.el("span", undefined, "dice");
    for (const d of t.dice || []) {
      for (const f of d.faces || []) {
        const die = ctx.el("span", String(f.value), "die");
        if (!d.kept) die.classList.add("dropped");
        if (f.note) die.classList.add(f.note);
        die.title = f.note ? f.note : d.kept ? "kept" : "dropped";
        dice.appendChild(die);
      }
    }
    part.appendChild(dice);
    if (!(t.dice || []).length) part.appendChild(ctx.el("span", String(t.value)));
    row.appendChild(part);
  }
  return row;
}

function siblingFaces(entry) {
  const ch = entry.change;
  if (!ch || typeof ch !== "object") return null;
  const inner = Object.values(ch)[0];
  return inner && inner.rolled && Array.isArray(inner.rolled.faces) ? inner.rolled : null;
}

// Who made an entry, where the server says (`by`: a member id, name or object).
function byName(entry) {
  const by = entry.by;
  if (by == null) return null;
  if (typeof by === "object") return by.name || null;
  if (typeof by === "number") {
    const m = ((ctx.me && ctx.me.members) || []).find((x) => x.id === by);
    return m ? m.name : "member " + by;
  }
  return String(by);
}

const relative = new Intl.RelativeTimeFormat("en", { numeric: "auto" });
function ago(at) {
  const s = (Date.parse(at) - Date.now()) / 1000;
  if (Number.isNaN(s)) return "";
  if (Math.abs(s) < 45) return "just now";
  if (Math.abs(s) < 3600) return relative.format(Math.round(s / 60), "minute");
  if (Math.abs(s) < 86400) return relative.format(Math.round(s / 3600), "hour");
  return relative.format(Math.round(s / 86400), "day");
}

function timeOf(at) {
  const t = ctx.el("time", ago(at), "when");
  t.dateTime = at;
  const exact = new Date(at);
  t.title = Number.isNaN(exact.getTime()) ? at : exact.toLocaleString();
  return t;
}

function vehicleDice(entry) {
  const o = entry.outcome || {};
  const box = ctx.el("span", undefined, "vehicle-dice");
  box.appendChild(ctx.diceRow(o.dice, { best: o.result <= 6 ? o.result : 6 }));
  if ((o.chain || []).length) box.append(" Rule of 6 ", ctx.diceRow(o.chain));
  box.append(" vs ");
  box.appendChild(ctx.diceRow(o.against_dice, { best: o.against_result <= 6 ? o.against_result : 6 }));
  if ((o.against_chain || []).length) box.append(" Rule of 6 ", ctx.diceRow(o.against_chain));
  for (const [a, b] of o.roll_off || []) box.append(" roll-off " + a + " vs " + b);
  return box;
}

/** The list item of an entry. */
export function line(entry) {
  const li = ctx.el("li", undefined, "entry kind-" + entry.kind);
  li.dataset.seq = String(entry.seq);
  const head = ctx.el("div", undefined, "entry-head");
  const who = byName(entry);
  if (who) head.appendChild(ctx.el("span", who, "by"));
  if (entry.at) head.appendChild(timeOf(entry.at));
  head.appendChild(ctx.el("span", "#" + entry.seq, "seq"));
  li.appendChild(head);
  // The server words every entry (`line`, the same words as `solum journal show`).
  li.appendChild(ctx.el("span", entry.line || words(entry.kind), "text"));
  const check = entry.kind === "character" && entry.change && entry.change.check;
  if (check && check.result.own) {
    li.appendChild(ctx.diceRow(check.result.own.dice, { best: check.result.own.result }));
    if (check.result.own.chain && check.result.own.chain.length) li.append(" Rule of 6 ", ctx.diceRow(check.result.own.chain));
  }
  if (entry.kind === "oracle" && entry.outcome && Array.isArray(entry.outcome.dice)) {
    li.appendChild(ctx.diceRow(entry.outcome.dice, { best: entry.outcome.die }));
  }
  if (entry.kind === "notation") li.appendChild(notationDice(entry.terms));
  if (entry.kind === "vehicle") li.appendChild(vehicleDice(entry));
  const sibling = siblingKinds.has(entry.kind) ? siblingFaces(entry) : null;
  if (sibling && sibling.faces.length) li.appendChild(ctx.diceRow(sibling.faces));
  const rolled = check ? check.rolled : sibling || entry.rolled;
  if (rolled && rolled.typed) li.appendChild(ctx.el("span", "real dice", "tag typed"));
  // The server marks a game master's secret entries (a player never receives one).
  if (entry.secret) markSecret(li, entry.seq);
  return li;
}

function markSecret(li, seq) {
  if (li.classList.contains("secret")) return;
  li.classList.add("secret");
  li.querySelector(".entry-head").prepend(ctx.el("span", "secret", "tag"));
  if (ctx.me && ctx.me.gm) li.appendChild(revealButton(seq));
}

// A game master shows the table a secret entry: what it does to a sheet happens now.
function revealButton(seq) {
  const button = ctx.el("button", "Reveal", "reveal inline");
  button.type = "button";
  button.setAttribute("aria-label", "Reveal secret entry #" + seq);
  button.addEventListener("click", async () => {
    const li = button.closest("li");
    button.disabled = true;
    try {
      await ctx.api("POST", "/journal/" + seq + "/reveal");
      button.remove();
      li.classList.add("revealed");
      ctx.clearError(li);
    } catch (err) {
      button.disabled = false;
      ctx.showError(li, err);
    }
  });
  return button;
}

function nearBottom() {
  return list.scrollHeight - list.scrollTop - list.clientHeight < 60;
}

/** Scrolls to the newest entry. */
export function atLatest() {
  if (list) list.scrollTop = list.scrollHeight;
}

/** The last seq shown. */
export function lastSeq() {
  return newest;
}

/** Adds a new entry at the bottom; false when it is already shown. */
export function add(entry) {
  if (entry.seq <= newest && list.querySelector('li[data-seq="' + entry.seq + '"]')) return false;
  const stick = nearBottom();
  list.appendChild(line(entry));
  newest = Math.max(newest, entry.seq);
  if (oldest === null) oldest = entry.seq;
  if (stick) atLatest();
  return true;
}

// Older entries on demand, above the ones shown. The API pages forwards (`after`), so the
// page before `oldest` is asked as the entries after `oldest - PAGE - 1` (`before` where the
// server offers it); entries already shown are skipped.
async function loadOlder() {
  const query = ctx.features.before
    ? "/journal?before=" + oldest + "&limit=" + PAGE
    : "/journal?after=" + Math.max(0, oldest - PAGE - 1) + "&limit=" + PAGE;
  const page = await ctx.api("GET", query);
  const height = list.scrollHeight;
  const first = list.firstElementChild;
  for (const e of page.entries) {
    if (e.seq >= oldest) continue;
    list.insertBefore(line(e), first);
  }
  const seqs = page.entries.map((e) => e.seq).filter((s) => s < oldest);
  if (seqs.length) oldest = Math.min(...seqs);
  // Keep the entry that was at the top where the reader saw it.
  list.scrollTop += list.scrollHeight - height;
  older.hidden = oldest <= 1 || !seqs.length;
}

/** The current scene (the last scene-start not ended since), or null. */
export async function currentScene() {
  if (ctx.features.scene) return ctx.api("GET", ctx.features.scene.replace(/^\/api/, ""));
  // Scenes as the journal keeps them: the last scene entry, found by the search.
  const page = await ctx.api("GET", "/journal?limit=1&q=" + encodeURIComponent('"kind":"scene-'));
  const last = page.entries[page.entries.length - 1];
  return last && last.kind === "scene-start" ? last : null;
}

/** Renders the feed into `container` and loads the latest page. */
export function mount(container) {
  container.replaceChildren();
  const head = ctx.el("div", undefined, "feed-head");
  const title = ctx.el("h2", "Feed");
  title.id = "feed-title";
  head.appendChild(title);
  const md = ctx.el("a", "Story (Markdown)", "export");
  md.href = "/api/journal/export?format=markdown";
  md.addEventListener("click", (e) => {
    e.preventDefault();
    document.getElementById("export-md").click();
  });
  head.appendChild(md);
  container.appendChild(head);

  const search = ctx.el("form");
  search.id = "search";
  search.setAttribute("role", "search");
  const label = ctx.el("label", "Search the journal ");
  const q = ctx.el("input");
  q.name = "q";
  q.type = "search";
  q.maxLength = 200;
  label.appendChild(q);
  const go = ctx.el("button", "Search");
  search.append(label, go);
  container.appendChild(search);
  const found = ctx.el("ol", undefined, "found");
  found.id = "found";
  found.hidden = true;
  found.setAttribute("aria-label", "Found");
  container.appendChild(found);
  ctx.form(search, async (f) => {
    found.replaceChildren();
    if (!f.q.value) {
      found.hidden = true;
      return;
    }
    const page = await ctx.api("GET", "/journal?q=" + encodeURIComponent(f.q.value));
    for (const entry of page.entries) found.appendChild(line(entry));
    if (!page.entries.length) found.appendChild(ctx.el("li", "Nothing found."));
    found.hidden = false;
  }, found);

  older = ctx.el("button", "Show older entries", "older secondary");
  older.type = "button";
  older.hidden = true;
  container.appendChild(older);
  list = ctx.el("ol", undefined, "journal");
  list.id = "journal";
  list.setAttribute("aria-label", "Journal, newest last");
  list.tabIndex = 0;
  container.appendChild(list);
  older.addEventListener("click", async () => {
    older.disabled = true;
    try {
      await loadOlder();
      ctx.clearError(container);
    } catch (err) {
      ctx.showError(container, err);
    } finally {
      older.disabled = false;
    }
  });

  // A secret roll's answer reaches its panel before its entry reaches the feed.
  const secrets = new Set();
  ctx.on("secret", (seq) => {
    secrets.add(seq);
    const li = list.querySelector('li[data-seq="' + seq + '"]');
    if (li) markSecret(li, seq);
  });
  ctx.on("entry", (entry) => {
    if (secrets.has(entry.seq)) markSecret(list.querySelector('li[data-seq="' + entry.seq + '"]'), entry.seq);
  });

  // Relative times stay true while the page is open.
  setInterval(() => {
    for (const t of list.querySelectorAll("time.when")) t.textContent = ago(t.dateTime);
  }, 30000);

  ctx.api("GET", "/journal?limit=" + PAGE)
    .then((page) => {
      for (const e of page.entries) add(e);
      oldest = page.entries.length ? page.entries[0].seq : null;
      older.hidden = oldest === null || oldest <= 1;
      atLatest();
      resolveLoaded(newest);
    })
    .catch((err) => {
      ctx.showError(container, err);
      resolveLoaded(newest);
    });
}
