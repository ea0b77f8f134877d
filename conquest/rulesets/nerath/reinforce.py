"""5. REINFORCE: buying pieces and "Placing New Pieces" at Castles held since the start of the turn (the
placement limits, new Castles, Warships and cargo), then "Moving New Pieces".
"""

from __future__ import annotations

from itertools import compress

import conquest.rulesets.nerath.effects as fx
from conquest.core.kinds import Action, ActionArgs
from conquest.rulesets.nerath.base import (
    add,
    cargo,
    cargo_add,
    enemy_sea,
    friendly_land,
    hostile_seas,
    may_debark,
    own_ship,
)
from conquest.rulesets.nerath.data import COUNTED, FLYING_TYPES, LAND, LAND_TYPES, N_TYPES, SEA, TYPE_INDEX
from conquest.rulesets.nerath.movement import friendly_mask, moves_by_destination, piece_moves, safe_moves, ship_move
from conquest.rulesets.nerath.state import (
    ADJ,
    BUYABLE,
    C1,
    C2,
    CAPITAL,
    DIST,
    F_FIXED,
    F_NEW,
    F_UNLOADED,
    FLAGS,
    IDS,
    IX,
    KIND,
    LANDS,
    MOVES,
    OWNER,
    SEA_ADJ,
    SEAS,
    SPACE,
    NerathData,
)
from conquest.rulesets.nerath.variant import prices_of


def start_reinforce(st: NerathData) -> None:
    st.phase = "reinforce"
    st.movable = {}
    st.placed = {}
    st.built = []
    for sid, sh in st.ships.items():
        if sh[OWNER] == st.realm:
            own_ship(st, sid)[FLAGS] |= F_FIXED  # existing Warships do not move in this step


def castles_held(st: NerathData, r: int) -> int:
    """The Castles realm ``r`` controls, whether held since the start of the turn, captured or built this
    turn ("if you control only one Castle, this limit does not apply")."""
    return sum(1 for s in LANDS if st.castle[s] and st.ctrl[s] == r)


def no_castle(st: NerathData, r: int) -> bool:
    """"If you control no Castles, all the new pieces must appear in the friendly land space closest to your
    Capital": a Castle built this turn, which takes no new pieces, does not end this (else the pieces bought
    before it could use the closest space and those bought after could go nowhere)."""
    return all(not st.castle[s] or st.ctrl[s] != r or s in st.built for s in LANDS)


def placement_room(st: NerathData, s: int, r: int, held: int = -1) -> int:
    """New pieces a Castle space can still take: any number at the capital or at your only Castle, else
    4; none at a Castle captured this turn (a retaken capital excepted) or built this turn."""
    if not st.castle[s] or st.ctrl[s] != r or s in st.built:
        return 0
    if s == CAPITAL[r]:
        return 999
    if st.ctrl_start[s] != r:
        return 0
    if (castles_held(st, r) if held < 0 else held) == 1:
        return 999
    return 4 - st.placed.get(s, 0)


def _rooms(st: NerathData, r: int, mine: list[int]) -> dict[int, int]:
    """``placement_room`` of each of the Castles ``mine`` (those realm ``r`` controls)."""
    built, ctrl_start, placed, cap = st.built, st.ctrl_start, st.placed, CAPITAL[r]
    only = len(mine) == 1
    return {s: 0 if s in built else 999 if s == cap else 0 if ctrl_start[s] != r else 999 if only
            else 4 - placed.get(s, 0) for s in mine}


def fallback_spaces(st: NerathData, r: int) -> list[int]:
    """"If you control no Castles, all the new pieces must appear in the friendly land space closest to
    your Capital.\""""
    cap = CAPITAL[r]
    spaces = [s for s in LANDS if friendly_land(st, s, r)]
    if not spaces:
        return []
    best = min(DIST[cap][s] for s in spaces)
    return [s for s in spaces if DIST[cap][s] == best]


COAST = {q: tuple(s for s in ADJ[q] if KIND[s] == LAND) for q in SEAS}
"""The land spaces next to each sea space (the map only)."""


def sea_castle(st: NerathData, q: int, r: int, held: int = -1) -> int:
    """The eligible Castle whose limit a piece placed in sea space ``q`` counts against (the capital when
    adjacent, else the one with most room), or -1."""
    best, room = -1, 0
    for s in ADJ[q]:
        if KIND[s] == LAND:
            rm = placement_room(st, s, r, held)
            if rm > room or (rm == room and rm > 0 and s == CAPITAL[r]):
                best, room = s, rm
    return best


def reinforce_actions(st: NerathData) -> list[Action]:
    r = st.realm
    gold = st.gold[r]
    acts: list[Action] = []
    ctrl, castle = st.ctrl, st.castle
    mine = [s for s in compress(range(len(castle)), castle) if ctrl[s] == r and KIND[s] == LAND]   # castles_held
    built = st.built
    fallback = all(s in built for s in mine) if built else not mine   # no_castle
    room = {} if fallback else _rooms(st, r, mine)
    land_spots = fallback_spaces(st, r) if fallback else [s for s in mine if room[s] > 0]
    hostile = hostile_seas(st, r)
    # a sea space takes new pieces when a Castle next to it has room (``sea_castle``) and it holds no enemy
    roomy = {s for s, v in room.items() if v > 0}
    sea_spots = [q for q in SEAS if q not in hostile and not roomy.isdisjoint(COAST[q])]
    prices = prices_of(st)
    aboard: list[int] | None = None
    for p in BUYABLE:
        if prices[p] > gold:
            continue
        if p == "castle":
            ctrl_start = st.ctrl_start
            acts += [("buy", "castle", IDS[s]) for s in LANDS if ctrl[s] == r and ctrl_start[s] == r and not castle[s]]
            continue
        if p != "warship":
            for s in land_spots:
                acts.append(("buy", p, IDS[s]))
        if p in ("warship", "storm"):
            for q in sea_spots:
                acts.append(("buy", p, IDS[q]))
        if p in COUNTED and TYPE_INDEX[p] in LAND_TYPES:
            if aboard is None:
                ok = set(sea_spots)
                aboard = [sid for sid in sorted(st.ships) if _takes_new(st.ships[sid], r, ok)]
            for sid in aboard:
                acts.append(("buy", p, "ship", sid))
    # new pieces move at once to friendly spaces within their Move; no battles
    friendly: bytes | None = None
    moves: list[int] = []
    for key, c in sorted(st.movable.items()):
        s, t = divmod(key, N_TYPES)
        if friendly is None:   # a land space always has a controller: its byte is ``friendly_land``
            friendly = friendly_mask(st, r)
            moves = piece_moves(st, r)
        m = moves[t]
        if t in FLYING_TYPES:
            for y, land, block in moves_by_destination(s, t, c, m):
                if friendly[y] if land else y not in hostile:
                    acts += block
        else:
            acts += safe_moves(s, t, c, m, friendly)
    for sid in sorted(st.ships):
        sh = st.ships[sid]
        if sh[OWNER] != r or not sh[FLAGS] & F_NEW or sh[FLAGS] & F_FIXED:
            continue
        # as in the Move step: unloading ends the Warship's movement (no more sailing), and the other carried
        # piece may still debark ("A Warship can unload its carried pieces into a single land space or 2
        # different ones adjacent to its sea space")
        if not sh[FLAGS] & F_UNLOADED and sh[MOVES] < ship_move(st, r):
            for y in SEA_ADJ[sh[SPACE]]:
                if y not in hostile:
                    acts.append(("sail", sid, IDS[y]))
        for t in sorted(set(cargo(sh))):
            for y in ADJ[sh[SPACE]]:
                if KIND[y] == LAND and friendly_land(st, y, r) and may_debark(sh, t, y):
                    acts.append(("debark", sid, IDS[y], COUNTED[t]))
    acts.append(("done",))
    acts.extend(fx.playable(st))
    return acts


def buy(st: NerathData, action: ActionArgs) -> None:
    r = st.realm
    p = action[1]
    st.gold[r] -= prices_of(st)[p]
    if len(action) == 4:
        sid = action[3]
        sh = own_ship(st, sid)
        cargo_add(sh, TYPE_INDEX[p])  # bought aboard: it embarked from no coastal space
        cs = sea_castle(st, sh[SPACE], r)
        st.placed[cs] = st.placed.get(cs, 0) + 1
        if not sh[FLAGS] & F_NEW:
            sh[FLAGS] |= F_FIXED  # "you cannot move an existing Warship you placed new land pieces on"
        return
    s = IX[action[2]]
    if p == "castle":
        st.castle[s] = 1
        st.built.append(s)
        return
    if KIND[s] == SEA:
        cs = sea_castle(st, s, r)
        st.placed[cs] = st.placed.get(cs, 0) + 1
        if p == "warship":
            st.ships[st.next_ship] = [r, s, 0, F_NEW, -1, -1, -1, -1]
            st.next_ship += 1
            return
    elif not no_castle(st, r):
        st.placed[s] = st.placed.get(s, 0) + 1
    t = TYPE_INDEX[p]
    add(st, s, r, t, 1)
    st.movable[s * N_TYPES + t] = st.movable.get(s * N_TYPES + t, 0) + 1


def buy_refusal(st: NerathData, action: ActionArgs) -> str:
    """Why ``buy`` is refused, naming the rule of "Placing New Pieces" it breaks (the same tests as
    ``reinforce_actions``, one at a time)."""
    r = st.realm
    p = action[1]
    if prices_of(st)[p] > st.gold[r]:
        return f"a {p} costs {prices_of(st)[p]} gold and your realm has {st.gold[r]}"
    if len(action) == 4:
        return _aboard_refusal(st, p, action[3])
    if action[2] not in IX:
        return f"there is no space '{action[2]}' on the board"
    s = IX[action[2]]
    if p == "castle":
        if KIND[s] != LAND:
            return "a Castle is placed in a land space"
        if st.ctrl[s] != r or st.ctrl_start[s] != r:
            return (f"\"you must place it in a friendly land space ... that you controlled since the start of "
                    f"your turn\": {action[2]} is not one")
        return f"\"Only 1 Castle can be built in any land space\": {action[2]} has one"
    if KIND[s] == SEA:
        if p not in ("warship", "storm"):
            return (f"a {p} is a land piece: it goes to land, or aboard your Warship in that sea space "
                    f"('buy {p} ship N')")
        if no_castle(st, r):
            return "you control no Castle, so no new Warship or Storm Elemental can be placed"
        if enemy_sea(st, s, r):
            return f"new Warships and Storm Elementals go to a friendly sea space; {action[2]} holds enemy pieces"
        return (f"no Castle next to {action[2]} can take new pieces (one you controlled since the start of your "
                f"turn, with room under its limit): \"These still count against a Castle's placement limit\"")
    if p == "warship":
        return "a Warship is placed in a sea space next to a Castle that can take new pieces"
    if KIND[s] != LAND:
        return f"new pieces are never placed in a dungeon entrance such as {action[2]}"
    if no_castle(st, r):
        near = ", ".join(IDS[y] for y in fallback_spaces(st, r)) or "none"
        return ("\"If you control no Castles, all the new pieces must appear in the friendly land space closest to "
                f"your Capital\": {near}")
    return _castle_refusal(st, s, r)


def _castle_refusal(st: NerathData, s: int, r: int) -> str:
    sid = IDS[s]
    if not st.castle[s] or st.ctrl[s] != r:
        return f"new pieces are placed at one of your Castles; {sid} holds none of yours"
    if s in st.built:
        return f"\"On the turn you place a new Castle, you cannot place other new pieces there\" ({sid})"
    if st.ctrl_start[s] != r:
        return f"\"You cannot place new pieces at any Castle you captured or recaptured this turn\" ({sid})"
    return (f"\"At other Castles, you may only place up to 4 new pieces\": {st.placed.get(s, 0)} already placed at "
            f"{sid}, and you control {castles_held(st, r)} Castles")


def _takes_new(sh: list[int], r: int, sea_spots: set[int]) -> bool:
    """Whether new land pieces may be bought aboard this Warship (``_aboard_refusal`` says why not)."""
    return sh[OWNER] == r and (sh[C1] < 0 or sh[C2] < 0) and sh[SPACE] in sea_spots and not _landed_new(sh)


def _landed_new(sh: list[int]) -> bool:
    """A Warship bought this turn that has unloaded takes no more new pieces (its sailing and landing are over).
    An existing Warship that unloaded in the Move step still does: "If you buy new land pieces at a Castle in a
    coastal space, you can place them on an existing Warship in an adjacent sea space" names no exception, and
    placing pieces aboard is not moving it (docs/rules/nerath.md, reading 5)."""
    return bool(sh[FLAGS] & F_UNLOADED and sh[FLAGS] & F_NEW)


def _aboard_refusal(st: NerathData, p: str, sid: int) -> str:
    r = st.realm
    sh = st.ships.get(sid)
    if sh is None or sh[OWNER] != r:
        return f"your realm has no Warship {sid}"
    if p not in COUNTED or TYPE_INDEX[p] not in LAND_TYPES:
        return "only land pieces are placed aboard a Warship (\"not Castles\")"
    if sh[C1] >= 0 and sh[C2] >= 0:
        return f"\"A Warship can carry up to 2 land pieces\": Warship {sid} is full"
    if _landed_new(sh):
        return f"new Warship {sid} has already unloaded: its move this step is over"
    q = sh[SPACE]
    if no_castle(st, r) or enemy_sea(st, q, r) or sea_castle(st, q, r) < 0:
        return (f"\"If you buy new land pieces at a Castle in a coastal space, you can place them on an existing "
                f"Warship in an adjacent sea space\": no Castle next to {IDS[q]} can take new pieces")
    return "not allowed here"
