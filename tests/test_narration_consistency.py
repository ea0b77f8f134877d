"""A narrated line never contradicts the board (issue 27): random games of every ruleset in the registry are
replayed and narrated for every viewer as the web app narrates them (tests/narration.py), and each line is
compared with the position after it —

* a line of a seat's action names that seat first ("Nobody does something you cannot see" named no one);
* the line's ``facts`` (what it says was built, taken, destroyed, as checks on the viewer's view after the
  action, ``conquest.core.narration.fact``) hold ("nothing is built at 1,9" while a town appeared there did not).
"""

from __future__ import annotations

import pytest

from conquest.core.narration import check_facts, named_seat
from conquest.core.registry import get_ruleset, rulesets
from tests.narration import play

GAMES = {"kingdom": [(2, 1), (2, 2)], "narby": [(3, 1), (2, 2), (4, 3)], "nerath": [(4, 1), (2, 2)],
         "smallworld": [(3, 1), (2, 2)]}


def problems(rid: str, players: int, seed: int, steps: int = 700) -> tuple[list[str], int, int]:
    rs = get_ruleset(rid)
    out: list[str] = []
    lines = facts = 0
    for step in play(rid, seed, steps=steps, players=players, prefer=("play", "destroy", "claim", "conquer")):
        actor = step.before.to_move
        for viewer, line in step.lines.items():
            lines += 1
            before_view = step.before.view(viewer)
            if isinstance(actor, int) and actor >= 0:
                named = named_seat(line["text"], rs.log_names(before_view), viewer)
                if named != actor:
                    out.append(f"step {step.index} '{step.notation}' by seat {actor}, told to {viewer}: "
                               f"{line['text']!r} names seat {named}")
            facts += len(line.get("facts", ()))
            out += [f"step {step.index} '{step.notation}', told to {viewer}: {p}"
                    for p in check_facts(line, step.after.view(viewer))]
    return out, lines, facts


def test_every_ruleset_is_checked() -> None:
    assert set(GAMES) == set(rulesets())


@pytest.mark.parametrize("rid", sorted(GAMES))
def test_narrated_lines_agree_with_the_board(rid: str) -> None:
    found: list[str] = []
    total = 0
    for players, seed in GAMES[rid]:
        got, lines, _facts = problems(rid, players, seed)
        found += got
        total += lines
    assert total > 500
    assert not found, f"{len(found)} lines contradict the game:\n" + "\n".join(found[:15])


@pytest.mark.parametrize("rid", ["narby", "smallworld"])
def test_lines_carry_facts(rid: str) -> None:
    """The narby narration states its settlements, claims and destroys as facts, the smallworld narration its
    conquests, conversions and abandoned regions; the check above tests them."""
    _found, _lines, facts = problems(rid, 3, 1)
    assert facts > 50
