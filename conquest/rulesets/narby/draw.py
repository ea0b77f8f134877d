"""Draw Phase (rules document 001, sections "Phases" and "Draw Phase"): a round begins ("Cycle through 3
phases each round": Draw, Populate, Action, Tribute) and, with option cards, "All cards are returned and
shuffled. A random bonus card is handed out to each Dragon." Then the Populate Phase
(``populate.start_populate``). Reading R30 in docs/rules/narby.md.
"""

from __future__ import annotations

from typing import Any

from conquest.rulesets.narby.populate import start_populate
from conquest.rulesets.narby.state import NarbyData
from conquest.rulesets.narby.variant import tables_of


def start_round(s: NarbyData) -> None:
    s.round += 1
    s.hand = [None] * s.players
    s.played = []
    s.used = 0  # "Power once per round"
    s.ev = None
    if s.options["cards"]:
        # "All cards are returned and shuffled. A random bonus card is handed out to each Dragon."
        s.phase = "draw"
        s.k = 0
        s.node, s.who = "draw", -1
    else:
        start_populate(s)


def card_outcomes(s: NarbyData) -> list[tuple[Any, float]]:
    """``card ID`` at node draw: each card not dealt yet, equally likely (one card of each title)."""
    left = [c for c in tables_of(s).card_ids if c not in s.hand and c not in s.played]
    p = 1 / len(left)
    return [(("card", c), p) for c in left]


def deal_card(s: NarbyData, action: Any) -> None:
    s.hand[s.k] = action[1]
    s.k += 1
    if s.k >= s.players or len(tables_of(s).card_ids) <= s.k:
        start_populate(s)
