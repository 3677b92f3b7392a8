// The Characters tab: the table's characters as whole sheets, for every system the API
// serves (So1um Expanded first, then the sibling systems as they stand), creation by the
// rules step by step with its dice, every field editable as the rules allow, advancement,
// rest, checks that pick weapon and gear, and fast static combat from a sheet.
// Every piece of user text goes in with textContent or a form value, never as markup.
import { ctx } from "./ctx.js";

const el = (tag, text, cls) => ctx.el(tag, text, cls);

let root = null;
let listBox = null;
let siblingBox = null;
let characters = [];
let siblings = null;
let statics = null;
let mayType = false;
// Which editors were open, so a refresh keeps the player where they were.
const openParts = new Set();
// The result boxes (dice and verdicts) by sheet and part: a refresh of the sheets moves the
// same box into the new form, so a result stays until the next one.
const results = new Map();

function resultBox(key, tag = "div") {
  if (!results.has(key)) {
    const box = el(tag, undefined, "result");
    box.setAttribute("aria-live", "polite");
    results.set(key, box);
  }
  return results.get(key);
}

/** A fetch that runs at most once at a time, with at most one more queued behind it; bursts
 * of requests (a journal's catch-up) collapse into one. */
export function refresher(work, delay = 80) {
  let running = false;
  let queued = false;
  let timer = null;
  const run = async () => {
    running = true;
    try {
      await work();
    } finally {
      running = false;
      if (queued) {
        queued = false;
        schedule();
      }
    }
  };
  const schedule = () => {
    if (running) {
      queued = true;
      return;
    }
    if (timer) return;
    timer = setTimeout(() => {
      timer = null;
      if (running) queued = true;
      else run();
    }, delay);
  };
  return schedule;
}

/** Whether this member may change the sheet (its owner, or a game master). */
function mine(owned) {
  if (!ctx.me) return false;
  if (ctx.me.gm) return true;
  const id = typeof ctx.me.member === "object" && ctx.me.member ? ctx.me.member.id : ctx.me.member;
  return owned.owner != null && owned.owner === id;
}

function path(name, rest = "") {
  return "/characters/" + encodeURIComponent(name) + rest;
}

// ---------------------------------------------------------------------------------------
// Small form builders: every input inside its label.

function field(label, input, cls) {
  const l = el("label", undefined, cls);
  l.append(label + " ", input);
  return l;
}

function input(name, attrs = {}) {
  const i = el("input");
  i.name = name;
  for (const [k, v] of Object.entries(attrs)) {
    // The default value too, so a form's reset comes back to it.
    if (k === "value") i.defaultValue = v;
    else if (typeof v === "boolean") i[k] = v;
    else i.setAttribute(k, v);
  }
  return i;
}

function select(name, options, value) {
  const s = el("select");
  s.name = name;
  for (const o of options) {
    const [v, text] = Array.isArray(o) ? o : [o, o];
    const opt = el("option", text);
    opt.value = v;
    s.appendChild(opt);
  }
  if (value !== undefined) s.value = value;
  // A form's reset comes back to this choice.
  for (const opt of s.options) opt.defaultSelected = opt.value === s.value;
  return s;
}

function button(text, type = "submit", cls) {
  const b = el("button", text, cls);
  b.type = type;
  return b;
}

/** A form whose submit runs `work`; its error is shown on it and cleared on success. */
function form(cls, children, work) {
  const f = el("form", undefined, cls);
  f.append(...children);
  f.addEventListener("submit", async (e) => {
    e.preventDefault();
    const buttons = [...f.querySelectorAll("button")];
    for (const b of buttons) b.disabled = true;
    try {
      await work(f.elements, f, e.submitter);
      // An added item's fields are emptied for the next one.
      const now = current(f);
      if (f.dataset.clear) for (const i of now.querySelectorAll("input:not([type=checkbox])")) i.value = "";
      ctx.clearError(now);
    } catch (err) {
      ctx.showError(current(f), err);
    } finally {
      for (const b of buttons) b.disabled = false;
    }
  });
  return f;
}

/**
 * The form on the page now in place of `f`: a refresh for another member's change may
 * redraw the sheets while a request is out, and its answer belongs on the redrawn form.
 */
function current(f) {
  if (f.isConnected) return f;
  const card = f.closest("article.sheet");
  if (!card) return f;
  for (const box of [listBox, siblingBox]) {
    if (!box) continue;
    for (const g of box.querySelectorAll("article.sheet form")) {
      if (g.className === f.className && g.closest("article.sheet").dataset.name === card.dataset.name) return g;
    }
  }
  return f;
}

/** A labelled field for faces rolled by hand, where the table lets this member type them. */
function typedField(hint) {
  if (!mayType && !(ctx.me && ctx.me.may_type_dice)) return [];
  return [field("Real dice (" + hint + ")", input("typed", { inputmode: "numeric", placeholder: "e.g. 4 2 6", maxlength: "200" }), "wide")];
}

function typedFaces(f) {
  if (!f.typed) return undefined;
  const words = f.typed.value.split(/[\s,]+/).filter((w) => w);
  if (!words.length) return undefined;
  const faces = words.map(Number);
  if (faces.some((n) => !Number.isInteger(n) || n < 1)) {
    throw new Error("Real dice: type the faces as whole numbers, like 3 5 6");
  }
  return faces;
}

/** Marks a form whose text fields empty once it succeeds (an item added). */
function clearing(f) {
  f.dataset.clear = "yes";
  return f;
}

function section(title, key, children) {
  const d = el("details", undefined, "part");
  d.dataset.key = key;
  d.open = openParts.has(key);
  d.addEventListener("toggle", () => {
    if (d.open) openParts.add(key);
    else openParts.delete(key);
  });
  d.append(el("summary", title), ...children);
  return d;
}

const classes = [["light", "light (1)"], ["medium", "medium (2)"], ["heavy", "heavy (3)"]];
const points = { light: 1, medium: 2, heavy: 3 };

// ---------------------------------------------------------------------------------------
// Mounting and fetching.

/** Renders the Characters tab into `container`. */
export function mount(container) {
  root = container;
  container.classList.add("sheets");
  container.replaceChildren();
  container.appendChild(el("h2", "Characters"));
  const create = el("div", undefined, "create");
  listBox = el("div", undefined, "sheet-list");
  listBox.setAttribute("aria-live", "polite");
  siblingBox = el("div", undefined, "sibling-list");
  container.append(create, listBox, siblingBox);
  const refresh = refresher(load);
  const refreshSiblings = refresher(loadSiblings);
  ctx.on("characters", refresh);
  ctx.on("entry", (entry) => {
    if (entry.kind === "character" || entry.kind === "static" || entry.kind === "reveal") refresh();
    else if (entry.kind === "combat" && entry.change && entry.change.ended) refresh();
    if (["sol", "classic", "soluna", "dietype", "reveal"].includes(entry.kind)) refreshSiblings();
  });
  const start = async () => {
    create.replaceChildren(creation());
    // Whether this member may type real dice (a game master alone at the table).
    const me = await ctx.api("GET", "/me").catch(() => null);
    mayType = !!(me && me.may_type_dice);
    create.replaceChildren(creation());
    refresh();
    refreshSiblings();
  };
  if (ctx.me) start();
  else ctx.on("signed-in", start);
}

async function load() {
  try {
    characters = await ctx.api("GET", "/characters");
    ctx.clearError(listBox);
  } catch (err) {
    ctx.showError(listBox, err);
    return;
  }
  render();
}

async function loadSiblings() {
  try {
    siblings = await ctx.api("GET", "/systems/characters");
  } catch (err) {
    ctx.showError(siblingBox, err);
    return;
  }
  renderSiblings();
}

async function loadStatics() {
  if (!statics) statics = (await ctx.api("GET", "/bestiary")).static;
  return statics;
}

// ---------------------------------------------------------------------------------------
// Creation by the rules (S9), step by step.

function creation() {
  const box = el("section", undefined, "creation");
  box.appendChild(el("h3", "New character (So1um Expanded)"));
  box.appendChild(el("p", "Body, Mind and Charm take 3, 2 and 1 in any order. Then 2d6: one more background per even die; a d6: light armor if even; one light weapon.", "hint"));
  const attrs = ["body", "mind", "charm"].map((a, i) => select(a, ["3", "2", "1"], String(3 - i)));
  // The three always hold 3, 2 and 1: choosing a value swaps it with the attribute that had it.
  attrs.forEach((s) => {
    s.dataset.was = s.value;
    s.addEventListener("change", () => {
      const other = attrs.find((o) => o !== s && o.value === s.value);
      if (other) {
        other.value = s.dataset.was;
        other.dataset.was = other.value;
      }
      s.dataset.was = s.value;
    });
  });
  const result = el("div", undefined, "creation-result");
  result.setAttribute("aria-live", "polite");
  const f = form("create-character", [
    field("Name", input("name", { required: true, maxlength: "60", autocomplete: "off" })),
    field("Body", attrs[0]),
    field("Mind", attrs[1]),
    field("Charm", attrs[2]),
    field("Starting background", input("background", { required: true, maxlength: "60", placeholder: "Sailor" })),
    field("Light weapon", input("weapon", { required: true, maxlength: "60", value: "dagger" })),
    field("It shoots (ranged)", input("ranged", { type: "checkbox" }), "check"),
    field("Armor, if the d6 gives it", input("armor", { required: true, maxlength: "60", value: "leather armor" })),
    ...typedField("2d6 for backgrounds, then the d6 for armor"),
    button("Roll and create"),
  ], async (fe, node) => {
    const body = {
      name: fe.name.value,
      body: Number(fe.body.value),
      mind: Number(fe.mind.value),
      charm: Number(fe.charm.value),
      backgrounds: [fe.background.value],
      weapon: { name: fe.weapon.value, class: "light", ranged: fe.ranged.checked },
      armor_name: fe.armor.value,
    };
    const typed = typedFaces(fe);
    if (typed) body.typed = typed;
    const view = await ctx.api("POST", "/characters", body);
    node.reset();
    attrs.forEach((s) => (s.dataset.was = s.value));
    showCreated(result, view, body);
    ctx.emit("characters");
  });
  box.append(f, result);
  return box;
}

/** Step two: the dice of creation and what they gave; the backgrounds earned to be named. */
function showCreated(box, view, body) {
  const h = view.sheet.character;
  const faces = view.rolled.faces;
  const [b1, b2, armorDie] = faces;
  const even = (d) => d % 2 === 0;
  box.replaceChildren();
  box.appendChild(el("h4", h.name + " is made" + (view.rolled.typed ? " (real dice)" : "")));
  const bgLine = el("p", undefined, "step");
  const evens = [b1, b2].filter(even).length;
  bgLine.append("Backgrounds, 2d6: ", ctx.diceRow([b1, b2], { label: "backgrounds" }),
    " " + evens + " even → " + (1 + evens) + " background" + (evens ? "s" : "") + " (1 + " + evens + ")");
  const armorLine = el("p", undefined, "step");
  armorLine.append("Armor, d6: ", ctx.diceRow([armorDie], { label: "armor" }),
    even(armorDie)
      ? " even → light armor: " + h.armor.name + " (+1 hit point)"
      : " odd → no armor (" + body.armor_name + " is not worn)");
  const hp = el("p", "Hit points: Body " + h.body + " + Mind " + h.mind + " + armor " + (h.armor ? points[h.armor.class] : 0) + " = " + view.sheet.max_hit_points, "step");
  const w = h.weapons[0];
  const weapon = el("p", "Weapon: " + w.name + " (light, " + (w.ranged ? "ranged" : "melee") + ", 1 damage)", "step");
  box.append(bgLine, armorLine, hp, weapon);
  if (h.unnamed_backgrounds > 0) box.appendChild(nameEarned(view.sheet, box));
}

/** Names the backgrounds creation earned (no correction needed: S17 allows it). */
function nameEarned(sheet, after) {
  const h = sheet.character;
  const inputs = [];
  for (let i = 0; i < h.unnamed_backgrounds; i++) {
    inputs.push(field("Earned background " + (i + 1), input("earned", { required: true, maxlength: "60" })));
  }
  return form("name-earned", [
    el("p", h.name + " earned " + h.unnamed_backgrounds + " more background" + (h.unnamed_backgrounds > 1 ? "s" : "") + " to name.", "hint"),
    ...inputs,
    button("Name " + (h.unnamed_backgrounds > 1 ? "them" : "it")),
  ], async (f, node) => {
    const names = inputs.map((l) => l.querySelector("input").value);
    await ctx.api("PATCH", path(h.name), { add_backgrounds: names });
    node.replaceWith(el("p", "Backgrounds: " + [...h.backgrounds, ...names].join(", "), "step"));
    if (after) after.dataset.named = "yes";
    ctx.emit("characters");
  });
}

// ---------------------------------------------------------------------------------------
// The sheets.

/** The key of a sheet's field: the sheet, its form, the field's name. */
function fieldKey(i) {
  const card = i.closest("article.sheet");
  const f = i.closest("form");
  return card && f && i.name ? card.dataset.name + "|" + f.className + "|" + i.name : null;
}

function render() {
  keepTyping(listBox, fill);
}

/**
 * Redraws `box` with `redraw`, keeping what is being typed in its sheets' forms and the
 * refusals shown beside them: a refresh for another member's change (or the change just
 * before) must not wipe a half-written note or the message of the change that failed.
 */
function keepTyping(box, redraw) {
  const kept = new Map();
  for (const i of box.querySelectorAll("input, select, textarea")) {
    const k = fieldKey(i);
    if (k) kept.set(k, i.type === "checkbox" ? i.checked : i.value);
  }
  const focused = document.activeElement && box.contains(document.activeElement) ? fieldKey(document.activeElement) : null;
  const formKey = (f) => {
    const card = f.closest("article.sheet");
    return card ? card.dataset.name + "|" + f.className : null;
  };
  const refused = new Map();
  for (const e of box.querySelectorAll("article.sheet form > .error:not([hidden])")) {
    const k = formKey(e.parentElement);
    if (k && e.textContent) refused.set(k, e.textContent);
  }
  redraw();
  for (const f of box.querySelectorAll("article.sheet form")) {
    const k = formKey(f);
    if (k && refused.has(k)) ctx.showError(f, new Error(refused.get(k)));
  }
  for (const i of box.querySelectorAll("input, select, textarea")) {
    const k = fieldKey(i);
    if (!k || !kept.has(k)) continue;
    if (i.type === "checkbox") i.checked = kept.get(k);
    else if (i.tagName !== "SELECT" || [...i.options].some((o) => o.value === kept.get(k))) i.value = kept.get(k);
    if (k === focused) i.focus();
  }
}

function fill() {
  listBox.replaceChildren();
  if (!characters.length) {
    listBox.appendChild(el("p", "No So1um Expanded character at the table yet.", "hint"));
    return;
  }
  for (const owned of characters) listBox.appendChild(sheet(owned));
}

function statLine(label, value) {
  const row = el("div", undefined, "stat");
  row.append(el("dt", label), el("dd", value));
  return row;
}

function sheet(owned) {
  const h = owned.character;
  const editable = mine(owned);
  const card = el("article", undefined, "sheet");
  card.dataset.name = h.name;
  const head = el("h3", h.name);
  if (owned.out) head.append(" ", el("span", "out", "badge danger"));
  if (editable && !ctx.me.gm) head.append(" ", el("span", "yours", "badge"));
  card.appendChild(head);
  const dl = el("dl", undefined, "stats");
  dl.append(
    statLine("Body", String(h.body)),
    statLine("Mind", String(h.mind)),
    statLine("Charm", String(h.charm)),
    statLine("Hit points", h.hit_points + " / " + owned.max_hit_points),
  );
  card.appendChild(dl);
  const meter = el("meter");
  meter.min = 0;
  meter.max = owned.max_hit_points;
  meter.value = h.hit_points;
  meter.low = Math.ceil(owned.max_hit_points / 3);
  meter.optimum = owned.max_hit_points;
  meter.setAttribute("aria-label", h.name + "'s hit points");
  card.appendChild(meter);
  const more = el("dl", undefined, "details");
  const bgs = h.backgrounds.join(", ") || "none";
  more.append(
    statLine("Backgrounds", bgs + (h.unnamed_backgrounds ? " (+" + h.unnamed_backgrounds + " to name)" : "")),
    statLine("Armor", h.armor ? h.armor.name + " (" + h.armor.class + ", +" + points[h.armor.class] + " HP)" : "none"),
    statLine("Weapons", h.weapons.map(weaponText).join("; ") || "none"),
    statLine("Gear", h.gear.map((g) => g.name + " (" + (g.effect === "reroll" ? "rerolls a die" : "enables") + ")").join("; ") || "none"),
    statLine("Money", String(h.money)),
    statLine("Advancement points", String(owned.advancement_points || 0)),
  );
  if (owned.rest_minutes) more.appendChild(statLine("Rest banked", owned.rest_minutes + " min"));
  if (h.notes) more.appendChild(statLine("Notes", h.notes));
  card.appendChild(more);
  if (!editable) {
    card.appendChild(el("p", "Only its player or a game master changes this sheet.", "hint"));
    return card;
  }
  const key = (k) => h.name + "/" + k;
  card.append(
    // At 0 hit points a hero cannot act (S8): no check, no fight until healed.
    section("Check", key("check"), [owned.out ? el("p", h.name + " is out (0 hit points) and cannot act.", "hint") : checkForm(owned)]),
    section("Hit points and rest", key("hp"), hpForms(owned)),
    section("Weapons", key("weapons"), weaponForms(owned)),
    section("Armor", key("armor"), [armorForm(owned)]),
    section("Gear and money", key("gear"), gearForms(owned)),
    section("Backgrounds", key("backgrounds"), backgroundForms(owned)),
    section("Advancement", key("advance"), advanceForms(owned)),
    section("Notes", key("notes"), [notesForm(owned)]),
    section("Fast static combat", key("static"), [owned.out ? el("p", h.name + " is out (0 hit points) and cannot fight.", "hint") : staticBox(owned)]),
  );
  if (ctx.me.gm) card.appendChild(section("Correction (game master)", key("correct"), correctionForms(owned)));
  return card;
}

function weaponText(w) {
  return w.name + " (" + w.class + ", " + (w.ranged ? "ranged" : "melee") + ", " + points[w.class] + " damage)";
}

/** Sends an edit and refreshes the sheets. */
async function edit(name, body) {
  const view = await ctx.api("PATCH", path(name), body);
  ctx.emit("characters");
  return view;
}

function hpForms(owned) {
  const h = owned.character;
  const dmg = form("damage", [
    field("Damage taken", input("damage", { type: "number", min: "1", max: "1000", value: "1" })),
    button("Take damage"),
  ], (f) => edit(h.name, { damage: Number(f.damage.value) }));
  const heal = form("heal", [
    field("Healed", input("heal", { type: "number", min: "1", max: "1000", value: "1" })),
    button("Heal"),
  ], (f) => edit(h.name, { heal: Number(f.heal.value) }));
  const out = resultBox(h.name + "/rest", "p");
  const rest = form("rest", [
    el("p", "Rest heals 1 hit point per half hour, up to the maximum; minutes add up across rests.", "hint"),
    field("Hours of rest", input("hours", { type: "number", min: "0.25", max: "10000", step: "0.25", value: "0.5" })),
    button("Rest"),
    out,
  ], async (f) => {
    const v = await ctx.api("POST", path(h.name, "/rest"), { hours: Number(f.hours.value) });
    out.textContent = h.name + " rests: healed " + v.healed + " → " + v.sheet.character.hit_points + "/" + v.sheet.max_hit_points;
    ctx.emit("characters");
  });
  return [dmg, heal, rest];
}

function weaponForms(owned) {
  const h = owned.character;
  const list = el("ul", undefined, "items");
  for (const w of h.weapons) {
    const li = el("li", weaponText(w) + " ");
    li.appendChild(form("remove", [button("Remove " + w.name, "submit", "small")],
      () => edit(h.name, { remove_weapons: [w.name] })));
    list.appendChild(li);
  }
  const add = clearing(form("add-weapon", [
    field("Weapon", input("name", { required: true, maxlength: "60" })),
    field("Class", select("class", classes, "light")),
    field("Ranged", input("ranged", { type: "checkbox" }), "check"),
    button("Add weapon"),
  ], (f) => edit(h.name, { add_weapons: [{ name: f.name.value, class: f.class.value, ranged: f.ranged.checked }] })));
  return [list, add];
}

function armorForm(owned) {
  const h = owned.character;
  const f = form("armor", [
    field("Armor", input("name", { required: true, maxlength: "60", value: h.armor ? h.armor.name : "" })),
    field("Class", select("class", classes, h.armor ? h.armor.class : "light")),
    button("Wear"),
    ...(h.armor ? [button("Take off", "submit", "secondary")] : []),
  ], (fe, node, submitter) => {
    if (submitter && submitter.textContent === "Take off") return edit(h.name, { armor: "take-off" });
    return edit(h.name, { armor: { wear: { name: fe.name.value, class: fe.class.value } } });
  });
  // "Take off" needs no name.
  f.querySelectorAll("button").forEach((b) => {
    if (b.textContent === "Take off") b.formNoValidate = true;
  });
  return f;
}

function gearForms(owned) {
  const h = owned.character;
  const list = el("ul", undefined, "items");
  for (const g of h.gear) {
    const li = el("li", g.name + " (" + g.effect + ") ");
    li.appendChild(form("remove", [button("Remove " + g.name, "submit", "small")],
      () => edit(h.name, { remove_gear: [g.name] })));
    list.appendChild(li);
  }
  const add = clearing(form("add-gear", [
    field("Gear", input("name", { required: true, maxlength: "60" })),
    field("What it does", select("effect", [["reroll", "rerolls one die"], ["enables", "makes it possible"]], "reroll")),
    button("Add gear"),
  ], (f) => edit(h.name, { add_gear: [{ name: f.name.value, effect: f.effect.value }] })));
  const money = form("money", [
    field("Money", input("money", { type: "number", min: "0", max: "4294967295", value: String(h.money) })),
    button("Set money"),
  ], (f) => edit(h.name, { money: Number(f.money.value) }));
  return [list, add, money];
}

function backgroundForms(owned) {
  const h = owned.character;
  const out = [];
  if (h.unnamed_backgrounds > 0) out.push(nameEarned(owned, null));
  else out.push(el("p", "Backgrounds come from creation and advancement; a game master corrects them below.", "hint"));
  return out;
}

function advanceForms(owned) {
  const h = owned.character;
  const pts = owned.advancement_points || 0;
  const out = [el("p", pts + " advancement point" + (pts === 1 ? "" : "s") + ". A: a new background on an even d6. B: an attribute +1 if as many dice as its value all show even (at most 4).", "hint")];
  if (ctx.me.gm) {
    out.push(form("grant", [button("Grant a point")], async () => {
      await ctx.api("POST", path(h.name, "/grant"));
      ctx.emit("characters");
    }));
  }
  const result = resultBox(h.name + "/advance");
  const goal = select("goal", [["background", "A: a new background"], ["body", "B: Body +1"], ["mind", "B: Mind +1"], ["charm", "B: Charm +1"]], "background");
  out.push(form("advance", [
    field("Try for", goal),
    field("New background", input("background", { maxlength: "60" })),
    ...typedField("the dice of the attempt"),
    button("Spend a point and roll"),
    result,
  ], async (f) => {
    const body = {
      goal: f.goal.value === "background" ? { background: f.background.value } : { attribute: f.goal.value },
    };
    const typed = typedFaces(f);
    if (typed) body.typed = typed;
    const v = await ctx.api("POST", path(h.name, "/advance"), body);
    result.replaceChildren(ctx.diceRow(v.rolled.faces, { label: "advancement" }),
      el("span", v.success ? " success" : " no change", v.success ? "pass" : "fail"));
    ctx.emit("characters");
  }));
  return out;
}

function notesForm(owned) {
  const h = owned.character;
  const t = el("textarea");
  t.name = "notes";
  t.maxLength = 1000;
  t.rows = 3;
  t.value = h.notes;
  return form("notes", [field("Notes", t, "wide"), button("Save notes")], (f) => edit(h.name, { notes: f.notes.value }));
}

function correctionForms(owned) {
  const h = owned.character;
  const set = form("correct-attribute", [
    field("Attribute", select("attribute", ["body", "mind", "charm"], "body")),
    field("Value", input("value", { type: "number", min: "1", max: "4", value: String(h.body) })),
    button("Correct"),
  ], (f) => edit(h.name, { set: [[f.attribute.value, Number(f.value.value)]], correction: true }));
  const add = clearing(form("correct-add-background", [
    field("Background", input("name", { required: true, maxlength: "60" })),
    button("Add (correction)"),
  ], (f) => edit(h.name, { add_backgrounds: [f.name.value], correction: true })));
  const remove = form("correct-remove-background", [
    field("Background", select("name", h.backgrounds.length ? h.backgrounds : [["", "none"]])),
    button("Remove (correction)"),
  ], (f) => edit(h.name, { remove_backgrounds: [f.name.value], correction: true }));
  return [el("p", "A correction changes what only creation and advancement change; the journal marks it.", "hint"), set, add, remove];
}

// ---------------------------------------------------------------------------------------
// A check from the sheet (S1): attribute, background, weapon, gear; odds before the roll.

function checkForm(owned) {
  const h = owned.character;
  const odds = el("p", "", "odds");
  odds.setAttribute("aria-live", "polite");
  const result = resultBox(h.name + "/check");
  const none = [["", "none"]];
  const f = form("check", [
    field("Attribute", select("attribute", ["body", "mind", "charm"], "body")),
    field("Background", select("background", [...none, ...h.backgrounds])),
    field("Weapon", select("weapon", [...none, ...h.weapons.map((w) => w.name)])),
    field("Gear", select("gear", [...none, ...h.gear.map((g) => g.name)])),
    field("Gear reroll", select("gear_die", [["best", "the best die to reroll"], ["skip", "no reroll"]], "best")),
    field("Against", select("against", [["difficulty", "a difficulty"], ["opposed", "an opposing pool"]], "difficulty")),
    field("Difficulty or dice", input("number", { type: "number", min: "1", max: "30", value: "4", required: true })),
    ...(ctx.me.gm ? [field("Secret", input("secret", { type: "checkbox" }), "check")] : []),
    ...typedField("the pool, then any reroll and Rule-of-6 dice"),
    odds,
    button("Roll"),
    result,
  ], async (fe) => {
    const body = checkBody(fe);
    if (fe.secret && fe.secret.checked) body.secret = true;
    const typed = typedFaces(fe);
    if (typed) body.typed = typed;
    const v = await ctx.api("POST", path(h.name, "/check"), body);
    result.replaceChildren();
    if (v.result.own) {
      result.append(ctx.diceRow(v.result.own.dice, { best: v.result.own.result, label: h.name }));
      if (v.result.own.reroll) {
        const [at, from, to] = v.result.own.reroll;
        result.append(" " + fe.gear.value + " rerolled die " + at + ": " + from + " → " + to + " ");
      }
      if (v.result.own.chain.length) result.append(" Rule of 6: ", ctx.diceRow(v.result.own.chain));
    }
    if (v.result.opposition) result.append(" against ", ctx.diceRow(v.result.opposition.dice, { best: v.result.opposition.result, label: "opposition" }));
    const verdict = v.result.verdict || (v.result.passed ? "passed" : "failed");
    result.append(el("span", " " + (v.result.own ? v.result.own.result : "automatic") + " — " + verdict, v.result.passed ? "pass" : "fail"));
    if (fe.typed) fe.typed.value = "";
  });
  // The odds follow every keystroke, at most one request in flight.
  const show = refresher(async () => {
    // A character at 0 hit points cannot act: no odds to ask for.
    if (owned.out) {
      odds.textContent = h.name + " is out (0 hit points) and cannot roll: heal or rest first.";
      return;
    }
    // Nothing to ask while the number is being typed (empty or out of bounds).
    if (f.elements.number.value === "" || !f.elements.number.checkValidity()) {
      odds.textContent = "";
      return;
    }
    try {
      const o = await ctx.api("POST", path(h.name, "/odds"), checkBody(f.elements));
      let text = "Chance to " + (o.draw == null ? "pass" : "win") + ": " + ctx.pct(o.pass) + " (" + o.pass_exact + ")";
      if (o.draw != null) text += ", draw " + ctx.pct(o.draw) + ", lose " + ctx.pct(o.lose);
      odds.textContent = text;
      ctx.clearError(f);
    } catch (err) {
      odds.textContent = "";
      ctx.showError(f, err);
    }
  }, 120);
  f.addEventListener("input", show);
  f.addEventListener("change", show);
  // Shown when the part opens, before any roll.
  queueMicrotask(() => {
    const part = f.closest("details");
    if (part) {
      if (part.open) show();
      part.addEventListener("toggle", () => part.open && show());
    }
  });
  return f;
}

function checkBody(f) {
  const n = Number(f.number.value);
  const body = {
    attribute: f.attribute.value,
    against: f.against.value === "difficulty" ? { difficulty: n } : { opposed: { dice: n, gear: false } },
  };
  if (f.background.value) body.background = f.background.value;
  if (f.weapon.value) body.weapon = f.weapon.value;
  if (f.gear.value) body.gear = f.gear.value;
  if (f.gear.value && f.gear_die.value === "skip") body.gear_die = "skip";
  return body;
}

// ---------------------------------------------------------------------------------------
// Fast static combat (S11) from the sheet.

function staticBox(owned) {
  const h = owned.character;
  const box = el("div", undefined, "static");
  const state = resultBox(h.name + "/static");
  const foe = select("foe", [["", "…"]]);
  const f = form("static-fight", [
    field("Opposition", foe),
    field("Weapon", select("weapon", [["", "the best"], ...h.weapons.map((w) => w.name)])),
    field("Background", select("background", [["", "none"], ...h.backgrounds])),
    ...typedField("one die per round"),
    button("Fight"),
    button("Flee", "submit", "secondary"),
    state,
  ], async (fe, node, submitter) => {
    let v;
    if (submitter && submitter.textContent === "Flee") {
      v = await ctx.api("POST", path(h.name, "/static/abandon"), {});
    } else {
      const current = await ctx.api("GET", path(h.name, "/static"));
      const body = {};
      if (!current.fight) {
        body.foe = fe.foe.value;
        if (fe.weapon.value) body.weapon = fe.weapon.value;
      }
      if (fe.background.value) body.background = fe.background.value;
      const typed = typedFaces(fe);
      if (typed) body.typed = typed;
      v = await ctx.api("POST", path(h.name, "/static"), body);
    }
    showStatic(state, v);
    ctx.emit("characters");
  });
  box.appendChild(f);
  const part = () => box.closest("details");
  const fill = async () => {
    try {
      const list = await loadStatics();
      foe.replaceChildren(...list.map((s) => {
        const o = el("option", s.name + " (difficulty " + s.difficulty + ", " + s.hit_points + " HP, " + s.damage + " damage)");
        o.value = s.name;
        return o;
      }));
      const current = await ctx.api("GET", path(h.name, "/static"));
      if (current.fight) showStatic(state, current.fight);
    } catch (err) {
      ctx.showError(f, err);
    }
  };
  queueMicrotask(() => {
    const p = part();
    if (!p) return;
    if (p.open) fill();
    p.addEventListener("toggle", () => p.open && fill());
  });
  return box;
}

function showStatic(box, v) {
  box.replaceChildren();
  if (!v || !v.setup) return;
  const o = v.setup.opposition;
  box.appendChild(el("p", v.setup.hero + " (" + v.state.hit_points + " HP) against " + o.name + " (" + v.state.foe_hit_points + "/" + o.hit_points + " HP, difficulty " + o.difficulty + ")"));
  (v.rounds || []).forEach((r, i) => {
    const p = el("p", undefined, "round");
    const check = r.check || {};
    p.append("Round " + (i + 1) + ": ");
    if (check.roll && check.roll.dice) p.append(ctx.diceRow(check.roll.dice, { best: check.roll.result, label: "round " + (i + 1) }));
    p.append(" " + (check.passed ? "hit" : "hurt") + " — " + v.setup.hero + " " + r.hit_points + " HP, " + o.name + " " + r.foe_hit_points + " HP");
    box.appendChild(p);
  });
  if (v.outcome) box.appendChild(el("p", "Outcome: " + v.outcome, v.outcome === "won" ? "pass" : v.outcome === "lost" ? "fail" : ""));
  for (const od of v.odds || []) {
    if (od.p_win == null) continue;
    box.appendChild(el("p", "Chance to win from here" + (od.background ? " with " + od.background : "") + ": " + ctx.pct(od.p_win)));
  }
}

// ---------------------------------------------------------------------------------------
// The sibling systems' characters, as whole sheets (their rolls are the shell's panels).

const siblingViews = {
  classic: ["So1um (original)", (c) => c.hero.name, (c) => [
    ["Body", c.hero.body], ["Mind", c.hero.mind], ["Spirit", c.hero.spirit],
    ["Hit points", c.hero.hit_points + (c.dead ? " (dead)" : "")],
    ["Clichés", (c.hero.cliches || []).join(", ") || "none"], ["Gear", (c.hero.gear || []).join(", ") || "none"],
    ["Notes", c.hero.notes || ""],
  ]],
  sol: ["Project Sol", (c) => c.sheet.name, (c) => [
    ["Edge", c.sheet.edge.points + " / " + c.sheet.edge.attribute],
    ["Attributes", Object.entries(c.sheet.attributes || {}).map(([k, v]) => k + " " + v).join(", ")],
    ["Skills", (c.sheet.skills || []).map((k) => k.name + " " + k.ranks + (k.progress ? " (progress " + k.progress + ")" : "")).join(", ") || "none"],
    ["Trained this session", c.sheet.trained_this_session ? "yes" : "no"],
  ]],
  soluna: ["Sol'una", (c) => c.character.name, (c) => [
    ["Side", c.character.side], ["Mind", c.character.mind], ["Body", c.character.body], ["Shield", c.character.shield],
    ["Hit points", c.character.hit_points], ["Melee", c.character.melee], ["Ranged", c.character.ranged],
    ["Flips", c.character.flips + " (" + c.character.flips_per_test + " a test)"], ["Guard", c.character.guard],
    ["Extra dice", c.character.extra_dice + " (" + c.character.dice_per_test + " a test)"],
  ]],
  dietype: ["Die types", (c) => c.sheet.name, (c) => [
    ["Abilities", Object.entries(c.sheet.abilities || {}).map(([k, v]) => k + " " + v).join(", ")],
    ["Skills", Object.entries(c.sheet.skills || {}).map(([k, v]) => k + " " + v).join(", ") || "none"],
    ["Weapons", Object.entries(c.sheet.weapons || {}).map(([k, w]) => k + " " + w.die + (w.modifier ? (w.modifier > 0 ? "+" : "") + w.modifier : "")).join(", ") || "none"],
    ["Notes", c.sheet.notes || ""],
  ]],
};

/** What the API lets a member change on a sibling system's sheet, as forms. */
function siblingForms(system, c, name) {
  if (!mine(c)) return [];
  if (system === "classic") {
    return [clearing(form("classic-gear", [
      field("Gear", input("gear", { required: true, maxlength: "100" })),
      button("Give"),
      button("Take away", "submit", "secondary"),
    ], async (f, node, submitter) => {
      const take = submitter && submitter.textContent === "Take away";
      await ctx.api("POST", "/classic/characters/" + encodeURIComponent(name) + "/gear", take ? { remove: [f.gear.value] } : { add: [f.gear.value] });
      ctx.emit("characters");
      await loadSiblings();
    })), classicNotes(c, name)];
  }
  if (system === "sol" && ctx.me.gm) {
    return [form("sol-session", [
      button("New session (Edge refreshed, training allowed)"),
      button("New encounter", "submit", "secondary"),
    ], async (f, node, submitter) => {
      const what = submitter && submitter.textContent === "New encounter" ? "/encounter" : "/session";
      await ctx.api("POST", "/sol/characters/" + encodeURIComponent(name) + what);
      await loadSiblings();
    })];
  }
  return [];
}

/** The original hero's notes, written anew (the sheet's one free field). */
function classicNotes(c, name) {
  const notes = el("textarea");
  notes.name = "notes";
  notes.maxLength = 4000;
  notes.rows = 3;
  notes.value = c.hero.notes || "";
  return form("classic-notes", [field("Notes", notes, "wide"), button("Save notes")], async (f) => {
    await ctx.api("PATCH", "/classic/characters/" + encodeURIComponent(name), { notes: f.notes.value });
    await loadSiblings();
  });
}

function renderSiblings() {
  keepTyping(siblingBox, drawSiblings);
}

function drawSiblings() {
  siblingBox.replaceChildren();
  if (!siblings) return;
  for (const [system, [title, nameOf, rows]] of Object.entries(siblingViews)) {
    const list = siblings[system] || [];
    if (!list.length) continue;
    const part = el("section", undefined, "system");
    part.appendChild(el("h3", title));
    for (const c of list) {
      const card = el("article", undefined, "sheet");
      let name = "";
      try {
        name = nameOf(c);
      } catch {
        name = "?";
      }
      card.dataset.name = system + ":" + name;
      card.appendChild(el("h4", name));
      const dl = el("dl", undefined, "details");
      try {
        for (const [k, v] of rows(c)) dl.appendChild(statLine(k, String(v)));
      } catch {
        dl.appendChild(statLine("Sheet", JSON.stringify(c).slice(0, 300)));
      }
      card.appendChild(dl);
      card.append(...siblingForms(system, c, name));
      part.appendChild(card);
    }
    siblingBox.appendChild(part);
  }
}
