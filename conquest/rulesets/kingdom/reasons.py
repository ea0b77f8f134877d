"""Why an action is refused (rules document ``002``): the sentence of the rules it breaks, or what the game
waits for, by the step the state is at. Called only for an action that is not legal (``turn.legal_cached``
decides legality); each refusal names the rule in the document's words."""

from __future__ import annotations

from typing import Any

from conquest.rulesets.kingdom.base import COLORS, CONQUEST, INCOME, MAX_SOLDIER_ENTRY, MOVE, OVER, VACATE
from conquest.rulesets.kingdom.bonus import has_effect
from conquest.rulesets.kingdom.move import move_sources_for
from conquest.rulesets.kingdom.state import KingdomData


def illegal_reason(s: KingdomData, action: Any) -> str:
    """Why ``action`` is refused now, naming the rule it breaks."""
    # Long because: one refusal per rule of the Conquest phase, in the order of a turn (income, recruit, move
    # and its steps, stop); each branch names the rule it checks.
    phase = s.phase
    word = action[0] if isinstance(action, tuple) and action else None
    b = s.board
    me = s.current
    if phase == OVER:
        return "the game is over"
    if phase == INCOME:
        if s.companion():
            return (f"the Conquest phase of round {s.round} starts when {COLORS[me]} enters their "
                    f"Soldier tokens ('soldiers N', N from 0 to {MAX_SOLDIER_ENTRY})")
        return f"the Soldier income die is rolled now ('roll 1' to 'roll {s.options['soldier_die']}')"
    if phase == CONQUEST:
        if word == "recruit":
            n = action[1]
            if s.reserve[me] == 0:
                return "You cannot recruit if all of your armies are already on the board."
            if n < 1:
                return "recruit at least 1 army"
            if n > s.soldiers[me]:
                return (f"Spend 1 Soldier token per army you wish to recruit: {COLORS[me]} has "
                        f"{s.soldiers[me]} Soldier tokens")
            if n > s.reserve[me]:
                return f"only {s.reserve[me]} armies are left in {COLORS[me]}'s reserve"
        if word == "move":
            t = b.index.get(action[1], -1)
            if t < 0:
                return f"there is no territory '{action[1]}' on side {b.side.upper()}"
            if t == b.castles[1 - me]:
                return "You cannot move your Army pawns onto your opponent's castle."
            if s.soldiers[me] == 0:
                return "Spend 1 Soldier token per army you wish to move: you have none"
            srcs = move_sources_for(s, t, me)
            if not srcs:
                # armies two territories away: say why they cannot come (no Double move, or only through enemy
                # territories) rather than only that none is adjacent
                far = [x for m in sorted(b.adjacent[t]) for x in sorted(b.adjacent[m])
                       if x != t and s.armies[2 * x + me] > 0]
                if far:
                    return not_a_source(s, far[0], t)
                return f"none of your territories with armies is adjacent to {b.names[t]}"
            need = s.enemy_armies(t, me)
            if s.soldiers[me] <= need < sum(s.armies[2 * x + me] for x in srcs):
                return too_few_soldiers(s, t, need)
            return ("You can only move into the territory if the number of armies you move into it is "
                    f"greater than the number of enemy armies already there ({need})")
        if word in ("from", "go", "vacate", "place"):
            return "start a Move Armies action first ('move TERRITORY')"
        return "on your turn you Recruit armies, Move armies or Stop your conquest"
    if phase == MOVE:
        dest = s.move_to
        need = s.enemy_armies(dest, me)
        if word == "go" and not s.move_from:
            return "choose the armies that move first ('from TERRITORY N')"
        if word == "go":
            return ("You can only move into the territory if the number of armies you move into it is "
                    f"greater than the number of enemy armies already there ({need}); moving "
                    f"{s.moved_total()} so far")
        if word == "from":
            t = b.index.get(action[1], -1)
            if t < 0:
                return f"there is no territory '{action[1]}'"
            if t not in s.move_sources:
                return not_a_source(s, t, dest)
            if any(x == t for x, _ in s.move_from):
                return f"armies from {action[1]} were already chosen for this move"
            if action[2] > s.armies[2 * t + me]:
                return f"{COLORS[me]} has only {armies(s.armies[2 * t + me])} in {action[1]}"
            if action[2] > s.soldiers[me] - s.moved_total():
                return "Spend 1 Soldier token per army you wish to move: not enough Soldier tokens left"
            if s.soldiers[me] <= need:
                return too_few_soldiers(s, dest, need)
            return ("that would leave too few armies to outnumber the "
                    f"{enemy(need)} in {b.names[dest]}")
        return f"finish the move into {b.names[dest]}: 'from TERRITORY N' or 'go'"
    _, t, _ = s.tasks[0]
    if phase == VACATE:
        return (f"choose which of your bonus locations in {b.names[t]} loses its pawn "
                f"('vacate {b.names[t]}.K', one you occupy)")
    return (f"choose a free bonus location in {b.names[t]} for your army "
            f"('place {b.names[t]}.K', one that is free)")


def too_few_soldiers(s: KingdomData, dest: int, need: int) -> str:
    me = s.current
    return (f"Spend 1 Soldier token per army you wish to move: moving more than the {enemy(need)} in "
            f"{s.board.names[dest]} takes {need + 1} Soldier tokens and {COLORS[me]} has "
            f"{s.soldiers[me]}")


def armies(n: int) -> str:
    return f"{n} army" if n == 1 else f"{n} armies"


def enemy(n: int) -> str:
    return f"{n} enemy army" if n == 1 else f"{n} enemy armies"


def not_a_source(s: KingdomData, t: int, dest: int) -> str:
    """Why territory ``t`` cannot send armies into ``dest``: no armies there, too far, or (with Double
    move) every territory between is the enemy's, or empty when ``double_move_via`` is ``own``."""
    b = s.board
    me = s.current
    name, dname = b.names[t], b.names[dest]
    if t == dest:
        return f"{name} is the destination of this move: the armies come from the territories around it"
    if s.armies[2 * t + me] == 0:
        return f"{COLORS[me]} has no armies in {name}"
    if dest in b.adjacent[t]:  # pragma: no cover - an adjacent territory with armies is always a source
        return f"{name} cannot send armies into {dname}"
    between = [m for m in b.adjacent[dest] if t in b.adjacent[m]]
    if not between:
        return f"{name} is not adjacent to {dname}" + (
            " (nor adjacent to a territory adjacent to it, as Double move allows)"
            if has_effect(s, me, "double_move") else "")
    if not has_effect(s, me, "double_move"):
        return (f"{name} is not adjacent to {dname}; moving 2 territories at once (through "
                f"{' or '.join(b.names[m] for m in between)}) needs the Double move bonus effect")
    why = []
    for m in between:
        holder = s.controller(m)
        why.append(f"{b.names[m]} is {COLORS[holder]}'s" if holder >= 0 else
                   f"{b.names[m]} is empty (option double_move_via is 'own': only your own territories)")
    return (f"{name} is 2 territories from {dname}, but Double move armies move 2 territories at once only "
            f"\"as long as they do not move through enemy territories\": " + "; ".join(why))
