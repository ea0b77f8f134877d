"""Conquest of Nerath: the state and the rules of a turn (Draw, Move, Fight Battles, Reposition, Reinforce,
Collect Income) and of the end of a round (victory).

Read top-down: set-up (``new_game``), control and friendliness (``friendly_land``, ``enemy_sea``), the Move step
(``land_reach``, ``flying_reach``, ``move_pieces``, ``sail``, ``embark``, ``debark``), Fight Battles
(``start_battle``, ``battle_dice``, ``assign_hit``, ``end_battle_round``, ``conquer``, ``run_amok``,
``withdraw``), Reposition, Reinforce (``placement_castles``, ``buy``), ``collect_income``, ``end_of_round``.

The state is flat: piece counts in one list indexed ``(space * 4 + realm) * 7 + piece``; Castles as a 0/1 list
per space (a Castle belongs to whoever controls its space); Warships as individual records (they carry cargo);
control of land spaces as a list. Per-turn bookkeeping (pieces still free to move, declared battles, control at
the start of the turn) lives next to it. ``clone`` copies a few lists.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from conquest.core.errors import StateFormatError
from conquest.core.game import CHANCE, State
from conquest.rulesets.nerath import effects as fx
from conquest.rulesets.nerath.data import (
    DRAGON, DUNGEON, FLYING_TYPES, HEROES, LAND, LAND_TYPES, MONSTER, R, REALM_INDEX, REALMS,
    SEA, SIEGE, STORM, T, TYPE_INDEX, COUNTED, WIZARD, tables,
)
from conquest.rulesets.nerath.dice import hit_distribution
from conquest.rulesets.nerath.dungeons import full_strength, guardian_tiles, treasure_cards

# Warship record fields and flags
OWNER, SPACE, MOVES, FLAGS, C1, C2, O1, O2 = range(8)
# O1/O2: the coastal space the piece in C1/C2 embarked from this turn (-1: aboard since an earlier turn, bought
# aboard, or none). "The land pieces embark onto the ship from a coastal space and debark into another coastal
# space": a piece never debarks back into the space it embarked from.
F_STOPPED = 1    # entered an enemy sea space: must stop and fight
F_NEW = 2        # bought this turn (Reinforce)
F_FIXED = 4      # an existing Warship given new land pieces: cannot move
F_UNLOADED = 8   # has unloaded: its movement is over for the turn
F_RETREATED = 16  # retreated from a battle: its movement is over
FLAG_NAMES = {"stopped": F_STOPPED, "new": F_NEW, "fixed": F_FIXED, "unloaded": F_UNLOADED,
              "retreated": F_RETREATED}

PHASES = ("deal", "draw", "move", "fight", "reposition", "reinforce", "over")
STEP_TITLES = {"deal": "Set-up (starting Event hands)", "draw": "Draw", "move": "Move", "fight": "Fight Battles", "reposition": "Reposition",
               "reinforce": "Reinforce", "over": "the end of the game"}
CHANCE_STEPS = ("fs_a", "fs_d", "roll_a", "roll_d", "split", "plunder", "restock")
GUARDIANS = -1   # the "realm" of the Guardians in a battle's damage queue

TB = tables()
BOARD = TB.board
S = len(BOARD.ids)
IDS = BOARD.ids
IX = BOARD.index
KIND = BOARD.kind
HOME = BOARD.home
CAPITAL = BOARD.capital
IS_CAPITAL = BOARD.is_capital
ADJ = BOARD.adj
LAND_ADJ = BOARD.land_adj
SEA_ADJ = BOARD.sea_adj
DIST = BOARD.dist
LANDS = BOARD.lands
SEAS = BOARD.seas
COST = TB.cost
DIE = TB.die
MOVE = TB.move
HIT_ON = TB.hit_on
WARSHIP_MOVE = TB.warship.move
ALL_COSTS = {**{p: TB.pieces[p].cost for p in COUNTED}, "castle": TB.castle.cost, "warship": TB.warship.cost}
BUYABLE = COUNTED + ("castle", "warship")
RS = R * T

LENGTH_VP = {"short": (13, 20), "medium": (20, 30)}
TREASURES_TO_WIN = (8, 12)


@lru_cache(maxsize=None)
def seating(players: int, mode: str, three: str) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """(seat of each realm, team of each realm). Realms in turn order Karkoth, Vailin, Iron Circle, Nerath."""
    if players == 2:
        return (0, 1, 0, 1), (0, 1, 0, 1)
    if players == 3:
        # "the allied realms of Vailin and Nerath vs. the realm of Karkoth vs. the realm of the Iron Circle"
        seats = (0, 1, 2, 1)
        return seats, ((0, 1, 0, 1) if three == "two-sides" else (0, 2, 1, 2))
    if mode == "free-for-all":
        return (0, 1, 2, 3), (0, 1, 2, 3)
    return (0, 1, 2, 3), (0, 1, 0, 1)


def _multiset_outcomes(verb: str, cards: list[str]) -> list[tuple[tuple, float]]:
    """A draw from a shuffled pile whose order nobody knows: each distinct card with its share."""
    counts: dict[str, int] = {}
    for c in cards:
        counts[c] = counts.get(c, 0) + 1
    return [((verb, c), k / len(cards)) for c, k in sorted(counts.items())]


def _ix(space: Any, field: str) -> int:
    if space not in IX:
        raise StateFormatError(field, f"unknown space '{space}'")
    return IX[space]


def _realm_ix(name: Any, field: str) -> int:
    if name not in REALM_INDEX:
        raise StateFormatError(field, f"unknown realm {name!r} (one of {', '.join(REALMS)})")
    return REALM_INDEX[name]


class NerathState(State):
    # ------------------------------------------------------------------------------------------- set-up
    def __init__(self, players: int, options: dict[str, Any]) -> None:
        self.players = players
        self.options = options
        self.seat_of, self.team = seating(players, options["mode"], options["three_player"])
        self.n: list[int] = [0] * (S * RS)
        self.castle: list[int] = [0] * S
        self.ctrl: list[int] = [HOME[s] for s in range(S)]
        self.ships: dict[int, list[int]] = {}
        self.next_ship = 1
        self.gold = list(TB.treasury)
        self.vp = [0] * R
        self.realm = 0
        self.round = 1
        self.phase = "draw"
        self.movable: dict[int, int] = {}
        self.pending: list[int] = []
        self.ctrl_start: list[int] = self.ctrl[:]
        self.placed: dict[int, int] = {}
        self.built: list[int] = []
        self.bt: dict[str, Any] | None = None
        # a card window outside battles: {kind: move|income, realms: [...], space, mover}
        self.react: dict[str, Any] | None = None
        self.decks: list[list[str]] = [[] for _ in range(R)]
        self.hands: list[list[str]] = [[] for _ in range(R)]
        self.discards: list[list[str]] = [[] for _ in range(R)]
        self.treasure_deck: list[str] = []
        self.treasures: list[list[str]] = [[] for _ in range(R)]
        self.treasures_played: list[list[str]] = [[] for _ in range(R)]
        self.effects: list[list[Any]] = []
        # each Guardian on an entrance: [tile id, face up (0/1), attack dice left...]
        self.guardians: dict[int, list[list[Any]]] = {d: [] for d in BOARD.dungeons}
        self.guardian_pile: list[str] = sorted(guardian_tiles())
        self.dealing_guardians: list[int] = []   # entrances still to get their set-up tile
        self.dealing: list[int] = []   # realms still to draw a starting Event card (set-up)
        self.stats: dict[str, int] = {"battles": 0, "explored": 0, "plundered": 0, "events_played": 0,
                                      "events_out_of_turn": 0}  # for reports only
        self.winners: list[int] | None = None
        self.end_reason = ""

    def setup_board(self) -> None:
        """Place each realm's starting pieces and Castles (setup.yaml)."""
        self.treasure_deck = sorted(treasure_cards())
        if self.options["board_setup"] == "empty":
            for s in CAPITAL:
                self.castle[s] = 1
            fx.setup_decks(self)
            return
        # "Shuffle the Dungeon Guardian tiles and place one on each dungeon entrance": chance at set-up
        self.dealing_guardians = list(BOARD.dungeons)
        for realm, d in TB.setup["realms"].items():
            r = REALM_INDEX[realm]
            for s in d.get("castles", []):
                self.castle[IX[s]] = 1
            for s, pcs in d.get("pieces", {}).items():
                for p, c in pcs.items():
                    self.n[(IX[s] * R + r) * T + TYPE_INDEX[p]] += int(c)
            for w in d.get("warships", []):
                cargo = [TYPE_INDEX[p] for p in w[1:]] + [-1, -1]
                self.ships[self.next_ship] = [r, IX[w[0]], 0, 0, cargo[0], cargo[1], -1, -1]
                self.next_ship += 1
        fx.setup_decks(self)

    def clone(self) -> "NerathState":
        c = NerathState.__new__(NerathState)
        c.players = self.players
        c.options = self.options
        c.seat_of = self.seat_of
        c.team = self.team
        c.n = self.n[:]
        c.castle = self.castle[:]
        c.ctrl = self.ctrl[:]
        c.ships = {k: v[:] for k, v in self.ships.items()}
        c.next_ship = self.next_ship
        c.gold = self.gold[:]
        c.vp = self.vp[:]
        c.realm = self.realm
        c.round = self.round
        c.phase = self.phase
        c.movable = dict(self.movable)
        c.pending = self.pending[:]
        c.ctrl_start = self.ctrl_start
        c.placed = dict(self.placed)
        c.built = self.built[:]
        bt = self.bt
        if bt is not None:
            bt = dict(bt)
            bt["hurt"] = bt["hurt"][:]
            bt["queue"] = [q[:] for q in bt["queue"]]
            bt["defs"] = bt["defs"][:]
            bt["tiles"] = bt["tiles"][:]
            bt["window"] = bt["window"][:]
            bt["offered"] = bt["offered"][:]
        c.bt = bt
        react = self.react
        if react is not None:
            react = dict(react)
            react["realms"] = react["realms"][:]
        c.react = react
        c.decks = [d[:] for d in self.decks]
        c.hands = [h[:] for h in self.hands]
        c.discards = [d[:] for d in self.discards]
        c.treasure_deck = self.treasure_deck[:]
        c.treasures = [h[:] for h in self.treasures]
        c.treasures_played = [h[:] for h in self.treasures_played]
        c.effects = [e[:] for e in self.effects]
        c.guardians = {k: [g[:] for g in v] for k, v in self.guardians.items()}
        c.guardian_pile = self.guardian_pile[:]
        c.dealing_guardians = self.dealing_guardians[:]
        c.dealing = self.dealing[:]
        c.stats = dict(self.stats)
        c.winners = self.winners
        c.end_reason = self.end_reason
        return c

    # ------------------------------------------------------------------------------------ relations
    def allied(self, a: int, b: int) -> bool:
        return a == b or self.team[a] == self.team[b]

    def friendly_land(self, s: int, r: int) -> bool:
        """A land space is friendly if its controller is you or an ally; dungeon entrances never are."""
        c = self.ctrl[s]
        return KIND[s] == LAND and c >= 0 and (c == r or self.team[c] == self.team[r])

    def enemy_pieces_in(self, s: int, r: int) -> bool:
        n = self.n
        for e in range(R):
            if self.team[e] != self.team[r]:
                base = (s * R + e) * T
                if any(n[base:base + T]):
                    return True
        if KIND[s] == SEA:
            for sh in self.ships.values():
                if sh[SPACE] == s and self.team[sh[OWNER]] != self.team[r]:
                    return True
        elif KIND[s] == LAND and self.castle[s] and not self.friendly_land(s, r):
            return True
        return False

    def enemy_sea(self, s: int, r: int) -> bool:
        """"A sea space is an enemy space if it contains enemy pieces. Otherwise, it is a friendly space.\""""
        return self.enemy_pieces_in(s, r)

    def enemy_space(self, s: int, r: int) -> bool:
        k = KIND[s]
        if k == LAND:
            return not self.friendly_land(s, r)
        if k == SEA:
            return self.enemy_sea(s, r)
        return False  # "Effects that refer to 'enemy spaces' do not apply to dungeon entrances."

    def count(self, s: int, r: int, t: int) -> int:
        return self.n[(s * R + r) * T + t]

    def add(self, s: int, r: int, t: int, k: int) -> None:
        self.n[(s * R + r) * T + t] += k

    def ships_at(self, s: int, r: int | None = None) -> list[int]:
        return sorted(sid for sid, sh in self.ships.items()
                      if sh[SPACE] == s and (r is None or sh[OWNER] == r))

    @staticmethod
    def cargo(sh: list[int]) -> list[int]:
        return [c for c in (sh[C1], sh[C2]) if c >= 0]

    @staticmethod
    def cargo_add(sh: list[int], t: int, origin: int = -1) -> None:
        """Put a land piece aboard; ``origin`` is the coastal space it embarked from this turn (-1: none)."""
        if sh[C1] < 0:
            sh[C1] = t
            sh[O1] = origin
        else:
            sh[C2] = t
            sh[O2] = origin

    @staticmethod
    def cargo_remove(sh: list[int], t: int, into: int = -1) -> None:
        """Take a ``t`` off the Warship: when it debarks into ``into``, one that did not embark from there
        (preferring one that embarked this turn, so that the piece left aboard keeps the most freedom)."""
        slots = [i for i in (0, 1) if sh[C1 + i] == t and (into < 0 or sh[O1 + i] != into)]
        if not slots:
            slots = [i for i in (0, 1) if sh[C1 + i] == t]
        slot = next((i for i in slots if sh[O1 + i] >= 0), slots[0])
        if slot == 0:
            sh[C1], sh[O1] = sh[C2], sh[O2]
        sh[C2] = -1
        sh[O2] = -1

    @staticmethod
    def may_debark(sh: list[int], t: int, y: int) -> bool:
        """"The land pieces embark onto the ship from a coastal space and debark into another coastal space":
        some carried ``t`` did not embark from ``y`` this turn."""
        return (sh[C1] == t and sh[O1] != y) or (sh[C2] == t and sh[O2] != y)

    def seat_for(self, realm: int) -> int:
        return self.seat_of[realm]

    # ------------------------------------------------------------------------------------ who moves
    @property
    def to_move(self) -> int | None:
        ph = self.phase
        if ph == "over":
            return None
        if ph in ("draw", "deal"):
            return CHANCE
        if self.react is not None:
            return self.seat_of[self.react["realms"][0]]
        bt = self.bt
        if ph == "fight" and bt is not None:
            step = bt["step"]
            if step in CHANCE_STEPS:
                return CHANCE
            if step == "assign":
                who = bt["queue"][0][0]
                return bt["gseat"] if who == GUARDIANS else self.seat_of[who]
            if step == "window":
                return self.seat_of[bt["window"][0]]
            return self.seat_of[bt["att"]]
        return self.seat_of[self.realm]

    def result(self) -> tuple[float, ...] | None:
        if self.winners is None:
            return None
        share = 1.0 / len(self.winners) if self.winners else 0.0
        return tuple(share if s in self.winners else 0.0 for s in range(self.players))

    def scores(self) -> tuple[float, ...]:
        out = [0.0] * self.players
        for r in range(R):
            out[self.seat_of[r]] += self.vp[r]
        return tuple(out)

    # =============================================================================== legal actions
    def legal_actions(self) -> list[tuple]:
        ph = self.phase
        if ph == "over":
            return []
        if self.to_move == CHANCE:
            return [a for a, _ in self.chance_outcomes()]
        if self.react is not None:
            return fx.reaction_plays(self, self.react["realms"][0]) + [("pass",)]
        if ph == "move":
            return self.move_actions()
        if ph == "fight":
            return self.fight_actions()
        if ph == "reposition":
            return self.reposition_actions()
        if ph == "reinforce":
            return self.reinforce_actions()
        return []

    def is_legal(self, action: Any) -> bool:
        if not isinstance(action, tuple):
            return False
        return action in self.legal_actions()

    def illegal_reason(self, action: Any) -> str:
        if self.to_move is None:
            return "the game is over"
        verb = action[0] if isinstance(action, tuple) and action else "?"
        ph = self.phase
        step = STEP_TITLES.get(ph, ph)
        if self.to_move == CHANCE:
            return "a chance outcome is due here (a die roll or a draw), not a decision"
        if self.react is not None:
            return ("a card window is open (an enemy moved in, or income is collected): the realm asked plays a "
                    "card it holds for this moment, or passes")
        bt = self.bt
        if ph == "fight" and bt is not None:
            s = bt["step"]
            expect = {"assign": "hit", "press": "press or retreat", "withdraw": "withdraw", "window": "play or pass",
                      "amok": "amok or stay", "landing": "debark or done"}.get(s, s)
            if verb not in expect.split() and not (s == "withdraw" and verb.startswith("withdraw")):
                return f"in this battle the decision is '{expect}', not '{verb}'"
            if s == "assign":
                return ("the side taking damage chooses which of its pieces takes each hit, a new piece for "
                        "each hit while any is left; that piece is not among them")
            if s == "withdraw":
                return ("retreating pieces move to an adjacent friendly land space (flying pieces also to a "
                        "friendly sea space; sea pieces to a friendly sea space); onto Warships only when no "
                        "adjacent land space is friendly")
            if s == "amok":
                return ("a surviving Monster may run amok only into an adjacent enemy land space that contains "
                        "no enemy pieces")
            return "not allowed here"
        allowed = {"move": ("move", "sail", "embark", "debark", "done", "play"),
                   "fight": ("battle", "play"), "reposition": ("move", "embark", "done", "play"),
                   "reinforce": ("buy", "move", "sail", "debark", "done", "play")}.get(ph, ())
        if verb not in allowed:
            return f"'{verb}' is not a decision of the {step} step"
        if ph == "fight":
            if isinstance(action, tuple) and len(action) == 2 and action[1] in IX \
                    and IX[action[1]] in self.pending and KIND[IX[action[1]]] != SEA:
                return "you must fight all the sea battles first, then the land battles"
            return "no battle was declared there (moving into an enemy space or a dungeon entrance declares it)"
        if verb == "move":
            if ph == "reposition":
                return ("in the Reposition step only flying pieces move, to friendly spaces within their Move "
                        "(Heroes leave a dungeon to an adjacent friendly land space); no battles")
            if ph == "reinforce":
                return ("only new pieces move in the Reinforce step, to friendly spaces within their Move; "
                        "no battles")
            return ("pieces move up to their Move through friendly spaces and stop on entering an enemy space "
                    "or a dungeon entrance (only Heroes enter those; flying pieces fly over anything but never "
                    "end on a dungeon entrance; land pieces stay on land; Castles never move; each piece "
                    "moves once)")
        if verb == "sail":
            return ("a Warship moves up to 2 sea spaces through friendly sea spaces and stops on entering an "
                    "enemy one; it cannot move after unloading (nor if it got new cargo this Reinforce step)")
        if verb == "embark":
            return ("a land piece (not a Castle) that has not moved boards your own Warship with room (2 "
                    "pieces) in a sea space next to the coastal space where it began the Move step")
        if verb == "debark":
            if isinstance(action, tuple) and len(action) == 4 and action[1] in self.ships \
                    and action[2] in IX and action[3] in TYPE_INDEX:
                sh = self.ships[action[1]]
                t, y = TYPE_INDEX[action[3]], IX[action[2]]
                if t in self.cargo(sh) and not self.may_debark(sh, t, y):
                    return ("\"The land pieces embark onto the ship from a coastal space and debark into another "
                            f"coastal space\": that {action[3]} embarked from {action[2]} this turn and cannot "
                            "debark back into it")
            return ("carried pieces debark only into a coastal space adjacent to the Warship's sea space (a "
                    "Hero also into a dungeon entrance), not from a Warship in an enemy sea space")
        if verb == "buy":
            return ("you must afford the piece and place it at a Castle you controlled since the start of your "
                    "turn (at most 4 new pieces except at your capital or your only Castle), a new Castle in "
                    "your own land space without a Castle, Warships and Storm Elementals in a friendly sea "
                    "space next to such a Castle, land pieces aboard your Warship there")
        if verb == "play":
            return "you hold no such card that may be played now"
        return "it is not among the legal actions here"

    # =============================================================================== Move step
    def land_reach(self, s: int, r: int, m: int, hero: bool, friendly_only: bool = False) -> list[int]:
        """Land pieces: up to ``m`` spaces through friendly land; stop on entering an enemy space or (Heroes
        only) a dungeon entrance."""
        out: list[int] = []
        seen = {s}
        frontier = [s]
        team = self.team
        ctrl = self.ctrl
        mine = team[r]
        for _ in range(m):
            nxt = []
            for x in frontier:
                for y in LAND_ADJ[x]:
                    if y in seen:
                        continue
                    seen.add(y)
                    if KIND[y] == DUNGEON:
                        if hero and not friendly_only:
                            out.append(y)
                    elif team[ctrl[y]] == mine:
                        out.append(y)
                        nxt.append(y)
                    elif not friendly_only:
                        out.append(y)
            frontier = nxt
        return out

    def flying_reach(self, s: int, r: int, m: int, t: int, friendly_only: bool = False,
                     land_only: bool = False) -> list[int]:
        """Flying pieces fly through any space (enemy spaces and dungeon entrances too) but never end on a
        dungeon entrance."""
        d = DIST[s]
        out = []
        for y in range(S):
            if y == s or d[y] > m:
                continue
            k = KIND[y]
            if k == DUNGEON:
                continue
            if friendly_only:
                if k == LAND and not self.friendly_land(y, r):
                    continue
                if k == SEA and (land_only or t != STORM or self.enemy_sea(y, r)):
                    continue
            out.append(y)
        return out

    def piece_move(self, r: int, t: int) -> int:
        return MOVE[t] + fx.move_bonus(self, r, t)

    def move_actions(self) -> list[tuple]:
        r = self.realm
        acts: list[tuple] = []
        cache: dict[tuple[int, int, bool], list[int]] = {}
        for key, c in sorted(self.movable.items()):
            if c <= 0:
                continue
            s, t = divmod(key, T)
            m = self.piece_move(r, t)
            if t in FLYING_TYPES:
                dests = self.flying_reach(s, r, m, t)
            elif KIND[s] == SEA:
                continue
            else:
                ck = (s, m, t in HEROES)
                got = cache.get(ck)
                if got is None:
                    got = cache[ck] = self.land_reach(s, r, m, t in HEROES)
                dests = got
            name = COUNTED[t]
            frm = IDS[s]
            for y in dests:
                to = IDS[y]
                for k in range(1, c + 1):
                    acts.append(("move", frm, to, name, k))
        for sid in sorted(self.ships):
            sh = self.ships[sid]
            if sh[OWNER] != r:
                continue
            fl = sh[FLAGS]
            s = sh[SPACE]
            if not fl & (F_STOPPED | F_UNLOADED | F_FIXED | F_RETREATED):
                if sh[MOVES] < WARSHIP_MOVE + fx.move_bonus(self, r, -1):
                    for y in SEA_ADJ[s]:
                        acts.append(("sail", sid, IDS[y]))
                free = (sh[C1] < 0) + (sh[C2] < 0)
                if free:
                    for land in ADJ[s]:
                        if KIND[land] != LAND:
                            continue
                        for t in LAND_TYPES:
                            if self.movable.get(land * T + t, 0) > 0:
                                acts.append(("embark", IDS[land], sid, COUNTED[t]))
            if not fl & (F_STOPPED | F_RETREATED):
                for t in set(self.cargo(sh)):
                    for y in ADJ[s]:
                        if (KIND[y] == LAND or (KIND[y] == DUNGEON and t in HEROES)) and self.may_debark(sh, t, y):
                            acts.append(("debark", sid, IDS[y], COUNTED[t]))
        acts.append(("done",))
        acts.extend(fx.playable(self))
        return acts

    def declare_attack(self, y: int) -> None:
        """"Whenever you move pieces into an enemy space or a dungeon entrance, you attack that space.\""""
        if y not in self.pending and (KIND[y] == DUNGEON or self.enemy_space(y, self.realm)):
            self.pending.append(y)

    def move_pieces(self, s: int, y: int, t: int, k: int) -> None:
        r = self.realm
        key = s * T + t
        left = self.movable[key] - k
        if left:
            self.movable[key] = left
        else:
            del self.movable[key]
        self.add(s, r, t, -k)
        self.add(y, r, t, k)
        if self.phase == "move":
            self.declare_attack(y)
            self.open_move_reaction(y)

    def open_move_reaction(self, y: int) -> None:
        """Cards that react to another realm's movement ("when required"): when the realm to move enters a
        space an enemy controls or holds pieces in, each such enemy holding an ``enemy_move`` card may play
        it or pass, in turn order from the moving realm."""
        if y not in self.pending or KIND[y] == DUNGEON:
            return
        r = self.realm
        realms = []
        for k in range(1, R):
            e = (r + k) % R
            if self.team[e] == self.team[r] or not self.hands[e]:
                continue
            if (KIND[y] == LAND and self.ctrl[y] == e) or any(self.n[(y * R + e) * T:(y * R + e) * T + T]) or \
                    any(sh[SPACE] == y and sh[OWNER] == e for sh in self.ships.values()):
                if fx.window_cards(self, e, "enemy_move"):
                    realms.append(e)
        if realms:
            # asked only when the card has something to act on (a removal needs a moving piece of its kind)
            self.react = {"kind": "move", "realms": realms, "space": y, "mover": r}
            realms[:] = [e for e in realms if fx.reaction_plays(self, e)]
            if not realms:
                self.react = None

    def open_income_window(self) -> bool:
        """At income: the realm collecting it may play an ``income`` card, then each enemy realm holding an
        ``enemy_income`` card may play it, or pass. False when nobody holds such a card."""
        r = self.realm
        realms = [r] if fx.window_cards(self, r, "income") else []
        for k in range(1, R):
            e = (r + k) % R
            if self.team[e] != self.team[r] and fx.window_cards(self, e, "enemy_income"):
                realms.append(e)
        if realms:
            self.react = {"kind": "income", "realms": realms, "space": -1, "mover": r}
        return bool(realms)

    def apply_reaction(self, action: tuple) -> None:
        react = self.react
        assert react is not None
        realms = react["realms"]
        if action[0] == "play":
            fx.play_reaction(self, realms[0], action)
            if react["kind"] == "move":
                y, r = react["space"], react["mover"]
                if y in self.pending and not any(self.n[(y * R + r) * T:(y * R + r) * T + T]) and \
                        not any(sh[SPACE] == y and sh[OWNER] == r for sh in self.ships.values()):
                    self.pending.remove(y)   # nothing of the mover is left there: no battle
        else:
            realms.pop(0)
        while realms and not fx.reaction_plays(self, realms[0]):
            realms.pop(0)
        if not realms:
            self.react = None
            if react["kind"] == "income":
                self.end_turn()

    def sail(self, sid: int, y: int) -> None:
        sh = self.ships[sid]
        sh[SPACE] = y
        sh[MOVES] += 1
        if self.phase == "move" and self.enemy_sea(y, self.realm):
            # "A Warship must stop moving and triggers a battle when it enters an enemy sea space."
            sh[FLAGS] |= F_STOPPED
            self.declare_attack(y)
            self.open_move_reaction(y)

    def embark(self, land: int, sid: int, t: int) -> None:
        sh = self.ships[sid]
        key = land * T + t
        self.movable[key] -= 1
        if not self.movable[key]:
            del self.movable[key]
        self.add(land, self.realm, t, -1)
        self.cargo_add(sh, t, land)

    def debark(self, sid: int, y: int, t: int) -> None:
        """Carried pieces land and cannot move any farther; unloading ends the Warship's movement."""
        sh = self.ships[sid]
        self.cargo_remove(sh, t, y)
        sh[FLAGS] |= F_UNLOADED
        self.add(y, self.realm, t, 1)
        if self.phase in ("move", "fight"):
            self.declare_attack(y)   # (in Fight Battles: the landing after a won sea battle)
            self.open_move_reaction(y)

    # =============================================================================== Fight Battles
    def fight_actions(self) -> list[tuple]:
        bt = self.bt
        if bt is None:
            seas = [s for s in self.pending if KIND[s] == SEA]
            return [("battle", IDS[s]) for s in (seas or self.pending)] + fx.playable(self)
        step = bt["step"]
        if step == "assign":
            return self.hit_targets(bt["queue"][0][0])
        if step == "press":
            return [("press",), ("retreat",)]
        if step == "withdraw":
            return self.withdraw_actions()
        if step == "amok":
            return [("amok", IDS[y]) for y in self.amok_targets()] + [("stay",)]
        if step == "landing":
            return self.landing_actions() + [("done",)]
        if step == "window":
            return [("play", c) for c in fx.window_cards(self, bt["window"][0], bt["wkind"])] + [("pass",)]
        return []

    def battle_realms(self, side: str) -> list[int]:
        bt = self.bt
        assert bt is not None
        return [bt["att"]] if side == "a" else bt["defs"]

    def start_battle(self, x: int) -> None:
        r = self.realm
        self.pending.remove(x)
        self.stats["battles"] += 1
        k = KIND[x]
        if k == LAND and self.friendly_land(x, r):
            return  # taken meanwhile (a Monster ran amok into it): nothing left to fight
        kind = "land" if k == LAND else "sea" if k == SEA else "dungeon"
        if kind == "dungeon":
            defs: list[int] = []
        else:
            defs = [e for e in range(R) if self.team[e] != self.team[r] and
                    (any(self.n[(x * R + e) * T:(x * R + e) * T + T]) or
                     any(sh[SPACE] == x and sh[OWNER] == e for sh in self.ships.values()))]
            if kind == "land" and self.ctrl[x] not in defs:
                defs.insert(0, self.ctrl[x])
        self.bt = {"space": x, "kind": kind, "att": r, "defs": defs, "round": 1, "step": "fs_a",
                   "ha": 0, "hd": 0, "queue": [], "hitnow": 0, "after": "", "castle_out": 0,
                   "hurt": [0] * R, "gseat": -1, "tiles": [], "restock": 0, "window": [], "wkind": "",
                   "wstep": "", "rolled": 0, "offered": []}
        if kind == "dungeon":
            self.explore(x)
            if not self.guardians[x]:
                self.battle_over(True)
                return
        elif not self.side_alive("d"):
            # An empty enemy space: no defender can roll or take damage, so the round changes nothing.
            self.battle_over(self.side_alive("a"))
            return
        self.open_battle_window()

    def open_battle_window(self) -> None:
        """Cards "played when required": before the first round, each realm in the battle that holds a card
        for battles may play it (attacker first, then the defenders), or pass."""
        bt = self.bt
        assert bt is not None
        realms = [bt["att"]] + [d for d in bt["defs"] if d >= 0]
        bt["window"] = [r for r in realms if fx.battle_cards(self, r)]
        if bt["window"]:
            bt["wkind"] = "battle"
            bt["step"] = "window"

    def close_window(self) -> None:
        bt = self.bt
        assert bt is not None
        kind = bt["wkind"]
        bt["window"] = []
        if kind == "battle":
            bt["step"] = "fs_a"
        elif kind == "roll":
            k = bt["rolled"]
            bt["rolled"] = 0
            self.take_roll(bt["wstep"], k)
        else:
            bt["step"] = "assign"

    def take_roll(self, step: str, k: int) -> None:
        """The hits of a side's roll are scored (and taken together once both sides of the phase rolled)."""
        bt = self.bt
        assert bt is not None
        if step == "fs_a":
            bt["hd"] += k
            bt["step"] = "fs_d"
        elif step == "fs_d":
            bt["ha"] += k
            self.begin_damage("roll_a")
        elif step == "roll_a":
            bt["hd"] += k
            bt["step"] = "roll_d"
        elif step == "roll_d":
            bt["ha"] += k
            self.begin_damage("end")

    def explore(self, x: int) -> None:
        """"Heroes that move into a dungeon entrance explore the dungeon; flip over all the facedown Dungeon
        Guardian tokens" / "the opponent to your left rolls attack dice for the Guardian" — the next realm in
        turn order played by another seat rolls for them and decides their damage."""
        bt = self.bt
        assert bt is not None
        self.stats["explored"] += 1
        for g in self.guardians[x]:
            g[1] = 1
        bt["tiles"] = [g[0] for g in self.guardians[x]]
        r = bt["att"]
        for k in range(1, R + 1):
            e = (r + k) % R
            if self.seat_of[e] != self.seat_of[r] or k == R:
                bt["gseat"] = self.seat_of[e]
                break

    def hero_need(self, r: int, t: int, side: str) -> int:
        """"Heroes Need 7+/8+ to Hit ... this affects all the Heroes' attack rolls against all the Guardians" /
        "An Event card that grants a Hero a bonus to attack rolls trumps this special ability."
        """
        bonus = fx.attack_bonus(self, r, t, side)
        if bonus > 0:
            return HIT_ON - bonus
        bt = self.bt
        assert bt is not None
        tiles = guardian_tiles()
        need = max([tiles[g[0]].heroes_need for g in self.guardians[bt["space"]]] + [HIT_ON])
        return need - bonus

    def guardian_dice(self, first_strike: bool) -> tuple[tuple[int, int, int], ...]:
        bt = self.bt
        assert bt is not None
        tiles = guardian_tiles()
        dice: dict[int, int] = {}
        for g in self.guardians[bt["space"]]:
            if tiles[g[0]].first_strike == first_strike:
                for f in g[2:]:
                    dice[f] = dice.get(f, 0) + 1
        return tuple(sorted((f, HIT_ON, c) for f, c in dice.items()))

    def battle_dice(self, side: str, first_strike: bool) -> tuple[tuple[int, int, int], ...]:
        """Each piece rolls its attack die: Siege Engines 2 when attacking, Storm Elementals 2 in sea battles;
        Wizards (and Heroes aboard at sea) by their abilities; the Castle only defends."""
        bt = self.bt
        assert bt is not None
        x = bt["space"]
        sea = bt["kind"] == "sea"
        dungeon = bt["kind"] == "dungeon"
        if dungeon and side == "d":
            return self.guardian_dice(first_strike)
        dice: dict[tuple[int, int], int] = {}
        n = self.n
        fights = self.options["hurt_dragon_fights"]
        for r in self.battle_realms(side):
            base = (x * R + r) * T
            for t in range(T):
                c = n[base + t]
                if not c:
                    continue
                if sea and t not in FLYING_TYPES:
                    continue
                if (t == WIZARD) != first_strike:
                    continue
                if t == DRAGON and not fights:
                    c -= bt["hurt"][r]
                    if c <= 0:
                        continue
                per = 2 if (t == SIEGE and side == "a") or (t == STORM and sea) else 1
                need = self.hero_need(r, t, side) if dungeon else HIT_ON - fx.attack_bonus(self, r, t, side)
                key = (DIE[t], need)
                dice[key] = dice.get(key, 0) + c * per
            if sea:
                for sh in self.ships.values():
                    if sh[SPACE] != x or sh[OWNER] != r:
                        continue
                    if not first_strike:
                        key = (TB.warship.die, HIT_ON - fx.attack_bonus(self, r, -1, side))
                        dice[key] = dice.get(key, 0) + 1
                    for t in self.cargo(sh):
                        if t in HEROES and (t == WIZARD) == first_strike:
                            key = (DIE[t], HIT_ON - fx.attack_bonus(self, r, t, side))
                            dice[key] = dice.get(key, 0) + 1
            elif side == "d" and not first_strike and r == self.ctrl[x] and self.castle[x] \
                    and not bt["castle_out"]:
                key = (TB.castle.die, HIT_ON - fx.attack_bonus(self, r, -2, side))
                dice[key] = dice.get(key, 0) + 1
        return tuple(sorted((f, need, c) for (f, need), c in dice.items()))

    def chance_outcomes(self) -> list[tuple[tuple, float]]:
        if self.phase == "deal" and self.dealing_guardians:
            return _multiset_outcomes("guardian", self.guardian_pile)
        if self.phase in ("draw", "deal"):
            return fx.draw_outcomes(self)
        bt = self.bt
        if self.phase != "fight" or bt is None or bt["step"] not in CHANCE_STEPS:
            return []
        step = bt["step"]
        if step == "split":
            a, b = bt["defs"][:2]
            return [(("extra", REALMS[a]), 0.5), (("extra", REALMS[b]), 0.5)]
        if step == "plunder":
            return _multiset_outcomes("treasure", self.treasure_deck)
        if step == "restock":
            return _multiset_outcomes("guardian", self.guardian_pile)
        side = "a" if step in ("fs_a", "roll_a") else "d"
        dist = hit_distribution(self.battle_dice(side, step.startswith("fs")))
        return [(("hits", k), p) for k, p in enumerate(dist) if p > 0]

    def side_alive(self, side: str) -> bool:
        bt = self.bt
        assert bt is not None
        x = bt["space"]
        if side == "d" and bt["kind"] == "dungeon":
            return bool(self.guardians[x])
        for r in self.battle_realms(side):
            base = (x * R + r) * T
            if any(self.n[base:base + T]):
                return True
            if bt["kind"] == "sea":
                if any(sh[SPACE] == x and sh[OWNER] == r for sh in self.ships.values()):
                    return True
            elif side == "d" and r == self.ctrl[x] and self.castle[x] and not bt["castle_out"]:
                return True
        return False

    def capacity(self, r: int) -> tuple[int, int]:
        """(hits the realm's pieces in this battle can absorb, number of its pieces there)."""
        bt = self.bt
        assert bt is not None
        x = bt["space"]
        if r == GUARDIANS:
            return sum(len(g) - 2 for g in self.guardians[x]), len(self.guardians[x])
        base = (x * R + r) * T
        pieces = sum(self.n[base:base + T])
        cap = pieces + self.n[base + DRAGON] - bt["hurt"][r]
        if bt["kind"] == "sea":
            for sh in self.ships.values():
                if sh[SPACE] == x and sh[OWNER] == r:
                    heroes = sum(1 for t in self.cargo(sh) if t in HEROES)
                    pieces += 1 + heroes
                    cap += 1 + heroes
        elif r == self.ctrl[x] and self.castle[x] and not bt["castle_out"] and r != bt["att"]:
            pieces += 1
            cap += 1
        return cap, pieces

    def hit_targets(self, r: int) -> list[tuple]:
        """"When a player's piece hits, his opponent decides which of his pieces takes the damage and in which
        order. A new piece must be chosen for each hit scored.\""""
        bt = self.bt
        assert bt is not None
        x = bt["space"]
        if r == GUARDIANS:
            # "each time you score a hit against it, it loses one of its attack dice (the opponent controlling
            # it chooses which)"
            return [("hit", "guardian", i + 1, f) for i, g in enumerate(self.guardians[x])
                    for f in sorted(set(g[2:]))]
        base = (x * R + r) * T
        hurt = bt["hurt"][r]
        hitnow = bt["hitnow"]
        out: list[tuple] = []
        sea = bt["kind"] == "sea"
        for t in range(T):
            c = self.n[base + t]
            if not c or (sea and t not in FLYING_TYPES):
                continue
            if t == DRAGON:
                if c - hurt > 0:
                    out.append(("hit", "dragon"))
                if hurt - hitnow > 0:
                    out.append(("hit", "wounded-dragon"))
            else:
                out.append(("hit", COUNTED[t]))
        if sea:
            for sid in self.ships_at(x, r):
                out.append(("hit", "ship", sid))
                for t in sorted(set(self.cargo(self.ships[sid]))):
                    if t in HEROES:
                        out.append(("hit", COUNTED[t], sid))
        elif r == self.ctrl[x] and self.castle[x] and not bt["castle_out"] and r != bt["att"]:
            out.append(("hit", "castle"))
        if not out and hitnow > 0:
            out.append(("hit", "wounded-dragon"))
        return out

    def assign_hit(self, r: int, action: tuple) -> None:
        bt = self.bt
        assert bt is not None
        x = bt["space"]
        what = action[1]
        if what == "guardian":
            g = self.guardians[x][action[2] - 1]
            g.pop(g.index(action[3], 2))
            if len(g) == 2:
                self.guardians[x].pop(action[2] - 1)
                self.return_guardian(g[0])
        elif what == "dragon":
            bt["hurt"][r] += 1
            bt["hitnow"] += 1
        elif what == "wounded-dragon":
            self.add(x, r, DRAGON, -1)
            if bt["hurt"][r] - bt["hitnow"] <= 0:
                bt["hitnow"] -= 1
            bt["hurt"][r] -= 1
        elif what == "castle":
            # "When a Castle takes damage, it becomes inactive and plays no more part in the current battle."
            bt["castle_out"] = 1
        elif what == "ship":
            # "If a Warship takes damage, it is destroyed along with all land pieces it carries."
            del self.ships[action[2]]
        elif len(action) == 3:
            self.cargo_remove(self.ships[action[2]], TYPE_INDEX[what])
        else:
            self.add(x, r, TYPE_INDEX[what], -1)
        q = bt["queue"][0]
        q[1] -= 1
        if q[1] <= 0:
            bt["queue"].pop(0)
            bt["hitnow"] = 0

    def destroy_all(self, r: int) -> None:
        """More hits than the realm's pieces in this battle can take: all of them are destroyed."""
        bt = self.bt
        assert bt is not None
        x = bt["space"]
        if r == GUARDIANS:
            for g in self.guardians[x]:
                self.return_guardian(g[0])
            self.guardians[x] = []
            return
        base = (x * R + r) * T
        sea = bt["kind"] == "sea"
        for t in range(T):
            if not sea or t in FLYING_TYPES:
                self.n[base + t] = 0
        bt["hurt"][r] = 0
        if sea:
            for sid in self.ships_at(x, r):
                del self.ships[sid]
        elif r == self.ctrl[x] and self.castle[x] and r != bt["att"]:
            bt["castle_out"] = 1

    def begin_damage(self, after: str) -> None:
        """Both sides' hits are taken together; allied defenders split the damage (see docs)."""
        bt = self.bt
        assert bt is not None
        hd, ha = bt["hd"], bt["ha"]
        bt["hd"] = bt["ha"] = 0
        bt["after"] = after
        bt["offered"] = []
        queue: list[list[int]] = []
        if bt["kind"] == "dungeon":
            defs = [GUARDIANS] if self.guardians[bt["space"]] else []
        else:
            defs = [d for d in bt["defs"] if self.capacity(d)[1] > 0]
        bt["pending_split"] = 0
        if hd:
            if len(defs) <= 1:
                queue = [[defs[0], hd]] if defs else []
            else:
                a, b = defs[0], defs[1]
                pa, pb = self.capacity(a)[1], self.capacity(b)[1]
                if hd % 2 and pa == pb:
                    bt["pending_split"] = hd
                    bt["queue"] = [[bt["att"], ha]] if ha else []
                    bt["step"] = "split"
                    return
                extra_to_a = pa > pb
                queue = self.split_damage(a, b, hd, extra_to_a)
        if ha:
            queue.append([bt["att"], ha])
        bt["queue"] = queue
        bt["step"] = "assign"

    def split_damage(self, a: int, b: int, hits: int, extra_to_a: bool) -> list[list[int]]:
        """"Each takes half the total damage. On an odd number of hits, the ally with the most pieces in the
        space takes the extra ... If more hits are scored against one ally than he has pieces to lose, the
        other ally must take all the remaining damage.\""""
        ca, cb = self.capacity(a)[0], self.capacity(b)[0]
        sa = hits // 2 + (hits % 2 if extra_to_a else 0)
        sb = hits - sa
        if sa > ca:
            sb += sa - ca
            sa = ca
        if sb > cb:
            sa = min(ca, sa + sb - cb)
            sb = cb
        return [q for q in ([a, sa], [b, sb]) if q[1] > 0]

    def end_battle_round(self) -> None:
        bt = self.bt
        assert bt is not None
        a, d = self.side_alive("a"), self.side_alive("d")
        if a and d:
            bt["step"] = "press"
        else:
            self.battle_over(a and not d)

    def battle_over(self, won: bool) -> None:
        """Determine battle results; Dragons heal and Castles turn upright at the end of the battle."""
        bt = self.bt
        assert bt is not None
        x = bt["space"]
        bt["hurt"] = [0] * R
        bt["castle_out"] = 0
        fx.expire(self, "battle")
        if won and bt["kind"] == "land":
            self.conquer(x, bt["att"])
            if self.count(x, bt["att"], MONSTER) and self.amok_targets():
                bt["step"] = "amok"
                return
        if won and bt["kind"] == "sea" and self.landing_actions():
            bt["step"] = "landing"
            return
        if bt["kind"] == "dungeon":
            if not won:
                # "If you lose the battle or retreat, all surviving Guardians return to full strength."
                for g in self.guardians[x]:
                    del g[2:]
                    g.extend(full_strength(g[0]))
                if not self.guardians[x] and bt["tiles"] and self.guardian_pile:
                    # Guardians and Heroes destroyed each other: "After you defeat all a dungeon's inhabitants,
                    # place 2 facedown Dungeon Guardian tokens on the entrance" - but no plunder, no Reward
                    bt["restock"] = 2
                    bt["step"] = "restock"
                    return
            else:
                # (an entrance left empty - its Guardians and the Heroes who fought them destroyed together -
                # holds no one to defeat: the next Heroes to enter plunder it)
                self.plunder(x)
                return
        self.bt = None

    def return_guardian(self, tile: str) -> None:
        """A defeated Guardian's tile goes back into the facedown pile (our reading: the document does not say,
        and the pile must keep restocking the entrances)."""
        self.guardian_pile.append(tile)
        self.guardian_pile.sort()

    def place_guardian(self, x: int, tile: str) -> None:
        self.guardian_pile.remove(tile)
        self.guardians[x].append([tile, 0] + full_strength(tile))

    def plunder(self, x: int) -> None:
        """"If you win a battle against all the Dungeon Guardians in a dungeon entrance, your Heroes get to
        plunder the dungeon. Draw the top card from the Treasure deck." / Reward: extra gold. / "After you
        defeat all a dungeon's inhabitants, place 2 facedown Dungeon Guardian tokens on the entrance."
        """
        bt = self.bt
        assert bt is not None
        tiles = guardian_tiles()
        self.stats["plundered"] += 1
        self.gold[bt["att"]] += sum(tiles[t].reward for t in bt["tiles"])
        fx.plunder(self, x)
        bt["restock"] = 2
        bt["step"] = "plunder" if self.treasure_deck else "restock"
        if bt["step"] == "restock" and not self.guardian_pile:
            self.bt = None

    def conquer(self, x: int, r: int) -> None:
        """Conquest, or liberation of an ally's starting land space (no VP, control reverts to the ally)."""
        h = HOME[x]
        if h >= 0 and h != r and self.team[h] == self.team[r]:
            self.ctrl[x] = h
            fx.on_conquer(self, x, r, liberated=True)
            return
        self.ctrl[x] = r
        if h >= 0 and h != r:
            self.vp[r] += 5 if IS_CAPITAL[x] else 1
        fx.on_conquer(self, x, r, liberated=False)

    def amok_targets(self) -> list[int]:
        """"The Monster immediately moves to an enemy land space, adjacent to the attacked space, that contains
        no enemy pieces, and conquers that space.\""""
        bt = self.bt
        assert bt is not None
        r = bt["att"]
        return [y for y in LAND_ADJ[bt["space"]]
                if KIND[y] == LAND and not self.friendly_land(y, r) and not self.enemy_pieces_in(y, r)]

    def landing_actions(self) -> list[tuple]:
        bt = self.bt
        assert bt is not None
        x = bt["space"]
        acts = []
        for sid in self.ships_at(x, bt["att"]):
            sh = self.ships[sid]
            for t in sorted(set(self.cargo(sh))):
                for y in ADJ[x]:
                    if (KIND[y] == LAND or (KIND[y] == DUNGEON and t in HEROES)) and self.may_debark(sh, t, y):
                        acts.append(("debark", sid, IDS[y], COUNTED[t]))
        return acts

    def withdraw_actions(self) -> list[tuple]:
        """"Retreating pieces move from the attacked space to any adjacent friendly land space ... Flying pieces
        can retreat to an adjacent friendly sea space ... If there are no friendly adjacent land spaces to
        retreat to, but you have one or more Warships in an adjacent sea space, your pieces can retreat by
        embarking onto those Warships.\""""
        bt = self.bt
        assert bt is not None
        x = bt["space"]
        r = bt["att"]
        friendly_lands = [y for y in ADJ[x] if KIND[y] == LAND and self.friendly_land(y, r)]
        friendly_seas = [y for y in ADJ[x] if KIND[y] == SEA and not self.enemy_sea(y, r)]
        acts: list[tuple] = []
        base = (x * R + r) * T
        sea = bt["kind"] == "sea"
        for t in range(T):
            c = self.n[base + t]
            if not c:
                continue
            if t in FLYING_TYPES:
                dests = friendly_lands + friendly_seas
            elif sea:
                continue
            else:
                dests = friendly_lands
            for y in dests:
                for k in range(1, c + 1):
                    acts.append(("withdraw", IDS[y], COUNTED[t], k))
            if t not in FLYING_TYPES and not friendly_lands:
                for sid in sorted(self.ships):
                    sh = self.ships[sid]
                    if sh[OWNER] == r and sh[SPACE] in SEA_ADJ[x] and (sh[C1] < 0 or sh[C2] < 0):
                        acts.append(("withdraw-aboard", sid, COUNTED[t]))
        if sea:
            for sid in self.ships_at(x, r):
                for y in friendly_seas:
                    acts.append(("withdraw-ship", sid, IDS[y]))
        return acts

    def finish_withdrawal_if_done(self) -> None:
        """Pieces that cannot retreat anywhere are destroyed; the attacker has lost the battle."""
        if self.withdraw_actions():
            return
        bt = self.bt
        assert bt is not None
        x = bt["space"]
        r = bt["att"]
        base = (x * R + r) * T
        for t in range(T):
            if bt["kind"] != "sea" or t in FLYING_TYPES:
                self.n[base + t] = 0
        if bt["kind"] == "sea":
            for sid in self.ships_at(x, r):
                del self.ships[sid]
        fx.on_retreat(self, x)
        self.battle_over(False)

    # =============================================================================== Reposition
    def reposition_actions(self) -> list[tuple]:
        """Flying pieces move to friendly land (Storm Elementals also friendly sea) within their Move; Heroes
        that plundered a dungeon leave it for an adjacent friendly land space."""
        r = self.realm
        acts: list[tuple] = []
        for key, c in sorted(self.movable.items()):
            s, t = divmod(key, T)
            if t in FLYING_TYPES:
                dests = self.flying_reach(s, r, self.piece_move(r, t), t, friendly_only=True,
                                          land_only=(t == DRAGON))
            else:
                dests = [y for y in LAND_ADJ[s] if self.friendly_land(y, r)]
                for sid in sorted(self.ships):
                    sh = self.ships[sid]
                    if sh[OWNER] == r and sh[SPACE] in SEA_ADJ[s] and (sh[C1] < 0 or sh[C2] < 0) \
                            and not self.enemy_sea(sh[SPACE], r):
                        acts.append(("embark", IDS[s], sid, COUNTED[t]))
            for y in dests:
                for k in range(1, c + 1):
                    acts.append(("move", IDS[s], IDS[y], COUNTED[t], k))
        acts.append(("done",))
        return acts

    def start_reposition(self) -> None:
        r = self.realm
        self.phase = "reposition"
        mv: dict[int, int] = {}
        for s in range(S):
            base = (s * R + r) * T
            for t in FLYING_TYPES:
                if self.n[base + t]:
                    mv[s * T + t] = self.n[base + t]
            if KIND[s] == DUNGEON:
                for t in HEROES:
                    if self.n[base + t]:
                        mv[s * T + t] = self.n[base + t]
        self.movable = mv

    def end_reposition(self) -> None:
        """"Other flying pieces must end in friendly land spaces or they are destroyed." Heroes that could not
        leave a dungeon are lost with it (see docs)."""
        r = self.realm
        for s in range(S):
            base = (s * R + r) * T
            if KIND[s] == SEA:
                self.n[base + DRAGON] = 0
                if self.enemy_sea(s, r):
                    self.n[base + STORM] = 0
            elif KIND[s] == DUNGEON:
                for t in range(T):
                    self.n[base + t] = 0
            elif not self.friendly_land(s, r):
                self.n[base + DRAGON] = 0
                self.n[base + STORM] = 0
        self.start_reinforce()

    # =============================================================================== Reinforce
    def start_reinforce(self) -> None:
        self.phase = "reinforce"
        self.movable = {}
        self.placed = {}
        self.built = []
        for sh in self.ships.values():
            if sh[OWNER] == self.realm:
                sh[FLAGS] |= F_FIXED  # existing Warships do not move in this step

    def castles_held(self, r: int) -> int:
        return sum(1 for s in LANDS if self.castle[s] and self.ctrl[s] == r and s not in self.built)

    def placement_room(self, s: int, r: int, held: int = -1) -> int:
        """New pieces a Castle space can still take: any number at the capital or at your only Castle, else
        4; none at a Castle captured this turn (a retaken capital excepted) or built this turn."""
        if not self.castle[s] or self.ctrl[s] != r or s in self.built:
            return 0
        if s == CAPITAL[r]:
            return 999
        if self.ctrl_start[s] != r:
            return 0
        if (self.castles_held(r) if held < 0 else held) == 1:
            return 999
        return 4 - self.placed.get(s, 0)

    def fallback_spaces(self, r: int) -> list[int]:
        """"If you control no Castles, all the new pieces must appear in the friendly land space closest to
        your Capital.\""""
        cap = CAPITAL[r]
        spaces = [s for s in LANDS if self.friendly_land(s, r)]
        if not spaces:
            return []
        best = min(DIST[cap][s] for s in spaces)
        return [s for s in spaces if DIST[cap][s] == best]

    def sea_castle(self, q: int, r: int, held: int = -1) -> int:
        """The eligible Castle whose limit a piece placed in sea space ``q`` counts against (the capital when
        adjacent, else the one with most room), or -1."""
        best, room = -1, 0
        for s in ADJ[q]:
            if KIND[s] == LAND:
                rm = self.placement_room(s, r, held)
                if rm > room or (rm == room and rm > 0 and s == CAPITAL[r]):
                    best, room = s, rm
        return best

    def reinforce_actions(self) -> list[tuple]:
        r = self.realm
        gold = self.gold[r]
        acts: list[tuple] = []
        castles = self.castles_held(r)
        land_spots = [s for s in LANDS if self.placement_room(s, r, castles) > 0]
        if castles == 0:
            land_spots = self.fallback_spaces(r)
        ship_ok = {q: self.sea_castle(q, r, castles) >= 0 and not self.enemy_sea(q, r) for q in SEAS} \
            if castles else {}
        sea_spots = [q for q in SEAS if ship_ok.get(q)]
        for p in BUYABLE:
            if ALL_COSTS[p] > gold:
                continue
            if p == "castle":
                for s in LANDS:
                    if self.ctrl[s] == r and self.ctrl_start[s] == r and not self.castle[s]:
                        acts.append(("buy", "castle", IDS[s]))
                continue
            if p != "warship":
                for s in land_spots:
                    acts.append(("buy", p, IDS[s]))
            if p in ("warship", "storm"):
                for q in sea_spots:
                    acts.append(("buy", p, IDS[q]))
            if p in COUNTED and TYPE_INDEX[p] in LAND_TYPES:
                for sid in sorted(self.ships):
                    sh = self.ships[sid]
                    if sh[OWNER] == r and (sh[C1] < 0 or sh[C2] < 0) and ship_ok.get(sh[SPACE]) \
                            and not sh[FLAGS] & F_UNLOADED:
                        acts.append(("buy", p, "ship", sid))
        # new pieces move at once to friendly spaces within their Move; no battles
        for key, c in sorted(self.movable.items()):
            s, t = divmod(key, T)
            m = self.piece_move(r, t)
            if t in FLYING_TYPES:
                dests = self.flying_reach(s, r, m, t, friendly_only=True, land_only=(t == DRAGON))
            else:
                dests = self.land_reach(s, r, m, False, friendly_only=True)
            for y in dests:
                for k in range(1, c + 1):
                    acts.append(("move", IDS[s], IDS[y], COUNTED[t], k))
        for sid in sorted(self.ships):
            sh = self.ships[sid]
            if sh[OWNER] != r or not sh[FLAGS] & F_NEW or sh[FLAGS] & (F_FIXED | F_UNLOADED):
                continue
            if sh[MOVES] < WARSHIP_MOVE:
                for y in SEA_ADJ[sh[SPACE]]:
                    if not self.enemy_sea(y, r):
                        acts.append(("sail", sid, IDS[y]))
            for t in sorted(set(self.cargo(sh))):
                for y in ADJ[sh[SPACE]]:
                    if KIND[y] == LAND and self.friendly_land(y, r) and self.may_debark(sh, t, y):
                        acts.append(("debark", sid, IDS[y], COUNTED[t]))
        acts.append(("done",))
        acts.extend(fx.playable(self))
        return acts

    def buy(self, action: tuple) -> None:
        r = self.realm
        p = action[1]
        self.gold[r] -= ALL_COSTS[p]
        if len(action) == 4:
            sid = action[3]
            sh = self.ships[sid]
            self.cargo_add(sh, TYPE_INDEX[p])  # bought aboard: it embarked from no coastal space
            cs = self.sea_castle(sh[SPACE], r)
            self.placed[cs] = self.placed.get(cs, 0) + 1
            if not sh[FLAGS] & F_NEW:
                sh[FLAGS] |= F_FIXED  # "you cannot move an existing Warship you placed new land pieces on"
            return
        s = IX[action[2]]
        if p == "castle":
            self.castle[s] = 1
            self.built.append(s)
            return
        if KIND[s] == SEA:
            cs = self.sea_castle(s, r)
            self.placed[cs] = self.placed.get(cs, 0) + 1
            if p == "warship":
                self.ships[self.next_ship] = [r, s, 0, F_NEW, -1, -1, -1, -1]
                self.next_ship += 1
                return
        elif self.castles_held(r):
            self.placed[s] = self.placed.get(s, 0) + 1
        t = TYPE_INDEX[p]
        self.add(s, r, t, 1)
        self.movable[s * T + t] = self.movable.get(s * T + t, 0) + 1

    # =============================================================================== Collect Income
    def income(self, r: int) -> int:
        """Base income + lands held outside the starting territory - own starting lands lost = the land spaces
        you control; half (rounded up) without your Capital."""
        held = sum(1 for s in LANDS if self.ctrl[s] == r)
        held += fx.income_bonus(self, r)
        if self.ctrl[CAPITAL[r]] != r:
            held = (held + 1) // 2
        return max(0, held)

    def collect_income(self) -> None:
        self.gold[self.realm] += self.income(self.realm)

    # =============================================================================== turns and rounds
    def start_turn(self) -> None:
        r = self.realm
        self.ctrl_start = self.ctrl[:]
        for sh in self.ships.values():
            if sh[OWNER] == r:
                sh[MOVES] = 0
                sh[FLAGS] = 0
            sh[O1] = sh[O2] = -1   # embarked origins are this turn's only; cargo stays aboard across turns
        self.pending = []
        self.placed = {}
        self.built = []
        self.bt = None
        fx.expire(self, "turn")
        self.phase = "draw"
        if not fx.draw_outcomes(self):
            self.start_move()

    def start_move(self) -> None:
        r = self.realm
        self.phase = "move"
        mv: dict[int, int] = {}
        n = self.n
        for s in range(S):
            base = (s * R + r) * T
            for t in range(T):
                if n[base + t]:
                    mv[s * T + t] = n[base + t]
        self.movable = mv

    def end_turn(self) -> None:
        self.collect_income()
        self.movable = {}
        if self.realm == R - 1:
            self.end_of_round()
            if self.phase == "over":
                return
            self.round += 1
            self.realm = 0
        else:
            self.realm += 1
        self.start_turn()

    def side_vp(self) -> dict[int, int]:
        out: dict[int, int] = {}
        for r in range(R):
            out[self.team[r]] = out.get(self.team[r], 0) + self.vp[r]
        return out

    def team_size(self, team: int) -> int:
        return sum(1 for r in range(R) if self.team[r] == team)

    def end_of_round(self) -> None:
        """"At the end of each round, a player with at least the required VP and the most VP wins. On a tie,
        continue playing until one player has the most VP at the end of a game round.\""""
        length = self.options["length"]
        vps = self.side_vp()
        winner_team = None
        if length in LENGTH_VP:
            best = max(vps.values())
            leaders = [t for t, v in vps.items() if v == best]
            if len(leaders) == 1:
                t = leaders[0]
                need = LENGTH_VP[length][1 if self.team_size(t) > 1 else 0]
                if best >= need:
                    winner_team = t
        else:
            for t in sorted(vps):
                if all(self.team[self.ctrl[c]] == t for c in CAPITAL):
                    winner_team = t
            if winner_team is None:
                tre = {t: 0 for t in vps}
                for r in range(R):
                    tre[self.team[r]] += len(self.treasures_played[r]) + len(self.treasures[r])
                best = max(tre.values())
                leaders = [t for t, v in tre.items() if v == best]
                if len(leaders) == 1:
                    t = leaders[0]
                    if best >= TREASURES_TO_WIN[1 if self.team_size(t) > 1 else 0]:
                        winner_team = t
        if winner_team is not None:
            self.finish([self.seat_of[r] for r in range(R) if self.team[r] == winner_team], "victory")
            return
        limit = self.options["max_rounds"]
        if limit and self.round >= limit:
            best = max(vps.values())
            teams = [t for t, v in vps.items() if v == best]
            self.finish([self.seat_of[r] for r in range(R) if self.team[r] in teams], "round limit")

    def finish(self, seats: list[int], reason: str) -> None:
        self.winners = sorted(set(seats))
        self.end_reason = reason
        self.phase = "over"
        self.bt = None
        self.react = None
        self.movable = {}
        self.pending = []

    # =============================================================================== apply
    def _apply(self, action: Any) -> None:
        verb = action[0]
        ph = self.phase
        if ph == "draw":
            fx.resolve_draw(self, action[1])
            self.start_move()
        elif ph == "deal":
            if verb == "guardian":
                self.place_guardian(self.dealing_guardians.pop(0), action[1])
                if not self.dealing_guardians and not self.dealing:
                    self.start_turn()
            else:
                fx.resolve_deal(self, action[1])
        elif self.react is not None:
            self.apply_reaction(action)
        elif verb == "play":
            bt = self.bt
            if bt is not None and bt["step"] == "window":
                realm = bt["window"][0]
                fx.play(self, action, realm)
                verbs = {e[0]: e[1] for e in fx.event_cards()[action[1]].get("effects", [])}
                if "reroll" in verbs:
                    # "reroll": the roll is made again (a new chance node); its first result is void
                    bt.update(rolled=0, window=[], step=bt["wstep"])
                elif "cancel_hits" in verbs:
                    q = bt["queue"][0]
                    q[1] -= min(q[1], verbs["cancel_hits"])
                    if q[1] <= 0:
                        bt["queue"].pop(0)
                        bt["hitnow"] = 0
                    bt["window"] = []
                    bt["step"] = "assign"
            else:
                fx.play(self, action)
        elif ph == "move":
            if verb == "done":
                self.phase = "fight"
                self.movable = {}
            elif verb == "move":
                self.move_pieces(IX[action[1]], IX[action[2]], TYPE_INDEX[action[3]], action[4])
            elif verb == "sail":
                self.sail(action[1], IX[action[2]])
            elif verb == "embark":
                self.embark(IX[action[1]], action[2], TYPE_INDEX[action[3]])
            elif verb == "debark":
                self.debark(action[1], IX[action[2]], TYPE_INDEX[action[3]])
        elif ph == "fight":
            self.apply_fight(action)
        elif ph == "reposition":
            if verb == "done":
                self.end_reposition()
            elif verb == "embark":
                self.embark(IX[action[1]], action[2], TYPE_INDEX[action[3]])
            else:
                self.move_pieces(IX[action[1]], IX[action[2]], TYPE_INDEX[action[3]], action[4])
        elif ph == "reinforce":
            if verb == "done":
                if not self.open_income_window():
                    self.end_turn()
            elif verb == "buy":
                self.buy(action)
            elif verb == "move":
                self.move_pieces(IX[action[1]], IX[action[2]], TYPE_INDEX[action[3]], action[4])
            elif verb == "sail":
                self.sail(action[1], IX[action[2]])
            elif verb == "debark":
                self.debark(action[1], IX[action[2]], TYPE_INDEX[action[3]])
        self.advance()

    def apply_fight(self, action: tuple) -> None:
        bt = self.bt
        verb = action[0]
        if bt is None:
            self.start_battle(IX[action[1]])
            return
        step = bt["step"]
        if verb == "hits":
            k = action[1]
            side = "a" if step in ("fs_a", "roll_a") else "d"
            realms = [r for r in self.battle_realms(side) if r >= 0 and fx.window_cards(self, r, "roll")]
            if realms:
                # a card "when rolling": the side that rolled may reroll before the hits count
                bt.update(rolled=k, wstep=step, wkind="roll", window=realms, step="window")
            else:
                self.take_roll(step, k)
        elif verb == "treasure":
            self.treasure_deck.remove(action[1])
            self.treasures[bt["att"]].append(action[1])
            bt["step"] = "restock"
            if not self.guardian_pile:
                self.bt = None
        elif verb == "guardian":
            self.place_guardian(bt["space"], action[1])
            bt["restock"] -= 1
            if bt["restock"] <= 0 or not self.guardian_pile:
                self.bt = None
        elif verb == "extra":
            a, b = bt["defs"][0], bt["defs"][1]
            queue = self.split_damage(a, b, bt["pending_split"], REALM_INDEX[action[1]] == a)
            bt["queue"] = queue + bt["queue"]
            bt["pending_split"] = 0
            bt["step"] = "assign"
        elif verb == "hit":
            self.assign_hit(bt["queue"][0][0], action)
        elif verb == "press":
            bt["round"] += 1
            bt["step"] = "fs_a"
        elif verb == "retreat":
            bt["step"] = "withdraw"
        elif verb == "withdraw":
            x, y, t, k = bt["space"], IX[action[1]], TYPE_INDEX[action[2]], action[3]
            self.add(x, bt["att"], t, -k)
            self.add(y, bt["att"], t, k)
        elif verb == "withdraw-aboard":
            sh = self.ships[action[1]]
            t = TYPE_INDEX[action[2]]
            self.add(bt["space"], bt["att"], t, -1)
            self.cargo_add(sh, t, bt["space"])
            sh[FLAGS] |= F_RETREATED
        elif verb == "withdraw-ship":
            sh = self.ships[action[1]]
            sh[SPACE] = IX[action[2]]
            sh[FLAGS] |= F_RETREATED
        elif verb == "amok":
            x, y, r = bt["space"], IX[action[1]], bt["att"]
            self.add(x, r, MONSTER, -1)
            self.add(y, r, MONSTER, 1)
            self.conquer(y, r)
            if not self.count(x, r, MONSTER) or not self.amok_targets():
                self.bt = None
        elif verb == "stay":
            self.bt = None
        elif verb == "pass":
            bt["window"].pop(0)
            if not bt["window"]:
                self.close_window()
        elif verb == "debark":
            self.debark(action[1], IX[action[2]], TYPE_INDEX[action[3]])
            if not self.landing_actions():
                self.bt = None
        elif verb == "done":
            self.bt = None
        if self.bt is not None and self.bt["step"] == "withdraw":
            self.finish_withdrawal_if_done()

    def advance(self) -> None:
        """Carry out everything automatic until a decision or a chance outcome is due: rolls of sides with no
        dice, damage with no choice, the end of a battle round, the end of the Fight Battles step."""
        while True:
            if self.phase != "fight":
                return
            bt = self.bt
            if bt is None:
                if not self.pending:
                    self.start_reposition()
                    return
                return
            step = bt["step"]
            if step in ("fs_a", "fs_d", "roll_a", "roll_d"):
                if self.battle_dice("a" if step.endswith("a") else "d", step.startswith("fs")):
                    return
                if step == "fs_a":
                    bt["step"] = "fs_d"
                elif step == "fs_d":
                    self.begin_damage("roll_a")
                elif step == "roll_a":
                    bt["step"] = "roll_d"
                else:
                    self.begin_damage("end")
                continue
            if step == "window":
                w = bt["window"]
                while w and not fx.window_cards(self, w[0], bt["wkind"]):
                    w.pop(0)
                if not w:
                    self.close_window()
                    continue
                return
            if step == "assign":
                q = bt["queue"]
                if not q:
                    if bt["after"] == "end" or not (self.side_alive("a") and self.side_alive("d")):
                        # first-strike damage that left one side without pieces ends the round there
                        self.end_battle_round()
                    else:
                        bt["step"] = bt["after"]
                    continue
                r, h = q[0]
                if r >= 0 and h > 0 and r not in bt["offered"] and fx.window_cards(self, r, "damage"):
                    # a card "when taking damage", before the hits are assigned
                    bt["offered"].append(r)
                    bt.update(window=[r], wkind="damage", step="window")
                    return
                cap = self.capacity(r)[0]
                if h >= cap:
                    self.destroy_all(r)
                    q.pop(0)
                    bt["hitnow"] = 0
                    continue
                targets = self.hit_targets(r)
                if len(targets) == 1:
                    self.assign_hit(r, targets[0])
                    continue
                return
            return

    # =============================================================================== JSON
    def _body_json(self) -> dict[str, Any]:
        pieces: dict[str, dict[str, dict[str, int]]] = {}
        for s in range(S):
            for r in range(R):
                base = (s * R + r) * T
                row = {COUNTED[t]: self.n[base + t] for t in range(T) if self.n[base + t]}
                if row:
                    pieces.setdefault(IDS[s], {})[REALMS[r]] = row
        ships = {}
        for sid in sorted(self.ships):
            sh = self.ships[sid]
            ships[str(sid)] = {"owner": REALMS[sh[OWNER]], "space": IDS[sh[SPACE]], "moves": sh[MOVES],
                               "flags": [k for k, v in FLAG_NAMES.items() if sh[FLAGS] & v],
                               "cargo": [COUNTED[t] for t in self.cargo(sh)]}
            if sh[O1] >= 0 or sh[O2] >= 0:
                ships[str(sid)]["cargo_from"] = [IDS[o] if o >= 0 else None
                                                 for c, o in ((sh[C1], sh[O1]), (sh[C2], sh[O2])) if c >= 0]
        movable: dict[str, dict[str, int]] = {}
        for key, c in sorted(self.movable.items()):
            s, t = divmod(key, T)
            movable.setdefault(IDS[s], {})[COUNTED[t]] = c
        bt = None
        if self.bt is not None:
            b = self.bt
            bt = {"space": IDS[b["space"]], "kind": b["kind"], "attacker": REALMS[b["att"]],
                  "defenders": [REALMS[d] for d in b["defs"]], "round": b["round"], "step": b["step"],
                  "hits_on_attacker": b["ha"], "hits_on_defenders": b["hd"],
                  "queue": [[REALMS[q[0]] if q[0] >= 0 else "guardians", q[1]] for q in b["queue"]],
                  "hit_this_assignment": b["hitnow"],
                  "after": b["after"], "castle_inactive": bool(b["castle_out"]),
                  "wounded_dragons": {REALMS[r]: b["hurt"][r] for r in range(R) if b["hurt"][r]},
                  "split_hits": b.get("pending_split", 0), "guardian_seat": b["gseat"],
                  "guardian_tiles": b["tiles"], "restock": b["restock"],
                  "window": [REALMS[r] for r in b["window"]], "window_kind": b["wkind"],
                  "window_step": b["wstep"], "rolled": b["rolled"],
                  "offered": [REALMS[r] for r in b["offered"]],
                  # derived, for readers (ignored when a state is read): the dice of the side about to roll
                  "rolling": [list(d) for d in self.battle_dice(
                      "a" if b["step"].endswith("a") else "d", b["step"].startswith("fs"))]
                  if b["step"] in ("fs_a", "fs_d", "roll_a", "roll_d") else []}
        return {
            "round": self.round, "realm": REALMS[self.realm], "phase": self.phase,
            "gold": {REALMS[r]: self.gold[r] for r in range(R)},
            "vp": {REALMS[r]: self.vp[r] for r in range(R)},
            "control": {IDS[s]: REALMS[self.ctrl[s]] for s in LANDS},
            "control_at_turn_start": {IDS[s]: REALMS[self.ctrl_start[s]] for s in LANDS},
            "castles": [IDS[s] for s in LANDS if self.castle[s]],
            "pieces": pieces, "ships": ships, "next_ship": self.next_ship,
            "movable": movable, "battles": [IDS[s] for s in self.pending], "battle": bt,
            "reaction": None if self.react is None else {
                "kind": self.react["kind"], "realms": [REALMS[r] for r in self.react["realms"]],
                "space": IDS[self.react["space"]] if self.react["space"] >= 0 else None,
                "mover": REALMS[self.react["mover"]]},
            "placed": {IDS[s]: c for s, c in sorted(self.placed.items())},
            "built": [IDS[s] for s in self.built],
            "event_decks": {REALMS[r]: self.decks[r] for r in range(R)},
            "event_hands": {REALMS[r]: self.hands[r] for r in range(R)},
            "event_discards": {REALMS[r]: self.discards[r] for r in range(R)},
            "treasure_deck": self.treasure_deck,
            "treasure_hands": {REALMS[r]: self.treasures[r] for r in range(R)},
            "treasures_played": {REALMS[r]: self.treasures_played[r] for r in range(R)},
            "effects": [[REALMS[e[0]]] + list(e[1:]) for e in self.effects],
            "guardians": {IDS[d]: [{"tile": g[0], "face_up": bool(g[1]), "dice": g[2:]} for g in gs]
                          for d, gs in sorted(self.guardians.items())},
            "guardian_pile": self.guardian_pile,
            "dealing_guardians": [IDS[d] for d in self.dealing_guardians],
            "dealing": [REALMS[r] for r in self.dealing],
            "stats": dict(self.stats),
            "winners": self.winners, "end_reason": self.end_reason,
        }

    @classmethod
    def _from_body(cls, data: dict[str, Any], players: int, options: dict[str, Any]) -> "NerathState":
        st = cls(players, options)

        def need(key: str, typ: type) -> Any:
            if key not in data:
                raise StateFormatError(key, "missing")
            v = data[key]
            if not isinstance(v, typ) or isinstance(v, bool) and typ is not bool:
                raise StateFormatError(key, f"expected {typ.__name__}, got {type(v).__name__}")
            return v

        st.round = need("round", int)
        st.realm = _realm_ix(need("realm", str), "realm")
        st.phase = need("phase", str)
        if st.phase not in PHASES:
            raise StateFormatError("phase", f"must be one of {', '.join(PHASES)}")
        for key, target in (("gold", st.gold), ("vp", st.vp)):
            d = need(key, dict)
            for name, v in d.items():
                if not isinstance(v, int) or isinstance(v, bool) or v < 0:
                    raise StateFormatError(f"{key}/{name}", "must be a whole number >= 0")
                target[_realm_ix(name, f"{key}/{name}")] = v
        for key in ("control", "control_at_turn_start"):
            d = need(key, dict)
            arr = st.ctrl if key == "control" else st.ctrl[:]
            for sp, name in d.items():
                s = _ix(sp, f"{key}/{sp}")
                if KIND[s] != LAND:
                    raise StateFormatError(f"{key}/{sp}", "only land spaces are controlled")
                arr[s] = _realm_ix(name, f"{key}/{sp}")
            if key != "control":
                st.ctrl_start = arr
        st.castle = [0] * S
        for sp in need("castles", list):
            s = _ix(sp, "castles")
            if KIND[s] != LAND:
                raise StateFormatError("castles", f"{sp} is not a land space")
            st.castle[s] = 1
        st.n = [0] * (S * RS)
        for sp, by_realm in need("pieces", dict).items():
            s = _ix(sp, f"pieces/{sp}")
            if not isinstance(by_realm, dict):
                raise StateFormatError(f"pieces/{sp}", "must map realms to pieces")
            for name, row in by_realm.items():
                r = _realm_ix(name, f"pieces/{sp}/{name}")
                if not isinstance(row, dict):
                    raise StateFormatError(f"pieces/{sp}/{name}", "must map pieces to counts")
                for p, c in row.items():
                    if p not in TYPE_INDEX:
                        raise StateFormatError(f"pieces/{sp}/{name}/{p}", "unknown piece (Castles are listed "
                                               "in 'castles', Warships in 'ships')")
                    if not isinstance(c, int) or isinstance(c, bool) or c < 0:
                        raise StateFormatError(f"pieces/{sp}/{name}/{p}", "must be a whole number >= 0")
                    t = TYPE_INDEX[p]
                    if KIND[s] == SEA and t not in FLYING_TYPES and c:
                        raise StateFormatError(f"pieces/{sp}/{name}/{p}", "land pieces at sea ride Warships")
                    st.n[(s * R + r) * T + t] = c
        st.ships = {}
        for key, rec in need("ships", dict).items():
            f = f"ships/{key}"
            if not str(key).isdigit() or not isinstance(rec, dict):
                raise StateFormatError(f, "ships are keyed by number and hold owner, space, moves, flags, cargo")
            s = _ix(rec.get("space"), f + "/space")
            if KIND[s] != SEA:
                raise StateFormatError(f + "/space", "a Warship must be in a sea space")
            cargo = rec.get("cargo", [])
            if not isinstance(cargo, list) or len(cargo) > 2 or any(
                    c not in TYPE_INDEX or TYPE_INDEX[c] not in LAND_TYPES for c in cargo):
                raise StateFormatError(f + "/cargo", "up to 2 land pieces (not Castles)")
            flags = 0
            for fl in rec.get("flags", []):
                if fl not in FLAG_NAMES:
                    raise StateFormatError(f + "/flags", f"unknown flag {fl!r} ({', '.join(FLAG_NAMES)})")
                flags |= FLAG_NAMES[fl]
            moves = rec.get("moves", 0)
            if not isinstance(moves, int) or moves < 0:
                raise StateFormatError(f + "/moves", "must be a whole number >= 0")
            cs = [TYPE_INDEX[c] for c in cargo] + [-1, -1]
            frm = rec.get("cargo_from", [])
            if not isinstance(frm, list) or len(frm) > len(cargo) or any(
                    o is not None and (o not in IX or KIND[IX[o]] == SEA) for o in frm):
                raise StateFormatError(f + "/cargo_from", "one land space id (or null) per cargo piece, in order")
            os_ = [IX[o] if o is not None else -1 for o in frm] + [-1, -1]
            st.ships[int(key)] = [_realm_ix(rec.get("owner"), f + "/owner"), s, moves, flags, cs[0], cs[1],
                                  os_[0], os_[1]]
        st.next_ship = max([need("next_ship", int)] + [k + 1 for k in st.ships])
        st.movable = {}
        if data.get("movable") == "all":
            # a convenience for scenarios: every piece of the realm to move may still move
            data = dict(data)
            data["movable"] = {}
            if st.phase == "move":
                st.start_move()
            elif st.phase == "reposition":
                st.start_reposition()
        for sp, row in need("movable", dict).items():
            s = _ix(sp, f"movable/{sp}")
            for p, c in row.items():
                if p not in TYPE_INDEX or not isinstance(c, int) or c < 0:
                    raise StateFormatError(f"movable/{sp}/{p}", "must map a piece to a count")
                if c:
                    st.movable[s * T + TYPE_INDEX[p]] = c
        st.pending = [_ix(sp, "battles") for sp in need("battles", list)]
        st.dealing = [_realm_ix(x, "dealing") for x in data.get("dealing", [])]
        st.placed = {_ix(sp, "placed"): int(c) for sp, c in data.get("placed", {}).items()}
        st.built = [_ix(sp, "built") for sp in data.get("built", [])]
        rc = data.get("reaction")
        if rc is not None:
            if not isinstance(rc, dict) or rc.get("kind") not in ("move", "income") or \
                    not isinstance(rc.get("realms"), list) or not rc["realms"]:
                raise StateFormatError("reaction", "null, or {kind: move|income, realms: [...], space, mover}")
            st.react = {"kind": rc["kind"], "realms": [_realm_ix(x, "reaction/realms") for x in rc["realms"]],
                        "space": _ix(rc["space"], "reaction/space") if rc.get("space") is not None else -1,
                        "mover": _realm_ix(rc.get("mover"), "reaction/mover")}
            if st.react["kind"] == "move" and st.react["space"] < 0:
                raise StateFormatError("reaction/space", "a movement window names the space entered")
        b = data.get("battle")
        if b is not None:
            if not isinstance(b, dict):
                raise StateFormatError("battle", "must be an object or null")
            try:
                hurt = [0] * R
                for name, c in b.get("wounded_dragons", {}).items():
                    hurt[_realm_ix(name, "battle/wounded_dragons")] = int(c)
                st.bt = {"space": _ix(b["space"], "battle/space"), "kind": b["kind"],
                         "att": _realm_ix(b["attacker"], "battle/attacker"),
                         "defs": [_realm_ix(d, "battle/defenders") for d in b["defenders"]],
                         "round": int(b["round"]), "step": b["step"], "ha": int(b.get("hits_on_attacker", 0)),
                         "hd": int(b.get("hits_on_defenders", 0)),
                         "queue": [[GUARDIANS if q[0] == "guardians" else _realm_ix(q[0], "battle/queue"),
                                    int(q[1])] for q in b.get("queue", [])],
                         "hitnow": int(b.get("hit_this_assignment", 0)), "after": b.get("after", ""),
                         "castle_out": int(bool(b.get("castle_inactive", False))), "hurt": hurt,
                         "pending_split": int(b.get("split_hits", 0)),
                         "gseat": int(b.get("guardian_seat", -1)), "tiles": list(b.get("guardian_tiles", [])),
                         "restock": int(b.get("restock", 0)),
                         "window": [_realm_ix(r, "battle/window") for r in b.get("window", [])],
                         "wkind": str(b.get("window_kind", "")), "wstep": str(b.get("window_step", "")),
                         "rolled": int(b.get("rolled", 0)),
                         "offered": [_realm_ix(r, "battle/offered") for r in b.get("offered", [])]}
            except KeyError as e:
                raise StateFormatError(f"battle/{e.args[0]}", "missing") from None
            if st.bt["kind"] not in ("land", "sea", "dungeon"):
                raise StateFormatError("battle/kind", "must be land, sea or dungeon")
            if st.bt["kind"] == "dungeon" and not 0 <= st.bt["gseat"] < players:
                raise StateFormatError("battle/guardian_seat", "the seat rolling for the Guardians is needed")
            if st.bt["step"] not in CHANCE_STEPS + ("assign", "press", "withdraw", "amok", "landing", "window"):
                raise StateFormatError("battle/step", f"unknown step {st.bt['step']!r}")
        for key, attr in (("event_decks", "decks"), ("event_hands", "hands"), ("event_discards", "discards"),
                          ("treasure_hands", "treasures"), ("treasures_played", "treasures_played")):
            d = data.get(key, {})
            if not isinstance(d, dict):
                raise StateFormatError(key, "must map realms to lists of cards")
            arr = getattr(st, attr)
            for name, cards in d.items():
                if not isinstance(cards, list) or not all(isinstance(c, str) for c in cards):
                    raise StateFormatError(f"{key}/{name}", "must be a list of card ids")
                arr[_realm_ix(name, f"{key}/{name}")] = list(cards)
        st.treasure_deck = sorted(data.get("treasure_deck", []))
        eff = data.get("effects", [])
        if not isinstance(eff, list) or not all(isinstance(e, list) for e in eff):
            raise StateFormatError("effects", "must be a list of effect records")
        st.effects = []
        for i, rec_e in enumerate(eff):
            if len(rec_e) != 5:
                raise StateFormatError(f"effects/{i}", "an effect is [realm, verb, value, piece, until]")
            st.effects.append([_realm_ix(rec_e[0], f"effects/{i}")] + list(rec_e[1:]))
        g = data.get("guardians", {})
        st.guardians = {d: [] for d in BOARD.dungeons}
        known = guardian_tiles()
        for sp, tiles in g.items():
            s = _ix(sp, f"guardians/{sp}")
            if KIND[s] != DUNGEON:
                raise StateFormatError(f"guardians/{sp}", "Guardians stand on dungeon entrances")
            for i, t in enumerate(tiles):
                f = f"guardians/{sp}/{i}"
                if not isinstance(t, dict) or t.get("tile") not in known:
                    raise StateFormatError(f, f"a Guardian is {{tile, face_up, dice}} with a tile of "
                                              f"guardians.yaml")
                dice = t.get("dice", full_strength(t["tile"]))
                if not isinstance(dice, list) or not dice or not all(isinstance(d, int) for d in dice):
                    raise StateFormatError(f + "/dice", "the attack dice left, a non-empty list of faces")
                st.guardians[s].append([t["tile"], int(bool(t.get("face_up", False)))] + dice)
        pile = data.get("guardian_pile", st.guardian_pile)
        if not isinstance(pile, list) or any(p not in known for p in pile):
            raise StateFormatError("guardian_pile", "a list of tiles of guardians.yaml")
        st.guardian_pile = sorted(pile)
        st.dealing_guardians = [_ix(sp, "dealing_guardians") for sp in data.get("dealing_guardians", [])]
        deck = data.get("treasure_deck", [])
        if not isinstance(deck, list) or any(c not in treasure_cards() for c in deck):
            raise StateFormatError("treasure_deck", "a list of cards of treasures.yaml")
        stats = data.get("stats", {})
        if not isinstance(stats, dict) or not all(isinstance(v, int) for v in stats.values()):
            raise StateFormatError("stats", "counters for reports: battles, explored, plundered")
        st.stats.update(stats)
        w = data.get("winners")
        st.winners = list(w) if w is not None else None
        st.end_reason = str(data.get("end_reason", ""))
        if st.phase == "over" and st.winners is None:
            raise StateFormatError("winners", "a finished game names its winners")
        if st.phase == "draw" and not fx.draw_outcomes(st):
            st.start_move()
        if st.phase == "deal" and not (st.dealing or st.dealing_guardians):
            raise StateFormatError("dealing", "the set-up phase 'deal' needs realms or entrances still to deal")
        return st

    # =============================================================================== view
    def view(self, seat: int | None) -> dict[str, Any]:
        """Event and Treasure hands and Event discards (face down) are hidden from other seats, every deck and
        pile from everyone, facedown Guardians too."""
        doc = self.to_json()
        for r in range(R):
            name = REALMS[r]
            doc["event_decks"][name] = len(self.decks[r])
            if seat is None or self.seat_of[r] != seat:
                doc["event_hands"][name] = len(self.hands[r])
                # "discard it facedown beside the Event deck": seen when played, then face down
                doc["event_discards"][name] = len(self.discards[r])
                doc["treasure_hands"][name] = len(self.treasures[r])
        doc["treasure_deck"] = len(self.treasure_deck)
        doc["guardian_pile"] = len(self.guardian_pile)
        for gs in doc["guardians"].values():
            for g in gs:
                if not g["face_up"]:
                    g["tile"] = "facedown"
                    g["dice"] = []
        return doc

