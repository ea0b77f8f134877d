// log.js and game.js: the story's groups, what happened since a seat last acted, the questions before an
// irreversible action, the turn line and a casualty prompt's count of hits.
import "./dom.js";
import { test } from "node:test";
import assert from "node:assert/strict";
import { confirmText, grouped, sinceMine } from "../../conquest/web/static/log.js";
import { promptText, turnText } from "../../conquest/web/static/game.js";

const line = (step, seat, extra = {}) => ({ text: `step ${step}`, by: `seat ${seat}`, step, seat, ...extra });

test("consecutive lines of one event are grouped; a line without a group stands alone", () => {
  const log = [line(0, 0), line(1, 0, { group: "b1" }), line(2, null, { group: "b1" }), line(3, 1, { group: "b2" }),
    line(4, 1), line(5, 1)];
  assert.deepEqual(grouped(log).map(g => [g.group, g.entries.map(e => e.step)]),
    [[null, [0]], ["b1", [1, 2]], ["b2", [3]], [null, [4]], [null, [5]]]);
});

test("since a seat's last action: the lines after it; a spectator sees the last 12", () => {
  const log = Array.from({ length: 20 }, (_, i) => line(i, i % 3 === 0 ? 0 : 1));
  assert.deepEqual(sinceMine(log, 0).map(e => e.step), [19]);
  assert.deepEqual(sinceMine(log, 1).map(e => e.step), []);
  assert.deepEqual(sinceMine(log, 2).map(e => e.step), log.map(e => e.step)); // never acted: everything
  assert.equal(sinceMine(log, null).length, 12);
  assert.equal(sinceMine(log, null)[0].step, 8);
});

test("an irreversible action's question is found by its text, typed with spaces around", () => {
  const legal = [{ text: "decline", description: "decline", places: [], confirm: "Decline your Ratmen?" },
    { text: "end", description: "end", places: [] }];
  assert.equal(confirmText(legal, "  decline "), "Decline your Ratmen?");
  assert.equal(confirmText(legal, "end"), null);
  assert.equal(confirmText(legal, "pass"), null);
  assert.equal(confirmText(undefined, "end"), null);
});

const game = (over = {}) => ({ id: "g", title: "T", ruleset: "nerath", seats: [], to_move: 1, to_move_name: "Bob",
  to_move_kind: "human", over: false, step: 3, revision: 3, ...over });

test("the turn line says whose turn it is from this seat's side", () => {
  const you = { seat: 0, name: "Ann" };
  assert.equal(turnText({ game: game({ over: true }), you, log: [] }), "The game is over.");
  assert.equal(turnText({ game: game({ to_move: 0 }), you, log: [] }), "Your turn.");
  assert.equal(turnText({ game: game(), you, log: [] }), "Bob is to move.");
  assert.equal(turnText({ game: game({ to_move_kind: "greedy" }), you, log: [] }), "Bob (computer, greedy) is thinking…");
  assert.equal(turnText({ game: game({ to_move: "chance", to_move_kind: "chance" }), you, log: [] }), "Rolling / drawing…");
  assert.equal(turnText({ game: game({ to_move_kind: "record" }), you, log: [] }), "A recorded game: it stops here.");
});

test("a casualty prompt counts the hits of the scoring side's last roll in that battle", () => {
  const prompt = { text: "Choose a casualty: {nth} ({total}).", hits: { group: "b1", side: "attacker", left: 2 } };
  const log = [line(0, 0, { group: "b1", side: "attacker", hits: 1 }), line(1, 1, { group: "b1", side: "defender", hits: 5 }),
    line(2, 0, { group: "b1", side: "attacker", hits: 3 }), line(3, 1, { group: "b2", side: "attacker", hits: 6 })];
  const d = { game: game(), you: { seat: 1, name: "Bob" }, board: { prompt }, log };
  assert.equal(promptText(d), "Choose a casualty: 2 of 3 (3 hits).");
  const first = { ...d, board: { prompt: { ...prompt, hits: { ...prompt.hits, left: 1 } } }, log: [log[0]] };
  assert.equal(promptText(first), "Choose a casualty: 1 of 1 (1 hit).");
  assert.equal(promptText({ ...d, board: { prompt: { text: "Retreat?" } } }), "Retreat?");
});
