"""Conquest of Nerath: per space its controller, Castle and the pieces of each realm; Warships per sea space;
gold, victory points and the seat's own Event and Treasure hands (other hands are counts in the view and are
written as counts); the battle under way. Realms are in the rules' order; which of them are the observer's is
written beside them.

``features(view, seat)`` defines the numbers; ``observe(state, seat)`` writes the same numbers straight from the
engine's flat state (the environments' fast path: no view is built), keeping the numbers of the board parts most
actions leave alone (pieces, control and Castles, Guardians, Warships, pieces free to move) while the next state's
part is equal to the one they were read from."""

from __future__ import annotations

from operator import attrgetter
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
NO_LIMIT_ROUNDS = 60   # the scale of the round when the game has no round limit (the option's default limit)
SPACE_COLUMNS = len(REALMS) + 6   # control by realm, Castle, built, placed, movable, Guardians, face-up ones


def _count(x: Any) -> float:
    return float(len(x)) if isinstance(x, list) else float(x or 0)


def _copy_lists(lists: tuple[list[Any], ...]) -> tuple[list[Any], ...]:
    return tuple(x[:] for x in lists)


def _copy_records(records: dict[int, list[Any]]) -> dict[int, list[Any]]:
    """A copy of records by key (the Warships)."""
    return {k: v[:] for k, v in records.items()}


def _copy_groups(groups: dict[int, list[list[Any]]]) -> dict[int, list[list[Any]]]:
    """A copy of lists of records by key (the Guardians of each entrance)."""
    return {k: [x[:] for x in v] for k, v in groups.items()}


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
        # the round is written as a share of the game's last round ("max_rounds"; 0, no limit: of 60 rounds)
        self.rounds = options["max_rounds"] or NO_LIMIT_ROUNDS
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
        f.add(view["round"], self.rounds)
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
        f.one_hot(_window(react.get("kind"), react.get("mover") in mine), REACTIONS)
        return np.concatenate([pieces.ravel(), space.ravel(), ships.ravel(), np.asarray(f.values, np.float32)])

    # ---- the same numbers read straight from the state ---------------------------------------------------
    def _fast_layout(self) -> None:
        """Where ``features`` writes each number, for ``observe``: the three board blocks, then the offsets of
        the flat part in the order ``features`` appends it."""
        S, R, K, C = len(self.spaces), len(REALMS), len(COUNTED), SPACE_COLUMNS
        self._pieces_end = S * R * K
        self._space0 = self._pieces_end
        self._ships0 = self._space0 + S * C
        o = self._ships0 + S * R * 2
        self._round = o
        self._phase = {p: o + 1 + i for i, p in enumerate(PHASES)}
        o += 1 + len(PHASES)
        self._realm0 = o
        self._seat0 = o + R
        self._money0 = o + 2 * R        # gold, victory points, then per realm: Event hand, Treasure hand, Event deck
        o += 4 * R + 3 * R
        self._event = {c: o + i for i, c in enumerate(self.events)}
        o += len(self.events)
        self._treasure = {c: o + i for i, c in enumerate(self.treasures)}
        o += len(self.treasures)
        self._tail0 = o                  # Treasure deck, battles declared, a battle under way
        o += 3
        self._bt_space0 = o
        o += S
        self._bt_att0 = o
        self._bt_defs0 = o + R
        o += 2 * R
        self._bt_step = {p: o + i for i, p in enumerate(BATTLE_STEPS)}
        o += len(BATTLE_STEPS)
        self._bt_counts0 = o             # round, hits on the attacker, hits on the defenders
        o += 3
        self._react = {k: o + i for i, k in enumerate(REACTIONS)}
        self._size = o + len(REACTIONS)
        # every piece count a cell can hold as ``features`` writes it (n / 5.0, as float32)
        self._fifths = np.array([c / 5.0 for c in range(256)], dtype=np.float32)
        # per seat: all zeros but the flags of the observer's realms; and those realms
        self._blank = []
        self._mine = []
        for seat in range(self.players):
            blank = np.zeros(self._size, dtype=np.float32)
            mine = [r for r in range(R) if self.seat_of[r] == seat]
            blank[[self._seat0 + r for r in mine]] = 1.0
            self._blank.append(blank)
            self._mine.append(mine)
        # the parts of the board that most actions leave as they were: their numbers are kept with a copy of
        # the state's part they were read from (every clone copies these lists, so only equality tells)
        self._kept: dict[str, tuple[Any, Any, np.ndarray]] = {}
        self._parts = (
            ("pieces", attrgetter("n"), self._read_pieces, list.copy),
            ("lands", attrgetter("ctrl", "castle"), self._read_lands, _copy_lists),
            ("guardians", attrgetter("guardians"), self._read_guardians, _copy_groups),
            ("ships", attrgetter("ships"), self._read_ships, _copy_records),
            ("movable", attrgetter("movable"), self._read_movable, dict.copy))

    def _part(self, name: str, part: Any, read: Any, copy: Any) -> tuple[Any, np.ndarray]:
        """(positions, numbers) of one part of the board, read again only when the part is not equal to the one
        last read (a thread sharing the encoding sees a consistent triple: it is stored at once)."""
        kept = self._kept.get(name)
        if kept is None or kept[0] != part:
            at, values = read(part)
            kept = self._kept[name] = (copy(part), at, values)
        return kept[1], kept[2]

    def _read_pieces(self, n: list[int]) -> tuple[slice, np.ndarray]:
        try:
            values = self._fifths.take(np.frombuffer(bytearray(n), dtype=np.uint8))
        except (ValueError, TypeError):   # a count outside 0..255, from a loaded state
            values = (np.asarray(n, dtype=np.float64) / 5.0).astype(np.float32)
        return slice(0, self._pieces_end), values

    def _read_lands(self, part: tuple[list[int], list[int]]) -> tuple[np.ndarray, np.ndarray]:
        ctrl, castle = part
        at = []
        for s in LANDS:
            base = self._space0 + s * SPACE_COLUMNS
            at.append(base + ctrl[s] % len(REALMS))    # the view names REALMS[ctrl]
            if castle[s]:
                at.append(base + 4)
        return np.array(at, dtype=np.intp), np.ones(len(at), dtype=np.float32)

    def _read_guardians(self, guardians: dict[int, list[list[Any]]]) -> tuple[np.ndarray, np.ndarray]:
        at: list[int] = []
        values: list[float] = []
        for s, tiles in guardians.items():
            base = self._space0 + s * SPACE_COLUMNS
            at += (base + 8, base + 9)
            values += (len(tiles) / 3.0, sum(1 for t in tiles if t[1]) / 3.0)   # t[1]: face up
        return np.array(at, dtype=np.intp), np.array(values, dtype=np.float32)

    def _read_ships(self, ships: dict[int, list[int]]) -> tuple[np.ndarray, np.ndarray]:
        acc: dict[int, float] = {}
        for sh in ships.values():
            i = self._ships0 + (sh[SPACE] * len(REALMS) + sh[OWNER]) * 2
            acc[i] = acc.get(i, 0.0) + 0.5
            acc[i + 1] = acc.get(i + 1, 0.0) + ((sh[C1] >= 0) + (sh[C2] >= 0)) / 4.0   # quarters: exact sums
        return np.array(list(acc), dtype=np.intp), np.array(list(acc.values()), dtype=np.float32)

    def _read_movable(self, movable: dict[int, int]) -> tuple[np.ndarray, np.ndarray]:
        by_space: dict[int, int] = {}   # pieces still free to move, by space (keys: space * pieces + piece)
        for key, c in movable.items():
            at = self._space0 + key // len(COUNTED) * SPACE_COLUMNS + 7
            by_space[at] = by_space.get(at, 0) + c
        return np.array(list(by_space), dtype=np.intp), np.array([c / 5.0 for c in by_space.values()], np.float32)

    def observe(self, state: NerathState, seat: int) -> np.ndarray:
        """``features(state.view(seat), seat)`` read straight from the state, without building the view: it
        must give exactly the view's numbers (tests/rl/test_envs.py holds the two equal as float32 at every
        decision of random games, and checks that another seat's hidden cards leave it as it was).

        Hidden from ``seat`` and deliberately not read: the cards of other seats' Event and Treasure hands
        (only how many), the cards of every Event deck and of the Treasure deck (only how many), the Event
        discards, and the tiles and dice of Guardians (only how many stand on an entrance and how many are
        face up)."""
        st = state
        out = self._blank[seat].copy()
        for name, part_of, read, copy in self._parts:
            where, numbers = self._part(name, part_of(st), read, copy)
            out[where] = numbers
        # what changes with most actions: positions and their numbers, written at once at the end
        at: list[int] = []
        values: list[float] = []
        C, s0 = SPACE_COLUMNS, self._space0
        for s in st.built:
            at.append(s0 + s * C + 5)
            values.append(1.0)
        for s, c in st.placed.items():
            at.append(s0 + s * C + 6)
            values.append(c / 5.0)
        ph = self._phase.get(st.phase)
        if ph is not None:
            at.append(ph)
            values.append(1.0)
        at += (self._round, self._realm0 + st.realm)
        values += (st.round / self.rounds, 1.0)
        hands, treasures, decks = st.hands, st.treasures, st.decks
        for r in self._mine[seat]:
            for card in hands[r]:
                if card in self._event:
                    at.append(self._event[card])
                    values.append(1.0)
            for card in treasures[r]:
                if card in self._treasure:
                    at.append(self._treasure[card])
                    values.append(1.0)
        gold, vp = st.gold, st.vp
        counts = [g / 50 for g in gold] + [v / 20 for v in vp]
        for r in range(len(REALMS)):
            counts += (len(hands[r]) / 5, len(treasures[r]) / 5, len(decks[r]) / 15)
        out[self._money0:self._money0 + len(counts)] = counts
        bt = st.bt
        t = self._tail0
        at += (t, t + 1)
        values += (len(st.treasure_deck) / 40, len(st.pending) / 5)
        if bt is not None:
            b = self._bt_counts0
            at += (t + 2, self._bt_space0 + bt["space"], self._bt_att0 + bt["att"], b, b + 1, b + 2)
            values += (1.0, 1.0, 1.0, bt["round"] / 5, bt["ha"] / 5, bt["hd"] / 5)
            for d in bt["defs"]:
                at.append(self._bt_defs0 + d)
                values.append(1.0)
            step = self._bt_step.get(bt["step"])
            if step is not None:
                at.append(step)
                values.append(1.0)
        react = st.react
        window = _window(react["kind"], react["mover"] in self._mine[seat]) if react is not None else None
        if window is not None:
            at.append(self._react[window])
            values.append(1.0)
        out[at] = values
        return out


def _window(kind: str | None, mover_is_mine: bool) -> str | None:
    """The card window a reaction opens for the observing seat (as ``effects`` names it): its own income
    (``income``), an enemy's income (``enemy_income``) or an enemy's move (``enemy_move``)."""
    if kind == "income":
        return "income" if mover_is_mine else "enemy_income"
    if kind == "move":
        return "enemy_move"
    return None


ENCODING = NerathEncoding
