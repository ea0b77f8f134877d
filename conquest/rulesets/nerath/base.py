"""Shared low-level helpers the sections use: alliance, friendly and enemy spaces ("A land space is friendly or
enemy depending on who controls it"; "A sea space is an enemy space if it contains enemy pieces"; "A dungeon
entrance is not friendly to any realm", from 2. MOVE), piece counts, and the cargo of Warships.
"""

from __future__ import annotations

from typing import Any

from conquest.rulesets.nerath.data import LAND, N_TYPES, SEA, R
from conquest.rulesets.nerath.state import C1, C2, KIND, O1, O2, OWNER, PER_SPACE, SEAS, SPACE, NerathData


def allied(st: NerathData, a: int, b: int) -> bool:
    return a == b or st.team[a] == st.team[b]


def friendly_land(st: NerathData, s: int, r: int) -> bool:
    """A land space is friendly if its controller is you or an ally; dungeon entrances never are."""
    c = st.ctrl[s]
    return KIND[s] == LAND and c >= 0 and (c == r or st.team[c] == st.team[r])


def enemy_pieces_in(st: NerathData, s: int, r: int) -> bool:
    n = st.pieces
    for e in range(R):
        if st.team[e] != st.team[r]:
            base = (s * R + e) * N_TYPES
            if any(n[base:base + N_TYPES]):
                return True
    if KIND[s] == SEA:
        for sh in st.ships.values():
            if sh[SPACE] == s and st.team[sh[OWNER]] != st.team[r]:
                return True
    elif KIND[s] == LAND and st.castle[s] and not friendly_land(st, s, r):
        return True
    return False


def hostile_seas(st: NerathData, r: int) -> set[int]:
    """The sea spaces that are enemy spaces to ``r`` (``enemy_sea`` of every sea space, in one pass)."""
    team = tuple(st.team)
    mine = team[r]
    out = {sh[SPACE] for sh in st.ships.values() if team[sh[OWNER]] != mine}
    foes = _FOES.get((team, r))
    if foes is None:   # the bytes of a space's row that hold enemy counts, as an integer mask
        foes = _FOES[(team, r)] = sum(0xFF << 8 * (e * N_TYPES + t) for e in range(R) if team[e] != mine
                                      for t in range(N_TYPES))
    n = st.pieces
    try:
        blob = bytes(n)
    except ValueError:   # a count outside 0..255 (``state.counts_table``)
        return out | {q for q in SEAS if q not in out and enemy_pieces_in(st, q, r)}
    for q in SEAS:
        if q not in out and int.from_bytes(blob[q * PER_SPACE:q * PER_SPACE + PER_SPACE], "little") & foes:
            out.add(q)
    return out


_FOES: dict[tuple[tuple[int, ...], int], int] = {}


def enemy_sea(st: NerathData, s: int, r: int) -> bool:
    """"A sea space is an enemy space if it contains enemy pieces. Otherwise, it is a friendly space.\""""
    return enemy_pieces_in(st, s, r)


def enemy_space(st: NerathData, s: int, r: int) -> bool:
    k = KIND[s]
    if k == LAND:
        return not friendly_land(st, s, r)
    if k == SEA:
        return enemy_sea(st, s, r)
    return False  # "Effects that refer to 'enemy spaces' do not apply to dungeon entrances."


def count(st: NerathData, s: int, r: int, t: int) -> int:
    return st.pieces[(s * R + r) * N_TYPES + t]


def add(st: NerathData, s: int, r: int, t: int, k: int) -> None:
    i = (s * R + r) * N_TYPES + t
    try:
        st.pieces[i] += k
    except OverflowError:   # a count leaving 0..255, which the byte table cannot hold (``state.counts_table``)
        st.pieces = list(st.pieces)
        st.pieces[i] += k


def ships_at(st: NerathData, s: int, r: int | None = None) -> list[int]:
    return sorted(sid for sid, sh in st.ships.items()
                  if sh[SPACE] == s and (r is None or sh[OWNER] == r))


def own_guardians(st: NerathData, x: int) -> list[list[Any]]:
    """The Guardians on entrance ``x``, for ``st`` to change: a state's clone shares the Guardians with it
    (``state.FIELDS``: they change seldom), so every change takes its own copy first."""
    tiles = [g[:] for g in st.guardians[x]]
    st.guardians = {**st.guardians, x: tiles}
    return tiles


def own_ship(st: NerathData, sid: int) -> list[int]:
    """Warship ``sid``'s record, for ``st`` to change: a state's clone copies the dict of Warships but shares
    their records with it (``state.FIELDS``: most actions change none), so every change takes its own copy
    first."""
    sh = st.ships[sid] = st.ships[sid][:]
    return sh


def own_stats(st: NerathData) -> dict[str, int]:
    """The report counters, for ``st`` to change: a clone shares them (``state.FIELDS``)."""
    stats = st.stats = st.stats.copy()
    return stats


def own_pile(piles: list[list[str]], r: int) -> tuple[list[list[str]], list[str]]:
    """A copy of the per-realm card piles ``piles`` (an Event deck, hand or discards, a Treasure hand or the
    Treasures played) with realm ``r``'s pile copied too, to change and set back on the state
    (``st.hands, hand = own_pile(st.hands, r)``): a state's clone shares its card piles with it
    (``state.FIELDS``: they change a few times a turn), so every change takes its own copy first."""
    out = piles[:]
    mine = out[r] = out[r][:]
    return out, mine


def cargo(sh: list[int]) -> list[int]:
    return [c for c in (sh[C1], sh[C2]) if c >= 0]


def cargo_add(sh: list[int], t: int, origin: int = -1) -> None:
    """Put a land piece aboard; ``origin`` is the coastal space it embarked from this turn (-1: none)."""
    if sh[C1] < 0:
        sh[C1] = t
        sh[O1] = origin
    else:
        sh[C2] = t
        sh[O2] = origin


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


def may_debark(sh: list[int], t: int, y: int) -> bool:
    """"The land pieces embark onto the ship from a coastal space and debark into another coastal space":
    some carried ``t`` did not embark from ``y`` this turn."""
    return (sh[C1] == t and sh[O1] != y) or (sh[C2] == t and sh[O2] != y)
