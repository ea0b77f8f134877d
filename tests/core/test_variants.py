"""Variant files (core/variants.py): declared per ruleset, validated in one line naming the field, carried whole
by the option ``variant`` so that a record replays without the file, and read by each ruleset's rules."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from conquest.analysis.runner import play_game
from conquest.core.errors import OptionError
from conquest.core.game import Ruleset
from conquest.core.records import Record, replay
from conquest.core.registry import get_ruleset, rulesets
from conquest.core.variants import (
    VariantError,
    normalize_variant,
    read_variant_file,
    variant_label,
    variant_of,
    with_variant,
)


def cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "conquest.cli", *args], capture_output=True, text=True,
                          timeout=300)


def test_the_default_declares_nothing_that_may_be_varied() -> None:
    assert Ruleset.variant_schema(get_ruleset("kingdom")) is None  # the base class's own answer

    class Plain:
        id = "plain"

        def variant_schema(self) -> None:
            return None
    with pytest.raises(VariantError, match="plain declares nothing that a variant may change"):
        normalize_variant(Plain(), {"x": 1})  # type: ignore[arg-type]


def test_every_ruleset_declares_its_variant_and_lists_the_option() -> None:
    for rs in rulesets().values():
        schema = rs.variant_schema()
        assert schema is not None, rs.id
        assert "variant" in [o.name for o in rs.options().options], rs.id
        assert rs.new_game().options["variant"] == ""


@pytest.mark.parametrize("ruleset, doc, message", [
    ("narby", {"atack_stake": 3}, "variant field 'atack_stake': unknown field"),
    ("narby", {"attack_stake": "3"}, "variant field 'attack_stake': Input should be a valid integer"),
    ("narby", {"robber_loss": -1}, "variant field 'robber_loss': Input should be greater than or equal to 0"),
    ("narby", {"steal_chart": [{"max": 3, "gain": 1}]}, "variant: steal_chart: no row for rolls"),
    ("narby", {"cards": ["speedster", "speedster"]}, "each card title at most once"),
    ("smallworld", {"races": {"ratmen": {"banner": 0}}}, "variant field 'races.ratmen.banner': Input should be "
                                                          "greater than or equal to 1"),
    ("smallworld", {"removed_races": ["goblins"]}, "variant field 'removed_races.0'"),
    ("smallworld", {"races": {"ratmen": {"banner": 14}}}, "races.ratmen: banner 14 is more than the supply 13"),
    ("nerath", {"prices": {"footsoldier": -2}}, "variant field 'prices.footsoldier': Input should be greater "
                                                "than or equal to 0"),
    ("nerath", {"treasury": {"karkoth": 1.5}}, "variant field 'treasury.karkoth': Input should be a valid integer"),
    ("nerath", {"forces": {"karkoth": {"castles": ["v05"]}}}, "castle on v05, not one of its starting land"),
    ("kingdom", {"points": {"gold": -1}}, "variant field 'points.gold': Input should be greater than or equal"),
    ("kingdom", {"points": {"glod": 1}}, "variant field 'points.glod."),
])
def test_a_bad_variant_is_one_line_naming_the_field(ruleset: str, doc: dict[str, Any], message: str) -> None:
    with pytest.raises(OptionError) as e:
        get_ruleset(ruleset).new_game(None, {"variant": doc})
    assert message in str(e.value) and "\n" not in str(e.value)


def test_a_variant_is_stored_canonical_and_named() -> None:
    rs = get_ruleset("kingdom")
    a = normalize_variant(rs, {"castle_icon": 2, "name": "icons", "points": {"gold": 3}})
    b = normalize_variant(rs, "name: icons\npoints: {gold: 3}\ncastle_icon: 2\n")  # YAML text, other order
    assert a == b == '{"castle_icon":2,"name":"icons","points":{"gold":3}}'
    assert variant_label({"variant": a}) == "icons"
    assert variant_label({"variant": '{"castle_icon":2}'}) == "changes castle_icon"
    assert variant_of({"variant": ""}) == {} and variant_label({"variant": ""}) == ""


def test_a_variant_file_sets_options_too_and_the_command_line_wins(tmp_path: Path) -> None:
    f = tmp_path / "v.yaml"
    f.write_text("name: short\noptions: {rounds: 2, soldier_base: 4}\npoints: {gold: 5}\n")
    rs = get_ruleset("kingdom")
    text, opts = read_variant_file(rs, f)
    assert opts == {"rounds": 2, "soldier_base": 4} and json.loads(text) == {"name": "short", "points": {"gold": 5}}
    assert with_variant(rs, f, {"rounds": "3"}) == {"rounds": "3", "soldier_base": 4, "variant": text}
    f.write_text("options: {rounds: 0}\n")
    with pytest.raises(VariantError, match=r"v.yaml: option rounds"):
        read_variant_file(rs, f)


def test_a_game_made_with_a_variant_records_it_whole_and_replays_without_the_file(tmp_path: Path) -> None:
    rs = get_ruleset("kingdom")
    opts = {"rounds": 2, "variant": {"name": "rich gold", "points": {"gold": 7}, "castle_icon": 0}}
    record, state = play_game(rs, ["greedy", "random"], options=opts, seed=5)
    path = tmp_path / "game.json"
    record.save(path)
    doc = json.loads(path.read_text())
    assert json.loads(doc["options"]["variant"]) == {"castle_icon": 0, "name": "rich gold", "points": {"gold": 7}}
    again = replay(Record.load(path))
    assert again == state and again.scores() == state.scores()
    plain, plain_state = play_game(rs, ["greedy", "random"], options={"rounds": 2}, seed=5)
    assert plain_state.scores() != state.scores()  # the variant changed the points


# ------------------------------------------------------------------------------------------- the CLI
@pytest.mark.parametrize("text, message", [
    ("steal_chart: 3\n", "variant field 'steal_chart': Input should be a valid list"),
    ("revolt_loss: -3\n", "variant field 'revolt_loss': Input should be greater than or equal to 0"),
    ("nonsense: 1\n", "variant field 'nonsense': unknown field"),
    ("[1, 2\n", "is not valid YAML"),
])
def test_cli_bad_variant_file_is_one_line_and_exit_2(tmp_path: Path, text: str, message: str) -> None:
    f = tmp_path / "bad.yaml"
    f.write_text(text)
    for args in (("simulate", "narby", "--games", "1"), ("play", "narby", "--seats", "random"),
                 ("tournament", "narby", "--agents", "random,greedy", "--games", "1")):
        r = cli(*args, "--variant", str(f))
        lines = r.stderr.strip().splitlines()
        assert r.returncode == 2 and len(lines) == 1 and message in lines[0], (args, r.stderr)


def test_cli_simulate_plays_the_variant(tmp_path: Path) -> None:
    f = tmp_path / "v.yaml"
    f.write_text("options: {rounds: 1}\npoints: {gold: 50, material: 50, energy: 50, science: 50, "
                 "exploration: 50}\n")
    r = cli("simulate", "kingdom", "--games", "2", "--seats", "greedy", "--variant", str(f), "--json")
    assert r.returncode == 0, r.stderr
    plain = cli("simulate", "kingdom", "--games", "2", "--seats", "greedy", "-o", "rounds=1", "--json")
    assert json.loads(r.stdout)["mean_scores"] != json.loads(plain.stdout)["mean_scores"]


EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "variants"


@pytest.mark.parametrize("path", sorted(EXAMPLES.glob("*.yaml")), ids=lambda p: p.name)
def test_the_example_variant_files_are_valid(path: Path) -> None:
    ruleset = path.name.split("-")[0]
    rs = get_ruleset(ruleset)
    if path.name.endswith("-sweep.yaml"):
        from conquest.analysis.balance import Plan
        from conquest.analysis.sweep import arms_of
        assert len(arms_of(Plan.make(ruleset, ["greedy"], 3), str(path))) >= 2
        return
    text, opts = read_variant_file(rs, path)
    state = rs.new_game(None, {**opts, "variant": text})
    assert variant_label(state.options) == json.loads(text)["name"]
