"""Whole games: agents, properties over random play, the CLI."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

from hypothesis import given, settings, strategies as st

from conquest.analysis.runner import play_game, sample_chance
from conquest.analysis.simulate import simulate
from conquest.core.game import CHANCE
from tests.kingdom.helpers import KINGDOM

ROOT = Path(__file__).resolve().parents[2]


def _invariants(s):
    b = s.board
    for p in (0, 1):
        assert sum(s.armies[2 * t + p] for t in range(b.territories)) + s.reserve[p] == 12
        assert s.soldiers[p] >= 0
        assert s.armies[2 * b.castles[1 - p] + p] == 0
    for t in range(b.territories):
        assert not (s.armies[2 * t] and s.armies[2 * t + 1])
        if s.phase not in ("vacate", "place"):
            for p in (0, 1):
                assert len(s.occupied(p, t)) <= s.armies[2 * t + p]


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10**6), board=st.sampled_from(["a", "b"]),
       mode=st.sampled_from(["standalone", "companion"]))
def test_random_play_keeps_invariants(seed, board, mode):
    rng = random.Random(seed)
    s = KINGDOM.new_game(2, {"board": board, "mode": mode})
    steps = 0
    while s.to_move is not None:
        _invariants(s)
        assert s.view(0) == s.view(1) == s.to_json()  # nothing is hidden in this game
        if s.to_move == CHANCE:
            a = sample_chance(s, rng)
        else:
            acts = s.legal_actions()
            if mode == "companion" and acts[0][0] == "soldiers":
                acts = acts[:8]
            a = acts[rng.randrange(len(acts))]
        s = s.apply(a)
        steps += 1
        assert steps < 5000
    assert s.result() is not None


def test_greedy_beats_random():
    summary = simulate("kingdom", 60, ["greedy", "random"], seed=100)
    assert summary.finished == 60
    assert summary.wins[0] >= 48
    summary = simulate("kingdom", 60, ["random", "greedy"], seed=200)
    assert summary.wins[1] >= 48


def test_same_seed_same_game():
    r1, _ = play_game(KINGDOM, ["random", "greedy"], seed=5)
    r2, _ = play_game(KINGDOM, ["random", "greedy"], seed=5)
    assert r1.actions == r2.actions


def _cli(*args, input_text=None):
    return subprocess.run([sys.executable, "-m", "conquest.cli", *args], input=input_text, capture_output=True,
                          text=True, cwd=ROOT, timeout=300)


def test_cli_play_from_piped_input_to_the_end_and_replay(tmp_path):
    rec = tmp_path / "game.json"
    r = _cli("play", "kingdom", "--seats", "human,greedy", "--seed", "7", "--save", str(rec),
             input_text="1\n" * 400)
    assert r.returncode == 0, r.stderr
    assert "Game over" in r.stdout
    assert json.loads(rec.read_text())["format"] == "conquest-record/1"
    v = _cli("replay", str(rec), "--verify")
    assert v.returncode == 0 and "verified" in v.stdout


def test_cli_play_refuses_bad_input_and_asks_again():
    r = _cli("play", "kingdom", "--seats", "human,random", "--seed", "1",
             input_text="dance\nrecruit 99\n999\n" + "1\n" * 400)
    assert r.returncode == 0
    assert r.stdout.count("refused:") >= 3


def test_cli_simulate_json_and_records(tmp_path):
    r = _cli("simulate", "kingdom", "--games", "6", "--seats", "random,greedy", "--jobs", "2", "--json",
             "--records", str(tmp_path))
    assert r.returncode == 0, r.stderr
    data = json.loads(r.stdout)
    for key in ("ruleset", "games", "finished", "errors", "mean_actions", "wins", "seconds"):
        assert key in data
    assert data["games"] == 6 and data["finished"] == 6 and data["errors"] == 0
    files = sorted(tmp_path.glob("*.json"))
    assert len(files) == 6
    assert _cli("replay", str(files[0]), "--verify").returncode == 0


def test_cli_errors_are_one_line_without_traceback(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    cases = [("play", "chess"), ("simulate", "kingdom", "--games", "0"), ("play", "kingdom", "-o", "board=z"),
             ("replay", str(bad)), ("replay", str(tmp_path / "missing.json")), ("check", str(tmp_path / "nope")),
             ("simulate", "kingdom", "--seats", "random,wizard", "--games", "1"), ("bench", "kingdom", "-t", "x")]
    for args in cases:
        r = _cli(*args)
        assert r.returncode != 0, args
        assert "Traceback" not in r.stderr, args
        assert len(r.stderr.strip().splitlines()) == 1, (args, r.stderr)
        assert r.stderr.startswith("error:"), (args, r.stderr)


def test_cli_rulesets_and_bench():
    r = _cli("rulesets")
    assert r.returncode == 0 and "kingdom" in r.stdout
    b = _cli("bench", "kingdom", "--seconds", "0.5", "--json")
    data = json.loads(b.stdout)
    assert data["actions_per_second"] > 0 and data["games_per_second"] > 0


def test_mcts_agent_plays_legal_moves_and_is_reproducible():
    from conquest.agents.mcts import MCTSAgent
    s = KINGDOM.new_game(2, {}).apply("roll 3").apply("roll 4")
    a1 = MCTSAgent(iterations=40).choose(s, random.Random(3))
    a2 = MCTSAgent(iterations=40).choose(s, random.Random(3))
    assert a1 == a2 and s.is_legal(a1)


def test_cli_check_exits_non_zero_on_failures(tmp_path):
    good = tmp_path / "good.yaml"
    good.write_text("ruleset: kingdom\nplayers: 2\nexpect:\n  - {at: /reserve, equals: [8, 8]}\n")
    wrong = tmp_path / "wrong.yaml"
    wrong.write_text("ruleset: kingdom\nplayers: 2\nexpect:\n  - {at: /reserve, equals: [7, 8]}\n")
    typo = tmp_path / "typo.yaml"
    typo.write_text("ruleset: kingdom\nplayers: 2\nexpects:\n  - {at: /reserve, equals: [7, 8]}\n")
    assert _cli("check", str(good)).returncode == 0
    for bad in (wrong, typo):
        r = _cli("check", str(bad))
        assert r.returncode == 1, bad
        assert "FAIL" in r.stderr and "0 passed, 1 failed" in r.stdout


def test_cli_undo_takes_back_your_own_step_only():
    r = _cli("play", "kingdom", "--seed", "3", input_text="move stonegate\nundo\nundo\n" + "1\n" * 400)
    assert r.returncode == 0
    assert "taken back" in r.stdout and "nothing of yours to take back" in r.stdout


def test_default_seats_fill_every_player():
    r = _cli("play", "narby", "--players", "3", "--seed", "1", input_text="")
    header = r.stdout.splitlines()[0]
    assert header.count(": human") == 1 and header.count(": greedy") == 2, header


def test_cli_play_from_a_given_position_and_its_record_replays(tmp_path):
    start = KINGDOM.new_game(2, {}).apply("roll 2").apply("roll 3")
    pos = tmp_path / "pos.json"
    pos.write_text(json.dumps(start.to_json()))
    rec = tmp_path / "rec.json"
    r = _cli("play", "kingdom", "--state", str(pos), "--seed", "1", "--save", str(rec), input_text="1\n" * 400)
    assert r.returncode == 0, r.stderr
    data = json.loads(rec.read_text())
    assert data["start"]["soldiers"] == [4, 5]
    assert not any(a.startswith("roll") for a in data["actions"][:1])
    assert _cli("replay", str(rec), "--verify").returncode == 0
