"""TURN SEQUENCE: the turn's dispatcher: the legal actions and the applying of one by phase (Draw, Move, Fight
Battles, Reposition, Reinforce, Collect Income; ``PHASE_VERBS``), chance outcomes, the start and end of a turn,
and the card windows outside battles. ``rules.NerathState`` binds these to the state class.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import conquest.rulesets.nerath.effects as fx
from conquest.core.game import CHANCE
from conquest.core.kinds import Action, ActionArgs
from conquest.rulesets.nerath.battle import advance, apply_fight, battle_dice, fight_actions
from conquest.rulesets.nerath.cards import event_cards
from conquest.rulesets.nerath.data import N_TYPES, REALMS, TYPE_INDEX, R
from conquest.rulesets.nerath.dice import hit_distribution
from conquest.rulesets.nerath.dungeons import place_guardian
from conquest.rulesets.nerath.income import collect_income, open_income_window
from conquest.rulesets.nerath.movement import move_actions, move_pieces, start_move
from conquest.rulesets.nerath.reinforce import buy, reinforce_actions
from conquest.rulesets.nerath.reposition import end_reposition, reposition_actions, restock
from conquest.rulesets.nerath.sea import debark, embark, sail
from conquest.rulesets.nerath.serial import GOLD_MAX, VP_MAX
from conquest.rulesets.nerath.state import CHANCE_STEPS, FLAGS, IX, MOVES, O1, O2, OWNER, SPACE, NerathData
from conquest.rulesets.nerath.victory import end_of_round


def _multiset_outcomes(verb: str, cards: list[str]) -> list[tuple[Action, float]]:
    """A draw from a shuffled pile whose order nobody knows: each distinct card with its share."""
    counts: dict[str, int] = {}
    for c in cards:
        counts[c] = counts.get(c, 0) + 1
    return [((verb, c), k / len(cards)) for c, k in sorted(counts.items())]


def legal_actions(st: NerathData) -> list[Action]:
    ph = st.phase
    if ph == "over":
        return []
    if st.to_move == CHANCE:
        return [a for a, _ in chance_outcomes(st)]
    if st.reaction is not None:
        return fx.reaction_plays(st, st.reaction.realms[0]) + [("pass",)]
    if ph == "move":
        return move_actions(st)
    if ph == "fight":
        return fight_actions(st)
    if ph == "reposition":
        return reposition_actions(st)
    if ph == "reinforce":
        return reinforce_actions(st)
    return []


def is_legal(st: NerathData, action: Any) -> bool:
    if not isinstance(action, tuple):
        return False
    return action in legal_actions(st)


def chance_outcomes(st: NerathData) -> list[tuple[Action, float]]:
    if st.phase in ("deal", "reposition") and st.dealing_guardians:
        return _multiset_outcomes("guardian", st.guardian_pile)
    if st.phase in ("draw", "deal"):
        return fx.draw_outcomes(st)
    bt = st.battle
    if st.phase != "fight" or bt is None or bt.step not in CHANCE_STEPS:
        return []
    step = bt.step
    if step == "split":
        a, b = bt.defenders[:2]
        return [(("extra", REALMS[a]), 0.5), (("extra", REALMS[b]), 0.5)]
    if step == "plunder":
        return _multiset_outcomes("treasure", st.treasure_deck)
    side = "a" if step in ("fs_a", "roll_a") else "d"
    dist = hit_distribution(battle_dice(st, side, step.startswith("fs")))
    return [(("hits", k), p) for k, p in enumerate(dist) if p > 0]


def start_turn(st: NerathData) -> None:
    r = st.realm
    st.ctrl_start = st.ctrl[:]
    ships = st.ships
    for sid in ships:   # each record copied (a clone shares them: ``base.own_ship``)
        ships[sid] = sh = ships[sid][:]
        if sh[OWNER] == r:
            sh[MOVES] = 0
            sh[FLAGS] = 0
        sh[O1] = sh[O2] = -1   # embarked origins are this turn's only; cargo stays aboard across turns
    st.pending = []
    st.placed = {}
    st.built = []
    st.battle = None
    fx.expire(st, "turn")
    st.phase = "draw"
    if not fx.draw_outcomes(st):
        start_move(st)


def end_turn(st: NerathData) -> None:
    collect_income(st)
    st.movable = {}
    if st.realm == R - 1:
        end_of_round(st)
        if st.phase == "over":
            return
        st.round += 1
        st.realm = 0
    else:
        st.realm += 1
    start_turn(st)


def apply_reaction(st: NerathData, action: Action) -> None:
    react = st.reaction
    assert react is not None
    realms = react.realms
    if action[0] == "play":
        fx.play_reaction(st, realms[0], action)
        if react.kind == "move":
            y, r = react.space, react.mover
            if y in st.pending and not any(st.pieces[(y * R + r) * N_TYPES:(y * R + r) * N_TYPES + N_TYPES]) and \
                    not any(sh[SPACE] == y and sh[OWNER] == r for sh in st.ships.values()):
                st.pending.remove(y)   # nothing of the mover is left there: no battle
    else:
        realms.pop(0)
    while realms and not fx.reaction_plays(st, realms[0]):
        realms.pop(0)
    if not realms:
        st.reaction = None
        if react.kind == "income":
            end_turn(st)


def _done_moving(st: NerathData, action: ActionArgs) -> None:
    st.phase = "fight"
    st.movable = {}


def _move(st: NerathData, action: ActionArgs) -> None:
    move_pieces(st, IX[action[1]], IX[action[2]], TYPE_INDEX[action[3]], action[4])


def _sail(st: NerathData, action: ActionArgs) -> None:
    sail(st, action[1], IX[action[2]])


def _embark(st: NerathData, action: ActionArgs) -> None:
    embark(st, IX[action[1]], action[2], TYPE_INDEX[action[3]])


def _debark(st: NerathData, action: ActionArgs) -> None:
    debark(st, action[1], IX[action[2]], TYPE_INDEX[action[3]])


def _done_repositioning(st: NerathData, action: ActionArgs) -> None:
    end_reposition(st)


def _done_reinforcing(st: NerathData, action: ActionArgs) -> None:
    if not open_income_window(st):
        end_turn(st)


# The decisions of each step of the TURN SEQUENCE with the procedure applying each; ``play`` (a card) is open in
# every step, and in Fight Battles a battle's own decisions (hit, press, retreat...) belong to ``battle.py``.
# ``reasons.illegal_reason`` names these verbs when an action is refused.
PHASE_VERBS: dict[str, dict[str, Callable[[NerathData, ActionArgs], None]]] = {
    "move": {"move": _move, "sail": _sail, "embark": _embark, "debark": _debark, "done": _done_moving},
    "fight": {"battle": apply_fight},
    "reposition": {"move": _move, "embark": _embark, "done": _done_repositioning},
    "reinforce": {"buy": buy, "move": _move, "sail": _sail, "debark": _debark, "done": _done_reinforcing},
}


def apply_action(st: NerathData, action: Any) -> None:
    verb = action[0]
    ph = st.phase
    if ph == "draw":
        fx.resolve_draw(st, action[1])
        start_move(st)
    elif ph == "deal":
        if verb == "guardian":
            place_guardian(st, st.dealing_guardians.pop(0), action[1])
            if not st.dealing_guardians and not st.dealing:
                start_turn(st)
        else:
            fx.resolve_deal(st, action[1])
            if not st.dealing:
                start_turn(st)
    elif ph == "reposition" and verb == "guardian":
        restock(st, action[1])
    elif st.reaction is not None:
        apply_reaction(st, action)
    elif verb == "play":
        bt = st.battle
        if bt is not None and bt.step == "window":
            realm = bt.window[0]
            fx.play(st, action, realm)
            verbs = {e[0]: e[1] for e in event_cards()[action[1]].get("effects", [])}
            if "reroll" in verbs:
                # "reroll": the roll is made again (a new chance node); its first result is void
                bt.rolled, bt.window, bt.step = 0, [], bt.window_step
            elif "cancel_hits" in verbs:
                q = bt.queue[0]
                q[1] -= min(q[1], verbs["cancel_hits"])
                if q[1] <= 0:
                    bt.queue.pop(0)
                    bt.hit_this_assignment = 0
                bt.window = []
                bt.step = "assign"
        else:
            fx.play(st, action)
    elif ph == "fight":
        apply_fight(st, action)   # a battle's decisions too
    else:
        do = PHASE_VERBS.get(ph, {}).get(verb)
        if do is not None:
            do(st, action)
    advance(st)


def apply(st: NerathData, action: Any) -> None:
    """Apply a legal action, then stop gold and victory points at the bounds a document is read with."""
    apply_action(st, action)
    keep_bounds(st)


def keep_bounds(st: NerathData) -> None:
    """Gold and victory points stop at the bounds a document is read with (``GOLD_MAX``, ``VP_MAX``; docs/rules/
    nerath.md, "Bounds of a state document"): no game comes near, and one that went past them would write a
    document its own loader refuses."""
    if max(st.gold) <= GOLD_MAX and max(st.vp) <= VP_MAX:
        return
    for r in range(R):
        if st.gold[r] > GOLD_MAX:
            st.gold[r] = GOLD_MAX
        if st.vp[r] > VP_MAX:
            st.vp[r] = VP_MAX
