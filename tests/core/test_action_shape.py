"""One shape check for actions (issue 33, section 4): every public function that takes an action -- ``apply``,
``check``, ``is_legal``, ``illegal_reason``, ``refusal``, ``describe_action``, ``format_action``,
``action_odds``, ``narrate`` -- goes through ``core.game.require_action`` (installed once, in the ``State`` and
``Ruleset`` base classes) and raises only the contract's errors (``ConquestError`` subclasses), whatever the
value: a non-action, or an action-shaped value whose arguments name nothing in the position. Rulesets come
from the registry, so a new game is covered without a line here."""

from __future__ import annotations

import random
from collections.abc import Callable
from functools import cache
from typing import Any

import pytest

from conquest.core.chance import sample_chance
from conquest.core.errors import ConquestError, IllegalAction
from conquest.core.game import CHANCE, NOT_AN_ACTION, State, require_action
from conquest.core.registry import rulesets

RULESETS = sorted(rulesets())
NON_ACTIONS: list[Any] = [None, 0, [], {}, ("move", None), ("battle",), (None,), (), "", 1.5, True, ("go", 1.5),
                          ("go", True), [("move", "a")], ("x" * 100,), ("move",) * 20, (("move",),), object()]


@cache
def positions(rid: str) -> tuple[State, ...]:
    """The start of a random game, its first decision and every 15th position of it (decisions and chance
    nodes), to 300 steps (a short game has few)."""
    rs = rulesets()[rid]
    rng = random.Random(5)
    state = rs.new_game(None, {}, 5)
    out = [state]
    for i in range(300):
        if state.to_move is None:
            break
        state = state.apply(sample_chance(state, rng) if state.to_move == CHANCE
                            else rng.choice(list(state.legal_actions())))
        first_decision = state.to_move not in (None, CHANCE) and all(s.to_move in (None, CHANCE) for s in out)
        if i % 15 == 0 or first_decision:
            out.append(state)
    return tuple(out)


def wrong_arguments(state: State) -> list[Any]:
    """Action-shaped values made from legal ones: an argument dropped, added, or swapped for a name or a
    number that means nothing here."""
    out: list[Any] = []
    for a in list(state.legal_actions())[:6]:
        out.append(a[:1])
        out.append(a + ("nowhere",))
        for i in range(1, len(a)):
            out.append(a[:i] + ("nowhere",) + a[i + 1:])
            out.append(a[:i] + (999_999,) + a[i + 1:])
            out.append(a[:i] + (-1,) + a[i + 1:])
    return out


def calls(rid: str, state: State) -> dict[str, Callable[[Any], Any]]:
    rs = rulesets()[rid]
    view = state.view(None)
    return {"apply": state.apply, "check": state.check, "is_legal": state.is_legal,
            "illegal_reason": state.illegal_reason, "refusal": state.refusal,
            "describe_action": lambda a: rs.describe_action(state, a), "format_action": rs.format_action,
            "action_odds": lambda a: rs.action_odds(state, a),
            "narrate": lambda a: rs.narrate(view, a, view, None)}


@pytest.mark.parametrize("rid", RULESETS)
def test_every_function_that_takes_an_action_raises_only_the_contracts_errors(rid: str) -> None:
    failures = []
    for state in positions(rid):
        before = state.to_json()
        values = NON_ACTIONS + wrong_arguments(state)
        for name, fn in calls(rid, state).items():
            for value in values:
                try:
                    answer = fn(value)
                except ConquestError:
                    continue
                except Exception as e:  # noqa: BLE001 - the failure under test
                    failures.append(f"{name}({value!r}): {type(e).__name__}: {e}")
                    continue
                if name == "is_legal":
                    assert answer in (True, False)
                elif name in ("illegal_reason", "refusal", "describe_action", "format_action"):
                    assert isinstance(answer, str) and answer
        assert state.to_json() == before
    assert not failures, "\n".join(failures[:15])


@pytest.mark.parametrize("rid", RULESETS)
def test_a_non_action_gets_the_one_refusal_everywhere(rid: str) -> None:
    """The same words from every entry point: ``IllegalAction`` saying it is not an action (``illegal_reason``
    answers with the words, ``is_legal`` with False)."""
    state = next(s for s in positions(rid) if s.to_move not in (None, CHANCE))
    rs = rulesets()[rid]
    for value in (None, 0, [], {}, ("move", None), (None,)):
        narrate = [] if value is None else [lambda a: rs.narrate(state.view(0), a, state.view(0), 0)]
        for fn in [state.apply, lambda a: rs.describe_action(state, a), *narrate]:
            with pytest.raises(IllegalAction) as e:
                fn(value)
            assert NOT_AN_ACTION in str(e.value)
        assert state.illegal_reason(value) == NOT_AN_ACTION
        assert state.is_legal(value) is False
        with pytest.raises(ConquestError):
            rs.action_odds(state, value)
        with pytest.raises(IllegalAction):
            require_action(value)


@pytest.mark.parametrize("rid", RULESETS)
def test_legal_actions_pass_the_shape_check_unchanged(rid: str) -> None:
    """The check refuses only what is no action: every legal action passes it, is legal, and is described."""
    rs = rulesets()[rid]
    for state in positions(rid)[:6]:
        for a in list(state.legal_actions())[:20]:
            assert require_action(a) is a
            assert state.is_legal(a)
            assert isinstance(rs.describe_action(state, a), str)


def test_narrate_still_takes_an_action_the_seat_may_not_read() -> None:
    """``narrate``'s action is ``None`` when the seat may not read it: that is not refused."""
    for rid in RULESETS:
        rs = rulesets()[rid]
        state = positions(rid)[1]
        view = state.view(0)
        assert isinstance(rs.narrate(view, None, view, 0), dict)
