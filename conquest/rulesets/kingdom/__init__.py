"""It's a Wonderful Kingdom — the Conquest module (2 players), as ruleset ``kingdom``.

Read in this order: ``board.py`` (the double-sided board and its checks), ``rules.py`` (setup, the Conquest
phase: ``recruit``, ``move_armies``, ``stop_conquest``, bonus locations, scoring), ``notation.py``,
``economy.yaml`` (the standalone stand-in for the base game), ``ruleset.py`` (options, evaluation, text board).
"""

from conquest.rulesets.kingdom.ruleset import KingdomRuleset

RULESET = KingdomRuleset()
