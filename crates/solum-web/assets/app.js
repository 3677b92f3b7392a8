// The web table's page. Every piece of user text goes into the page with textContent or a
// form value, never as markup: a name or a note that looks like HTML stays text.
"use strict";

const $ = (id) => document.getElementById(id);
let token = localStorage.getItem("solum.token");
// The session held when an invite link was opened: a join sends it, and the server asks
// (409 session-held) before the member switches tables.
let held = null;
let me = null;
let characters = [];

async function request(method, path, body) {
  const headers = {};
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (token) headers["Authorization"] = "Bearer " + token;
  const resp = await fetch("/api" + path, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!resp.ok) {
    const data = await resp.json().catch(() => ({}));
    const error = new Error(data.error || resp.statusText);
    error.code = data.code;
    throw error;
  }
  return resp;
}

async function api(method, path, body) {
  return (await request(method, path, body)).json();
}

function say(error) {
  $("error").textContent = error ? String(error.message || error) : "";
}

function el(tag, text, cls) {
  const node = document.createElement(tag);
  if (text !== undefined) node.textContent = text;
  if (cls) node.className = cls;
  return node;
}

// Dice as dice: one square per face, the chosen one marked.
function diceRow(faces, opts = {}) {
  const row = el("span", undefined, "dice");
  faces.forEach((face, i) => {
    const die = el("span", String(face), "die");
    if (opts.best !== undefined && face === opts.best) die.classList.add("best");
    if (opts.label) die.setAttribute("aria-label", opts.label + " die " + (i + 1) + ": " + face);
    row.appendChild(die);
  });
  return row;
}

function pct(p) {
  return (100 * p).toFixed(p > 0.999 || p < 0.001 ? 2 : 1) + "%";
}

function checkText(name, c) {
  const against = c.inputs.check.against;
  const vs = against.difficulty !== undefined
    ? "difficulty " + against.difficulty
    : "an opposing pool of " + against.opposed.dice;
  const own = c.result.own ? c.result.own.result : "auto";
  const verdict = c.result.verdict ? c.result.verdict : c.result.passed ? "passed" : "failed";
  const rollOff = c.result.roll_off && c.result.roll_off.length
    ? " (rolled off: " + c.result.roll_off.map((p) => p[0] + " vs " + p[1]).join(", ") + ")"
    : "";
  return name + " checks " + c.inputs.check.attribute + " against " + vs + ": " + own + " — " + verdict + rollOff;
}

function describe(entry) {
  switch (entry.kind) {
    case "note": return "Note: " + entry.text;
    case "scene-start": return "Scene: " + entry.title + (entry.goal ? " — " + entry.goal : "");
    case "scene-end": return "Scene ends" + (entry.summary ? ": " + entry.summary : "");
    case "oracle": {
      // "yes-but" is said "Yes, but".
      const words = String((entry.outcome || {}).answer || "").split("-");
      const answer = words.map((w, i) => (i === 0 ? w.charAt(0).toUpperCase() + w.slice(1) : w)).join(", ");
      return "Oracle (" + entry.leaning + "): " + entry.question + " → " + answer;
    }
    case "idea": return "Idea: " + (entry.words || []).join(", ");
    case "reveal": return "Revealed (secret entry #" + entry.of + "): " + describe(entry.record || {});
    case "notation": return "Roll " + entry.canonical + " = " + entry.total;
    case "combat": {
      const ch = entry.change || {};
      if (ch.line) return "Combat " + entry.combat + ": " + ch.line.line.line + ((ch.line.text || []).length ? " — " + ch.line.text.join(" ") : "");
      return "Combat " + entry.combat + ": " + (Object.keys(ch)[0] || "changed");
    }
    case "character": {
      const ch = entry.change || {};
      if (ch.check) return checkText(entry.name, ch.check);
      const what = Object.keys(ch)[0] || "changed";
      return entry.name + ": " + what;
    }
    case "sol": case "classic": case "soluna": case "dietype": {
      // The sibling systems: who, and what happened (a test, a check, a roll, a creation).
      const ch = entry.change || {};
      const what = typeof ch === "string" ? ch : Object.keys(ch)[0] || "changed";
      const who = entry.name || (ch[what] && ch[what].character && ch[what].character.name) || "";
      return systemNames[entry.kind] + ": " + (who ? who + " — " : "") + what;
    }
    default: {
      const text = JSON.stringify(entry);
      return entry.kind + ": " + (text.length > 300 ? text.slice(0, 300) + "…" : text);
    }
  }
}

const systemNames = { sol: "Project Sol", classic: "So1um (original)", soluna: "Sol'una", dietype: "Die types" };
// The dice of a sibling system's entry, wherever its change keeps them.
function siblingFaces(entry) {
  const ch = entry.change;
  if (!ch || typeof ch !== "object") return null;
  const inner = Object.values(ch)[0];
  return inner && inner.rolled && Array.isArray(inner.rolled.faces) ? inner.rolled : null;
}

function line(entry) {
  const li = el("li");
  li.dataset.seq = String(entry.seq);
  li.appendChild(el("span", "#" + entry.seq + " ", "seq"));
  li.appendChild(el("span", describe(entry), "text"));
  const check = entry.kind === "character" && entry.change && entry.change.check;
  if (check && check.result.own) li.appendChild(diceRow(check.result.own.dice, { best: check.result.own.result }));
  if (entry.kind === "oracle" && entry.outcome && Array.isArray(entry.outcome.dice)) {
    li.appendChild(diceRow(entry.outcome.dice, { best: entry.outcome.die }));
  }
  if (entry.kind === "notation") li.appendChild(notationDice(entry.terms));
  const sibling = systemNames[entry.kind] ? siblingFaces(entry) : null;
  if (sibling && sibling.faces.length) li.appendChild(diceRow(sibling.faces));
  const rolled = check ? check.rolled : sibling || entry.rolled;
  if (rolled && rolled.typed) li.appendChild(el("span", "real dice", "tag typed"));
  // The server marks a game master's secret entries (a player never receives one).
  if (entry.secret) {
    li.classList.add("secret");
    li.prepend(el("span", "secret ", "tag"));
    li.appendChild(revealButton(entry.seq));
  }
  return li;
}

// A game master shows the table a secret entry: what it does to a sheet happens now.
function revealButton(seq) {
  const button = el("button", "Reveal", "reveal");
  button.type = "button";
  button.addEventListener("click", async () => {
    say(null);
    button.disabled = true;
    try {
      show(await api("POST", "/journal/" + seq + "/reveal"));
      button.remove();
      await loadSiblings();
    } catch (err) {
      button.disabled = false;
      say(err);
    }
  });
  return button;
}

function show(entry) {
  const journal = $("journal");
  if (journal.querySelector('li[data-seq="' + entry.seq + '"]')) return;
  journal.appendChild(line(entry));
  if (entry.kind === "character") loadCharacters().catch(say);
  if (entry.kind === "combat") loadCombat().catch(say);
  if (["sol", "classic", "soluna", "dietype"].includes(entry.kind)) loadSiblings().catch(say);
}

function listen() {
  // EventSource reconnects by itself and sends Last-Event-ID: the server catches up.
  const source = new EventSource("/api/events?token=" + encodeURIComponent(token));
  source.addEventListener("entry", (e) => show(JSON.parse(e.data)));
}

function fillSelect(select, names, keep) {
  const old = select.value;
  select.replaceChildren();
  if (keep) select.appendChild(el("option", keep.label)).value = keep.value;
  for (const n of names) select.appendChild(el("option", n)).value = n;
  if ([...select.options].some((o) => o.value === old)) select.value = old;
}

async function loadCharacters() {
  characters = await api("GET", "/characters");
  const list = $("characters");
  list.replaceChildren();
  for (const c of characters) {
    const h = c.character;
    const li = el("li");
    li.appendChild(el("strong", h.name));
    li.appendChild(el("span", " Body " + h.body + ", Mind " + h.mind + ", Charm " + h.charm
      + " · HP " + h.hit_points + "/" + c.max_hit_points + (c.out ? " (out)" : "")
      + " · " + (h.backgrounds.join(", ") || "no backgrounds")
      + " · " + h.weapons.map((w) => w.name).join(", ")));
    if (h.notes) li.appendChild(el("em", " " + h.notes));
    list.appendChild(li);
  }
  const mine = characters.filter((c) => me.member.role === "gm" || c.owner === me.member.id);
  fillSelect($("check").elements.character, mine.map((c) => c.character.name));
  fillSelect($("edit-character").elements.character, mine.map((c) => c.character.name));
  backgrounds();
  showOdds().catch(() => {});
}

function backgrounds() {
  const f = $("check").elements;
  const c = characters.find((x) => x.character.name === f.character.value);
  fillSelect(f.background, c ? c.character.backgrounds : [], { label: "none", value: "" });
}

function checkBody() {
  const f = $("check").elements;
  const n = Number(f.number.value);
  const body = {
    attribute: f.attribute.value,
    against: f.against.value === "difficulty" ? { difficulty: n } : { opposed: { dice: n, gear: false } },
  };
  if (f.background.value) body.background = f.background.value;
  if (f.roll_off.checked && f.against.value === "opposed") body.roll_off = true;
  return body;
}

// The exact odds, shown before the roll and again whenever the check changes.
async function showOdds() {
  const name = $("check").elements.character.value;
  if (!name) {
    $("odds").textContent = "Create a character to roll a check.";
    return;
  }
  const odds = await api("POST", "/characters/" + encodeURIComponent(name) + "/odds", checkBody());
  let text = "Chance to " + (odds.draw == null ? "pass" : "win") + ": " + pct(odds.pass) + " (" + odds.pass_exact + ")";
  if (odds.draw != null) text += ", draw " + pct(odds.draw) + ", lose " + pct(odds.lose);
  $("odds").textContent = text;
}

async function enter() {
  me = await api("GET", "/me");
  $("who").textContent = me.table_name + " — " + me.member.name + " (" + (me.member.role === "gm" ? "game master" : "player") + ")";
  $("signin").hidden = true;
  $("table").hidden = false;
  $("logout").hidden = false;
  for (const node of document.querySelectorAll(".gm-only")) node.hidden = me.member.role !== "gm";
  // A game master alone at the table may roll real dice and type the faces in.
  for (const node of document.querySelectorAll(".typed-only")) node.hidden = !me.may_type_dice;
  await loadCharacters();
  await loadCombat();
  await loadSiblings();
  // The roll box's odds are there before its first roll.
  drawOdds($("odds-form").elements).catch(() => {});
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
    const button = e.target.querySelector("button:not([type=button])");
    if (button) button.disabled = true;
    try {
      await handler(e.target.elements, e.target);
    } catch (err) {
      say(err);
    } finally {
      if (button) button.disabled = false;
    }
  });
}

form("create", (f) => api("POST", "/tables", { table: f.table.value, name: f.name.value }).then(signedIn));
form("join", async (f) => {
  const invite = new URLSearchParams(location.hash.slice(1)).get("invite");
  const body = { invite, name: f.name.value };
  // Sent with the session held, if any: joining another table while signed in is asked
  // first, never done silently.
  token = held;
  try {
    return await signedIn(await api("POST", "/join", body));
  } catch (err) {
    if (err.code !== "session-held") throw err;
    if (!confirm(err.message + "\n\nSwitch to the invited table? Your session at the other table ends in this browser.")) {
      // Stay where you were: the invite is left unused.
      history.replaceState(null, "", "/");
      $("join").hidden = true;
      $("signin").hidden = true;
      return await enter();
    }
    return await signedIn(await api("POST", "/join", { ...body, replace: true }));
  } finally {
    if (!me) token = null;
  }
});
// Faces typed in from real dice, in the order the rule draws them; none: the server rolls.
function typedFaces(input) {
  const words = input.value.split(/[\s,]+/).filter((w) => w);
  if (!words.length) return undefined;
  const faces = words.map(Number);
  if (faces.some((n) => !Number.isInteger(n) || n < 1)) throw new Error("Real dice: type the faces as whole numbers, like 3 5 6");
  return faces;
}

form("check", async (f) => {
  const body = checkBody();
  body.secret = f.secret.checked;
  const typed = typedFaces(f.typed);
  if (typed) body.typed = typed;
  const name = f.character.value;
  const view = await api("POST", "/characters/" + encodeURIComponent(name) + "/check", body);
  if (body.secret) remember(view.seq);
  const dice = $("dice");
  dice.replaceChildren();
  if (view.result.own) {
    dice.appendChild(el("span", name + ": "));
    dice.appendChild(diceRow(view.result.own.dice, { best: view.result.own.result, label: name }));
    if (view.result.own.chain.length) {
      dice.appendChild(el("span", " Rule of 6: "));
      dice.appendChild(diceRow(view.result.own.chain));
    }
  }
  if (view.result.opposition) {
    dice.appendChild(el("span", " against: "));
    dice.appendChild(diceRow(view.result.opposition.dice, { best: view.result.opposition.result, label: "opposition" }));
  }
  f.typed.value = "";
  $("verdict").textContent = (body.secret ? "Secret: " : "") + (typed ? "Real dice: " : "") + checkText(name, view);
  $("verdict").className = view.result.passed ? "pass" : "fail";
});
for (const name of ["character", "attribute", "background", "against", "number", "roll_off"]) {
  $("check").elements[name].addEventListener("change", () => {
    if (name === "character") backgrounds();
    showOdds().catch(say);
  });
}
form("ask", async (f) => {
  const secret = f.secret.checked;
  const body = { question: f.question.value, leaning: f.leaning.value, secret };
  const typed = typedFaces(f.typed);
  if (typed) body.typed = typed;
  const view = await api("POST", "/oracle", body);
  f.typed.value = "";
  if (secret) remember(view.seq);
  let text = (secret ? "Secret: " : "") + view.answer + " (" + pct(view.p_answer) + ")";
  if (view.event) text += " — event: " + view.event;
  if (view.disposition) text += " — disposition: " + view.disposition;
  $("answer").textContent = text;
  $("oracle-dice").replaceChildren(diceRow(view.dice, { best: view.die, label: "oracle" }));
  f.question.value = "";
});
// The exact distribution of any dice expression, as bars (heights set through the CSSOM,
// which the page's policy allows; no markup, no inline style).
// The odds are drawn before any roll: on the form's button, and a moment after the
// expression changes.
let oddsTimer = null;
$("odds-form").elements.expression.addEventListener("input", () => {
  clearTimeout(oddsTimer);
  oddsTimer = setTimeout(() => { if ($("odds-form").elements.expression.value.trim()) drawOdds($("odds-form").elements).catch(say); }, 400);
});
form("odds-form", (f) => drawOdds(f));
// One die of a rolled expression: every face, a rerolled face struck, an explosion joined,
// a dropped die faded.
function notationDice(terms) {
  const row = el("div", undefined, "terms");
  for (const t of terms || []) {
    const part = el("span", undefined, "term");
    part.appendChild(el("span", t.term + (t.label ? " [" + t.label + "]" : "") + ": ", "term-name"));
    const dice = el("span", undefined, "dice");
    for (const d of t.dice || []) {
      for (const f of d.faces || []) {
        const die = el("span", String(f.value), "die");
        if (!d.kept) die.classList.add("dropped");
        if (f.note) die.classList.add(f.note);
        die.title = f.note ? f.note : d.kept ? "kept" : "dropped";
        dice.appendChild(die);
      }
    }
    part.appendChild(dice);
    if (!(t.dice || []).length) part.appendChild(el("span", String(t.value)));
    row.appendChild(part);
  }
  return row;
}
$("roll-expression").addEventListener("click", async () => {
  const f = $("odds-form").elements;
  say(null);
  const button = $("roll-expression");
  button.disabled = true;
  try {
    if (!f.expression.value.trim()) throw new Error("Dice: type an expression, like 3d6 or 4d6kh3");
    const body = { expression: f.expression.value, secret: f.secret.checked };
    const typed = typedFaces(f.typed);
    if (typed) body.typed = typed;
    // The odds first: a player sees the chances of what they roll before the dice fall.
    if (oddsOf !== f.expression.value) await drawOdds(f);
    const view = await api("POST", "/roll", body);
    f.typed.value = "";
    if (body.secret) remember(view.seq);
    $("expression-dice").replaceChildren(notationDice(view.terms));
    markTotal(view.total);
    $("expression-total").textContent = (body.secret ? "Secret: " : "") + (typed ? "Real dice: " : "") + view.canonical + " = " + view.total;
  } catch (err) {
    say(err);
  } finally {
    button.disabled = false;
  }
});
async function drawOdds(f) {
  const view = await api("POST", "/odds", { expression: f.expression.value });
  const chart = $("chart");
  chart.replaceChildren();
  const top = Math.max(...view.outcomes.map((o) => o.p));
  const shown = view.outcomes.length > 80 ? view.outcomes.filter((o) => o.p >= top / 200) : view.outcomes;
  for (const o of shown) {
    const bar = el("div", undefined, "bar");
    bar.title = o.value + ": " + pct(o.p) + " (" + o.exact + ")";
    bar.dataset.value = String(o.value);
    bar.setAttribute("aria-label", bar.title);
    const fill = el("span", undefined, "fill");
    fill.style.height = (100 * o.p / top).toFixed(1) + "%";
    bar.appendChild(fill);
    bar.appendChild(el("span", String(o.value), "value"));
    chart.appendChild(bar);
  }
  let text = view.expression + ": mean " + view.mean.toFixed(2) + ", sd " + view.sd.toFixed(2);
  const best = view.outcomes.reduce((a, b) => (b.p > a.p ? b : a));
  text += "; most likely " + best.value + " at " + pct(best.p) + " (" + best.exact + ")";
  if (view.neglected > 0) text += "; left out by the explosion's cut: " + view.neglected.toExponential(2);
  $("odds-summary").textContent = text;
  oddsOf = f.expression.value;
}
// The expression whose odds the chart shows.
let oddsOf = null;
// Marks the rolled total on the chart.
function markTotal(total) {
  for (const bar of $("chart").children) bar.classList.toggle("hit", bar.dataset.value === String(total));
}
// The sibling systems: each system's characters of the table, created and rolled through
// its own use cases; every die drawn is shown, with the chance the rules gave before the roll.
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
function showSiblings() {
  const system = $("sibling-system").elements.system.value;
  for (const node of document.querySelectorAll("#sibling-panel .sys")) node.hidden = !node.classList.contains("sys-" + system);
  const list = $("sibling-characters");
  list.replaceChildren();
  for (const c of siblings[system]) {
    const li = el("li");
    li.appendChild(el("strong", siblingName[system](c)));
    li.appendChild(el("span", " " + siblingLine[system](c)));
    list.appendChild(li);
  }
  if (!siblings[system].length) list.appendChild(el("li", "No character of this system at the table yet."));
  const mine = siblings[system].filter((c) => me.member.role === "gm" || c.owner === me.member.id).map(siblingName[system]);
  const roll = { sol: "sol-test", classic: "classic-check", soluna: "soluna-test", dietype: "dietype-roll" }[system];
  fillSelect($(roll).elements.character, mine);
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
  showSiblings();
}
$("sibling-system").elements.system.addEventListener("change", () => {
  // A result belongs to the system it was rolled in.
  $("sibling-dice").replaceChildren();
  $("sibling-verdict").textContent = "";
  showSiblings();
});
// "CHA 3, AGI 2" as [["CHA", 3], ["AGI", 2]]; the value is a number or a die type.
function pairs(text, number) {
  return text.split(",").map((s) => s.trim()).filter((s) => s).map((s) => {
    const at = s.lastIndexOf(" ");
    if (at < 1) throw new Error("Write each as a name and a value, like: " + (number ? "CHA 3" : "Strength d8"));
    const value = s.slice(at + 1);
    return [s.slice(0, at).trim(), number ? Number(value) : value];
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
  siblingResult(v.rolled ? v.rolled.faces : [], v.sheet.hero.name + " is rolled up: " + siblingLine.classic(v.sheet));
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
form("dietype-new", async (f, node) => {
  await api("POST", "/dietype/characters", { name: f.name.value, abilities: pairs(f.abilities.value, false), skills: pairs(f.skills.value, true) });
  node.reset();
  await loadSiblings();
});
// The combat tracker: the game master plays lines of `solum combat`; everyone sees where
// it stands (reloaded whenever a combat entry arrives).
function showCombat(status) {
  $("combat-none").hidden = !!status;
  $("combat-view").hidden = !status;
  // A game master starts a combat when none is open, and plays or ends the open one.
  const gm = me && me.member.role === "gm";
  $("combat-start").hidden = !gm || !!status;
  $("combat-line").hidden = !gm || !status;
  $("combat-end").hidden = !gm || !status;
  $("combat-end-turn").hidden = !gm || !status || !status.started || status.over;
  if (!status) {
    $("combat-log").replaceChildren();
    return;
  }
  let head = status.name + " — " + (status.started ? "round " + status.round : "not started");
  if (status.acting) head += ", " + status.acting + " to act";
  if (status.over) head += " — over";
  $("combat-head").textContent = head;
  const body = $("combat-fighters");
  body.replaceChildren();
  const order = status.order.length ? status.order : status.fighters.map((f) => f.name);
  const byName = new Map(status.fighters.map((f) => [f.name, f]));
  for (const name of order) {
    const f = byName.get(name);
    if (!f) continue;
    const tr = el("tr");
    if (f.name === status.acting) tr.className = "acting";
    if (f.out) tr.classList.add("out");
    tr.appendChild(el("td", f.name + (f.out ? " (out)" : "")));
    tr.appendChild(el("td", f.side));
    tr.appendChild(el("td", f.hit_points + "/" + f.max_hit_points));
    tr.appendChild(el("td", f.weapon));
    body.appendChild(tr);
  }
  $("combat-ranges").replaceChildren(...status.ranges.map((r) => el("li", r.a + " – " + r.b + ": " + r.band)));
  $("combat-choices").replaceChildren(...status.choices.map((c) => {
    // The option as the line that plays it, then its exact odds (S18: a background named
    // for the roll is in the line, and the odds follow it).
    let text = c.line + (c.band ? " (" + c.band + ")" : "");
    if (c.p_draw != null) text += ": win " + pct(c.p_success) + ", draw " + pct(c.p_draw) + ", lose " + pct(c.p_lose);
    else if (c.action === "shoot" || c.action === "disengage") text += ": " + pct(c.p_success);
    else if (c.uses_action) text += " (the action)";
    const li = el("li", text);
    // A game master plays an option with one click: the same line the Line box takes.
    const line = choiceLine(c);
    if (gm && line && !status.over) {
      const play = el("button", "Play", "inline");
      play.type = "button";
      play.title = line;
      play.addEventListener("click", () => playCombatLine(line).catch(say));
      li.append(" ", play);
    }
    return li;
  }));
}

// The line of the combat language that plays an option: the server gives it with each
// option, which is legal now (see `solum combat`'s help).
function choiceLine(c) {
  return c.line || null;
}

async function playCombatLine(line) {
  const view = await api("POST", "/combat/line", { line });
  $("combat-log").replaceChildren(...view.text.map((t) => el("li", t)));
  showCombat(view.status);
}

async function loadCombat() {
  showCombat((await api("GET", "/combat")).combat);
}

form("combat-start", (f) => api("POST", "/combat", { name: f.name.value || undefined, roll_off: f.roll_off.checked }).then(loadCombat));
form("combat-line", async (f) => {
  await playCombatLine(f.line.value);
  f.line.value = "";
});
$("combat-end-turn").addEventListener("click", () => playCombatLine("end").catch(say));
form("combat-end", () => api("POST", "/combat/end", {}).then(loadCombat));

form("idea", async (f) => {
  const view = await api("POST", "/idea", { genre: f.genre.value, count: Number(f.count.value) });
  $("words").textContent = view.words.join(", ");
});
form("scene", async (f, node) => {
  const body = { title: f.title.value };
  if (f.goal.value) body.goal = f.goal.value;
  await api("POST", "/scenes", body);
  node.reset();
});
form("scene-end", async (f, node) => {
  await api("POST", "/scenes/end", f.summary.value ? { summary: f.summary.value } : {});
  node.reset();
});
form("note", async (f, node) => {
  await api("POST", "/notes", { text: f.text.value });
  node.reset();
});
form("new-character", async (f, node) => {
  const named = f.backgrounds.value.split(",").map((s) => s.trim()).filter((s) => s);
  await api("POST", "/characters", {
    name: f.name.value,
    body: Number(f.body.value),
    mind: Number(f.mind.value),
    charm: Number(f.charm.value),
    backgrounds: named,
    weapon: { name: f.weapon.value, class: f.class.value },
    armor_name: f.armor.value,
  });
  const name = f.name.value;
  node.reset();
  await loadCharacters();
  $("check").elements.character.value = name;
  backgrounds();
  await showOdds();
});
form("edit-character", async (f) => {
  const edit = {};
  if (Number(f.damage.value) > 0) edit.damage = Number(f.damage.value);
  if (Number(f.heal.value) > 0) edit.heal = Number(f.heal.value);
  if (f.notes.value) edit.notes = f.notes.value;
  await api("PATCH", "/characters/" + encodeURIComponent(f.character.value), edit);
  f.damage.value = "0";
  f.heal.value = "0";
  await loadCharacters();
});
form("invite", async (f) => {
  const invite = await api("POST", "/invites", { role: f.role.value });
  $("invite-link").value = location.origin + "/#invite=" + invite.token;
  $("invite-link").select();
});
$("copy-invite").addEventListener("click", () => {
  const link = $("invite-link");
  link.select();
  if (navigator.clipboard) navigator.clipboard.writeText(link.value).catch(() => document.execCommand("copy"));
  else document.execCommand("copy");
});
form("search", async (f) => {
  const found = $("found");
  found.replaceChildren();
  if (!f.q.value) {
    found.hidden = true;
    return;
  }
  const page = await api("GET", "/journal?q=" + encodeURIComponent(f.q.value));
  for (const entry of page.entries) found.appendChild(line(entry));
  if (!page.entries.length) found.appendChild(el("li", "Nothing found."));
  found.hidden = false;
});
// The exports need the session: fetched with it, then saved as a file.
for (const [id, file] of [["export-md", "journal.md"], ["export-json", "journal.json"]]) {
  $(id).addEventListener("click", async (e) => {
    e.preventDefault();
    try {
      const resp = await request("GET", $(id).getAttribute("href").slice(4));
      const url = URL.createObjectURL(await resp.blob());
      const a = el("a");
      a.href = url;
      a.download = file;
      a.click();
      setTimeout(() => URL.revokeObjectURL(url), 1000);
    } catch (err) {
      say(err);
    }
  });
}

function remember(seq) {
  const li = $("journal").querySelector('li[data-seq="' + seq + '"]');
  if (li && !li.classList.contains("secret")) {
    li.classList.add("secret");
    li.prepend(el("span", "secret ", "tag"));
    li.appendChild(revealButton(seq));
  }
}

// Logging out ends the session on the server (its token opens nothing any more) and
// forgets the token here.
$("logout").addEventListener("click", async () => {
  try {
    await request("POST", "/logout");
  } catch (err) {
    // An expired session is logged out already.
  }
  token = null;
  localStorage.removeItem("solum.token");
  location.replace("/");
});

window.addEventListener("DOMContentLoaded", () => {
  const invite = new URLSearchParams(location.hash.slice(1)).get("invite");
  if (invite) {
    held = token;
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
