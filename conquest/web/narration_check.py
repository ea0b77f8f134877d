"""The narration checks of one game, as the web app narrates it (issue 27, reused by ``conquest doctor`` and
the test suite): seeded random games are replayed and narrated for every viewer — the action withheld from the
viewers it is hidden from, exactly as ``conquest.web.games`` does — and each line is compared with the position
after it:

* a line of a seat's action names that seat first (``conquest.core.narration.named_seat``);
* the line's ``facts`` (what it says was built, taken, destroyed) hold on the viewer's view after the action
  (``conquest.core.narration.check_facts``).
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from conquest.core.chance import sample_chance
from conquest.core.game import CHANCE, State
from conquest.core.narration import check_facts, named_seat
from conquest.core.registry import get_ruleset
from conquest.web.games import narrate_step
from conquest.web.visibility import action_visibility, hidden_parts, viewers

PREFER = ("play", "destroy", "claim", "conquer")
"""Action words the checked games choose more often (cards, conquests: the lines with facts)."""


@dataclass
class Step:
    index: int
    notation: str
    chance: bool
    before: State
    after: State
    hidden_from: list[int | None]
    lines: dict[int | None, dict[str, Any]]

    @property
    def verb(self) -> str:
        return self.notation.split()[0]


def play(rid: str, seed: int = 1, steps: int = 400, players: int | None = None,
         options: dict[str, Any] | None = None, prefer: tuple[str, ...] = ()) -> Iterator[Step]:
    """A seeded random game (``prefer``: verbs chosen more often), narrated step by step."""
    rs = get_ruleset(rid)
    state = rs.new_game(players, options, seed)
    rng = random.Random(seed)
    names = rs.seat_names(state.players, state.options)
    views = {s: state.view(s) for s in viewers(state.players)}
    hidden = hidden_parts(state)
    for i in range(steps):
        if state.to_move is None:
            return
        if state.to_move == CHANCE:
            action = sample_chance(state, rng)
        else:
            legal = list(state.legal_actions())
            liked = [a for a in legal if rs.format_action(a).split()[0] in prefer]
            action = rng.choice(liked if liked and rng.random() < 0.6 else legal)
        new = state.apply(action)
        new_views = {s: new.view(s) for s in viewers(new.players)}
        new_hidden = hidden_parts(new)
        hidden_from, _barrier = action_visibility(state, action, new, hidden, new_hidden, budget=1.0)
        lines = narrate_step(rs, views, action, new_views, hidden_from, names)
        yield Step(i, rs.format_action(action), state.to_move == CHANCE, state, new, hidden_from, lines)
        state, views, hidden = new, new_views, new_hidden


@dataclass
class NarrationReport:
    problems: list[str] = field(default_factory=list)
    lines: int = 0
    facts: int = 0
    games: int = 0


def narration_problems(rid: str, players: int | None, seed: int, steps: int = 700,
                       prefer: tuple[str, ...] = PREFER) -> NarrationReport:
    """One seeded random game of ``rid`` narrated to every viewer: the lines that contradict the game."""
    rs = get_ruleset(rid)
    out = NarrationReport(games=1)
    for step in play(rid, seed, steps=steps, players=players, prefer=prefer):
        actor = step.before.to_move
        for viewer, line in step.lines.items():
            out.lines += 1
            before_view = step.before.view(viewer)
            if isinstance(actor, int) and actor >= 0:
                named = named_seat(line["text"], rs.log_names(before_view), viewer)
                if named != actor:
                    out.problems.append(f"step {step.index} '{step.notation}' by seat {actor}, told to {viewer}: "
                                        f"{line['text']!r} names seat {named}")
            out.facts += len(line.get("facts", ()))
            out.problems += [f"step {step.index} '{step.notation}', told to {viewer}: {p}"
                             for p in check_facts(line, step.after.view(viewer))]
    return out


def check_narration(rid: str, min_lines: int = 500, max_games: int = 20) -> NarrationReport:
    """The games of the ruleset's ``test_settings.narration_games``, then more seeds (up to ``max_games`` in
    all) until at least ``min_lines`` lines were compared (a short game is played more often)."""
    rs = get_ruleset(rid)
    declared = list(rs.test_settings.narration_games)
    last = max((s for _p, s in declared), default=0)
    extra: list[tuple[int | None, int]] = [(None, last + 1 + k) for k in range(max(0, max_games - len(declared)))]
    total = NarrationReport()
    for k, (players, seed) in enumerate(declared + extra):
        if k >= len(declared) and total.lines >= min_lines:
            break
        got = narration_problems(rid, players, seed)
        total.problems += got.problems
        total.lines += got.lines
        total.facts += got.facts
        total.games += 1
    return total
