"""The dispatcher of the Conquest module (rules document ``002``): the legal actions of a state, the chance
outcomes, and applying an action, by the step the state is at (``base.PHASES``). The procedures are the
sections' modules: ``phases`` (the Soldier income), ``recruit``, ``move``, ``stop``; why an action is refused
is ``reasons``."""

from __future__ import annotations

from typing import Any

from conquest.core.game import CHANCE
from conquest.core.kinds import Action, ActionArgs
from conquest.rulesets.kingdom.base import CONQUEST, INCOME, MAX_SOLDIER_ENTRY, MOVE, OVER, PLACE, VACATE
from conquest.rulesets.kingdom.move import (
    choose_destination,
    destinations,
    location_choices,
    move_armies,
    move_choices,
    place,
    vacate,
)
from conquest.rulesets.kingdom.phases import income
from conquest.rulesets.kingdom.recruit import recruit, recruit_choices
from conquest.rulesets.kingdom.state import KingdomData
from conquest.rulesets.kingdom.stop import stop_conquest


def legal_actions(s: KingdomData) -> list[Action]:
    """A new list each call: the state keeps its own (cached) copy, which a caller cannot reach."""
    return list(legal_cached(s))


def is_legal(s: KingdomData, action: Any) -> bool:
    return action in legal_cached(s)


def legal_cached(s: KingdomData) -> tuple[Action, ...]:
    if s._legal is not None:
        return s._legal
    acts: list[Action] = []
    phase = s.phase
    me = s.current
    if phase == OVER:
        pass
    elif phase == INCOME:
        if s.companion():
            acts = [("soldiers", n) for n in range(MAX_SOLDIER_ENTRY + 1)]
        else:
            acts = [("roll", k) for k in range(1, s.options["soldier_die"] + 1)]
    elif phase == CONQUEST:
        # "On your turn, you do one of the following: Recruit armies, Move armies, Stop your conquest"
        acts = recruit_choices(s, me)
        acts.extend(destinations(s, me))
        acts.append(("stop",))
    elif phase == MOVE:
        acts = move_choices(s, me)
    elif phase in (VACATE, PLACE):
        acts = location_choices(s, me)
    s._legal = tuple(acts)
    return s._legal


def chance_outcomes(s: KingdomData) -> list[tuple[Action, float]]:
    if s.to_move != CHANCE:
        return []
    acts = legal_cached(s)
    p = 1.0 / len(acts)
    return [(a, p) for a in acts]


def apply(s: KingdomData, action: ActionArgs) -> None:
    word = action[0]
    if word == "roll":
        income(s, s.options["soldier_base"] + action[1])
    elif word == "soldiers":
        # companion: the player enters the Soldier tokens in front of them, which replace the count
        s.soldiers[s.current] = 0
        income(s, action[1])
    elif word == "recruit":
        recruit(s, action[1])
    elif word == "move":
        choose_destination(s, s.board.index[action[1]])
    elif word == "from":
        s.move_from = s.move_from + ((s.board.index[action[1]], action[2]),)
    elif word == "go":
        move_armies(s)
    elif word == "vacate":
        vacate(s, s.board.loc_index[action[1]])
    elif word == "place":
        place(s, s.board.loc_index[action[1]])
    elif word == "stop":
        stop_conquest(s)
    else:  # pragma: no cover - parse_action admits nothing else
        raise ValueError(word)
    s._legal = None
