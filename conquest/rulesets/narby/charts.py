"""Charts (rules document 001, section "Charts"): the Steal Chart, the Destroy Chart and the Destroyed Chart
read for one roll, and "Coins lost to Turnabout or Revolt are given to the Thief's Treasure Chest". The rows
themselves are data (``tables.yaml``); the roll is made in the Action Phase (``action_phase.resolve_roll``).
Readings R15-R19 in docs/rules/narby.md.
"""

from __future__ import annotations

from conquest.rulesets.narby import board as B
from conquest.rulesets.narby.base import EMPTY, KIND_NAME, RUIN
from conquest.rulesets.narby.state import NarbyData, count, remove_claim
from conquest.rulesets.narby.variant import tables_of


def steal(s: NarbyData, seat: int, source: int | str, roll: int) -> None:
    """The Steal Chart; "Coins lost to Turnabout or Revolt are given to the Thief's Treasure Chest"."""
    count(s, "steals")
    row = tables_of(s).steal_row(roll)
    gain = row["gain"]
    if gain > 0:
        if source == "chest":
            amt = min(gain, s.chest_coins)
            s.chest_coins -= amt
        else:
            assert isinstance(source, int)
            amt = min(gain, s.coins[source])
            s.coins[source] -= amt
        s.coins[seat] += amt
    elif gain < 0:
        amt = min(-gain, s.coins[seat])
        s.coins[seat] -= amt
        if s.options["turnabout"] == "target" and source != "chest":
            assert isinstance(source, int)
            s.coins[source] += amt
        else:
            s.chest_coins += amt


def destroy(s: NarbyData, seat: int, key: int | str, roll: int) -> int:
    """The Destroy Chart and the Destroyed Chart; returns the treasure tokens earned."""
    count(s, "destroys")
    tv = tables_of(s)
    row = tv.destroy_row(roll)
    claimed = key in s.claims
    if isinstance(key, int):
        kind = KIND_NAME[s.occ[key]]
        is_place = False
    else:
        kind = "town"  # a place of power is paid as a town (docs/rules/narby.md)
        is_place = True
    res = row["claimed"] if claimed else row["unclaimed"]
    tokens = 0
    if res == "revolt":
        loss = min(tv.revolt_loss, s.coins[seat])
        s.coins[seat] -= loss
        s.chest_coins += loss
    elif res == "remove_claim":
        remove_claim(s, key)
    elif res == "ruin":
        if not is_place:
            assert isinstance(key, int)
            if s.occ[key] != RUIN:
                count(s, "settlements_ruined")  # a town or a city left in ruins
            s.occ[key] = RUIN
            s.coins[seat] += tv.destroyed["ruin"][kind]
    elif res in ("destroyed", "destroyed_token", "destroyed_claimed"):
        remove_piece(s, key)
        s.coins[seat] += tv.destroyed["destroyed_claimed" if res == "destroyed_claimed" else "destroyed"][kind]
        if res == "destroyed_token":
            tokens = 1
    return tokens


def remove_piece(s: NarbyData, key: int | str) -> None:
    """"Destroyed: remove settlement from map" (or the place of power), with its claim ring."""
    remove_claim(s, key)
    count(s, "settlements_destroyed" if isinstance(key, int) else "places_destroyed")
    if isinstance(key, int):
        s.occ[key] = EMPTY
    else:
        for q in B.FOOT[s.places.pop(key)]:
            s.occ[q] = EMPTY
