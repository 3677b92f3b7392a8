// The Combat tab: a combat started by picking heroes from the table's characters and foes
// from the bestiary (the shipped creatures and the table's own), its fighters, hit points,
// initiative order and ranges as a compact grid, every legal option of the acting fighter
// as a button with its exact odds (the server gives each option with the line that plays
// it), and the combat's log for everyone. When a combat ends, sheets are refreshed.
// Every piece of user text goes in with textContent or a form value, never as markup.
import { ctx } from "./ctx.js";
import { refresher } from "./sheets.js";

const el = (tag, text, cls) => ctx.el(tag, text, cls);

let root = null;
let view = null;
let status = null;
let characters = [];
let creatures = null;
let busy = false;
// The current combat's log, from the journal's combat entries in order.
let log = [];
let logName = null;
let logCount = 0;
let logList = null;
const seen = new Set();
// Foes picked for a combat about to start: [name, count].
let picked = [];

/** A word of the combat line language, quoted when it holds a space or a `#`. */
export function word(w) {
  return /[\s#"]/.test(w) ? '"' + w.replace(/"/g, "") + '"' : w;
}

function myId() {
  if (!ctx.me) return null;
  return typeof ctx.me.member === "object" && ctx.me.member ? ctx.me.member.id : ctx.me.member;
}

/** Whether this member plays the acting fighter now: a game master any, a player their own hero. */
function mayAct() {
  if (!ctx.me || !status || !status.acting || status.over) return false;
  if (ctx.me.gm) return true;
  const owned = characters.find((c) => c.character.name === status.acting);
  return !!owned && owned.owner === myId();
}

/** Renders the Combat tab into `container`. */
export function mount(container) {
  root = container;
  container.classList.add("combat");
  container.replaceChildren(el("h2", "Combat"));
  view = el("div", undefined, "combat-view");
  const logBox = el("section", undefined, "combat-log");
  logBox.append(el("h3", "Log"));
  logList = el("ol", undefined, "log");
  logList.setAttribute("aria-live", "polite");
  logBox.appendChild(logList);
  container.append(view, logBox);
  const refresh = refresher(load);
  ctx.on("combat", refresh);
  ctx.on("characters", refresh);
  ctx.on("entry", (entry) => {
    if (entry.kind === "character") refresh();
    if (entry.kind !== "combat" || seen.has(entry.seq)) return;
    seen.add(entry.seq);
    const ch = entry.change || {};
    if (ch.started || entry.combat !== logName) {
      log = [];
      logCount = 0;
      logName = entry.combat;
    }
    if (ch.started) log.push("Combat \"" + entry.combat + "\" begins" + (ch.started.roll_off ? " (draws rolled off)" : ""));
    if (ch.line) {
      const text = (ch.line.text || []).filter((t) => t).join("; ");
      // Who played it, when the entry says (a name, or a member with one).
      const by = typeof entry.by === "string" ? entry.by : entry.by && entry.by.name;
      log.push((by ? by + ": " : "") + ch.line.line.line + (text ? ": " + text : ""));
    }
    if (ch.ended) {
      const written = (ch.ended.written || []).map((w) => w.name + " " + w.before + " → " + w.after + " HP").join(", ");
      log.push("Combat ends" + (written ? ": " + written : ""));
      // The sheets keep what the fight cost.
      ctx.emit("characters");
    }
    // The last 200 lines shown; the count of all of them kept beside.
    if (log.length > 400) log = log.slice(-200);
    logCount += 1;
    logList.dataset.count = String(logCount);
    logList.replaceChildren(...log.slice(-200).map((t) => el("li", t)));
    refresh();
  });
  if (ctx.me) refresh();
  else ctx.on("signed-in", refresh);
}

async function load() {
  try {
    const [answer, chars] = await Promise.all([ctx.api("GET", "/combat"), ctx.api("GET", "/characters")]);
    characters = chars;
    status = answer.combat;
    // The panel opened after the journal's catch-up (a reload, a late tab): its log is the
    // combat's own, every line played with what it did.
    if (status && status.name !== logName && status.log) {
      log = ["Combat \"" + status.name + "\" begins"].concat(
        status.log.map((l) => l.line + (l.text.length ? ": " + l.text.filter((t) => t).join("; ") : "")));
      if (log.length > 200) log = log.slice(-200);
      logName = status.name;
      logCount = status.log.length + 1;
      logList.dataset.count = String(logCount);
      logList.replaceChildren(...log.map((t) => el("li", t)));
    }
    if (!creatures && ctx.me && ctx.me.gm) creatures = (await ctx.api("GET", "/bestiary")).creatures;
    ctx.clearError(view);
  } catch (err) {
    ctx.showError(view, err);
    return;
  }
  render();
}

/** Plays lines in order; stops at the first refused one (its error shown in place). */
async function play(lines) {
  busy = true;
  render();
  try {
    for (const line of lines) {
      const v = await ctx.api("POST", "/combat/line", { line });
      status = v.status;
    }
    ctx.clearError(view);
  } catch (err) {
    busy = false;
    render();
    ctx.showError(view, err);
    return false;
  }
  busy = false;
  render();
  return true;
}

function field(label, input, cls) {
  const l = el("label", undefined, cls);
  l.append(label + " ", input);
  return l;
}

function render() {
  // A start form being filled in keeps what was typed: only its list of heroes follows.
  const filling = !status && view.querySelector("form.start-combat");
  if (filling) {
    const old = filling.querySelector("fieldset.heroes");
    const unchecked = new Set([...old.querySelectorAll("input[name=hero]")].filter((i) => !i.checked).map((i) => i.value));
    const fresh = heroChecks();
    fresh.querySelectorAll("input[name=hero]").forEach((i) => {
      if (unchecked.has(i.value)) i.checked = false;
    });
    old.replaceWith(fresh);
    // Who acts first follows too (the heroes' backgrounds for initiative), keeping choices.
    const oldBegin = filling.querySelector(".begin");
    const kept = new Map([...oldBegin.querySelectorAll("select, input")].map((i) => [i.name + "|" + (i.dataset.hero || ""), i.value]));
    const begin = startChoice(characters.filter((c) => !c.out).map((c) => c.character.name));
    for (const i of begin.querySelectorAll("select, input")) {
      const k = i.name + "|" + (i.dataset.hero || "");
      if (kept.has(k) && (i.tagName !== "SELECT" || [...i.options].some((o) => o.value === kept.get(k)))) i.value = kept.get(k);
    }
    begin.querySelector(".initiative-bg")?.toggleAttribute("hidden", begin.querySelector("select[name=begin]").value !== "initiative");
    oldBegin.replaceWith(begin);
    return;
  }
  const keepError = view.querySelector(".error");
  view.replaceChildren();
  if (!status) {
    if (ctx.me && ctx.me.gm) view.appendChild(startForm());
    else view.appendChild(el("p", "No combat at the table. The game master starts one.", "hint"));
  } else {
    view.appendChild(head());
    if (!status.started) view.appendChild(setup());
    view.appendChild(fighters());
    if (status.started) view.appendChild(grid());
    if (status.started && !status.over) view.appendChild(options());
    if (ctx.me && ctx.me.gm) view.appendChild(endButton());
  }
  if (keepError && keepError.textContent) view.appendChild(keepError);
}

function head() {
  let text = status.name + " — " + (status.started ? "round " + status.round : "setting up");
  if (status.acting && !status.over) text += ", " + status.acting + " to act";
  if (status.over) text += " — over";
  const h = el("h3", text, "combat-head");
  h.setAttribute("aria-live", "polite");
  return h;
}

// ---------------------------------------------------------------------------------------
// Starting: heroes from the table's characters, foes from the bestiary.

function heroChecks(exclude = []) {
  const box = el("fieldset", undefined, "heroes");
  box.appendChild(el("legend", "Heroes"));
  const free = characters.filter((c) => !exclude.includes(c.character.name));
  if (!free.length) box.appendChild(el("p", "No character to add.", "hint"));
  for (const c of free) {
    const i = el("input");
    i.type = "checkbox";
    i.name = "hero";
    i.value = c.character.name;
    i.checked = !c.out;
    i.disabled = c.out;
    box.appendChild(field(c.character.name + " (" + c.character.hit_points + "/" + c.max_hit_points + " HP" + (c.out ? ", out" : "") + ")", i, "check"));
  }
  return box;
}

function foePicker(onChange) {
  const box = el("fieldset", undefined, "foes");
  box.appendChild(el("legend", "Foes"));
  const s = el("select");
  s.name = "creature";
  for (const c of creatures || []) {
    const o = el("option", c.name + " — pool " + c.pool + ", " + c.hit_points + " HP, " + c.damage + " damage" + (c.ranged_damage ? ", shoots " + c.ranged_damage : "") + (c.source === "campaign" ? " (the table's)" : ""));
    o.value = c.name;
    s.appendChild(o);
  }
  const n = el("input");
  n.type = "number";
  n.name = "count";
  n.min = "1";
  n.max = "20";
  n.value = "1";
  const add = el("button", "Add foes", "secondary");
  add.type = "button";
  const list = el("ul", undefined, "items");
  const draw = () => {
    list.replaceChildren(...picked.map(([name, count], i) => {
      const li = el("li", count + " × " + name + " ");
      const rm = el("button", "Remove " + name, "small");
      rm.type = "button";
      rm.addEventListener("click", () => {
        picked.splice(i, 1);
        draw();
        onChange();
      });
      li.appendChild(rm);
      return li;
    }));
  };
  add.addEventListener("click", () => {
    const count = Math.max(1, Math.min(20, Math.floor(Number(n.value) || 1)));
    const same = picked.find((p) => p[0] === s.value);
    if (same) same[1] = Math.min(20, same[1] + count);
    else picked.push([s.value, count]);
    draw();
    onChange();
  });
  draw();
  box.append(field("Creature", s), field("How many", n), add, list);
  return box;
}

/**
 * Who acts first, and for initiative a background per hero (S18: one more die for that
 * hero's roll), and faces rolled by hand where this member may type dice. `heroes` are the
 * names that may roll (the form's checked heroes are read when the line is made).
 */
function startChoice(heroes) {
  const box = el("div", undefined, "begin");
  const s = el("select");
  s.name = "begin";
  for (const [v, t] of [["initiative", "initiative (heroes roll Mind against 4)"], ["ambush heroes", "the heroes ambush"], ["ambush foes", "the foes ambush"], ["", "not yet"]]) {
    const o = el("option", t);
    o.value = v;
    s.appendChild(o);
  }
  box.appendChild(field("Who acts first", s));
  const bgs = el("fieldset", undefined, "initiative-bg");
  bgs.appendChild(el("legend", "Initiative backgrounds"));
  for (const name of heroes) {
    const c = characters.find((x) => x.character.name === name);
    const list = (c && c.character.backgrounds) || [];
    if (!list.length) continue;
    const pick = el("select");
    pick.name = "initiative_bg";
    pick.dataset.hero = name;
    for (const b of ["", ...list]) {
      const o = el("option", b || "none");
      o.value = b;
      pick.appendChild(o);
    }
    bgs.appendChild(field(name, pick));
  }
  if (bgs.querySelector("select")) box.appendChild(bgs);
  s.addEventListener("change", () => {
    bgs.hidden = s.value !== "initiative";
  });
  box.appendChild(typedField("begin_typed"));
  return box;
}

/** A field for faces rolled by hand, where the server allows this member to type dice. */
function typedField(name) {
  const i = el("input");
  i.name = name;
  i.inputMode = "numeric";
  i.placeholder = "4 3 3";
  i.maxLength = 200;
  const l = field("Real dice (faces)", i, "typed");
  l.hidden = !(ctx.me && ctx.me.may_type_dice);
  return l;
}

/** ` with 4,3,3` for faces typed in `input` (none: ""); the line language's typed dice. */
function withFaces(input) {
  if (!input || !input.value.trim()) return "";
  const faces = input.value.split(/[\s,]+/).filter(Boolean);
  return " with " + faces.join(",");
}

/** The line that begins the fight, as the form `f` chose it (null: not yet). */
function beginLine(f) {
  const begin = f.elements.begin.value;
  if (!begin) return null;
  let line = begin;
  if (begin === "initiative") {
    const rolling = new Set([...f.querySelectorAll("input[name=hero]:checked")].map((i) => i.value));
    if (status) for (const x of status.fighters) if (x.side === "heroes" || x.side === "hero") rolling.add(x.name);
    for (const pick of f.querySelectorAll("select[name=initiative_bg]")) {
      if (pick.value && rolling.has(pick.dataset.hero)) line += " bg " + word(pick.dataset.hero + "=" + pick.value);
    }
  }
  return line + withFaces(f.elements.begin_typed);
}

// A foe as the combat line names it: the bestiary's `foe` word.
function foeWord(name) {
  const c = (creatures || []).find((x) => x.name === name);
  return c ? c.foe : name.replace(/\s+/g, "-");
}

function foeLines() {
  return picked.map(([name, count]) => "foe " + word(foeWord(name)) + (count > 1 ? "*" + count : ""));
}

function startForm() {
  const f = el("form", undefined, "start-combat");
  const name = el("input");
  name.name = "name";
  name.maxLength = 60;
  name.placeholder = "Ambush at the ford";
  const rollOff = el("input");
  rollOff.type = "checkbox";
  rollOff.name = "roll_off";
  const start = el("button", "Start the combat");
  f.append(el("h3", "Start a combat"), field("Name", name), field("Roll off draws", rollOff, "check"),
    heroChecks(), foePicker(() => {}), startChoice(characters.filter((c) => !c.out).map((c) => c.character.name)), start);
  f.addEventListener("submit", async (e) => {
    e.preventDefault();
    const heroes = [...f.querySelectorAll("input[name=hero]:checked")].map((i) => i.value);
    if (!heroes.length || !picked.length) {
      ctx.showError(f, new Error("Pick at least one hero and one foe."));
      return;
    }
    start.disabled = true;
    // The combat with its heroes and foes in one request, then who acts first as a line.
    const begin = beginLine(f);
    try {
      const body = { roll_off: rollOff.checked, heroes, foes: picked.map(([n, count]) => ({ name: n, count })) };
      if (name.value) body.name = name.value;
      const started = await ctx.api("POST", "/combat", body);
      if (started.status) status = started.status;
      ctx.clearError(f);
    } catch (err) {
      start.disabled = false;
      ctx.showError(f, err);
      return;
    }
    picked = [];
    if (begin) await play([begin]);
    else render();
  });
  return f;
}

/** A combat open but not started: more fighters, then initiative or an ambush. */
function setup() {
  const f = el("form", undefined, "setup-combat");
  if (!(ctx.me && ctx.me.gm)) {
    f.appendChild(el("p", "The game master is setting the combat up.", "hint"));
    return f;
  }
  const inFight = status.fighters.map((x) => x.name);
  const go = el("button", "Add and begin");
  f.append(heroChecks(inFight), foePicker(() => {}), startChoice(characters.map((c) => c.character.name)), go);
  f.querySelectorAll("input[name=hero]").forEach((i) => (i.checked = false));
  f.addEventListener("submit", async (e) => {
    e.preventDefault();
    const heroes = [...f.querySelectorAll("input[name=hero]:checked")].map((i) => i.value);
    const lines = [...heroes.map((h) => "hero " + word(h)), ...foeLines()];
    const begin = beginLine(f);
    if (begin) lines.push(begin);
    picked = [];
    if (lines.length) await play(lines);
  });
  return f;
}

// ---------------------------------------------------------------------------------------
// Where the combat stands.

function fighters() {
  const table = el("table", undefined, "fighters");
  const cap = el("caption", status.started ? "Fighters in initiative order" : "Fighters");
  table.appendChild(cap);
  const thead = el("thead");
  const tr = el("tr");
  for (const h of ["#", "Fighter", "Side", "Hit points", "In hand"]) {
    const th = el("th", h);
    th.scope = "col";
    tr.appendChild(th);
  }
  thead.appendChild(tr);
  table.appendChild(thead);
  const body = el("tbody");
  const order = status.order.length ? status.order : status.fighters.map((f) => f.name);
  const byName = new Map(status.fighters.map((f) => [f.name, f]));
  order.forEach((name, i) => {
    const f = byName.get(name);
    if (!f) return;
    const row = el("tr");
    row.dataset.fighter = f.name;
    if (f.name === status.acting && !status.over) row.classList.add("acting");
    if (f.out) row.classList.add("out");
    row.appendChild(el("td", String(i + 1)));
    const th = el("th", f.name + (f.name === status.acting && !status.over ? " ▶" : ""));
    th.scope = "row";
    row.appendChild(th);
    row.appendChild(el("td", f.side));
    const hp = el("td", f.hit_points + "/" + f.max_hit_points + (f.out ? " out" : ""), "hp");
    row.appendChild(hp);
    row.appendChild(el("td", f.weapon));
    body.appendChild(row);
  });
  table.appendChild(body);
  return table;
}

const bandShort = { engaged: "E", nearby: "N", far: "F" };

// Past this many fighters the grid would be wider than any screen: the ranges are listed
// per fighter instead (only the pairs away from the starting band).
const GRID_MOST = 16;

/** The ranges between every two fighters as a grid (the view lists only the pairs away
 * from `range_default`; every other pair is at it). */
function grid() {
  const names = status.order.length ? status.order : status.fighters.map((f) => f.name);
  const fallback = status.range_default || "nearby";
  const band = new Map();
  for (const r of status.ranges) {
    band.set(r.a + "\u0000" + r.b, r.band);
    band.set(r.b + "\u0000" + r.a, r.band);
  }
  const wrap = el("div", undefined, "range-grid");
  if (names.length > GRID_MOST) {
    wrap.appendChild(el("p", "Ranges: every pair is " + fallback + " except:"));
    const list = el("ul", undefined, "range-list");
    for (const r of status.ranges) list.appendChild(el("li", r.a + " – " + r.b + ": " + r.band));
    if (!status.ranges.length) list.appendChild(el("li", "none"));
    wrap.appendChild(list);
    return wrap;
  }
  const table = el("table");
  table.appendChild(el("caption", "Ranges: E engaged, N nearby, F far"));
  const head = el("tr");
  head.appendChild(el("td"));
  for (const n of names) {
    const th = el("th", n);
    th.scope = "col";
    head.appendChild(th);
  }
  const thead = el("thead");
  thead.appendChild(head);
  table.appendChild(thead);
  const body = el("tbody");
  for (const a of names) {
    const row = el("tr");
    const th = el("th", a);
    th.scope = "row";
    row.appendChild(th);
    for (const b of names) {
      if (a === b) {
        row.appendChild(el("td", "·", "self"));
        continue;
      }
      const bnd = band.get(a + "\u0000" + b) || fallback;
      const td = el("td", bandShort[bnd] || "?", "band " + bnd);
      td.title = a + " – " + b + ": " + bnd;
      td.setAttribute("aria-label", a + " to " + b + ": " + bnd);
      row.appendChild(td);
    }
    body.appendChild(row);
  }
  table.appendChild(body);
  wrap.appendChild(table);
  return wrap;
}

const verbs = {
  melee: "Melee", unarmed: "Unarmed", shoot: "Shoot", "vehicle attack": "Vehicle attack",
  "chase closer": "Chase closer", "chase away": "Chase away", disengage: "Disengage",
  "move closer": "Move closer to", "move away": "Move away from", switch: "Switch to", "end turn": "End turn",
};

/** An option's words and its exact odds. */
export function optionText(c) {
  let text = verbs[c.action] || c.action;
  if (c.target) text += " " + c.target;
  if (c.weapon) text += " " + c.weapon;
  if (c.band) text += " (" + c.band + ")";
  if (c.background) text += ", background " + c.background;
  if (c.defender_background) text += ", defended with " + c.defender_background;
  let odds = "";
  if (c.p_draw != null) odds = "win " + ctx.pct(c.p_success) + " · draw " + ctx.pct(c.p_draw) + " · lose " + ctx.pct(c.p_lose);
  else if (c.action === "shoot") odds = "hit " + ctx.pct(c.p_success);
  else if (c.action === "disengage") odds = "frees " + ctx.pct(c.p_success);
  else if (c.p_success < 1) odds = ctx.pct(c.p_success);
  return { text, odds };
}

function options() {
  const box = el("section", undefined, "options");
  const allowed = mayAct();
  box.appendChild(el("h3", status.acting + "'s options"));
  if (!allowed) {
    const owner = characters.find((c) => c.character.name === status.acting);
    box.appendChild(el("p", owner ? "Waiting for " + status.acting + "'s player." : "Waiting for the game master to play " + status.acting + ".", "hint"));
  }
  // Faces rolled by hand for the next option clicked (where this member may type dice).
  const typed = typedField("typed");
  typed.querySelector("input").disabled = !allowed || busy;
  box.appendChild(typed);
  const list = el("div", undefined, "choices");
  for (const c of status.choices) {
    const { text, odds } = optionText(c);
    const b = el("button", undefined, "choice" + (c.uses_action ? " uses-action" : "") + (c.action === "end turn" ? " end-turn" : ""));
    b.type = "button";
    b.dataset.line = c.line;
    b.dataset.action = c.action;
    b.dataset.band = c.band || "";
    b.appendChild(el("span", text, "what"));
    if (odds) b.appendChild(el("span", odds, "odds"));
    if (c.uses_action) b.appendChild(el("span", "the action", "cost"));
    b.disabled = !allowed || busy;
    b.addEventListener("click", () => {
      const faces = withFaces(typed.querySelector("input"));
      play([c.line + faces]);
    });
    list.appendChild(b);
  }
  // What the fighter has spent this turn, greyed (the server lists only what is legal now).
  const hasAction = status.choices.some((c) => c.uses_action);
  const hasMove = status.choices.some((c) => c.action.startsWith("move") || c.action === "disengage");
  for (const [spent, text] of [[!hasAction, "Action spent"], [!hasMove, "Move spent"]]) {
    if (!spent) continue;
    const b = el("button", text, "choice spent");
    b.type = "button";
    b.dataset.action = "spent";
    b.dataset.line = "";
    b.disabled = true;
    list.appendChild(b);
  }
  box.appendChild(list);
  return box;
}

function endButton() {
  const f = el("form", undefined, "end-combat");
  const b = el("button", status.over ? "End the combat (write hit points to the sheets)" : "End the combat now", status.over ? "" : "secondary");
  f.appendChild(b);
  const out = el("p", undefined, "result");
  out.setAttribute("aria-live", "polite");
  f.appendChild(out);
  f.addEventListener("submit", async (e) => {
    e.preventDefault();
    b.disabled = true;
    try {
      const v = await ctx.api("POST", "/combat/end", {});
      status = null;
      picked = [];
      render();
      ctx.clearError(view);
      const written = (v.written || []).map((w) => w.name + ": " + w.before + " → " + w.after + " HP").join(", ");
      view.appendChild(el("p", "The combat is over." + (written ? " Sheets: " + written : ""), "result"));
      ctx.emit("characters");
    } catch (err) {
      b.disabled = false;
      ctx.showError(f, err);
    }
  });
  return f;
}
