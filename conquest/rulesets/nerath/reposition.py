"""4. REPOSITION: flying pieces move to friendly spaces within their Move, Heroes leave the dungeons; pieces left
without a friendly space are destroyed.
"""

from __future__ import annotations

import conquest.rulesets.nerath.effects as fx
from conquest.core.kinds import Action
from conquest.rulesets.nerath.base import enemy_sea, friendly_land, hostile_seas
from conquest.rulesets.nerath.data import COUNTED, DRAGON, DUNGEON, FLYING_TYPES, HEROES, N_TYPES, SEA, STORM, R
from conquest.rulesets.nerath.dungeons import place_guardian
from conquest.rulesets.nerath.movement import friendly_mask, moves_by_destination, piece_moves
from conquest.rulesets.nerath.reinforce import start_reinforce
from conquest.rulesets.nerath.state import C1, C2, IDS, KIND, LAND_ADJ, OWNER, SEA_ADJ, SPACE, NerathData, S


def hero_exits(st: NerathData, s: int) -> tuple[list[int], list[int]]:
    """Where Heroes in dungeon entrance ``s`` may exit: "a friendly land space adjacent to the dungeon
    entrance, or ... a Warship in a friendly sea space adjacent to the dungeon entrance" (the realm's own
    Warships with room)."""
    r = st.realm
    lands = [y for y in LAND_ADJ[s] if friendly_land(st, y, r)]
    ships = []
    for sid in sorted(st.ships):
        sh = st.ships[sid]
        if sh[OWNER] == r and sh[SPACE] in SEA_ADJ[s] and (sh[C1] < 0 or sh[C2] < 0) \
                and not enemy_sea(st, sh[SPACE], r):
            ships.append(sid)
    return lands, ships


def heroes_to_exit(st: NerathData) -> list[int]:
    """Dungeon entrances where Heroes of the realm still are and have a way out: "Heroes that successfully
    explored dungeons must exit after plundering them", so the step cannot end while any is left."""
    spaces = {key // N_TYPES for key in st.movable if KIND[key // N_TYPES] == DUNGEON}
    return sorted(s for s in spaces if any(hero_exits(st, s)))


def reposition_actions(st: NerathData) -> list[Action]:
    """Flying pieces move to friendly land (Storm Elementals also friendly sea) within their Move; Heroes
    that plundered a dungeon leave it for an adjacent friendly land space or a Warship next to it, and must
    while they can."""
    r = st.realm
    acts: list[Action] = []
    friendly: bytes | None = None
    hostile: set[int] = set()
    moves: list[int] = []
    for key, c in sorted(st.movable.items()):
        s, t = divmod(key, N_TYPES)
        if t in FLYING_TYPES:   # ``flying_reach(friendly_only=True)``, the moves memoised by destination
            if friendly is None:   # a land space always has a controller: its byte is ``friendly_land``
                friendly, hostile, moves = friendly_mask(st, r), hostile_seas(st, r), piece_moves(st, r)
            sea_ok = t == STORM
            for y, land, block in moves_by_destination(s, t, c, moves[t]):
                if friendly[y] if land else sea_ok and y not in hostile:
                    acts += block
            continue
        dests, ships = hero_exits(st, s)
        for sid in ships:
            acts.append(("embark", IDS[s], sid, COUNTED[t]))
        for y in dests:
            for k in range(1, c + 1):
                acts.append(("move", IDS[s], IDS[y], COUNTED[t], k))
    if not heroes_to_exit(st):
        acts.append(("done",))
    return acts + fx.playable(st)   # cards: "Keep them in your hand until you decide to play one"


def restock(st: NerathData, tile: str) -> None:
    """"After you defeat all a dungeon's inhabitants, place 2 facedown Dungeon Guardian tokens on the entrance":
    one tile drawn for the first entrance waiting (``dealing_guardians``); none when the pile is empty."""
    place_guardian(st, st.dealing_guardians.pop(0), tile)
    if not st.guardian_pile:
        st.dealing_guardians = []


def start_reposition(st: NerathData) -> None:
    """The step begins with the tiles of the dungeons won this turn (chance, ``restock``), then the realm moves
    its flying pieces and its Heroes out of the dungeons."""
    r = st.realm
    st.phase = "reposition"
    if not st.guardian_pile:
        st.dealing_guardians = []
    mv: dict[int, int] = {}
    for s in range(S):
        base = (s * R + r) * N_TYPES
        for t in FLYING_TYPES:
            if st.pieces[base + t]:
                mv[s * N_TYPES + t] = st.pieces[base + t]
        if KIND[s] == DUNGEON:
            for t in HEROES:
                if st.pieces[base + t]:
                    mv[s * N_TYPES + t] = st.pieces[base + t]
    st.movable = mv


def end_reposition(st: NerathData) -> None:
    """"Other flying pieces must end in friendly land spaces or they are destroyed." Heroes still in a
    dungeon entrance had no way out (``done`` waits for the others): they are lost (see docs)."""
    r = st.realm
    for s in range(S):
        base = (s * R + r) * N_TYPES
        if KIND[s] == SEA:
            st.pieces[base + DRAGON] = 0
            if enemy_sea(st, s, r):
                st.pieces[base + STORM] = 0
        elif KIND[s] == DUNGEON:
            for t in range(N_TYPES):
                st.pieces[base + t] = 0
        elif not friendly_land(st, s, r):
            st.pieces[base + DRAGON] = 0
            st.pieces[base + STORM] = 0
    start_reinforce(st)
