"""The Conquest module's state class (rules document ``002``): ``KingdomState`` is the data of a position
(``state.KingdomData``) with the game's procedures bound to it under the names they have always had — the
dispatcher ``turn`` (legal actions, chance outcomes, applying an action), the refusals ``reasons``, the end
``end`` (scores, result) and the JSON ``serial``. The procedures themselves are in one module per section of
the document, in its order: ``setup`` (SETUP), ``phases`` (MODIFICATIONS TO THE GAME PHASES),
``conquest_phase`` (CONQUEST PHASE), ``recruit`` (Recruit Armies), ``move`` (Move Armies), ``stop`` (Stop Your
Conquest), ``bonus`` (BONUS EFFECTS), ``end`` (END OF THE GAME); docs/architecture.md, "kingdom package layout".

Quotes in docstrings are from the rules document. Readings of unclear sentences are explained in
``docs/rules/kingdom.md``.
"""

from __future__ import annotations

from typing import Any, ClassVar

from conquest.core.game import Ruleset
from conquest.rulesets.kingdom import (
    bonus,
    coherence,
    end,
    move,
    phases,
    reasons,
    recruit as _recruit,
    serial,
    setup as _setup,
    stop,
    turn,
)
from conquest.rulesets.kingdom.base import (
    ARMIES_PER_PLAYER,
    COLORS,
    CONQUEST,
    INCOME,
    MAX_SOLDIER_ENTRY,
    MOVE,
    OVER,
    PHASES,
    PLACE,
    VACATE,
    economy,
)
from conquest.rulesets.kingdom.serial import KingdomBody
from conquest.rulesets.kingdom.state import KingdomData

# the names this module has always offered (the constants now live in ``base``)
__all__ = ["ARMIES_PER_PLAYER", "COLORS", "CONQUEST", "INCOME", "MAX_SOLDIER_ENTRY", "MOVE", "OVER", "PHASES",
           "PLACE", "VACATE", "KingdomState", "economy"]


class KingdomState(KingdomData):
    ruleset: ClassVar[Ruleset]
    schema = KingdomBody
    __slots__ = ()

    # the game interface (``core.game.State``)
    legal_actions = turn.legal_actions
    is_legal = turn.is_legal
    chance_outcomes = turn.chance_outcomes
    illegal_reason = reasons.illegal_reason
    _apply = turn.apply
    result = end.result
    scores = end.scores
    _body_json = serial.DOCUMENT.write
    body_is_fresh = True
    check_coherence = coherence.check_coherence

    @classmethod
    def setup(cls, options: dict[str, Any]) -> KingdomState:
        return _setup.setup(cls, options)

    @classmethod
    def _from_body(cls, data: dict[str, Any], players: int, options: dict[str, Any]) -> KingdomState:
        return serial.from_body(cls, data, players, options)

    # the rulebook's procedures and queries, by section (for code outside the package; inside it, the
    # sections call one another's functions)
    production = phases.production
    production_points = phases.production_points
    recruit = _recruit.recruit
    move_sources_for = move.move_sources_for
    move_capacity = move.move_capacity
    choose_destination = move.choose_destination
    move_armies = move.move_armies
    stop_conquest = stop.stop_conquest
    has_effect = bonus.has_effect
    count_locations = bonus.count_locations
    tokens = bonus.tokens
    territory_vp = end.territory_vp
    final_scores = end.final_scores
