"""The Conquest state as JSON (rules document ``002``; the document is described in docs/rules/kingdom.md): the
body written by ``to_json`` and read back by ``state_from_json``. A document is first checked against the
declared schema (``schema.py``), then here against the board and between fields (``coherence.py``), so that
every state read can be played on."""

from __future__ import annotations

from typing import Any, TypeVar

from conquest.core.errors import StateFormatError
from conquest.rulesets.kingdom.base import (
    ARMIES_PER_PLAYER,
    COLORS,
    INCOME,
    MAX_SOLDIER_ENTRY,
    MOVE,
    OVER,
    PHASES,
    PLACE,
    VACATE,
    economy,
)
from conquest.rulesets.kingdom.board import load_board
from conquest.rulesets.kingdom.bonus import tokens
from conquest.rulesets.kingdom.coherence import check_coherence
from conquest.rulesets.kingdom.end import final_scores, territory_vp
from conquest.rulesets.kingdom.move import move_sources_for
from conquest.rulesets.kingdom.phases import production
from conquest.rulesets.kingdom.state import KingdomData

S = TypeVar("S", bound=KingdomData)


def body_json(s: KingdomData) -> dict[str, Any]:
    b = s.board
    A = s.armies
    body: dict[str, Any] = {
        "round": s.round,
        "phase": s.phase,
        "current": s.current if s.phase != OVER else None,
        "first_player": s.first,
        "soldiers": s.soldiers[:],
        "reserve": s.reserve[:],
        "armies": {b.names[t]: [A[2 * t], A[2 * t + 1]] for t in range(b.territories)},
        "locations": {b.loc_ids[l]: (None if o < 0 else o) for l, o in enumerate(s.loc)},
        "stopped": s.stopped,
        "move": None,
        "tasks": [{"kind": k, "territory": b.names[t], "count": n} for k, t, n in s.tasks],
        "points": s.points[:],
    }
    if s.move_to >= 0:
        body["move"] = {"to": b.names[s.move_to],
                        "from": {b.names[x]: n for x, n in s.move_from}}
    body["derived"] = {
        "control": {b.names[t]: (None if s.controller(t) < 0 else s.controller(t))
                    for t in range(b.territories)},
        "tokens": [tokens(s, p) for p in (0, 1)],
        "production": [production(s, p) for p in (0, 1)],
        "territory_vp": [territory_vp(s, p) for p in (0, 1)],
        "score": final_scores(s),
    }
    return body


def from_body(cls: type[S], data: dict[str, Any], players: int, options: dict[str, Any]) -> S:
    # Long because: it reads and checks every field of the state's JSON document, one after the other; the state's
    # declaration (issue 29) derives this reader instead.
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
            s.move_sources = move_sources_for(s, s.move_to, s.current)
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
        raise StateFormatError("tasks", "tasks are only pending in the vacate or place phase")
    s.points = pair("points", 100_000)
    check_coherence(s, COLORS, MAX_SOLDIER_ENTRY, economy())
    return s
