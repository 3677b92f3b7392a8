// The page's shared context, as the panels' module contract gives it: the API with the
// session, who is signed in, events between panels, errors in place, and dice as dice.
// (A minimal version for the Characters and Combat panels' own test page; the page's shell
// owns the real one, with the same exports.)

/** A non-2xx answer of the API: its status, the server's message and its error code. */
export class ApiError extends Error {
  constructor(status, message, code) {
    super(message);
    this.name = "ApiError";
    this.status = status;
    this.code = code;
  }
}

const listeners = new Map();

export const ctx = {
  /** `{ name, gm, member, table }` once signed in (null before). */
  me: null,
  /** The session token (kept in localStorage as the page keeps it). */
  token: localStorage.getItem("solum.token"),

  /** Same-origin fetch with the session; throws ApiError on a non-2xx answer. */
  async api(method, path, body) {
    const headers = {};
    if (body !== undefined) headers["Content-Type"] = "application/json";
    if (ctx.token) headers.Authorization = "Bearer " + ctx.token;
    const resp = await fetch("/api" + path, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (!resp.ok) {
      const data = await resp.json().catch(() => ({}));
      throw new ApiError(resp.status, data.error || resp.statusText, data.code);
    }
    if (resp.status === 204) return null;
    return resp.json();
  },

  on(event, fn) {
    if (!listeners.has(event)) listeners.set(event, []);
    listeners.get(event).push(fn);
  },

  emit(event, payload) {
    for (const fn of listeners.get(event) || []) {
      try {
        fn(payload);
      } catch (err) {
        console.error(err);
      }
    }
  },

  /** Shows the error's text in a `role="alert"` element at `where` (made once, reused). */
  showError(where, err) {
    let box = where.querySelector(".error");
    if (!box) {
      box = ctx.el("p", "", "error");
      box.setAttribute("role", "alert");
      where.appendChild(box);
    }
    box.textContent = err ? String(err.message || err) : "";
    box.hidden = !err;
  },

  clearError(where) {
    const box = where.querySelector(".error");
    if (box) {
      box.textContent = "";
      box.hidden = true;
    }
  },

  /** A probability 0..1 as "42.13%". */
  pct(p) {
    return (100 * p).toFixed(2) + "%";
  },

  /** The exact fraction as text. */
  fraction(num, den) {
    return num + "/" + den;
  },

  /** Dice as dice: one square per face, the chosen one marked. */
  diceRow(faces, opts = {}) {
    const row = ctx.el("span", undefined, "dice");
    faces.forEach((face, i) => {
      const die = ctx.el("span", String(face), "die");
      if (opts.best !== undefined && face === opts.best) die.classList.add("best");
      if (opts.label) die.setAttribute("aria-label", opts.label + " die " + (i + 1) + ": " + face);
      row.appendChild(die);
    });
    return row;
  },

  el(tag, text, cls) {
    const node = document.createElement(tag);
    if (text !== undefined) node.textContent = text;
    if (cls) node.className = cls;
    return node;
  },
};
