"""What each seat sees of the state: hidden hands, decks, piles and facedown Guardians.
"""

from __future__ import annotations

from typing import Any

from conquest.rulesets.nerath.data import REALMS, R
from conquest.rulesets.nerath.state import NerathData


def view(st: NerathData, seat: int | None) -> dict[str, Any]:
    """Event and Treasure hands are hidden from other seats, every deck and pile from everyone, facedown
    Guardians too. The Event discards are face down but not hidden: every seat saw each card in them when it was
    played (or drawn and applied at once), so the public history shows them (docs/rules/nerath.md, reading 21)."""
    doc = st.to_json()
    for r in range(R):
        name = REALMS[r]
        doc["event_decks"][name] = len(st.decks[r])
        if seat is None or st.seat_of[r] != seat:
            doc["event_hands"][name] = len(st.hands[r])
            doc["treasure_hands"][name] = len(st.treasures[r])
    doc["treasure_deck"] = len(st.treasure_deck)
    doc["guardian_pile"] = len(st.guardian_pile)
    for gs in doc["guardians"].values():
        for g in gs:
            if not g["face_up"]:
                g["tile"] = "facedown"
                g["dice"] = []
    return doc
