"""Checks of the trust boundaries of a ruleset, as an independent tester runs them: random legal play with
every contract check at every step, and hostile inputs to each boundary (the notation, ``apply``,
``format_action``, ``state_from_json``). ``tests/test_boundaries.py`` drives it with Hypothesis at a small
size; ``benchmarks/fuzz.py`` at 10^6 actions per ruleset. A broken promise is recorded as a violation (a
short line), never raised, so one run counts them all.

At every step of a random game (``check_state``):
- JSON: ``state_from_json(json(to_json()))`` is ``==`` to the state, has the same JSON, lists the same legal
  actions in the same order and the same chance outcomes (a saved game plays on exactly as the original);
- notation: ``parse_action(format_action(a)) == a`` for the legal actions;
- chance: outcomes are the legal actions, probabilities positive and summing to 1;
- views: each seat's and the spectator's view is JSON; the spectator sees nothing that some seat does not
  see as well (what ``view(s)`` hides from seat s, ``view(None)`` hides too);
- aliasing: editing what the state handed out (legal list, JSON, views, chance outcomes) leaves it unchanged;
- apply: the checked and the unchecked apply agree, and neither changes the state.

Hostile inputs (``hostile_*``): the only errors that may leave are ``NotationError`` (notation),
``IllegalAction`` (apply) and ``StateFormatError`` (state documents); a state document that is accepted must
then work: legal actions, views, JSON round-trip and one step of play.
"""

from __future__ import annotations

import copy
import json
import math
import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from conquest.core.chance import sample_chance
from conquest.core.errors import IllegalAction, NotationError, StateFormatError
from conquest.core.game import CHANCE, Ruleset, State
from conquest.core.jsondoc import hidden_part

NOTATION_SAMPLE = 40   # legal actions whose notation is checked per step (all when fewer)
MAX_LEGAL = 20_000     # a state listing more legal actions than this is a violation (an unbounded count)


@dataclass
class Tally:
    steps: int = 0
    inputs: int = 0
    violations: list[str] = field(default_factory=list)

    def fail(self, where: str, what: str) -> None:
        if len(self.violations) < 1000:
            self.violations.append(f"{where}: {what}")
        else:
            self.violations.append("")

    def as_dict(self) -> dict[str, Any]:
        return {"steps_checked": self.steps, "inputs_tried": self.inputs, "violations": len(self.violations)}


def _short(e: BaseException) -> str:
    return f"{type(e).__name__}: {str(e)[:160]}"


# ---- every step of a game ---------------------------------------------------------------------------

def _mutate_everything(doc: Any) -> None:
    """Scribble over a handed-out document in place (lists emptied and extended, dict values replaced)."""
    if isinstance(doc, dict):
        for k in list(doc):
            _mutate_everything(doc[k])
            doc[k] = "scribbled"
        doc["scribbled"] = 1
    elif isinstance(doc, list):
        for v in doc:
            _mutate_everything(v)
        doc.append("scribbled")


def check_state(rs: Ruleset, state: State, rng: random.Random, tally: Tally) -> None:
    where = f"{rs.id} step {tally.steps}"
    tally.steps += 1
    doc = state.to_json()
    legal = list(state.legal_actions())
    if len(legal) > MAX_LEGAL:
        tally.fail(where, f"{len(legal)} legal actions")
    outcomes = state.chance_outcomes()
    # JSON round trip
    try:
        again = rs.state_from_json(json.loads(json.dumps(doc)))
    except Exception as e:  # noqa: BLE001 - a violation to count
        tally.fail(where, f"its own JSON is refused: {_short(e)}")
        again = None
    if again is not None:
        if again.to_json() != doc or not again == state:
            tally.fail(where, "JSON round trip changes the state")
        if list(again.legal_actions()) != legal:
            tally.fail(where, "JSON round trip changes the legal actions or their order")
        if again.chance_outcomes() != outcomes:
            tally.fail(where, "JSON round trip changes the chance outcomes")
    # notation
    sample = legal if len(legal) <= NOTATION_SAMPLE else rng.sample(legal, NOTATION_SAMPLE)
    for a in sample:
        try:
            if rs.parse_action(rs.format_action(a)) != a:
                tally.fail(where, f"notation of {a!r} does not round-trip")
        except Exception as e:  # noqa: BLE001
            tally.fail(where, f"notation of {a!r}: {_short(e)}")
    # chance
    if state.to_move == CHANCE:
        probs = [p for _a, p in outcomes]
        if not outcomes or any(not p > 0 for p in probs) or not math.isclose(sum(probs), 1.0, abs_tol=1e-9):
            tally.fail(where, "chance probabilities are not positive or do not sum to 1")
        if sorted(map(repr, (a for a, _p in outcomes))) != sorted(map(repr, legal)):
            tally.fail(where, "chance outcomes are not the legal actions")
    # views
    hidden: dict[int | None, frozenset[Any]] = {}
    for seat in list(range(state.players)) + [None]:
        try:
            view = state.view(seat)
            json.dumps(view)
        except Exception as e:  # noqa: BLE001
            tally.fail(where, f"view({seat}): {_short(e)}")
            continue
        hidden[seat] = hidden_part(doc, view)
        _mutate_everything(view)
    for seat, h in hidden.items():
        shown = h - hidden.get(None, h)
        if seat is not None and shown:
            tally.fail(where, f"the spectator sees what seat {seat} does not: {sorted(shown)[:2]}")
    # aliasing: scribble over every output, then the state must be as it was
    _mutate_everything(state.to_json())
    handed = state.legal_actions()
    if isinstance(handed, list):
        handed.clear()
        handed.append(("scribbled",))
    handed_out = state.chance_outcomes()
    if isinstance(handed_out, list):
        handed_out.clear()
    if state.to_json() != doc or list(state.legal_actions()) != legal:
        tally.fail(where, "editing what the state handed out edited the state")
    # checked and unchecked apply
    if legal:
        a = sample_chance(state, rng) if state.to_move == CHANCE else rng.choice(legal)
        try:
            if state.apply(a) != state.apply_unchecked(a):
                tally.fail(where, f"checked and unchecked apply of {a!r} differ")
        except Exception as e:  # noqa: BLE001
            tally.fail(where, f"apply {a!r}: {_short(e)}")
        if state.to_json() != doc:
            tally.fail(where, "apply changed the state it was called on")


def random_game(rs: Ruleset, rng: random.Random, steps: int, tally: Tally,
                on_state: Callable[[State], None] | None = None) -> State:
    """Play up to ``steps`` random legal actions (chance sampled), checking every state on the way."""
    players = rng.choice(sorted({rs.min_players, rs.default_players(), rs.max_players}))
    state = rs.new_game(players, {}, rng.randrange(2 ** 31))
    for _ in range(steps):
        check_state(rs, state, rng, tally)
        if on_state is not None:
            on_state(state)
        if state.to_move is None:
            break
        legal = list(state.legal_actions())
        a = sample_chance(state, rng) if state.to_move == CHANCE else rng.choice(legal)
        state = state.apply(a)
    return state


# ---- hostile inputs ----------------------------------------------------------------------------------

ODD_TEXT = ["", " ", "²", "١٢", "1_0", "-1", "+1", "0x10", "1e3", "9" * 12, "9" * 5000, "\x00", "r0", "r²",
            "r-1", "1,²", "²,1", "NaN", "None", "null", "é", "🐉", ",", ",,", "x+2", "y-9"]
NON_ACTIONS: list[Any] = [None, 0, 1, -1, 2 ** 70, 1.5, float("nan"), True, "", b"end", [], {}, (), ("",),
                          (1,), (None,), ("end", None), ("end", 1.5), ("end", True), ("end", [1]), ("end", {}),
                          ("end", 2 ** 70), tuple(["end"] * 40), ("x" * 500,), object()]


def hostile_notation(rs: Ruleset, state: State, rng: random.Random, tally: Tally, count: int) -> None:
    """Texts near the legal notation (a word changed, an odd number, a token added or dropped)."""
    where = f"{rs.id} parse_action"
    legal = list(state.legal_actions()) or [("end",)]
    for _ in range(count):
        try:
            words = rs.format_action(rng.choice(legal)).split()
        except NotationError:
            words = ["end"]
        r = rng.random()
        if r < 0.4 and words:
            words[rng.randrange(len(words))] = rng.choice(ODD_TEXT)
        elif r < 0.6:
            words.insert(rng.randrange(len(words) + 1), rng.choice(ODD_TEXT))
        elif r < 0.75 and words:
            words.pop(rng.randrange(len(words)))
        else:
            words = [rng.choice(ODD_TEXT + words) for _ in range(rng.randrange(1, 5))]
        text = " ".join(words)
        tally.inputs += 1
        try:
            a = rs.parse_action(text)
        except NotationError:
            continue
        except Exception as e:  # noqa: BLE001
            tally.fail(where, f"{text[:40]!r}: {_short(e)}")
            continue
        try:
            if rs.parse_action(rs.format_action(a)) != a:
                tally.fail(where, f"{text[:40]!r} parses to {a!r}, which does not round-trip")
        except Exception as e:  # noqa: BLE001
            tally.fail(where, f"{text[:40]!r} parses to {a!r}, whose notation fails: {_short(e)}")


def odd_actions(state: State, rng: random.Random, count: int) -> list[Any]:
    legal = list(state.legal_actions()) or [("end",)]
    out: list[Any] = []
    for _ in range(count):
        r = rng.random()
        if r < 0.3:
            out.append(rng.choice(NON_ACTIONS))
            continue
        a: list[Any] = list(rng.choice(legal))  # made into a value of any shape, on purpose
        if r < 0.5 and len(a) > 1:
            a.pop(rng.randrange(1, len(a)))
        elif r < 0.7:
            a.append(rng.choice([0, -1, 2 ** 40, "x", None, True]))
        elif len(a) > 1:
            a[rng.randrange(1, len(a))] = rng.choice([0, -1, 10 ** 12, "nowhere", "", True, None, 1.0, (1,)])
        else:
            a[0] = rng.choice(["nowhere", "", "x" * 80])
        out.append(tuple(a))
    return out


def hostile_actions(rs: Ruleset, state: State, rng: random.Random, tally: Tally, count: int) -> None:
    """Values that are not actions, and actions with a wrong argument, given to apply and format_action."""
    doc = state.to_json()
    legal = list(state.legal_actions())
    for a in odd_actions(state, rng, count):
        tally.inputs += 1
        try:
            text = rs.format_action(a)
            if not isinstance(text, str):
                tally.fail(f"{rs.id} format_action", f"{a!r} gives {text!r}")
        except NotationError:
            pass
        except Exception as e:  # noqa: BLE001
            tally.fail(f"{rs.id} format_action", f"{a!r}: {_short(e)}")
        try:
            state.apply(a)
            if not any(type(a) is type(b) and a == b for b in legal):
                tally.fail(f"{rs.id} apply", f"{a!r} accepted though not legal")
        except (IllegalAction, NotationError):
            pass
        except Exception as e:  # noqa: BLE001
            tally.fail(f"{rs.id} apply", f"{a!r}: {_short(e)}")
        try:
            state.is_legal(a)  # the answer may be anything; it may not blow up for an action-shaped value
        except Exception as e:  # noqa: BLE001
            from conquest.core.notation import is_action
            if is_action(a):
                tally.fail(f"{rs.id} is_legal", f"{a!r}: {_short(e)}")
    if state.to_json() != doc:
        tally.fail(f"{rs.id} apply", "a refused action changed the state")


_ODD_VALUES: list[Any] = [None, True, False, -1, -(10 ** 9), 10 ** 9, 10 ** 5, 2 ** 63, 0.5, "", "x", "-1", [], {},
                          [None], {"x": 1}, [[[]]]]


def _paths(doc: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = [prefix]
    if isinstance(doc, dict):
        for k, v in doc.items():
            out.extend(_paths(v, prefix + (k,)))
    elif isinstance(doc, list):
        for i, v in enumerate(doc):
            out.extend(_paths(v, prefix + (i,)))
    return out


def mutate_document(doc: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """One to three edits at random places: a key dropped, a value replaced by an odd one (wrong type,
    negative, huge, null), a number nudged, a list item dropped or duplicated."""
    doc = copy.deepcopy(doc)
    for _ in range(rng.randint(1, 3)):
        paths = [p for p in _paths(doc) if p]
        if not paths:
            break
        path = rng.choice(paths)
        parent: Any = doc
        for k in path[:-1]:
            parent = parent[k]
        key = path[-1]
        r = rng.random()
        old = parent[key]
        if r < 0.2 and isinstance(parent, dict):
            del parent[key]
        elif r < 0.35 and isinstance(old, int) and not isinstance(old, bool):
            parent[key] = old + rng.choice([-1, 1, -old - 1, 10 ** 5, 10 ** 9])
        elif r < 0.45 and isinstance(parent, list):
            if rng.random() < 0.5:
                del parent[key]
            else:
                parent.insert(key, copy.deepcopy(old))
        elif r < 0.55 and isinstance(old, str) and isinstance(parent, dict):
            sibling = [v for v in parent.values() if isinstance(v, str) and v != old]
            parent[key] = rng.choice(sibling) if sibling else old + "x"
        else:
            parent[key] = copy.deepcopy(rng.choice(_ODD_VALUES))
    return doc


def hostile_documents(rs: Ruleset, state: State, rng: random.Random, tally: Tally, count: int) -> None:
    """Mutated state documents: refused with StateFormatError, or accepted and then playable."""
    base = state.to_json()
    for _ in range(count):
        bad = mutate_document(base, rng)
        tally.inputs += 1
        where = f"{rs.id} state_from_json"
        try:
            loaded = rs.state_from_json(bad)
        except StateFormatError as e:
            if e.field == "(document)" and "does not describe" in str(e):
                tally.fail(where, f"refused without naming the field (the loader crashed): {e}")
            continue
        except Exception as e:  # noqa: BLE001
            tally.fail(where, _short(e))
            continue
        try:
            legal = list(loaded.legal_actions())
            if len(legal) > MAX_LEGAL:
                tally.fail(where, f"accepted a state with {len(legal)} legal actions")
                continue
            for seat in list(range(loaded.players)) + [None]:
                json.dumps(loaded.view(seat))
            doc = loaded.to_json()
            if rs.state_from_json(json.loads(json.dumps(doc))) != loaded:
                tally.fail(where, "an accepted state does not round-trip")
            if loaded.to_move == CHANCE:
                outcomes = loaded.chance_outcomes()
                if not outcomes or not math.isclose(sum(p for _a, p in outcomes), 1.0, abs_tol=1e-9):
                    tally.fail(where, "an accepted chance node has no distribution")
                    continue
                loaded.apply(sample_chance(loaded, rng))
            elif loaded.to_move is not None:
                if not legal:
                    tally.fail(where, "an accepted state has no legal action though the game is not over")
                    continue
                loaded.apply(rng.choice(legal))
        except Exception as e:  # noqa: BLE001
            tally.fail(where, f"accepted, then {_short(e)}")


def run(rs: Ruleset, actions: int, seed: int = 0, hostile_every: int = 10, hostile_count: int = 3) -> Tally:
    """Random games totalling ``actions`` steps, each checked; every ``hostile_every`` steps, hostile
    notation, actions and documents (``hostile_count`` of each) against the state of that step."""
    rng = random.Random(seed)
    tally = Tally()

    def hostile(state: State) -> None:
        if tally.steps % hostile_every == 0:
            hostile_notation(rs, state, rng, tally, hostile_count)
            hostile_actions(rs, state, rng, tally, hostile_count)
            hostile_documents(rs, state, rng, tally, hostile_count)

    while tally.steps < actions:
        random_game(rs, rng, actions - tally.steps, tally, hostile)
    return tally


# ---- long runs: chunks, a checkpoint file, shards -----------------------------------------------------

CHECKPOINT_FORMAT = "conquest-fuzz-checkpoint/1"


@dataclass(frozen=True)
class Chunk:
    """One unit of a long run: ``run(ruleset, size, seed)``. A run of N actions per ruleset is the chunks
    ``seed = base_seed + i`` for ``i < ceil(N / size)``; each is reproducible on its own."""
    ruleset: str
    index: int
    seed: int
    size: int

    @property
    def key(self) -> str:
        return f"{self.ruleset}:{self.seed}:{self.size}"


def plan_chunks(ruleset_ids: list[str], actions: int, chunk: int, base_seed: int,
                shard: int = 0, shards: int = 1) -> list[Chunk]:
    """The chunks of a run, interleaved across rulesets (every ruleset advances together, so a run stopped
    early has figures for all), keeping only those of ``shard`` out of ``shards`` (index % shards)."""
    n = -(-actions // chunk)
    out: list[Chunk] = []
    for i in range(n):
        size = min(chunk, actions - i * chunk)
        for rid in ruleset_ids:
            if i % shards == shard:
                out.append(Chunk(rid, i, base_seed + i, size))
    return out


def load_checkpoint(path: str) -> dict[str, Any]:
    """The checkpoint file's document, or an empty one when the file does not exist."""
    import os
    if not os.path.exists(path):
        return {"format": CHECKPOINT_FORMAT, "chunks": {}}
    with open(path, encoding="utf-8") as f:
        doc = json.load(f)
    if not isinstance(doc, dict) or doc.get("format") != CHECKPOINT_FORMAT or not isinstance(doc.get("chunks"), dict):
        raise ValueError(f"{path} is not a fuzz checkpoint ({CHECKPOINT_FORMAT})")
    return doc


def record_chunk(path: str, chunk: Chunk, result: dict[str, Any]) -> None:
    """Add one finished chunk to the checkpoint file, under an exclusive lock (several processes may share
    the file), written to a temporary file and renamed so an interrupted write never loses what was there."""
    import fcntl
    import os
    with open(path + ".lock", "a+") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        doc = load_checkpoint(path)
        doc["chunks"][chunk.key] = {"ruleset": chunk.ruleset, "seed": chunk.seed, "size": chunk.size, **result}
        tmp = f"{path}.{os.getpid()}.tmp"
        with open(tmp, "w", encoding="utf-8") as f:
            json.dump(doc, f, indent=1, sort_keys=True)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)


def run_chunk(rs: Ruleset, chunk: Chunk, hostile_every: int = 10, hostile_count: int = 3) -> dict[str, Any]:
    """Run one chunk; its figures (steps, inputs, violations, the first few, CPU seconds) as a dict."""
    import time
    t0 = time.process_time()
    tally = run(rs, chunk.size, chunk.seed, hostile_every, hostile_count)
    return {**tally.as_dict(), "cpu_seconds": round(time.process_time() - t0, 2),
            "hostile_every": hostile_every, "hostile_count": hostile_count,
            "first_violations": [v for v in tally.violations if v][:5]}


def summarise(doc: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """Per ruleset: chunks, actions checked, hostile inputs, violations, CPU seconds, the seeds done and the
    chunks with a violation."""
    out: dict[str, dict[str, Any]] = {}
    for c in doc["chunks"].values():
        s = out.setdefault(c["ruleset"], {"chunks": 0, "steps_checked": 0, "inputs_tried": 0, "violations": 0,
                                          "cpu_seconds": 0.0, "seeds": [], "failing": []})
        s["chunks"] += 1
        s["steps_checked"] += c["steps_checked"]
        s["inputs_tried"] += c["inputs_tried"]
        s["violations"] += c["violations"]
        s["cpu_seconds"] = round(s["cpu_seconds"] + c["cpu_seconds"], 2)
        s["seeds"].append(c["seed"])
        if c["violations"]:
            s["failing"].append({"seed": c["seed"], "size": c["size"], "first": c["first_violations"][:2]})
    for s in out.values():
        s["seeds"].sort()
    return out
