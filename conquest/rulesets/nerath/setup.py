"""SETUP: each realm's starting pieces and Castles (``setup.yaml``), the decks, and the Guardian tiles to deal.
"""

from __future__ import annotations

import conquest.rulesets.nerath.effects as fx
from conquest.rulesets.nerath.cards import treasure_cards
from conquest.rulesets.nerath.data import N_TYPES, REALM_INDEX, TYPE_INDEX, R
from conquest.rulesets.nerath.state import BOARD, CAPITAL, IX, NerathData
from conquest.rulesets.nerath.variant import cards_out_of, setup_of


def setup_board(st: NerathData) -> None:
    """Place each realm's starting pieces and Castles (setup.yaml)."""
    st.treasure_deck = sorted(set(treasure_cards()) - cards_out_of(st))
    if st.options["board_setup"] == "empty":
        for s in CAPITAL:
            st.castle[s] = 1
        fx.setup_decks(st)
        return
    # "Shuffle the Dungeon Guardian tiles and place one on each dungeon entrance": chance at set-up
    st.dealing_guardians = list(BOARD.dungeons)
    for realm, d in setup_of(st)["realms"].items():
        r = REALM_INDEX[realm]
        for s in d.get("castles", []):
            st.castle[IX[s]] = 1
        for s, pcs in d.get("pieces", {}).items():
            for p, c in pcs.items():
                st.pieces[(IX[s] * R + r) * N_TYPES + TYPE_INDEX[p]] += int(c)
        for w in d.get("warships", []):
            cargo = [TYPE_INDEX[p] for p in w[1:]] + [-1, -1]
            st.ships[st.next_ship] = [r, IX[w[0]], 0, 0, cargo[0], cargo[1], -1, -1]
            st.next_ship += 1
    fx.setup_decks(st)
