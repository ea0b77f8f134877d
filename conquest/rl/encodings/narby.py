"""Narby: the 20x20 grid as planes (settlements, places of power, the chest, and per seat from the observer's
side its claims, dragon, cave and home), then the round, the node, coins, tokens, cards and the action under way.
Other seats' cards are "hidden" in the view: only whether they hold one is written."""

from __future__ import annotations

from typing import Any

import numpy as np

from conquest.rl.encodings.base import Encoding, Features
from conquest.rulesets.narby import board as B
from conquest.rulesets.narby.base import BONUS_KEYS, CHANCE_NODES, DECISION_NODES, PHASES
from conquest.rulesets.narby.notation import KEY_WORDS, NO_ARG, SQ_WORDS
from conquest.rulesets.narby.tables import TABLES as T

SQ = {B.sq_text(s): s for s in range(B.SQUARES)}
NODES = sorted(CHANCE_NODES | DECISION_NODES | {"over"})
KINDS = ("town", "city", "ruin")
VERBS = sorted(NO_ARG | KEY_WORDS | SQ_WORDS | {"card", "dragon", "choose", "claim2", "steal", "attack", "play",
                                                "power", "roll", "token"})
SHIFTS = ("x+2", "x-2", "y+2", "y-2")
EVENTS = ("attack", "steal", "destroy", "claim", "place", "upgrade", "place_power", "tribute", "token", "lose")


class NarbyEncoding(Encoding):
    ruleset = "narby"
    small = B.SQUARES  # every square is one token

    def strings(self) -> list[str]:
        return VERBS + list(T.place_ids) + list(T.dragon_ids) + list(T.card_ids) + ["chest"] + list(SHIFTS)

    def features(self, view: dict[str, Any], seat: int) -> np.ndarray:
        n = self.players
        order = self.others(seat)
        rel = {s: k for k, s in enumerate(order)}
        S = B.SQUARES
        grid = np.zeros((5 + 4 * n, S), dtype=np.float32)
        for sq, kind in view["settlements"].items():
            grid[KINDS.index(kind), SQ[sq]] = 1.0
        for sq in view["places"].values():
            grid[3, SQ[sq]] = 1.0
        if view["chest"]:
            grid[4, SQ[view["chest"]]] = 1.0
        place_claims = np.zeros((len(T.place_ids), n), dtype=np.float32)
        for key, owner in view["claims"].items():
            if key in SQ:
                grid[5 + rel[owner], SQ[key]] = 1.0
            else:
                place_claims[T.place_index[key], rel[owner]] = 1.0
        for plane, field in enumerate(("dragon_at", "caves", "home"), start=1):
            for s, sq in enumerate(view[field]):
                if sq:
                    grid[5 + plane * n + rel[s], SQ[sq]] = 1.0
        f = Features()
        f.add(view["round"], 100)
        f.one_hot(view["phase"], PHASES)
        f.one_hot(view["node"], NODES)
        f.one_hot(rel.get(view["seat"]) if view["seat"] is not None else None, range(n))
        f.add(view["step"], 3)
        f.many(view["dice"], 20)
        f.add(view["chest_coins"], 50)
        f.add(view["actions_left"], 3)
        f.many((view["bonus"][k] for k in BONUS_KEYS), 3)
        f.many((1.0 if p in view["powers_used"] else 0.0 for p in T.place_ids))
        f.many((1.0 if c in view["played"] else 0.0 for c in T.card_ids))
        f.one_hot(view["hands"][seat], T.card_ids)
        for s in order:
            f.one_hot(view["dragons"][s], T.dragon_ids)
            f.add(view["coins"][s], self.options["win"])
            f.add(view["tokens"][s], 10)
            f.add(view["token_count"][s], 5)
            f.add(view["rings_left"][s], 6)
            f.flag(view["hands"][s] is not None)
            f.one_hot(view["order"].index(s) if s in view["order"] else None, range(n))
        f.one_hot(view["turn"], range(n + 1))
        ev = view["event"] or {}
        f.one_hot(ev.get("type"), EVENTS)
        f.add(ev.get("mod", 0), 10)
        for key in ("actor", "defender", "seat", "by"):
            who = ev.get(key)
            f.one_hot(rel.get(who) if isinstance(who, int) else None, range(n))
        return np.concatenate([grid.ravel(), place_claims.ravel(), np.asarray(f.values, dtype=np.float32)])


ENCODING = NarbyEncoding
