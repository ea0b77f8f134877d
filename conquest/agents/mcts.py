"""Monte Carlo tree search over the contract (open loop: the tree is keyed by actions and chance outcomes and
states are re-simulated each iteration, so chance nodes need no special tree). Rollouts are uniform random for
at most ``rollout_depth`` steps, then scored by the ruleset's evaluation squashed into (0, 1)."""

from __future__ import annotations

import math
import random
from typing import Any

from conquest.agents.base import Agent, Param, deadline_clock, register
from conquest.core.chance import random_playout, sample_chance
from conquest.core.game import CHANCE, Action, State


class _Node:
    __slots__ = ("visits", "value", "children")

    def __init__(self, players: int) -> None:
        self.visits = 0
        self.value = [0.0] * players
        self.children: dict[Any, _Node] = {}


def _leaf_value(state: State, players: int) -> list[float]:
    res = state.result()
    if res is not None:
        return [float(x) for x in res]
    rs = state.ruleset
    return [1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, v / 5.0)))) for v in rs.evaluate_all(state)]


@register
class MCTSAgent(Agent):
    """UCT with random rollouts on the one determinization it is given; ``iterations`` per decision (fewer when
    a deadline passes first: it is checked after every iteration)."""

    id = "mcts"
    honours_deadline = True
    searches = True
    params = {"iterations": Param(int, 200, "search iterations per decision", minimum=1),
              "rollout": Param(int, 40, "random steps after the tree before the evaluation scores", minimum=0),
              "c": Param(float, 1.2, "UCT exploration constant", minimum=0)}
    iterations: int
    rollout: int
    c: float
    last_iterations = 0  # of the last decision (for inspection)

    def choose(self, state: State, rng: random.Random, deadline: float | None = None) -> Action:
        self.last_iterations = 0
        legal = list(state.legal_actions())
        if len(legal) == 1:
            return legal[0]
        players = state.players
        root = _Node(players)
        for it in range(self.iterations):
            if it and deadline is not None and deadline_clock() >= deadline:
                break
            self.last_iterations = it + 1
            node, s, path = root, state, [root]
            # selection and expansion
            while s.to_move is not None:
                seat = s.to_move
                if seat == CHANCE:
                    a = sample_chance(s, rng)
                else:
                    acts = s.legal_actions()
                    untried = [a for a in acts if a not in node.children]
                    if untried:
                        a = untried[rng.randrange(len(untried))]
                    else:
                        log_n = math.log(node.visits + 1)
                        a = max(acts, key=lambda x: node.children[x].value[seat] / (node.children[x].visits or 1)
                                + self.c * math.sqrt(log_n / (node.children[x].visits or 1)))
                child = node.children.get(a)
                s = s.apply_unchecked(a)
                if child is None:
                    child = node.children[a] = _Node(players)
                    node, path = child, path + [child]
                    break
                node, path = child, path + [child]
            # rollout
            s, _ = random_playout(s, rng, self.rollout)
            value = _leaf_value(s, players)
            for n in path:
                n.visits += 1
                for p in range(players):
                    n.value[p] += value[p]
        me = state.to_move
        assert me is not None
        best = max(legal, key=lambda a: (root.children[a].visits if a in root.children else -1,
                                         root.children[a].value[me] if a in root.children else 0.0))
        return best
