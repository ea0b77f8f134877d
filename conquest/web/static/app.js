// @ts-check
// Conquest web page: the router. Plain JavaScript ES modules served by the app (no build step, nothing from
// the internet): ui.js (helpers), store.js (this browser's games), lobby.js, game.js (game page, hot-seat),
// replay.js, accounts.js (accounts, open tables, players), board.js (the SVG board, zoom and pan), actions.js (action input), panels.js (players, help).
import { lobby } from "./lobby.js";
import { gamePage } from "./game.js";
import { replayPage } from "./replay.js";
import { accountPage, tablesPage, playerPage, offerClaim } from "./accounts.js";

function route() {
  const p = location.pathname;
  let m;
  if ((m = p.match(/^\/game\/([A-Za-z0-9_-]+)\/replay$/))) return replayPage(m[1]);
  if ((m = p.match(/^\/game\/([A-Za-z0-9_-]+)$/))) { offerClaim(m[1]); return gamePage(m[1]); }
  if (p === "/account") return accountPage();
  if (p === "/tables") return tablesPage();
  if ((m = p.match(/^\/player\/([^/]+)$/))) return playerPage(decodeURIComponent(m[1]));
  return lobby();
}
window.addEventListener("hashchange", () => { if (location.pathname.startsWith("/game/")) route(); });
route();
