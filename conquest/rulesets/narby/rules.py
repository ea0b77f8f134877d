"""Narby Conquest's state class (rules document 001): ``NarbyState`` is the data of a position
(``state.NarbyData``) with the game's procedures bound to it — the dispatcher ``turn`` (legal actions, their
effect, refusals), the end ``end`` (result, scores), the JSON ``serial`` and the view ``view``. The procedures
themselves are in one module per section of the document, in its order: ``setup``, ``draw``, ``populate``,
``places``, ``action_phase``, ``actions``, ``charts``, ``tribute``, ``cards``, ``end`` (docs/architecture.md,
"narby package layout").
"""

from __future__ import annotations

from typing import Any

from conquest.rulesets.narby import coherence, end, serial, turn, view as _view
from conquest.rulesets.narby.base import (
    BABA,
    BONUS_KEYS,
    CAVE0,
    CHANCE_NODES,
    CHEST,
    CITY,
    COPPER,
    D20,
    DECISION_NODES,
    DRAGON0,
    EMPTY,
    GOLD,
    KIND_CODE,
    KIND_NAME,
    NO_DESTROY,
    PHASES,
    PIDX,
    PLACE0,
    RESTING,
    RUIN,
    TOKENS,
    TOWN,
    UNDEAD,
    key_parse,
    key_text,
)
from conquest.rulesets.narby.serial import NarbyBody
from conquest.rulesets.narby.state import NarbyData, seat_label

# the names this module has always offered (the constants now live in ``base``)
__all__ = ["NarbyState", "seat_label", "key_text", "key_parse", "EMPTY",
           "TOWN", "CITY", "RUIN", "CHEST", "CAVE0", "DRAGON0", "PLACE0", "KIND_NAME", "KIND_CODE", "D20",
           "TOKENS", "CHANCE_NODES", "DECISION_NODES", "PHASES", "PIDX", "RESTING", "BABA", "GOLD", "COPPER",
           "UNDEAD", "NO_DESTROY", "BONUS_KEYS"]


class NarbyState(NarbyData):
    __slots__ = ()
    schema = NarbyBody

    legal_actions = turn.legal_actions
    chance_outcomes = turn.chance_outcomes
    illegal_reason = turn.illegal_reason
    _apply = turn.apply
    result = end.result
    winners = end.winners
    scores = end.scores
    view = _view.view
    _body_json = serial.body_json
    check_coherence = coherence.check_coherence
    body_is_fresh = True

    @classmethod
    def _from_body(cls, data: dict[str, Any], players: int, options: dict[str, Any]) -> NarbyState:
        return serial.from_body(cls, data, players, options)
