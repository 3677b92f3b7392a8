// The sibling systems' fights in the Other systems tab, by clicking: the original's fight
// of a hero against foes of its book (C2, C3: each exchange with its exact odds, a hit that
// waits for Body-or-hit-point, fleeing), the played Sol'una skirmish (U5: each waiting
// character's options as buttons with their odds, the phases rolled when nobody's decision
// is missing), and Project Sol's training, reward of Edge, new encounter and new session
// (P3). Each acts through the API's routes; the rules and the journal are the server's.
import { ctx } from "./ctx.js";

const el = (t, x, c) => ctx.el(t, x, c);
const pct = (p) => ctx.pct(p);
let root = null;
let siblings = { sol: [], classic: [], soluna: [], dietype: [] };

function mine(c) {
  if (!ctx.me) return false;
  if (ctx.me.gm) return true;
  const id = typeof ctx.me.member === "object" && ctx.me.member ? ctx.me.member.id : ctx.me.member;
  return c.owner != null && c.owner === id;
}

function button(text, onClick, cls) {
  const b = el("button", text, cls);
  b.type = "button";
  b.addEventListener("click", onClick);
  return b;
}

function labelled(text, control) {
  const l = el("label", text + " ");
  l.appendChild(control);
  return l;
}

function select(name, options) {
  const s = el("select");
  s.name = name;
  for (const [value, text] of options) s.appendChild(el("option", text)).value = value;
  return s;
}

// Runs an action of a section: its error in place (cleared on success), its buttons off
// while it runs.
async function act(section, fn) {
  const buttons = [...section.querySelectorAll("button")];
  buttons.forEach((b) => (b.disabled = true));
  try {
    await fn();
    ctx.clearError(section);
  } catch (err) {
    ctx.showError(section, err);
  } finally {
    buttons.forEach((b) => b.isConnected && (b.disabled = false));
  }
}

// ---------------------------------------------------------------------------------------
// The original's fight (So1um original, C2/C3).

let fightBox = null;
let fightForm = null;
let fightView = null;

const who = (w, view) => (w === "hero" ? view.hero : view.foes[w.foe] || "a foe");

function fightEvents(view) {
  const list = el("ul", undefined, "compact fight-events");
  for (const e of view.events || []) {
    let t = "";
    if (e.event === "exchange") {
      const winner = e.winner ? who(e.winner, view) + " wins" : "a tie";
      t = "Round " + e.round + ", " + (view.foes[e.foe] || "foe") + " attacks: " + winner;
    } else if (e.event === "decide") t = who(e.who, view) + " is hit: Body or a hit point?";
    else if (e.event === "hit") t = who(e.who, view) + " loses " + (e.loss === "body" ? "a point of Body" : "a hit point") + " (Body " + e.body + ", HP " + e.hit_points + ")";
    else if (e.event === "death") t = who(e.who, view) + " is dead";
    else if (e.event === "end") t = e.hero_won ? view.hero + " wins the fight" : view.hero + " loses the fight";
    else if (e.event === "abandoned") t = view.hero + " flees";
    else t = e.event;
    list.appendChild(el("li", t));
  }
  return list;
}

function drawFight() {
  const state = fightBox.querySelector(".fight-state");
  state.replaceChildren();
  const v = fightView;
  if (!v) {
    state.appendChild(el("p", "No fight under way for this hero."));
    fightForm.hidden = false;
    previewFight();
    return;
  }
  const s = v.status;
  fightForm.hidden = !s.over;
  if (s.over) previewFight();
  const foes = v.foes.map((f, i) => f + " (Body " + s.foes[i][0] + ", HP " + s.foes[i][1] + ")").join(", ");
  state.appendChild(el("p", (s.over ? "Fight over" : "Round " + s.round) + " · " + v.hero + ": Body " + s.hero[0] + ", HP " + s.hero[1] + " · against " + foes, "fight-line"));
  if (v.p_win != null) state.appendChild(el("p", "Chance to win this duel, worked out when it began: " + pct(v.p_win), "odds-line"));
  if (v.rolled && v.rolled.faces && v.rolled.faces.length) state.appendChild(ctx.diceRow(v.rolled.faces, { label: "fight" }));
  if (v.events) state.appendChild(fightEvents(v));
  if (s.over) {
    state.appendChild(el("p", s.abandoned ? v.hero + " fled." : s.hero_won ? v.hero + " won." : v.hero + " lost.", s.hero_won ? "pass" : "fail"));
    return;
  }
  const buttons = el("div", undefined, "choices");
  const hero = v.hero;
  const path = "/classic/characters/" + encodeURIComponent(hero) + "/fight";
  const call = (body) => act(fightBox, async () => {
    fightView = await ctx.api("POST", path, body);
    drawFight();
  });
  if (s.pending) {
    state.appendChild(el("p", who(s.pending.who, v) + " is hit (Body " + s.pending.body + ", HP " + s.pending.hit_points + "): lose a hit point or a point of Body (C2)?"));
    buttons.append(
      button("Lose a hit point", () => call({ decide: "hit-point" })),
      button("Lose a point of Body", () => call({ decide: "body" }), "secondary"),
    );
  } else if (v.next) {
    const n = v.next;
    let text = "Next: " + (v.foes[n.foe] || "a foe") + " attacks, " + n.dice[0] + " dice against " + n.dice[1] + ": win " + pct(n.odds.win) + ", tie " + pct(n.odds.tie) + ", lose " + pct(n.odds.lose);
    if (n.p_win_fight != null) text += " · the fight from here " + pct(n.p_win_fight);
    state.appendChild(el("p", text, "odds-line"));
    buttons.append(button("Roll the exchange", () => call({})));
  }
  buttons.append(button("Flee", () => act(fightBox, async () => {
    const body = s.pending ? { decide: "hit-point" } : {};
    fightView = await ctx.api("POST", path + "/abandon", body);
    drawFight();
  }), "secondary"));
  state.appendChild(buttons);
}

async function loadFight() {
  const hero = fightForm.elements.hero.value;
  if (!hero) {
    fightView = null;
    drawFight();
    return;
  }
  const got = await ctx.api("GET", "/classic/characters/" + encodeURIComponent(hero) + "/fight");
  // A fight under way reads as the state of a call (without events of its own); a fight
  // that just ended is no longer kept, but its last call stays in view.
  const ended = fightView && fightView.hero === hero && fightView.status.over;
  if (got.fight) fightView = { ...got.fight, events: [] };
  else if (!ended) fightView = null;
  // Read again: a failure of an earlier read (shown in the box) is past.
  ctx.clearError(fightBox);
  drawFight();
}

// The book's creatures and sample heroes, loaded once: the foes a fight may name.
let book = null;
// The foes picked for the next fight, in turn order.
let chosenFoes = ["Goblin"];
const statLine = (h) => "Body " + h.body + ", Mind " + h.mind + ", Spirit " + h.spirit + ", HP " + h.hit_points;

function drawFoes() {
  const list = fightBox.querySelector(".chosen-foes");
  list.replaceChildren();
  chosenFoes.forEach((name, i) => {
    const li = el("li", name + " ");
    li.appendChild(button("Remove", () => {
      chosenFoes.splice(i, 1);
      drawFoes();
      previewFight();
    }, "secondary small")).setAttribute("aria-label", "Remove " + name + " (foe " + (i + 1) + ")");
    list.appendChild(li);
  });
  if (!chosenFoes.length) list.appendChild(el("li", "No foe picked yet."));
  fightForm.querySelector("button.start").disabled = !chosenFoes.length;
}

function fightBody(f) {
  const body = { foes: chosenFoes.slice() };
  if (f.stat.value) body.stat = f.stat.value;
  if (f.policy.value) body.policy = f.policy.value;
  return body;
}

// The exact odds before the first exchange of the fight the form would start (nothing is
// rolled); shown while no fight is under way.
const previewFight = ctx.coalesce(async () => {
  const line = fightBox.querySelector(".fight-preview");
  const hero = fightForm.elements.hero.value;
  const sheet = siblings.classic.find((c) => c.hero.name === hero);
  if (!hero || !chosenFoes.length || fightForm.hidden) {
    line.textContent = "";
    return;
  }
  // Dead by the sheet, or by the fight that just ended (the list may not have caught up).
  const fell = fightView && fightView.hero === hero && fightView.status.over && fightView.status.hero.includes(0);
  if ((sheet && sheet.dead) || fell) {
    line.textContent = hero + " is dead and cannot fight.";
    return;
  }
  try {
    const v = await ctx.api("POST", "/classic/characters/" + encodeURIComponent(hero) + "/fight/odds", fightBody(fightForm.elements));
    const n = v.next;
    let text = "Before the first exchange: " + v.hero + " rolls " + n.dice[0] + (n.dice[0] === 1 ? " die" : " dice") + ", " + v.foes[n.foe] + " " + n.dice[1]
      + " · win " + pct(n.odds.win) + ", tie " + pct(n.odds.tie) + ", lose " + pct(n.odds.lose);
    if (v.p_win != null) text += " · the whole duel " + pct(v.p_win);
    line.textContent = text;
  } catch (err) {
    // Said in the preview line, not the fight's error box (which holds the last action's
    // refusal): a preview set off by another member's move can find the hero fighting or
    // fallen before this page has heard of it; the next refresh draws the fight.
    line.textContent = "Odds: " + (err.message || String(err));
  }
});

async function loadBook() {
  if (book) return;
  book = await ctx.api("GET", "/classic/book");
  const pick = fightForm.querySelector("select[name=creature]");
  pick.replaceChildren();
  for (const [group, list] of [["Creatures of the book", book.monsters], ["Sample heroes", book.heroes]]) {
    const g = el("optgroup");
    g.label = group;
    for (const h of list) g.appendChild(el("option", h.name + " (" + statLine(h) + ")")).value = h.name;
    pick.appendChild(g);
  }
}

function classicFight() {
  fightBox = el("section", undefined, "sys sys-classic sub-panel");
  fightBox.id = "classic-fight";
  fightBox.setAttribute("aria-labelledby", "classic-fight-title");
  fightBox.hidden = true;
  const h = el("h3", "Fight (the original: C2, C3)");
  h.id = "classic-fight-title";
  fightForm = el("form");
  fightForm.id = "classic-fight-start";
  const hero = select("hero", []);
  const creature = select("creature", [["Goblin", "Goblin"]]);
  const add = button("Add foe", () => {
    if (chosenFoes.length >= 100) return;
    chosenFoes.push(creature.value);
    drawFoes();
    previewFight();
  }, "secondary");
  const chosen = el("ol", undefined, "compact chosen-foes");
  chosen.setAttribute("aria-label", "Foes, in turn order");
  const stat = select("stat", [["", "Body"], ["mind", "Mind"], ["spirit", "Spirit"]]);
  const policy = select("policy", [["", "ask at each hit"], ["survive", "to survive"], ["hit-points", "hit points first"], ["body", "Body first"]]);
  const go = el("button", "Start the fight", "start");
  const preview = el("p", "", "odds-line fight-preview");
  preview.setAttribute("aria-live", "polite");
  fightForm.append(labelled("Hero", hero), labelled("Creature", creature), add, chosen, labelled("Stat", stat), labelled("Hits are taken", policy), preview, go);
  hero.addEventListener("change", () => loadFight().catch((err) => ctx.showError(fightBox, err)));
  stat.addEventListener("change", () => previewFight());
  policy.addEventListener("change", () => previewFight());
  ctx.form(fightForm, async (f) => {
    fightView = await ctx.api("POST", "/classic/characters/" + encodeURIComponent(f.hero.value) + "/fight", fightBody(f));
    drawFight();
  });
  const state = el("div", undefined, "fight-state");
  state.setAttribute("aria-live", "polite");
  fightBox.append(h, fightForm, state);
  drawFoes();
  return fightBox;
}

// The original's rest (C2): 1 hit point per 8 hours, 1 Body per day, hours banked on the
// sheet until they make a point.
let restBox = null;

function classicRest() {
  restBox = el("section", undefined, "sys sys-classic sub-panel");
  restBox.id = "classic-rest";
  restBox.setAttribute("aria-labelledby", "classic-rest-title");
  restBox.hidden = true;
  const h = el("h3", "Rest (C2)");
  h.id = "classic-rest-title";
  const f = el("form");
  const hero = select("hero", []);
  const hours = el("input");
  hours.name = "hours";
  hours.type = "number";
  hours.min = "0.25";
  hours.max = "8760";
  hours.step = "0.25";
  hours.value = "8";
  hours.required = true;
  const done = el("p", "", "result-line");
  done.setAttribute("role", "status");
  f.append(labelled("Hero", hero), labelled("Hours of rest", hours), el("button", "Rest"));
  ctx.form(f, async (form) => {
    const v = await ctx.api("POST", "/classic/characters/" + encodeURIComponent(form.hero.value) + "/rest", { hours: Number(form.hours.value) });
    const hh = v.sheet.hero;
    const healed = v.healed || [0, 0];
    done.textContent = hh.name + " rested " + form.hours.value + " hours: " + healed[0] + " hit point(s) and " + healed[1] + " Body healed · now " + statLine(hh)
      + (hh.rest_toward_hit_point ? " · " + hh.rest_toward_hit_point + " hours toward the next hit point" : "");
  });
  restBox.append(h, el("p", "A hit point heals per 8 hours of rest, a point of Body per day; hours add up across rests until they make a point."), f, done);
  return restBox;
}

// ---------------------------------------------------------------------------------------
// The played Sol'una skirmish (U5).

let skirmishBox = null;
let skirmish = null;
let lastEvents = [];

function skirmishEvents(names, events) {
  const list = el("ul", undefined, "compact skirmish-events");
  const n = (i) => names[i] || "?";
  for (const e of events) {
    let t;
    if (e.event === "phase") t = "Turn " + e.turn + ", phase " + e.phase;
    else if (e.event === "attack") t = n(e.attacker) + (e.melee ? " strikes " : " shoots ") + n(e.target) + ": " + e.damage + " damage";
    else if (e.event === "damaged") t = n(e.character) + " takes " + e.amount + " (HP " + e.hit_points + ")";
    else if (e.event === "out") t = n(e.character) + " is out";
    else if (e.event === "engaged") t = n(e.mover) + " engages " + n(e.target);
    else if (e.event === "over") t = "Over: " + (e.winner ? e.winner + " stands" : "nobody stands");
    else t = e.event + (e.character !== undefined ? ": " + n(e.character) : "");
    list.appendChild(el("li", t));
  }
  return list;
}

function drawSkirmish() {
  const state = skirmishBox.querySelector(".skirmish-state");
  const start = skirmishBox.querySelector("#soluna-skirmish-start");
  state.replaceChildren();
  const open = skirmish && !skirmish.skirmish.over;
  start.hidden = !(ctx.me && ctx.me.gm) || Boolean(open);
  if (!skirmish) {
    state.appendChild(el("p", "No skirmish under way."));
    return;
  }
  const sk = skirmish.skirmish;
  const names = skirmish.names;
  state.appendChild(el("p", sk.over ? "Skirmish over after " + sk.over.turns + " turns: " + (sk.over.winner ? sk.over.winner + " stands" : "nobody stands") : "Turn " + sk.turn + ", phase " + sk.phase + " of 10", "fight-line"));
  const table = el("table", undefined, "fighters");
  table.appendChild(el("caption", "Characters"));
  const head = el("tr");
  for (const t of ["Character", "Side", "Hit points", "Flips", "Played by"]) {
    const th = el("th", t);
    th.scope = "col";
    head.appendChild(th);
  }
  const thead = el("thead");
  thead.appendChild(head);
  table.appendChild(thead);
  const body = el("tbody");
  sk.characters.forEach((c, i) => {
    const row = el("tr");
    if (!c.hit_points) row.classList.add("out");
    const th = el("th", c.name);
    th.scope = "row";
    row.append(th, el("td", c.side), el("td", String(c.hit_points)), el("td", String(c.flips)), el("td", sk.auto[i] ? "the tactic" : "a player"));
    body.appendChild(row);
  });
  table.appendChild(body);
  state.appendChild(table);
  if (sk.engaged.length) state.appendChild(el("p", "Engaged: " + sk.engaged.map(([a, b]) => names[a] + " – " + names[b]).join("; ")));
  if (lastEvents.length) state.appendChild(skirmishEvents(names, lastEvents));
  if (sk.over) {
    if (ctx.me && ctx.me.gm) state.appendChild(button("Clear the finished skirmish", () => skirmishCall("/soluna/skirmish/abandon", undefined)));
    return;
  }
  if (skirmish.waiting.length) state.appendChild(el("p", "Waiting for: " + skirmish.waiting.join(", ")));
  const flips = el("input");
  flips.type = "number";
  flips.min = "0";
  flips.max = "1000";
  flips.value = "0";
  flips.name = "skirmish-flips";
  const choices = el("div", undefined, "choices");
  const own = new Set(siblings.soluna.filter(mine).map((c) => c.character.name));
  for (const o of skirmish.options) {
    if (!own.has(o.name)) continue;
    let text = o.action === "move" ? o.name + " moves to " + o.target : o.name + (o.ranged ? " shoots " : " strikes ") + o.target;
    if (o.odds) text += " — damage " + pct(o.odds.p_damage) + ", out " + pct(o.odds.p_out);
    const b = button(text, () => {
      const body = { name: o.name, action: o.action, target: o.target };
      if (o.action === "attack") {
        body.ranged = o.ranged;
        body.flips = Math.min(Number(flips.value || 0), o.most_flips);
      }
      return skirmishCall("/soluna/skirmish/act", body);
    }, "choice");
    b.dataset.name = o.name;
    choices.appendChild(b);
  }
  if (choices.children.length) {
    state.appendChild(labelled("Flips to spend on an attack", flips));
    state.appendChild(choices);
  }
  if (ctx.me && ctx.me.gm) {
    const gm = el("div", undefined, "choices");
    if (skirmish.ready) gm.appendChild(button("Roll the phase", () => skirmishCall("/soluna/skirmish/go", {})));
    gm.appendChild(button("Abandon the skirmish", () => skirmishCall("/soluna/skirmish/abandon", undefined), "secondary"));
    state.appendChild(gm);
  }
}

function skirmishCall(path, body) {
  return act(skirmishBox, async () => {
    const v = await ctx.api("POST", path, body);
    lastEvents = v.events || [];
    // An abandoned skirmish is gone (its sheets keep the wounds); the answer shows how it stood.
    skirmish = path.endsWith("/abandon") ? null : v.state || null;
    drawSkirmish();
  });
}

async function loadSkirmish() {
  const got = await ctx.api("GET", "/soluna/skirmish");
  skirmish = got.skirmish;
  drawSkirmish();
}

function drawStartList() {
  const list = skirmishBox.querySelector(".skirmish-pick");
  list.replaceChildren();
  for (const c of siblings.soluna) {
    const name = c.character.name;
    const row = el("div", undefined, "pick-row");
    const fights = el("input");
    fights.type = "checkbox";
    fights.name = "fighter";
    fights.value = name;
    fights.checked = true;
    const auto = el("input");
    auto.type = "checkbox";
    auto.name = "auto";
    auto.value = name;
    const a = el("label", undefined, "check-box");
    a.append(fights, " " + name + " (" + c.character.side + ")");
    const b = el("label", undefined, "check-box");
    b.append(auto, " the tactic plays " + name);
    row.append(a, b);
    list.appendChild(row);
  }
}

function solunaSkirmish() {
  skirmishBox = el("section", undefined, "sys sys-soluna sub-panel");
  skirmishBox.id = "soluna-skirmish";
  skirmishBox.setAttribute("aria-labelledby", "soluna-skirmish-title");
  skirmishBox.hidden = true;
  const h = el("h3", "Skirmish (U4, U5)");
  h.id = "soluna-skirmish-title";
  const start = el("form");
  start.id = "soluna-skirmish-start";
  start.hidden = true;
  const fs = el("fieldset");
  fs.appendChild(el("legend", "Who fights"));
  const pick = el("div", undefined, "skirmish-pick");
  fs.appendChild(pick);
  start.append(fs, el("button", "Start the skirmish"));
  ctx.form(start, async (f, node) => {
    const names = [...node.querySelectorAll("input[name=fighter]:checked")].map((i) => i.value);
    const auto = [...node.querySelectorAll("input[name=auto]:checked")].map((i) => i.value).filter((n) => names.includes(n));
    const v = await ctx.api("POST", "/soluna/skirmish", { names, auto });
    lastEvents = v.events || [];
    skirmish = v.state;
    drawSkirmish();
  });
  const state = el("div", undefined, "skirmish-state");
  state.setAttribute("aria-live", "polite");
  skirmishBox.append(h, start, state);
  return skirmishBox;
}

// ---------------------------------------------------------------------------------------
// Project Sol: training a skill (P3, the character's player or the game master), and the
// game master's reward of Edge, new encounter and new session.

let solBox = null;

function solSkills() {
  const name = solBox.querySelector("select[name=sol-who]").value;
  const c = siblings.sol.find((x) => x.sheet.name === name);
  ctx.fillSelect(solBox.querySelector("select[name=sol-skill]"), c ? c.sheet.skills.map((k) => k.name + "") : []);
  // Not Dead Yet lowers the highest physical attribute; only a tie needs a choice.
  const phys = c ? Object.entries(c.sheet.attributes).filter(([k]) => ["BOD", "AGI", "REA", "STR"].includes(k.toUpperCase())) : [];
  const top = Math.max(0, ...phys.map(([, v]) => v));
  const tied = phys.filter(([, v]) => v === top).map(([k]) => k);
  const pick = solBox.querySelector("select[name=sol-physical]");
  ctx.fillSelect(pick, tied.length > 1 ? tied : []);
  pick.closest("label").hidden = tied.length < 2;
  for (const node of solBox.querySelectorAll(".sol-gm")) node.hidden = !(ctx.me && ctx.me.gm);
}

function solTraining() {
  solBox = el("section", undefined, "sys sys-sol sub-panel");
  solBox.id = "sol-sessions";
  solBox.setAttribute("aria-labelledby", "sol-sessions-title");
  const h = el("h3", "Training, Edge and sessions (P3)");
  h.id = "sol-sessions-title";
  const who = select("sol-who", []);
  const skill = select("sol-skill", []);
  who.addEventListener("change", solSkills);
  const done = el("p", "", "result-line");
  done.setAttribute("role", "status");
  const call = (what, body, text) => act(solBox, async () => {
    const name = who.value;
    const v = await ctx.api("POST", "/sol/characters/" + encodeURIComponent(name) + "/" + what, body);
    done.textContent = name + ": " + text(v);
  });
  const train = button("Train the next rank", () => call("train", { skill: skill.value }, (v) => v.trained.skill + " trained to " + v.trained.ranks + " ranks (cost rating " + v.trained.cost + ")"));
  const gm = el("div", undefined, "choices sol-gm");
  gm.append(
    button("Reward a point of Edge", () => call("reward", undefined, (v) => "Edge " + v.edge.points + " of " + v.edge.attribute), "secondary"),
    button("New encounter", () => call("encounter", undefined, () => "a new encounter"), "secondary"),
    button("New session", () => call("session", undefined, () => "a new session: Edge refreshed, training allowed"), "secondary"),
  );
  const use = select("sol-spend", [["blitz", "Blitz (REA + INT dice to initiative)"], ["seize-the-initiative", "Seize the Initiative"], ["dead-mans-trigger", "Dead Man's Trigger (BOD + WIL (3))"]]);
  const dice = el("div", undefined, "sol-dice");
  const spend = button("Spend a point of Edge", () => act(solBox, async () => {
    const name = who.value;
    const v = await ctx.api("POST", "/sol/characters/" + encodeURIComponent(name) + "/spend", { what: use.value });
    const o = v.spend;
    let text = name + " spends a point of Edge (" + v.edge.points + " of " + v.edge.attribute + " left): ";
    if (o.what === "blitz") text += o.bonus_dice + " bonus dice to the initiative test";
    else if (o.what === "seize-the-initiative") text += "top of the initiative order this round";
    else {
      const t = o.trigger;
      text += "BOD + WIL (3): " + t.hits + " hits, " + (t.success ? "one last action before blacking out" : "blacks out");
    }
    dice.replaceChildren();
    if (v.rolled && v.rolled.faces.length) dice.appendChild(ctx.diceRow(v.rolled.faces, { label: "trigger" }));
    done.textContent = text;
  }));
  const physical = select("sol-physical", []);
  const ndy = button("Not Dead Yet (burn Edge)", () => act(solBox, async () => {
    const name = who.value;
    const ok = await ctx.confirm("Not Dead Yet", name + " burns a point of Edge for good and the highest physical attribute drops by 1.", "Burn it", "Keep it");
    if (!ok) return;
    const v = await ctx.api("POST", "/sol/characters/" + encodeURIComponent(name) + "/not-dead-yet", { attribute: physical.value || null });
    dice.replaceChildren();
    done.textContent = name + " is not dead yet: " + v.lowered.attribute + " " + v.lowered.from + " → " + v.lowered.to + ", Edge " + v.edge.points + " of " + v.edge.attribute;
  }), "secondary");
  solBox.append(
    h,
    el("p", "One training a session: the next rank of a skill, its cost rating the new rank × 2, its progress cleared. A new encounter lets a skill earn a progress point again; a new session refreshes Edge and allows training."),
    labelled("Character", who),
    labelled("Skill", skill),
    train,
    el("h4", "Edge outside a test (P2)"),
    labelled("Spend on", use),
    spend,
    labelled("On a tie, lower", physical),
    ndy,
    gm,
    done,
    dice,
  );
  return solBox;
}

// ---------------------------------------------------------------------------------------

/** The table's sibling characters changed: the pickers follow. */
export function update(next) {
  siblings = next;
  if (!root) return;
  const heroes = siblings.classic.filter(mine).map((c) => c.hero.name);
  const before = fightForm.elements.hero.value;
  ctx.fillSelect(fightForm.elements.hero, heroes);
  ctx.fillSelect(restBox.querySelector("select[name=hero]"), heroes);
  if (heroes.length) loadBook().catch((err) => ctx.showError(fightBox, err));
  if (fightForm.elements.hero.value !== before || !fightView) loadFight().catch((err) => ctx.showError(fightBox, err));
  ctx.fillSelect(solBox.querySelector("select[name=sol-who]"), siblings.sol.filter(mine).map((c) => c.sheet.name));
  solSkills();
  drawStartList();
  drawSkirmish();
}

/** A journal entry of a sibling system: the fight or the skirmish may have moved. */
export const refresh = ctx.coalesce(async () => {
  if (!root) return;
  await Promise.all([loadFight(), loadSkirmish()]);
});

/** Adds the fights' sections to the Other systems panel. */
export function mount(panel) {
  root = panel;
  // Beside the rolls, above the forms that make new characters.
  panel.querySelector(".result").after(classicFight(), classicRest(), solunaSkirmish(), solTraining());
  ctx.applyRole(panel);
  loadSkirmish().catch((err) => ctx.showError(skirmishBox, err));
}
