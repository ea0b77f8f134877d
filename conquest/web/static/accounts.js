// Accounts (optional), the open lobby and the players' pages: the header's account links, /account (log in or
// register), /tables (public tables: set one up, join, start, watch; sortable by rating), /player/NAME (ratings
// and history), and the account's games in the "Your games" card. The session is an HttpOnly cookie the page
// never reads; its CSRF token (from GET /api/account) goes with every write (ui.js api()).
// @ts-check
import { h, app, api, toast, status, swatch, setCsrf, label, setSeatColors } from "./ui.js";
import { remembered, hashToken } from "./store.js";
import { paceFields, duration } from "./pace.js";

/** @type {AccountState | null} */
let current = null; // {account, csrf} once known
/** @type {Promise<AccountState>} */
export const ready = (async () => {
  /** @type {AccountState} */
  let got;
  try { got = await api("GET", "/api/account"); } catch (e) { got = { account: null, csrf: null }; }
  current = got;
  setCsrf(got.csrf);
  header();
  return got;
})();
/** The logged-in account, or null. @returns {AccountInfo | null} */
export function account() { return current && current.account; }

function header() {
  const box = document.getElementById("account");
  if (!box) return;
  const who = account();
  box.replaceChildren(.../** @type {HTMLElement[]} */ ([h("a", { href: "/tables", id: "tables-link", text: "Open tables" }),
    who ? h("a", { href: `/player/${encodeURIComponent(who.name)}`, id: "me-link", text: who.name }) : null,
    who ? h("button", { type: "button", id: "logout", class: "linkish", text: "Log out", onclick: logout })
      : h("a", { href: "/account", id: "login-link", text: "Log in" })].filter(Boolean)));
}

async function logout() {
  try { await api("POST", "/api/account/logout"); } catch (e) { toast(/** @type {Error} */ (e).message); return; }
  current = { account: null, csrf: null }; setCsrf(null); header();
  location.assign("/");
}

/** @param {AccountState} data */
function signedIn(data) {
  current = data; setCsrf(data.csrf); header();
}

// ---- /account: log in, or register ----
export async function accountPage() {
  status(""); setSeatColors(null);
  document.title = "Conquest: log in";
  await ready;
  if (account()) {
    const who = /** @type {AccountInfo} */ (account());
    const email = h("input", { type: "email", id: "email", value: who.email || "", maxlength: 254, autocomplete: "email" });
    app.replaceChildren(h("section", { class: "card narrow" }, h("h2", { text: `Logged in as ${who.name}` }),
      h("p", {}, h("a", { href: `/player/${encodeURIComponent(who.name)}`, text: "Your ratings and history" }), " · ",
        h("a", { href: "/tables", text: "Open tables" })),
      h("form", { id: "email-form", onsubmit: async ev => {
        ev.preventDefault();
        try { signedIn(await api("POST", "/api/account/email", { email: email.value })); toast("Saved"); }
        catch (e) { toast(/** @type {Error} */ (e).message); }
      } }, h("label", { for: "email", text: "E-mail (optional: for turn notifications)" }), email, " ",
        h("button", { type: "submit", text: "Save" }))));
    return;
  }
  /** @param {string} id @param {string} title @param {Kid[]} fields @param {string} button @param {string} path */
  const form = (id, title, fields, button, path) => {
    const f = h("form", { id, class: "card account-form" }, h("h2", { text: title }), fields,
      h("p", {}, h("button", { type: "submit", class: "primary", id: `${id}-btn`, text: button })),
      h("p", { class: "help", id: `${id}-error`, role: "alert" }));
    f.addEventListener("submit", async ev => {
      ev.preventDefault();
      /** @type {Record<string, string>} */
      const body = {};
      for (const el of /** @type {NodeListOf<HTMLInputElement>} */ (f.querySelectorAll("input[name]"))) if (el.value || el.name !== "email") body[el.name] = el.value;
      try { signedIn(await api("POST", path, body)); }
      catch (e) { /** @type {HTMLElement} */ (document.getElementById(`${id}-error`)).textContent = /** @type {Error} */ (e).message; return; }
      const back = new URLSearchParams(location.search).get("next");
      location.assign(back && back.startsWith("/") && !back.startsWith("//") ? back : "/tables");
    });
    return f;
  };
  /** @param {string} form @param {string} name @param {string} text @param {string} type @param {Attrs} extra @returns {Kid[]} */
  const field = (form, name, text, type, extra) => [h("label", { for: `${form}-${name}`, text }),
    h("input", { id: `${form}-${name}`, name, type, required: name !== "email", ...extra })];
  app.replaceChildren(h("div", { class: "cols" },
    form("login", "Log in", [field("login", "name", "Name", "text", { autocomplete: "username", maxlength: 24 }),
      field("login", "password", "Password", "password", { autocomplete: "current-password" })], "Log in", "/api/account/login"),
    form("register", "New account", [field("register", "name", "Name (3–24 letters, digits, . _ -)", "text", { autocomplete: "username", maxlength: 24 }),
      field("register", "password", "Password (8 characters or more)", "password", { autocomplete: "new-password", minlength: 8 }),
      field("register", "email", "E-mail (optional)", "email", { autocomplete: "email", maxlength: 254 }),
      h("p", { class: "help", text: "An account is optional: games played from links work without one. With one, your games are listed on any device, you can sit at public tables and be rated." })],
    "Create the account", "/api/account/register")));
}

// ---- the account's games, in the lobby's "Your games" card ----
/** The account's games, in the lobby's "Your games" card. @param {HTMLElement | null} box */
export async function accountGames(box) {
  await ready;
  if (!account() || !box) return;
  /** @type {{ games: AccountGame[] }} */
  let data;
  try { data = await api("GET", "/api/account/games"); } catch (e) { box.textContent = /** @type {Error} */ (e).message; return; }
  const mine = remembered().filter(e => e.seat !== null && e.seat !== undefined);
  const known = new Set(data.games.map(g => `${g.id}:${g.seat}`));
  const unclaimed = mine.filter(e => !known.has(`${e.id}:${e.seat}`));
  const me = /** @type {AccountInfo} */ (account());
  box.replaceChildren(.../** @type {HTMLElement[]} */ ([h("h3", { text: `${me.name}'s games (on any device)` }),
    data.games.length ? h("ul", { class: "links", id: "account-games" }, data.games.map(g => h("li", {}, swatch(g.seat),
      h("a", { href: g.link, text: g.title }), ` as ${g.name}: step ${g.step}, `,
      g.over ? "over" : (g.your_turn ? h("strong", { text: "your turn" }) : `${g.to_move_name || g.to_move} to move`))))
      : h("p", { class: "help", text: "No games yet: join a table in the open lobby, or add this browser's games." }),
    unclaimed.length ? h("button", { type: "button", id: "claim-all", text: `Add this browser's ${unclaimed.length} seat${unclaimed.length > 1 ? "s" : ""} to my account`,
      onclick: async () => {
        let failed = 0;
        for (const e of unclaimed) { try { await api("POST", "/api/account/claim", { game: e.id, token: e.token }); } catch (err) { failed++; } }
        if (failed) toast(`${failed} could not be added (claimed by another account, or gone)`);
        accountGames(box);
      } }) : null,
    remembered().length ? h("h3", { text: "In this browser" }) : null].filter(Boolean)));
}

// ---- /tables: the open lobby ----
export async function tablesPage() {
  status(""); setSeatColors(null);
  document.title = "Conquest: open tables";
  const sort = new URLSearchParams(location.search).get("sort") === "rating" ? "rating" : "new";
  const list = h("div", { id: "tables" }, "Loading…");
  const newBox = h("div", { id: "newtable" });
  const sortSel = h("select", { id: "sort", "aria-label": "Sort the tables" },
    h("option", { value: "new", text: "newest first", selected: sort === "new" }),
    h("option", { value: "rating", text: "by rating", selected: sort === "rating" }));
  sortSel.addEventListener("change", () => { history.replaceState(null, "", sortSel.value === "rating" ? "/tables?sort=rating" : "/tables"); tablesPage(); });
  app.replaceChildren(h("div", { class: "cols" },
    h("section", { class: "card lobby-tables", "aria-labelledby": "tables-h" },
      h("div", { class: "bar" }, h("h2", { id: "tables-h", text: "Open tables" }), h("label", { class: "inline", for: "sort", text: "Sort" }), sortSel),
      list),
    h("section", { class: "card lobby-newtable", "aria-labelledby": "newtable-h" }, h("h2", { id: "newtable-h", text: "Set up a public table" }), newBox)));
  await ready;
  showTables(list, sort);
  if (!account()) {
    newBox.replaceChildren(h("p", {}, h("a", { href: "/account?next=/tables", text: "Log in or create an account" }),
      " to set up a table or sit at one. Anyone can watch the games in play."));
    return;
  }
  /** @type {RulesetsData} */
  let data;
  try { data = await api("GET", "/api/rulesets"); } catch (e) { toast(/** @type {Error} */ (e).message); return; }
  newTableForm(newBox, data, () => showTables(list, sort));
}

/** @param {HTMLElement} list @param {string} sort */
async function showTables(list, sort) {
  /** @type {{ tables: LobbyTable[] }} */
  let data;
  try { data = await api("GET", `/api/lobby?sort=${sort}`); } catch (e) { list.textContent = /** @type {Error} */ (e).message; return; }
  if (!data.tables.length) { list.replaceChildren(h("p", { class: "help", text: "No public table yet: set one up." })); return; }
  /** @param {string} path @param {unknown} body */
  const act = async (path, body) => {
    try { await api("POST", path, body); } catch (e) { toast(/** @type {Error} */ (e).message); }
    showTables(list, sort);
  };
  list.replaceChildren(h("ul", { class: "tables" }, data.tables.map(t => {
    const you = t.you || {};
    const seats = h("ul", { class: "table-seats" }, t.seats.map(s => h("li", {}, swatch(s.seat),
      s.kind === "human" ? (s.player ? h("a", { href: `/player/${encodeURIComponent(s.player)}`, text: s.player }) : h("em", { text: "open seat" }))
        : s.player,
      s.rating !== null && s.rating !== undefined ? h("span", { class: "muted", text: ` (${s.rating})` }) : null)));
    /** @type {HTMLElement[]} */
    const buttons = [];
    if (t.status === "open") {
      if (account() && you.seat === null) buttons.push(h("button", { type: "button", class: "primary", "data-join": t.id, text: "Join", onclick: () => act(`/api/lobby/${t.id}/join`, {}) }));
      if (you.creator) {
        const lv = h("select", { "aria-label": "Computer level for the open seats", "data-level": t.id },
          ["easy", "normal", "hard"].map(l => h("option", { value: l, text: label(l), selected: l === "normal" })));
        buttons.push(h("span", { class: "start-now" }, h("button", { type: "button", "data-start": t.id, text: "Start now with computers:",
          onclick: () => act(`/api/lobby/${t.id}/start`, { level: lv.value }) }), " ", lv));
      }
      if (you.seat !== null && you.seat !== undefined) buttons.push(h("button", { type: "button", "data-leave": t.id, text: you.creator ? "Cancel the table" : "Leave", onclick: () => act(`/api/lobby/${t.id}/leave`, {}) }));
    } else {
      if (t.play) buttons.push(h("a", { href: t.play, class: "button primary", "data-play": t.id, text: "Play" }));
      if (t.watch) buttons.push(h("a", { href: t.watch, class: "button", "data-watch": t.id, text: "Watch" }));
    }
    const opts = Object.entries(t.options || {}).filter(([, v]) => v !== "" && v !== null).map(([k, v]) => `${label(k)}: ${v}`).join(", ");
    return h("li", { class: "table card", "data-table": t.id },
      h("div", { class: "table-head" }, h("strong", { text: t.title }), ` · ${t.players} players · `,
        t.status === "open" ? `${t.open_seats} open seat${t.open_seats === 1 ? "" : "s"}` : "in play",
        ` · ${t.rated ? "rated" : "not rated"}`,
        h("span", { class: "table-pace", text: t.pace && t.pace.mode === "turn" ? ` · turn-based, ${duration(t.pace.deadline_seconds || 0)} a turn` : " · live" }), t.rating !== null ? ` · rating ${t.rating}` : "",
        h("span", { class: "muted", text: ` · by ${t.creator}` })),
      opts ? h("p", { class: "help", text: opts }) : null, seats, h("div", { class: "bar" }, buttons));
  })));
}

/** @param {HTMLElement} box @param {RulesetsData} data @param {() => void} done */
function newTableForm(box, data, done) {
  const rulesets = data.rulesets;
  const levels = Object.entries(data.levels || {});
  const rsSel = h("select", { id: "t-ruleset" }, rulesets.map(r => h("option", { value: r.id, text: r.title })));
  const playersSel = h("select", { id: "t-players" });
  const seatsBox = h("table", { class: "seats", id: "t-seats" });
  const optsBox = h("div", { class: "options", id: "t-options" });
  const rated = h("input", { type: "checkbox", id: "t-rated", checked: true });
  const pace = paceFields(data);
  const current = () => /** @type {RulesetInfo} */ (rulesets.find(r => r.id === rsSel.value));
  function fill() {
    const r = current();
    playersSel.replaceChildren();
    for (let n = r.min_players; n <= r.max_players; n++) playersSel.append(h("option", { value: n, text: n, selected: n === r.default_players }));
    optsBox.replaceChildren();
    for (const o of r.options) {
      const id = "t-opt-" + o.name;
      const input = o.type === "bool" ? h("input", { type: "checkbox", id, "data-opt": o.name, "data-type": "bool", checked: !!o.default })
        : o.choices ? h("select", { id, "data-opt": o.name, "data-type": o.type }, o.choices.map(c => h("option", { value: c, text: String(c), selected: c === o.default })))
          : h("input", { type: o.type === "int" ? "number" : "text", id, "data-opt": o.name, "data-type": o.type, value: String(o.default), min: o.minimum, max: o.maximum });
      optsBox.append(h("div", { class: "opt" }, h("label", { for: id, text: label(o.name) }), input));
    }
    seats();
    pace.update(r);
  }
  function seats() {
    const n = Number(playersSel.value);
    seatsBox.replaceChildren();
    for (let i = 0; i < n; i++) {
      seatsBox.append(h("tr", {}, h("td", {}, swatch(i)), h("td", { text: i === 0 ? "you" : `seat ${i + 1}` }),
        h("td", {}, i === 0 ? h("span", { text: "a person (you)" }) : h("select", { id: `t-seat-${i}`, "aria-label": `Seat ${i + 1} is played by` },
          h("option", { value: "human", text: "a person" }),
          levels.map(([k, v]) => h("option", { value: k, text: `computer: ${v.label || k}` }))))));
    }
  }
  rsSel.addEventListener("change", fill);
  playersSel.addEventListener("change", seats);
  const form = h("form", { id: "newtable-form" },
    h("div", { class: "row2" }, h("div", {}, h("label", { for: "t-ruleset", text: "Game" }), rsSel),
      h("div", {}, h("label", { for: "t-players", text: "Players" }), playersSel)),
    h("fieldset", {}, h("legend", { text: "Seats" }), seatsBox),
    h("p", {}, h("label", { class: "inline", for: "t-rated" }, rated, " rated (the result moves the players' ratings)")),
    pace.box,
    h("details", { class: "opts" }, h("summary", { text: "Options" }), optsBox),
    h("p", {}, h("button", { type: "submit", class: "primary", id: "t-create", text: "Open the table" })));
  form.addEventListener("submit", async ev => {
    ev.preventDefault();
    const r = current(); const n = Number(playersSel.value);
    /** @type {Record<string, unknown>} */
    const options = {};
    for (const el of optsBox.querySelectorAll("[data-opt]")) {
      if (!(el instanceof HTMLInputElement || el instanceof HTMLSelectElement)) continue;
      const t = el.dataset.type;
      options[String(el.dataset.opt)] = t === "bool" ? el instanceof HTMLInputElement && el.checked : t === "int" ? Number(el.value) : el.value;
    }
    const kinds = ["human"];
    for (let i = 1; i < n; i++) kinds.push(/** @type {HTMLSelectElement} */ (document.getElementById(`t-seat-${i}`)).value);
    try { await api("POST", "/api/lobby", { ruleset: r.id, players: n, options, seats: kinds, rated: rated.checked, public: true, pace: pace.value() }); }
    catch (e) { toast(/** @type {Error} */ (e).message); return; }
    done();
  });
  box.replaceChildren(form);
  fill();
}

// ---- /player/NAME ----
/** /player/NAME: a player's ratings and rated games. @param {string} name */
export async function playerPage(name) {
  status(""); setSeatColors(null);
  document.title = `Conquest: ${name}`;
  /** @type {PlayerData} */
  let p;
  try { p = await api("GET", `/api/players/${encodeURIComponent(name)}`); }
  catch (e) { app.replaceChildren(h("section", { class: "card" }, h("h2", { text: "No such player" }), h("p", { text: /** @type {Error} */ (e).message }))); return; }
  app.replaceChildren(h("div", { class: "cols" },
    h("section", { class: "card player-ratings", "aria-labelledby": "p-h" }, h("h2", { id: "p-h", text: p.name }),
      h("h3", { text: "Ratings" }),
      p.ratings.length ? h("table", { class: "result", id: "ratings" }, h("tr", {}, ["Game", "Rating", "Games", "μ", "σ"].map(t => h("th", { text: t }))),
        p.ratings.map(r => h("tr", {}, h("td", { text: r.title }), h("td", {}, h("strong", { text: r.rating })), h("td", { text: r.games }),
          h("td", { text: r.mu.toFixed(2) }), h("td", { text: r.sigma.toFixed(2) }))))
        : h("p", { class: "help", text: "No rated game finished yet." }),
      h("p", { class: "help", text: "The rating is μ − 3σ of an openskill (Plackett-Luce) rating per game: it starts at 0 and rises as results are better and surer." })),
    h("section", { class: "card player-history", "aria-labelledby": "hist-h" }, h("h2", { id: "hist-h", text: "Rated games" }),
      p.history.length ? h("table", { class: "result", id: "history" }, h("tr", {}, ["When", "Game", "Place", "Rating"].map(t => h("th", { text: t }))),
        p.history.map(e => h("tr", {}, h("td", { text: (e.at || "").slice(0, 16).replace("T", " ") }), h("td", { text: e.title }),
          h("td", { text: `${e.rank} of ${e.of}` }), h("td", { text: `${e.before} → ${e.after}` }))))
        : h("p", { class: "help", text: "None yet." }))));
}

// ---- on a game page opened with a seat link: offer to add the seat to the account (once) ----
/** On a game page opened with a seat link: offer to add the seat to the account (once). @param {string} gid */
export async function offerClaim(gid) {
  const token = hashToken(); // read before anything else: the game page may tidy the address
  await ready;
  const nav = document.getElementById("account");
  if (!account() || !token || !nav || document.getElementById("claim-seat")) return;
  /** @type {{ games: (GameInfo & { error?: string, you: { seat: SeatIndex | null, name: string } })[] }} */
  let info;
  /** @type {{ games: AccountGame[] }} */
  let mine;
  try {
    [info, mine] = await Promise.all([api("POST", "/api/my-games", { games: [{ id: gid, token }] }), api("GET", "/api/account/games")]);
  } catch (e) { return; }
  const g = info.games[0];
  if (!g || g.error || g.you.seat === null || mine.games.some(x => x.id === gid && x.seat === g.you.seat)) return;
  const btn = h("button", { type: "button", id: "claim-seat", class: "linkish", text: `Add ${g.you.name}'s seat to my games`,
    onclick: async () => {
      try { await api("POST", "/api/account/claim", { game: gid, token }); btn.remove(); }
      catch (e) { toast(/** @type {Error} */ (e).message); }
    } });
  nav.prepend(btn);
}
