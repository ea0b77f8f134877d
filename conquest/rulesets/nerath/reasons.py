"""Why an action is refused: one sentence per step of the TURN SEQUENCE saying what the rules allow there.
"""

from __future__ import annotations

from typing import Any

from conquest.core.game import CHANCE
from conquest.core.kinds import ActionArgs
from conquest.rulesets.nerath.base import cargo, may_debark
from conquest.rulesets.nerath.data import DUNGEON, FLYING_TYPES, HEROES, LAND_TYPES, N_TYPES, SEA, TYPE_INDEX, R
from conquest.rulesets.nerath.movement import ship_move
from conquest.rulesets.nerath.reinforce import buy_refusal
from conquest.rulesets.nerath.reposition import heroes_to_exit
from conquest.rulesets.nerath.state import ALL_COSTS, IDS, IX, KIND, STEP_TITLES, NerathData
from conquest.rulesets.nerath.turn import PHASE_VERBS


def illegal_reason(st: NerathData, action: Any) -> str:
    # Long because: one refusal per rule, phase by phase in the order of a turn; each branch names the rule it
    # checks.
    if st.to_move is None:
        return "the game is over"
    verb = action[0] if isinstance(action, tuple) and action else "?"
    ph = st.phase
    step = STEP_TITLES.get(ph, ph)
    if st.to_move == CHANCE:
        return "a chance outcome is due here (a die roll or a draw), not a decision"
    if st.reaction is not None:
        return ("a card window is open (an enemy moved in, or income is collected): the realm asked plays a "
                "card it holds for this moment, or passes")
    bt = st.battle
    if ph == "fight" and bt is not None:
        s = bt.step
        expect = {"assign": "hit", "press": "press or retreat", "withdraw": "withdraw", "window": "play or pass",
                  "amok": "amok or stay", "landing": "debark or done", "choose": "split"}.get(s, s)
        if verb not in expect.split() and not (s == "withdraw" and verb.startswith("withdraw")):
            return f"in this battle the decision is '{expect}', not '{verb}'"
        if s == "assign":
            return ("the side taking damage chooses which of its pieces takes each hit, a new piece for "
                    "each hit while any is left; that piece is not among them")
        if s == "choose":
            from conquest.rulesets.nerath.battle import split_choices
            h = bt.split_hits
            first = split_choices(st)[0]
            return (f"you play both defending allies: split the {h} hit{'s' if h != 1 else ''} between them, "
                    f"each realm named once in turn order ({first[1]} first), the two numbers adding up to {h} "
                    f"and none more than that realm's pieces can take (e.g. '{' '.join(map(str, first))}')")
        if s == "withdraw":
            return ("retreating pieces move to an adjacent friendly land space (flying pieces also to a "
                    "friendly sea space; sea pieces to a friendly sea space); onto Warships only when no "
                    "adjacent land space is friendly")
        if s == "amok":
            return ("a surviving Monster may run amok only into an adjacent enemy land space that contains "
                    "no enemy pieces")
        return "not allowed here"
    allowed = (*PHASE_VERBS[ph], "play") if ph in PHASE_VERBS else ()   # a card may be played in every step
    if verb not in allowed:
        return f"'{verb}' is not a decision of the {step} step"
    if ph == "fight":
        if isinstance(action, tuple) and len(action) == 2 and action[1] in IX \
                and IX[action[1]] in st.pending and KIND[IX[action[1]]] != SEA:
            return "you must fight all the sea battles first, then the land battles"
        return "no battle was declared there (moving into an enemy space or a dungeon entrance declares it)"
    if verb == "move" and isinstance(action, tuple) and len(action) == 5:
        why = move_refusal(st, action)
        if why:
            return why
    if verb == "done" and ph == "reposition":
        stuck = heroes_to_exit(st)
        if stuck:
            return ("\"Heroes that successfully explored dungeons must exit after plundering them\": move the "
                    f"Heroes in {', '.join(IDS[x] for x in stuck)} to an adjacent friendly land space or aboard "
                    "your Warship next to the entrance first")
    if verb == "move":
        return _move_reach(st, action)
    if verb == "sail":
        return (f"a Warship moves up to {ship_move(st, st.realm)} sea spaces through friendly sea spaces and stops "
                "on entering an enemy one; it cannot move after unloading (nor if it got new cargo this Reinforce "
                "step)")
    if verb == "embark":
        return ("a land piece (not a Castle) that has not moved boards your own Warship with room (2 "
                "pieces) in a sea space next to the coastal space where it began the Move step")
    if verb == "debark":
        if isinstance(action, tuple) and len(action) == 4 and action[1] in st.ships \
                and action[2] in IX and action[3] in TYPE_INDEX:
            sh = st.ships[action[1]]
            t, y = TYPE_INDEX[action[3]], IX[action[2]]
            if t in cargo(sh) and not may_debark(sh, t, y):
                return ("\"The land pieces embark onto the ship from a coastal space and debark into another "
                        f"coastal space\": that {action[3]} embarked from {action[2]} this turn and cannot "
                        "debark back into it")
        if ph == "reinforce":
            return ("\"New Warships carrying new land pieces can immediately move, carrying those pieces, and unload "
                    "them in a friendly land space\": in the Reinforce step only a Warship bought this turn unloads, "
                    "into a friendly land space adjacent to its sea space")
        return ("carried pieces debark only into a coastal space adjacent to the Warship's sea space (a "
                "Hero also into a dungeon entrance), not from a Warship in an enemy sea space")
    if verb == "buy" and isinstance(action, tuple) and len(action) in (3, 4) and action[1] in ALL_COSTS:
        return buy_refusal(st, action)
    if verb == "buy":
        return ("you must afford the piece and place it at a Castle you controlled since the start of your "
                "turn (at most 4 new pieces except at your capital or your only Castle), a new Castle in "
                "your own land space without a Castle, Warships and Storm Elementals in a friendly sea "
                "space next to such a Castle, land pieces aboard your Warship there")
    if verb == "play":
        return "you hold no such card that may be played now"
    return "it is not among the legal actions here"


def move_refusal(st: NerathData, action: ActionArgs) -> str:
    """What is wrong with ``move FROM TO PIECE N`` before the question of reach: an unknown space, a piece
    that never moves this way, none of those pieces there, more of them than may still move. Empty when the
    pieces may move and only the destination is refused."""
    _, a, b, p, k = action
    for x in (a, b):
        if x not in IX:
            return f"there is no space '{x}' on the board"
    if p == "castle":
        return "Castles cannot move"
    if p == "warship":
        return "a Warship moves with 'sail SHIP TO', one sea space at a time"
    if k < 1:
        return "move at least one piece"
    s, y, t, r = IX[a], IX[b], TYPE_INDEX[p], st.realm
    if s == y:
        return f"{a} is where the {p} already is"
    there = st.pieces[(s * R + r) * N_TYPES + t]
    free = st.movable.get(s * N_TYPES + t, 0)
    if KIND[s] == SEA and t in LAND_TYPES:
        return (f"a {p} is a land piece: at sea it rides a Warship, moves with it ('sail SHIP TO') and lands "
                "with 'debark SHIP TO PIECE'")
    if not there:
        return f"your realm has no {p} in {a}"
    if not free:
        if st.phase == "reposition":
            if KIND[s] == DUNGEON and t in HEROES:
                return f"the Heroes in {a} have already left"
            if t not in FLYING_TYPES:
                return "in the Reposition step only flying pieces move (and Heroes leaving a dungeon)"
            return f"the {p} in {a} has already repositioned this step"
        if st.phase == "reinforce":
            return f"only new pieces move in the Reinforce step; no new {p} in {a} is left to move"
        return f"each piece moves once a turn: every {p} in {a} has moved"
    if k > free:
        return f"only {free} {p} in {a} may still move; the move asks for {k}"
    return ""


def _move_reach(st: NerathData, action: Any) -> str:
    """A move whose pieces may move but not to that space: what the step allows."""
    ph = st.phase
    where = ""
    if isinstance(action, tuple) and len(action) == 5:
        where = f"{action[2]} is out of reach of the {action[3]} in {action[1]}: "
    if ph == "reposition":
        return (where + "in the Reposition step only flying pieces move, to friendly spaces within their Move "
                "(Heroes leave a dungeon to an adjacent friendly land space); no battles")
    if ph == "reinforce":
        return (where + "only new pieces move in the Reinforce step, to friendly spaces within their Move; "
                "no battles")
    return (where + "pieces move up to their Move through friendly spaces and stop on entering an enemy space "
            "or a dungeon entrance (only Heroes enter those; flying pieces fly over anything but never "
            "end on a dungeon entrance; land pieces stay on land; Castles never move; each piece "
            "moves once)")
