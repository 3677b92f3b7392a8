// Vehicles & chases (S10) and the odds of a fight, in the Combat tab: two piloted vehicles
// (a pool typed or a character of the table; a vehicle of the catalogue or its ratings), the
// exact odds before the roll (read again on every change), the roll with every die, and a
// simulation of the open combat or of chosen heroes against foes of the bestiary. Each
// action is one call of the API; the roll lands in the feed through the live stream.
import { ctx } from "./ctx.js";

const el = ctx.el;
const SPEEDS = ["slow", "average", "fast", "lightning-fast"];
const HANDLINGS = ["clumsy", "average", "responsive", "exceptional"];

let root = null;
let form = null;
let oddsLine = null;
let result = null;
let characters = [];
let catalogue = [];
let oddsSeq = 0;

function labelled(text, control) {
  const label = el("label", text + " ");
  label.appendChild(control);
  return label;
}

function select(id, options) {
  const s = el("select");
  s.id = id;
  s.name = id;
  for (const [value, text] of options) s.appendChild(el("option", text)).value = value;
  return s;
}

function number(id, value, min, max) {
  const n = el("input");
  n.type = "number";
  n.id = id;
  n.name = id;
  n.min = String(min);
  n.max = String(max);
  n.value = String(value);
  return n;
}

function text(id, placeholder) {
  const t = el("input");
  t.type = "text";
  t.id = id;
  t.name = id;
  t.maxLength = 100;
  t.autocomplete = "off";
  if (placeholder) t.placeholder = placeholder;
  return t;
}

// One side's fieldset: who flies (a pool or a character) and what (a vehicle or ratings).
function side(prefix, legend) {
  const set = el("fieldset", undefined, "vehicle-side");
  set.appendChild(el("legend", legend));
  const who = select(prefix + "who", [["pool", "a pool typed"]]);
  const pool = number(prefix + "pilot", 3, 1, 1000);
  const background = text(prefix + "background", "a background of the sheet");
  const vehicle = select(prefix + "vehicle", [["", "by its ratings"]]);
  const speed = select(prefix + "speed", SPEEDS.map((s) => [s, s]));
  speed.value = "average";
  const handling = select(prefix + "handling", HANDLINGS.map((h) => [h, h]));
  handling.value = "average";
  set.append(
    labelled("Pilot", who),
    labelled("Pool (Mind + background)", pool),
    labelled("Background", background),
    labelled("Vehicle", vehicle),
    labelled("Speed", speed),
    labelled("Handling", handling),
  );
  return set;
}

// A player flies only their own characters, on either side (the server refuses another
// member's: the game master rolls those); a game master any of the table's.
function ownCharacter(c) {
  if (!ctx.me || ctx.me.gm) return true;
  const id = typeof ctx.me.member === "object" && ctx.me.member ? ctx.me.member.id : ctx.me.member;
  return c.owner != null && c.owner === id;
}

function fillSides() {
  const names = characters.filter(ownCharacter).map((c) => c.character.name);
  for (const prefix of ["veh-", "veh-against-"]) {
    const who = form.querySelector("#" + prefix + "who");
    ctx.fillSelect(who, names.map((n) => n), { value: "pool", label: "a pool typed" });
    const vehicle = form.querySelector("#" + prefix + "vehicle");
    ctx.fillSelect(vehicle, catalogue.map((v) => v.name), { value: "", label: "by its ratings" });
  }
  showFields();
}

// A character hides the pool; a catalogue vehicle hides the ratings; an attack hides speed.
function showFields() {
  const attack = form.elements["veh-kind"].value === "attack";
  for (const prefix of ["veh-", "veh-against-"]) {
    const character = form.elements[prefix + "who"].value !== "pool";
    form.elements[prefix + "pilot"].parentElement.hidden = character;
    form.elements[prefix + "background"].parentElement.hidden = !character;
    const named = form.elements[prefix + "vehicle"].value !== "";
    form.elements[prefix + "speed"].parentElement.hidden = named || attack;
    form.elements[prefix + "handling"].parentElement.hidden = named;
  }
}

// The request body of the form (the app's VehicleRollInput, plus `secret` for a roll).
function body(withDice) {
  const f = form.elements;
  const attack = f["veh-kind"].value === "attack";
  const out = {};
  for (const [prefix, key] of [["veh-", ""], ["veh-against-", "against_"]]) {
    const who = f[prefix + "who"].value;
    if (who === "pool") out[key + "pilot"] = Number(f[prefix + "pilot"].value);
    else {
      out[key + "character"] = who;
      const bg = f[prefix + "background"].value.trim();
      if (bg) out[key + "background"] = bg;
    }
    const vehicle = f[prefix + "vehicle"].value;
    if (vehicle) out[key + "vehicle"] = vehicle;
    else {
      if (!attack) out[key + "speed"] = f[prefix + "speed"].value;
      out[key + "handling"] = f[prefix + "handling"].value;
    }
  }
  if (f["veh-roll-off"].checked) out.roll_off = true;
  if (withDice) {
    const mine = ctx.typedFaces(f["veh-rolled"]);
    const theirs = ctx.typedFaces(f["veh-against-rolled"]);
    if (mine) out.rolled = mine;
    if (theirs) out.against_rolled = theirs;
    if (f["veh-secret"].checked) out.secret = true;
  }
  return out;
}

function kindPath() {
  return form.elements["veh-kind"].value === "attack" ? "/vehicles/attack" : "/vehicles/chase";
}

// The odds before the roll, read again on every change (the last answer wins).
async function odds() {
  const mine = ++oddsSeq;
  try {
    const o = await ctx.api("POST", kindPath() + "/odds", body(false));
    if (mine !== oddsSeq) return;
    ctx.clearError(oddsLine.parentElement);
    oddsLine.replaceChildren(
      o.pool + " dice against " + o.against_pool + ":  win ",
      ctx.odds(o.p_win, o.p_win_exact),
      "  draw ",
      ctx.odds(o.p_draw, o.p_draw_exact),
      "  lose ",
      ctx.odds(o.p_lose, o.p_lose_exact),
    );
    if (o.bonus.length || o.against_bonus.length) {
      oddsLine.append(
        el("span", " (" + [
          o.bonus.length ? "you: +" + o.bonus.join(", +") : "",
          o.against_bonus.length ? "against: +" + o.against_bonus.join(", +") : "",
        ].filter((x) => x).join("; ") + ")", "why"),
      );
    }
  } catch (err) {
    if (mine !== oddsSeq) return;
    oddsLine.replaceChildren();
    ctx.showError(oddsLine.parentElement, err);
  }
}

let oddsTimer = null;
function oddsSoon() {
  clearTimeout(oddsTimer);
  oddsTimer = setTimeout(odds, 120);
}

/** A roll's dice and verdict, as the page and the feed show it. */
export function rollView(v) {
  const box = el("div", undefined, "vehicle-roll");
  const sideLine = (who, dice, chain, res) => {
    const p = el("p", who + " ");
    p.appendChild(ctx.diceRow(dice, { best: Math.max(...dice), label: who }));
    if (chain && chain.length) p.append(" Rule of 6 ", ctx.diceRow(chain, { label: who + " chain" }));
    p.append(" result " + res);
    return p;
  };
  box.append(
    sideLine(v.character || v.vehicle || "You", v.dice, v.chain, v.result),
    sideLine(v.against_character || v.against_vehicle || "Against", v.against_dice, v.against_chain, v.against_result),
  );
  for (const [a, b] of v.roll_off || []) box.appendChild(el("p", "Roll-off " + a + " vs " + b));
  const verdict = el("p", v.verdict, "verdict " + v.outcome);
  verdict.setAttribute("role", "status");
  box.appendChild(verdict);
  if (v.hull_damage) {
    box.appendChild(el("p", v.hull_damage.damage + " damage to the hull: " + v.hull_damage.hull + " → " + v.hull_damage.hull_left));
  }
  return box;
}

async function roll(elements) {
  const v = await ctx.api("POST", kindPath(), body(true));
  if (v.seq && elements["veh-secret"].checked) ctx.remember(v.seq);
  result.replaceChildren(
    el("p", (v.kind === "chase" ? "Chase" : "Vehicle attack") + " — chance to win was " + ctx.pct(v.p_win)),
    rollView(v),
  );
  elements["veh-rolled"].value = "";
  elements["veh-against-rolled"].value = "";
}

// ---- The odds of a fight ----

let fightForm = null;
let fightResult = null;

function fightView(v) {
  const box = el("div", undefined, "fight-odds");
  box.append(
    el("p", v.heroes + " against " + v.foes + " (" + v.names.join(", ") + "), " + v.fights + " fights"),
    el("p", "Heroes win " + ctx.pct(v.win_rate) + " (95% interval " + ctx.pct(v.win_rate_95[0]) + " to " + ctx.pct(v.win_rate_95[1]) + ")", "verdict"),
    el("p", "Foes win " + ctx.pct(v.losses / v.fights) + (v.undecided ? "; undecided " + v.undecided : "")),
    el("p", "Rounds " + v.mean_rounds.toFixed(2) + " on average; hit points left: heroes " + v.mean_hero_hit_points_left.toFixed(2) + ", foes " + v.mean_foe_hit_points_left.toFixed(2)),
    el("p", "seed " + v.seed, "seed"),
  );
  return box;
}

function fightPanel() {
  const section = el("section", undefined, "fight-odds-panel");
  section.appendChild(el("h3", "Odds of a fight"));
  const current = el("button", "Odds of this fight", "");
  current.type = "button";
  current.id = "fight-odds-current";
  fightForm = el("form");
  fightForm.id = "fight-odds";
  const heroes = text("fight-heroes", "Nick, Osric");
  const foe = select("fight-foe", []);
  const count = number("fight-count", 1, 1, 100);
  const fights = number("fight-fights", 5000, 1, 20000);
  const go = el("button", "Simulate");
  fightForm.append(
    labelled("Heroes (the table's characters)", heroes),
    labelled("Foe", foe),
    labelled("How many", count),
    labelled("Fights (at most 20,000)", fights),
    go,
  );
  fightResult = el("div");
  fightResult.id = "fight-odds-result";
  fightResult.setAttribute("aria-live", "polite");
  current.addEventListener("click", async () => {
    current.disabled = true;
    try {
      const v = await ctx.api("POST", "/fight/odds", { current_combat: true, fights: Number(fights.value) || 5000 });
      ctx.clearError(section);
      fightResult.replaceChildren(fightView(v));
    } catch (err) {
      fightResult.replaceChildren();
      ctx.showError(section, err);
    } finally {
      current.disabled = false;
    }
  });
  ctx.form(fightForm, async (f) => {
    const names = f["fight-heroes"].value.split(",").map((n) => n.trim()).filter((n) => n);
    const v = await ctx.api("POST", "/fight/odds", {
      heroes: names,
      foes: f["fight-foe"].value ? [{ name: f["fight-foe"].value, count: Number(f["fight-count"].value) || 1 }] : [],
      fights: Number(f["fight-fights"].value) || 5000,
    });
    fightResult.replaceChildren(fightView(v));
  }, fightResult);
  section.append(current, fightForm, fightResult);
  return section;
}

// ---- Mounting ----

function build() {
  const section = el("section", undefined, "vehicles");
  section.id = "vehicles";
  section.appendChild(el("h3", "Vehicles & chases"));
  form = el("form");
  form.id = "vehicle-roll";
  const kind = select("veh-kind", [["chase", "Chase (speed and handling)"], ["attack", "Vehicle attack (handling only)"]]);
  const rollOff = el("input");
  rollOff.type = "checkbox";
  rollOff.id = rollOff.name = "veh-roll-off";
  const secret = el("input");
  secret.type = "checkbox";
  secret.id = secret.name = "veh-secret";
  const secretLabel = labelled("Secret", secret);
  secretLabel.classList.add("gm-only");
  const mine = text("veh-rolled", "real dice: 3 5 6");
  const theirs = text("veh-against-rolled", "real dice: 2 4");
  const typed = el("div", undefined, "typed-only");
  typed.append(labelled("Your dice", mine), labelled("Their dice", theirs));
  oddsLine = el("p", undefined, "odds-line");
  oddsLine.id = "veh-odds";
  oddsLine.setAttribute("aria-live", "polite");
  const oddsBox = el("div");
  oddsBox.appendChild(oddsLine);
  const go = el("button", "Roll");
  go.id = "veh-roll";
  form.append(labelled("Roll", kind), side("veh-", "You"), side("veh-against-", "Against"), labelled("Draws rolled off", rollOff), typed, secretLabel, oddsBox, go);
  result = el("div", undefined, "vehicle-result");
  result.id = "veh-result";
  result.setAttribute("aria-live", "polite");
  form.addEventListener("input", () => {
    showFields();
    oddsSoon();
  });
  form.addEventListener("change", () => {
    showFields();
    oddsSoon();
  });
  ctx.form(form, roll, result);
  section.append(form, result, fightPanel());
  return section;
}

// The catalogue and the bestiary when the section mounts; the table's characters (for a
// pilot) only once someone reaches for the pilot choice, so a reload of the page costs no
// extra fetch of the characters.
const load = ctx.coalesce(async () => {
  const [list, bestiary] = await Promise.all([ctx.api("GET", "/vehicles"), ctx.api("GET", "/bestiary")]);
  catalogue = list.vehicles;
  fillSides();
  ctx.fillSelect(fightForm.elements["fight-foe"], bestiary.creatures.map((c) => c.name), { value: "", label: "none" });
  odds();
});

let wantCharacters = false;
const loadCharacters = ctx.coalesce(async () => {
  characters = await ctx.api("GET", "/characters");
  fillSides();
});

/** Adds the section to the Combat tab's panel (after the combat tracker). */
export function mount(container) {
  root = build();
  container.appendChild(root);
  ctx.applyRole(root);
  load();
  form.addEventListener("focusin", (e) => {
    if (!wantCharacters && e.target.id && e.target.id.endsWith("who")) {
      wantCharacters = true;
      loadCharacters();
    }
  });
  ctx.on("characters", () => {
    if (wantCharacters) loadCharacters();
  });
}
