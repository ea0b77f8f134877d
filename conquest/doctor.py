"""``conquest doctor RULESET_ID``: every check the project makes of a game, for one game, each a line that
passes or fails with the section of the documentation to read:

- the contract: random games with every check at every step (``conquest.analysis.fuzz.check_state``: JSON
  round trips, notation, chance, views, aliasing, checked against unchecked apply);
- hostile inputs to the trust boundaries (text, values that are not actions, mutated state documents);
- ``determinize``: a full state that agrees with the seat's view, from the generator only;
- records: a game played into a ``conquest-record/1``, through JSON and replayed;
- the ruleset's scenarios (``scenarios/`` in its package, and ``tests/scenarios/<id>/`` in this repository);
- the reinforcement-learning environment (PettingZoo's ``api_test``, when PettingZoo is installed);
- the narration (``conquest.web.narration_check``: a line names its seat, its facts hold);
- a random game through the web API (FastAPI's TestClient against ``conquest.web.server.create_app``).
"""

from __future__ import annotations

import contextlib
import io
import json
import random
import tempfile
import warnings
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from conquest.core.chance import sample_chance
from conquest.core.errors import ConquestError
from conquest.core.game import CHANCE, Ruleset, State

ARCH = "docs/architecture.md"
DOCS = {
    "registry": f"{ARCH}#adding-a-game",
    "contract": f"{ARCH}#the-contract-conquestcoregamepy",
    "boundaries": f"{ARCH}#trust-boundaries",
    "determinize": f"{ARCH}#the-contract-conquestcoregamepy",
    "records": f"{ARCH}#records-and-scenarios",
    "scenarios": "docs/scenarios.md",
    "rl": "docs/rl.md",
    "narration": f"{ARCH}#the-contract-conquestcoregamepy",
    "web": "docs/web.md",
}
"""The section to read when a check fails (tests/test_doctor.py holds each to a heading that exists)."""
REPO = Path(__file__).resolve().parent.parent


@dataclass
class Check:
    name: str
    key: str
    ok: bool | None  # None: not run (a library is missing), said why
    detail: str

    @property
    def doc(self) -> str:
        return DOCS[self.key]


def _positions(rs: Ruleset, games: int, steps: int, seed: int = 0) -> list[State]:
    out: list[State] = []
    for g in range(games):
        rng = random.Random(seed + g)
        st = rs.new_game(None, None, seed + g)
        for i in range(steps):
            if i % 7 == 0:
                out.append(st)
            if st.to_move is None:
                break
            st = st.apply(sample_chance(st, rng) if st.to_move == CHANCE else rng.choice(list(st.legal_actions())))
        out.append(st)
    return out


def check_contract(rs: Ruleset) -> str:
    from conquest.analysis import fuzz
    tally = fuzz.Tally()
    games = 0
    for seed in range(12):
        fuzz.random_game(rs, random.Random(seed), 400, tally)
        games += 1
        if tally.violations or tally.steps >= 1500:
            break
    if tally.violations:
        raise AssertionError("; ".join(tally.violations[:3]))
    return f"{tally.steps} positions of {games} random games"


def check_boundaries(rs: Ruleset) -> str:
    from conquest.analysis import fuzz
    tally = fuzz.Tally()
    rng = random.Random(3)
    for st in _positions(rs, 2, 120)[:12]:
        fuzz.hostile_notation(rs, st, rng, tally, 10)
        fuzz.hostile_actions(rs, st, rng, tally, 10)
        fuzz.hostile_documents(rs, st, rng, tally, 6)
    if tally.violations:
        raise AssertionError("; ".join(tally.violations[:3]))
    return f"{tally.inputs} hostile inputs refused or played"


def check_determinize(rs: Ruleset) -> str:
    from conquest.core.jsondoc import hidden_part
    checked = hidden = resampled = 0
    for st in _positions(rs, 3, 200):
        referee = st.to_json()
        for seat in range(st.players):
            one = st.determinize(seat, random.Random(checked))
            if hidden_part(referee, st.view(seat)):
                hidden += 1
                resampled += any(st.determinize(seat, random.Random(k)).to_json() != referee for k in range(8))
            if one.view(seat) != st.view(seat):
                raise AssertionError(f"determinize({seat}) does not agree with view({seat}) at {st!r}")
            again = rs.state_from_json(json.loads(json.dumps(one.to_json())))
            if again != one:
                raise AssertionError("a determinized state does not survive its JSON")
            if st.determinize(seat, random.Random(checked)).to_json() != one.to_json():
                raise AssertionError("determinize draws on something besides its generator")
            checked += 1
    if hidden and not resampled:
        raise AssertionError(f"in {hidden} positions with hidden parts, determinize always returned the referee's "
                             f"state: it must resample what the seat cannot see")
    return f"{checked} determinizations agree with the seat's view ({resampled} of {hidden} with hidden parts " \
           f"resampled)"


def check_records(rs: Ruleset) -> str:
    from conquest.analysis.runner import play_game
    from conquest.core.records import Record, replay
    record, final = play_game(rs, ["random"], seed=4, options=dict(rs.test_settings.short_options))
    again = Record.from_json(json.loads(json.dumps(record.to_json())))
    if replay(again, verify=True).to_json() != final.to_json():
        raise AssertionError("the replayed record ends elsewhere than the game")
    return f"a game of {len(record.actions)} actions recorded, read back and replayed"


def scenario_dirs(rs: Ruleset) -> list[Path]:
    from conquest.core.registry import package_dir
    found = [package_dir(rs) / "scenarios", REPO / "tests" / "scenarios" / rs.id]
    return [d for d in found if d.is_dir()]


def check_scenarios(rs: Ruleset) -> str:
    from conquest.core.scenarios import run_file, scenario_files
    files = scenario_files([str(d) for d in scenario_dirs(rs)])
    if not files:
        raise AssertionError("no scenarios: write rule tests in scenarios/ beside the ruleset's package")
    bad = [r for r in map(run_file, files) if not r.ok]
    if bad:
        raise AssertionError(f"{len(bad)} of {len(files)} fail; {Path(bad[0].path).name}: {bad[0].failures[0]}")
    return f"{len(files)} scenario files pass"


def check_rl(rs: Ruleset) -> str | None:
    try:
        from pettingzoo.test import api_test
    except ImportError:
        return None
    import conquest.rl as rl
    with warnings.catch_warnings(), contextlib.redirect_stdout(io.StringIO()):  # its progress lines
        warnings.simplefilter("ignore")
        api_test(rl.env(rs.id, max_decisions=rs.test_settings.rl_max_decisions), num_cycles=100)
    return "PettingZoo's api_test passes"


def check_narration(rs: Ruleset) -> str:
    from conquest.web.narration_check import check_narration as narration
    report = narration(rs.id, min_lines=300, max_games=10)
    if report.problems:
        raise AssertionError(f"{len(report.problems)} lines contradict the game: {report.problems[0]}")
    return f"{report.lines} narrated lines of {report.games} games agree with the board"


def web_game(client: Any, rid: str, players: int, options: dict[str, Any], seed: int = 5,
             max_steps: int = 3000) -> dict[str, Any]:
    """A game created through the web API and played to its end with random legal moves; the final payload."""
    r = client.post("/api/games", json={"ruleset": rid, "players": players, "options": options, "seed": seed,
                                        "seats": [{"kind": "human"}] * players})
    if r.status_code != 201:
        raise AssertionError(f"POST /api/games answered {r.status_code}: {r.text[:200]}")
    made = r.json()
    gid = made["game"]["id"]
    tokens = {s["seat"]: s["token"] for s in made["seats"]}
    rng = random.Random(seed)
    game: dict[str, Any] = made
    for _ in range(max_steps):
        game = client.get(f"/api/games/{gid}", headers={"X-Conquest-Token": tokens[0]}).json()
        if game["game"]["over"]:
            break
        seat = game["game"]["to_move"]
        head = {"X-Conquest-Token": tokens[seat]}
        legal = client.get(f"/api/games/{gid}/legal", headers=head).json()["legal"]
        r = client.post(f"/api/games/{gid}/actions", headers=head,
                        json={"action": rng.choice(legal)["text"], "step": game["game"]["step"]})
        if r.status_code != 200:
            raise AssertionError(f"POST /actions answered {r.status_code}: {r.text[:200]}")
    else:
        raise AssertionError(f"the game did not end in {max_steps} moves")
    for path in (f"/api/games/{gid}/log", f"/api/games/{gid}/replay?step=1", f"/api/games/{gid}/record"):
        r = client.get(path, headers={"X-Conquest-Token": tokens[0]})
        if r.status_code != 200:
            raise AssertionError(f"GET {path} answered {r.status_code}: {r.text[:200]}")
    return game


def check_web(rs: Ruleset) -> str:
    from fastapi.testclient import TestClient

    from conquest.core.registry import rulesets
    from conquest.web.server import create_app
    with tempfile.TemporaryDirectory() as tmp:
        app = create_app(str(Path(tmp) / "doctor.sqlite3"), rulesets=rulesets)
        with TestClient(app, raise_server_exceptions=False) as client:
            game = web_game(client, rs.id, rs.test_settings.players or rs.default_players(),
                            dict(rs.test_settings.short_options))
    return f"a random game of {game['game']['step']} steps played to its end through the web API"


CHECKS: list[tuple[str, str, Callable[[Ruleset], str | None]]] = [
    ("contract at every step", "contract", check_contract),
    ("hostile inputs refused", "boundaries", check_boundaries),
    ("determinize", "determinize", check_determinize),
    ("records round-trip", "records", check_records),
    ("scenarios", "scenarios", check_scenarios),
    ("RL environment api_test", "rl", check_rl),
    ("narration agrees with the board", "narration", check_narration),
    ("a game through the web API", "web", check_web),
]


def run(ruleset_id: str, on_check: Callable[[Check], None] | None = None) -> list[Check]:
    """Every check of one game, in order; a check that raises fails with its message, the others still run."""
    from conquest.core.registry import get_ruleset
    try:
        rs = get_ruleset(ruleset_id)
    except ConquestError as e:
        done = [Check("the ruleset loads", "registry", False, str(e))]
        if on_check:
            on_check(done[0])
        return done
    out: list[Check] = []
    for name, key, fn in CHECKS:
        try:
            detail = fn(rs)
            check = (Check(name, key, None, "not run: PettingZoo is not installed (pip install conquest[rl])")
                     if detail is None else Check(name, key, True, detail))
        except Exception as e:  # noqa: BLE001 - every failure is this check's, reported on its line
            check = Check(name, key, False, f"{type(e).__name__}: {str(e)[:300]}")
        out.append(check)
        if on_check:
            on_check(check)
    return out
