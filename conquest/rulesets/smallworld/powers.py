"""The 20 special powers, one entry each: the badge (name, tokens and text come from powers.yaml, which
stays the data) and the power's effects as hooks the turn's steps call. A power acts only while its race is
active, except where the entry says otherwise (Seafaring, Spirit). To add a power: a row in powers.yaml, and
a subclass here registered with ``@power("its-id")`` that overrides the hooks its badge speaks of.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, ClassVar

import conquest.rulesets.smallworld.data as D
from conquest.core.errors import StateFormatError
from conquest.core.keys import check_seat
from conquest.core.kinds import Action, ActionArgs
from conquest.rulesets.smallworld.common import (
    CONQUER,
    DEFEND,
    DIE,
    DIPLOMACY,
    MAX_CAMPS,
    MAX_FORTS,
    MAX_HEROES,
    REDEPLOY,
    RID,
    Own,
    marker,
    per_game,
    per_turn,
)

if TYPE_CHECKING:
    from conquest.rulesets.smallworld.state import SmallWorldState


class Power:
    """A power's badge and its hooks (``s`` is the state)."""

    #: conquers any region, adjacent or not
    reaches_anywhere = False
    #: may conquer the seas and the lake (kept in decline)
    sails = False
    #: rolls the reinforcement die before each conquest (and so has no final conquest)
    rolls_before_conquest = False
    #: once per turn conquers a region with one token and the Dragon
    dragon = False
    #: places markers during redeployment (see ``marker_actions``)
    places_markers = False
    #: its Encampments lost with a region are placed again by their owner at the end of the attacker's turn
    replaces_lost_camps = False
    #: may go into decline at the end of a normal turn, after scoring
    declines_after_scoring = False
    #: names an opponent at the end of the turn that may not attack it on its next turn
    makes_peace = False
    #: in decline never removed, and not counted toward the one-declined-race limit
    spirit = False

    #: the power's own actions: (phase, verb) -> the name of its method ``(s, action)`` that applies it (region
    #: actions carry the region's index); ``dispatch.MOVES`` gathers them
    moves: ClassVar[dict[tuple[int, str], str]] = {}
    #: the state fields the power owns, by name: their copy policy, start and effects (owned.py builds the
    #: state's slots and the common steps' share of them from these)
    fields: ClassVar[dict[str, Own]] = {}

    def __init__(self, index: int) -> None:
        self.index = index
        if index < 0:  # no power (a declined race's badge does nothing)
            self.id, self.name, self.badge, self.text = "", "", 0, ""
            return
        row = D.POWERS[index]
        self.id = row["id"]
        self.name = row["name"]
        self.badge = row["badge"]
        self.text = row.get("text", "")

    # ---- conquest (003) ---------------------------------------------------------------------------
    def cost_discount(self, s: SmallWorldState, r: int) -> int:
        """Tokens less to conquer region ``r``."""
        return 0

    def extend_reach(self, s: SmallWorldState, own: list[int], cand: set[int]) -> None:
        """Regions a following conquest may reach besides those adjacent to ``own``."""

    # ---- redeployment -----------------------------------------------------------------------------
    def on_redeployment(self, s: SmallWorldState) -> None:
        """Troop redeployment begins."""

    def marker_actions(self, s: SmallWorldState, own: list[int]) -> list[Action]:
        """Markers that may be placed in the race's regions ``own`` during redeployment."""
        return []

    # ---- scoring (scoring.py, and the evaluation and coverage read the same hooks) ---------------------
    #: when ``turn_coins`` come: "every turn", "this turn" (what the turn's conquests bring) or "once"
    turn_coins_when = "every turn"

    def region_coins(self, s: SmallWorldState, r: int) -> int:
        """Bonus coins for region ``r`` of the active race, at its owner's scoring."""
        return 0

    def turn_coins(self, s: SmallWorldState) -> int:
        """Bonus coins at the active race's owner's scoring that are not counted per region."""
        return 0

    # ---- what the power's own fields do in every seat's turn (called whichever race holds the power) ----
    def sheltered_seat(self, s: SmallWorldState, seat: int) -> int:
        """The seat whose active race ``seat`` may neither attack nor convert this turn, or -1."""
        return -1

    def on_region_lost(self, s: SmallWorldState, r: int, seat: int) -> None:
        """Region ``r`` of a race of ``seat`` is conquered, before its markers leave."""

    def on_turn_over(self, s: SmallWorldState, seat: int) -> None:
        """The turn of ``seat`` is over, before the next seat's."""

    # ---- a state read (coherence.py) ----------------------------------------------------------------
    def check_fields(self, s: SmallWorldState) -> None:
        """Refuse (``StateFormatError`` naming the field) what the power's own ``fields`` cannot hold."""


def in_box(have: list[int], most: int, key: str) -> None:
    """A marker's count on the board within its number in the box (``regions/KEY`` refused otherwise)."""
    if sum(have) > most:
        raise StateFormatError(f"regions/{key}", f"{sum(have)} {key} markers on the board; the box holds {most}")


_REGISTRY: dict[str, type[Power]] = {}


def power(pid: str) -> Callable[[type[Power]], type[Power]]:
    def register(cls: type[Power]) -> type[Power]:
        if pid not in D.POWER_INDEX:
            raise ValueError(f"power '{pid}' is not in powers.yaml")
        _REGISTRY[pid] = cls
        return cls
    return register


def _terrain_coins(s: SmallWorldState, r: int, terrain: int) -> int:
    return 1 if s.board.terrain[r] == terrain else 0


# ---- the powers, in the order of powers.yaml -----------------------------------------------------------
@power("alchemist")
class Alchemist(Power):
    """+2 coins at the end of each turn while active."""

    def turn_coins(self, s: SmallWorldState) -> int:
        return int(D.SETUP["alchemist_coins"])


@power("berserk")
class Berserk(Power):
    """Roll the reinforcement die before each conquest, then conquer with its help."""
    rolls_before_conquest = True
    moves = {(CONQUER, "berserk"): "roll_first"}
    fields = {"berserk_die": per_turn(-1)}  # the die rolled before the next conquest (-1: none)

    def roll_first(self, s: SmallWorldState, a: ActionArgs) -> None:
        s.ready_troops()
        s.acted = True
        s.phase = DIE


@power("bivouacking")
class Bivouacking(Power):
    """5 Encampments (+1 defence each), placed and moved at redeployment."""
    places_markers = True
    replaces_lost_camps = True
    moves = {(REDEPLOY, "camp"): "place_camp", (DEFEND, "camp"): "replace_camp"}
    #: the Encampments, and those lost with a region this turn, to be placed again by their owner
    fields = {"camp": marker(defends=True, decline_clears=True), "camps_loose": per_turn(0)}

    def place_camp(self, s: SmallWorldState, a: ActionArgs) -> None:
        s.camp[a[1]] += 1

    def replace_camp(self, s: SmallWorldState, a: ActionArgs) -> None:
        """An Encampment lost with a region is placed again by its owner at the end of the attacker's turn."""
        s.camp[a[1]] += 1
        s.camps_loose -= 1
        if s.rhand[s.cur] == 0 and not s.camps_loose:
            s.next_defender()

    def on_redeployment(self, s: SmallWorldState) -> None:
        s.camp = [0] * len(s.camp)

    def on_region_lost(self, s: SmallWorldState, r: int, seat: int) -> None:
        if s.camp[r] and seat != s.seat:
            # Encampments are not lost with the region: their owner places them again at the end of the
            # attacker's turn. When the attacker took them from its own race (declined Ghouls conquering
            # the seat's active Bivouacking race), they go back to the race's stock at once: their owner is
            # the player whose turn it is and places them in its own redeployment (at most 5 in all).
            s.camps_loose += s.camp[r]

    def marker_actions(self, s: SmallWorldState, own: list[int]) -> list[Action]:
        if sum(s.camp) < MAX_CAMPS:
            return [("camp", RID[r]) for r in own]
        return []

    def check_fields(self, s: SmallWorldState) -> None:
        in_box(s.camp, MAX_CAMPS, "encampments")
        if sum(s.camp) + s.camps_loose > MAX_CAMPS:
            raise StateFormatError("turn_state/loose_encampments", f"more encampments than the {MAX_CAMPS} of "
                                                                   "the box")


@power("commando")
class Commando(Power):
    """-1 token to conquer any region."""

    def cost_discount(self, s: SmallWorldState, r: int) -> int:
        return 1


@power("diplomat")
class Diplomat(Power):
    """At the end of the turn, an opponent not attacked this turn may not attack your active race on its
    next turn."""
    makes_peace = True
    moves = {(DIPLOMACY, "peace"): "make_peace"}
    fields = {"peace_by": per_game(-1), "peace_to": per_game(-1)}  # the peace made: its Diplomat, its opponent

    def make_peace(self, s: SmallWorldState, a: ActionArgs) -> None:
        s.peace_by = s.seat
        s.peace_to = a[1]
        s.begin_defenders()

    def sheltered_seat(self, s: SmallWorldState, seat: int) -> int:
        return s.peace_by if s.peace_to == seat else -1

    def on_turn_over(self, s: SmallWorldState, seat: int) -> None:
        if s.peace_to == seat:  # the Diplomat's protection lasted one turn of the chosen opponent
            s.peace_by = s.peace_to = -1

    def check_fields(self, s: SmallWorldState) -> None:
        if s.peace_by >= 0:
            check_seat(s.players, s.peace_by, "peace/diplomat")
            check_seat(s.players, s.peace_to, "peace/opponent")


@power("dragon-master")
class DragonMaster(Power):
    """Once per turn conquer a region with 1 token; the Dragon makes it immune."""
    dragon = True
    moves = {(CONQUER, "dragon"): "dragon_attack"}
    fields = {"dragon": marker(immune=True, decline_clears=True), "dragon_used": per_turn(False)}

    def dragon_attack(self, s: SmallWorldState, a: ActionArgs) -> None:
        s.ready_troops()
        r = a[1]
        s.dragon = [0] * len(s.dragon)
        s.conquer(r, 1)
        s.dragon[r] = 1
        s.dragon_used = True

    def check_fields(self, s: SmallWorldState) -> None:
        in_box(s.dragon, 1, "dragon")


@power("flying")
class Flying(Power):
    """Conquer any land region, adjacent or not."""
    reaches_anywhere = True


@power("forest")
class Forest(Power):
    """+1 coin per Forest region occupied."""

    def region_coins(self, s: SmallWorldState, r: int) -> int:
        return _terrain_coins(s, r, D.FOREST_T)


@power("fortified")
class Fortified(Power):
    """1 Fortress per turn (6 at most on the map): +1 defence, +1 coin each while active."""
    places_markers = True
    moves = {(REDEPLOY, "fortress"): "place_fortress"}
    fields = {"fort": marker(defends=True), "fort_placed": per_turn(False)}

    def place_fortress(self, s: SmallWorldState, a: ActionArgs) -> None:
        s.fort[a[1]] = 1
        s.fort_placed = True

    def check_fields(self, s: SmallWorldState) -> None:
        in_box(s.fort, MAX_FORTS, "fortress")

    def marker_actions(self, s: SmallWorldState, own: list[int]) -> list[Action]:
        if not s.fort_placed and sum(s.fort) < MAX_FORTS:
            return [("fortress", RID[r]) for r in own if not s.fort[r]]
        return []

    def region_coins(self, s: SmallWorldState, r: int) -> int:
        return s.fort[r]


@power("heroic")
class Heroic(Power):
    """2 Heroes placed at redeployment in 2 regions make them immune."""
    places_markers = True
    moves = {(REDEPLOY, "hero"): "place_hero"}
    fields = {"hero": marker(immune=True, decline_clears=True)}

    def check_fields(self, s: SmallWorldState) -> None:
        in_box(s.hero, MAX_HEROES, "hero")

    def place_hero(self, s: SmallWorldState, a: ActionArgs) -> None:
        s.hero[a[1]] = 1

    def on_redeployment(self, s: SmallWorldState) -> None:
        s.hero = [0] * len(s.hero)

    def marker_actions(self, s: SmallWorldState, own: list[int]) -> list[Action]:
        if sum(s.hero) < MAX_HEROES:
            return [("hero", RID[r]) for r in own if not s.hero[r]]
        return []


@power("hill")
class Hill(Power):
    """+1 coin per Hill region occupied."""

    def region_coins(self, s: SmallWorldState, r: int) -> int:
        return _terrain_coins(s, r, D.HILL_T)


@power("merchant")
class Merchant(Power):
    """+1 coin per region occupied."""

    def region_coins(self, s: SmallWorldState, r: int) -> int:
        return 1


@power("mounted")
class Mounted(Power):
    """-1 token to conquer a Hill or Farmland region."""

    def cost_discount(self, s: SmallWorldState, r: int) -> int:
        return 1 if s.board.terrain[r] in (D.HILL_T, D.FARMLAND) else 0


@power("pillaging")
class Pillaging(Power):
    """+1 coin per non-empty region conquered this turn."""

    turn_coins_when = "this turn"

    def turn_coins(self, s: SmallWorldState) -> int:
        return s.conquered_non_empty


@power("seafaring")
class Seafaring(Power):
    """May conquer the seas and the lake; kept in decline."""
    sails = True


@power("spirit")
class Spirit(Power):
    """In decline, never removed, and not counted toward the one-declined-race limit."""
    spirit = True


@power("stout")
class Stout(Power):
    """May go into decline at the end of a normal turn, after scoring."""
    declines_after_scoring = True


@power("swamp")
class Swamp(Power):
    """+1 coin per Swamp region occupied."""

    def region_coins(self, s: SmallWorldState, r: int) -> int:
        return _terrain_coins(s, r, D.SWAMP_T)


@power("underworld")
class Underworld(Power):
    """-1 token to conquer a Cavern; all Caverns are adjacent to each other."""

    def cost_discount(self, s: SmallWorldState, r: int) -> int:
        return 1 if s.board.cavern[r] else 0

    def extend_reach(self, s: SmallWorldState, own: list[int], cand: set[int]) -> None:
        b = s.board
        if any(b.cavern[i] for i in own):
            cand.update(b.caverns)


@power("wealthy")
class Wealthy(Power):
    """+7 coins once, at the end of the race's first turn."""

    turn_coins_when = "once"

    def turn_coins(self, s: SmallWorldState) -> int:
        return int(D.SETUP["wealthy_coins"]) if s.picked else 0


def _build() -> tuple[Power, ...]:
    missing = [pid for pid in D.POWER_IDS if pid not in _REGISTRY]
    if missing:
        raise ValueError(f"powers without an entry in powers.py: {', '.join(missing)}")
    return tuple(_REGISTRY[pid](i) for i, pid in enumerate(D.POWER_IDS))


#: the entries indexed like data.POWERS
POWER_RULES: tuple[Power, ...] = _build()
POWER_BY_ID: dict[str, Power] = {p.id: p for p in POWER_RULES}
#: a declined race's power (or none): every hook at its default
NO_POWER = Power(-1)


def _overridden(name: str) -> tuple[Callable[..., Any] | None, ...]:
    """Hook ``name`` of each power, or None where the power keeps the default (the hot steps skip the
    call)."""
    default = getattr(Power, name)
    return tuple(getattr(p, name) if getattr(type(p), name) is not default else None for p in POWER_RULES)


COST_DISCOUNT = _overridden("cost_discount")
EXTEND_REACH = _overridden("extend_reach")
MARKER_ACTIONS = _overridden("marker_actions")
REGION_COINS = _overridden("region_coins")
TURN_COINS = _overridden("turn_coins")


def _everywhere(name: str) -> tuple[Callable[..., Any], ...]:
    """Hook ``name`` of the powers that override it: called in every turn, whichever race holds the power (the
    power's own fields say whether it is in play)."""
    default = getattr(Power, name)
    return tuple(getattr(p, name) for p in POWER_RULES if getattr(type(p), name) is not default)


SHELTERS = _everywhere("sheltered_seat")
REGION_LOST = _everywhere("on_region_lost")
TURN_OVER = _everywhere("on_turn_over")


def sheltered_seat(s: SmallWorldState, seat: int) -> int:
    """The seat whose active race ``seat`` may neither attack nor convert this turn (the Diplomat's peace), or
    -1."""
    for shelters in SHELTERS:
        t: int = shelters(s, seat)
        if t >= 0:
            return t
    return -1
