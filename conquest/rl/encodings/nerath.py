"""Conquest of Nerath: per space its controller, Castle and the pieces of each realm; Warships per sea space;
gold, victory points and the seat's own Event and Treasure hands (other hands are counts in the view and are
written as counts); the battle under way. Realms are in the rules' order; which of them are the observer's is
written beside them."""

from __future__ import annotations

from typing import Any

import numpy as np

from conquest.rl.encodings.base import Encoding, Features
from conquest.rulesets.nerath.cards import event_cards, treasure_cards
from conquest.rulesets.nerath.data import COUNTED, PIECE_NAMES, REALMS, tables
from conquest.rulesets.nerath.notation import WORDS
from conquest.rulesets.nerath.state import PHASES
from conquest.rulesets.nerath.turn import NerathState

EXTRA_WORDS = ("ship", "guardian", "wounded-dragon")
BATTLE_STEPS = ("fs_a", "fs_d", "roll_a", "roll_d", "split", "plunder", "restock", "assign", "choose", "window")


def _count(x: Any) -> float:
    return float(len(x)) if isinstance(x, list) else float(x or 0)


class NerathEncoding(Encoding):
    ruleset = "nerath"
    small = 64

    def __init__(self, players: int, options: dict[str, Any]) -> None:
        super().__init__(players, options)
        board = tables().board
        self.spaces = list(board.ids)
        self.index = {s: i for i, s in enumerate(self.spaces)}
        self.events = sorted(event_cards())
        self.treasures = sorted(treasure_cards())
        self.seat_of = NerathState(players, options).seat_of

    def strings(self) -> list[str]:
        return (list(WORDS) + list(EXTRA_WORDS) + list(PIECE_NAMES) + list(REALMS) + self.spaces + self.events
                + self.treasures)

    def features(self, view: dict[str, Any], seat: int) -> np.ndarray:
        S, K = len(self.spaces), len(COUNTED)
        idx = self.index
        pieces = np.zeros((S, len(REALMS), K), dtype=np.float32)
        for sp, by_realm in view["pieces"].items():
            for realm, kinds in by_realm.items():
                r = REALMS.index(realm)
                for kind, n in kinds.items():
                    pieces[idx[sp], r, COUNTED.index(kind)] = n / 5.0
        space = np.zeros((S, len(REALMS) + 6), dtype=np.float32)
        for sp, realm in view["control"].items():
            if realm in REALMS:
                space[idx[sp], REALMS.index(realm)] = 1.0
        for sp in view["castles"]:
            space[idx[sp], 4] = 1.0
        for built in view["built"]:
            space[idx[built], 5] = 1.0
        for sp, n in view["placed"].items():
            space[idx[sp], 6] = n / 5.0
        for sp, kinds in view["movable"].items():
            space[idx[sp], 7] = sum(kinds.values()) / 5.0
        for sp, tiles in view["guardians"].items():
            space[idx[sp], 8] = len(tiles) / 3.0
            space[idx[sp], 9] = sum(1 for t in tiles if t["face_up"]) / 3.0
        ships = np.zeros((S, len(REALMS), 2), dtype=np.float32)
        for ship in view["ships"].values():
            if ship["space"] in idx and ship["owner"] in REALMS:
                i, r = idx[ship["space"]], REALMS.index(ship["owner"])
                ships[i, r, 0] += 0.5
                ships[i, r, 1] += len(ship["cargo"]) / 4.0
        f = Features()
        f.add(view["round"], self.options["max_rounds"])
        f.one_hot(view["phase"], PHASES)
        f.one_hot(view["realm"], REALMS)
        f.many((1.0 if self.seat_of[i] == seat else 0.0 for i in range(len(REALMS))))
        f.many((view["gold"][realm] for realm in REALMS), 50)
        f.many((view["vp"][realm] for realm in REALMS), 20)
        for realm in REALMS:
            f.add(_count(view["event_hands"][realm]), 5)
            f.add(_count(view["treasure_hands"][realm]), 5)
            f.add(_count(view["event_decks"][realm]), 15)
        mine = [r for i, r in enumerate(REALMS) if self.seat_of[i] == seat]
        events = {c for r in mine if isinstance(view["event_hands"][r], list) for c in view["event_hands"][r]}
        treasures = {c for r in mine if isinstance(view["treasure_hands"][r], list) for c in view["treasure_hands"][r]}
        f.many((1.0 if c in events else 0.0 for c in self.events))
        f.many((1.0 if c in treasures else 0.0 for c in self.treasures))
        f.add(view["treasure_deck"], 40)
        f.add(len(view["battles"]), 5)
        bt = view["battle"] or {}
        f.flag(bool(bt))
        f.one_hot(bt.get("space"), self.spaces)
        f.one_hot(bt.get("attacker"), REALMS)
        f.many((1.0 if r in bt.get("defenders", ()) else 0.0 for r in REALMS))
        f.one_hot(bt.get("step"), BATTLE_STEPS)
        f.add(bt.get("round", 0), 5)
        f.add(bt.get("hits_on_attacker", 0), 5)
        f.add(bt.get("hits_on_defenders", 0), 5)
        react = view["reaction"] or {}
        f.one_hot(react.get("kind"), ("income", "enemy_move", "enemy_income"))
        return np.concatenate([pieces.ravel(), space.ravel(), ships.ravel(), np.asarray(f.values, np.float32)])


ENCODING = NerathEncoding
