// ui.js and store.js: seat colours and names, labels, and the games this browser remembers.
import "./dom.js";
import { test } from "node:test";
import assert from "node:assert/strict";
import { COLORS, color, label, seatNamer, seatOf, setSeatColors, setSeatWords } from "../../conquest/web/static/ui.js";
import { absolute, forget, hashToken, remember, remembered, tokensOf } from "../../conquest/web/static/store.js";

test("a seat takes the game's colour, else the palette's; no seat is grey", () => {
  setSeatColors(null);
  assert.equal(color(1), COLORS[1]);
  assert.equal(color(COLORS.length + 2), COLORS[2]);
  for (const none of [null, undefined, -1, "chance"]) assert.equal(color(none), "#888");
  setSeatColors(["#d4af37", "#b0b0b0"]);
  assert.equal(color(0), "#d4af37");
  assert.equal(color(2), COLORS[2]); // a seat the game gives no colour
  setSeatColors([]);
  assert.equal(color(0), COLORS[0]);
});

test("story text names a seat by its name, its panel's title or 'you'", () => {
  setSeatWords({ game: { seats: [{ seat: 0, name: "Ann" }, { seat: 1, name: "Bob" }] }, you: { seat: 1 },
    board: { panels: [{ seat: 0, title: "Gold dragon" }] } });
  assert.equal(seatOf("The Gold dragon rolls"), 0);
  assert.equal(seatOf("Ann's Ratmen conquer"), 0);
  assert.equal(seatOf("You: 2 hits"), 1);
  assert.equal(seatOf("Bob"), 1);
  assert.equal(seatOf("Annabel moves"), null); // a name is matched as a word, not a prefix
  assert.equal(seatOf(null), null);
  setSeatWords(null);
  assert.equal(seatOf("Ann"), null);
});

test("labels and seat names", () => {
  assert.equal(label("max_rounds"), "Max rounds");
  assert.equal(label("heroes-need"), "Heroes need");
  const name = seatNamer({ seats: [{ seat: 0, name: "Ann" }] });
  assert.equal(name(0), "Ann");
  assert.equal(name(-1), "chance");
});

test("the browser remembers each game's seat once, newest first, and forgets a game", () => {
  localStorage.clear();
  remember({ id: "g1", token: "t0", seat: 0, name: "Ann" });
  remember({ id: "g2", token: "u0", seat: 0, name: "Cy" });
  remember({ id: "g1", token: "t1", seat: 1, name: "Bob" });
  remember({ id: "g1", token: "t0", seat: 0, name: "Ann" }); // again: moved to the front, not doubled
  assert.deepEqual(remembered().map(e => e.token), ["t0", "t1", "u0"]);
  assert.deepEqual(tokensOf("g1").map(e => e.token), ["t0", "t1"]);
  forget("g1");
  assert.deepEqual(remembered().map(e => e.id), ["g2"]);
  localStorage.setItem("conquest.games", "{not json");
  assert.deepEqual(remembered(), []);
});

test("a seat's token is read from the address's hash", () => {
  location.hash = "#t=AbC_9-x";
  assert.equal(hashToken(), "AbC_9-x");
  location.hash = "#step=3&t=tok";
  assert.equal(hashToken(), "tok");
  location.hash = "";
  assert.equal(hashToken(), null);
  assert.equal(absolute("/game/g1#t=x"), "http://127.0.0.1:8000/game/g1#t=x");
});
