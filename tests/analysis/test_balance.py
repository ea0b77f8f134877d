from __future__ import annotations

import json
import subprocess
import sys
from collections import Counter

import pytest

from conquest.analysis.balance import GameSpec, Plan, play, read_games, run, wilson, z_for
from conquest.analysis.report import summarise
from conquest.core.errors import ConquestError
from conquest.core.records import Record, replay

KINGDOM_SHORT = {"rounds": 2}


def cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "conquest.cli", *args], capture_output=True, text=True,
                          timeout=300)


# ----------------------------------------------------------------------------------------- the design
def test_narby_plan_deals_each_dragon_to_each_seat_with_each_agent_once_per_period():
    plan = Plan.make("narby", ["random", "greedy"])
    assert plan.rotation is not None and plan.rotation[0] == "dragon" and len(plan.rotation[1]) == 10
    assert plan.period == 20
    triples: Counter[tuple[str, int, str]] = Counter()
    for i in range(plan.period):
        g = plan.game(i)
        assert g.factions is not None and len(set(g.factions)) == 2  # two different dragons in a game
        assert sorted(g.agents) == ["greedy", "random"]
        for seat in range(2):
            triples[(g.factions[seat], seat, g.agents[seat])] += 1
    assert len(triples) == 10 * 2 * 2 and set(triples.values()) == {1}


def test_every_seat_gets_every_agent_equally_often_without_dealt_factions():
    plan = Plan.make("nerath", ["greedy", "random", "random", "random"])
    assert plan.rotation is None and plan.period == 4
    seat_agent = Counter((s, plan.game(i).agents[s]) for i in range(8) for s in range(4))
    assert all(seat_agent[(s, "greedy")] == 2 for s in range(4))


def test_selected_dragons_are_not_dealt():
    # "select: each seat picks its dragon card" — the choice is the players', so the run only observes it
    assert Plan.make("narby", ["random"], options={"dragons": "select"}).rotation is None


def test_a_dealt_deal_is_what_the_game_plays_and_the_record_replays():
    spec = Plan.make("narby", ["random"], seed=5).game(3)
    row = play(spec)
    assert row["error"] is None
    assert json.loads(row["factions"]) == {"dragon": [[spec.factions[0]], [spec.factions[1]]]}  # type: ignore[index]


def test_dealt_rolls_are_legal_d20_rolls_recorded_in_the_game():
    from conquest.analysis.runner import play_game
    from conquest.core.registry import get_ruleset
    rs = get_ruleset("narby")
    opening = rs.faction_opening(rs.new_game(2, {}, 1), ["undead", "gold"])  # type: ignore[attr-defined]
    record, state = play_game(rs, ["random"], players=2, seed=1, opening=opening)
    assert record.actions[:2] == [rs.format_action(a) for a in opening]
    assert rs.seat_factions(record, state) == [{"dragon": ["undead"]}, {"dragon": ["gold"]}]  # type: ignore[attr-defined]
    assert replay(record, verify=True).result() == state.result()


def test_small_world_races_and_powers_are_read_from_the_picks():
    spec = GameSpec("smallworld", 2, Plan.make("smallworld", ["random"]).options, 0, 4, ["random", "random"])
    row = play(spec)
    facs = json.loads(row["factions"])
    for seat in range(2):
        assert facs["race"][seat], "every seat picks at least one combo"
        assert facs["combo"][seat] == [f"{r}+{p}" for r, p in zip(facs["race"][seat], facs["power"][seat])]


def test_nerath_realms_follow_the_seats():
    plan = Plan.make("nerath", ["random"], players=2)
    from conquest.core.registry import get_ruleset
    rs = get_ruleset("nerath")
    state = rs.new_game(2, plan.options, 0)
    record = Record(ruleset="nerath", rules_version="1", players=2, options=plan.options, seats=["", ""], seed=0)
    assert rs.seat_factions(record, state) == [{"realm": ["karkoth", "iron"]},  # type: ignore[attr-defined]
                                               {"realm": ["vailin", "nerath"]}]


# ----------------------------------------------------------------------------------------- statistics
def test_wilson_interval_matches_the_formula_values():
    lo, hi = wilson(5, 10, z_for(0.05))
    assert lo == pytest.approx(0.2366, abs=1e-4) and hi == pytest.approx(0.7634, abs=1e-4)
    lo, hi = wilson(0, 10, z_for(0.05))
    assert lo == pytest.approx(0.0, abs=1e-12) and hi == pytest.approx(0.2775, abs=1e-4)


def _row(i: int, agents: list[str], result: list[float]) -> dict:
    return {"game": i, "seed": i, "agents": agents, "factions": "{}", "result": result,
            "winners": [s for s, r in enumerate(result) if r == max(result)], "scores": result, "length": 10,
            "rounds": 1, "score_track": "[]", "stats": "{}", "error": None}


def test_a_level_is_flagged_only_when_the_corrected_interval_excludes_parity():
    plan = Plan.make("kingdom", ["greedy", "random"])
    # greedy wins 27 of 30 (seats alternate): flagged above; seats win 15 each: not flagged
    rows = []
    for i in range(30):
        agents = ["greedy", "random"] if i % 2 == 0 else ["random", "greedy"]
        g = agents.index("greedy")
        result = [0.0, 0.0]
        result[g if i >= 3 else 1 - g] = 1.0
        rows.append(_row(i, agents, result))
    s = summarise(plan, rows, ["seat", "agent"])
    assert s["correction"]["method"] == "Bonferroni" and s["correction"]["comparisons"] == 4
    agent = {x["level"]: x for x in s["factors"]["agent"]["levels"]}
    assert agent["greedy"]["flag"] == "above" and agent["random"]["flag"] == "below"
    assert agent["greedy"]["win_rate"] == 0.9 and s["factors"]["agent"]["parity"] == 0.5
    assert all(x["flag"] == "" for x in s["factors"]["seat"]["levels"])
    # seat 0 wins 21 of 30: its 95% interval excludes parity, but not once corrected for 2 comparisons
    rows = [_row(i, ["greedy", "random"], [1.0, 0.0] if i < 21 else [0.0, 1.0]) for i in range(30)]
    seat0 = summarise(plan, rows, ["seat"])["factors"]["seat"]["levels"][0]
    assert seat0["ci95"][0] > 0.5 and seat0["ci_corrected"][0] < 0.5 and seat0["flag"] == ""


# ----------------------------------------------------------------------------------------- runs and resume
def test_resume_plays_only_the_missing_games_and_jobs_do_not_change_the_report(tmp_path):
    plan = Plan.make("kingdom", ["random", "greedy"], options=KINGDOM_SHORT, seed=7)
    a = run(plan, 4, tmp_path / "a")
    assert a.played == 4
    first = read_games(tmp_path / "a")[1]
    b = run(plan, 6, tmp_path / "a", resume=True)
    assert b.played == 2
    assert read_games(tmp_path / "a")[1][:4] == first
    c = run(plan, 6, tmp_path / "c", jobs=2)
    assert c.played == 6
    for name in ("summary.json", "report.html"):
        assert (tmp_path / "a" / name).read_bytes() == (tmp_path / "c" / name).read_bytes(), name
    assert read_games(tmp_path / "a")[1] == read_games(tmp_path / "c")[1]
    html = (tmp_path / "c" / "report.html").read_text()
    assert html.count("data:image/png;base64,") >= 4 and 'src="http' not in html  # self-contained


def test_resume_with_other_agents_is_refused_and_keeps_the_games(tmp_path):
    run(Plan.make("kingdom", ["random"], options=KINGDOM_SHORT), 2, tmp_path)
    before = (tmp_path / "games.parquet").read_bytes()
    with pytest.raises(ConquestError, match="other agents"):
        run(Plan.make("kingdom", ["greedy"], options=KINGDOM_SHORT), 3, tmp_path, resume=True)
    assert (tmp_path / "games.parquet").read_bytes() == before


def test_cli_balance_writes_the_three_files_and_prints_the_summary(tmp_path):
    r = cli("balance", "kingdom", "--games", "4", "--agents", "random,greedy", "-o", "rounds=2", "--out",
            str(tmp_path), "--json")
    assert r.returncode == 0, r.stderr
    data = json.loads(r.stdout)
    assert data == json.loads((tmp_path / "summary.json").read_text())
    assert data["games"] == 4 and [x["games"] for x in data["factors"]["agent"]["levels"]] == [4, 4]
    assert {x["level"]: x["by_seat"] for x in data["factors"]["agent"]["levels"]} == {"greedy": [2, 2],
                                                                                      "random": [2, 2]}
    assert (tmp_path / "report.html").stat().st_size > 0
    assert "25%" in r.stderr and "100%" in r.stderr  # a line per 10% when not on a terminal


@pytest.mark.parametrize("args, message", [
    (["--games", "0"], "--games must be at least 1"),
    (["--games", "2", "--agents", "nobody"], "unknown agent 'nobody'"),
    (["--games", "2", "--factor", "dragon"], "unknown factor 'dragon'"),
    (["--games", "2", "-o", "rounds=banana"], "rounds"),
    (["--games", "2", "--backend", "cloud"], "unknown backend"),
])
def test_cli_bad_input_is_one_line_and_changes_nothing(tmp_path, args, message):
    run(Plan.make("kingdom", ["random"], options=KINGDOM_SHORT), 2, tmp_path)
    before = {p.name: p.read_bytes() for p in tmp_path.iterdir()}
    r = cli("balance", "kingdom", *args, "--out", str(tmp_path), "--resume")
    assert r.returncode != 0
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error:") and message in lines[0], r.stderr
    assert {p.name: p.read_bytes() for p in tmp_path.iterdir()} == before


def test_cli_refuses_an_out_holding_another_rulesets_games(tmp_path):
    run(Plan.make("kingdom", ["random"], options=KINGDOM_SHORT), 2, tmp_path)
    before = {p.name: p.read_bytes() for p in tmp_path.iterdir()}
    r = cli("balance", "narby", "--games", "2", "--agents", "random", "--out", str(tmp_path), "--resume")
    assert r.returncode == 2 and r.stderr.strip() == (
        f"error: --out {tmp_path} holds kingdom games, not narby: choose another folder")
    r = cli("balance", "kingdom", "--games", "3", "--agents", "random", "--out", str(tmp_path))
    assert r.returncode == 2 and "add --resume" in r.stderr
    assert {p.name: p.read_bytes() for p in tmp_path.iterdir()} == before
