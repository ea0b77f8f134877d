"""It's a Wonderful Kingdom — the Conquest module (rules document 002, 2 players), as ruleset ``kingdom``.

Read in this order: ``boards/*.yaml`` and ``board.py`` (the double-sided board and its checks), ``economy.yaml``
(the standalone stand-in for the base game), ``base.py`` (the pawns, colours and steps every section shares),
``state.py`` (``KingdomData``, the data of a position, and the board queries of CONQUEST BOARD ANATOMY). Then
the rules, one module per section of the document in its order: ``setup.py`` (SETUP), ``phases.py``
(MODIFICATIONS TO THE GAME PHASES: production, Soldier income), ``conquest_phase.py`` (CONQUEST PHASE: who goes
first, one action each), ``recruit.py`` (Recruit Armies), ``move.py`` (Move Armies, with Double move),
``stop.py`` (Stop Your Conquest), ``bonus.py`` (BONUS EFFECTS), ``end.py`` (END OF THE GAME). Around them:
``turn.py`` (the dispatcher: legal actions, applying by step), ``reasons.py`` (why an action is refused),
``schema.py``, ``coherence.py`` and ``serial.py`` (the state as JSON), ``rules.py`` (``KingdomState``: the data
with the procedures bound), ``view.py`` (the text board, action descriptions), ``notation.py``, ``narrate.py``
(the log), ``webboard.py`` (the browser board, rules help), ``ruleset.py`` (options, evaluation, the hooks).
Readings of unclear sentences: docs/rules/kingdom.md.
"""

from conquest.rulesets.kingdom.ruleset import KingdomRuleset

RULESET = KingdomRuleset()
