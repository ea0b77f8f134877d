"""Which race and power abilities a game actually used: observed on transitions (state before, action, state
after), for the coverage bar "every race and every power has been bought and used" over random games."""

from __future__ import annotations

import random
from collections.abc import Iterable
from typing import Any

import conquest.rulesets.smallworld.data as D
from conquest.core.kinds import ActionArgs
from conquest.rulesets.smallworld.powers import (
    COST_DISCOUNT as POWER_DISCOUNT,
    REGION_COINS as POWER_REGION,
    TURN_COINS as POWER_TURN,
)
from conquest.rulesets.smallworld.races import (
    COST_DISCOUNT as RACE_DISCOUNT,
    REGION_COINS as RACE_REGION,
    TURN_COINS as RACE_TURN,
)
from conquest.rulesets.smallworld.state import ACTIVE, CONQUER, DECLINED, NR, RIDX, STOUT_CHOICE, SmallWorldState

ALL_KEYS = [f"race:{r}" for r in D.RACE_IDS] + [f"power:{p}" for p in D.POWER_IDS]


def uses(b: SmallWorldState, a: ActionArgs, s: SmallWorldState) -> set[str]:
    """Abilities used by this transition (keys ``race:<id>`` / ``power:<id>``)."""
    out: set[str] = set()
    k = a[0]
    board = b.board
    x = b.cur
    if k in ("conquer", "dragon", "convert") or (k == "die" and b.final_r >= 0):
        r = RIDX[a[1]] if k != "die" else b.final_r
        if s.region_race[r] != x or b.region_race[r] == x:
            return out  # a failed final conquest
        active = b.rstatus[x] == ACTIVE
        p = b.rpower[x] if active else -1
        race = D.RACE_IDS[x]
        if active and x in (D.AMAZONS, D.RATMEN):
            out.add(f"race:{race}")
        if x == D.GHOULS and b.rstatus[x] == DECLINED:
            out.add("race:ghouls")
        if active:  # a discount of the race's or the power's entry (``cost_discount``) was used
            race_discount, power_discount = RACE_DISCOUNT[x], POWER_DISCOUNT[p]
            if race_discount is not None and race_discount(b, r):
                out.add(f"race:{race}")
            if power_discount is not None and power_discount(b, r):
                out.add(f"power:{D.POWER_IDS[p]}")
        if x == D.HALFLINGS and s.hole[r]:
            out.add("race:halflings")
        if x == D.TROLLS and s.lair[r]:
            out.add("race:trolls")
        if k == "convert":
            out.add("race:sorcerers")
        y = b.region_race[r]
        if y == D.ELVES and b.rstatus[y] == ACTIVE:
            out.add("race:elves")
        if p == D.SEAFARING and board.water[r]:
            out.add("power:seafaring")
        if p == D.FLYING and not any(b.region_race[m] == x for m in board.adj[r]):
            out.add("power:flying")
        if k == "dragon":
            out.add("power:dragon-master")
        if p == D.BERSERK and b.berserk_die > 0:
            out.add("power:berserk")
    if k == "end" and b.phase == CONQUER and x == D.SKELETONS and b.rstatus[x] == ACTIVE and b.conquered_non_empty >= 2:
        out.add("race:skeletons")
    if k == "camp":
        out.add("power:bivouacking")
    if k == "fortress":
        out.add("power:fortified")
    if k == "hero":
        out.add("power:heroic")
    if k == "peace":
        out.add("power:diplomat")
    if k == "decline" and b.phase == STOUT_CHOICE:
        out.add("power:stout")
    for t in range(s.players):
        decl = [y for y in range(NR) if s.rseat[y] == t and s.rstatus[y] == DECLINED]
        if len(decl) == 2 and any(s.rpower[y] == D.SPIRIT for y in decl) \
                and len([y for y in range(NR) if b.rseat[y] == t and b.rstatus[y] == DECLINED]) < 2:
            out.add("power:spirit")
    # scoring: coins of the seat whose turn it is went up (not by buying a combo)
    seat = b.seat
    if k != "pick" and s.coins[seat] > b.coins[seat]:
        out |= _scoring_uses(b, s, seat)
    return out


def _scoring_uses(b: SmallWorldState, s: SmallWorldState, seat: int) -> set[str]:
    """The races and powers whose scoring hooks (``region_coins``, ``turn_coins``, races.py and powers.py)
    paid something at this scoring: regions as they are after it, the turn as it was before it."""
    out: set[str] = set()
    x = s.active_race(seat)  # a race that went into decline this turn scores without its power
    p = s.rpower[x] if x >= 0 else -1
    for i in range(s.board.n):
        y = s.region_race[i]
        if y < 0 or s.rseat[y] != seat:
            continue
        coins = RACE_REGION[y]
        if coins is not None and coins(s, i, y == x):
            out.add(f"race:{D.RACE_IDS[y]}")
        if y == x:
            power = POWER_REGION[p]
            if power is not None and power(s, i):
                out.add(f"power:{D.POWER_IDS[p]}")
    if x >= 0 and b.rstatus[x] == ACTIVE:
        turn = RACE_TURN[x]
        if turn is not None and turn(b, True):
            out.add(f"race:{D.RACE_IDS[x]}")
        turn_p = POWER_TURN[p]
        if turn_p is not None and turn_p(b):
            out.add(f"power:{D.POWER_IDS[p]}")
    return out


def picks(b: SmallWorldState, a: ActionArgs) -> set[str]:
    if a[0] != "pick":
        return set()
    return {f"bought:{D.RACE_IDS[b.col_race[a[1]]]}", f"bought:{D.POWER_IDS[b.col_power[a[1]]]}"}


def coverage(games: int, players: Iterable[int] = (2, 3, 4, 5), seed: int = 0,
             options: dict[str, Any] | None = None) -> dict[str, Any]:
    """Play random games (uniform legal actions, sampled chance) and count the games in which each race and
    power was bought and each ability used."""
    from conquest.rulesets.smallworld import RULESET
    counts: dict[str, int] = {}
    pcs = list(players)
    for g in range(games):
        rng = random.Random(seed + g)
        st = RULESET.new_game(pcs[g % len(pcs)], options or {}, seed + g)
        seen: set[str] = set()
        while st.to_move is not None:
            if st.to_move == -1:
                outcomes = st.chance_outcomes()
                xr = rng.random()
                acc = 0.0
                a = outcomes[-1][0]
                for o, pr in outcomes:
                    acc += pr
                    if xr < acc:
                        a = o
                        break
            else:
                acts = st.legal_actions()
                a = acts[rng.randrange(len(acts))]
            nxt = st.apply_unchecked(a)
            assert isinstance(st, SmallWorldState) and isinstance(nxt, SmallWorldState)
            seen |= uses(st, a, nxt) | picks(st, a)
            st = nxt
        for key in seen:
            counts[key] = counts.get(key, 0) + 1
    used = {key: counts.get(key, 0) for key in ALL_KEYS}
    bought = {key.split(":", 1)[1]: counts.get("bought:" + key.split(":", 1)[1], 0) for key in ALL_KEYS}
    return {"games": games, "used": used, "bought": bought,
            "never_used": [k for k, v in used.items() if v == 0],
            "never_bought": [k for k, v in bought.items() if v == 0]}
