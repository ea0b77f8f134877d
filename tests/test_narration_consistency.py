"""A narrated line never contradicts the board (issue 27): random games of every ruleset in the registry are
replayed and narrated for every viewer as the web app narrates them (``conquest.web.narration_check``, which
``conquest doctor`` runs too), and each line is compared with the position after it —

* a line of a seat's action names that seat first ("Nobody does something you cannot see" named no one);
* the line's ``facts`` (what it says was built, taken, destroyed, as checks on the viewer's view after the
  action, ``conquest.core.narration.fact``) hold ("nothing is built at 1,9" while a town appeared there did not).

The games are each ruleset's ``test_settings.narration_games``, and more seeds for a short game.
"""

from __future__ import annotations

import pytest

from conquest.core.registry import rulesets
from conquest.web.narration_check import check_narration, narration_problems


@pytest.mark.parametrize("rid", sorted(rulesets()))
def test_narrated_lines_agree_with_the_board(rid: str) -> None:
    report = check_narration(rid, min_lines=500)
    assert report.lines >= 500
    assert not report.problems, f"{len(report.problems)} lines contradict the game:\n" + "\n".join(
        report.problems[:15])


@pytest.mark.parametrize("rid", ["narby", "smallworld"])
def test_lines_carry_facts(rid: str) -> None:
    """The narby narration states its settlements, claims and destroys as facts, the smallworld narration its
    conquests, conversions and abandoned regions; the check above tests them."""
    assert narration_problems(rid, 3, 1).facts > 50
