"""Scoring Victory Coins (standard rules, "Scoring Victory Coins") and the end of the game: 1 coin per
region occupied, active or in decline, plus the race's and the active power's bonuses (their ``region_coins``
and ``turn_coins`` hooks); the richest seat wins, ties broken by tokens on the map."""

from __future__ import annotations

from typing import TYPE_CHECKING

from conquest.rulesets.smallworld.common import OVER
from conquest.rulesets.smallworld.powers import REGION_COINS as POWER_REGION, TURN_COINS as POWER_TURN
from conquest.rulesets.smallworld.races import REGION_COINS as RACE_REGION, TURN_COINS as RACE_TURN

if TYPE_CHECKING:
    from conquest.rulesets.smallworld.state import SmallWorldState


def score(st: SmallWorldState, s: int) -> int:
    """1 coin per region occupied (active and declined) plus the race's and power's bonuses."""
    x = st.active_race(s)
    rr = st.region_race
    g = 0
    for y in st.seat_races(s):
        regs = [i for i in range(len(rr)) if rr[i] == y]
        active = y == x
        race, power = bonus_coins(st, y, regs, active)
        g += len(regs) + race + power
        st.count("coins_regions", len(regs))
        st.count("coins_race", race)
        st.count("coins_power", power)
        st.coins_floor[s] += len(regs)   # public: 1 coin per region seen occupied (``hidden``)
    st.coins[s] += g
    return g


def bonus_coins(st: SmallWorldState, y: int, regs: list[int], active: bool) -> tuple[int, int]:
    """The race's and (while active) its power's bonus coins for its regions ``regs`` and the turn, apart (the
    report counts them by source): the one place the entries' ``region_coins`` and ``turn_coins`` are added up."""
    g = 0
    race, turn = RACE_REGION[y], RACE_TURN[y]
    if race is not None:
        g += sum(race(st, i, active) for i in regs)
    if turn is not None:
        g += turn(st, active)
    b = 0
    if active:
        p = st.rpower[y]
        power, turn_p = POWER_REGION[p], POWER_TURN[p]
        if power is not None:
            b += sum(power(st, i) for i in regs)
        if turn_p is not None:
            b += turn_p(st)
    return g, b


def result(st: SmallWorldState) -> tuple[float, ...] | None:
    if st.phase != OVER:
        return None
    keys = [(st.coins[s], st.tokens_on_map(s)) for s in range(st.players)]
    best = max(keys)
    winners = [s for s in range(st.players) if keys[s] == best]
    return tuple(1.0 / len(winners) if s in winners else 0.0 for s in range(st.players))


def scores(st: SmallWorldState) -> tuple[float, ...]:
    return tuple(float(c) for c in st.coins)
