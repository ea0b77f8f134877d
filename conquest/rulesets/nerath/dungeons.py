"""EXPLORING DUNGEONS and "Plunder Dungeons": Heroes explore an entrance, the Guardians' dice and the Heroes'
rolls against them, Guardians returned and placed, the Treasure a plundered dungeon gives.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import conquest.rulesets.nerath.effects as fx
from conquest.core.schema import add_to_counter
from conquest.rulesets.nerath.base import own_guardians, own_stats
from conquest.rulesets.nerath.data import R, full_strength, guardian_tiles
from conquest.rulesets.nerath.state import HIT_ON, NerathData


def explore(st: NerathData, x: int) -> None:
    """"Heroes that move into a dungeon entrance explore the dungeon; flip over all the facedown Dungeon
    Guardian tokens" / "the opponent to your left rolls attack dice for the Guardian" — the next realm in
    turn order played by another seat rolls for them and decides their damage."""
    bt = st.battle
    assert bt is not None
    add_to_counter(own_stats(st), "explored")
    for g in own_guardians(st, x):
        g[1] = 1
    bt.guardian_tiles = [g[0] for g in st.guardians[x]]
    r = bt.attacker
    for k in range(1, R + 1):
        e = (r + k) % R
        if st.seat_of[e] != st.seat_of[r] or k == R:
            bt.guardian_seat = st.seat_of[e]
            break


def hero_need(st: NerathData, r: int, t: int, side: str) -> int:
    """"Heroes Need 7+/8+ to Hit ... this affects all the Heroes' attack rolls against all the Guardians" /
    "An Event card that grants a Hero a bonus to attack rolls trumps this special ability."
    """
    bt = st.battle
    assert bt is not None
    need = heroes_need([g[0] for g in st.guardians[bt.space]], bt.guardian_tiles,
                       str(st.options.get("heroes_need_lasts")))
    return need_against(fx.attack_bonus(st, r, t, side), (need,), fx.attack_bonus(st, r, t, side, events_only=True))


def heroes_need(standing: Iterable[str], fought: Iterable[str], lasts: str) -> int:
    """The "Heroes Need" number in force in a dungeon battle (0: none), for the rules and the battle calculator:
    "Heroes Need 7+/8+ to Hit ... this affects all the Heroes' attack rolls against all the Guardians", the
    highest number among the Guardian tiles that count. Option ``heroes_need_lasts`` (docs/rules/nerath.md):
    ``while_standing``, the tiles ``standing`` now; ``whole_battle``, every tile the battle began with ("during
    that battle": ``fought``, the tiles the entrance held when it began, with those standing)."""
    tiles = guardian_tiles()
    held = [*fought, *standing] if lasts == "whole_battle" else standing
    return max([tiles[g].heroes_need for g in held if g in tiles] + [0])


def need_against(bonus: int, heroes_need: Iterable[int], event_bonus: int) -> int:
    """The roll a Hero with attack ``bonus`` (``event_bonus`` of it from Event cards) needs against Guardians
    with these "Heroes Need" numbers (0: none). "A Hero scores a hit against the Guardian only on an attack roll
    of the specified number or higher": the highest of them, or the usual 6 less the bonus if that is higher;
    but "An Event card that grants a Hero a bonus to attack rolls trumps this special ability": with a positive
    Event bonus, the usual 6 less the whole bonus. The battle calculator reads the Heroes' dice from here too."""
    usual = HIT_ON - bonus
    if event_bonus > 0:
        return usual
    return max([*heroes_need, usual])


def guardian_dice(st: NerathData, first_strike: bool) -> tuple[tuple[int, int, int], ...]:
    bt = st.battle
    assert bt is not None
    return guardians_roll(((g[0], g[2:]) for g in st.guardians[bt.space]), first_strike)


def guardians_roll(guardians: Iterable[tuple[str, Sequence[int]]], first_strike: bool
                   ) -> tuple[tuple[int, int, int], ...]:
    """The dice Guardians (tile, attack dice left) roll in the First Strike stage or the other: each die hits
    on the usual 6 or higher; First Strike tiles roll with the first strikes. Shared by the battle
    calculator."""
    tiles = guardian_tiles()
    dice: dict[int, int] = {}
    for tile, left in guardians:
        if tiles[tile].first_strike == first_strike:
            for f in left:
                dice[f] = dice.get(f, 0) + 1
    return tuple(sorted((f, HIT_ON, c) for f, c in dice.items()))


def return_guardian(st: NerathData, tile: str) -> None:
    """A defeated Guardian's tile goes back into the facedown pile (our reading: the document does not say,
    and the pile must keep restocking the entrances)."""
    st.guardian_pile = sorted([*st.guardian_pile, tile])   # a clone shares the pile: a new list


def place_guardian(st: NerathData, x: int, tile: str) -> None:
    st.guardian_pile = pile = st.guardian_pile[:]   # a clone shares the pile: copied on write
    pile.remove(tile)
    own_guardians(st, x).append([tile, 0] + full_strength(tile))


def plunder(st: NerathData, x: int) -> None:
    """"If you win a battle against all the Dungeon Guardians in a dungeon entrance, your Heroes get to
    plunder the dungeon. Draw the top card from the Treasure deck." / Reward: extra gold. / "4: REPOSITION ...
    After you defeat all a dungeon's inhabitants, place 2 facedown Dungeon Guardian tokens on the entrance":
    the entrance waits in ``dealing_guardians`` for its 2 tiles, drawn when the Reposition step begins.
    """
    bt = st.battle
    assert bt is not None
    tiles = guardian_tiles()
    add_to_counter(own_stats(st), "plundered")
    st.gold[bt.attacker] += sum(tiles[t].reward for t in bt.guardian_tiles)
    fx.plunder(st, x)
    st.dealing_guardians = [*st.dealing_guardians, x, x]
    if st.treasure_deck:
        bt.step = "plunder"
    else:
        st.battle = None
