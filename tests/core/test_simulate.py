from __future__ import annotations

from conquest.analysis.simulate import bench, simulate


def test_simulate_summarises_games_and_stats():
    s = simulate("kingdom", 6, ["random", "greedy"], seed=3, options={"rounds": 2}).to_json()
    assert s["games"] == 6 and s["finished"] == 6 and s["errors"] == 0
    assert sum(s["wins"]) + s["draws"] == 6  # two players: a game is won by one seat or drawn
    assert s["stats"]["rounds"] == {"total": 12.0, "mean": 2.0, "games": 6}


def test_parallel_simulation_gives_the_same_games():
    one = simulate("kingdom", 4, ["random"], seed=9).to_json()
    two = simulate("kingdom", 4, ["random"], seed=9, jobs=2).to_json()
    for key in ("wins", "shared_wins", "mean_actions", "mean_scores", "stats"):
        assert one[key] == two[key], key


def test_bench_reports_throughput():
    b = bench("kingdom", 0.2)
    assert b["actions"] > 0 and b["games"] >= 1 and b["actions_per_second"] > 0
