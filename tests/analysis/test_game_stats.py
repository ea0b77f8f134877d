"""The report counters that Narby and Small World keep in their state (``stats``, read by ``game_stats``): in the
state JSON, cloned, refused when wrong; and ``conquest simulate`` shows the figures. The figures themselves are
checked per ruleset in tests/narby/test_stats.py and tests/smallworld/test_stats.py."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from typer.testing import CliRunner

from conquest.analysis.simulate import simulate
from conquest.cli import app
from conquest.core.chance import random_playout
from conquest.core.errors import StateFormatError
from conquest.core.registry import get_ruleset
from conquest.rulesets.narby.state import STAT_KEYS as NARBY_KEYS
from conquest.rulesets.smallworld.base import STAT_KEYS as SMALLWORLD_KEYS

# ruleset, its counters, one counter, players for simulate, a string figure (counted), a number (summed), keys shown
CASES = [
    ("narby", NARBY_KEYS, "claims", 2, "end_reason", "claims",
     {"end_reason", "winner", "margin", "claims", "tribute_coins", "places_destroyed", "rounds"}),
    ("smallworld", SMALLWORLD_KEYS, "declines", 3, "winner_race", "conquests",
     {"rounds", "margin", "declines", "conquests", "winner_power", "regions_held"}),
]


@pytest.mark.parametrize("rid, keys, counter", [c[:3] for c in CASES])
def test_counters_survive_json_and_clone(rid: str, keys: tuple[str, ...], counter: str) -> None:
    """Written to the state JSON and read back, cloned (not shared); a document without them starts at 0; an
    unknown or negative counter is refused naming the field (docs/rules/<ruleset>.md, ``stats``)."""
    rs = get_ruleset(rid)
    st: Any = random_playout(rs.new_game(2, {}, 1), random.Random(1))[0]
    assert st.to_move is None and st.stats[counter] > 0
    doc = json.loads(json.dumps(st.to_json()))
    back: Any = rs.state_from_json(doc)
    assert back.stats == st.stats and rs.game_stats(back) == rs.game_stats(st)
    clone: Any = st.clone()
    clone.stats[counter] += 1
    assert st.stats[counter] == clone.stats[counter] - 1
    doc.pop("stats")
    assert rs.state_from_json(doc).stats == dict.fromkeys(keys, 0)  # type: ignore[attr-defined]
    for bad in ({"battles": 1}, {counter: -1}):
        doc["stats"] = bad
        with pytest.raises(StateFormatError, match="stats"):
            rs.state_from_json(doc)


@pytest.mark.parametrize("rid, players, counted, summed, shown", [(c[0], *c[3:]) for c in CASES])
def test_simulate_reports_the_figures(rid: str, players: int, counted: str, summed: str, shown: set[str]) -> None:
    """`conquest simulate RID --games 4` counts the strings once a game, sums the numbers, and its JSON and table
    show them."""
    summary = simulate(rid, 4, ["random"], players=players, seed=0).to_json()
    assert summary["finished"] == 4
    figures = summary["stats"]
    assert sum(figures[counted]["counts"].values()) == 4
    assert figures[summed]["games"] == 4 and figures[summed]["total"] > 0
    assert figures["rounds"]["games"] == 4 and figures["rounds"]["mean"] > 0
    result = CliRunner().invoke(app, ["simulate", rid, "--games", "4", "--json"])
    assert result.exit_code == 0, result.output
    assert shown <= set(json.loads(result.stdout)["stats"])
    table = CliRunner().invoke(app, ["simulate", rid, "--games", "4"])
    assert table.exit_code == 0 and counted in table.stdout and summed in table.stdout
