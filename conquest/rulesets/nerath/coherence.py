"""What a Conquest of Nerath position must hold between its fields, as play keeps it: ``serial.from_body`` reads a
document into the fields, then this refuses a field incoherent with the rest, naming it; the tests hold it after
every action of random games (tests/core/test_coherence.py), so that every legal action leads to a state that
loads again."""

from __future__ import annotations

from conquest.core.errors import StateFormatError
from conquest.rulesets.nerath.battle import one_seat_allies
from conquest.rulesets.nerath.data import COUNTED, LAND_TYPES, N_TYPES, REALMS, R
from conquest.rulesets.nerath.state import BOARD, IDS, Battle, NerathData

MAX_REALM_PIECES = 500
"""A realm's pieces on the board, all spaces and kinds: "Your forces aren't limited by the mix of pieces and chips
available", so a document sets no supply, only this bound (random games peak near 60; docs/rules/nerath.md,
"Bounds of a state document")."""


def check_coherence(st: NerathData) -> None:
    """The pieces, the pieces still to move, the battle or card window in progress and the phase."""
    _check_pieces(st)
    if st.battle is not None:
        _check_battle(st, st.battle)
    if st.reaction is not None and st.reaction.kind == "move" and st.reaction.space < 0:
        raise StateFormatError("reaction/space", "a movement window names the space entered")
    if st.phase == "over" and st.winners is None:
        raise StateFormatError("winners", "a finished game names its winners")
    if st.dealing_guardians and st.phase not in ("deal", "fight", "reposition"):
        raise StateFormatError("dealing_guardians", "entrances wait for tiles at the set-up (phase deal) and, after "
                                                    "a won dungeon, until the Reposition step begins")
    if st.phase == "deal" and not (st.dealing or st.dealing_guardians):
        raise StateFormatError("dealing", "the set-up phase 'deal' needs realms or entrances still to deal")


def _check_pieces(st: NerathData) -> None:
    """No land piece at sea (they ride Warships), at most ``MAX_REALM_PIECES`` a realm, and no more pieces still
    to move from a space than the realm to move has there."""
    n = st.pieces
    for s in BOARD.seas:
        for r in range(R):
            for p in LAND_TYPES:
                if n[(s * R + r) * N_TYPES + p]:
                    raise StateFormatError(f"pieces/{IDS[s]}/{REALMS[r]}/{COUNTED[p]}",
                                           "land pieces at sea ride Warships")
    for r in range(R):
        total = sum(sum(n[(s * R + r) * N_TYPES:(s * R + r + 1) * N_TYPES]) for s in range(len(IDS)))
        if total > MAX_REALM_PIECES:
            raise StateFormatError("pieces", f"{REALMS[r]} has {total} pieces on the board; a realm has at most "
                                             f"{MAX_REALM_PIECES} (docs/rules/nerath.md)")
    for i, c in st.movable.items():
        s, p = divmod(i, N_TYPES)
        have = n[(s * R + st.realm) * N_TYPES + p]
        if c > have:
            raise StateFormatError(f"movable/{IDS[s]}/{COUNTED[p]}", f"{c} {COUNTED[p]} of {REALMS[st.realm]} may "
                                                                     f"still move from {IDS[s]}, which holds {have} "
                                                                     "(pieces)")


def _check_battle(st: NerathData, bt: Battle) -> None:
    """The seat of the Guardians and the allies' split (docs/rules/nerath.md, reading 12): hits wait in
    ``split_hits`` only in the steps ``split`` (the odd hit drawn, allies of two seats) and ``choose`` (the seat
    playing both allies splits them), for two defenders."""
    step, h, defs = bt.step, bt.split_hits, bt.defenders
    if bt.kind == "dungeon" and not 0 <= bt.guardian_seat < st.players:
        raise StateFormatError("battle/guardian_seat", "the seat rolling for the Guardians is needed")
    if step not in ("split", "choose") and h:
        raise StateFormatError("battle/split_hits", f"hits wait for the allies' split only in the steps split "
                                                    f"and choose, not in step {step!r}")
    if step in ("split", "choose") and (h <= 0 or len(defs) < 2 or defs[0] == defs[1]):
        raise StateFormatError("battle/split_hits", f"step {step!r} splits hits (split_hits > 0) between two "
                                                    f"allied defenders")
    one = step in ("split", "choose") and one_seat_allies(st, defs[0], defs[1])
    if step == "choose" and not one:
        raise StateFormatError("battle/step", "step 'choose' is for a seat that plays both defending allies "
                                              "(option ally_split=choose); allies of two seats take half each "
                                              "(step 'split')")
    if step == "split" and one:
        raise StateFormatError("battle/step", "one seat plays both defending allies: it splits the hits itself "
                                              "(step 'choose'), no odd hit is drawn")
