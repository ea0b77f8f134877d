"""Scenario files: rule tests written as YAML by designers and testers (see docs/scenarios.md)."""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from conquest.core.chance import sample_chance
from conquest.core.errors import ConquestError
from conquest.core.game import CHANCE, State
from conquest.core.jsondoc import merge_patch, pointer_exists, resolve_pointer
from conquest.core.registry import get_ruleset


@dataclass
class ScenarioResult:
    path: str
    name: str
    failures: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.failures


def _sample(state: State, rng: random.Random) -> Any:
    return sample_chance(state, rng)


def _check_expectations(state: State, items: Any, where: str) -> list[str]:
    failures: list[str] = []
    if not isinstance(items, list):
        return [f"{where}: expect must be a list"]
    doc = state.to_json()
    for k, item in enumerate(items):
        w = f"{where}[{k}]"
        if not isinstance(item, dict):
            failures.append(f"{w}: each expectation must be a mapping")
            continue
        unknown = sorted(set(item) - EXPECT_KEYS)
        if unknown:
            failures.append(f"{w}: unknown key{'s' if len(unknown) > 1 else ''} {', '.join(unknown)} "
                            f"(an expectation has: {', '.join(sorted(EXPECT_KEYS))})")
            continue
        if "at" in item and not {"equals", "contains", "exists"} & set(item):
            failures.append(f"{w}: 'at' needs 'equals', 'contains' or 'exists'")
            continue
        if "view" in item and "at" not in item:
            failures.append(f"{w}: 'view' goes with 'at'")
            continue
        if "at" in item:
            ptr = item["at"]
            target = doc
            if "view" in item:
                seat = item["view"]
                if seat == "spectator":
                    seat = None
                elif not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < state.players:
                    failures.append(f"{w}: view must be a seat number from 0 to {state.players - 1} or "
                                    f"\"spectator\", got {item['view']!r}")
                    continue
                target = state.view(seat)
            if not isinstance(ptr, str):
                failures.append(f"{w}: 'at' must be a JSON pointer string")
                continue
            if "exists" in item:
                if pointer_exists(target, ptr) != bool(item["exists"]):
                    failures.append(f"{w}: {ptr} {'does not exist' if item['exists'] else 'exists'}")
                continue
            if not pointer_exists(target, ptr):
                where_ = "the state" if target is doc else f"the view of {item['view']}"
                failures.append(f"{w}: {ptr} does not exist in {where_}")
                continue
            got = resolve_pointer(target, ptr)
            if "equals" in item and got != item["equals"]:
                failures.append(f"{w}: {ptr} is {got!r}, expected {item['equals']!r}")
            if "contains" in item and item["contains"] not in got:
                failures.append(f"{w}: {ptr} ({got!r}) does not contain {item['contains']!r}")
        elif "legal" in item or "illegal" in item:
            key = "legal" if "legal" in item else "illegal"
            try:
                action = state.ruleset.parse_action(str(item[key]))
                ok = state.to_move is not None and state.is_legal(action)
            except ConquestError as e:
                failures.append(f"{w}: {e}")
                continue
            if ok != (key == "legal"):
                failures.append(f"{w}: '{item[key]}' is {'illegal' if key == 'legal' else 'legal'}")
        elif "result" in item:
            res = state.result()
            if res is None or list(res) != list(item["result"]):
                failures.append(f"{w}: result is {res}, expected {item['result']}")
        else:
            failures.append(f"{w}: an expectation needs 'at', 'legal', 'illegal' or 'result'")
    return failures


SCENARIO_KEYS = {"name", "rule", "description", "ruleset", "players", "options", "seed", "setup", "steps", "expect"}
EXPECT_KEYS = {"at", "equals", "contains", "exists", "legal", "illegal", "result", "view"}


def run_scenario(data: Any, path: str = "<scenario>") -> ScenarioResult:
    name = data.get("name", Path(path).stem) if isinstance(data, dict) else Path(path).stem
    res = ScenarioResult(path=path, name=str(name))
    fail = res.failures.append
    if not isinstance(data, dict):
        fail("a scenario must be a mapping")
        return res
    unknown = sorted(set(data) - SCENARIO_KEYS)
    if unknown:
        fail(f"unknown key{'s' if len(unknown) > 1 else ''} {', '.join(unknown)} "
             f"(a scenario has: {', '.join(sorted(SCENARIO_KEYS))})")
        return res
    try:
        rs = get_ruleset(str(data.get("ruleset")))
        seed = int(data.get("seed", 0))
        state = rs.new_game(data.get("players"), data.get("options") or {}, seed)
        if data.get("setup"):
            doc = state.to_json()
            if "to_move" not in data["setup"]:
                doc.pop("to_move", None)
            state = rs.state_from_json(merge_patch(doc, data["setup"]))
    except ConquestError as e:
        fail(f"setup: {e}")
        return res
    rng = random.Random(seed)
    steps = data.get("steps") or []
    if not isinstance(steps, list):
        fail("steps must be a list")
        return res
    for i, step in enumerate(steps):
        where = f"steps[{i}]"
        if not isinstance(step, dict) or len(step) != 1:
            fail(f"{where}: each step is one of play, chance, reject, expect")
            return res
        (kind, value), = step.items()
        try:
            if kind == "play":
                while state.to_move == CHANCE:
                    state = state.apply(_sample(state, rng))
                state = state.apply(str(value))
            elif kind == "chance":
                if state.to_move != CHANCE:
                    fail(f"{where}: chance '{value}' given but the state is not at a chance node")
                    return res
                state = state.apply(str(value))
            elif kind == "reject":
                before = state.to_json()
                try:
                    state.apply(str(value))
                except ConquestError:
                    if state.to_json() != before:
                        fail(f"{where}: rejecting '{value}' changed the state")
                else:
                    fail(f"{where}: '{value}' was accepted but should be refused")
            elif kind == "expect":
                res.failures.extend(_check_expectations(state, value, where))
            else:
                fail(f"{where}: unknown step kind '{kind}'")
                return res
        except ConquestError as e:
            fail(f"{where} ({kind} '{value}'): {e}")
            return res
    res.failures.extend(_check_expectations(state, data.get("expect") or [], "expect"))
    return res


def scenario_files(paths: list[str]) -> list[Path]:
    out: list[Path] = []
    for p in paths:
        pp = Path(p)
        if pp.is_dir():
            out.extend(sorted(x for x in pp.rglob("*") if x.suffix in (".yaml", ".yml")))
        elif pp.exists():
            out.append(pp)
        else:
            raise ConquestError(f"no such file or folder: {p}")
    return out


def run_file(path: Path) -> ScenarioResult:
    try:
        data = yaml.safe_load(path.read_text())
    except yaml.YAMLError as e:
        return ScenarioResult(str(path), path.stem, [f"not valid YAML: {str(e).splitlines()[0]}"])
    except OSError as e:
        return ScenarioResult(str(path), path.stem, [f"cannot read: {e.strerror}"])
    return run_scenario(data, str(path))
