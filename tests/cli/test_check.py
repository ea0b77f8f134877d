"""`conquest check`: each scenario file fails on its own with a reason; the others still run."""

from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner

from conquest.cli import app
from conquest.core.scenarios import run_file, run_scenario

runner = CliRunner()
BASE = {"ruleset": "kingdom", "players": 2, "setup": {"phase": "conquest", "current": 0, "soldiers": [2, 2]}}
GOOD = """ruleset: kingdom
players: 2
setup: {phase: conquest, current: 0, soldiers: [2, 2]}
steps:
  - play: recruit 1
expect:
  - {at: /reserve/0, equals: 7}
"""


def _run(*args: str):
    return runner.invoke(app, list(args))


def test_reject_fails_on_a_typo_and_reject_notation_tests_the_notation():
    typo = run_scenario({**BASE, "steps": [{"reject": "recrut 1"}]})
    assert not typo.ok and "not an action in the notation" in typo.failures[0]
    assert "reject_notation" in typo.failures[0]
    refused = run_scenario({**BASE, "steps": [{"reject": "recruit 3"}]})
    assert refused.ok, refused.failures
    notation = run_scenario({**BASE, "steps": [{"reject_notation": "recrut 1"}]})
    assert notation.ok, notation.failures
    valid = run_scenario({**BASE, "steps": [{"reject_notation": "recruit 3"}]})
    assert not valid.ok and "is valid notation" in valid.failures[0]


def test_legal_actions_and_legal_count():
    legal = ["recruit 1", "recruit 2", "stop", "move southbay", "move stonegate", "move copperhill",
             "move fernmarch", "move millbrook", "MOVE  redhold"]  # any spelling the notation accepts
    ok = run_scenario({**BASE, "expect": [{"legal_actions": list(reversed(legal))}, {"legal_count": 9}]})
    assert ok.ok, ok.failures
    missing = run_scenario({**BASE, "expect": [{"legal_actions": legal[:-1] + ["recruit 3"]}]})
    assert not missing.ok
    assert "also legal: move redhold" in missing.failures[0] and "not legal: recruit 3" in missing.failures[0]
    count = run_scenario({**BASE, "expect": [{"legal_count": 5}]})
    assert not count.ok and "9 legal actions, expected 5" in count.failures[0]


def test_non_string_key_and_bad_pointer_fail_their_file_only(tmp_path: Path):
    # the example of docs/rules/narby.md §8 as it was: in a flow mapping the comma ends the pointer
    (tmp_path / "a_int_key.yaml").write_text(GOOD + "  - {at: /claims/7,5, equals: 0}\n")
    (tmp_path / "b_pointer.yaml").write_text(GOOD + "  - {at: reserve/0, equals: 7}\n")
    (tmp_path / "c_good.yaml").write_text(GOOD)
    r = _run("check", str(tmp_path))
    assert r.exit_code == 1
    assert "Traceback" not in r.output and "TypeError" not in r.output
    assert f"FAIL {tmp_path / 'a_int_key.yaml'}: expect[1]: key 5 is not a string" in r.output
    assert f"FAIL {tmp_path / 'b_pointer.yaml'}: expect[1]: 'at' must be a JSON pointer starting with '/'" \
        in r.output
    assert "1 passed, 2 failed" in r.output


def test_yaml_errors_keep_line_and_column(tmp_path: Path):
    f = tmp_path / "broken.yaml"
    f.write_text("ruleset: kingdom\nsteps:\n  - play: [recruit 1\n")
    res = run_file(f)
    assert not res.ok and "line 4, column 1" in res.failures[0], res.failures


def test_map_yaml_errors_keep_line_and_column(tmp_path: Path):
    import pytest

    from conquest.core.maps import MapError, load_map
    f = tmp_path / "m.yaml"
    f.write_text("regions:\n  - {id: a\n")
    with pytest.raises(MapError, match=r"line \d+, column \d+"):
        load_map(f)


def test_verbose_lists_every_file(tmp_path: Path):
    (tmp_path / "one.yaml").write_text(GOOD)
    (tmp_path / "two.yaml").write_text(GOOD)
    quiet = _run("check", str(tmp_path))
    assert quiet.exit_code == 0 and "one.yaml" not in quiet.output
    loud = _run("check", "-v", str(tmp_path))
    assert loud.exit_code == 0
    assert f"ok   {tmp_path / 'one.yaml'}" in loud.output and f"ok   {tmp_path / 'two.yaml'}" in loud.output
