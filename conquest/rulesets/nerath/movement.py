"""2. MOVE: how far each piece moves through friendly spaces, stopping on entering an enemy space or a dungeon
entrance (which declares a battle there), and the card window an enemy's moving in opens.
"""

from __future__ import annotations

from array import array

import conquest.rulesets.nerath.effects as fx
from conquest.core.kinds import Action
from conquest.rulesets.nerath.base import add, cargo, enemy_sea, enemy_space, friendly_land, may_debark
from conquest.rulesets.nerath.data import (
    COUNTED,
    DUNGEON,
    FLYING_TYPES,
    HEROES,
    LAND,
    LAND_TYPES,
    N_TYPES,
    SEA,
    TYPE_INDEX,
    R,
)
from conquest.rulesets.nerath.state import (
    ADJ,
    C1,
    C2,
    DIST,
    F_FIXED,
    F_RETREATED,
    F_STOPPED,
    F_UNLOADED,
    FLAGS,
    IDS,
    KIND,
    LAND_ADJ,
    MOVE,
    MOVES,
    OWNER,
    SEA_ADJ,
    SPACE,
    WARSHIP_MOVE,
    NerathData,
    Reaction,
    S,
)


def land_reach(st: NerathData, s: int, r: int, m: int, hero: bool, friendly_only: bool = False) -> list[int]:
    """Land pieces: up to ``m`` spaces through friendly land; stop on entering an enemy space or (Heroes
    only) a dungeon entrance."""
    return list(_land_reach(s, m, hero, friendly_only, friendly_mask(st, r)))


def friendly_mask(st: NerathData, r: int) -> bytes:
    """One byte per space: 1 where its controller is on ``r``'s side (what ``land_reach`` looks at; a space
    without a controller, -1, reads the last realm's side as the list index does)."""
    team = tuple(st.team)
    key = (tuple(st.ctrl), team, r)
    got = _MASK.get(key)
    if got is not None:
        return got
    look = _LOOK.get((team, r))
    if look is None:   # a translation table from each controller as a signed byte
        mine = team[r]
        look = _LOOK[(team, r)] = bytes(
            [(0 <= c < R or c >= 256 - R) and team[c - 256 * (c >= 128)] == mine for c in range(256)])
    if len(_MASK) >= _CACHE_MAX:
        _MASK.clear()
    got = _MASK[key] = array("b", st.ctrl).tobytes().translate(look)
    return got


_LOOK: dict[tuple[tuple[int, ...], int], bytes] = {}
_MASK: dict[tuple[tuple[int, ...], tuple[int, ...], int], bytes] = {}
"""``friendly_mask`` memoised by the control of every space, the sides and the realm (control changes seldom
within a turn)."""


_REACH: dict[tuple[int, int, bool, bool, bytes], tuple[int, ...]] = {}
_FLY: dict[tuple[int, int], tuple[int, ...]] = {}
_BLOCKS: dict[tuple[int, int, int, bytes | None], list[Action]] = {}
_CACHE_MAX = 20_000
"""The memos of the Move step's destinations and actions: each depends on the map and on its key only (the
side's friendly spaces as ``friendly_mask``); cleared whole when one passes ``_CACHE_MAX`` entries."""


def _land_reach(s: int, m: int, hero: bool, friendly_only: bool, mask: bytes) -> tuple[int, ...]:
    key = (s, m, hero, friendly_only, mask)
    got = _REACH.get(key)
    if got is not None:
        return got
    out: list[int] = []
    seen = {s}
    frontier = [s]
    for _ in range(m):
        if not frontier:  # nothing further to reach (a Move of any size ends here)
            break
        nxt = []
        for x in frontier:
            for y in LAND_ADJ[x]:
                if y in seen:
                    continue
                seen.add(y)
                if KIND[y] == DUNGEON:
                    if hero and not friendly_only:
                        out.append(y)
                elif mask[y]:
                    out.append(y)
                    nxt.append(y)
                elif not friendly_only:
                    out.append(y)
        frontier = nxt
    if len(_REACH) >= _CACHE_MAX:
        _REACH.clear()
    got = _REACH[key] = tuple(out)
    return got


def flying_reach(st: NerathData, s: int, r: int, m: int, friendly_only: bool = False,
                 sea_ok: bool = True) -> list[int]:
    """Flying pieces fly through any space (enemy spaces and dungeon entrances too) but never end on a
    dungeon entrance. ``friendly_only`` (Reposition, Reinforce: no battles): they end in friendly land, or
    in friendly sea when ``sea_ok`` (in Reposition only Storm Elementals "can end this step in friendly sea
    spaces"; in Reinforce new pieces move "to any friendly space")."""
    within = flying_range(s, m)
    if not friendly_only:
        return list(within)
    out = []
    for y in within:
        k = KIND[y]
        if k == LAND and not friendly_land(st, y, r):
            continue
        if k == SEA and (not sea_ok or enemy_sea(st, y, r)):
            continue
        out.append(y)
    return out


def flying_range(s: int, m: int) -> tuple[int, ...]:
    """The spaces within ``m`` of ``s`` but ``s`` and the dungeon entrances, in board order (the map only)."""
    got = _FLY.get((s, m))
    if got is None:
        d = DIST[s]
        got = _FLY[(s, m)] = tuple(y for y in range(S) if y != s and d[y] <= m and KIND[y] != DUNGEON)
    return got


def piece_move(st: NerathData, r: int, t: int) -> int:
    return MOVE[t] + fx.move_bonus(st, r, t)


def piece_moves(st: NerathData, r: int) -> list[int]:
    """``piece_move`` of every piece type, by type, in one pass over the card effects (a step's legal moves ask
    for several types at once)."""
    out = list(MOVE)
    for e in st.effects:
        if e[0] == r and e[1] == "move_bonus":
            p = e[3]
            if p == "*":
                out = [m + e[2] for m in out]
            elif p in TYPE_INDEX:
                out[TYPE_INDEX[p]] += e[2]
    return out


def ship_move(st: NerathData, r: int) -> int:
    """A Warship's Move with the realm's card bonuses (the same in the Move and the Reinforce step)."""
    return WARSHIP_MOVE + fx.move_bonus(st, r, -1)


def start_move(st: NerathData) -> None:
    r = st.realm
    st.phase = "move"
    mv: dict[int, int] = {}
    n = st.pieces
    try:
        blob = bytes(n)
    except ValueError:   # a count outside 0..255 (``state.counts_table``)
        for s in range(S):
            base = (s * R + r) * N_TYPES
            for t in range(N_TYPES):
                if n[base + t]:
                    mv[s * N_TYPES + t] = n[base + t]
        st.movable = mv
        return
    flags = blob.translate(_NONZERO)   # the (space, realm) cells holding pieces, found by bytes.find
    i = flags.find(1)
    while i >= 0:
        cell = i // N_TYPES
        if cell % R == r:   # the realm's own: its pieces by space and type, in the table's order
            base = cell * N_TYPES
            k = cell // R * N_TYPES
            for t in range(N_TYPES):
                c = blob[base + t]
                if c:
                    mv[k + t] = c
        i = flags.find(1, (cell + 1) * N_TYPES)
    st.movable = mv


_NONZERO = bytes([0] + [1] * 255)


def move_actions(st: NerathData) -> list[Action]:
    r = st.realm
    acts: list[Action] = []
    mask: bytes | None = None
    bonus: list[int] | None = [] if st.effects else None   # each type's Move with the cards' bonuses, as asked
    for key, c in sorted(st.movable.items()):   # key: space * N_TYPES + type
        if c <= 0 or _AT_SEA[key]:   # a land piece at sea moves with its Warship
            continue
        if bonus is None:
            m = _MOVE_OF[key]
        else:
            if not bonus:
                bonus += piece_moves(st, r)
            m = bonus[key % N_TYPES]
        if _FLIES[key]:
            bkey: tuple[int, int, int, bytes | None] = (key, c, m, None)
        else:
            if mask is None:
                mask = friendly_mask(st, r)
            bkey = (key, c, m, mask)
        block = _BLOCKS.get(bkey)
        if block is None:
            s, t = divmod(key, N_TYPES)
            block = _move_block(s, t, c, m, bkey[3])
            if len(_BLOCKS) >= _CACHE_MAX:
                _BLOCKS.clear()
            _BLOCKS[bkey] = block
        acts += block
    ships = st.ships
    movable = st.movable
    sail_limit = -1
    holding: set[int] | None = None
    for sid in sorted(ships):
        sh = ships[sid]
        if sh[OWNER] != r:
            continue
        fl = sh[FLAGS]
        s = sh[SPACE]
        if not fl & (F_STOPPED | F_UNLOADED | F_FIXED | F_RETREATED):
            if sail_limit < 0:
                sail_limit = ship_move(st, r)
            if sh[MOVES] < sail_limit:
                for y in SEA_ADJ[s]:
                    acts.append(("sail", sid, IDS[y]))
            if sh[C1] < 0 or sh[C2] < 0:
                if holding is None:   # the spaces where some pieces are still free to move
                    holding = {key // N_TYPES for key, c in movable.items() if c > 0}
                for x, entries in _EMBARK[s]:
                    if x in holding:
                        acts += [("embark", land, sid, name) for land, key, name in entries if movable.get(key, 0) > 0]
        if not fl & (F_STOPPED | F_RETREATED) and (sh[C1] >= 0 or sh[C2] >= 0):
            for t in set(cargo(sh)):
                for y in _LANDING[s][t in HEROES]:
                    if may_debark(sh, t, y):
                        acts.append(("debark", sid, IDS[y], COUNTED[t]))
    acts.append(("done",))
    acts.extend(fx.playable(st))
    return acts


_EMBARK = [tuple((land, tuple((IDS[land], land * N_TYPES + t, COUNTED[t]) for t in LAND_TYPES)) for land in ADJ[s]
                 if KIND[land] == LAND) for s in range(S)]
"""By sea space: each land space next to it with (land space id, its ``movable`` key, piece name) of each land
piece that may embark from there."""
_LANDING = [(tuple(y for y in ADJ[s] if KIND[y] == LAND), tuple(y for y in ADJ[s] if KIND[y] in (LAND, DUNGEON)))
            for s in range(S)]
"""By space: where a carried piece may debark from a Warship there (``[s][hero]``: land spaces, and dungeon
entrances for Heroes), in ``ADJ`` order."""
_FLIES = [k % N_TYPES in FLYING_TYPES for k in range(S * N_TYPES)]
_AT_SEA = [KIND[k // N_TYPES] == SEA and not _FLIES[k] for k in range(S * N_TYPES)]
_MOVE_OF = [MOVE[k % N_TYPES] for k in range(S * N_TYPES)]
"""By ``movable`` key (space * N_TYPES + type): a flying piece; a land piece at sea; the piece's Move."""


def _move_block(s: int, t: int, c: int, m: int, mask: bytes | None) -> list[Action]:
    """The moves of ``c`` pieces of type ``t`` in ``s`` with Move ``m``: every destination, 1 to ``c`` of them
    (``mask`` None: a flying piece's, which does not depend on who controls what)."""
    dests = flying_range(s, m) if mask is None else _land_reach(s, m, t in HEROES, False, mask)
    name = COUNTED[t]
    frm = IDS[s]
    return [("move", frm, IDS[y], name, k) for y in dests for k in range(1, c + 1)]


def moves_by_destination(s: int, t: int, c: int, m: int) -> tuple[tuple[int, bool, tuple[Action, ...]], ...]:
    """A flying piece's moves by destination (``flying_range``): (space, a land space?, the moves of 1 to ``c``
    pieces there); memoised (the map only)."""
    key = (s, t, c, m)
    got = _BY_DEST.get(key)
    if got is None:
        name, frm = COUNTED[t], IDS[s]
        got = tuple((y, KIND[y] == LAND, tuple(("move", frm, IDS[y], name, k) for k in range(1, c + 1)))
                    for y in flying_range(s, m))
        if len(_BY_DEST) >= _CACHE_MAX:
            _BY_DEST.clear()
        _BY_DEST[key] = got
    return got


def safe_moves(s: int, t: int, c: int, m: int, mask: bytes) -> list[Action]:
    """A land piece's moves through and into friendly land only (Reinforce: "no battles"), memoised as the Move
    step's (``mask``: ``friendly_mask``)."""
    key = (s, t, c, m, mask)
    got = _SAFE.get(key)
    if got is None:
        name, frm = COUNTED[t], IDS[s]
        got = [("move", frm, IDS[y], name, k) for y in _land_reach(s, m, False, True, mask) for k in range(1, c + 1)]
        if len(_SAFE) >= _CACHE_MAX:
            _SAFE.clear()
        _SAFE[key] = got
    return got


_BY_DEST: dict[tuple[int, int, int, int], tuple[tuple[int, bool, tuple[Action, ...]], ...]] = {}
_SAFE: dict[tuple[int, int, int, int, bytes], list[Action]] = {}


def declare_attack(st: NerathData, y: int) -> None:
    """"Whenever you move pieces into an enemy space or a dungeon entrance, you attack that space.\""""
    if y not in st.pending and (KIND[y] == DUNGEON or enemy_space(st, y, st.realm)):
        st.pending.append(y)


def move_pieces(st: NerathData, s: int, y: int, t: int, k: int) -> None:
    r = st.realm
    key = s * N_TYPES + t
    left = st.movable[key] - k
    if left:
        st.movable[key] = left
    else:
        del st.movable[key]
    add(st, s, r, t, -k)
    add(st, y, r, t, k)
    if st.phase == "move":
        declare_attack(st, y)
        open_move_reaction(st, y)


def open_move_reaction(st: NerathData, y: int) -> None:
    """Cards that react to another realm's movement ("when required"): when the realm to move enters a
    space an enemy controls or holds pieces in, each such enemy holding an ``enemy_move`` card may play
    it or pass, in turn order from the moving realm."""
    if y not in st.pending or KIND[y] == DUNGEON:
        return
    r = st.realm
    realms = []
    for k in range(1, R):
        e = (r + k) % R
        if st.team[e] == st.team[r] or not st.hands[e]:
            continue
        cell = (y * R + e) * N_TYPES
        if (KIND[y] == LAND and st.ctrl[y] == e) or any(st.pieces[cell:cell + N_TYPES]) or \
                any(sh[SPACE] == y and sh[OWNER] == e for sh in st.ships.values()):
            if fx.window_cards(st, e, "enemy_move"):
                realms.append(e)
    if realms:
        # asked only when the card has something to act on (a removal needs a moving piece of its kind)
        st.reaction = Reaction("move", realms, y, r)
        realms[:] = [e for e in realms if fx.reaction_plays(st, e)]
        if not realms:
            st.reaction = None
