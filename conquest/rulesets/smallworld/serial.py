"""The state as JSON (documented field by field in docs/rules/smallworld.md) and back, with errors that name
the offending field."""

from __future__ import annotations

from typing import Any, TypeVar

import conquest.rulesets.smallworld.data as D
from conquest.core.errors import StateFormatError
from conquest.core.maps import MapError
from conquest.core.notation import is_digits
from conquest.core.schema import read_counters
from conquest.rulesets.smallworld.base import STAT_KEYS, StateBase
from conquest.rulesets.smallworld.common import (
    ACTIVE,
    DECLINED,
    MAX_CAMPS,
    MAX_FORTS,
    MAX_HEROES,
    MAX_HOLES,
    NR,
    OUT,
    PHASE_INDEX,
    PHASE_NAMES,
    STATUS_NAMES,
)
from conquest.rulesets.smallworld.powers import POWER_RULES
from conquest.rulesets.smallworld.variant import figures_for

S = TypeVar("S", bound=StateBase)

REGION_KEYS = {"race": None, "tokens": 0, "lost_tribe": 0, "lair": 0, "fortress": 0, "encampments": 0,
               "hole": 0, "hero": 0, "dragon": 0}


def _race_name(x: int) -> str | None:
    return D.RACE_IDS[x] if x >= 0 else None


def _seats_mask(mask: int, players: int) -> list[int]:
    return [t for t in range(players) if mask >> t & 1]


def body_json(s: StateBase) -> dict[str, Any]:
    b = s.board
    races: dict[str, Any] = {}
    for x in range(NR):
        if s.rstatus[x] != OUT:
            races[D.RACE_IDS[x]] = {"seat": s.rseat[x], "power": D.POWER_IDS[s.rpower[x]],
                                    "status": STATUS_NAMES[s.rstatus[x]], "hand": s.rhand[x]}
    regions = {}
    for i in range(b.n):
        regions[f"r{i + 1}"] = {"race": _race_name(s.rrace[i]), "tokens": s.tok[i], "lost_tribe": s.lost[i],
                                "lair": s.lair[i], "fortress": s.fort[i], "encampments": s.camp[i],
                                "hole": s.hole[i], "hero": s.hero[i], "dragon": s.dragon[i]}
    body: dict[str, Any] = {
        "map": {"id": b.key, "seed": s.map_seed},
        "turn": s.turn,
        "turns": s.turns,
        "seat": s.seat,
        "phase": PHASE_NAMES[s.phase],
        "seats": [{"coins": s.coins[t], "coins_at_least": s.coins_floor[t]} for t in range(s.players)],
        "races": races,
        "column": [{"race": D.RACE_IDS[x], "power": D.POWER_IDS[p], "coins": c}
                   for x, p, c in zip(s.col_race, s.col_power, s.col_coins)],
        # the race just drawn for the bottom of the column, waiting for its power (phase draw-power)
        "drawn_race": D.RACE_IDS[s.col_race[-1]] if len(s.col_race) > len(s.col_power) else None,
        "regions": regions,
        "turn_state": {
            "race": _race_name(s.cur),
            "readied": s.readied,
            "conquered": s.acted,
            "picked": s.picked,
            "declined": s.declined_now,
            "nonempty_conquered": s.conq_ne,
            "attacked": _seats_mask(s.attacked, s.players),
            "converted": _seats_mask(s.converted, s.players),
            "dragon_used": s.dragon_used,
            **({"die_used": True} if s.die_used else {}),
            "fortress_placed": s.fort_placed,
            "berserk_die": s.bdie if s.bdie >= 0 else None,
            "final_region": f"r{s.final_r + 1}" if s.final_r >= 0 else None,
            "amazon_debt": s.amazon_debt,
            "defender": s.defender if s.defender >= 0 else None,
            "loose_encampments": s.camps_loose,
        },
        "peace": ({"diplomat": s.peace_by, "opponent": s.peace_to} if s.peace_by >= 0 else None),
        "holes_used": s.holes_used,
        "stats": dict(s.stats),
    }
    res = s.result()
    if res is not None:
        body["result"] = list(res)
    return body


def _int(v: Any, field: str, lo: int = 0, hi: int | None = None) -> int:
    if not isinstance(v, int) or isinstance(v, bool) or v < lo or (hi is not None and v > hi):
        span = f"{lo}..{hi}" if hi is not None else f">= {lo}"
        raise StateFormatError(field, f"expected an integer {span}, got {v!r}")
    return v


def _bool(v: Any, field: str) -> bool:
    if not isinstance(v, bool):
        raise StateFormatError(field, f"expected true or false, got {v!r}")
    return v


def _race(v: Any, field: str) -> int:
    if v is None:
        return -1
    if not isinstance(v, str) or v not in D.RACE_INDEX:
        raise StateFormatError(field, f"unknown race {v!r} (races: {', '.join(D.RACE_IDS)})")
    return D.RACE_INDEX[v]


def _power(v: Any, field: str) -> int:
    if not isinstance(v, str) or v not in D.POWER_INDEX:
        raise StateFormatError(field, f"unknown power {v!r} (powers: {', '.join(D.POWER_IDS)})")
    return D.POWER_INDEX[v]


def _region(v: Any, field: str, n: int) -> int:
    if v is None:
        return -1
    if not isinstance(v, str) or not v.startswith("r") or not is_digits(v[1:]) or not 1 <= int(v[1:]) <= n:
        raise StateFormatError(field, f"expected a region r1..r{n}, got {v!r}")
    return int(v[1:]) - 1


def _vtext(options: dict[str, Any]) -> str:
    return str(options.get("variant") or "")


def from_body(cls: type[S], d: dict[str, Any], players: int, options: dict[str, Any]) -> S:
    # Long because: it reads and checks every field of the state's JSON document, one after the other; the state's
    # declaration (issue 29) derives this reader instead.
    m = d.get("map")
    if not isinstance(m, dict):
        raise StateFormatError("map", "expected {id, seed}")
    seed = _int(m.get("seed", 0), "map/seed", lo=-(2 ** 63))
    try:
        board = D.get_board(players, options["map"], seed)
    except MapError as e:
        raise StateFormatError("map", str(e)) from None
    if m.get("id") != board.key:
        raise StateFormatError("map/id", f"expected {board.key!r} for these options, got {m.get('id')!r}")
    s = cls.__new__(cls)
    fig = figures_for(_vtext(options))
    s.players = players
    s.options = options
    s.board = board
    s.map_seed = seed
    s.turns = D.FIGURES[players]["turns"]
    s.turn = _int(d.get("turn"), "turn", 0, s.turns)
    s.seat = _int(d.get("seat"), "seat", 0, players - 1)
    ph = d.get("phase")
    if not isinstance(ph, str) or ph not in PHASE_INDEX:
        raise StateFormatError("phase", f"expected one of {', '.join(PHASE_NAMES)}, got {ph!r}")
    s.phase = PHASE_INDEX[ph]
    seats = d.get("seats")
    if not isinstance(seats, list) or len(seats) != players:
        raise StateFormatError("seats", f"expected a list of {players} seats")
    s.coins = [_int((st or {}).get("coins") if isinstance(st, dict) else None, f"seats/{i}/coins")
               for i, st in enumerate(seats)]
    # the public lower bound (``hidden``): a document without it proves nothing (0); never above the coins
    s.coins_floor = [_int(st.get("coins_at_least", 0), f"seats/{i}/coins_at_least", 0, s.coins[i])
                     for i, st in enumerate(seats)]
    s.rseat = [-1] * NR
    s.rpower = [-1] * NR
    s.rstatus = [OUT] * NR
    s.rhand = [0] * NR
    races = d.get("races") or {}
    if not isinstance(races, dict):
        raise StateFormatError("races", "expected an object keyed by race id")
    for name, info in races.items():
        x = _race(name, f"races/{name}")
        if not isinstance(info, dict):
            raise StateFormatError(f"races/{name}", "expected {seat, power, status, hand}")
        s.rseat[x] = _int(info.get("seat"), f"races/{name}/seat", 0, players - 1)
        s.rpower[x] = _power(info.get("power"), f"races/{name}/power")
        st = info.get("status", "active")
        if not isinstance(st, str) or st not in ("active", "declined"):
            raise StateFormatError(f"races/{name}/status", f"expected active or declined, got {st!r}")
        s.rstatus[x] = ACTIVE if st == "active" else DECLINED
        s.rhand[x] = _int(info.get("hand", 0), f"races/{name}/hand", 0, fig.supply[x] + 4)
    for t in range(players):
        act = [x for x in range(NR) if s.rseat[x] == t and s.rstatus[x] == ACTIVE]
        if len(act) > 1:
            raise StateFormatError("races", f"seat {t} has {len(act)} active races")
        dec = [x for x in range(NR) if s.rseat[x] == t and s.rstatus[x] == DECLINED]
        spirit = [POWER_RULES[s.rpower[x]].spirit for x in dec]
        if spirit.count(False) > 1 or spirit.count(True) > 1:
            raise StateFormatError("races", f"seat {t} has too many declined races")
    powers_in_play = [s.rpower[x] for x in range(NR) if s.rstatus[x] != OUT]
    if len(set(powers_in_play)) != len(powers_in_play):
        raise StateFormatError("races", "a power is held by two races")
    col = d.get("column") or []
    if not isinstance(col, list) or len(col) > 6:
        raise StateFormatError("column", "expected a list of at most 6 combos")
    s.col_race, s.col_power, s.col_coins = [], [], []
    for k, c in enumerate(col):
        if not isinstance(c, dict):
            raise StateFormatError(f"column/{k}", "expected {race, power, coins}")
        x = _race(c.get("race"), f"column/{k}/race")
        p = _power(c.get("power"), f"column/{k}/power")
        if x < 0 or s.rstatus[x] != OUT or x in s.col_race:
            raise StateFormatError(f"column/{k}/race", "race already in play or shown")
        if p in powers_in_play or p in s.col_power:
            raise StateFormatError(f"column/{k}/power", "power already in play or shown")
        s.col_race.append(x)
        s.col_power.append(p)
        s.col_coins.append(_int(c.get("coins", 0), f"column/{k}/coins"))
    drawn = _race(d.get("drawn_race"), "drawn_race")
    if (drawn >= 0) != (ph == "draw-power"):
        raise StateFormatError("drawn_race", "the race drawn waits for its power in phase draw-power, and only "
                                             "then")
    if drawn >= 0:
        if s.rstatus[drawn] != OUT or drawn in s.col_race:
            raise StateFormatError("drawn_race", "race already in play or shown")
        if len(s.col_race) >= 6:
            raise StateFormatError("drawn_race", "the column already shows 6 combos")
        s.col_race.append(drawn)
    n = board.n
    regs = d.get("regions") or {}
    if not isinstance(regs, dict):
        raise StateFormatError("regions", "expected an object keyed by region id")
    for key in regs:
        _region(key, f"regions/{key}", n)
    s.rrace, s.tok, s.lost, s.lair, s.fort, s.camp, s.hole, s.hero, s.dragon = ([0] * n for _ in range(9))
    for i in range(n):
        rid = f"r{i + 1}"
        info = regs.get(rid, {})
        if not isinstance(info, dict):
            raise StateFormatError(f"regions/{rid}", "expected an object")
        for k in info:
            if k not in REGION_KEYS:
                raise StateFormatError(f"regions/{rid}/{k}", f"unknown field (fields: {', '.join(REGION_KEYS)})")
        x = _race(info.get("race"), f"regions/{rid}/race")
        if x >= 0 and s.rstatus[x] == OUT:
            raise StateFormatError(f"regions/{rid}/race", f"{D.RACE_IDS[x]} is not in play (add it to races)")
        s.rrace[i] = x
        s.tok[i] = _int(info.get("tokens", 0), f"regions/{rid}/tokens", 0, 30)
        if (x >= 0) != (s.tok[i] > 0):
            raise StateFormatError(f"regions/{rid}/tokens", "a region with a race holds at least 1 token, "
                                                            "and an empty one none")
        s.lost[i] = _int(info.get("lost_tribe", 0), f"regions/{rid}/lost_tribe", 0, 1)
        if s.lost[i] and x >= 0:
            # a forgiving set-up: a race placed on a Lost Tribe region has conquered it
            s.lost[i] = 0
        if board.water[i] and x >= 0 and not POWER_RULES[s.rpower[x]].sails:
            raise StateFormatError(f"regions/{rid}/race", "only a Seafaring race holds a sea or the lake")
        s.lair[i] = _int(info.get("lair", 0), f"regions/{rid}/lair", 0, 1)
        s.fort[i] = _int(info.get("fortress", 0), f"regions/{rid}/fortress", 0, 1)
        s.camp[i] = _int(info.get("encampments", 0), f"regions/{rid}/encampments", 0, 5)
        s.hole[i] = _int(info.get("hole", 0), f"regions/{rid}/hole", 0, 1)
        s.hero[i] = _int(info.get("hero", 0), f"regions/{rid}/hero", 0, 1)
        s.dragon[i] = _int(info.get("dragon", 0), f"regions/{rid}/dragon", 0, 1)
        if x < 0 and (s.lair[i] or s.fort[i] or s.camp[i] or s.hole[i] or s.hero[i] or s.dragon[i]):
            raise StateFormatError(f"regions/{rid}", "markers lie only in occupied regions")
    # counts within the boxes: a race's tokens (board and hand) within its supply, markers within their number
    for x in range(NR):
        if s.rstatus[x] != OUT:
            on_board = sum(s.tok[i] for i in range(n) if s.rrace[i] == x)
            if on_board + s.rhand[x] > fig.supply[x]:
                raise StateFormatError(f"races/{D.RACE_IDS[x]}/hand",
                                       f"{D.RACE_IDS[x]} have {on_board} tokens on the board and {s.rhand[x]} in "
                                       f"hand: more than the {fig.supply[x]} of their supply")
        elif s.rhand[x]:
            raise StateFormatError(f"races/{D.RACE_IDS[x]}/hand", "a race in the box holds no tokens")
    for key, have, most in (("fortress", s.fort, MAX_FORTS), ("encampments", s.camp, MAX_CAMPS),
                            ("hero", s.hero, MAX_HEROES), ("hole", s.hole, MAX_HOLES), ("dragon", s.dragon, 1)):
        if sum(have) > most:
            raise StateFormatError(f"regions/{key}", f"{sum(have)} {key} markers on the board; the box holds {most}")
    ts = d.get("turn_state") or {}
    if not isinstance(ts, dict):
        raise StateFormatError("turn_state", "expected an object")
    s.cur = _race(ts.get("race"), "turn_state/race")
    s.readied = _bool(ts.get("readied", False), "turn_state/readied")
    s.acted = _bool(ts.get("conquered", False), "turn_state/conquered")
    s.picked = _bool(ts.get("picked", False), "turn_state/picked")
    s.declined_now = _bool(ts.get("declined", False), "turn_state/declined")
    s.conq_ne = _int(ts.get("nonempty_conquered", 0), "turn_state/nonempty_conquered")
    s.attacked = _mask(ts.get("attacked", []), "turn_state/attacked", players)
    s.converted = _mask(ts.get("converted", []), "turn_state/converted", players)
    s.dragon_used = _bool(ts.get("dragon_used", False), "turn_state/dragon_used")
    s.die_used = _bool(ts.get("die_used", False), "turn_state/die_used")
    s.fort_placed = _bool(ts.get("fortress_placed", False), "turn_state/fortress_placed")
    bd = ts.get("berserk_die")
    s.bdie = -1 if bd is None else _int(bd, "turn_state/berserk_die", 0, 3)
    s.final_r = _region(ts.get("final_region"), "turn_state/final_region", n)
    s.amazon_debt = _int(ts.get("amazon_debt", 0), "turn_state/amazon_debt", 0, 4)
    s.camps_loose = _int(ts.get("loose_encampments", 0), "turn_state/loose_encampments", 0, 5)
    dfd = ts.get("defender")
    s.defender = -1 if dfd is None else _int(dfd, "turn_state/defender", 0, players - 1)
    pc = d.get("peace")
    if pc is None:
        s.peace_by = s.peace_to = -1
    elif isinstance(pc, dict):
        s.peace_by = _int(pc.get("diplomat"), "peace/diplomat", 0, players - 1)
        s.peace_to = _int(pc.get("opponent"), "peace/opponent", 0, players - 1)
    else:
        raise StateFormatError("peace", "expected null or {diplomat, opponent}")
    s.holes_used = _int(d.get("holes_used", 0), "holes_used", 0, 2)
    s.stats = read_counters(d, STAT_KEYS)
    if s.turn == 0 and ph not in ("draw-race", "draw-power"):
        raise StateFormatError("turn", "turn 0 is the set-up (the column's draws); play starts at turn 1")
    # a forgiving set-up: the acting race defaults to the seat's active race (the defender's race in hand)
    if s.cur < 0 and ph in ("conquer", "redeploy", "die"):
        act = [x for x in range(NR) if s.rseat[x] == s.seat and s.rstatus[x] == ACTIVE]
        s.cur = act[0] if act else -1
    if s.cur < 0 and ph == "defend" and s.defender >= 0:
        waiting = [x for x in range(NR) if s.rseat[x] == s.defender and s.rhand[x] > 0]
        s.cur = waiting[0] if waiting else -1
    # the seat to move must be able to act in its phase
    if s.phase in (PHASE_INDEX["conquer"], PHASE_INDEX["redeploy"], PHASE_INDEX["defend"], PHASE_INDEX["die"]):
        if s.cur < 0 or s.rstatus[s.cur] == OUT:
            raise StateFormatError("turn_state/race", f"phase {ph} needs the acting race in play")
        owner = s.defender if ph == "defend" else s.seat
        if s.rseat[s.cur] != owner:
            raise StateFormatError("turn_state/race", f"{D.RACE_IDS[s.cur]} does not belong to seat {owner}")
    if ph == "defend" and s.defender < 0:
        raise StateFormatError("turn_state/defender", "phase defend needs the defending seat")
    if ph == "die" and s.final_r < 0 and not (s.rstatus[s.cur] == ACTIVE
                                                  and POWER_RULES[s.rpower[s.cur]].rolls_before_conquest):
        raise StateFormatError("turn_state/final_region", "phase die needs the region of the final conquest")
    if sum(s.camp) + s.camps_loose > MAX_CAMPS:
        raise StateFormatError("turn_state/loose_encampments", f"more encampments than the {MAX_CAMPS} of the box")
    if sum(s.hole) > s.holes_used:
        raise StateFormatError("holes_used", f"{sum(s.hole)} Holes-in-the-Ground on the board, {s.holes_used} used")
    # coins within what the turns so far can have paid: every coin comes from the start or from scoring
    # (at most a few per region and a power's flat bonus a turn); the column's coins are seats' coins set down
    most = sum(fig.coins_at_start(t) for t in range(players)) + max(s.turn, 1) * players * (10 * n + 20)
    if sum(s.coins) + sum(s.col_coins) > most:
        raise StateFormatError("seats", f"{sum(s.coins) + sum(s.col_coins)} coins by turn {s.turn} (with those on "
                                        f"the column): more than play can have paid ({most})")
    if ph == "pick" and not s.col_race:
        raise StateFormatError("column", "phase pick needs combos in the column")
    return s


def _mask(v: Any, field: str, players: int) -> int:
    if not isinstance(v, list):
        raise StateFormatError(field, "expected a list of seats")
    m = 0
    for k, t in enumerate(v):
        m |= 1 << _int(t, f"{field}/{k}", 0, players - 1)
    return m
