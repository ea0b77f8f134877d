"""Narby Conquest (rules document 001), as ruleset ``narby``.

Read in this order: ``tables.yaml`` (the dragons, places of power, cards and the four charts, as data),
``tables.py`` (their loader and checks), ``board.py`` (the 20x20 grid, 2x2 pieces, adjacency), ``base.py``
(occupancy codes, nodes, dice) and ``state.py`` (the data of a position), then one module per section of the
document in its order: ``setup``, ``draw``, ``populate``, ``places``, ``action_phase``, ``actions``,
``charts``, ``tribute``, ``cards``, ``end``; ``turn.py`` (the dispatcher), ``serial.py`` (JSON), ``view.py``
(what a seat sees, the text board), ``rules.py`` (the state class ``NarbyState``), ``notation.py``,
``ruleset.py`` (options, greedy evaluation). Readings of unclear sentences: docs/rules/narby.md.
"""

from conquest.rulesets.narby.ruleset import NarbyRuleset

RULESET = NarbyRuleset()
NarbyRuleset.state_class.ruleset = RULESET
