// The Characters tab (So1um Expanded sheets). Owned by the SHEETS/COMBAT engineer: this is
// the shell's interim port of the former page's panel (list, create, edit) so the tab works
// until their module replaces this file.
import { ctx } from "./ctx.js";

let root = null;
const q = (sel) => root.querySelector(sel);


const refresh = ctx.coalesce(async () => {
  const characters = await ctx.api("GET", "/characters");
  const list = q("#characters");
  list.replaceChildren();
  for (const c of characters) {
    const h = c.character;
    const li = ctx.el("li");
    li.appendChild(ctx.el("strong", h.name));
    li.appendChild(ctx.el("span", " Body " + h.body + ", Mind " + h.mind + ", Charm " + h.charm
      + " · HP " + h.hit_points + "/" + c.max_hit_points + (c.out ? " (out)" : "")
      + " · " + (h.backgrounds.join(", ") || "no backgrounds")
      + " · " + h.weapons.map((w) => w.name + (w.ranged ? " (ranged)" : "")).join(", ")));
    if (h.notes) li.appendChild(ctx.el("em", " " + h.notes));
    list.appendChild(li);
  }
  if (!characters.length) list.appendChild(ctx.el("li", "No character yet."));
  const mine = characters.filter((c) => ctx.me.gm || c.owner === ctx.me.member.id);
  ctx.fillSelect(q("#edit-character").elements.character, mine.map((c) => c.character.name));
});

/** Renders the Characters tab. */
export function mount(container) {
  root = container;
  container.replaceChildren(ctx.template("sheets"));
  ctx.form(q("#new-character"), async (f, node) => {
    const named = f.backgrounds.value.split(",").map((s) => s.trim()).filter((s) => s);
    await ctx.api("POST", "/characters", {
      name: f.name.value,
      body: Number(f.body.value),
      mind: Number(f.mind.value),
      charm: Number(f.charm.value),
      backgrounds: named,
      weapon: { name: f.weapon.value, class: f.class.value, ranged: f.ranged.checked },
      armor_name: f.armor.value,
    });
    node.reset();
    ctx.emit("characters");
  });
  ctx.form(q("#edit-character"), async (f) => {
    const edit = {};
    if (Number(f.damage.value) > 0) edit.damage = Number(f.damage.value);
    if (Number(f.heal.value) > 0) edit.heal = Number(f.heal.value);
    if (f.notes.value) edit.notes = f.notes.value;
    await ctx.api("PATCH", "/characters/" + encodeURIComponent(f.character.value), edit);
    f.damage.value = "0";
    f.heal.value = "0";
    ctx.emit("characters");
  });
  ctx.on("characters", refresh);
  refresh();
}
