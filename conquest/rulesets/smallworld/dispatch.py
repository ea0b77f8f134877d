"""The dispatcher by phase: which actions are legal (``LEGAL``), the chance outcomes (``CHANCE``) and what
applying one does (``MOVES``: phase -> verb -> the step's function). The steps' verbs are listed here; the
races' and powers' own verbs (Berserk's roll, the Dragon, markers, the Sorcerers' conversion) come from their
entries (``moves`` in races.py and powers.py). ``messages.py`` reads the same table for the step an action
belongs to."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from conquest.core.kinds import Action, ActionArgs
from conquest.rulesets.smallworld import combo, conquest, decline, redeployment, turn
from conquest.rulesets.smallworld.common import (
    CONQUER,
    DEFEND,
    DIE,
    DIPLOMACY,
    DRAW_POWER,
    DRAW_RACE,
    PICK,
    REDEPLOY,
    REGION_ACTIONS,
    RIDX,
    STOUT_CHOICE,
)
from conquest.rulesets.smallworld.powers import POWER_RULES, Power
from conquest.rulesets.smallworld.races import RACE_RULES, Race

if TYPE_CHECKING:
    from conquest.rulesets.smallworld.state import SmallWorldState

Move = Callable[["SmallWorldState", ActionArgs], None]

CHANCE: dict[int, Callable[[SmallWorldState], list[tuple[Action, float]]]] = {
    DRAW_RACE: combo.race_outcomes, DRAW_POWER: combo.power_outcomes, DIE: conquest.die_outcomes,
}


def _outcomes(st: SmallWorldState) -> list[Action]:
    return [a for a, _ in CHANCE[st.phase](st)]


LEGAL: dict[int, Callable[[SmallWorldState], list[Action]]] = {
    CONQUER: conquest.conquer_actions, REDEPLOY: redeployment.redeploy_actions, DEFEND: turn.defend_actions,
    PICK: combo.pick_actions, STOUT_CHOICE: turn.stout_actions, DIPLOMACY: turn.peace_actions,
    **dict.fromkeys(CHANCE, _outcomes),
}

MOVES: dict[int, dict[str, Move]] = {
    DRAW_RACE: {"race": combo.race_drawn_move},
    DRAW_POWER: {"power": combo.power_drawn_move},
    PICK: {"pick": combo.pick_move},
    CONQUER: {"conquer": conquest.conquer_move, "final": conquest.final_move, "abandon": conquest.abandon_move,
              "decline": decline.decline_move, "end": conquest.end_move},
    DIE: {"die": conquest.die_move},
    REDEPLOY: {"redeploy": redeployment.redeploy_move, "end": redeployment.end_move},
    STOUT_CHOICE: {"decline": decline.stout_decline_move, "end": turn.stout_end_move},
    DIPLOMACY: {},
    DEFEND: {"redeploy": turn.defender_redeploy_move},
}
_ENTRIES: tuple[Race | Power, ...] = (*RACE_RULES, *POWER_RULES)
for _entry in _ENTRIES:
    for (_phase, _verb), _name in _entry.moves.items():
        assert _verb not in MOVES[_phase], f"{_verb} is declared twice for one phase"
        MOVES[_phase][_verb] = getattr(_entry, _name)

#: verb -> the phases it is played in (the players' verbs: chance outcomes left out)
PHASES_OF: dict[str, tuple[int, ...]] = {}
for _phase, _verbs in MOVES.items():
    if _phase not in CHANCE:
        for _verb in _verbs:
            PHASES_OF[_verb] = (*PHASES_OF.get(_verb, ()), _phase)


def legal_actions(st: SmallWorldState) -> list[Action]:
    f = LEGAL.get(st.phase)
    return f(st) if f is not None else []


def chance_outcomes(st: SmallWorldState) -> list[tuple[Action, float]]:
    f = CHANCE.get(st.phase)
    return f(st) if f is not None else []


def apply(st: SmallWorldState, action: Any) -> None:
    """Apply a legal action in place (the checked ``apply`` of ``core.game.State`` calls this)."""
    kind = action[0]
    if kind in REGION_ACTIONS:
        action = (kind, RIDX[action[1]]) + action[2:]
    MOVES[st.phase][kind](st, action)
