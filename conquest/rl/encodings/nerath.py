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
from conquest.rulesets.nerath.state import C1, C2, LANDS, OWNER, PHASES, SPACE
from conquest.rulesets.nerath.turn import NerathState

EXTRA_WORDS = ("ship", "guardian", "wounded-dragon")
BATTLE_STEPS = ("fs_a", "fs_d", "roll_a", "roll_d", "split", "plunder", "restock", "assign", "choose", "window")
REACTIONS = ("income", "enemy_move", "enemy_income")
SPACE_COLUMNS = len(REALMS) + 6   # control by realm, Castle, built, placed, movable, Guardians, face-up ones


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
        self._fast_layout()

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

    # ---- the same numbers read straight from the state ---------------------------------------------------
    def _fast_layout(self) -> None:
        """Where ``features`` writes each number, for ``observe``: the three board blocks, then the offsets of
        the flat part in the order ``features`` appends it."""
        S, R, K, C = len(self.spaces), len(REALMS), len(COUNTED), SPACE_COLUMNS
        self._pieces_end = S * R * K
        self._space0 = self._pieces_end
        self._ships0 = self._space0 + S * C
        o = self._flat0 = self._ships0 + S * R * 2
        self._round = o
        self._phase = {p: o + 1 + i for i, p in enumerate(PHASES)}
        o += 1 + len(PHASES)
        self._realm0 = o
        self._seat0 = o + R
        self._money0 = o + 2 * R            # gold then victory points, by realm
        self._hands0 = o + 4 * R             # per realm: Event hand, Treasure hand, Event deck
        o += 4 * R + 3 * R
        self._event = {c: o + i for i, c in enumerate(self.events)}
        o += len(self.events)
        self._treasure = {c: o + i for i, c in enumerate(self.treasures)}
        o += len(self.treasures)
        self._tail0 = o                      # Treasure deck, battles declared, a battle under way
        o += 3
        self._bt_space0 = o
        o += S
        self._bt_att0 = o
        self._bt_defs0 = o + R
        o += 2 * R
        self._bt_step = {p: o + i for i, p in enumerate(BATTLE_STEPS)}
        o += len(BATTLE_STEPS)
        self._bt_counts0 = o                 # round, hits on the attacker, hits on the defenders
        o += 3
        self._react = {k: o + i for i, k in enumerate(REACTIONS)}
        self._size = o + len(REACTIONS)
        # every piece count the view can hold, written as features writes it (n / 5.0 as float32)
        self._fifths = np.array([n / 5.0 for n in range(256)], dtype=np.float32)
        self._lands = [(s, self._space0 + s * C) for s in LANDS]
        # per seat: zeros but for the flags of the observer's realms, and those realms
        self._blank = []
        self._mine = []
        for seat in range(self.players):
            blank = np.zeros(self._size, dtype=np.float32)
            mine = [r for r in range(R) if self.seat_of[r] == seat]
            for r in mine:
                blank[self._seat0 + r] = 1.0
            self._blank.append(blank)
            self._mine.append(mine)
        # the board blocks of the last state read, kept while the next state's lists are equal to them
        self._last_n: list[int] | None = None
        self._last_pieces = np.zeros(0, dtype=np.float32)
        self._last_land: tuple[list[int], list[int]] | None = None
        self._last_land_ix = np.zeros(0, dtype=np.intp)

    def observe(self, state: NerathState, seat: int) -> np.ndarray:
        """``features(state.view(seat), seat)`` read straight from the state (tests/rl/test_envs.py holds the
        two equal as float32 at every decision of random games). No view is built.

        Hidden from ``seat``, and deliberately not read here: the cards of other seats' Event and Treasure
        hands (only their counts), every Event deck and the Treasure deck (counts), the Event discards, and the
        tiles and dice of facedown Guardians (only how many Guardians and how many face up)."""
        st = state
        out = self._blank[seat].copy()
        # pieces: one number per (space, realm, piece), the state's own flat layout
        n = st.n
        if n != self._last_n:
            try:
                counts = np.frombuffer(bytes(n), dtype=np.uint8)
                self._last_pieces = self._fifths[counts]
            except ValueError:   # a count outside 0..255, from a loaded state
                self._last_pieces = (np.asarray(n, dtype=np.float64) / 5.0).astype(np.float32)
            self._last_n = n[:]
        out[:self._pieces_end] = self._last_pieces
        # land spaces: controller and Castle (they change only when a space falls or a Castle is built)
        ctrl, castle = st.ctrl, st.castle
        last = self._last_land
        if last is None or ctrl != last[0] or castle != last[1]:
            ix = []
            for s, base in self._lands:
                ix.append(base + ctrl[s] % 4)    # as the view's REALMS[ctrl]
                if castle[s]:
                    ix.append(base + 4)
            self._last_land = (ctrl[:], castle[:])
            self._last_land_ix = np.array(ix, dtype=np.intp)
        out[self._last_land_ix] = 1.0
        ones: list[int] = []
        at: list[int] = []
        vals: list[float] = []
        C, s0 = SPACE_COLUMNS, self._space0
        for s in st.built:
            ones.append(s0 + s * C + 5)
        for s, c in st.placed.items():
            at.append(s0 + s * C + 6)
            vals.append(c / 5.0)
        if st.movable:
            moving: dict[int, int] = {}
            for key, c in st.movable.items():
                s = key // len(COUNTED)
                moving[s] = moving.get(s, 0) + c
            for s, c in moving.items():
                at.append(s0 + s * C + 7)
                vals.append(c / 5.0)
        for s, tiles in st.guardians.items():
            if tiles:
                at.append(s0 + s * C + 8)
                vals.append(len(tiles) / 3.0)
                at.append(s0 + s * C + 9)
                vals.append(sum(1 for t in tiles if t[1]) / 3.0)
        if st.ships:
            ships: dict[int, list[float]] = {}
            sh0 = self._ships0
            for sh in st.ships.values():
                i = sh0 + (sh[SPACE] * 4 + sh[OWNER]) * 2
                acc = ships.get(i)
                if acc is None:
                    acc = ships[i] = [0.0, 0.0]
                acc[0] += 0.5
                acc[1] += ((sh[C1] >= 0) + (sh[C2] >= 0)) / 4.0
            for i, (k, c) in ships.items():
                at.append(i)
                vals.append(k)
                at.append(i + 1)
                vals.append(c)
        # the flat part
        ph = self._phase.get(st.phase)
        if ph is not None:
            ones.append(ph)
        ones.append(self._realm0 + st.realm)
        hands, treasures, decks = st.hands, st.treasures, st.decks
        for r in self._mine[seat]:
            ones.extend([self._event[c] for c in hands[r] if c in self._event])
            ones.extend([self._treasure[c] for c in treasures[r] if c in self._treasure])
        flat = [st.round / self.options["max_rounds"]]
        o = self._round
        gold, vp = st.gold, st.vp
        money = [gold[0] / 50, gold[1] / 50, gold[2] / 50, gold[3] / 50, vp[0] / 20, vp[1] / 20, vp[2] / 20,
                 vp[3] / 20]
        counts = []
        for r in range(4):
            counts += (len(hands[r]) / 5, len(treasures[r]) / 5, len(decks[r]) / 15)
        bt = st.bt
        tail = [len(st.treasure_deck) / 40, len(st.pending) / 5, 1.0 if bt is not None else 0.0]
        at.append(o)
        vals.extend(flat)
        out[self._money0:self._money0 + 8] = money
        out[self._hands0:self._hands0 + 12] = counts
        out[self._tail0:self._tail0 + 3] = tail
        if bt is not None:
            ones.append(self._bt_space0 + bt["space"])
            ones.append(self._bt_att0 + bt["att"])
            ones.extend([self._bt_defs0 + d for d in bt["defs"]])
            step = self._bt_step.get(bt["step"])
            if step is not None:
                ones.append(step)
            b = self._bt_counts0
            out[b:b + 3] = (bt["round"] / 5, bt["ha"] / 5, bt["hd"] / 5)
        react = st.react
        if react is not None and react["kind"] in self._react:
            ones.append(self._react[react["kind"]])
        out[ones] = 1.0
        out[at] = vals
        return out


ENCODING = NerathEncoding
