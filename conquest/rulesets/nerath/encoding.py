"""Conquest of Nerath: per space its controller, Castle and the pieces of each realm; Warships per sea space;
gold, victory points and the seat's own Event and Treasure hands (other hands are counts in the view and are
written as counts); the battle under way. Realms are in the rules' order; which of them are the observer's is
written beside them.

``features(view, seat)`` defines the numbers; ``observe(state, seat)`` writes the same numbers straight from the
engine's flat state (the environments' fast path: no view is built), into each seat's own array, writing again
only the numbers whose values in the state differ from the copies they were last written from."""

from __future__ import annotations

from collections.abc import MutableSequence
from typing import Any

import numpy as np

from conquest.core.encoding import Encoding, Features
from conquest.rulesets.nerath.cards import event_cards, treasure_cards
from conquest.rulesets.nerath.data import COUNTED, N_TYPES, PIECE_NAMES, REALMS, R, tables
from conquest.rulesets.nerath.notation import WORDS
from conquest.rulesets.nerath.rules import NerathState
from conquest.rulesets.nerath.state import C1, C2, LANDS, OWNER, PER_SPACE, PHASES, SPACE

EXTRA_WORDS = ("ship", "guardian", "wounded-dragon")
BATTLE_STEPS = ("fs_a", "fs_d", "roll_a", "roll_d", "split", "plunder", "assign", "choose", "window")
REACTIONS = ("income", "enemy_move", "enemy_income")
NO_LIMIT_ROUNDS = 60   # the scale of the round when the game has no round limit (the option's default limit)
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
        f.many(1.0 if self.seat_of[i] == seat else 0.0 for i in range(len(REALMS)))
        f.many((view["gold"][realm] for realm in REALMS), 50)
        f.many((view["vp"][realm] for realm in REALMS), 20)
        for realm in REALMS:
            f.add(_count(view["event_hands"][realm]), 5)
            f.add(_count(view["treasure_hands"][realm]), 5)
            f.add(_count(view["event_decks"][realm]), 15)
        mine = [r for i, r in enumerate(REALMS) if self.seat_of[i] == seat]
        events = {c for r in mine if isinstance(view["event_hands"][r], list) for c in view["event_hands"][r]}
        treasures = {c for r in mine if isinstance(view["treasure_hands"][r], list) for c in view["treasure_hands"][r]}
        f.many(1.0 if c in events else 0.0 for c in self.events)
        f.many(1.0 if c in treasures else 0.0 for c in self.treasures)
        f.add(view["treasure_deck"], 40)
        f.add(len(view["battles"]), 5)
        bt = view["battle"] or {}
        f.flag(bool(bt))
        f.one_hot(bt.get("space"), self.spaces)
        f.one_hot(bt.get("attacker"), REALMS)
        f.many(1.0 if r in bt.get("defenders", ()) else 0.0 for r in REALMS)
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
        self._phase: dict[str | None, int] = {p: o + 1 + i for i, p in enumerate(PHASES)}
        o += 1 + len(PHASES)
        self._realm0 = o
        self._seat0 = o + R
        self._money0 = o + 2 * R        # gold, victory points, then per realm: Event hand, Treasure hand, Event deck
        o += 4 * R + 3 * R
        # where gold, victory points and the numbers of cards held (the Event hands, the Treasure hands, the
        # Event decks) are written, and their scales
        m = self._money0
        self._money_at = [m + r for r in range(2 * R)] + [m + 2 * R + 3 * r + j for j in range(3) for r in range(R)]
        self._money_scale = [50] * R + [20] * R + [5] * (2 * R) + [15] * R
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
        self._fifth = self._fifths.tolist()
        # per seat: its realms and the flags that say so
        self._mine = [tuple(r for r in range(R) if self.seat_of[r] == seat) for seat in range(self.players)]
        self._flags = [[self._seat0 + r for r in mine] for mine in self._mine]
        # each seat's numbers; the common ones (all but the seat's own) are up to date in the last seat's,
        # written from the copies of the state's values kept in ``_seen``
        self._seats = [_Seat(seat, self._size) for seat in range(self.players)]
        for me in self._seats:
            me.buf[self._flags[me.seat]] = 1.0
        self._last: _Seat | None = None
        self._seen = _Seen(S)

    def observe(self, state: NerathState, seat: int) -> np.ndarray:
        """``features(state.view(seat), seat)`` read straight from the state, without building the view: it
        must give exactly the view's numbers (tests/rl/test_envs.py holds the two equal as float32 at every
        decision of random games, and checks that another seat's hidden cards leave it as it was).

        Each seat has its own array, returned (the caller copies it before it is written again). The numbers
        every seat sees alike are kept with copies of the state's values they were written from (compared by
        value: a clone copies them, and a state may be changed in place), in the array of the seat observed
        last: another seat's array takes them from it first. Then only the numbers whose values differ from
        the ones kept are written, and the seat's own ones (which realms are its, the cards of its hands, the
        card window open to it) when they changed. Piece counts (1,960 of them) are looked for first where
        the other parts say pieces went (the kinds that moved or were loaded, the spaces where pieces were
        placed or fight), then, if the counts still differ, everywhere.

        Hidden from ``seat`` and never written from: the cards of other seats' Event and Treasure hands
        (only how many), the cards of every Event deck and of the Treasure deck (only how many), the Event
        discards, and the tiles and dice of Guardians (only how many stand on an entrance and how many are
        face up; the Guardians are compared whole, which only decides when they are counted again)."""
        # Long because: one pass over the state that compares each part with the values it was last written from and
        # rewrites only the numbers that changed; it runs at every step of the RL environments, with the seat's
        # array and its kept values in locals of one frame.
        st = state
        k = self._seen
        me = self._seats[seat]
        buf = me.buf
        last = self._last
        if last is not me:
            if last is not None:
                buf[:] = last.buf
                for i in self._own(last):
                    buf[i] = 0.0
                for i in self._own(me):
                    buf[i] = 1.0
            self._last = me
        ctrl, castle = st.ctrl, st.castle
        if ctrl != k.ctrl or castle != k.castle:
            self._lands(buf, ctrl, castle)
        # where piece counts may have changed: the columns (realm and kind) of the pieces that moved, were
        # loaded or unloaded, the rows of the spaces where pieces were placed, a battle is or was fought or
        # Guardians changed (and the counts the pieces that moved left: if one differs, the counts changed)
        cols: set[int] = set()
        rows: list[int] = []
        left: list[int] = []
        guardians = st.guardians
        if guardians != k.guardians:
            if k.guardians is not None:
                rows = [d for d, tiles in guardians.items() if tiles != k.guardians.get(d)]
            k.gdn = _swap(buf, k.gdn, self._guardians(guardians))
            k.guardians = {d: [t[:] for t in tiles] for d, tiles in guardians.items()}
        ships = st.ships
        if ships != k.ships:
            self._ships(buf, ships, cols)
        many = False      # so many changed that looking for the counts everywhere costs less
        movable = st.movable
        if movable != k.movable:
            many = self._movable(buf, movable, st.realm, cols, left)
        C, s0 = SPACE_COLUMNS, self._space0
        built = st.built
        if built != k.built:
            for s in k.built:
                buf[s0 + s * C + 5] = 0.0
            for s in built:
                buf[s0 + s * C + 5] = 1.0
            k.built = built[:]
        placed = st.placed
        if placed != k.placed:
            for s in {s for s, _ in placed.items() ^ k.placed.items()}:
                buf[s0 + s * C + 6] = placed.get(s, 0) / 5.0
                rows.append(s)
            k.placed = placed.copy()
        n, kept = st.pieces, k.n
        sure = False
        if left and kept is not None:
            for i in left:
                if n[i] != kept[i]:
                    sure = True
                    break
        if sure or n != kept:
            if st.battle is not None:
                rows.append(st.battle.space)
            if k.bt is not None and (st.battle is None or k.bt[0] != st.battle.space):
                rows.append(k.bt[0])
            self._pieces(buf, n, () if many else cols, rows)
        hands, treasures = st.hands, st.treasures
        # gold, victory points, how many cards each hand and deck holds (never which)
        money = st.gold + st.vp + list(map(len, hands + treasures + st.decks))
        kept_money = k.money
        if money != kept_money:
            where, scale = self._money_at, self._money_scale
            for i, x in enumerate(money):
                if x != kept_money[i]:
                    buf[where[i]] = x / scale[i]
                    kept_money[i] = x
        # the round, phase and realm to play, the Treasure deck, the battles declared and the one under way
        rnd = st.round
        if rnd != k.round:
            buf[self._round] = rnd / self.rounds
            k.round = rnd
        phase = st.phase
        if phase != k.phase:
            at = self._phase.get(k.phase)
            if at is not None:
                buf[at] = 0.0
            at = self._phase.get(phase)
            if at is not None:
                buf[at] = 1.0
            k.phase = phase
        realm = st.realm
        if realm != k.realm:
            if k.realm is not None:
                buf[self._realm0 + k.realm] = 0.0
            buf[self._realm0 + realm] = 1.0
            k.realm = realm
        count = len(st.treasure_deck)
        if count != k.treasure_deck:
            buf[self._tail0] = count / 40
            k.treasure_deck = count
        count = len(st.pending)
        if count != k.pending:
            buf[self._tail0 + 1] = count / 5
            k.pending = count
        bt = st.battle
        if bt is not None or k.bt is not None:
            b = None if bt is None else (bt.space, bt.attacker, tuple(bt.defenders), bt.step, bt.round,
                                         bt.hits_on_attacker, bt.hits_on_defenders)
            if b != k.bt:
                k.battle = _swap(buf, k.battle, self._battle(b))
                k.bt = b
        # the seat's own numbers
        mine = self._mine[seat]
        if len(mine) == 1:
            r = mine[0]
            cards: tuple[list[str], ...] = (hands[r], treasures[r])
        else:
            cards = tuple([hands[r] for r in mine] + [treasures[r] for r in mine])
        if cards != me.cards:
            for i in me.held:
                buf[i] = 0.0
            me.held = self._held(cards)
            for i in me.held:
                buf[i] = 1.0
            me.cards = tuple([c[:] for c in cards])
        react = st.reaction
        if react is not None or me.window is not None:
            window = _window(react.kind, react.mover in mine) if react is not None else None
            if window != me.window:
                if me.window is not None:
                    buf[self._react[me.window]] = 0.0
                if window is not None:
                    buf[self._react[window]] = 1.0
                me.window = window
        return buf

    # ---- the parts of the common numbers -------------------------------------------------------------------
    def _pieces(self, buf: np.ndarray, n: MutableSequence[int], cols: Any, rows: list[int]) -> None:
        """The piece counts where they differ from the kept ones: first in the columns (realm and kind) and
        rows (spaces) given, then, if the counts still differ, anywhere (found on bytes, all counts being
        0..255), else all of them."""
        k = self._seen
        kept, kept_bytes = k.n, k.n_bytes
        if kept is not None and kept_bytes is not None and 0 < len(cols) + len(rows) <= 3:
            fifth = self._fifth
            lines: list[tuple[int, int | None, int]] = []     # (start, stop, step): a column or a space's row
            for c in cols:
                lines.append((c, None, PER_SPACE))
            for s in rows:
                lines.append((s * PER_SPACE, s * PER_SPACE + PER_SPACE, 1))
            try:
                for start, stop, step in lines:
                    new = bytearray(n[start:stop:step])
                    old = kept_bytes[start:stop:step]
                    if new == old:
                        continue
                    x = int.from_bytes(new, "little") ^ int.from_bytes(old, "little")
                    j = start
                    while x:     # the bytes that differ, lowest first
                        low = ((x & -x).bit_length() - 1) >> 3
                        j += low * step
                        kept[j] = kept_bytes[j] = c = n[j]
                        buf[j] = fifth[c]
                        x >>= (low + 1) << 3
                        j += step
            except ValueError:   # a count outside 0..255
                pass
            else:
                if n == kept:
                    return
        elif n == kept:
            return
        try:
            now = bytearray(n)
        except (ValueError, TypeError):   # a count outside 0..255, from a loaded state
            buf[:self._pieces_end] = np.asarray(n, dtype=np.float64) / 5.0
            k.n, k.n_bytes = n[:], None
            return
        if kept is None or kept_bytes is None:
            self._fifths.take(np.frombuffer(now, dtype=np.uint8), out=buf[:self._pieces_end])
            k.n = n[:]
        else:
            fifth = self._fifth
            for i in (np.frombuffer(now, dtype=np.uint8) != np.frombuffer(kept_bytes, dtype=np.uint8)
                      ).nonzero()[0].tolist():
                kept[i] = c = n[i]
                buf[i] = fifth[c]
        k.n_bytes = now

    def _lands(self, buf: np.ndarray, ctrl: list[int], castle: list[int]) -> None:
        """Control and Castles of the land spaces that changed."""
        k = self._seen
        kc, kk = k.ctrl, k.castle
        R = len(REALMS)
        for s in LANDS:
            c, a = ctrl[s], castle[s]
            if c != kc[s] or a != kk[s]:
                base = self._space0 + s * SPACE_COLUMNS
                if kc[s] is not None:
                    buf[base + kc[s] % R] = 0.0
                buf[base + c % R] = 1.0    # the view names REALMS[ctrl]
                buf[base + 4] = 1.0 if a else 0.0
        k.ctrl, k.castle = ctrl[:], castle[:]

    def _guardians(self, guardians: dict[int, list[list[Any]]]) -> dict[int, float]:
        out = {}
        for s, tiles in guardians.items():
            base = self._space0 + s * SPACE_COLUMNS
            out[base + 8] = len(tiles) / 3.0
            out[base + 9] = sum(1 for t in tiles if t[1]) / 3.0   # t[1]: face up
        return out

    def _ships(self, buf: np.ndarray, ships: dict[int, list[int]], cols: set[int]) -> None:
        """Warships and their cargo by sea space and realm: each Warship that moved, changed hands or cargo
        taken out of its old cell and put in its new one. Adds to ``cols`` the columns of the piece counts
        (realm and kind) of the cargo loaded or unloaded."""
        kept = self._seen.ships
        same = ships.keys() == kept.keys()
        for i, sh in ships.items():
            old = kept.get(i)
            if old != sh:
                if old is None:
                    self._board_ship(buf, sh, 1)
                elif (old[SPACE] != sh[SPACE] or old[OWNER] != sh[OWNER] or old[C1] != sh[C1]
                      or old[C2] != sh[C2]):
                    self._board_ship(buf, old, -1)
                    self._board_ship(buf, sh, 1)
                    if old[C1] != sh[C1] or old[C2] != sh[C2]:
                        base = sh[OWNER] * N_TYPES
                        cols.update([base + t for t in (old[C1], old[C2], sh[C1], sh[C2]) if t >= 0])
                kept[i] = sh[:]
        if not same:
            for i in [i for i in kept if i not in ships]:
                self._board_ship(buf, kept.pop(i), -1)

    def _board_ship(self, buf: np.ndarray, ship: list[int], sign: int) -> None:
        """Add (``sign`` 1) or take out (-1) a Warship and its cargo in its cell (sea space and realm)."""
        fleet = self._seen.fleet
        cell = ship[SPACE] * R + ship[OWNER]
        boats, cargo = fleet.get(cell, (0, 0))
        boats += sign
        cargo += sign * ((ship[C1] >= 0) + (ship[C2] >= 0))
        fleet[cell] = (boats, cargo)
        at = self._ships0 + cell * 2
        buf[at] = boats * 0.5
        buf[at + 1] = cargo / 4.0     # quarters: the view's sums are exact

    def _movable(self, buf: np.ndarray, movable: dict[int, int], realm: int, cols: set[int],
                 left: list[int]) -> bool:
        """Pieces still free to move, by space (keys: space * pieces + piece): the sums of the spaces whose
        entries changed. Adds to ``cols`` the columns of the piece counts (``realm``'s kinds) whose entries
        changed and to ``left`` the counts they stand for; or, when many changed (a phase begins), says so."""
        k = self._seen
        kept, sums = k.movable, k.free
        s0, C = self._space0 + 7, SPACE_COLUMNS
        base = realm * N_TYPES
        k.movable = movable.copy()
        if not movable:    # a phase ends: all zero
            buf[s0:self._ships0:C] = 0.0
            k.free = [0] * len(sums)
            cols.update({base + key % N_TYPES for key in kept})
            return False
        if not kept:       # a phase begins
            for key, c in movable.items():
                sums[key // N_TYPES] += c
            for s in {key // N_TYPES for key in movable}:
                buf[s0 + s * C] = sums[s] / 5.0
            return True
        changed = kept.items() ^ movable.items()
        if len(changed) > 4:   # summed again
            now = [0] * len(sums)
            for key, c in movable.items():
                now[key // N_TYPES] += c
            for s in {key // N_TYPES for key in kept.keys() | movable.keys()}:
                if now[s] != sums[s]:
                    buf[s0 + s * C] = now[s] / 5.0
            k.free = now
            return True
        for key, c in changed:
            s = key // N_TYPES
            sums[s] += -c if kept.get(key) == c else c    # a kept entry gone, or a new one
            buf[s0 + s * C] = sums[s] / 5.0
            cols.add(base + key % N_TYPES)
            left.append(s * PER_SPACE + base + key % N_TYPES)
        return False

    def _battle(self, bt: tuple[Any, ...] | None) -> dict[int, float]:
        """The battle under way: (space, attacker, defenders, step, round, hits on each side), or none."""
        if bt is None:
            return {}
        space, att, defs, step, b_round, ha, hd = bt
        b = self._bt_counts0
        out = {self._tail0 + 2: 1.0, self._bt_space0 + space: 1.0, self._bt_att0 + att: 1.0, b: b_round / 5,
               b + 1: ha / 5, b + 2: hd / 5}
        for d in defs:
            out[self._bt_defs0 + d] = 1.0
        at = self._bt_step.get(step)
        if at is not None:
            out[at] = 1.0
        return out

    def _held(self, cards: tuple[list[str], ...]) -> list[int]:
        """Where the ones of the cards in the seat's hands stand (``cards``: the Event hands of its realms, then
        their Treasure hands)."""
        at: list[int] = []
        half = len(cards) // 2
        for j, hand in enumerate(cards):
            where = self._event if j < half else self._treasure
            for c in hand:
                i = where.get(c)
                if i is not None:
                    at.append(i)
        return at

    def _own(self, me: _Seat) -> list[int]:
        """Where a seat's own ones stand: its realms, the cards of its hands, the card window open to it."""
        return self._flags[me.seat] + me.held + ([self._react[me.window]] if me.window is not None else [])


def _swap(buf: np.ndarray, before: dict[int, float], after: dict[int, float]) -> dict[int, float]:
    """Write a part's numbers ``after`` (by position) over the ones it wrote ``before`` (those left out become
    zero)."""
    for i in before:
        if i not in after:
            buf[i] = 0.0
    for i, v in after.items():
        if before.get(i) != v:
            buf[i] = v
    return after


def _window(kind: str | None, mover_is_mine: bool) -> str | None:
    """The card window a reaction opens for the observing seat (as ``effects`` names it): its own income
    (``income``), an enemy's income (``enemy_income``) or an enemy's move (``enemy_move``)."""
    if kind == "income":
        return "income" if mover_is_mine else "enemy_income"
    if kind == "move":
        return "enemy_move"
    return None


class _Seen:
    """Copies of the state's values the common numbers were last written from, and what some parts wrote."""

    __slots__ = ("n", "n_bytes", "ctrl", "castle", "guardians", "ships", "fleet", "movable", "free", "built",
                 "placed", "money", "round", "phase", "realm", "treasure_deck", "pending", "bt", "gdn", "battle")

    def __init__(self, spaces: int) -> None:
        self.n: MutableSequence[int] | None = None
        self.n_bytes: bytearray | None = None   # the same counts as bytes
        self.ctrl: list[Any] = [None] * spaces     # none yet: every space is written
        self.castle: list[Any] = [None] * spaces
        self.guardians: dict[int, list[list[Any]]] | None = None
        self.ships: dict[int, list[int]] = {}
        self.fleet: dict[int, tuple[int, int]] = {}   # Warships and their cargo by sea space and realm
        self.movable: dict[int, int] = {}
        self.free = [0] * spaces          # pieces free to move by space
        self.built: list[int] = []
        self.placed: dict[int, int] = {}
        self.money: list[Any] = [None] * (5 * R)     # none yet: each is written
        self.round: int | None = None
        self.phase: str | None = None
        self.realm: int | None = None
        self.treasure_deck: int | None = None
        self.pending: int | None = None
        self.bt: tuple[Any, ...] | None = None
        self.gdn: dict[int, float] = {}
        self.battle: dict[int, float] = {}


class _Seat:
    """A seat's numbers, and what its own ones were written from."""

    __slots__ = ("seat", "buf", "cards", "held", "window")

    def __init__(self, seat: int, size: int) -> None:
        self.seat = seat
        self.buf = np.zeros(size, dtype=np.float32)
        self.cards: tuple[list[str], ...] | None = None
        self.held: list[int] = []          # where the ones of its cards stand
        self.window: str | None = None
