"""Game records (``conquest-record/1``): everything needed to replay a game without any random generator."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from conquest.core.errors import ConquestError, StateFormatError
from conquest.core.game import State
from conquest.core.jsondoc import read_json_file
from conquest.core.registry import get_ruleset
from conquest.core.schema import check_nesting

RECORD_FORMAT = "conquest-record/1"


@dataclass
class Record:
    ruleset: str
    rules_version: str
    players: int
    options: dict[str, Any]
    seats: list[str]
    seed: int
    actions: list[str] = field(default_factory=list)
    result: list[float] | None = None
    scores: list[float] | None = None
    start: dict[str, Any] | None = None
    """A game that began from a given position (``conquest play --state``) keeps it here, as state JSON."""

    def to_json(self) -> dict[str, Any]:
        return {
            "format": RECORD_FORMAT, "ruleset": self.ruleset, "rules_version": self.rules_version,
            "players": self.players, "options": self.options, "seats": self.seats, "seed": self.seed,
            "actions": self.actions, "result": self.result, "scores": self.scores,
            **({"start": self.start} if self.start is not None else {}),
        }

    @classmethod
    def from_json(cls, data: Any) -> Record:
        if not isinstance(data, dict):
            raise StateFormatError("(record)", "a record must be a JSON object")
        check_nesting(data)
        if data.get("format") != RECORD_FORMAT:
            raise StateFormatError("format", f"expected \"{RECORD_FORMAT}\", got {data.get('format')!r}")
        need = {"ruleset": str, "players": int, "actions": list}
        for key, typ in need.items():
            if key not in data:
                raise StateFormatError(key, "missing")
            if not isinstance(data[key], typ) or isinstance(data[key], bool):
                raise StateFormatError(key, f"expected {typ.__name__}, got {type(data[key]).__name__}")
        for i, a in enumerate(data["actions"]):
            if not isinstance(a, str):
                raise StateFormatError(f"actions/{i}", "each action must be a string in notation")
        if not isinstance(data.get("options", {}), dict):
            raise StateFormatError("options", "must be an object")
        seats = data.get("seats") or [f"seat{i}" for i in range(data["players"])]
        if not isinstance(seats, list) or not all(isinstance(s, str) for s in seats):
            raise StateFormatError("seats", "must be a list of strings")
        if len(seats) != data["players"]:
            raise StateFormatError("seats", f"{len(seats)} seats for {data['players']} players: one name per "
                                            "seat")
        seed = data.get("seed", 0)
        if not isinstance(seed, int) or isinstance(seed, bool):
            raise StateFormatError("seed", "must be an integer")
        result = data.get("result")
        if result is not None and (not isinstance(result, list)
                                   or not all(isinstance(x, (int, float)) for x in result)):
            raise StateFormatError("result", "must be a list of numbers or null")
        start = data.get("start")
        if start is not None and not isinstance(start, dict):
            raise StateFormatError("start", "must be a state JSON object or absent")
        options = dict(data.get("options", {}))
        try:  # a record made before an option existed keeps the rules it was played with (Option.legacy)
            options = get_ruleset(data["ruleset"]).options().saved(options)
        except ConquestError:
            pass  # an unknown ruleset is refused where the record is used
        return cls(ruleset=data["ruleset"], rules_version=str(data.get("rules_version", "")),
                   players=data["players"], options=options, seats=list(seats),
                   seed=seed, actions=list(data["actions"]), result=result, scores=data.get("scores"),
                   start=start)

    def save(self, path: str | Path) -> None:
        Path(path).write_text(json.dumps(self.to_json(), indent=1) + "\n")

    @classmethod
    def load(cls, path: str | Path) -> Record:
        return cls.from_json(read_json_file(path, "game record"))

    def new_state(self) -> State:
        rs = get_ruleset(self.ruleset)
        if self.start is not None:
            return rs.state_from_json(self.start)
        return rs.new_game(self.players, rs.options().saved(self.options), self.seed)


def replay(record: Record, verify: bool = True) -> State:
    """Replay every action with the checked ``apply``. With ``verify``, also check the rules version and
    that the recorded result is the replayed one. Raises ConquestError naming the step that fails."""
    rs = get_ruleset(record.ruleset)
    if verify and record.rules_version and record.rules_version != rs.rules_version:
        raise ConquestError(f"record is for {rs.id} rules {record.rules_version}, "
                            f"this engine plays {rs.rules_version}")
    state = record.new_state()
    for i, text in enumerate(record.actions):
        try:
            state = state.apply(text)
        except ConquestError as e:
            raise ConquestError(f"step {i + 1} ({text!r}): {e}") from None
    if verify:
        res = state.result()
        got = list(res) if res is not None else None
        if record.result is not None or got is not None:
            if got is None or record.result is None or any(abs(a - b) > 1e-9 for a, b in zip(got, record.result)) \
                    or len(got) != len(record.result):
                raise ConquestError(f"result mismatch: record says {record.result}, replay gives {got}")
    return state
