"""The 14 races, one entry each: the banner (name, tokens, supply and text come from races.yaml, which stays
the data) and the race's effects as hooks the turn's steps call. A race that changes nothing in a step
keeps the default hook of ``Race``. To add a race: a row in races.yaml, and a subclass here registered with
``@race("its-id")`` that overrides the hooks its banner speaks of.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, ClassVar

import conquest.rulesets.smallworld.data as D
from conquest.core.errors import StateFormatError
from conquest.core.kinds import Action, ActionArgs
from conquest.rulesets.smallworld.common import (
    ACTIVE,
    CONQUER,
    EXTRA,
    MAX_HOLES,
    REDEPLOY,
    RID,
    Own,
    marker,
    per_game,
    per_turn,
)
from conquest.rulesets.smallworld.powers import in_box, sheltered_seat

if TYPE_CHECKING:
    from conquest.rulesets.smallworld.state import SmallWorldState


class Race:
    """A race's banner and its hooks (``s`` is the state, ``self.index`` the race)."""

    #: "first conquest anywhere" instead of by a border region (while active)
    first_conquest_anywhere = False
    #: declined, the race still conquers (and redeploys) before the active race of its seat
    conquers_in_decline = False
    #: going into decline keeps every token (instead of one per region) and the tokens in hand
    keeps_tokens_in_decline = False

    #: the race's own actions: (phase, verb) -> the name of its method ``(s, action)`` that applies it (region
    #: actions carry the region's index); ``dispatch.MOVES`` gathers them
    moves: ClassVar[dict[tuple[int, str], str]] = {}
    #: the state fields the race owns, by name: their copy policy, start and effects (owned.py builds the
    #: state's slots and the common steps' share of them from these)
    fields: ClassVar[dict[str, Own]] = {}

    def __init__(self, index: int) -> None:
        row = D.RACES[index]
        self.index = index
        self.id: str = row["id"]
        self.name: str = row["name"]
        self.banner: int = row["banner"]
        self.supply: int = row["supply"]
        self.text: str = row.get("text", "")

    # ---- conquest (003) ---------------------------------------------------------------------------
    def cost_discount(self, s: SmallWorldState, r: int) -> int:
        """Tokens less to conquer region ``r`` (active race only)."""
        return 0

    def tokens_kept(self, s: SmallWorldState, n: int) -> int:
        """Of the ``n`` tokens of a conquered region, how many go back to the owner's hand (003: one is
        discarded)."""
        return n - 1

    def on_occupy(self, s: SmallWorldState, r: int, active: bool) -> None:
        """After the race's tokens occupy region ``r`` (markers the race brings)."""

    def extra_tokens(self, s: SmallWorldState) -> int:
        """Tokens lent for conquest when troops are readied (active race only)."""
        return 0

    def on_ready(self, s: SmallWorldState) -> None:
        """Troops are readied (active race only)."""

    def conquest_actions(self, s: SmallWorldState, acts: list[Action], berserk_die: int) -> None:
        """Actions besides conquering a region, offered while conquering (active race only)."""

    # ---- picking a combo, redeployment --------------------------------------------------------------
    def on_pick(self, s: SmallWorldState) -> None:
        """The combo with this race was just chosen."""

    def on_redeployment(self, s: SmallWorldState) -> None:
        """Troop redeployment begins, the tokens taken in hand (active race only)."""

    def on_decline(self, s: SmallWorldState) -> None:
        """The race has just gone into decline."""

    # ---- a state read (coherence.py) ----------------------------------------------------------------
    def check_fields(self, s: SmallWorldState) -> None:
        """Refuse (``StateFormatError`` naming the field) what the race's own ``fields`` cannot hold."""

    # ---- scoring (scoring.py, and the evaluation and coverage read the same hooks) ---------------------
    #: when ``turn_coins`` come: "every turn", "this turn" (what the turn's conquests bring) or "once"
    turn_coins_when = "every turn"

    def region_coins(self, s: SmallWorldState, r: int, active: bool) -> int:
        """Bonus coins for region ``r`` the race occupies, at its owner's scoring."""
        return 0

    def turn_coins(self, s: SmallWorldState, active: bool) -> int:
        """Bonus coins at its owner's scoring that are not counted per region."""
        return 0


_REGISTRY: dict[str, type[Race]] = {}


def race(rid: str) -> Callable[[type[Race]], type[Race]]:
    def register(cls: type[Race]) -> type[Race]:
        if rid not in D.RACE_INDEX:
            raise ValueError(f"race '{rid}' is not in races.yaml")
        _REGISTRY[rid] = cls
        return cls
    return register


# ---- the races, in the order of races.yaml -------------------------------------------------------------
@race("amazons")
class Amazons(Race):
    """+4 tokens for conquest only; they go back at redeployment and come again when troops are readied."""
    moves = {(REDEPLOY, "abandon"): "give_back"}
    fields = {"amazon_debt": per_turn(0)}  # the lent tokens still to give back at redeployment

    def _lend(self, s: SmallWorldState, extra: int) -> None:
        s.rhand[self.index] += extra
        s.amazon_debt = extra

    def extra_tokens(self, s: SmallWorldState) -> int:
        return min(EXTRA, self.supply - s.race_total(self.index))

    def on_ready(self, s: SmallWorldState) -> None:
        self._lend(s, self.extra_tokens(s))

    def on_pick(self, s: SmallWorldState) -> None:
        self._lend(s, min(EXTRA, self.supply - s.rhand[self.index]))

    def on_redeployment(self, s: SmallWorldState) -> None:
        """The lent tokens go back: from the hand first, the rest given back from the regions (``give_back``);
        with no region left there is nothing to give back."""
        if s.amazon_debt:
            take = min(s.amazon_debt, s.rhand[self.index])
            s.rhand[self.index] -= take
            s.amazon_debt -= take
            if self.index not in s.region_race:
                s.amazon_debt = 0

    def on_decline(self, s: SmallWorldState) -> None:
        s.amazon_debt = 0

    def give_back(self, s: SmallWorldState, a: ActionArgs) -> None:
        """Short of their 4 tokens at redeployment, the Amazons give them back from their regions (``abandon
        rN`` takes one token)."""
        r = a[1]
        s.tokens[r] -= 1
        s.amazon_debt -= 1
        if s.tokens[r] == 0:
            s._clear_region(r)
        if s.amazon_debt and s.cur not in s.region_race:  # nothing left to give back
            s.amazon_debt = 0
            s.finish_redeployment()


@race("dwarves")
class Dwarves(Race):
    """+1 coin per Mine region occupied, also in decline."""

    def region_coins(self, s: SmallWorldState, r: int, active: bool) -> int:
        return 1 if s.board.mine[r] else 0


@race("elves")
class Elves(Race):
    """Lose no token when one of their regions is conquered (while active)."""

    def tokens_kept(self, s: SmallWorldState, n: int) -> int:
        return n if s.rstatus[self.index] == ACTIVE else n - 1


@race("ghouls")
class Ghouls(Race):
    """Keep all tokens in decline; declined Ghouls still conquer, before the active race."""
    conquers_in_decline = True
    keeps_tokens_in_decline = True


@race("giants")
class Giants(Race):
    """-1 token to conquer a region adjacent to a Mountain region they occupy."""

    def cost_discount(self, s: SmallWorldState, r: int) -> int:
        b = s.board
        rr = s.region_race
        for m in b.adj[r]:
            if rr[m] == self.index and b.mountain[m]:
                return 1
        return 0


@race("halflings")
class Halflings(Race):
    """First conquest anywhere; a Hole-in-the-Ground in each of the first 2 regions conquered."""
    first_conquest_anywhere = True
    fields = {"hole": marker(immune=True, decline_clears=True), "holes_used": per_game(0)}

    def on_occupy(self, s: SmallWorldState, r: int, active: bool) -> None:
        if active and s.holes_used < MAX_HOLES:
            s.hole[r] = 1
            s.holes_used += 1

    def on_pick(self, s: SmallWorldState) -> None:
        s.holes_used = 0

    def check_fields(self, s: SmallWorldState) -> None:
        in_box(s.hole, MAX_HOLES, "hole")
        if sum(s.hole) > s.holes_used:
            raise StateFormatError("holes_used", f"{sum(s.hole)} Holes-in-the-Ground on the board, {s.holes_used} "
                                                 "used")


@race("humans")
class Humans(Race):
    """+1 coin per Farmland region occupied (active)."""

    def region_coins(self, s: SmallWorldState, r: int, active: bool) -> int:
        return 1 if active and s.board.terrain[r] == D.FARMLAND else 0


@race("orcs")
class Orcs(Race):
    """+1 coin per non-empty region conquered this turn (active)."""

    turn_coins_when = "this turn"

    def turn_coins(self, s: SmallWorldState, active: bool) -> int:
        return s.conquered_non_empty if active else 0


@race("ratmen")
class Ratmen(Race):
    """No ability: many tokens."""


@race("skeletons")
class Skeletons(Race):
    """+1 token at redeployment per 2 non-empty regions conquered this turn (from the supply)."""

    def on_redeployment(self, s: SmallWorldState) -> None:
        x = self.index
        s.rhand[x] += max(0, min(s.conquered_non_empty // 2, self.supply - s.race_total(x)))


@race("sorcerers")
class Sorcerers(Race):
    """Once per opponent per turn, replace a lone active enemy token in an adjacent region with a Sorcerer
    from the supply."""
    moves = {(CONQUER, "convert"): "convert_move"}
    fields = {"converted": per_turn(0)}  # the seats converted from this turn, a bit mask

    def convert_move(self, s: SmallWorldState, a: ActionArgs) -> None:
        s.ready_troops()
        self.convert(s, a[1])

    def conquest_actions(self, s: SmallWorldState, acts: list[Action], berserk_die: int) -> None:
        # option convert_needs_token (default true): "a player must always have at least one Race token available
        # to initiate a new Conquest" (003) holds for a conversion too
        if berserk_die < 0 and (s.hand_now() >= 1 or not s.options.get("convert_needs_token", True)):
            for r in self.conversion_targets(s):
                acts.append(("convert", RID[r]))

    def conversion_targets(self, s: SmallWorldState) -> list[int]:
        """A lone active token of an opponent not yet converted this turn, in a region adjacent to one of
        theirs, while a Sorcerer is left in the supply."""
        x = self.index
        if s.race_total(x) >= self.supply:
            return []
        b = s.board
        rr = s.region_race
        seat = s.seat
        shelter = sheltered_seat(s, seat)
        sail = s.can_sail(x)
        near: set[int] = set()
        for i in range(b.n):
            if rr[i] == x:
                near.update(b.adj[i])
        out = []
        for r in sorted(near):
            y = rr[r]
            if y < 0 or y == x or s.tokens[r] != 1 or s.rstatus[y] != ACTIVE:
                continue
            t = s.rseat[y]
            if t == seat or s.converted >> t & 1 or s.immune(r) or (b.water[r] and not sail) or s.camp[r]:
                continue
            if t == shelter:  # the Diplomat's peace
                continue
            out.append(r)
        return out

    def convert(self, s: SmallWorldState, r: int) -> None:
        """The lone token goes back to its supply; a Sorcerer takes its place (not a conquest of a non-empty
        region for the owner's losses: nothing goes back in hand)."""
        y = s.region_race[r]
        t = s.rseat[y]
        s.count("conversions")
        s.converted |= 1 << t
        s.attacked |= 1 << t
        s.region_race[r] = -1
        s.tokens[r] = 0
        s.lair[r] = 0
        s.fort[r] = 0
        s.camp[r] = 0
        s.occupy(self.index, r, 1, True)


@race("tritons")
class Tritons(Race):
    """-1 token to conquer a coastal region (bordering a sea or the lake)."""

    def cost_discount(self, s: SmallWorldState, r: int) -> int:
        return 1 if s.board.coastal[r] else 0


@race("trolls")
class Trolls(Race):
    """A Troll's Lair (+1 defence) in every region they occupy; lairs stay in decline."""
    fields = {"lair": marker(defends=True)}

    def on_occupy(self, s: SmallWorldState, r: int, active: bool) -> None:
        s.lair[r] = 1


@race("wizards")
class Wizards(Race):
    """+1 coin per Magic Source region occupied (active)."""

    def region_coins(self, s: SmallWorldState, r: int, active: bool) -> int:
        return 1 if active and s.board.magic[r] else 0


def _build() -> tuple[Race, ...]:
    missing = [rid for rid in D.RACE_IDS if rid not in _REGISTRY]
    if missing:
        raise ValueError(f"races without an entry in races.py: {', '.join(missing)}")
    return tuple(_REGISTRY[rid](i) for i, rid in enumerate(D.RACE_IDS))


#: the entries indexed like data.RACES
RACE_RULES: tuple[Race, ...] = _build()
RACE_BY_ID: dict[str, Race] = {r.id: r for r in RACE_RULES}


def _overridden(name: str) -> tuple[Callable[..., Any] | None, ...]:
    """Hook ``name`` of each race, or None where the race keeps the default (the hot steps skip the call)."""
    default = getattr(Race, name)
    return tuple(getattr(r, name) if getattr(type(r), name) is not default else None for r in RACE_RULES)


COST_DISCOUNT = _overridden("cost_discount")
TOKENS_KEPT = _overridden("tokens_kept")
ON_OCCUPY = _overridden("on_occupy")
CONQUEST_ACTIONS = _overridden("conquest_actions")
REGION_COINS = _overridden("region_coins")
TURN_COINS = _overridden("turn_coins")
