"""The values every layer speaks of: an action, and the seat that stands for chance."""

from __future__ import annotations

from typing import Any

Action = tuple[str | int, ...]
"""An action: a tuple of text and whole numbers, its verb first (``("move", "a1", "b2", 3)``). Every ruleset's
actions have this shape (``core.notation.is_action`` checks it at the contract's door), so they hash, compare and
serialise cheaply. mypy checks every place that builds one (no float, None, list or nested tuple) and every layer
that passes them on (agents, records, the web app, the environments)."""

ActionArgs = tuple[Any, ...]
"""An action as a ruleset's rules read it once they have dispatched on its verb: the verb fixes what each
position holds (a space's name, a count), which mypy cannot narrow from the first item of a tuple, so the rules'
appliers and refusals read the arguments untyped. Only the rules use it; every other layer speaks ``Action``."""

CHANCE: int = -1  # ``State.to_move`` at a chance node: a die, a shuffle, a draw
