from __future__ import annotations

import pytest

from conquest.core.errors import ConquestError, OptionError
from conquest.core.jsondoc import merge_patch, resolve_pointer
from conquest.core.maps import MapError, parse_map
from conquest.core.options import Option, OptionsSpec, parse_option_pairs
from conquest.core.scenarios import run_scenario


def test_merge_patch_follows_rfc7386():
    target = {"a": "b", "c": {"d": "e", "f": "g"}}
    patch = {"a": "z", "c": {"f": None}}
    assert merge_patch(target, patch) == {"a": "z", "c": {"d": "e"}}
    assert merge_patch({"a": [1, 2]}, {"a": [3]}) == {"a": [3]}
    assert target == {"a": "b", "c": {"d": "e", "f": "g"}}


def test_json_pointer():
    doc = {"armies": {"a/b": [1, 2]}}
    assert resolve_pointer(doc, "/armies/a~1b/1") == 2
    with pytest.raises(ConquestError):
        resolve_pointer(doc, "/armies/zzz")


def test_options_validate_and_coerce():
    spec = OptionsSpec((Option("board", "a", "side", choices=("a", "b")),
                        Option("rounds", 4, "rounds", type=int, minimum=1, maximum=9),
                        Option("fast", False, "flag", type=bool)))
    assert spec.resolve({"rounds": "6", "fast": "yes"}) == {"board": "a", "rounds": 6, "fast": True}
    for bad in ({"board": "c"}, {"rounds": "0"}, {"rounds": "x"}, {"fast": "maybe"}, {"colour": "red"}):
        with pytest.raises(OptionError):
            spec.resolve(bad)
    assert parse_option_pairs(["a=1", "b = x"]) == {"a": "1", "b": "x"}
    with pytest.raises(OptionError):
        parse_option_pairs(["novalue"])


def _map(borders, regions=("a", "b", "c")):
    return {"regions": [{"id": r} for r in regions], "borders": borders}


def test_map_validation():
    m = parse_map(_map([["a", "b"], ["b", "c"]]))
    assert m.neighbors("b") == ["a", "c"] and m.adjacent("a", "b") and not m.adjacent("a", "c")
    with pytest.raises(MapError, match="unknown region 'z'"):
        parse_map(_map([["a", "z"]]))
    with pytest.raises(MapError, match="not connected"):
        parse_map(_map([["a", "b"]]))
    with pytest.raises(MapError, match="itself"):
        parse_map(_map([["a", "a"], ["a", "b"], ["b", "c"]]))
    with pytest.raises(MapError, match="duplicate"):
        parse_map(_map([["a", "b"]], regions=("a", "b", "a")))
    asym = {"regions": [{"id": "a", "adjacent": ["b"]}, {"id": "b", "adjacent": []}]}
    with pytest.raises(MapError, match="not symmetric"):
        parse_map(asym)


def test_scenario_runner_reports_failures():
    base = {"ruleset": "kingdom", "players": 2, "setup": {"phase": "conquest", "current": 0, "soldiers": [2, 2]}}
    ok = run_scenario({**base, "steps": [{"play": "recruit 1"}], "expect": [{"at": "/reserve/0", "equals": 7}]})
    assert ok.ok, ok.failures
    wrong = run_scenario({**base, "steps": [{"play": "recruit 1"}], "expect": [{"at": "/reserve/0", "equals": 8}]})
    assert not wrong.ok and "/reserve/0 is 7, expected 8" in wrong.failures[0]
    accepted = run_scenario({**base, "steps": [{"reject": "recruit 1"}]})
    assert not accepted.ok and "accepted" in accepted.failures[0]
    illegal = run_scenario({**base, "steps": [{"play": "recruit 3"}]})
    assert not illegal.ok and "Soldier token" in illegal.failures[0]
    bad_setup = run_scenario({**base, "setup": {"soldiers": "many"}})
    assert not bad_setup.ok and "soldiers" in bad_setup.failures[0]
    not_chance = run_scenario({**base, "steps": [{"chance": "roll 3"}]})
    assert not not_chance.ok and "not at a chance node" in not_chance.failures[0]


def test_scenario_expectations_can_read_a_seats_view():
    base = {"ruleset": "kingdom", "players": 2}
    ok = run_scenario({**base, "expect": [{"at": "/reserve/0", "view": 1, "equals": 8},
                                          {"at": "/reserve/0", "view": "spectator", "equals": 8}]})
    assert ok.ok, ok.failures
    bad = run_scenario({**base, "expect": [{"at": "/reserve/0", "view": 5, "equals": 8}]})
    assert not bad.ok and "view must be a seat" in bad.failures[0]
