"""Reinforcement learning: PettingZoo (every seat) and Gymnasium (one seat against agents) environments for
every ruleset. numpy, Gymnasium and PettingZoo come with the ``rl`` extra; nothing here is imported until asked.
See docs/rl.md for the observations and the action encoding."""

from __future__ import annotations

from typing import Any


def env(ruleset: str, players: int | None = None, options: dict[str, Any] | None = None,
        render_mode: str | None = None, **kwargs: Any) -> Any:
    """A PettingZoo AEC environment of ``ruleset`` (``max_decisions``, ``shaped_reward``: see docs/rl.md)."""
    from conquest.rl.pettingzoo_env import ConquestAEC
    return ConquestAEC(ruleset, players, options, render_mode=render_mode, **kwargs)


def gym_env(ruleset: str, seat: int | str = 0, opponents: Any = "greedy", players: int | None = None,
            options: dict[str, Any] | None = None, **kwargs: Any) -> Any:
    """A Gymnasium environment: ``seat`` learns (``"random"``: drawn each episode), agents play the others."""
    from conquest.rl.gymnasium_env import ConquestGym
    return ConquestGym(ruleset, seat=seat, opponents=opponents, players=players, options=options, **kwargs)


__all__ = ["env", "gym_env"]
