"""Acceptance means the state plays (issue 33, section 4). ``state_from_json`` either refuses a document with
``StateFormatError`` naming a field, or the state it returns can be played: each of its legal actions (or
chance outcomes) applies, and the state that follows writes a document that the same loader accepts again.

The documents are positions reached by seeded random play, edited by Hypothesis the way a hand-edited or
hostile file would be: values that keep their type but lose their coherence with the rest (a count nudged up or
down or set to a bound, a name swapped for another name of the document, a list item dropped or repeated, a key
dropped or copied under another name, an object emptied). The deeply nested Python objects of the issue get
their own test."""

from __future__ import annotations

import copy
import json
import random
from functools import cache
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from conquest.core.chance import sample_chance
from conquest.core.errors import StateFormatError
from conquest.core.game import CHANCE, Ruleset, State
from conquest.core.records import Record
from conquest.core.registry import rulesets

RULESETS = sorted(rulesets())
HEADER = ("format", "ruleset", "rules_version", "players", "options", "derived")
EXAMPLES = {"kingdom": 250, "narby": 200, "smallworld": 90, "nerath": 80}   # a few tens of seconds each
DEFAULT_EXAMPLES = 100  # another game
ACTIONS_TRIED = 25


@cache
def positions(rid: str) -> tuple[dict[str, Any], ...]:
    """Documents of positions reached by play: two seeded random games, every 4th step to 400 steps."""
    rs = rulesets()[rid]
    out: list[dict[str, Any]] = []
    for seed in (1, 2):
        rng = random.Random(seed)
        state = rs.new_game(None, {}, seed)
        for i in range(400):
            if state.to_move is None:
                break
            if i % 4 == 0:
                out.append(state.to_json())
            state = state.apply(sample_chance(state, rng) if state.to_move == CHANCE
                                else rng.choice(list(state.legal_actions())))
        out.append(state.to_json())
    return tuple(out)


from conquest.analysis.fuzz import _paths  # noqa: E402 - every path of a document, as the fuzzer mutates them


def _at(doc: Any, path: tuple[Any, ...]) -> Any:
    for k in path:
        doc = doc[k]
    return doc


def _strings(doc: Any, out: set[str]) -> set[str]:
    if isinstance(doc, dict):
        for k, v in doc.items():
            out.add(k)
            _strings(v, out)
    elif isinstance(doc, list):
        for v in doc:
            _strings(v, out)
    elif isinstance(doc, str):
        out.add(doc)
    return out


@st.composite
def edited_documents(draw: Any, rid: str) -> dict[str, Any]:
    doc = copy.deepcopy(draw(st.sampled_from(positions(rid))))
    names = sorted(_strings(doc, set()))
    for _ in range(draw(st.integers(1, 2))):
        paths = [p for p in _paths(doc) if p and p[0] not in HEADER]
        counts = [p for p in paths if type(_at(doc, p)) is int]
        path = draw(st.sampled_from(counts if counts and draw(st.booleans()) else paths))  # counts: half the edits
        parent: Any = doc
        for k in path[:-1]:
            parent = parent[k]
        key = path[-1]
        old = parent[key]
        how = draw(st.integers(0, 9))
        if how == 0 and isinstance(parent, dict):
            del parent[key]                                          # a field dropped
        elif type(old) is bool:
            parent[key] = not old
        elif type(old) is int:
            parent[key] = draw(st.sampled_from([0, 1, 2, old - 1, old + 1, old + 2, 2 * old + 3, 12, 40, 99, 100,
                                                500, 1_000, 10_000, 100_000, 999_999, 1_000_000])
                               | st.integers(0, 30))   # the bounds documents are read with among them
        elif isinstance(old, str) or old is None:
            parent[key] = draw(st.sampled_from(names + [0, 1] if old is None else names))
        elif isinstance(old, list):
            if old and how < 5:
                del old[draw(st.integers(0, len(old) - 1))]
            elif old and how < 8:
                i = draw(st.integers(0, len(old) - 1))
                old.insert(i, copy.deepcopy(old[i]))
            else:
                parent[key] = []
        elif isinstance(old, dict):
            if old and how < 5:
                del old[draw(st.sampled_from(sorted(old)))]
            elif old and how < 8:
                old[draw(st.sampled_from(names))] = copy.deepcopy(old[draw(st.sampled_from(sorted(old)))])
            else:
                parent[key] = {}
    return doc


def plays(rs: Ruleset, doc: dict[str, Any], rng: random.Random) -> str | None:
    """None when ``doc`` is refused with StateFormatError or plays; else what went wrong."""
    try:
        state = rs.state_from_json(doc)
    except StateFormatError as e:
        assert "\n" not in str(e) and e.field
        return None
    actions = ([a for a, _p in state.chance_outcomes()] if state.to_move == CHANCE
               else list(state.legal_actions()))
    if len(actions) > ACTIONS_TRIED:
        actions = rng.sample(actions, ACTIONS_TRIED)
    for a in actions:
        try:
            after: State = state.apply(a)
        except Exception as e:  # noqa: BLE001 - the failure under test
            return f"accepted; then '{rs.format_action(a)}' raised {type(e).__name__}: {e}"
        try:
            rs.state_from_json(json.loads(json.dumps(after.to_json())))
        except Exception as e:  # noqa: BLE001
            return f"accepted; after '{rs.format_action(a)}' its own document is refused: {e}"
    return None


def _acceptance_test(rid: str) -> Any:
    @settings(max_examples=EXAMPLES.get(rid, DEFAULT_EXAMPLES), deadline=None, derandomize=True, database=None,
              suppress_health_check=list(HealthCheck))
    @given(doc=edited_documents(rid), seed=st.integers(0, 2 ** 16))
    def check(doc: dict[str, Any], seed: int) -> None:
        problem = plays(rulesets()[rid], doc, random.Random(seed))
        assert problem is None, problem
    return check


@pytest.mark.parametrize("rid", RULESETS)
def test_an_accepted_document_plays_and_its_successors_load(rid: str) -> None:
    _acceptance_test(rid)()


@pytest.mark.parametrize("rid", RULESETS)
def test_the_positions_of_play_are_accepted(rid: str) -> None:
    """The other half of the property: what play reaches is never refused (and plays)."""
    rs = rulesets()[rid]
    for doc in positions(rid)[::5]:
        assert plays(rs, doc, random.Random(0)) is None
        rs.state_from_json(doc)


def _nested(depth: int, kind: str) -> Any:
    x: Any = 0
    for _ in range(depth):
        x = [x] if kind == "list" else {"a": x} if kind == "dict" else (x,)
    return x


@pytest.mark.parametrize("rid", RULESETS)
@pytest.mark.parametrize("depth", [40, 990, 5_000, 200_000])
def test_deeply_nested_values_are_refused_naming_the_field(rid: str, depth: int) -> None:
    """Nested past ~1,000 levels a value broke ``repr`` and pydantic with RecursionError; now every depth is a
    StateFormatError naming where, in a state and in a record."""
    rs = rulesets()[rid]
    base = rs.new_game(None, {}, 1).to_json()
    field = next(k for k in base if k not in HEADER and k != "to_move")
    for kind in ("list", "dict", "tuple"):
        doc = dict(base)
        doc[field] = _nested(depth, kind)
        with pytest.raises(StateFormatError) as e:
            rs.state_from_json(doc)
        assert e.value.field.split("/")[0] == field
        for key in ("options", "start", "seats"):
            record = {"format": "conquest-record/1", "ruleset": rid, "players": base["players"], "actions": [],
                      key: _nested(depth, kind)}
            with pytest.raises(StateFormatError):
                Record.from_json(record)


# ---- the cases the issue names, each refused naming its field --------------------------------------------------
def _first(rid: str, pred: Any) -> dict[str, Any]:
    return copy.deepcopy(next(d for d in positions(rid) if pred(d)))


def _refused(rid: str, doc: dict[str, Any], field: str) -> None:
    with pytest.raises(StateFormatError) as e:
        rulesets()[rid].state_from_json(doc)
    assert e.value.field == field, str(e.value)


def test_kingdom_a_move_under_way_needs_the_movers_soldier_tokens() -> None:
    """"Spend 1 Soldier token per army you wish to move": a move whose mover has no Soldier token left made
    'go' leave a count of -1."""
    doc = _first("kingdom", lambda d: d["phase"] == "move")
    doc["soldiers"][doc["current"]] = 0
    _refused("kingdom", doc, f"soldiers/{doc['current']}")


def test_kingdom_a_bonus_location_is_held_by_an_army_standing_there() -> None:
    """"each bonus location can only accommodate a single Army pawn": a pawn on a location of a territory where
    its player has no army is refused, in a pending vacate or place step too."""
    doc = _first("kingdom", lambda d: d["phase"] in ("vacate", "place"))
    empty = next(t for t, (r, b) in doc["armies"].items() if r == b == 0 and any(
        l.startswith(t + ".") and v is None for l, v in doc["locations"].items()))
    loc = next(l for l, v in doc["locations"].items() if l.startswith(empty + ".") and v is None)
    doc["locations"][loc] = doc["current"]
    _refused("kingdom", doc, "locations")


def test_nerath_movable_pieces_are_pieces_on_the_board() -> None:
    """A space's pieces deleted while ``movable`` still lists them: a legal move then left -1 Dragons."""
    doc = _first("nerath", lambda d: d["phase"] == "move" and d["movable"])
    sp = next(iter(doc["movable"]))
    piece = next(iter(doc["movable"][sp]))
    doc["pieces"][sp].pop(doc["realm"], None)
    if not doc["pieces"][sp]:
        del doc["pieces"][sp]
    _refused("nerath", doc, f"movable/{sp}/{piece}")


def test_narby_dragons_stay_on_the_board_after_the_set_up() -> None:
    """A dragon off the board during the Populate phase was accepted."""
    doc = _first("narby", lambda d: d["node"] in ("settle_x", "settle_y", "pop_roll", "chest_x"))
    doc["dragon_at"][1] = None
    _refused("narby", doc, "dragon_at/1")


@pytest.mark.parametrize("rid", ["narby", "smallworld", "nerath"])
def test_a_report_counter_at_its_bound_stays_there(rid: str) -> None:
    """A ``stats`` counter at 1,000,000 (the bound documents are read with) was accepted, and the next count
    made a document the loader refuses: counters stop at the bound, so play from it goes on."""
    rs = rulesets()[rid]
    rng = random.Random(3)
    for doc in positions(rid)[1::4]:
        doc = copy.deepcopy(doc)
        doc["stats"] = {k: 1_000_000 for k in rs.state_from_json(doc).to_json()["stats"]}
        assert plays(rs, doc, rng) is None


def _at_bound(rid: str, field: str) -> Any:
    from conquest.rulesets.narby.base import COINS_MAX
    from conquest.rulesets.nerath.serial import GOLD_MAX, VP_MAX

    def edit(doc: dict[str, Any]) -> None:
        if rid == "nerath":
            doc[field] = {k: GOLD_MAX if field == "gold" else VP_MAX for k in doc[field]}
        else:
            doc[field] = [COINS_MAX] * len(doc[field])
    return edit


@pytest.mark.parametrize("rid,field", [("nerath", "gold"), ("nerath", "vp"), ("narby", "coins")])
def test_a_resource_at_the_bound_documents_are_read_with_stays_there(rid: str, field: str) -> None:
    """Gold, victory points and coins at the bound of the state document were accepted, and the next income
    made a document the loader refuses (docs/rules/nerath.md, "Bounds of a state document": no game comes near):
    play stops them at the bound, so 60 random steps from there all write documents that load."""
    rs = rulesets()[rid]
    rng = random.Random(5)
    for doc in positions(rid)[1::10]:
        doc = copy.deepcopy(doc)
        _at_bound(rid, field)(doc)
        state = rs.state_from_json(doc)
        for _ in range(60):
            if state.to_move is None:
                break
            state = state.apply(sample_chance(state, rng) if state.to_move == CHANCE
                                else rng.choice(list(state.legal_actions())))
            rs.state_from_json(json.loads(json.dumps(state.to_json())))


def test_narby_a_round_past_the_round_limit_is_refused() -> None:
    """Option max_rounds "end[s] the game after this many rounds": a document in a later round is refused."""
    doc = _first("narby", lambda d: d["node"] == "act")
    doc["round"] = doc["options"]["max_rounds"] + 1
    _refused("narby", doc, "round")


def test_a_json_file_nested_past_the_parser_is_one_error(tmp_path: Any) -> None:
    """A file of 200,000 nested lists made ``json.loads`` raise RecursionError: now one ConquestError line."""
    from conquest.core.errors import ConquestError
    from conquest.core.jsondoc import read_json_file
    path = tmp_path / "deep.json"
    path.write_text("[" * 200_000 + "]" * 200_000)
    with pytest.raises(ConquestError) as e:
        read_json_file(path)
    assert "nested more than" in str(e.value) and "\n" not in str(e.value)
