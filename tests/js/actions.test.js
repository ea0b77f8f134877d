// actions.js: how the legal actions are grouped into count steppers and titled sections.
import "./dom.js";
import { test } from "node:test";
import assert from "node:assert/strict";
import { entries, sectionTitle } from "../../conquest/web/static/actions.js";

const act = (text, description = text, places = []) => ({ text, description, places });

test("a count's options share one entry, sorted, whatever order the server lists them in", () => {
  const es = entries([act("recruit 3", "recruit 3 (3 armies)"), act("recruit 1", "recruit 1 (1 army)"),
    act("recruit 2", "recruit 2 (2 armies)")]);
  assert.equal(es.length, 1);
  assert.equal(es[0].key, "recruit #");
  assert.deepEqual(es[0].options.map(o => o.n), [1, 2, 3]);
});

test("numbers that pick different things stay apart, and actions without a number are left alone", () => {
  const es = entries([act("pick 0", "pick 0 (Fortified Wizards)"), act("pick 1", "pick 1 (Seafaring Amazons)"),
    act("end")]);
  assert.deepEqual(es.map(e => [e.key, e.options.map(o => o.n)]), [["pick #", [0]], ["pick #", [1]], ["end", [null]]]);
});

test("a section is titled by the word most descriptions start with, and the space they all leave from", () => {
  const names = id => ({ k04: "Blackmere", k03: "Gallows Reach" })[id] || id;
  const group = entries([act("move k04 k03 footsoldier 1", "Move 1 footsoldier from Blackmere to Gallows Reach", ["k04", "k03"]),
    act("move k04 k05 wizard 1", "Move 1 wizard from Blackmere to the Fens", ["k04", "k05"])]);
  assert.equal(sectionTitle("move\u0000k04", group, names), "Move from Blackmere");
  // a space the descriptions do not all say "from": the title only names it
  const mixed = entries([act("attack k04 k03", "Attack Gallows Reach", ["k04", "k03"])]);
  assert.equal(sectionTitle("attack\u0000k04", mixed, names), "Attack · Blackmere");
  // no description word shared by most: the verb of the notation, capitalised
  const plain = entries([act("buy a", "a: Footsoldier"), act("buy b", "b: Wizard")]);
  assert.equal(sectionTitle("buy", plain, names), "Buy");
});
