// The Solo tab: the oracle, idea words from a genre, and scenes. Its answers land in the
// feed as the story; the current scene is in the header.
import { ctx } from "./ctx.js";

let root = null;
const q = (sel) => root.querySelector(sel);

// Who may end the scene: its game master; a player only a scene they started themselves
// (known where the entry says who; the server enforces it).
function showScene(scene) {
  const state = q("#scene-state");
  state.textContent = scene ? "Now: " + scene.title + (scene.goal ? " — " + scene.goal : "") : "No scene is open.";
  const mine = scene && scene.by != null && ctx.me && (scene.by === ctx.me.member.id || (scene.by && scene.by.id === ctx.me.member.id));
  q("#scene-end").hidden = !scene || !(ctx.me && (ctx.me.gm || mine));
}

/** Renders the Solo tab. */
export function mount(container) {
  root = container;
  container.replaceChildren(ctx.template("solo"));
  ctx.applyRole(container);
  // The genres of idea words are the program's (`GET /api/idea/genres`), read once.
  const genre = q("#idea").elements.genre;
  ctx.api("GET", "/idea/genres")
    .then((list) => ctx.fillSelect(genre, list.genres))
    .catch((err) => ctx.showError(q("#idea"), err));

  ctx.form(q("#ask"), async (f) => {
    const secret = f.secret.checked;
    const body = { question: f.question.value, leaning: f.leaning.value, secret };
    const typed = ctx.typedFaces(f.typed);
    if (typed) body.typed = typed;
    q("#answer").textContent = "";
    q("#oracle-dice").replaceChildren();
    const view = await ctx.api("POST", "/oracle", body);
    f.typed.value = "";
    if (secret) ctx.remember(view.seq);
    let text = (secret ? "Secret: " : "") + view.answer + " (" + ctx.pct(view.p_answer) + ")";
    if (view.event) text += " — event: " + view.event;
    if (view.disposition) text += " — disposition: " + view.disposition;
    q("#answer").textContent = text;
    q("#oracle-dice").replaceChildren(ctx.diceRow(view.dice, { best: view.die, label: "oracle" }));
    f.question.value = "";
  }, [q("#answer"), q("#oracle-dice")]);

  ctx.form(q("#idea"), async (f) => {
    q("#words").textContent = "";
    const view = await ctx.api("POST", "/idea", { genre: f.genre.value, count: Number(f.count.value) });
    q("#words").textContent = view.words.join(", ");
  }, q("#words"));

  ctx.form(q("#scene"), async (f, node) => {
    const body = { title: f.title.value };
    if (f.goal.value) body.goal = f.goal.value;
    await ctx.api("POST", "/scenes", body);
    node.reset();
  });
  ctx.form(q("#scene-end"), async (f, node) => {
    await ctx.api("POST", "/scenes/end", f.summary.value ? { summary: f.summary.value } : {});
    node.reset();
  });
  ctx.on("scene", showScene);
  showScene(ctx.scene || null);
}
