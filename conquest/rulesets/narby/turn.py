"""The dispatcher of Narby Conquest (rules document 001, "Phases": "Cycle through 3 phases each round"): at
each decision or chance point (the state's ``node``, docs/rules/narby.md §6) which actions are legal, what
applying one does — handed to the section that the node belongs to — and why an action is refused. It also
takes the steps that join sections: a placement's or a treasure token's "then" (back to the setup, the turn
or the tribute) and the start of a new round after the tribute.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from conquest.rulesets.narby import board as B
from conquest.rulesets.narby.action_phase import (
    ACTION_KINDS,
    act,
    act_actions,
    act_refusal,
    answers,
    back_to_act,
    react,
    resolve_roll,
)
from conquest.rulesets.narby.base import CHANCE_NODES, COINS_MAX, D20, NEW_ROUND, PLACE0, TOKENS
from conquest.rulesets.narby.cards import play_procreator, play_tribute_card, procreator_choices, tribute_card_choices
from conquest.rulesets.narby.draw import card_outcomes, deal_card, start_round
from conquest.rulesets.narby.end import check_win_at_once
from conquest.rulesets.narby.populate import (
    choose_place,
    place_choices,
    place_settlement,
    procreator_window,
    roll_chest_x,
    roll_chest_y,
    roll_place,
    roll_place_x,
    roll_place_y,
    roll_settle_x,
    roll_settle_y,
    upgrade_choices,
    upgrade_town,
)
from conquest.rulesets.narby.setup import (
    choose_dragon,
    dragon_choices,
    dragon_placed,
    roll_cave_x,
    roll_cave_y,
    roll_dragon,
)
from conquest.rulesets.narby.state import NarbyData, put_piece, seat_label
from conquest.rulesets.narby.tables import TABLES as T
from conquest.rulesets.narby.tribute import lose_choices, lose_claim, next_tribute, roll_tribute, treasure_token


# ==================================================================== what is legal
def _react_choices(s: NarbyData) -> list[Any]:
    return [("pass",)] + answers(s, s.who)


def _place_choices(s: NarbyData) -> list[Any]:
    return [("place", q) for q in s.place_options()]


def _chance_choices(s: NarbyData) -> list[Any]:
    return [a for a, _ in chance_outcomes(s)]


# the decision nodes (docs/rules/narby.md §6) -> their choices, and every chance node -> its outcomes
LEGAL: dict[str, Callable[[NarbyData], Sequence[Any]]] = {
    "act": act_actions, "react": _react_choices, "place": _place_choices, "dragon_select": dragon_choices,
    "procreator": procreator_choices, "upgrade": upgrade_choices, "pop_choose": place_choices,
    "tribute_card": tribute_card_choices, "lose": lose_choices, **dict.fromkeys(CHANCE_NODES, _chance_choices),
}


def legal_actions(s: NarbyData) -> Sequence[Any]:
    choices = LEGAL.get(s.node)
    return choices(s) if choices is not None else []


def chance_outcomes(s: NarbyData) -> list[tuple[Any, float]]:
    node = s.node
    if node not in CHANCE_NODES:
        return []
    if node == "draw":
        return card_outcomes(s)
    if node == "token":
        return list(TOKENS)
    return list(D20)


# ==================================================================== applying one
def _roll(s: NarbyData, action: Any) -> None:
    assert s.ev is not None
    if s.ev["type"] == "tribute":
        roll_tribute(s, action)
    else:
        resolve_roll(s, action)


def _token(s: NarbyData, action: Any) -> None:
    assert s.ev is not None
    then = s.ev["then"]
    if treasure_token(s, action):
        if then == "act":
            back_to_act(s)
        else:
            next_tribute(s)


def _place(s: NarbyData, action: Any) -> None:
    assert s.ev is not None
    then = s.ev["then"]
    put_piece(s, action[1])
    if then == "setup":
        dragon_placed(s)
    else:
        back_to_act(s)


def _select_dragon(s: NarbyData, action: Any) -> None:
    choose_dragon(s, T.dragon_index[action[1]])


def _procreator(s: NarbyData, action: Any) -> None:
    if action[0] == "play":
        play_procreator(s, action)
        place_settlement(s)  # the one Pro-creator is spent: the window closes
    else:
        procreator_window(s, s.who)


def _upgrade(s: NarbyData, action: Any) -> None:
    upgrade_town(s, action[1])


def _choose_place(s: NarbyData, action: Any) -> None:
    choose_place(s, action[1])


def _tribute_card(s: NarbyData, action: Any) -> None:
    if action[0] == "play":
        play_tribute_card(s, action[1])
    s.node = "roll"


def _lose(s: NarbyData, action: Any) -> None:
    lose_claim(s, action[1])


APPLY: dict[str, Callable[[NarbyData, Any], None]] = {
    # setup
    "dragon_roll": roll_dragon, "dragon_select": _select_dragon, "cave_x": roll_cave_x, "cave_y": roll_cave_y,
    "place": _place,
    # draw
    "draw": deal_card,
    # populate
    "settle_x": roll_settle_x, "settle_y": roll_settle_y, "procreator": _procreator, "upgrade": _upgrade,
    "pop_roll": roll_place, "pop_choose": _choose_place, "pop_x": roll_place_x, "pop_y": roll_place_y,
    "chest_x": roll_chest_x, "chest_y": roll_chest_y,
    # action
    "act": act, "react": react, "roll": _roll, "token": _token,
    # tribute
    "tribute_card": _tribute_card, "lose": _lose,
}


def apply(s: NarbyData, action: Any) -> None:
    """Apply a legal action in place: the section of the node does it; with option ``win_check`` =
    ``at_once`` a dragon past the win amount ends the game there; a round whose tribute is over
    (``end.end_of_round``) is followed by the next one here."""
    APPLY[s.node](s, action)
    # coins stop at the bound a document is read with (no game comes near: the win amount is at most 100)
    if s.chest_coins > COINS_MAX or max(s.coins) > COINS_MAX:
        s.chest_coins = min(s.chest_coins, COINS_MAX)
        s.coins = [min(c, COINS_MAX) for c in s.coins]
    check_win_at_once(s)
    if s.node == NEW_ROUND:
        start_round(s)


# ==================================================================== why one is refused
def _chance_name(node: str) -> str:
    return {"draw": "a card dealt: card ID", "token": "a treasure token: token N"}.get(node, "a d20: roll N")


def illegal_reason(s: NarbyData, action: Any) -> str:
    node = s.node
    if node == "over":
        return "the game is over"
    kind = action[0] if isinstance(action, tuple) and action else None
    if node in CHANCE_NODES:
        return f"the game waits for a chance outcome ({_chance_name(node)})"
    if (kind in ("claim", "destroy", "abandon", "lose") and len(action) == 2 and isinstance(action[1], int)
            and 0 <= action[1] < B.SQUARES and s.occ[action[1]] >= PLACE0):
        pid = T.place_ids[s.occ[action[1]] - PLACE0]
        return f"{B.sq_text(action[1])} is part of a place of power: name it, '{kind} {pid}'"
    if node == "act":
        if kind in ACTION_KINDS and s.acts < 1:
            return "the dragon has no actions left this turn (\"Each turn a Dragon has 3 actions\")"
        why = act_refusal(s, action)
        if why:
            return why
        return f"it is {seat_label(s, s.who)}'s turn to act"
    if node == "place" and kind == "place" and s.ev is not None:
        ev = s.ev
        what = ("Baba Yaga's Hut" if ev["piece"] == "hut" else "the thief's chest" if ev["piece"] == "chest"
                else f"the {s.dragon_id(ev['dragon'])} dragon")
        where = {"home": "a free 2x2 place adjacent to its home cave", "claims": "a free 2x2 place adjacent "
                 "to one of its claims", "near": f"a free place at most {ev['range']} spaces away"}[ev["mode"]]
        return f"{what} must go to {where}: 'place x,y' among the legal actions"
    return f"it is not among the legal actions at this point ({node}, {seat_label(s, s.who)})"
