"""What the 10^6-action fuzz run (benchmarks/fuzz.py, issue 33) found, kept as tests: each replays the chunk that
failed, up to just past the failing step, with every contract check."""

from __future__ import annotations

from conquest.analysis import fuzz
from conquest.core.registry import get_ruleset


def test_encampments_taken_by_the_seats_own_declined_ghouls_stay_five_in_all() -> None:
    """Chunk smallworld:103 (and 106): seat 1's declined Ghouls conquered two regions of the seat's own active
    Bivouacking race, whose Encampments went "loose" for a defender's redeployment that never comes (the seat
    is not its own defender); the seat then placed Encampments again in its redeployment, 4 on the board and 2
    loose, and the state's own JSON was refused ("more encampments than the 5 of the box"). The Encampments of
    the player whose turn it is go back to its stock at once (Bivouacking: "5 Encampments")."""
    tally = fuzz.run(get_ruleset("smallworld"), 4800, 103)
    assert tally.violations == [], tally.violations[:3]
