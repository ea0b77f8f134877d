"""Print a Small World board for scenario writers: ``python -m conquest.rulesets.smallworld PLAYERS [SEED]``
(with a SEED, the generated board of that seed), the drawing and every region with its terrain, symbols, Lost
Tribe and neighbours."""

from __future__ import annotations

import sys

from conquest.core.notation import is_digits
from conquest.rulesets.smallworld import RULESET


def main(argv: list[str]) -> int:
    if not argv or not is_digits(argv[0]) or not 2 <= int(argv[0]) <= 5:
        print(__doc__)
        return 2
    players = int(argv[0])
    options = {"column": "amazons:commando,wizards:merchant,dwarves:wealthy,orcs:pillaging,trolls:swamp,"
                         "elves:forest"}
    seed = 0
    if len(argv) > 1:
        options["map"] = "generated"
        seed = int(argv[1])
    state = RULESET.new_game(players, options, seed)
    print(RULESET.render_text(state, None))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
