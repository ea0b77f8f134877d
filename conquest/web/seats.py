"""The seat kinds a web server offers, and nothing else.

A client names a seat's kind; the server looks the name up, whole, in a table made when it starts:

* ``human``;
* the levels (``easy``, ``normal``, ``hard``: ``conquest.agents.base.LEVEL_SETTINGS``), each an agent with a
  time budget per decision and per whole turn;
* the named agents the operator enables (``conquest serve --agents greedy,random``; ``random`` and ``greedy``
  by default): each an agent spec written by the operator, never by a client;
* the trained policies installed in the operator's folder (``conquest serve --policies DIR``; none by default),
  as ``policy:NAME``.

A client's text is never parsed as an agent spec and never reaches the file system: an unknown kind is refused
with one line that lists the kinds offered and says nothing about the server's files. Every computer seat plays
within the operator's limits (``decision_limit`` seconds per decision, ``turn_limit`` per whole turn), a level
within its own smaller budgets.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from conquest.agents.base import LEVEL_SETTINGS, Agent
from conquest.core.errors import ConquestError

log = logging.getLogger("conquest.web")

HUMAN = "human"
DEFAULT_AGENTS = ("random", "greedy")
DECISION_LIMIT = 5.0  # seconds per decision at most (the operator's)
TURN_LIMIT = 10.0  # seconds per whole turn at most (the operator's)


@dataclass(frozen=True)
class SeatKind:
    """A computer seat kind: how to make its agent and its budgets (seconds per decision and per whole turn)."""

    kind: str
    label: str
    help: str
    make: Callable[[], Agent]
    decision: float
    turn: float


class SeatKinds:
    """The table of seat kinds of one server (see the module's docstring)."""

    def __init__(self, agents: Iterable[str] | None = None, policies: str | None = None,
                 decision_limit: float = DECISION_LIMIT, turn_limit: float = TURN_LIMIT) -> None:
        from conquest.agents import get_agent
        if not decision_limit > 0 or not turn_limit > 0:
            raise ConquestError("the thinking limits must be more than 0 seconds")
        self.decision_limit, self.turn_limit = float(decision_limit), float(turn_limit)
        self.kinds: dict[str, SeatKind] = {}
        for level, lv in LEVEL_SETTINGS.items():
            get_agent(lv.spec)  # a level is always a valid spec
            decision, turn = float(min(lv.decision, decision_limit)), float(min(lv.turn, turn_limit))
            self.kinds[level] = SeatKind(level, lv.label, lv.describe(decision, turn), _maker(lv.spec), decision, turn)
        self.levels = list(LEVEL_SETTINGS)
        self.agents: list[str] = []
        for spec in DEFAULT_AGENTS if agents is None else agents:
            spec = spec.strip()
            if not spec:
                continue
            if spec == HUMAN or spec in self.kinds:
                raise ConquestError(f"'{spec}' is already a seat kind of every server; --agents names agents")
            if spec.split(":")[0] == "policy":
                raise ConquestError("policies are served by name from a folder (--policies DIR), not as agents")
            if len(spec) > 32:
                raise ConquestError(f"agent spec '{spec[:40]}...' is longer than a seat kind may be (32 characters)")
            agent = get_agent(spec, human_ok=False)  # a bad spec is the operator's one-line error
            if not agent.honours_deadline:
                log.warning("agent %s does not stop at its deadline: only the waiting stops after the thinking "
                            "limit", spec)
            self.kinds[spec] = SeatKind(spec, spec, _agent_help(agent), _maker(spec), self.decision_limit,
                                        self.turn_limit)
            self.agents.append(spec)
        self.policies: dict[str, Any] = {}
        if policies:
            from conquest.rl.policy_agent import installed_policies
            for name, policy in installed_policies(policies).items():
                kind = f"policy:{name}"
                self.policies[kind] = policy
                self.kinds[kind] = SeatKind(kind, name, policy.help, _policy_maker(name, policy),
                                            self.decision_limit, self.turn_limit)

    def names(self) -> list[str]:
        """Every seat kind offered, ``human`` first, then the levels, the agents and the policies."""
        return [HUMAN, *self.kinds]

    def get(self, kind: str) -> SeatKind | None:
        """The computer seat kind named exactly ``kind`` (None for ``human`` and for anything not offered)."""
        return self.kinds.get(kind) if isinstance(kind, str) else None

    def refusal(self) -> str:
        """The one line an unknown seat kind gets: what is offered, nothing else."""
        return f"this server does not offer that seat kind; it offers: {', '.join(self.names())}"

    def describe(self) -> dict[str, Any]:
        """What ``GET /api/rulesets`` says of the seat kinds (``seat_kinds``, ``levels``, ``agents``, ``policies``)."""
        def entry(k: SeatKind) -> dict[str, Any]:
            return {"label": k.label, "help": k.help, "decision_seconds": k.decision, "turn_seconds": k.turn}
        return {"seat_kinds": self.names(),
                "levels": {lv: {"spec": LEVEL_SETTINGS[lv].spec, **entry(self.kinds[lv])} for lv in self.levels},
                "agents": [{"kind": a, **entry(self.kinds[a])} for a in self.agents],
                "policies": [{"kind": p, "name": self.kinds[p].label, "help": self.kinds[p].help,
                              "ruleset": pol.ruleset, "players": pol.players}
                             for p, pol in self.policies.items()],
                "limits": {"decision_seconds": self.decision_limit, "turn_seconds": self.turn_limit}}


def _maker(spec: str) -> Callable[[], Agent]:
    def make() -> Agent:
        from conquest.agents import get_agent
        return get_agent(spec, human_ok=False)
    return make


def _policy_maker(name: str, policy: Any) -> Callable[[], Agent]:
    def make() -> Agent:
        from conquest.rl.policy_agent import PolicyAgent
        return PolicyAgent(policy=policy, name=name)
    return make


def _agent_help(agent: Agent) -> str:
    doc = (type(agent).__doc__ or agent.id).strip().split("\n\n")[0]
    return " ".join(doc.split())[:160]
