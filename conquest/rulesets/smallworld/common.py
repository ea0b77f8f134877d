"""Names every step of a Small World turn shares: the phases, a race's status, the figures read from
setup.yaml, and the region ids of the notation. Nothing here knows the state."""

from __future__ import annotations

from dataclasses import dataclass

import conquest.rulesets.smallworld.data as D
from conquest.core.fields import LIST, SHARE

# phases
DRAW_RACE, DRAW_POWER, PICK, CONQUER, DIE, REDEPLOY, STOUT_CHOICE, DIPLOMACY, DEFEND, OVER = range(10)
PHASE_NAMES = ["draw-race", "draw-power", "pick", "conquer", "die", "redeploy", "stout", "diplomat", "defend",
               "over"]
PHASE_INDEX = {n: i for i, n in enumerate(PHASE_NAMES)}
# race status
OUT, ACTIVE, DECLINED = 0, 1, 2
STATUS_NAMES = ["box", "active", "declined"]

NR = len(D.RACES)
NP = len(D.POWERS)
EXTRA = int(D.SETUP["amazon_extra"])
MAX_FORTS = D.MARKERS["fortresses"]
MAX_CAMPS = D.MARKERS["encampments"]
MAX_HEROES = D.MARKERS["heroes"]
MAX_HOLES = D.MARKERS["holes"]
VISIBLE = int(D.SETUP["visible_combos"])
DIE_PROBS: list[tuple[int, float]] = sorted(
    {f: D.DIE_FACES.count(f) / len(D.DIE_FACES) for f in D.DIE_FACES}.items())

# region ids in actions: actions carry "r12" (a string, as the board's ids), the state indexes lists with 11
RID: tuple[str, ...] = tuple(f"r{i + 1}" for i in range(128))
RIDX: dict[str, int] = {r: i for i, r in enumerate(RID)}
REGION_ACTIONS = frozenset(("conquer", "final", "dragon", "convert", "abandon", "camp", "fortress", "hero",
                            "redeploy"))

# region fields kept as parallel lists (tokens of one race per region; markers as counts)
REGION_FIELDS = ("region_race", "tokens", "lost", "lair", "fort", "camp", "hole", "hero", "dragon")


@dataclass(frozen=True)
class Own:
    """A state field that a race or a power owns (its entry's ``fields``, races.py / powers.py): its copy policy
    (``core.fields``), its value in a new game, and what the common steps do with it without naming it
    (owned.py builds those steps from the declarations)."""

    policy: str
    start: int | bool
    #: a marker: one count per region (a flat list), cleared when the region is abandoned (``_clear_region``)
    region: bool = False
    #: set back to ``start`` when a turn's flags are reset (``turn.reset_turn_flags``)
    per_turn: bool = False
    #: each marker adds one token to the conquest cost ("+1 additional Race token for each Encampment,
    #: Fortress, Mountain, or Troll's Lair marker", 003)
    defends: bool = False
    #: a region holding the marker cannot be conquered
    immune: bool = False
    #: the marker leaves the regions of a race going into decline
    decline_clears: bool = False


def marker(**effects: bool) -> Own:
    """A region marker (a count per region, 0 in a new game)."""
    return Own(LIST, 0, region=True, **effects)


def per_turn(start: int | bool) -> Own:
    """A number or flag of the turn under way, back to ``start`` each turn."""
    return Own(SHARE, start, per_turn=True)


def per_game(start: int) -> Own:
    """A number kept across turns, ``start`` in a new game."""
    return Own(SHARE, start)


def _n(count: int, noun: str) -> str:
    """'1 token', '3 tokens'."""
    return f"{count} {noun}" if count == 1 else f"{count} {noun}s"
