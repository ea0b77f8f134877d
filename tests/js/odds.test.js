// odds.js: the percentages shown on the odds badges and bars, and the calculator's address for a game's battle.
import "./dom.js";
import { test } from "node:test";
import assert from "node:assert/strict";
import { pct, calcHash, calcLink } from "../../conquest/web/static/odds.js";

test("pct keeps certainty apart from a near-certainty", () => {
  assert.equal(pct(0), "0%");
  assert.equal(pct(1), "100%");
  assert.equal(pct(0.0004), "<0.1%");
  assert.equal(pct(0.9996), ">99.9%");
  assert.equal(pct(0.042), "4.2%");   // one decimal under 10% and over 90%
  assert.equal(pct(0.955), "95.5%");
  assert.equal(pct(0.37), "37%");     // whole percents between
});

test("calcHash writes the pieces and only the settings that differ from the defaults", () => {
  const q = new URLSearchParams(calcHash({ attacker: ["footsoldier", "footsoldier", "wizard"], defender: ["castle"],
    order: "cheapest", press: "always", attacker_cards: [], defender_cards: ["k-dark-rites"] }));
  assert.equal(q.get("a"), "footsoldier,footsoldier,wizard");
  assert.equal(q.get("d"), "castle");
  assert.equal(q.get("dc"), "k-dark-rites");
  for (const absent of ["order", "press", "sea", "dungeon", "l", "ac", "lc"]) assert.equal(q.has(absent), false, absent);
  const other = new URLSearchParams(calcHash({ attacker: ["warship"], defender: ["warship"], sea: true, order: "listed",
    press: "until-below=2" }));
  assert.equal(other.get("sea"), "1");
  assert.equal(other.get("order"), "listed");
  assert.equal(other.get("press"), "until-below=2");
});

test("calcLink puts the first allied realm as the defender and the second as its ally", () => {
  const link = calcLink({ attacker: ["siege"], defender: [], allies: { Karkoth: ["castle"], Elsir: ["footsoldier"] },
    order: "cheapest", press: "always" }, "nerath");
  assert.ok(link.startsWith("/calc/nerath#"), link);
  const q = new URLSearchParams(link.split("#")[1]);
  assert.equal(q.get("d"), "castle");
  assert.equal(q.get("l"), "footsoldier");
  const dungeon = new URLSearchParams(calcLink({ attacker: ["fighter"], defender: ["troll", "facedown"], kind: "dungeon" },
    "nerath").split("#")[1]);
  assert.equal(dungeon.get("dungeon"), "1");
  assert.equal(dungeon.get("d"), "troll,facedown");
  assert.equal(dungeon.has("l"), false);
});
