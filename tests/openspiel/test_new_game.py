"""A game with no encoding of its own (tests/rl/newgame.py) is an OpenSpiel game too: the generic encoding
gives its actions and observation tensor, and the chance bound is the ``Ruleset`` default (256)."""

from __future__ import annotations

import pytest

pytest.importorskip("pyspiel", reason="OpenSpiel is not installed (pip install -e '.[openspiel]')")

import pyspiel

from conquest.core.game import Ruleset
from conquest.openspiel.game import ConquestGame
from tests.rl.newgame import registered


def test_a_game_without_an_encoding_plays_in_openspiel() -> None:
    with registered() as rs:
        game = ConquestGame(rs.id, {"seed": 9, "max_game_length": 2000})
        assert game.max_chance_outcomes() == Ruleset.max_chance_outcomes == 256
        # not registered with pyspiel (a registration lasts for the life of the process): nothing that loads the
        # game by its name (serialization, pickling) is tried here
        pyspiel.random_sim_test(game, num_sims=3, serialize=False, verbose=False)
        st = game.new_initial_state()
        while st.is_chance_node():
            st.apply_action(st.chance_outcomes()[0][0])
        assert len(st.observation_tensor(st.current_player())) == game.observation_tensor_size()
        for action in (("call", "s9"), ("shift", -1)):  # a word and a number the sample games never showed
            assert action in st.engine_actions()
            st.apply_engine_action(action)
            assert st.engine_state().to_json() is not None
