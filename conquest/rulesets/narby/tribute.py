"""Tribute Phase (rules document 001, section "Tribute Phase"): "each dragon player rolls a d20 to see how
tribute will be awarded", the Tribute Chart row for all its claims ("If a dragon is adjacent he automatically
scores the coins listed"), "Lose a single claim" and the treasure tokens ("Treasure tokens should have a 1,
2, or 3"). The tribute cards (Governor, Sheriff, Mayor) are in ``cards``; after the last dragon the round
ends (``end.end_of_round``). Readings R22, R24 in docs/rules/narby.md.
"""

from __future__ import annotations

from typing import Any

from conquest.rulesets.narby.base import CITY, COPPER, GOLD, RUIN, TOWN, key_order
from conquest.rulesets.narby.end import end_of_round
from conquest.rulesets.narby.places import soul_mine_bonus
from conquest.rulesets.narby.state import NarbyData, count, remove_claim, tribute_band
from conquest.rulesets.narby.variant import tables_of


def start_tribute(s: NarbyData) -> None:
    s.phase = "tribute"
    s.k = -1
    next_tribute(s)


def next_tribute(s: NarbyData) -> None:
    """"each dragon player rolls a d20 to see how tribute will be awarded" — in seat order; a dragon with
    no claim ring on the board has nothing to roll for."""
    s.ev = None
    while True:
        s.k += 1
        seat = s.k
        if seat >= s.players:
            end_of_round(s)
            return
        if any(o == seat for o in s.claims.values()):
            break
    s.ev = {"type": "tribute", "seat": seat, "mod": 0, "town": 0, "city": 0}
    if s.hand[seat] is not None:  # any card: the question must not tell a tribute card from another
        s.node, s.who = "tribute_card", seat
    else:
        s.node, s.who = "roll", -1


def roll_tribute(s: NarbyData, action: Any) -> None:
    ev = s.ev
    assert ev is not None
    collect_tribute(s, ev["seat"], action[1], ev)


def collect_tribute(s: NarbyData, seat: int, die: int, ev: dict[str, Any]) -> None:
    """"One d20 roll determines coins collected from all claims. If a dragon is adjacent he automatically
    scores the coins listed. That adjacent claim is not scored as per the d20 roll." """
    roll = die + ev["mod"] + soul_mine_bonus(s, seat)
    tv = tables_of(s)
    row = tv.tribute_row(roll)
    adjrow = tv.tribute_adjacent
    d = s.dragon[seat]
    coins = 0
    tokens = 0
    occ = s.occ
    for key, o in s.claims.items():
        if o != seat:
            continue
        near = s.adjacent_to_dragon(seat, key)
        if isinstance(key, str):
            if near:
                coins += adjrow["place"]
            else:
                coins += row["place"]
                tokens += row["place_tokens"]
            continue
        c = occ[key]
        if c == TOWN:
            v = adjrow["town"] if near else row["town"]
            if d == COPPER:
                v *= 2  # "Town coin tributes are doubled"
            coins += v + ev["town"]
        elif c == CITY:
            v = adjrow["city"] if near else row["city"]
            if d == GOLD and v > 0:
                v += 1  # "Successful City Tributes earn +1 coin"
            coins += v + ev["city"]
        elif c == RUIN:
            coins += adjrow["ruin"] if near else row["ruin"]
    s.coins[seat] += coins
    count(s, "tribute_coins", coins)
    count(s, tribute_band(roll))
    if row["lose_claim"]:
        mine = losable_claims(s, seat)
        if len(mine) == 1:
            remove_claim(s, mine[0])
        elif mine:
            s.node, s.who = "lose", seat
            s.ev = {"type": "lose", "seat": seat}
            return
    if tokens:
        s.node, s.who = "token", -1
        s.ev = {"type": "token", "seat": seat, "left": tokens, "then": "tribute"}
        return
    next_tribute(s)


def losable_claims(s: NarbyData, seat: int) -> list[int | str]:
    """The claims a "0 to 4: Lose a single claim" roll may take. "If a dragon is adjacent he automatically
    scores the coins listed. That adjacent claim is not scored as per the d20 roll": with option
    ``tribute_loss`` = ``not_adjacent`` (default) the roll does not reach a claim beside the dragon, so it is
    not the one lost (reading R22); ``any``: every claim of the dragon may be."""
    mine = s.claims_of(seat)
    if s.options["tribute_loss"] == "any":
        return mine
    return [k for k in mine if not s.adjacent_to_dragon(seat, k)]


def lose_choices(s: NarbyData) -> list[Any]:
    """"Lose a single claim": ``lose KEY``, the dragon's own choice among the claims it may lose."""
    return [("lose", k) for k in sorted(losable_claims(s, s.who), key=key_order)]


def lose_claim(s: NarbyData, key: int | str) -> None:
    remove_claim(s, key)
    next_tribute(s)


def treasure_token(s: NarbyData, action: Any) -> bool:
    """A treasure token drawn (``token N``, "a 1, 2, or 3"); returns whether it was the last one owed."""
    ev = s.ev
    assert ev is not None
    seat = ev["seat"]
    s.tok_sum[seat] += action[1]
    s.tok_n[seat] += 1
    left: int = ev["left"] - 1
    ev["left"] = left
    return left <= 0
