"""Stop Your Conquest (rules document ``002``, CONQUEST PHASE): "When you stop your conquest, you do nothing.
If your opponent Recruit or Move their armies, you will be able to carry on playing. If your opponent Stops
Their Conquest just after you have, it ends the Conquest phase." """

from __future__ import annotations

from conquest.rulesets.kingdom.conquest_phase import end_conquest_phase
from conquest.rulesets.kingdom.phases import start_round
from conquest.rulesets.kingdom.state import KingdomData


def stop_conquest(s: KingdomData) -> None:
    """"If your opponent Stops Their Conquest just after you have, it ends the Conquest phase." A Recruit or a
    Move in between clears the first stop (``conquest_phase.end_action``)."""
    me = s.current
    if s.stopped is not None and s.stopped != me:
        if end_conquest_phase(s):
            start_round(s)
        return
    s.stopped = me
    s.current = 1 - me
