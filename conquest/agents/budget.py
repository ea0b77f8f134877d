"""Time budgets of a computer player: per decision and per whole turn.

A turn is every consecutive decision of one seat (chance outcomes between them do not end it; another seat's
decision does). ``TurnBudget`` shares a turn's seconds out over its decisions without knowing how many there
will be: each decision may search for at most ``decision`` seconds and at most ``1/SHARE`` of what is left of
the turn once ``RESERVE`` of it is kept back. The reserve pays for the decisions that come after the search time
is spent: each of them still costs its one-ply ordering of the legal actions and one search iteration (the
greedy agent's move, about 10-50 ms in Nerath), and a Nerath turn can hold dozens of decisions.

``decide_within`` is what a runner calls: it hands the agent the deadline (``Agent.honours_deadline``: the
search itself stops) and charges the time the decision took to the turn. Once the turn's search time is spent
(the allowance is 0), a searching agent's decision is the greedy agent's one-ply choice with the ruleset's plans
weighed whole, given what is left of the whole turn as its deadline: the decisions after the search time are
played as well as greedy plays them, not by a sample of a few actions (Nerath's long turns: docs/agents.md).
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from conquest.agents.base import Agent, deadline_clock
from conquest.agents.greedy import GreedyAgent
from conquest.core.game import Action, State

SHARE = 2.0
"""A decision searches for at most this fraction's inverse of what is left of the turn's search time."""
RESERVE = 0.25
"""The fraction of a turn's budget kept for the fixed cost of the decisions after its search time is spent."""


@dataclass
class TurnBudget:
    """The thinking time of one seat's turn. ``decision``: seconds at most per decision; ``turn``: seconds at
    most for the whole turn. ``spent``: seconds charged so far, over ``decisions`` decisions."""

    decision: float
    turn: float
    spent: float = 0.0
    decisions: int = 0

    def allowance(self) -> float:
        """Seconds the next decision may take: ``min(decision, (turn x (1 - RESERVE) - spent) / SHARE)``, never
        below 0 (then the agent does only its one-ply ordering and one iteration)."""
        left = self.turn * (1.0 - RESERVE) - self.spent
        return max(0.0, min(self.decision, left / SHARE))

    def charge(self, seconds: float, decision: bool = True) -> None:
        """Count ``seconds`` against the turn (``decision=False``: time that was not a decision, such as the
        web app's pause before a move, which a person waits for all the same)."""
        self.spent += max(0.0, seconds)
        self.decisions += int(decision)


def decide_within(agent: Agent, state: State, rng: random.Random, budget: TurnBudget) -> Action:
    """``decide`` with the deadline the turn's budget allows this decision, the time it took charged to the
    turn (on ``deadline_clock()``: the wall clock, what the players wait)."""
    from conquest.agents.specs import decide
    start = deadline_clock()
    try:
        allowance = budget.allowance()
        if allowance <= 0.0 and agent.searches:
            return decide(GreedyAgent(), state, rng, deadline=start + max(0.0, budget.turn - budget.spent))
        return decide(agent, state, rng, deadline=start + allowance)
    finally:
        budget.charge(deadline_clock() - start)
