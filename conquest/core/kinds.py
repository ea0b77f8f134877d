"""The two values every layer speaks of: an action, and the seat that stands for chance."""

from __future__ import annotations

from typing import Any

Action = Any  # a hashable value: rulesets use tuples of str and int
CHANCE: int = -1  # ``State.to_move`` at a chance node: a die, a shuffle, a draw
