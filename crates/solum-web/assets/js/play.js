// The Play tab: a check of So1um Expanded from a character (the exact odds shown before the
// roll, following every keystroke), any dice expression with its chart, and notes.
import { ctx } from "./ctx.js";
import { checkText, notationDice } from "./feed.js";

let characters = [];
let root = null;
const q = (sel) => root.querySelector(sel);

function checkBody() {
  const f = q("#check").elements;
  const n = Number(f.number.value);
  const body = {
    attribute: f.attribute.value,
    against: f.against.value === "difficulty" ? { difficulty: n } : { opposed: { dice: n, gear: false } },
  };
  if (f.background.value) body.background = f.background.value;
  if (f.roll_off.checked && f.against.value === "opposed") body.roll_off = true;
  return body;
}

function backgrounds() {
  const f = q("#check").elements;
  const c = characters.find((x) => x.character.name === f.character.value);
  ctx.fillSelect(f.background, c ? c.character.backgrounds : [], { label: "none", value: "" });
}

// The exact odds before the roll, on every keystroke; only the latest request's answer is
// shown (an earlier one that arrives late is dropped).
let oddsTicket = 0;
let oddsTimer = null;
function oddsSoon() {
  clearTimeout(oddsTimer);
  oddsTimer = setTimeout(() => showOdds(), 120);
}
async function showOdds() {
  const form = q("#check");
  const out = q("#odds");
  const name = form.elements.character.value;
  const ticket = ++oddsTicket;
  if (!name) {
    out.textContent = "Create a character (Characters tab) to roll a check.";
    return;
  }
  // A character at 0 hit points cannot act (the server would refuse the odds): say so.
  const c = characters.find((x) => x.character.name === name);
  if (c && c.out) {
    out.textContent = name + " is out (0 hit points) and cannot roll: heal or rest first (Characters tab).";
    return;
  }
  const n = Number(form.elements.number.value);
  if (!form.elements.number.value || !Number.isInteger(n) || n < 1 || n > 30) {
    out.textContent = "Odds: type a number from 1 to 30.";
    return;
  }
  try {
    const odds = await ctx.api("POST", "/characters/" + encodeURIComponent(name) + "/odds", checkBody());
    if (ticket !== oddsTicket) return;
    out.replaceChildren("Chance to " + (odds.draw == null ? "pass" : "win") + ": ", ctx.odds(odds.pass, odds.pass_exact));
    if (odds.draw != null) out.append(", draw " + ctx.pct(odds.draw) + ", lose " + ctx.pct(odds.lose));
  } catch (err) {
    if (ticket !== oddsTicket) return;
    // Said in the odds line, never in the form's error box: that one holds the last roll's
    // refusal, and odds refreshed because the table changed must not clear or replace it.
    out.textContent = "Odds: " + (err.message || String(err));
  }
}

const refreshCharacters = ctx.coalesce(async () => {
  characters = await ctx.api("GET", "/characters");
  const me = ctx.me;
  const mine = characters.filter((c) => me.gm || c.owner === me.member.id);
  const f = q("#check").elements;
  const was = f.character.value;
  ctx.fillSelect(f.character, mine.map((c) => c.character.name));
  for (const o of f.character.options) {
    if (mine.find((c) => c.character.name === o.value)?.out) o.textContent = o.value + " (out)";
  }
  // A fresh page picks someone who can act, where there is one.
  const chosen = mine.find((c) => c.character.name === f.character.value);
  if (!was && chosen && chosen.out) {
    const able = mine.find((c) => !c.out);
    if (able) f.character.value = able.character.name;
  }
  backgrounds();
  await showOdds();
});

let oddsOf = null;
async function drawOdds(f) {
  const view = await ctx.api("POST", "/odds", { expression: f.expression.value });
  const chart = q("#chart");
  chart.replaceChildren();
  const top = Math.max(...view.outcomes.map((o) => o.p));
  const shown = view.outcomes.length > 80 ? view.outcomes.filter((o) => o.p >= top / 200) : view.outcomes;
  const read = q("#chart-read");
  for (const o of shown) {
    const bar = ctx.el("div", undefined, "bar");
    const text = o.value + ": " + ctx.pct(o.p) + " (" + o.exact + ")";
    bar.title = text;
    bar.dataset.value = String(o.value);
    bar.setAttribute("role", "listitem");
    bar.setAttribute("aria-label", text);
    bar.tabIndex = 0;
    const fill = ctx.el("span", undefined, "fill");
    fill.style.height = ((100 * o.p) / top).toFixed(1) + "%";
    bar.appendChild(fill);
    bar.appendChild(ctx.el("span", String(o.value), "value"));
    // Read by tap, click or focus, not only by hovering.
    const show = () => {
      read.textContent = "Total " + text;
      for (const b of chart.children) b.classList.toggle("read", b === bar);
    };
    bar.addEventListener("click", show);
    bar.addEventListener("focus", show);
    chart.appendChild(bar);
  }
  q("#chart-top").textContent = ctx.pct(top);
  q("#chart-box").hidden = false;
  read.textContent = "";
  let text = view.expression + ": mean " + view.mean.toFixed(2) + ", sd " + view.sd.toFixed(2);
  const best = view.outcomes.reduce((a, b) => (b.p > a.p ? b : a));
  text += "; most likely " + best.value + " at " + ctx.pct(best.p) + " (" + best.exact + ")";
  if (view.truncated) text += "; the " + view.outcomes.length + " likeliest of " + view.values + " totals shown";
  if (view.neglected > 0) text += "; left out by the explosion's cut: " + view.neglected.toExponential(2);
  q("#odds-summary").textContent = text;
  oddsOf = f.expression.value;
}

function markTotal(total) {
  for (const bar of q("#chart").children) bar.classList.toggle("hit", bar.dataset.value === String(total));
}

/** Renders the Play tab. */
export function mount(container) {
  root = container;
  container.replaceChildren(ctx.template("play-check"), ctx.template("play-dice"), ctx.template("play-note"));
  ctx.applyRole(container);
  const check = q("#check");

  ctx.form(check, async (f) => {
    const body = checkBody();
    body.secret = f.secret.checked;
    const typed = ctx.typedFaces(f.typed);
    if (typed) body.typed = typed;
    const name = f.character.value;
    if (!name) throw new Error("Character: create one first (Characters tab)");
    // A new roll: the last one's dice and verdict go, so a refusal never shows them.
    q("#dice").replaceChildren();
    q("#verdict").textContent = "";
    const view = await ctx.api("POST", "/characters/" + encodeURIComponent(name) + "/check", body);
    if (body.secret) ctx.remember(view.seq);
    const dice = q("#dice");
    if (view.result.own) {
      dice.appendChild(ctx.el("span", name + ": "));
      dice.appendChild(ctx.diceRow(view.result.own.dice, { best: view.result.own.result, label: name }));
      if (view.result.own.chain.length) {
        dice.appendChild(ctx.el("span", " Rule of 6: "));
        dice.appendChild(ctx.diceRow(view.result.own.chain));
      }
    }
    if (view.result.opposition) {
      dice.appendChild(ctx.el("span", " against: "));
      dice.appendChild(ctx.diceRow(view.result.opposition.dice, { best: view.result.opposition.result, label: "opposition" }));
    }
    f.typed.value = "";
    q("#verdict").textContent = (body.secret ? "Secret: " : "") + (typed ? "Real dice: " : "") + checkText(name, view);
    q("#verdict").className = view.result.passed ? "pass" : "fail";
  }, [q("#dice"), q("#verdict")]);
  // The odds follow the form as it is typed (input), not only when a field is left.
  check.addEventListener("input", (e) => {
    if (e.target.name === "typed" || e.target.name === "secret") return;
    if (e.target.name === "character") backgrounds();
    oddsSoon();
  });
  check.addEventListener("change", (e) => {
    if (e.target.name === "character") {
      backgrounds();
      oddsSoon();
    }
  });

  const oddsForm = q("#odds-form");
  let timer = null;
  oddsForm.elements.expression.addEventListener("input", () => {
    clearTimeout(timer);
    timer = setTimeout(() => {
      if (!oddsForm.elements.expression.value.trim()) return;
      drawOdds(oddsForm.elements).then(() => ctx.clearError(oddsForm), (err) => {
        q("#odds-summary").textContent = "";
        q("#chart").replaceChildren();
        q("#chart-box").hidden = true;
        ctx.showError(oddsForm, err);
      });
    }, 300);
  });
  ctx.form(oddsForm, async (f, node, submitter) => {
    // Submitted: the odds drawn now; a draw still waiting for the typing to pause is dropped.
    clearTimeout(timer);
    if (!submitter || submitter.name !== "roll") {
      await drawOdds(f);
      return;
    }
    if (!f.expression.value.trim()) throw new Error("Dice: type an expression, like 3d6 or 4d6kh3");
    q("#expression-dice").replaceChildren();
    q("#expression-total").textContent = "";
    const body = { expression: f.expression.value, secret: f.secret.checked };
    const typed = ctx.typedFaces(f.typed);
    if (typed) body.typed = typed;
    // The odds first: a player sees the chances of what they roll before the dice fall.
    if (oddsOf !== f.expression.value) await drawOdds(f);
    const view = await ctx.api("POST", "/roll", body);
    f.typed.value = "";
    if (body.secret) ctx.remember(view.seq);
    q("#expression-dice").replaceChildren(notationDice(view.terms));
    markTotal(view.total);
    q("#expression-total").textContent = (body.secret ? "Secret: " : "") + (typed ? "Real dice: " : "") + view.canonical + " = " + view.total;
  }, [q("#expression-dice"), q("#expression-total")]);

  ctx.form(q("#note"), async (f, node) => {
    await ctx.api("POST", "/notes", { text: f.text.value });
    node.reset();
  });

  ctx.on("characters", refreshCharacters);
  refreshCharacters();
  drawOdds(oddsForm.elements).catch((err) => ctx.showError(oddsForm, err));
}
