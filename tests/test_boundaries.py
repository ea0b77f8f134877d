"""The trust boundaries of every ruleset, property-based (Hypothesis drives ``conquest.analysis.fuzz``):
random legal play with every contract check at every step (JSON round trip and ``==``, the order of the legal
actions after a load, notation, chance, per-seat and spectator views, aliasing, checked against unchecked
apply), then hostile inputs to each boundary: text to ``parse_action``, values that are not actions to
``apply`` and ``format_action``, mutated documents to ``state_from_json``. Only ``NotationError``,
``IllegalAction`` and ``StateFormatError`` may leave. ``benchmarks/fuzz.py`` runs the same at 10^6 actions."""

from __future__ import annotations

import copy
import random
from functools import cache
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from conquest.analysis import fuzz
from conquest.core.chance import sample_chance
from conquest.core.errors import IllegalAction, NotationError, StateFormatError
from conquest.core.game import CHANCE, State
from conquest.core.registry import rulesets

RULESETS = sorted(rulesets())
SETTINGS = settings(max_examples=4, deadline=None, derandomize=True,
                    suppress_health_check=[HealthCheck.too_slow])


def _ok(tally: fuzz.Tally) -> None:
    assert not tally.violations, "\n".join(tally.violations[:10])


@cache
def positions(rid: str) -> tuple[State, ...]:
    """A few positions of one random game (start, early, middle) to aim hostile inputs at."""
    rs = rulesets()[rid]
    rng = random.Random(11)
    state = rs.new_game(None, {}, 11)
    out = [state]
    for i in range(1, 161):
        if state.to_move is None:
            break
        legal = list(state.legal_actions())
        state = state.apply(sample_chance(state, rng) if state.to_move == CHANCE else rng.choice(legal))
        if i in (20, 80, 160):
            out.append(state)
    return tuple(out)


@pytest.mark.parametrize("rid", RULESETS)
@SETTINGS
@given(seed=st.integers(0, 2 ** 31))
def test_random_play_keeps_every_promise_at_every_step(rid: str, seed: int) -> None:
    tally = fuzz.Tally()
    rs = rulesets()[rid]
    fuzz.random_game(rs, random.Random(seed), rs.test_settings.fuzz_steps, tally)  # per example: the suite stays fast
    assert tally.steps > 0
    _ok(tally)


JSONISH = st.recursive(st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=12),
                       lambda c: st.lists(c, max_size=4) | st.dictionaries(st.text(max_size=6), c, max_size=4)
                       | st.tuples(c, c), max_leaves=8)
NON_ACTIONS = JSONISH | st.tuples(st.text(max_size=10), JSONISH) | st.tuples(st.sampled_from(
    ["move", "end", "pass", "play", "claim", "claim2", "redeploy", "hit", "buy", "from", "roll", "power"]),
    st.integers(-5, 10 ** 12) | st.booleans() | st.none() | st.floats() | st.text(max_size=6))


@pytest.mark.parametrize("rid", RULESETS)
@settings(max_examples=60, deadline=None, derandomize=True)
@given(value=NON_ACTIONS, which=st.integers(0, 3))
def test_values_that_are_not_actions_are_refused(rid: str, value: Any, which: int) -> None:
    rs = rulesets()[rid]
    ps = positions(rid)
    state = ps[which % len(ps)]
    before = state.to_json()
    try:
        assert isinstance(rs.format_action(value), str)
    except NotationError:
        pass
    try:
        after = state.apply(value)
        assert any(type(value) is type(a) and value == a for a in state.legal_actions())
        assert after is not state
    except (IllegalAction, NotationError):
        pass
    assert state.to_json() == before


NOTATION_TEXT = st.text(max_size=30) | st.lists(
    st.sampled_from(fuzz.ODD_TEXT + ["move", "end", "pass", "play", "claim", "redeploy", "hit", "buy", "r1",
                                     "3,4", "1", "0", "ship", "guardian", "conquer", "power", "race", "pick"]),
    min_size=1, max_size=5).map(" ".join)


@pytest.mark.parametrize("rid", RULESETS)
@settings(max_examples=150, deadline=None, derandomize=True)
@given(text=NOTATION_TEXT)
def test_any_text_parses_to_an_action_that_round_trips_or_is_refused(rid: str, text: str) -> None:
    rs = rulesets()[rid]
    try:
        a = rs.parse_action(text)
    except NotationError:
        return
    assert rs.parse_action(rs.format_action(a)) == a


@pytest.mark.parametrize("rid", RULESETS)
@settings(max_examples=40, deadline=None, derandomize=True)
@given(seed=st.integers(0, 2 ** 31), which=st.integers(0, 3))
def test_mutated_state_documents_are_refused_or_playable(rid: str, seed: int, which: int) -> None:
    rs = rulesets()[rid]
    ps = positions(rid)
    tally = fuzz.Tally()
    fuzz.hostile_documents(rs, ps[which % len(ps)], random.Random(seed), tally, 4)
    fuzz.hostile_actions(rs, ps[which % len(ps)], random.Random(seed), tally, 4)
    _ok(tally)


@pytest.mark.parametrize("rid", RULESETS)
def test_a_refusal_names_the_field(rid: str) -> None:
    """A negative count, a bool where a number belongs, a null where a list belongs, a list where a name belongs:
    each refused naming it."""
    rs = rulesets()[rid]
    doc = positions(rid)[-1].to_json()
    paths = [p for p in fuzz._paths(doc) if p and p[0] not in ("format", "ruleset", "rules_version", "players",
                                                                   "options", "to_move", "derived", "result")]
    refused = 0
    for path in paths:
        value: Any = doc
        for k in path:
            value = value[k]
        if type(value) is int:
            bads = [-1 - value, True, 10 ** 12]
        elif isinstance(value, list):
            bads = [None, 7]
        elif isinstance(value, str):
            bads = [[], {"x": 1}]  # unhashable where a name belongs: no loader may use it as a key unchecked
        else:
            continue
        for bad in bads:
            broken = copy.deepcopy(doc)
            target: Any = broken
            for k in path[:-1]:
                target = target[k]
            target[path[-1]] = bad
            try:
                rs.state_from_json(broken)
            except StateFormatError as e:
                refused += 1
                assert e.field != "(document)", f"{path} = {bad!r}: {e}"
                assert e.field.split("/")[0] == str(path[0]), f"{path} = {bad!r} refused as {e}"
    assert refused > 0


def test_nerath_counts_are_bounded() -> None:
    """"Your forces aren't limited by the mix of pieces and chips available": a document still may not hold
    more pieces than a game can field (500 of a realm), or one kind in one space beyond that, or legal_actions would
    list a move per count."""
    rs = rulesets()["nerath"]
    doc = positions("nerath")[-1].to_json()
    sp = next(iter(doc["pieces"]))
    realm = next(iter(doc["pieces"][sp]))
    piece = next(iter(doc["pieces"][sp][realm]))
    for n in (100_000, 10 ** 9):
        doc["pieces"][sp][realm][piece] = n
        with pytest.raises(StateFormatError, match=f"pieces/{sp}/{realm}/{piece}"):
            rs.state_from_json(doc)


def test_the_action_shape_and_notation_numbers() -> None:
    """One shape test serves every ruleset: a word, then words and whole numbers; bool is not a number
    (``True == 1`` would pass a membership test); notation numbers are ASCII digits (``²`` passes
    ``str.isdigit`` and then fails ``int``)."""
    from conquest.core.notation import is_action, is_digits
    assert is_action(("move", "k03", 2)) and is_action(("end",))
    for bad in [(), ("move", True), ("move", 1.0), (1, "x"), ["end"], "end", None, ("move", None),
                ("move", 10 ** 12), tuple(["x"] * 40)]:
        assert not is_action(bad), bad
    assert is_digits("12") and not any(is_digits(t) for t in ["²", "١", "1_0", "+1", "", " 1", "1" * 10])
    for rid in RULESETS:
        rs = rulesets()[rid]
        state = positions(rid)[0]
        for bad in [None, 5, ("end", True), [], ("end",) * 20]:
            with pytest.raises(IllegalAction, match="not an action"):
                state.apply(bad)
            with pytest.raises(NotationError):
                rs.format_action(bad)


def test_nerath_a_realm_fields_at_most_500_pieces() -> None:
    rs = rulesets()["nerath"]
    doc = positions("nerath")[-1].to_json()
    stacks = [(sp, realm, piece) for sp, by in doc["pieces"].items() for realm, row in by.items() for piece in row]
    sp, realm, piece = stacks[0]
    mine = [(s, p) for s, r, p in stacks if r == realm]
    total = sum(doc["pieces"][s][realm][p] for s, p in mine)
    doc["pieces"][sp][realm][piece] += 500 - total
    assert rs.state_from_json(doc).legal_actions()  # at the bound: accepted and playable
    s2, p2 = mine[-1]
    doc["pieces"][s2][realm][p2] += 1
    with pytest.raises(StateFormatError, match=f"^pieces: {realm} has 501 pieces"):
        rs.state_from_json(doc)
