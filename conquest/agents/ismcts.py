"""Information-set Monte Carlo tree search (single observer).

The tree belongs to the seat to move, the observer. Each iteration searches a fresh determinization of the
state it was given (``State.determinize``: everything hidden from the observer resampled), so the tree's
statistics average over what the observer cannot know, and the agent never reads a hidden part.

- Decision nodes are keyed by action. An action's child counts how often it was available (legal in the
  iteration's determinization) and UCB uses that count (the ISMCTS "availability" form).
- Values are vectors, one per seat, and each seat picks its own best (max^n); with two seats this is the usual
  two-player search.
- Chance is explicit: at a chance node an outcome is drawn from the published distribution and, when there
  are at most ``chance`` outcomes and the observer can tell them apart (its view differs after two of them),
  each has its own child; draws the observer cannot see (another seat's card) and larger lotteries share one
  child, so the observer's tree never splits on what the observer will not know.
- Progressive widening copes with hundreds of legal actions (Nerath): a node with more than ``widen_from``
  legal actions grows a new child only while it has fewer than ``widen * sqrt(visits)`` of them. At the root
  the children come in the order of a one-ply lookahead on the ruleset's evaluation (the greedy agent's), and
  that order also biases the first visits. ``prior`` says where else a node is ranked so, once, when it first
  grows a child: 0 nowhere (deeper nodes grow in random order), 1 at the searching seat's own nodes (its move
  sequences: several pieces into one battle), 2 at every decision node, each ranked for the seat that moves
  there — the other seats' first children are then the greedy agent's moves, a model of greedy-like players.
  Ranking costs one ply of evaluations per node, so it pays where a node has a hundred moves and few are good
  (Nerath: ``ismcts:prior=2`` wins about half its games against three greedy seats, a quarter without). The
  default, -1, is the ruleset's choice (``Ruleset.search_prior``): 2 for Nerath, 0 for the others.
- Plans (``plans``; -1, the default, is the ruleset's ``search_plans``: 2 for Nerath, 1 for the others): with 1
  the one-ply order ranks a plan's first action by the position after the whole plan (``Ruleset.plans``: which
  pieces go where); with 2 each plan is also a child of the node, played whole, so the tree branches over whole
  plans (search over a turn's moves rather than one piece at a time). When the root chooses a plan, its first
  move is played and the next decisions play its other moves without searching again, while the seat moves again
  at once, in the position predicted, and each move is still legal.
- Rollouts play at most ``rollout`` steps, each the best of ``pick`` actions sampled and judged by the mover's
  evaluation (``pick=1``: uniform random), and are then scored by the ruleset's evaluation, squashed into
  (0, 1) around the root's evaluation on the scale of the evaluations met so far.
- The budget is ``time`` seconds or ``iterations`` iterations per decision (``iterations`` alone: no clock);
  ``cpu=1`` counts the process's CPU time instead of the wall clock (measurements on a shared machine). A
  runner may also give ``choose`` a deadline (the web app's per-decision and per-turn budgets): the search
  stops at whichever comes first. The deadline is checked between iterations; the root's one-ply ordering
  (one evaluation per legal action: the greedy agent's move) and the first iteration are always done, unless
  the deadline has already passed when the decision starts (no time left in the turn): then the agent plays
  the best of a few legal actions sampled at random by their one-ply evaluation (``greedy.quick_choice``).
- Decisive moves: a root action that ends the game won (the seat alone best) in the state given and in eight
  further determinizations is played at once.
- Tree reuse: when the observer moves again right after its own action with nothing in between (no chance, no
  other seat), the information set is the one the search predicted, and the search starts from that child's
  subtree. It is checked, not assumed: the seat's view must be the predicted one.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Sequence
from typing import Any

from conquest.agents.base import Agent, Param, deadline_clock, register
from conquest.agents.greedy import MAX_PLAN_STEPS, expected_value, plan_value, quick_choice, with_plans
from conquest.core.chance import pick_outcome
from conquest.core.game import CHANCE, Action, State

_SHARED = ("*",)  # the one child of a chance node with many outcomes


class _Plan(tuple):  # type: ignore[type-arg]
    """A child that plays a whole plan (``plans=2``: the ruleset's group of the mover's actions, which pieces go
    where), its actions in order while they are legal and the mover is still to move."""


def _play(s: State, a: Any, seat: int) -> State:
    """``s`` after the child ``a``: one action, or a plan's actions."""
    if not isinstance(a, _Plan):
        return s.apply_unchecked(a)
    s = s.apply_unchecked(a[0])
    for x in a[1:MAX_PLAN_STEPS]:
        if s.to_move != seat or not s.is_legal(x):
            break
        s = s.apply_unchecked(x)
    return s


class _Node:
    __slots__ = ("visits", "avail", "value", "children", "order", "seen", "plans")

    def __init__(self, players: int) -> None:
        self.seen: bool | None = None  # a chance node: does the observer see its outcome?
        self.visits = 0
        self.avail = 0
        self.value = [0.0] * players
        self.children: dict[Any, _Node] = {}
        self.order: dict[Any, float] | None = None  # root only: prior in [0, 1] per action
        self.plans: list[_Plan] = []  # plans=2: the plans that are children here (with the order)


class _Scale:
    """Evaluations relative to the root's, on the running scale of the differences met so far."""

    def __init__(self, base: list[float], spread: float) -> None:
        self.base = base
        self.n = 0
        self.sq = 0.0
        self.spread = spread if spread > 1e-9 else 1.0

    def squash(self, evals: list[float]) -> list[float]:
        deltas = [e - b for e, b in zip(evals, self.base)]
        for d in deltas:
            self.n += 1
            self.sq += d * d
        if self.n >= 32:
            self.spread = max(math.sqrt(self.sq / self.n), 1e-6)
        return [1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, d / self.spread)))) for d in deltas]


@register
class ISMCTSAgent(Agent):
    """Single-observer information-set MCTS with max^n values, explicit chance, a time or iteration budget,
    short rollouts scored by the evaluation, progressive widening and tree reuse."""

    id = "ismcts"
    honours_deadline = True
    searches = True
    params = {
        "time": Param(float, 1.0, "seconds per decision (ignored when only iterations is given)", positive=True),
        "iterations": Param(int, 0, "iterations per decision (0: as many as the time allows)", minimum=0),
        "rollout": Param(int, 6, "random steps after the tree before the evaluation scores", minimum=0),
        "c": Param(float, 0.7, "UCB exploration constant", minimum=0),
        "widen": Param(float, 2.0, "progressive widening: children allowed per sqrt(visits)", positive=True),
        "widen_from": Param(int, 12, "legal actions above which a node widens progressively", minimum=1),
        "chance": Param(int, 24, "chance nodes with at most this many outcomes branch on them", minimum=1),
        "reuse": Param(int, 1, "1: reuse the subtree when the seat moves again at once; 0: never", minimum=0),
        "prior": Param(int, -1, "where the one-ply order on the evaluation ranks the children: 0 the root only; "
                                "1 every node of the searching seat; 2 every decision node (the other seats' "
                                "too: a greedy-like model of them); -1 the ruleset's choice (2 for Nerath, 0 "
                                "for the others)", minimum=-1, maximum=2),
        "pick": Param(int, 1, "rollout policy: each step plays the best of this many sampled actions by the "
                              "mover's evaluation (1: uniform random)", minimum=1),
        "cpu": Param(int, 0, "1: time is this process's CPU time (fair measurements on a busy machine); "
                             "0: wall-clock time (what a person waits)", minimum=0),
        "plans": Param(int, -1, "-1: the ruleset's choice (Ruleset.search_plans); 1: the one-ply order weighs the "
                                "ruleset's plans (groups of moves) whole, a plan's first action ranked by the "
                                "position after the plan; 2: a plan is also a child of the tree, played whole "
                                "(search over which pieces go where), and once chosen its moves are played in "
                                "turn; 0: single actions only", minimum=-1, maximum=2),
    }
    time: float
    iterations: int
    rollout: int
    c: float
    widen: float
    widen_from: int
    chance: int
    reuse: int
    prior: int
    pick: int
    cpu: int
    plans: int

    def __init__(self, **params: Any) -> None:
        clock_given = "time" in params
        super().__init__(**params)
        if self.iterations > 0 and not clock_given:
            self.time = 0.0  # an iteration budget alone: no clock, so a seed fixes the decision
        self._kept: tuple[int, Any, _Node, list[Action]] | None = None  # (seat, predicted view, subtree, the
        # chosen plan's moves still to play)
        self._me = -1  # the searching seat
        self._prior = 0  # ``prior``, the ruleset's choice when it is -1
        self._plans = self.plans if self.plans >= 0 else 1  # ``plans``; the ruleset's choice when it is -1
        self.last_iterations = 0
        self.last_root: _Node | None = None  # the last search's tree (for inspection)

    @property
    def spec(self) -> str:
        """The spec that makes this agent again; an iteration budget alone (no clock) is written without time."""
        spec = super().spec
        return spec.replace(":time=0.0", "") if self.time == 0 else spec

    # ---- the budget ------------------------------------------------------------------------------------
    def _budget(self, given: float | None = None) -> tuple[int, Any]:
        """(iteration limit, a function telling whether the time is up). ``given``: a deadline on the
        ``deadline_clock()`` set by the runner, on top of the agent's own budget."""
        limit = self.iterations if self.iterations > 0 else 10 ** 9
        clock = time.process_time if self.cpu else time.perf_counter
        deadline = clock() + self.time if self.time > 0 else math.inf
        if given is None:
            return limit, lambda: clock() >= deadline
        return limit, lambda: clock() >= deadline or deadline_clock() >= given

    # ---- the search ------------------------------------------------------------------------------------
    def choose(self, state: State, rng: random.Random, deadline: float | None = None) -> Action:
        me = state.to_move
        assert me is not None and me >= 0
        self._me = me
        self.last_iterations = 0
        self._prior = self.prior if self.prior >= 0 else state.ruleset.search_prior
        self._plans = self.plans if self.plans >= 0 else state.ruleset.search_plans
        planned = self._planned(state, me)
        if planned is not None:
            return planned  # the next move of the plan the last search chose
        legal = list(state.legal_actions())
        if len(legal) == 1:
            self._kept = None
            return legal[0]
        if deadline is not None and deadline_clock() >= deadline:
            self._kept = None
            return quick_choice(state, rng)  # no time left in the turn: the best of a few actions, one ply
        limit, time_up = self._budget(deadline)
        players = state.players
        rs = state.ruleset
        root = self._reused(state, me) or _Node(players)
        if root.order is None:
            values: dict[Any, float] = {}
            for a in legal:
                after = state.apply_unchecked(a)
                res = after.result()
                if res is not None and res[me] == 1.0 and self._wins_whatever_is_hidden(state, me, a, rng):
                    self._kept = None
                    return a  # a decisive move: it ends the game won in every determinization tried
                values[a] = expected_value(after, me, max_outcomes=6)
            if self._plans == 2:
                root.plans = self._plan_children(state, values, me)
            elif self._plans:
                with_plans(state, values, me, max_outcomes=6)
            ranked = sorted(values, key=lambda a: -values[a])
            n = len(ranked)
            root.order = {a: 1.0 - i / n for i, a in enumerate(ranked)}
            spread = max(values.values()) - min(values.values())
        else:
            spread = 0.0
        scale = _Scale(rs.evaluate_all(state), spread)
        it = 0
        while it < limit and (it == 0 or not time_up()):
            self._iterate(root, state.determinize(me, rng), rng, scale, me)
            it += 1
        self.last_iterations = it
        self.last_root = root
        best = max([*legal, *root.plans], key=lambda a: (root.children[a].visits, root.children[a].value[me] /
                                                         root.children[a].visits) if a in root.children else (-1, 0.0))
        self._keep(state, me, best, root)
        return best[0] if isinstance(best, _Plan) else best

    @staticmethod
    def _observed(s: State, outcomes: list[tuple[Action, float]], me: int) -> bool:
        """Whether the observer can tell a chance node's outcomes apart (its view differs after two of them)."""
        if len(outcomes) < 2:
            return True
        return s.apply_unchecked(outcomes[0][0]).view(me) != s.apply_unchecked(outcomes[-1][0]).view(me)

    @staticmethod
    def _wins_whatever_is_hidden(state: State, me: int, action: Action, rng: random.Random, tries: int = 8) -> bool:
        for _ in range(tries):
            d = state.determinize(me, rng)
            res = d.apply_unchecked(action).result() if d.is_legal(action) else None
            if res is None or res[me] != 1.0:
                return False
        return True

    def _iterate(self, root: _Node, s: State, rng: random.Random, scale: _Scale, me: int) -> None:
        node = root
        path = [root]
        expanded = False
        while not expanded and s.to_move is not None:
            seat = s.to_move
            if seat == CHANCE:
                outcomes = s.chance_outcomes()
                a = pick_outcome(outcomes, rng)
                if node.seen is None:
                    node.seen = len(outcomes) <= self.chance and self._observed(s, outcomes, me)
                key = a if node.seen else _SHARED
                child = node.children.get(key)
                if child is None:
                    child = node.children[key] = _Node(len(root.value))
                    expanded = True
                child.avail += 1
            else:
                a, child, expanded = self._select(node, s, seat, rng)
                s = _play(s, a, seat)
                node = child
                path.append(node)
                continue
            s = s.apply_unchecked(a)
            node = child
            path.append(node)
        # rollout, then the evaluation
        steps = 0
        while s.to_move is not None and steps < self.rollout:
            if s.to_move == CHANCE:
                outcomes = s.chance_outcomes()
                a = pick_outcome(outcomes, rng)
            else:
                acts = s.legal_actions()
                if self.pick > 1 and len(acts) > 1:
                    a = self._best_of(s, acts, rng)
                else:
                    a = acts[rng.randrange(len(acts))]
            s = s.apply_unchecked(a)
            steps += 1
        res = s.result()
        if res is not None:
            value = [float(v) for v in res]
        else:
            value = scale.squash(s.ruleset.evaluate_all(s))
        for n in path:
            n.visits += 1
            v = n.value
            for p in range(len(v)):
                v[p] += value[p]

    def _select(self, node: _Node, s: State, seat: int, rng: random.Random) -> tuple[Action, _Node, bool]:
        legal: Sequence[Any] = s.legal_actions()
        if node.order is None and (self._prior == 2 or (self._prior == 1 and seat == self._me)):
            node.order = self._ranked(s, legal, seat, node)
        if node.plans:
            firsts = set(legal)
            legal = [*legal, *(p for p in node.plans if p[0] in firsts)]
        children = node.children
        present = []
        untried = []
        for a in legal:
            ch = children.get(a)
            if ch is None:
                untried.append(a)
            else:
                ch.avail += 1
                present.append((a, ch))
        if untried:
            allowed = len(legal)
            if len(legal) > self.widen_from:
                allowed = max(2, int(self.widen * math.sqrt(node.visits + 1)))
            if len(present) < allowed:
                prior = node.order
                if prior is not None:
                    a = max(untried, key=lambda x: prior.get(x, 0.0))
                else:
                    a = untried[rng.randrange(len(untried))]
                ch = children[a] = _Node(len(node.value))
                ch.avail = 1
                return a, ch, True
        c = self.c
        order = node.order
        best_a: Action | None = None
        best_ch: _Node | None = None
        best_u = -math.inf
        for a, ch in present:
            u = ch.value[seat] / ch.visits + c * math.sqrt(math.log(ch.avail) / ch.visits) if ch.visits else math.inf
            if order is not None:
                u += order.get(a, 0.0) / (1 + ch.visits)  # progressive bias from the one-ply order
            if u > best_u:
                best_a, best_ch, best_u = a, ch, u
        assert best_a is not None and best_ch is not None
        return best_a, best_ch, False

    def _ranked(self, s: State, legal: Sequence[Action], seat: int, node: _Node | None = None) -> dict[Any, float]:
        """The one-ply order of ``legal`` for ``seat`` (the greedy agent's, plans weighed whole): a prior in
        (0, 1] per action (``plans=2``: and per plan, each then a child of ``node``)."""
        values: dict[Any, float] = {a: expected_value(s.apply_unchecked(a), seat, max_outcomes=6) for a in legal}
        if self._plans == 2 and node is not None:
            node.plans = self._plan_children(s, values, seat)
        elif self._plans:
            with_plans(s, values, seat, max_outcomes=6)
        ranked = sorted(values, key=lambda a: -values[a])
        n = len(ranked)
        return {a: 1.0 - i / n for i, a in enumerate(ranked)}

    @staticmethod
    def _plan_children(s: State, values: dict[Any, float], seat: int) -> list[_Plan]:
        """``plans=2``: the ruleset's plans at ``s`` as children, each valued (into ``values``) by the position
        after all its actions."""
        out = []
        for plan in s.ruleset.plans(s, list(values)):
            if plan[0] in values:
                p = _Plan(plan)
                values[p] = plan_value(s, plan, seat, max_outcomes=6)
                out.append(p)
        return out

    def _best_of(self, s: State, acts: Sequence[Action], rng: random.Random) -> Action:
        """The rollout's informed step: the best of ``pick`` actions sampled without replacement, by the evaluation
        of the seat to move."""
        seat = s.to_move
        assert seat is not None and seat >= 0
        sample = acts if len(acts) <= self.pick else rng.sample(acts, self.pick)
        evaluate = s.ruleset.evaluate
        return max(sample, key=lambda a: evaluate(s.apply_unchecked(a), seat))

    # ---- tree reuse --------------------------------------------------------------------------------------
    def _keep(self, state: State, me: int, choice: Any, root: _Node) -> None:
        """What the next decision may take up: the chosen child's subtree (``reuse``), and a chosen plan's moves
        after its first."""
        self._kept = None
        plan = isinstance(choice, _Plan)
        if not self.reuse and not plan:
            return
        child = root.children.get(choice)
        after = state.apply_unchecked(choice[0] if plan else choice)
        if child is not None and after.to_move == me:
            self._kept = (me, after.view(me), child, list(choice[1:]) if plan else [])

    def _planned(self, state: State, me: int) -> Action | None:
        """The next move of the plan the last search chose, when the seat moves again at once, in the position
        the plan predicted, and the move is still legal; the plan is then followed rather than searched again."""
        kept = self._kept
        if kept is None or not kept[3] or kept[0] != me or state.view(me) != kept[1] or not state.is_legal(kept[3][0]):
            return None
        move = kept[3][0]
        after = state.apply_unchecked(move)
        self._kept = (me, after.view(me), kept[2], kept[3][1:]) if after.to_move == me else None
        return move

    def _reused(self, state: State, me: int) -> _Node | None:
        kept, self._kept = self._kept, None
        if kept is None or kept[3] or not self.reuse or kept[0] != me or state.view(me) != kept[1]:
            return None
        node = kept[2]
        node.order = None
        node.plans = []
        return node
