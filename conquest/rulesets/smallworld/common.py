"""Names every step of a Small World turn shares: the phases, a race's status, the figures read from
setup.yaml, and the region ids of the notation. Nothing here knows the state."""

from __future__ import annotations

import conquest.rulesets.smallworld.data as D

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


def _n(count: int, noun: str) -> str:
    """'1 token', '3 tokens'."""
    return f"{count} {noun}" if count == 1 else f"{count} {noun}s"
