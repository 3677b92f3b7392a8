// The Other systems tab: the sibling systems' characters of the table (Project Sol, the
// original So1um, Sol'una, Solum die types), created and rolled through their own use
// cases; every die drawn is shown, with the chance the rules gave before the roll.
import { ctx } from "./ctx.js";
import * as fights from "./fights.js";

let root = null;
const $ = (id) => root.querySelector("#" + id);
const pct = (p) => ctx.pct(p);
const diceRow = (f, o) => ctx.diceRow(f, o);
const el = (t, x, c) => ctx.el(t, x, c);
const fillSelect = (s, n, k) => ctx.fillSelect(s, n, k);
const api = (m, p, b) => ctx.api(m, p, b);
const typedFaces = (i) => ctx.typedFaces(i);
const remember = (seq) => ctx.remember(seq);
let me = null;
// A form's handler; its error shows beside it; the result below is cleared when it fails.
function form(id, handler) {
  ctx.form($(id), handler, [$("sibling-dice"), $("sibling-verdict")]);
}


let siblings = { sol: [], classic: [], soluna: [], dietype: [] };
const siblingName = {
  sol: (c) => c.sheet.name,
  classic: (c) => c.hero.name,
  soluna: (c) => c.character.name,
  dietype: (c) => c.sheet.name,
};
const siblingLine = {
  sol: (c) => "Edge " + c.sheet.edge.points + "/" + c.sheet.edge.attribute + " · " + Object.entries(c.sheet.attributes).map(([k, v]) => k + " " + v).join(", ")
    + " · " + c.sheet.skills.map((k) => k.name + " " + k.ranks).join(", "),
  classic: (c) => "Body " + c.hero.body + ", Mind " + c.hero.mind + ", Spirit " + c.hero.spirit + " · HP " + c.hero.hit_points
    + " · " + (c.hero.cliches.join(", ") || "no clichés") + (c.dead ? " (dead)" : ""),
  soluna: (c) => "side " + c.character.side + " · Mind " + c.character.mind + ", Body " + c.character.body + ", HP " + c.character.hit_points
    + " · melee " + c.character.melee + ", ranged " + c.character.ranged + " · flips " + c.character.flips,
  dietype: (c) => Object.entries(c.sheet.abilities).map(([k, v]) => k + " " + v).join(", ")
    + " · " + (Object.entries(c.sheet.skills).map(([k, v]) => k + " " + v).join(", ") || "no skills"),
};
// The Sol'una sheet's numbers, every one of them editable.
const solunaFields = ["mind", "body", "shield", "hit_points", "melee", "ranged", "flips", "guard", "flips_per_test", "extra_dice", "dice_guard", "dice_per_test"];
// The edit form shows the picked character's sheet as it is now.
// Filled again only when another character is picked or its sheet changed, so a refresh
// never overwrites what is being typed.
let solunaFilled = null;
function fillSoluna() {
  const f = $("soluna-edit").elements;
  const c = siblings.soluna.find((x) => x.character.name === f.character.value);
  if (!c || solunaFilled === c.character.name + "@" + c.version) return;
  solunaFilled = c.character.name + "@" + c.version;
  f.side.value = c.character.side;
  for (const k of solunaFields) f[k].value = c.character[k];
}
function showSiblings() {
  const system = $("sibling-system").elements.system.value;
  for (const node of root.querySelectorAll("#sibling-panel .sys")) {
    node.hidden = !node.classList.contains("sys-" + system) || (node.classList.contains("gm-only") && !ctx.me.gm);
  }
  const list = $("sibling-characters");
  list.replaceChildren();
  for (const c of siblings[system]) {
    const li = el("li");
    li.appendChild(el("strong", siblingName[system](c)));
    li.appendChild(el("span", " " + siblingLine[system](c)));
    list.appendChild(li);
  }
  if (!siblings[system].length) list.appendChild(el("li", "No character of this system at the table yet."));
  const mine = siblings[system].filter((c) => ctx.me.gm || c.owner === me.member.id).map(siblingName[system]);
  const roll = { sol: "sol-test", classic: "classic-check", soluna: "soluna-test", dietype: "dietype-roll" }[system];
  fillSelect($(roll).elements.character, mine);
  if (system === "dietype") fillSelect($("dietype-edit").elements.character, mine);
  if (system === "soluna") {
    fillSelect($("soluna-edit").elements.character, mine);
    fillSoluna();
  }
}
let siblingsShown = false;
async function loadSiblings() {
  siblings = await api("GET", "/systems/characters");
  // At first, the panel opens on a system the table plays (one with characters), if any.
  const select = $("sibling-system").elements.system;
  if (!siblingsShown && !siblings[select.value].length) {
    const played = Object.keys(siblingName).find((k) => siblings[k].length);
    if (played) select.value = played;
  }
  siblingsShown = true;
  fights.update(siblings);
  showSiblings();
}
// "CHA 3, AGI 2" as [["CHA", 3], ["AGI", 2]]; the value is a number or a die type.
function pairs(text, number) {
  return text.split(",").map((s) => s.trim()).filter((s) => s).map((s) => {
    const at = s.lastIndexOf(" ");
    if (at < 1) throw new Error("Write each as a name and a value, like: " + (number ? "CHA 3" : "Strength d8"));
    const value = s.slice(at + 1);
    return [s.slice(0, at).trim(), number ? Number(value) : value];
  });
}
/** "Dagger d4+1, Bow d6" as the die-type sheet's weapons: a name, a die, a modifier. */
function weapons(text) {
  return text.split(",").map((s) => s.trim()).filter((s) => s).map((s) => {
    const m = /^(.*\S)\s+(d\d+)\s*([+-]\s*\d+)?$/i.exec(s);
    if (!m) throw new Error("Write each weapon as a name and a die, like: Dagger d4+1");
    return [m[1], { die: m[2].toLowerCase(), modifier: m[3] ? Number(m[3].replace(/\s/g, "")) : 0 }];
  });
}
function siblingResult(dice, text, passed) {
  $("sibling-dice").replaceChildren(diceRow(dice, { label: "roll" }));
  $("sibling-verdict").textContent = text;
  $("sibling-verdict").className = passed === undefined || passed === null ? "" : passed ? "pass" : "fail";
}
const num = (input) => (input.value === "" ? null : Number(input.value));
function rolledBy(f, path, body) {
  body.secret = f.secret.checked;
  // Real dice, where the table lets this member type them (a game master alone at it).
  const typed = typedFaces(f.typed);
  if (typed) body.typed = typed;
  return api("POST", path.replace("NAME", encodeURIComponent(f.character.value)), body).then((v) => {
    if (body.secret) remember(v.seq);
    f.typed.value = "";
    return v;
  });
}
const chance = (p) => (p == null ? "" : " (chance before the roll " + pct(p) + ")");
function setup() {
$("soluna-edit").elements.character.addEventListener("change", fillSoluna);
$("sibling-system").elements.system.addEventListener("change", () => {
  // A result belongs to the system it was rolled in.
  $("sibling-dice").replaceChildren();
  $("sibling-verdict").textContent = "";
  showSiblings();
});
form("sol-test", async (f) => {
  const v = await rolledBy(f, "/sol/characters/NAME/test", {
    skill: f.skill.value, attribute: f.attribute.value, threshold: num(f.threshold),
    edge: f.edge.value || null, then: f.then.value || null, assist: null, against: null,
  });
  const t = v.test || {};
  let text = v.name + ": " + v.pool.dice + " dice, " + t.hits + " hits";
  if (t.success != null) text += t.success ? ", success" : ", failure";
  if (t.critical_glitch) text += ", critical glitch"; else if (t.glitch) text += ", glitch";
  siblingResult(v.rolled.faces, text + chance(v.p_success), t.success);
  await loadSiblings();
});
form("sol-new", async (f, node) => {
  await api("POST", "/sol/characters", { name: f.name.value, edge: Number(f.edge.value), attributes: pairs(f.attributes.value, true), skills: pairs(f.skills.value, true) });
  node.reset();
  await loadSiblings();
});
form("classic-check", async (f) => {
  const v = await rolledBy(f, "/classic/characters/NAME/check", {
    stat: f.stat.value, cliche: f.cliche.value || null, difficulty: num(f.difficulty), gear: f.gear.checked,
  });
  const text = v.name + ": highest " + v.check.highest + " against " + v.check.difficulty + " (" + v.difficulty_name + "), " + (v.check.passed ? "passed" : "failed");
  siblingResult(v.rolled.faces, text + chance(v.p_pass), v.check.passed);
});
form("classic-new", async (f, node) => {
  const cliches = f.cliches.value.split(",").map((s) => s.trim()).filter((s) => s);
  const v = await api("POST", "/classic/characters", { name: f.name.value, cliches });
  node.reset();
  const h = v.sheet.hero;
  // Creation step by step (C1): each stat's dice as rolled and what the sheet got from them.
  const steps = el("ol", undefined, "compact creation-steps");
  const step = (label, faces, result) => {
    const li = el("li", label + ": ");
    li.appendChild(diceRow(faces, { label }));
    li.appendChild(el("span", " → " + result));
    steps.appendChild(li);
  };
  const c = v.creation;
  if (c) {
    step("Body, 3d6, even dice", c.body, "Body " + h.body);
    step("Mind, 3d6, even dice", c.mind, "Mind " + h.mind);
    step("Spirit, 3d6, even dice", c.spirit, "Spirit " + h.spirit);
    step("Hit points, Body + even dice of 2d6", c.hit_points, h.hit_points + " hit points");
    step("Clichés, 1 + even dice of 2d6", c.cliches, h.cliches.length ? "named: " + h.cliches.join(", ") : "none named yet");
  }
  $("sibling-dice").replaceChildren(steps);
  $("sibling-verdict").textContent = h.name + " is rolled up: " + siblingLine.classic(v.sheet);
  $("sibling-verdict").className = "";
  await loadSiblings();
});
form("soluna-test", async (f) => {
  const v = await rolledBy(f, "/soluna/characters/NAME/test", {
    attack: f.attack.value, flips: Number(f.flips.value || 0), against: Number(f.against.value || 0), target: num(f.target),
  });
  let text = v.name + ": largest group " + v.result.largest + " of " + v.result.face + "s";
  if (v.result.flips.length) text += " after " + v.result.flips.length + " flip(s): " + v.result.faces.join(" ");
  if (v.result.passed != null) text += v.result.passed ? ", reaches " + v.request.target : ", short of " + v.request.target;
  siblingResult(v.rolled.faces, text + chance(v.p_target), v.result.passed);
});
form("soluna-new", async (f, node) => {
  const n = (name) => Number(f[name].value || 0);
  await api("POST", "/soluna/characters", {
    name: f.name.value, side: f.side.value, mind: n("mind"), body: n("body"), shield: n("shield"),
    hit_points: n("hit_points"), melee: n("melee"), ranged: n("ranged"), flips: n("flips"),
  });
  node.reset();
  await loadSiblings();
});
form("dietype-roll", async (f) => {
  const v = await rolledBy(f, "/dietype/characters/NAME/roll", {
    ability: f.ability.value, skill: f.skill.value || null, step: Number(f.step.value || 0),
    against: { difficulty: Number(f.difficulty.value) }, weapon: null, damage_step: 0,
  });
  const sk = v.result.skill || {};
  const text = v.name + ": " + v.inputs.die + " × " + v.inputs.chances + ", quality " + sk.quality + (sk.quality > 0 ? ", success" : ", failure");
  siblingResult(v.rolled.faces, text + chance(v.p_success), sk.quality > 0);
});
form("soluna-edit", async (f) => {
  const c = siblings.soluna.find((x) => x.character.name === f.character.value);
  const sheet = { ...(c ? c.character : {}), name: f.character.value, side: f.side.value };
  for (const k of solunaFields) sheet[k] = Number(f[k].value || 0);
  const v = await api("PATCH", "/soluna/characters/" + encodeURIComponent(f.character.value), sheet);
  const now = v.characters[0];
  $("sibling-dice").replaceChildren();
  $("sibling-verdict").textContent = now.character.name + "'s sheet now: " + siblingLine.soluna(now) + " · acts in phases " + now.phases.join(", ");
  $("sibling-verdict").className = "";
  await loadSiblings();
});
form("dietype-edit", async (f) => {
  // Only what is filled in changes; the sheet is checked whole by the server.
  const edit = {};
  if (f.abilities.value.trim()) edit.abilities = pairs(f.abilities.value, false);
  if (f.skills.value.trim()) edit.skills = pairs(f.skills.value, true);
  if (f.weapons.value.trim()) edit.weapons = weapons(f.weapons.value);
  for (const k of ["remove_abilities", "remove_skills", "remove_weapons"]) {
    const names = f[k].value.split(",").map((s) => s.trim()).filter((s) => s);
    if (names.length) edit[k] = names;
  }
  if (f.notes.value.trim()) edit.notes = f.notes.value;
  const v = await api("PATCH", "/dietype/characters/" + encodeURIComponent(f.character.value), edit);
  for (const k of ["abilities", "skills", "weapons", "remove_abilities", "remove_skills", "remove_weapons", "notes"]) f[k].value = "";
  $("sibling-dice").replaceChildren();
  $("sibling-verdict").textContent = v.sheet.sheet.name + "'s sheet now: " + siblingLine.dietype(v.sheet) + (v.sheet.sheet.notes ? " · " + v.sheet.sheet.notes : "");
  $("sibling-verdict").className = "";
  await loadSiblings();
});
form("dietype-new", async (f, node) => {
  await api("POST", "/dietype/characters", { name: f.name.value, abilities: pairs(f.abilities.value, false), skills: pairs(f.skills.value, true) });
  node.reset();
  await loadSiblings();
});
}

/** True when the table has characters of a sibling system (the tab is shown then). */
export async function used() {
  await loadedOnce;
  return Object.values(siblings).some((l) => l.length);
}

let loadedOnce = null;
const refresh = ctx.coalesce(() => loadSiblings());

/** Renders the Other systems tab. */
export function mount(container) {
  root = container;
  me = ctx.me;
  container.replaceChildren(ctx.template("systems"));
  ctx.applyRole(container);
  fights.mount($("sibling-panel"));
  setup();
  loadedOnce = loadSiblings().catch((err) => ctx.showError($("sibling-panel"), err));
  ctx.on("entry", (entry) => {
    if (["sol", "classic", "soluna", "dietype", "reveal"].includes(entry.kind)) {
      refresh();
      if (entry.kind === "classic" || entry.kind === "soluna") fights.refresh();
    }
  });
}
