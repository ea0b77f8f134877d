"""The state fields the races and powers own, gathered from their entries (``fields`` in races.py and
powers.py), and the common steps' share of them built from the declarations, so that neither the base state
nor the steps of the turn name a race's or a power's field: the copy policies (base.py puts them in the one
flat slotted state after the common fields), the values of a new game, the reset of the turn's flags, the
clearing of an abandoned region, a region's immunity, its defence markers and the markers a race going into
decline loses.

The steps are generated as straight-line code (one statement per field, as they were written by hand), since
the immunity and the defence are read for every conquest target.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from conquest.rulesets.smallworld.common import Own
from conquest.rulesets.smallworld.powers import POWER_RULES, Power
from conquest.rulesets.smallworld.races import RACE_RULES, Race


def _gather() -> dict[str, tuple[str, Own]]:
    """Each owned field with its owner's id and declaration, races first (in the order of races.yaml), then
    powers; a field is owned once."""
    owned: dict[str, tuple[str, Own]] = {}
    entries: list[Race | Power] = [*RACE_RULES, *POWER_RULES]
    for entry in entries:
        for name, own in type(entry).fields.items():
            if name in owned:
                raise ValueError(f"state field {name!r} declared by {owned[name][0]} and {entry.id}")
            owned[name] = (entry.id, own)
    return owned


OWNED: dict[str, tuple[str, Own]] = _gather()
"""Every owned field: its owner (a race's or a power's id) and its declaration."""

POLICIES: dict[str, str] = {name: own.policy for name, (_, own) in OWNED.items()}
"""The owned fields' copy policies (``core.fields``), for the state's ``Slots``."""

MARKERS: tuple[str, ...] = tuple(name for name, (_, own) in OWNED.items() if own.region)
"""The region markers (one count per region) the entries own."""


def _make(name: str, args: str, body: list[str], empty: str = "pass") -> Callable[..., Any]:
    namespace: dict[str, Any] = {}
    exec(f"def {name}({args}):\n" + "\n".join(f"    {line}" for line in body or [empty]), namespace)
    fn: Callable[..., Any] = namespace[name]
    return fn


def _where(flag: str) -> list[str]:
    return [name for name in MARKERS if getattr(OWNED[name][1], flag)]


start_game: Callable[[Any, int], None] = _make(
    "start_game", "st, n",
    [f"st.{name} = [0] * n" if own.region else f"st.{name} = {own.start!r}" for name, (_, own) in OWNED.items()])
"""``start_game(st, n)``: every owned field at its value in a new game on ``n`` regions."""

reset_turn: Callable[[Any], None] = _make(
    "reset_turn", "st", [f"st.{name} = {own.start!r}" for name, (_, own) in OWNED.items() if own.per_turn])
"""``reset_turn(st)``: the owned numbers and flags of the turn under way back to their start."""

clear_region: Callable[[Any, int], None] = _make("clear_region", "st, r", [f"st.{name}[r] = 0" for name in MARKERS])
"""``clear_region(st, r)``: every owned marker leaves region ``r``."""

clear_in_decline: Callable[[Any, int], None] = _make(
    "clear_in_decline", "st, r", [f"st.{name}[r] = 0" for name in _where("decline_clears")])
"""``clear_in_decline(st, r)``: the markers that leave a region of a race going into decline."""

immune: Callable[[Any, int], bool] = _make(
    "immune", "st, r", [f"return bool({' or '.join(f'st.{name}[r]' for name in _where('immune'))})"]
    if _where("immune") else [], "return False")
"""``immune(st, r)``: a marker in region ``r`` makes it immune to conquest (Holes-in-the-Ground, Heroes, the
Dragon)."""

defence: Callable[[Any, int], int] = _make(
    "defence", "st, r", [f"return {' + '.join(f'st.{name}[r]' for name in _where('defends'))}"]
    if _where("defends") else [], "return 0")
"""``defence(st, r)``: the defence markers in region ``r`` (each one token more to conquer it, 003)."""
