"""D&D: Conquest of Nerath (Wizards of the Coast, 2011), as ruleset ``nerath``.

Read in this order: ``pieces.yaml`` (the piece table), ``board.yaml`` (our own board, built by
``make_board.py``), ``setup.yaml`` (starting forces), ``data.py`` (loading and checks), ``rules.py`` (the turn:
Draw, Move, Fight Battles, Reposition, Reinforce, Collect Income; the end of a round), ``dice.py`` (the hit
distributions of battle rolls), ``effects.py`` (card effects and hooks), ``notation.py``, ``ruleset.py``
(options, evaluation, text board). The readings of unclear sentences are in ``docs/rules/nerath.md``.
"""

from conquest.rulesets.nerath.ruleset import NerathRuleset

RULESET = NerathRuleset()
