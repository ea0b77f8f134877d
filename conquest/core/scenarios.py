"""Scenario files: rule tests written as YAML by designers and testers (see docs/scenarios.md)."""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from conquest.core.chance import sample_chance
from conquest.core.errors import ConquestError, NotationError
from conquest.core.game import CHANCE, State
from conquest.core.jsondoc import merge_patch, pointer_exists, resolve_pointer
from conquest.core.registry import get_ruleset
from conquest.core.yamlfile import load_yaml


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
        if "at" in item and isinstance(item["at"], str) and item["at"] and not item["at"].startswith("/"):
            failures.append(f"{w}: 'at' must be a JSON pointer starting with '/' (the whole state is ''), "
                            f"got {item['at']!r}")
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
        elif "legal_actions" in item:
            failures.extend(_check_legal_set(state, item["legal_actions"], w))
        elif "legal_count" in item:
            n = item["legal_count"]
            got_n = len(state.legal_actions()) if state.to_move is not None else 0
            if not isinstance(n, int) or isinstance(n, bool):
                failures.append(f"{w}: legal_count must be a whole number, got {n!r}")
            elif got_n != n:
                failures.append(f"{w}: {got_n} legal actions, expected {n}")
        elif "result" in item:
            res = state.result()
            if res is None or list(res) != list(item["result"]):
                failures.append(f"{w}: result is {res}, expected {item['result']}")
        else:
            failures.append(f"{w}: an expectation needs 'at', 'legal', 'illegal', 'legal_actions', "
                            "'legal_count' or 'result'")
    return failures


SCENARIO_KEYS = {"name", "rule", "description", "ruleset", "players", "options", "seed", "setup", "steps", "expect"}
EXPECT_KEYS = {"at", "equals", "contains", "exists", "legal", "illegal", "legal_actions", "legal_count", "result",
               "view"}
STEP_KINDS = ("play", "chance", "reject", "reject_notation", "expect")


def _check_legal_set(state: State, given: Any, w: str) -> list[str]:
    """``legal_actions: [...]``: the whole legal set, in any order, each action in notation."""
    if not isinstance(given, list):
        return [f"{w}: legal_actions must be a list of actions in notation"]
    rs = state.ruleset
    want: set[str] = set()
    for text in given:
        try:
            want.add(rs.format_action(rs.parse_action(str(text))))
        except ConquestError as e:
            return [f"{w}: {e}"]
    got = {rs.format_action(a) for a in state.legal_actions()} if state.to_move is not None else set()
    problems = []
    if got - want:
        problems.append("also legal: " + ", ".join(sorted(got - want)))
    if want - got:
        problems.append("not legal: " + ", ".join(sorted(want - got)))
    return [f"{w}: the legal actions differ ({'; '.join(problems)})"] if problems else []


def _non_string_key(value: Any, where: str) -> str | None:
    """Where the first mapping key that is not a string is (YAML makes ``7`` of ``{at: /claims/7,5}``: in a
    flow mapping a comma ends the value), as a message; None when every key is a string."""
    if isinstance(value, dict):
        for k, v in value.items():
            if not isinstance(k, str):
                return (f"{where}: key {k!r} is not a string (in a {{...}} mapping a comma ends a value: quote "
                        f"values with commas, e.g. at: '/claims/7,5')")
            found = _non_string_key(v, f"{where}/{k}" if where else k)
            if found:
                return found
    elif isinstance(value, list):
        for i, v in enumerate(value):
            found = _non_string_key(v, f"{where}[{i}]")
            if found:
                return found
    return None


def run_scenario(data: Any, path: str = "<scenario>") -> ScenarioResult:
    name = data.get("name", Path(path).stem) if isinstance(data, dict) else Path(path).stem
    res = ScenarioResult(path=path, name=str(name))
    fail = res.failures.append
    if not isinstance(data, dict):
        fail("a scenario must be a mapping")
        return res
    bad_key = _non_string_key(data, "")
    if bad_key:
        fail(bad_key)
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
            fail(f"{where}: each step is one of {', '.join(STEP_KINDS)}")
            return res
        (kind, value), = step.items()
        try:
            after = _run_step(state, kind, value, where, rng, res)
        except ConquestError as e:
            fail(f"{where} ({kind} '{value}'): {e}")
            return res
        if after is None:
            return res
        state = after
    res.failures.extend(_check_expectations(state, data.get("expect") or [], "expect"))
    return res


def _run_step(state: State, kind: str, value: Any, where: str, rng: random.Random,
              res: ScenarioResult) -> State | None:
    """One step of a scenario: the position after it, or None when a failure (added to ``res``) ends the
    scenario. A failure that leaves the position usable (a refusal that was accepted) is added and the
    scenario goes on."""
    fail = res.failures.append
    if kind == "play":
        while state.to_move == CHANCE:
            state = state.apply(_sample(state, rng))
        return state.apply(str(value))
    if kind == "chance":
        if state.to_move != CHANCE:
            fail(f"{where}: chance '{value}' given but the state is not at a chance node")
            return None
        return state.apply(str(value))
    if kind == "reject":
        before = state.to_json()
        try:
            action = state.ruleset.parse_action(str(value))
        except NotationError as e:
            fail(f"{where}: '{value}' is not an action in the notation ({e}): a reject step tests a "
                 f"rule, so a typo would test nothing (use reject_notation to test the notation)")
            return None
        try:
            state.apply(action)
        except ConquestError:
            if state.to_json() != before:
                fail(f"{where}: rejecting '{value}' changed the state")
        else:
            fail(f"{where}: '{value}' was accepted but should be refused")
        return state
    if kind == "reject_notation":
        before = state.to_json()
        try:
            state.ruleset.parse_action(str(value))
        except NotationError:
            if state.to_json() != before:
                fail(f"{where}: rejecting '{value}' changed the state")
        else:
            fail(f"{where}: '{value}' is valid notation but should be refused as notation")
        return state
    if kind == "expect":
        res.failures.extend(_check_expectations(state, value, where))
        return state
    fail(f"{where}: unknown step kind '{kind}'")
    return None


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
    """One file's result. Whatever goes wrong is this file's failure, never the whole run's."""
    try:
        data = load_yaml(path, "scenario")
    except ConquestError as e:
        return ScenarioResult(str(path), path.stem, [str(e)])
    try:
        return run_scenario(data, str(path))
    except Exception as e:  # a bug the checks above missed: this file fails, the others still run
        return ScenarioResult(str(path), path.stem, [f"the scenario could not be run: {type(e).__name__}: {e}"])
