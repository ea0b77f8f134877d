// @ts-check
// The replay page: any step of a game, as a seat or spectator saw it then.
import { h, app, api, toast, status, seatNamer, downloadRecord, setSeatColors, setSeatWords } from "./ui.js";
import { tokensOf, hashToken } from "./store.js";
import { fitLabels } from "./board.js";
import { stopLive, boardSection, logList } from "./game.js";
import { playerPanels, viewPanel } from "./panels.js";

/** @param {string} gid */
export async function replayPage(gid) {
  const token = hashToken() || (tokensOf(gid)[0] || {}).token;
  stopLive();
  if (!token) { app.replaceChildren(h("p", { text: "This replay link has no token." })); return; }
  let step = 0, total = 0;
  /** @param {number} k */
  async function show(k) {
    /** @type {ReplayData} */
    let d;
    try { d = await api("GET", `/api/games/${gid}/replay?step=${k}`, undefined, token); } catch (e) { toast(/** @type {Error} */ (e).message); return; }
    step = d.step; total = d.total;
    const g = d.game; const seatName = seatNamer(g);
    setSeatColors(d.board && d.board.colors); setSeatWords(d);
    status(`Replay of ${g.title}: step ${step} of ${total}`);
    const slider = h("input", { type: "range", min: 0, max: total, value: step, id: "replay-step", "aria-label": "Step" });
    slider.addEventListener("change", () => show(Number(slider.value)));
    const ctl = h("div", { class: "bar" },
      h("button", { type: "button", onclick: () => show(0), text: "|◀", "aria-label": "first step" }),
      h("button", { type: "button", id: "prev", onclick: () => show(Math.max(0, step - 1)), text: "◀", "aria-label": "previous step" }),
      h("span", { id: "replay-pos", text: `step ${step} / ${total}` }),
      h("button", { type: "button", id: "next", onclick: () => show(Math.min(total, step + 1)), text: "▶", "aria-label": "next step" }),
      h("button", { type: "button", onclick: () => show(total), text: "▶|", "aria-label": "last step" }),
      slider,
      h("a", { href: `/game/${gid}#t=${token}`, text: "Back to the game" }),
      h("button", { type: "button", onclick: () => downloadRecord(gid, token), text: "Download record" }));
    const tm = d.to_move === null ? "game over" : d.to_move === "chance" ? "chance to draw" : `${d.to_move_name} to move`;
    const boardBox = boardSection(d, { places: new Set(), selected: [], onRegion: () => {}, seatName, key: `replay-${gid}` });
    const pd = { ...d, game: { ...g, to_move: d.to_move }, thinking: null };
    app.replaceChildren(h("div", { class: "card" }, h("h2", { text: `Replay: ${g.title}` }), ctl, h("p", { class: "turn", id: "replay-turn", text: tm })),
      h("div", { class: "game" }, boardBox, h("section", { class: "side" },
        h("div", { class: "card" }, playerPanels(pd, seatName)),
        d.board && d.board.map ? h("details", { class: "card" }, h("summary", { text: "Details" }), ...viewPanel(d, false)) : null,
        h("div", { class: "card" }, h("h2", { text: "Log" }), logList(d.log, seatName)))));
    for (const svg of /** @type {NodeListOf<BoardSvg>} */ (app.querySelectorAll("svg.board"))) fitLabels(svg);
  }
  document.onkeydown = (ev) => {
    if (!location.pathname.endsWith("/replay") || /** @type {HTMLElement} */ (ev.target).tagName === "INPUT") return;
    if (ev.key === "ArrowRight") show(Math.min(total, step + 1));
    if (ev.key === "ArrowLeft") show(Math.max(0, step - 1));
  };
  await show(0);
}
