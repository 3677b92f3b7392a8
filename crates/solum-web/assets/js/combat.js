// The Combat tab. Owned by the SHEETS/COMBAT engineer: this is the shell's interim port of
// the former page's tracker (status, options with their odds, the game master's lines) so
// the tab works until their module replaces this file.
import { ctx } from "./ctx.js";

let root = null;
const q = (sel) => root.querySelector(sel);


function show(status) {
  q("#combat-none").hidden = !!status;
  q("#combat-view").hidden = !status;
  const gm = ctx.me && ctx.me.gm;
  q("#combat-start").hidden = !gm || !!status;
  q("#combat-line").hidden = !gm || !status;
  q("#combat-end").hidden = !gm || !status;
  if (!status) {
    q("#combat-log").replaceChildren();
    return;
  }
  let head = status.name + " — " + (status.started ? "round " + status.round : "not started");
  if (status.acting) head += ", " + status.acting + " to act";
  if (status.over) head += " — over";
  q("#combat-head").textContent = head;
  const body = q("#combat-fighters");
  body.replaceChildren();
  const order = status.order.length ? status.order : status.fighters.map((f) => f.name);
  const byName = new Map(status.fighters.map((f) => [f.name, f]));
  for (const name of order) {
    const f = byName.get(name);
    if (!f) continue;
    const tr = ctx.el("tr");
    if (f.name === status.acting) tr.className = "acting";
    if (f.out) tr.classList.add("out");
    tr.appendChild(ctx.el("td", f.name + (f.out ? " (out)" : "")));
    tr.appendChild(ctx.el("td", f.side));
    tr.appendChild(ctx.el("td", f.hit_points + "/" + f.max_hit_points));
    tr.appendChild(ctx.el("td", f.weapon));
    body.appendChild(tr);
  }
  q("#combat-ranges").replaceChildren(...status.ranges.map((r) => ctx.el("li", r.a + " – " + r.b + ": " + r.band)));
  q("#combat-choices").replaceChildren(...status.choices.map((c) => {
    let text = c.line + (c.band ? " (" + c.band + ")" : "");
    if (c.p_draw != null) text += ": win " + ctx.pct(c.p_success) + ", draw " + ctx.pct(c.p_draw) + ", lose " + ctx.pct(c.p_lose);
    else if (c.action === "shoot" || c.action === "disengage") text += ": " + ctx.pct(c.p_success);
    else if (c.uses_action) text += " (the action)";
    const li = ctx.el("li", text);
    if (gm && c.line && !status.over) {
      const play = ctx.el("button", "Play", "inline");
      play.type = "button";
      play.title = c.line;
      play.setAttribute("aria-label", "Play " + c.line);
      play.addEventListener("click", () => playLine(c.line).then(() => ctx.clearError(q("#combat-panel")), (err) => ctx.showError(q("#combat-panel"), err)));
      li.append(" ", play);
    }
    return li;
  }));
}

async function playLine(line) {
  const view = await ctx.api("POST", "/combat/line", { line });
  q("#combat-log").replaceChildren(...view.text.map((t) => ctx.el("li", t)));
  show(view.status);
}

const refresh = ctx.coalesce(async () => show((await ctx.api("GET", "/combat")).combat));

/** Renders the Combat tab. */
export function mount(container) {
  root = container;
  container.replaceChildren(ctx.template("combat"));
  ctx.form(q("#combat-start"), (f) => ctx.api("POST", "/combat", { name: f.name.value || undefined, roll_off: f.roll_off.checked }).then(refresh));
  ctx.form(q("#combat-line"), async (f) => {
    await playLine(f.line.value);
    f.line.value = "";
  });
  ctx.form(q("#combat-end"), () => ctx.api("POST", "/combat/end", {}).then(refresh));
  ctx.on("combat", refresh);
  refresh();
}
