"""The Conquest module of It's a Wonderful Kingdom: the state and the procedures of the rulebook.

Quotes in docstrings are from the rules document (``002``). Readings of unclear sentences are explained in
``docs/rules/kingdom.md``.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Any, ClassVar

import yaml

from conquest.core.errors import StateFormatError
from conquest.core.game import CHANCE, Ruleset, State
from conquest.rulesets.kingdom.board import BONUS_EFFECTS, PRODUCTION_ICONS, Board, load_board
from conquest.rulesets.kingdom.coherence import check_coherence
from conquest.rulesets.kingdom.schema import KingdomBody

ARMIES_PER_PLAYER = 12
""""Take the 12 Army pawns of your color" (Setup)."""
MAX_SOLDIER_ENTRY = 40
COLORS = ("red", "blue")

INCOME, CONQUEST, MOVE, VACATE, PLACE, OVER = "income", "conquest", "move", "vacate", "place", "over"
PHASES = (INCOME, CONQUEST, MOVE, VACATE, PLACE, OVER)


@lru_cache(maxsize=None)
def economy() -> dict[str, Any]:
    data = yaml.safe_load((Path(__file__).parent / "economy.yaml").read_text())
    for kind in BONUS_EFFECTS + PRODUCTION_ICONS:
        if not isinstance(data["points"].get(kind), int):
            raise ValueError(f"economy.yaml: points.{kind} must be an integer")
    return data


class KingdomState(State):
    ruleset: ClassVar[Ruleset]
    schema = KingdomBody

    __slots__ = ("board", "players", "options", "round", "phase", "current", "first", "soldiers", "reserve",
                 "armies", "loc", "stopped", "move_to", "move_from", "move_sources", "tasks", "points",
                 "_legal")

    board: Board
    round: int
    phase: str
    current: int
    first: int
    soldiers: list[int]
    reserve: list[int]
    armies: list[int]          # armies[2 * territory + seat]
    loc: list[int]             # seat on each bonus location, -1 when free
    stopped: int | None
    move_to: int
    move_from: tuple[tuple[int, int], ...]
    move_sources: tuple[int, ...]
    tasks: tuple[tuple[str, int, int], ...]
    points: list[int]
    _legal: tuple[tuple, ...] | None

    # ------------------------------------------------------------------ construction
    @classmethod
    def setup(cls, options: dict[str, Any]) -> "KingdomState":
        """Setup: "Take the 12 Army pawns of your color, and place 4 of them on your side of the board ...
        (1 on each space of the territories beside the castle) ... Place the rest of the Army pawns beside
        the board to form your reserve." No Trap token is taken: Trap tokens come only from the locations."""
        s = cls.__new__(cls)
        b = load_board(options["board"])
        s.board = b
        s.players = 2
        s.options = options
        s.round = 1
        s.phase = INCOME
        s.current = 0
        s.first = options["first_player"]
        s.soldiers = [0, 0]
        s.reserve = [ARMIES_PER_PLAYER, ARMIES_PER_PLAYER]
        s.armies = [0] * (2 * b.territories)
        s.loc = [-1] * len(b.loc_ids)
        for seat in (0, 1):
            for l in b.start_locs[seat]:
                s.loc[l] = seat
                s.armies[2 * b.loc_territory[l] + seat] += 1
                s.reserve[seat] -= 1
        s.stopped = None
        s.move_to = -1
        s.move_from = ()
        s.move_sources = ()
        s.tasks = ()
        s.points = [0, 0]
        s._legal = None
        s._start_round()
        return s

    def clone(self) -> "KingdomState":
        s = KingdomState.__new__(KingdomState)
        s.board = self.board
        s.players = 2
        s.options = self.options
        s.round = self.round
        s.phase = self.phase
        s.current = self.current
        s.first = self.first
        s.soldiers = self.soldiers[:]
        s.reserve = self.reserve[:]
        s.armies = self.armies[:]
        s.loc = self.loc[:]
        s.stopped = self.stopped
        s.move_to = self.move_to
        s.move_from = self.move_from
        s.move_sources = self.move_sources
        s.tasks = self.tasks
        s.points = self.points[:]
        s._legal = None
        return s

    # ------------------------------------------------------------------ queries
    @property
    def to_move(self) -> int | None:
        if self.phase == OVER:
            return None
        if self.phase == INCOME and self.options["mode"] == "standalone":
            return CHANCE
        return self.current

    def companion(self) -> bool:
        return self.options["mode"] == "companion"

    def controller(self, t: int) -> int:
        """"You always have control of your castle (even if you have no more Army pawns there)"; any other
        territory is controlled by the player whose armies are in it (only one player can have armies
        there: a move sends every enemy army home), and by nobody when it is empty."""
        b = self.board
        if t == b.castles[0]:
            return 0
        if t == b.castles[1]:
            return 1
        if self.armies[2 * t]:
            return 0
        if self.armies[2 * t + 1]:
            return 1
        return -1

    def has_effect(self, seat: int, kind: str) -> bool:
        loc = self.loc
        return any(loc[i] == seat for i in self.board.locs_of_kind.get(kind, ()))

    def count_locations(self, seat: int, kind: str) -> int:
        loc = self.loc
        return sum(1 for i in self.board.locs_of_kind.get(kind, ()) if loc[i] == seat)

    def occupied(self, seat: int, t: int) -> list[int]:
        loc = self.loc
        return [l for l in self.board.territory_locs[t] if loc[l] == seat]

    def free_locations(self, t: int) -> list[int]:
        loc = self.loc
        return [l for l in self.board.territory_locs[t] if loc[l] == -1]

    def production(self, seat: int) -> dict[str, int]:
        """"count not only the icons on the cards constructed in your Duchy, but also those from the bonus
        locations you control, as well as those in your Castle territory." """
        out = {k: 0 for k in PRODUCTION_ICONS}
        for icon in self.board.castle_icons[seat]:
            out[icon] += 1
        kinds = self.board.loc_kind
        for i, o in enumerate(self.loc):
            if o == seat and kinds[i] in out:
                out[kinds[i]] += 1
        return out

    def tokens(self, seat: int) -> dict[str, int]:
        """The effects a player has now: one per bonus location of that kind that holds their pawn."""
        return {k: self.count_locations(seat, k) for k in BONUS_EFFECTS}

    def territory_vp(self, seat: int) -> int:
        """"In each territory, the number in your color indicates the number of gross victory points it earns
        you if you control it." """
        b = self.board
        total = 0
        for t in range(b.territories):
            if t not in b.castles and self.controller(t) == seat:
                total += b.vp[t][seat]
        return total

    def production_points(self, seat: int) -> int:
        """Standalone stand-in: what one Production phase is worth to ``seat`` (see economy.yaml)."""
        eco = economy()
        pts = eco["points"]
        total = eco["castle_icon"] * len(self.board.castle_icons[seat])
        kinds = self.board.loc_kind
        for i, o in enumerate(self.loc):
            if o == seat:
                total += pts[kinds[i]]
        return total

    def final_scores(self) -> list[int]:
        return [self.points[p] + self.territory_vp(p) for p in (0, 1)]

    def scores(self) -> tuple[float, ...]:
        return tuple(float(x) for x in self.final_scores())

    def result(self) -> tuple[float, ...] | None:
        if self.phase != OVER:
            return None
        a, b = self.final_scores()
        if a > b:
            return (1.0, 0.0)
        if b > a:
            return (0.0, 1.0)
        return (0.5, 0.5)

    # ------------------------------------------------------------------ move helpers
    def move_sources_for(self, dest: int, seat: int, double: bool | None = None) -> tuple[int, ...]:
        """"Choose a destination territory and any number of your adjacent territories." With Double move:
        "you can choose your starting territories not only from those adjacent to it, but also from your
        territories adjacent to those ... as long as they do not move through enemy territories." The
        territory passed through is never the opponent's; option ``double_move_via`` says whether an empty
        one will do (``friendly_or_empty``, the default) or it must be yours (``own``). ``double``: whether
        ``seat`` has Double move, when the caller already knows."""
        b = self.board
        A = self.armies
        near = b.adjacent[dest]
        srcs = {s for s in near if A[2 * s + seat] > 0}
        if double is None:
            double = self.has_effect(seat, "double_move")
        if double:
            own_only = self.options["double_move_via"] == "own"
            for mid in near:
                holder = self.controller(mid)
                if holder == seat or (holder == -1 and not own_only):
                    for s in b.adjacent[mid]:
                        if s != dest and A[2 * s + seat] > 0:
                            srcs.add(s)
        return tuple(sorted(srcs))

    def move_capacity(self, dest: int, seat: int, sources: tuple[int, ...]) -> int:
        A = self.armies
        return min(self.soldiers[seat], sum(A[2 * s + seat] for s in sources))

    def enemy_armies(self, t: int, seat: int) -> int:
        return self.armies[2 * t + 1 - seat]

    def moved_total(self) -> int:
        return sum(n for _, n in self.move_from)

    # ------------------------------------------------------------------ legality (one source)
    def legal_actions(self) -> list[tuple]:
        """A new list each call: the state keeps its own (cached) copy, which a caller cannot reach."""
        return list(self._legal_cached())

    def is_legal(self, action: Any) -> bool:
        return action in self._legal_cached()

    def _legal_cached(self) -> tuple[tuple, ...]:
        if self._legal is not None:
            return self._legal
        acts: list[tuple] = []
        phase = self.phase
        b = self.board
        me = self.current
        if phase == OVER:
            pass
        elif phase == INCOME:
            if self.companion():
                acts = [("soldiers", n) for n in range(MAX_SOLDIER_ENTRY + 1)]
            else:
                acts = [("roll", k) for k in range(1, self.options["soldier_die"] + 1)]
        elif phase == CONQUEST:
            for n in range(1, min(self.soldiers[me], self.reserve[me]) + 1):
                acts.append(("recruit", n))
            if self.soldiers[me] > 0:
                double = self.has_effect(me, "double_move")
                for t in range(b.territories):
                    if t == b.castles[1 - me]:
                        continue
                    srcs = self.move_sources_for(t, me, double)
                    if srcs and self.move_capacity(t, me, srcs) > self.enemy_armies(t, me):
                        acts.append(("move", b.names[t]))
            acts.append(("stop",))
        elif phase == MOVE:
            dest = self.move_to
            need = self.enemy_armies(dest, me)
            total = self.moved_total()
            used = {s for s, _ in self.move_from}
            unused = [s for s in self.move_sources if s not in used]
            budget = self.soldiers[me] - total
            A = self.armies
            rest_all = sum(A[2 * s + me] for s in unused)
            for s in unused:
                have = A[2 * s + me]
                rest = rest_all - have
                for n in range(1, min(have, budget) + 1):
                    if min(total + n + rest, self.soldiers[me]) > need:
                        acts.append(("from", b.names[s], n))
            if total > need:
                acts.append(("go",))
        elif phase in (VACATE, PLACE):
            _, t, _ = self.tasks[0]
            locs = self.occupied(me, t) if phase == VACATE else self.free_locations(t)
            acts = [(phase, b.loc_ids[l]) for l in locs]
        self._legal = tuple(acts)
        return self._legal

    def chance_outcomes(self) -> list[tuple[tuple, float]]:
        if self.to_move != CHANCE:
            return []
        acts = self._legal_cached()
        p = 1.0 / len(acts)
        return [(a, p) for a in acts]

    def illegal_reason(self, action: Any) -> str:
        phase = self.phase
        word = action[0] if isinstance(action, tuple) and action else None
        b = self.board
        me = self.current
        if phase == OVER:
            return "the game is over"
        if phase == INCOME:
            if self.companion():
                return (f"the Conquest phase of round {self.round} starts when {COLORS[me]} enters their "
                        f"Soldier tokens ('soldiers N', N from 0 to {MAX_SOLDIER_ENTRY})")
            return f"the Soldier income die is rolled now ('roll 1' to 'roll {self.options['soldier_die']}')"
        if phase == CONQUEST:
            if word == "recruit":
                n = action[1]
                if self.reserve[me] == 0:
                    return "You cannot recruit if all of your armies are already on the board."
                if n < 1:
                    return "recruit at least 1 army"
                if n > self.soldiers[me]:
                    return (f"Spend 1 Soldier token per army you wish to recruit: {COLORS[me]} has "
                            f"{self.soldiers[me]} Soldier tokens")
                if n > self.reserve[me]:
                    return f"only {self.reserve[me]} armies are left in {COLORS[me]}'s reserve"
            if word == "move":
                t = b.index.get(action[1], -1)
                if t < 0:
                    return f"there is no territory '{action[1]}' on side {b.side.upper()}"
                if t == b.castles[1 - me]:
                    return "You cannot move your Army pawns onto your opponent's castle."
                if self.soldiers[me] == 0:
                    return "Spend 1 Soldier token per army you wish to move: you have none"
                srcs = self.move_sources_for(t, me)
                if not srcs:
                    return f"none of your territories with armies is adjacent to {b.names[t]}"
                need = self.enemy_armies(t, me)
                if self.soldiers[me] <= need < sum(self.armies[2 * x + me] for x in srcs):
                    return self._too_few_soldiers(t, need)
                return ("You can only move into the territory if the number of armies you move into it is "
                        f"greater than the number of enemy armies already there ({need})")
            if word in ("from", "go", "vacate", "place"):
                return "start a Move Armies action first ('move TERRITORY')"
            return "on your turn you Recruit armies, Move armies or Stop your conquest"
        if phase == MOVE:
            dest = self.move_to
            need = self.enemy_armies(dest, me)
            if word == "go" and not self.move_from:
                return "choose the armies that move first ('from TERRITORY N')"
            if word == "go":
                return ("You can only move into the territory if the number of armies you move into it is "
                        f"greater than the number of enemy armies already there ({need}); moving "
                        f"{self.moved_total()} so far")
            if word == "from":
                t = b.index.get(action[1], -1)
                if t < 0:
                    return f"there is no territory '{action[1]}'"
                if t not in self.move_sources:
                    return self._not_a_source(t, dest)
                if any(s == t for s, _ in self.move_from):
                    return f"armies from {action[1]} were already chosen for this move"
                if action[2] > self.armies[2 * t + me]:
                    return f"{COLORS[me]} has only {self.armies[2 * t + me]} armies in {action[1]}"
                if action[2] > self.soldiers[me] - self.moved_total():
                    return "Spend 1 Soldier token per army you wish to move: not enough Soldier tokens left"
                if self.soldiers[me] <= need:
                    return self._too_few_soldiers(dest, need)
                return ("that would leave too few armies to outnumber the "
                        f"{need} enemy armies in {b.names[dest]}")
            return f"finish the move into {b.names[dest]}: 'from TERRITORY N' or 'go'"
        _, t, _ = self.tasks[0]
        if phase == VACATE:
            return (f"choose which of your bonus locations in {b.names[t]} loses its pawn "
                    f"('vacate {b.names[t]}.K', one you occupy)")
        return (f"choose a free bonus location in {b.names[t]} for your army "
                f"('place {b.names[t]}.K', one that is free)")

    def _too_few_soldiers(self, dest: int, need: int) -> str:
        me = self.current
        return (f"Spend 1 Soldier token per army you wish to move: moving more than the {need} enemy armies in "
                f"{self.board.names[dest]} takes {need + 1} Soldier tokens and {COLORS[me]} has "
                f"{self.soldiers[me]}")

    def _not_a_source(self, t: int, dest: int) -> str:
        """Why territory ``t`` cannot send armies into ``dest``: no armies there, too far, or (with Double
        move) every territory between is the enemy's, or empty when ``double_move_via`` is ``own``."""
        b = self.board
        me = self.current
        name, dname = b.names[t], b.names[dest]
        if self.armies[2 * t + me] == 0:
            return f"{COLORS[me]} has no armies in {name}"
        if dest in b.adjacent[t]:  # pragma: no cover - an adjacent territory with armies is always a source
            return f"{name} cannot send armies into {dname}"
        between = [m for m in b.adjacent[dest] if t in b.adjacent[m]]
        if not between:
            return f"{name} is not adjacent to {dname}" + (
                " (nor adjacent to a territory adjacent to it, as Double move allows)"
                if self.has_effect(me, "double_move") else "")
        if not self.has_effect(me, "double_move"):
            return (f"{name} is not adjacent to {dname}; moving 2 territories at once (through "
                    f"{' or '.join(b.names[m] for m in between)}) needs the Double move bonus effect")
        why = []
        for m in between:
            holder = self.controller(m)
            why.append(f"{b.names[m]} is {COLORS[holder]}'s" if holder >= 0 else
                       f"{b.names[m]} is empty (option double_move_via is 'own': only your own territories)")
        return (f"{name} is 2 territories from {dname}, but Double move armies move 2 territories at once only "
                f"\"as long as they do not move through enemy territories\": " + "; ".join(why))

    # ------------------------------------------------------------------ transitions
    def _apply(self, action: tuple) -> None:
        word = action[0]
        if word == "roll":
            self._income(self.options["soldier_base"] + action[1])
        elif word == "soldiers":
            # companion: the player enters the Soldier tokens in front of them, which replace the count
            self.soldiers[self.current] = 0
            self._income(action[1])
        elif word == "recruit":
            self.recruit(action[1])
        elif word == "move":
            self.choose_destination(self.board.index[action[1]])
        elif word == "from":
            self.move_from = self.move_from + ((self.board.index[action[1]], action[2]),)
        elif word == "go":
            self.move_armies()
        elif word == "vacate":
            self._vacate(self.board.loc_index[action[1]])
        elif word == "place":
            self._place(self.board.loc_index[action[1]])
        elif word == "stop":
            self.stop_conquest()
        else:  # pragma: no cover - parse_action admits nothing else
            raise ValueError(word)
        self._legal = None

    def _start_round(self) -> None:
        """A round of the stand-in base game: Production (standalone), Soldier income, then the Conquest
        phase, which the rules place "at the end of the round"."""
        if not self.companion():
            for p in (0, 1):
                self.points[p] += self.production_points(p)
        if not self.options["keep_soldiers"] and not self.companion():
            self.soldiers = [0, 0]
        self.phase = INCOME
        self.current = 0
        if not self.companion() and self.options["soldier_die"] == 0:
            base = self.options["soldier_base"]
            self.soldiers[0] += base
            self.soldiers[1] += base
            self._begin_conquest()

    def _income(self, n: int) -> None:
        self.soldiers[self.current] += n
        if self.current == 0:
            self.current = 1
        else:
            self._begin_conquest()

    def _begin_conquest(self) -> None:
        """"The player with more Soldier tokens goes first. If it is a tie, the 1st player for the Round goes
        first." """
        s0, s1 = self.soldiers
        self.phase = CONQUEST
        self.current = 0 if s0 > s1 else 1 if s1 > s0 else self.first
        self.stopped = None

    def _end_action(self) -> None:
        """"You take one action, then your opponent takes one action." """
        self.phase = CONQUEST
        self.current = 1 - self.current
        self.stopped = None
        self.move_to = -1
        self.move_from = ()
        self.move_sources = ()

    def recruit(self, n: int) -> None:
        """"Spend 1 Soldier token per army you wish to recruit, then take that number of Army pawns from your
        reserve, and place them in your castle's territory." """
        me = self.current
        self.soldiers[me] -= n
        self.reserve[me] -= n
        self.armies[2 * self.board.castles[me] + me] += n
        self._end_action()

    def choose_destination(self, dest: int) -> None:
        self.phase = MOVE
        self.move_to = dest
        self.move_from = ()
        self.move_sources = self.move_sources_for(dest, self.current)

    def move_armies(self) -> None:
        """"Spend 1 Soldier token per army you wish to move from your starting territories, then move these
        armies to the destination territory. ... All enemy armies in the destination territory return to
        their castle, and you return the same number of armies from this territory to your castle." """
        b = self.board
        me, op = self.current, 1 - self.current
        A = self.armies
        dest = self.move_to
        total = self.moved_total()
        self.soldiers[me] -= total
        tasks: list[tuple[str, int, int]] = []
        for s, n in self.move_from:
            occ = self.occupied(me, s)
            unassigned = A[2 * s + me] - len(occ)
            A[2 * s + me] -= n
            lose = n - unassigned
            if lose > 0:
                # "If you remove an army from a bonus location ... you immediately lose the bonus effect"
                if lose >= len(occ) or len({b.loc_kind[l] for l in occ}) == 1:
                    for l in occ[:lose]:
                        self.loc[l] = -1
                else:
                    tasks.append((VACATE, s, lose))
        enemy = A[2 * dest + op]
        if enemy:
            A[2 * dest + op] = 0
            A[2 * b.castles[op] + op] += enemy
            for l in b.territory_locs[dest]:
                if self.loc[l] == op:
                    self.loc[l] = -1
            A[2 * b.castles[me] + me] += enemy
        A[2 * dest + me] += total - enemy
        self.tasks = tuple(tasks)
        self._settle_destination()

    def _settle_destination(self) -> None:
        """"When you have armies in a territory, you can divide them up among bonus locations in the territory
        ... each bonus location can only accommodate a single Army pawn." Every effect helps its holder, so
        arriving armies take free locations; the player chooses which only when there are fewer armies than
        free locations of different kinds."""
        if self.tasks:
            self.phase = self.tasks[0][0]
            return
        me = self.current
        dest = self.move_to
        b = self.board
        if dest >= 0 and self.phase != PLACE:
            occ = self.occupied(me, dest)
            free = self.free_locations(dest)
            spare = self.armies[2 * dest + me] - len(occ)
            if spare > 0 and free:
                if spare >= len(free) or len({b.loc_kind[l] for l in free}) == 1:
                    for l in free[:spare]:
                        self.loc[l] = me
                else:
                    self.tasks = ((PLACE, dest, spare),)
                    self.phase = PLACE
                    return
        self._end_action()

    def _vacate(self, l: int) -> None:
        self.loc[l] = -1
        kind, t, n = self.tasks[0]
        rest = self.tasks[1:]
        if n > 1:
            occ = self.occupied(self.current, t)
            if len({self.board.loc_kind[x] for x in occ}) == 1:
                for x in occ[:n - 1]:
                    self.loc[x] = -1
            else:
                rest = ((kind, t, n - 1),) + rest
        self.tasks = rest
        self.phase = MOVE
        self._settle_destination()

    def _place(self, l: int) -> None:
        me = self.current
        self.loc[l] = me
        kind, t, n = self.tasks[0]
        free = self.free_locations(t)
        if n > 1 and free:
            if n - 1 >= len(free) or len({self.board.loc_kind[x] for x in free}) == 1:
                for x in free[:n - 1]:
                    self.loc[x] = me
                self.tasks = ()
            else:
                self.tasks = ((kind, t, n - 1),)
                return
        self.tasks = ()
        self._end_action()

    def stop_conquest(self) -> None:
        """"If your opponent Stops Their Conquest just after you have, it ends the Conquest phase." """
        me = self.current
        if self.stopped is not None and self.stopped != me:
            self._end_conquest_phase()
            return
        self.stopped = me
        self.current = 1 - me

    def _end_conquest_phase(self) -> None:
        self.stopped = None
        if self.round >= self.options["rounds"]:
            self.phase = OVER
            self.current = -1
            return
        self.round += 1
        self.first = 1 - self.first
        self._start_round()

    # ------------------------------------------------------------------ JSON
    def _body_json(self) -> dict[str, Any]:
        b = self.board
        A = self.armies
        body: dict[str, Any] = {
            "round": self.round,
            "phase": self.phase,
            "current": self.current if self.phase != OVER else None,
            "first_player": self.first,
            "soldiers": self.soldiers[:],
            "reserve": self.reserve[:],
            "armies": {b.names[t]: [A[2 * t], A[2 * t + 1]] for t in range(b.territories)},
            "locations": {b.loc_ids[l]: (None if o < 0 else o) for l, o in enumerate(self.loc)},
            "stopped": self.stopped,
            "move": None,
            "tasks": [{"kind": k, "territory": b.names[t], "count": n} for k, t, n in self.tasks],
            "points": self.points[:],
        }
        if self.move_to >= 0:
            body["move"] = {"to": b.names[self.move_to],
                            "from": {b.names[s]: n for s, n in self.move_from}}
        body["derived"] = {
            "control": {b.names[t]: (None if self.controller(t) < 0 else self.controller(t))
                        for t in range(b.territories)},
            "tokens": [self.tokens(p) for p in (0, 1)],
            "production": [self.production(p) for p in (0, 1)],
            "territory_vp": [self.territory_vp(p) for p in (0, 1)],
            "score": self.final_scores(),
        }
        return body

    @classmethod
    def _from_body(cls, data: dict[str, Any], players: int, options: dict[str, Any]) -> "KingdomState":
        b = load_board(options["board"])
        s = cls.__new__(cls)
        s.board = b
        s.players = 2
        s.options = options
        s._legal = None

        def need(key: str) -> Any:
            if key not in data:
                raise StateFormatError(key, "missing")
            return data[key]

        def integer(value: Any, field: str, lo: int = 0, hi: int = 10_000) -> int:
            if not isinstance(value, int) or isinstance(value, bool) or not lo <= value <= hi:
                raise StateFormatError(field, f"expected an integer from {lo} to {hi}, got {value!r}")
            return value

        def pair(key: str, hi: int) -> list[int]:
            v = need(key)
            if not isinstance(v, list) or len(v) != 2:
                raise StateFormatError(key, f"expected [red, blue], got {v!r}")
            return [integer(x, f"{key}/{i}", 0, hi) for i, x in enumerate(v)]

        s.round = integer(need("round"), "round", 1, options["rounds"])
        phase = need("phase")
        if phase not in PHASES:
            raise StateFormatError("phase", f"expected one of {', '.join(PHASES)}, got {phase!r}")
        s.phase = phase
        if phase == INCOME and options["mode"] == "standalone" and options["soldier_die"] == 0:
            raise StateFormatError("phase", "with soldier_die 0 the income is paid at once: there is no "
                                            "income phase to be in")
        cur = data.get("current")
        s.current = -1 if phase == OVER and cur is None else integer(cur, "current", 0, 1)
        s.first = integer(need("first_player"), "first_player", 0, 1)
        s.soldiers = pair("soldiers", 10_000)
        s.reserve = pair("reserve", ARMIES_PER_PLAYER)
        armies = need("armies")
        if not isinstance(armies, dict):
            raise StateFormatError("armies", "expected an object: territory -> [red, blue]")
        for k in armies:
            if k not in b.index:
                raise StateFormatError(f"armies/{k}", f"no such territory on side {b.side.upper()}")
        s.armies = [0] * (2 * b.territories)
        for t, name in enumerate(b.names):
            v = armies.get(name, [0, 0])
            if not isinstance(v, list) or len(v) != 2:
                raise StateFormatError(f"armies/{name}", f"expected [red, blue], got {v!r}")
            s.armies[2 * t] = integer(v[0], f"armies/{name}/0", 0, ARMIES_PER_PLAYER)
            s.armies[2 * t + 1] = integer(v[1], f"armies/{name}/1", 0, ARMIES_PER_PLAYER)
            if v[0] and v[1]:
                raise StateFormatError(f"armies/{name}", "both players have armies in one territory")
        if s.armies[2 * b.castles[0] + 1] or s.armies[2 * b.castles[1]]:
            raise StateFormatError("armies", "a player's armies stand in the opponent's castle")
        for p in (0, 1):
            on_board = sum(s.armies[2 * t + p] for t in range(b.territories))
            if on_board + s.reserve[p] != ARMIES_PER_PLAYER:
                raise StateFormatError(f"reserve/{p}", f"{COLORS[p]} has {on_board} armies on the board and "
                                                       f"{s.reserve[p]} in reserve; the total must be "
                                                       f"{ARMIES_PER_PLAYER}")
        locs = need("locations")
        if not isinstance(locs, dict):
            raise StateFormatError("locations", "expected an object: location -> 0, 1 or null")
        for k in locs:
            if k not in b.loc_index:
                raise StateFormatError(f"locations/{k}", "no such bonus location")
        s.loc = [-1] * len(b.loc_ids)
        for l, lid in enumerate(b.loc_ids):
            v = locs.get(lid)
            if v is not None and v not in (0, 1):
                raise StateFormatError(f"locations/{lid}", f"expected 0, 1 or null, got {v!r}")
            s.loc[l] = -1 if v is None else v
        pending = phase in (VACATE, PLACE)
        st = data.get("stopped")
        if st not in (None, 0, 1):
            raise StateFormatError("stopped", f"expected 0, 1 or null, got {st!r}")
        if st is not None and phase in (INCOME, OVER):
            raise StateFormatError("stopped", f"must be null in the {phase} phase (a stop only counts during "
                                              "the Conquest phase)")
        if st is not None and st == s.current:
            raise StateFormatError("stopped", f"{COLORS[st]} stopped last, so {COLORS[st]} cannot be the one to "
                                              f"move (current is {s.current}): after a stop the opponent acts")
        s.stopped = st
        mv = data.get("move")
        if mv is not None and phase not in (MOVE, VACATE, PLACE):
            raise StateFormatError("move", f"must be null in the {phase} phase (a move is under way only in "
                                           "the move, vacate and place phases)")
        s.move_to, s.move_from, s.move_sources = -1, (), ()
        if mv is not None:
            if not isinstance(mv, dict) or mv.get("to") not in b.index:
                raise StateFormatError("move/to", "expected a territory id")
            s.move_to = b.index[mv["to"]]
            frm = mv.get("from", {})
            if not isinstance(frm, dict):
                raise StateFormatError("move/from", "expected an object: territory -> armies")
            pairs = []
            for k, n in frm.items():
                if k not in b.index:
                    raise StateFormatError(f"move/from/{k}", "no such territory")
                pairs.append((b.index[k], integer(n, f"move/from/{k}", 1, ARMIES_PER_PLAYER)))
            s.move_from = tuple(pairs)
            if phase == MOVE:
                s.move_sources = s.move_sources_for(s.move_to, s.current)
        if phase == MOVE and mv is None:
            raise StateFormatError("move", "the move phase needs a move")
        tasks = data.get("tasks", [])
        if not isinstance(tasks, list):
            raise StateFormatError("tasks", "expected a list")
        tl = []
        for i, tk in enumerate(tasks):
            if (not isinstance(tk, dict) or tk.get("kind") not in (VACATE, PLACE)
                    or tk.get("territory") not in b.index):
                raise StateFormatError(f"tasks/{i}", "expected {kind: vacate|place, territory, count}")
            tl.append((tk["kind"], b.index[tk["territory"]], integer(tk.get("count"), f"tasks/{i}/count", 1, 12)))
        s.tasks = tuple(tl)
        if pending and (not s.tasks or s.tasks[0][0] != phase):
            raise StateFormatError("tasks", f"the {phase} phase needs a {phase} task first")
        if not pending and s.tasks:
            raise StateFormatError("tasks", f"tasks are only pending in the vacate or place phase")
        s.points = pair("points", 100_000)
        check_coherence(s, COLORS, MAX_SOLDIER_ENTRY, economy())
        return s
