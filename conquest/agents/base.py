"""The agent contract, agent specs and the one call every runner makes.

An agent spec names an agent and its parameters: ``ismcts:time=1.0``, ``mcts:iterations=800``,
``ismcts:time=0.5:rollout=6`` (parameters separated by ``:``). A level (``easy``, ``normal``, ``hard``) is a
name for a spec (``LEVELS``). Unknown agents, unknown parameters and bad values are one-line errors.

Runners never give an agent the referee's state: ``decide`` hands it ``state.determinize(seat, rng)``, a
state that agrees with what the seat may see and has everything hidden from it resampled.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, ClassVar

from conquest.core.errors import ConquestError
from conquest.core.game import Action, State

DEADLINE_CLOCK: Callable[[], float] = time.perf_counter
"""The clock a deadline given to an agent is read on: ``time.perf_counter``, the wall clock a person waits. A
benchmark may set ``time.thread_time`` to see what one idle core would do on a busy machine (the deadline then
counts the thinking thread's CPU time)."""


def deadline_clock() -> float:
    """Now, on the clock deadlines are read on (``DEADLINE_CLOCK``)."""
    return DEADLINE_CLOCK()


class AgentSpecError(ConquestError):
    """A bad agent spec: unknown agent or parameter, or a value out of range."""


@dataclass(frozen=True)
class Param:
    """A parameter of an agent: its type, default, lower bound and help."""

    kind: type
    default: Any
    help: str
    minimum: float | None = None
    positive: bool = False
    maximum: float | None = None

    def parse(self, agent: str, name: str, text: str) -> Any:
        try:
            value = self.kind(text)
        except ValueError:
            what = "an integer" if self.kind is int else "a number"
            raise AgentSpecError(f"agent '{agent}': {name}={text} is not {what}") from None
        if self.positive and not value > 0:
            raise AgentSpecError(f"agent '{agent}': {name} must be greater than 0, got {text}")
        if self.minimum is not None and value < self.minimum:
            raise AgentSpecError(f"agent '{agent}': {name} must be at least {self.minimum:g}, got {text}")
        if self.maximum is not None and value > self.maximum:
            raise AgentSpecError(f"agent '{agent}': {name} must be at most {self.maximum:g}, got {text}")
        return value


class Agent:
    """Chooses an action for the seat to move. Holds no game state; gets the runner's seeded RNG and a
    determinized state (``decide``), never the referee's."""

    id = "agent"
    params: ClassVar[dict[str, Param]] = {}
    honours_deadline: ClassVar[bool] = False
    """Whether ``choose`` takes a ``deadline`` (an instant of ``deadline_clock()``) and returns by it: the search
    itself stops (the budget is checked as it works), so a server can bound its thinking. ``decide`` passes a
    deadline only to agents that say so; the built-in agents all do."""
    searches: ClassVar[bool] = False
    """Whether the agent searches ahead for as long as it is given (``mcts``, ``ismcts``). Within a turn's budget
    (``budget.decide_within``), once the turn's search time is spent, such an agent's later decisions are the
    greedy agent's one-ply choice (plans weighed whole), played in what is left of the turn."""

    def __init__(self, **params: Any) -> None:
        for name, p in self.params.items():
            setattr(self, name, params.pop(name, p.default))
        if params:
            raise AgentSpecError(f"agent '{self.id}' has no parameter '{sorted(params)[0]}'"
                                 + (f" (parameters: {', '.join(self.params)})" if self.params
                                    else " (it takes none)"))

    @property
    def spec(self) -> str:
        """The spec that makes this agent again (parameters that differ from their defaults)."""
        parts = [f"{n}={getattr(self, n)}" for n, p in self.params.items() if getattr(self, n) != p.default]
        return ":".join([self.id, *parts])

    def choose(self, state: State, rng: random.Random, deadline: float | None = None) -> Action:
        raise NotImplementedError


AGENTS: dict[str, Callable[..., Agent]] = {}

@dataclass(frozen=True)
class Level:
    """A level of computer player offered by the web lobby: an agent spec and its time budgets. ``decision``:
    seconds at most for one decision; ``turn``: seconds at most for a whole turn (every consecutive decision of
    the seat), shared out over its decisions by ``conquest.agents.budget.TurnBudget``."""

    label: str
    spec: str
    decision: float
    turn: float
    help: str  # may name the budgets: {decision} and {turn} (seconds)

    def describe(self, decision: float | None = None, turn: float | None = None) -> str:
        """The help line with the budgets in force (a server's limits may be smaller than the level's)."""
        return self.help.format(decision=f"{self.decision if decision is None else decision:g}",
                                turn=f"{self.turn if turn is None else turn:g}")


LEVEL_SETTINGS: dict[str, Level] = {
    "easy": Level("Easy", "greedy", 0.5, 3.0,
                  "plays the move that looks best at once (one move ahead); answers at once"),
    "normal": Level("Normal", "ismcts:time=0.5", 0.5, 3.0,
                    "searches ahead up to {decision} s a move and {turn} s a whole turn"),
    "hard": Level("Hard", "ismcts:time=2.0", 2.0, 10.0,
                  "searches ahead up to {decision} s a move and {turn} s a whole turn"),
}
"""The levels: id -> Level. The time budgets are what the web app's computer players keep to; on the command
line a level is its spec (``hard`` is ``ismcts:time=2.0``: 2 s per decision, no limit per turn)."""

LEVELS: dict[str, tuple[str, str]] = {k: (v.spec, v.describe()) for k, v in LEVEL_SETTINGS.items()}
"""Levels offered by the web lobby: level -> (agent spec, what it means)."""


def register(cls: type[Agent]) -> type[Agent]:
    AGENTS[cls.id] = cls
    return cls
