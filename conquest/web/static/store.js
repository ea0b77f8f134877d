// @ts-check
// The games this browser knows (their links and seat tokens), kept in localStorage.
const STORE_KEY = "conquest.games";
/** @returns {StoredGame[]} */
export function remembered() { try { return JSON.parse(localStorage.getItem(STORE_KEY) || "[]"); } catch (e) { return []; } }
/** @param {StoredGame} entry */
export function remember(entry) {
  const all = remembered().filter(e => !(e.id === entry.id && e.token === entry.token));
  all.unshift(entry); localStorage.setItem(STORE_KEY, JSON.stringify(all.slice(0, 200)));
}
/** @param {string} id */
export function forget(id) { localStorage.setItem(STORE_KEY, JSON.stringify(remembered().filter(e => e.id !== id))); }
/** @param {string} id */
export function tokensOf(id) { return remembered().filter(e => e.id === id); }
export function hashToken() { const m = location.hash.match(/[#&]t=([A-Za-z0-9_-]+)/); return m ? m[1] : null; }
/** @param {string} link */
export function absolute(link) { return location.origin + link; }
