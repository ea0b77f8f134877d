"""Small World's observation is read straight from the state's fields: no JSON view is built for it (that is
what makes the environment fast, benchmarks/rl_throughput.py). tests/rl/test_envs.py holds its numbers equal to
the view's at every decision of random games; here, that the fast reading is the one used."""

from __future__ import annotations

import random

import pytest

np = pytest.importorskip("numpy")

from conquest.rl.match import Match  # noqa: E402
from conquest.rulesets.smallworld.state import SmallWorldState  # noqa: E402


@pytest.mark.parametrize("players, options", [(2, {}), (3, {"map": "generated"})])
def test_the_observation_builds_no_view(monkeypatch: pytest.MonkeyPatch, players: int, options: dict) -> None:
    match = Match("smallworld", players, options)
    match.reset(7)
    rng = random.Random(7)
    seen = []
    for _ in range(60):
        if match.over():
            break
        st = match.state
        seen += [(st, s, np.asarray(match.encoding.features(st.view(s), s), dtype=np.float32))
                 for s in range(players)]
        opts = sorted(match.decision.options())  # type: ignore[union-attr]
        match.choose(opts[rng.randrange(len(opts))])
    assert len(seen) > 50

    def no_view(self: SmallWorldState, seat: int | None) -> dict:
        raise AssertionError("the observation built a view")

    monkeypatch.setattr(SmallWorldState, "view", no_view)
    for st, s, want in seen:
        assert np.array_equal(np.asarray(match.encoding.observe(st, s), dtype=np.float32), want)
