"""D&D: Conquest of Nerath (Wizards of the Coast, 2011), as ruleset ``nerath``.

Read in this order: ``pieces.yaml`` (the piece table), ``board.yaml`` (our own board, built by
``make_board.py``), ``setup.yaml`` (starting forces), ``data.py`` (loading and checks, the Guardian tiles),
``cards.py`` (the Event and Treasure cards as data), ``state.py`` (the board tables and the data of a game),
``base.py`` (control, friendly and enemy spaces, piece counts). Then the rules, one module per section of the
rules document in its order: ``setup.py`` (SETUP), ``turn.py`` (TURN SEQUENCE: the dispatcher; ``rules.py`` binds
it to ``NerathState``), ``effects.py`` (1. DRAW and what cards do), ``movement.py`` (2. MOVE), ``sea.py`` (Sea
Transport, sea landings), ``battle.py`` (3. FIGHT BATTLES), ``retreat.py`` (Press Attack or Retreat),
``results.py`` (Determine Battle Results), ``conquer.py`` (Conquer Spaces, Victory Points), ``run_amok.py`` (Run
Amok), ``dungeons.py`` (Plunder Dungeons, EXPLORING DUNGEONS), ``reposition.py`` (4. REPOSITION),
``reinforce.py`` (5. REINFORCE), ``income.py`` (6. COLLECT INCOME), ``victory.py`` (VICTORY CONDITIONS).
Around them: ``dice.py`` (the hit distributions of battle rolls), ``reasons.py`` (why an action is refused),
``serial.py`` (the state as JSON), ``view.py`` (what each seat sees), ``notation.py``, ``ruleset.py`` (options,
evaluation, text board). The readings of unclear sentences are in ``docs/rules/nerath.md``.
"""

from conquest.rulesets.nerath.ruleset import NerathRuleset

RULESET = NerathRuleset()
