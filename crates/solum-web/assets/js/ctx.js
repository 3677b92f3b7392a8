// The page's shared context: the session, the API, events between panels, and the small
// pieces of rendering every panel uses (errors in place, percentages, dice as dice).
// Every piece of user text goes into the page with textContent or a form value, never as
// markup: a name or a note that looks like HTML stays text.

/** A refusal or failure of the API: the HTTP status, the server's message and code. */
export class ApiError extends Error {
  constructor(status, message, code) {
    super(message);
    this.name = "ApiError";
    this.status = status;
    this.code = code;
  }
}

const listeners = new Map();

// Reads under way, by path: panels that ask for the same thing at once (an entry redraws the
// sheets, the other systems and the fights, which share lists) share one request, within the
// session's request budget. Only a read that began after this page's last change is shared,
// so a read made after a change never gets an answer from before it.
const reads = new Map();
let changedAt = 0;

export const ctx = {
  /** `{ name, gm, member, table, table_name, members, may_type_dice }` once signed in. */
  me: null,
  /** The session token (kept in localStorage). */
  token: localStorage.getItem("solum.token"),
  /** What the server's API offers beyond the base (read from /api/openapi.json). */
  features: { before: false, scene: null },

  /** A same-origin request with the session; the Response, or ApiError on non-2xx. */
  async request(method, path, body) {
    const headers = {};
    if (body !== undefined) headers["Content-Type"] = "application/json";
    if (ctx.token) headers["Authorization"] = "Bearer " + ctx.token;
    const send = async () => {
      try {
        return await fetch("/api" + path, {
          method,
          headers,
          body: body === undefined ? undefined : JSON.stringify(body),
        });
      } catch (err) {
        throw new ApiError(0, "The server cannot be reached (" + (err.message || err) + ")", "offline");
      }
    };
    let resp = await send();
    // A read refused for the session's request budget is asked again once, when the
    // server says a request is free (at most 3 s): nothing changes by reading twice.
    const retryIn = Number(resp.headers.get("Retry-After"));
    if (resp.status === 429 && method === "GET" && retryIn >= 0 && retryIn <= 3) {
      await new Promise((resolve) => setTimeout(resolve, retryIn * 1000 + 50));
      resp = await send();
    }
    if (!resp.ok) {
      const data = await resp.json().catch(() => ({}));
      let message = data.error || resp.statusText || "HTTP " + resp.status;
      const wait = resp.headers.get("Retry-After");
      if (resp.status === 429 && wait) message += " (try again in " + wait + " s)";
      throw new ApiError(resp.status, message, data.code);
    }
    return resp;
  },

  /** The request's JSON answer (null for 204). */
  async api(method, path, body) {
    const answer = async () => {
      const resp = await ctx.request(method, path, body);
      return resp.status === 204 ? null : resp.json();
    };
    if (method !== "GET") {
      try {
        return await answer();
      } finally {
        changedAt = performance.now();
      }
    }
    let read = reads.get(path);
    if (!read || read.at < changedAt) {
      read = { at: performance.now(), answer: answer() };
      reads.set(path, read);
      const forget = () => {
        if (reads.get(path) === read) reads.delete(path);
      };
      read.answer.then(forget, forget);
    }
    // Each caller gets its own copy: a panel may change what it was given.
    return structuredClone(await read.answer);
  },

  /** Subscribes to an event: "entry", "characters", "combat", "signed-in", "scene". */
  on(event, fn) {
    if (!listeners.has(event)) listeners.set(event, new Set());
    listeners.get(event).add(fn);
    return () => listeners.get(event).delete(fn);
  },

  emit(event, payload) {
    for (const fn of listeners.get(event) || []) {
      try {
        fn(payload);
      } catch (err) {
        console.error(event, err);
      }
    }
  },

  /** Shows an error where the action was: a `.error` element with role=alert in `where`. */
  showError(where, err) {
    if (!where) return;
    let box = where.querySelector(":scope > .error");
    if (!box) {
      box = ctx.el("p", "", "error");
      box.setAttribute("role", "alert");
      where.appendChild(box);
    }
    box.textContent = err ? String(err.message || err) : "";
    box.hidden = !err;
  },

  /** Clears the error shown by showError. */
  clearError(where) {
    const box = where && where.querySelector(":scope > .error");
    if (box) {
      box.textContent = "";
      box.hidden = true;
    }
  },

  /** A chance as a percentage with two decimals; never "100.00%" for what may fail. */
  pct(p) {
    if (p == null || Number.isNaN(p)) return "—";
    if (p > 0 && p < 0.00005) return "<0.01%";
    if (p < 1 && p > 0.99995) return ">99.99%";
    return (100 * p).toFixed(2) + "%";
  },

  /** The exact chance as text: `fraction(7, 8)` or `fraction("7/8")` is "7/8". */
  fraction(num, den) {
    if (den === undefined) return String(num);
    return String(num) + "/" + String(den);
  },

  /** A chance shown as a percentage with its exact fraction on demand (a toggle). */
  odds(p, exact) {
    const span = ctx.el("span", undefined, "odds");
    span.appendChild(ctx.el("span", ctx.pct(p), "pct"));
    if (exact) {
      const show = ctx.el("button", "exact", "exact-toggle");
      show.type = "button";
      show.setAttribute("aria-expanded", "false");
      const frac = ctx.el("span", ctx.fraction(exact), "exact");
      frac.hidden = true;
      show.addEventListener("click", () => {
        frac.hidden = !frac.hidden;
        show.setAttribute("aria-expanded", String(!frac.hidden));
      });
      span.append(" ", show, " ", frac);
    }
    return span;
  },

  /** Dice as dice: one square per face; `opts.best` marks the deciding face. */
  diceRow(faces, opts = {}) {
    const row = ctx.el("span", undefined, "dice");
    (faces || []).forEach((face, i) => {
      const die = ctx.el("span", String(face), "die");
      if (opts.best !== undefined && face === opts.best) die.classList.add("best");
      if (opts.label) die.setAttribute("aria-label", opts.label + " die " + (i + 1) + ": " + face);
      row.appendChild(die);
    });
    return row;
  },

  /** A copy of the page's `<template id="tpl-NAME">` (panels' markup lives in index.html). */
  template(name) {
    const tpl = document.getElementById("tpl-" + name);
    if (!tpl) throw new Error("The page has no template " + name);
    return tpl.content.cloneNode(true);
  },

  el(tag, text, cls) {
    const node = document.createElement(tag);
    if (text !== undefined && text !== null) node.textContent = text;
    if (cls) node.className = cls;
    return node;
  },

  /**
   * A refetch that runs at most once at a time, with at most one more queued however many
   * times it is asked for meanwhile: a burst of replayed entries costs two fetches at most.
   */
  coalesce(fn) {
    let running = null;
    let queued = false;
    const run = () => {
      if (running) {
        queued = true;
        return running;
      }
      running = Promise.resolve()
        .then(fn)
        .catch((err) => console.warn(err))
        .finally(() => {
          running = null;
          if (queued) {
            queued = false;
            run();
          }
        });
      return running;
    };
    return run;
  },

  /**
   * A form's submit: the last one's error cleared as it starts (a success drawn before the
   * handler's follow-up reads never shows beside the old refusal), this one's shown beside
   * the form, its button disabled meanwhile; `result` (an element or a list) is cleared
   * when the action fails, so a previous result never reads as this one's.
   */
  form(node, handler, result) {
    node.addEventListener("submit", async (e) => {
      e.preventDefault();
      const button = e.submitter || node.querySelector("button:not([type=button])");
      if (button) button.disabled = true;
      ctx.clearError(node);
      try {
        await handler(node.elements, node, e.submitter);
        ctx.clearError(node);
      } catch (err) {
        ctx.showError(node, err);
        for (const r of [].concat(result || [])) if (r) r.replaceChildren();
      } finally {
        if (button) button.disabled = false;
      }
    });
  },

  /** Asks in a modal dialog; resolves true for `yes`, false for `no` or Escape. */
  confirm(title, message, yes, no) {
    const dialog = document.getElementById("confirm");
    dialog.querySelector("#confirm-title").textContent = title;
    dialog.querySelector("#confirm-text").textContent = message;
    const ok = dialog.querySelector("#confirm-yes");
    const cancel = dialog.querySelector("#confirm-no");
    ok.textContent = yes;
    cancel.textContent = no;
    return new Promise((resolve) => {
      const done = (answer) => {
        ok.onclick = cancel.onclick = dialog.onclose = null;
        if (dialog.open) dialog.close();
        resolve(answer);
      };
      ok.onclick = () => done(true);
      cancel.onclick = () => done(false);
      dialog.onclose = () => done(false);
      dialog.showModal();
      cancel.focus();
    });
  },

  /** Faces typed from real dice ("3 5 6" or "3,5,6"); undefined when none are typed. */
  typedFaces(input) {
    if (!input) return undefined;
    const words = input.value.split(/[\s,]+/).filter((w) => w);
    if (!words.length) return undefined;
    const faces = words.map(Number);
    if (faces.some((n) => !Number.isInteger(n) || n < 1)) {
      throw new Error("Real dice: type the faces as whole numbers, like 3 5 6");
    }
    return faces;
  },

  /** Fills a select with names, keeping the choice when it is still there. */
  fillSelect(select, names, keep) {
    const old = select.value;
    select.replaceChildren();
    if (keep) select.appendChild(ctx.el("option", keep.label)).value = keep.value;
    for (const n of names) select.appendChild(ctx.el("option", n)).value = n;
    if ([...select.options].some((o) => o.value === old)) select.value = old;
  },

  /** Shows the parts only a game master, or a member who may type dice, uses. */
  applyRole(root) {
    for (const node of root.querySelectorAll(".gm-only")) node.hidden = !(ctx.me && ctx.me.gm);
    for (const node of root.querySelectorAll(".typed-only")) node.hidden = !(ctx.me && ctx.me.may_type_dice);
  },

  /** Marks the feed's entry of a secret roll as secret (the answer came before the entry). */
  remember(seq) {
    ctx.emit("secret", seq);
  },
};
