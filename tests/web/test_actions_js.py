"""The action input's grouping (conquest/web/static/actions.js), run in Node when it is installed: actions that
differ only in a count share one stepper; actions whose number picks different things stay apart."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

ACTIONS = Path(__file__).resolve().parents[2] / "conquest" / "web" / "static" / "actions.js"
NODE = shutil.which("node")

SCRIPT = """
globalThis.document = { getElementById: () => null };
const { entries } = await import(process.argv[1]);
const mk = ([text, description]) => ({ text, description, places: [] });
const input = JSON.parse(process.argv[2]);
console.log(JSON.stringify(entries(input.map(mk)).map(e => [e.key, e.options.map(o => o.n)])));
"""


def grouped(actions: list[tuple[str, str]]) -> list[list]:
    out = subprocess.run([NODE or "node", "--input-type=module", "-e", SCRIPT, ACTIONS.as_uri(), json.dumps(actions)],
                         capture_output=True, text=True, timeout=60, check=True)
    return json.loads(out.stdout)


@pytest.mark.skipif(NODE is None, reason="node is not installed")
def test_counts_share_a_stepper_and_choices_do_not() -> None:
    assert grouped([
        ("move k04 k03 footsoldier 1", "move k04 k03 footsoldier 1  (Blackmere → Gallows Reach)"),
        ("move k04 k03 footsoldier 2", "move k04 k03 footsoldier 2  (Blackmere → Gallows Reach)"),
        ("move k04 k03 wizard 1", "move k04 k03 wizard 1  (Blackmere → Gallows Reach)"),
        ("recruit 1", "recruit 1 (1 Soldier token; army to your castle)"),
        ("recruit 3", "recruit 3 (3 Soldier tokens; armies to your castle)"),
        ("pick 0", "pick 0 (Fortified Wizards, costs 0)"),
        ("pick 1", "pick 1 (Seafaring Amazons, costs 1)"),
        ("end", "end"),
    ]) == [["move k04 k03 footsoldier #", [1, 2]], ["move k04 k03 wizard #", [1]], ["recruit #", [1, 3]],
           ["pick #", [0]], ["pick #", [1]], ["end", [None]]]
