"""What a Narby Conquest position must hold between its fields, as play keeps it: ``serial.from_body`` reads a
document into the fields, then this refuses a field incoherent with the rest, naming it; the tests hold it after
every action of random games (tests/core/test_coherence.py), so that every legal action leads to a state that
loads again."""

from __future__ import annotations

from conquest.core.errors import StateFormatError
from conquest.rulesets.narby.base import DECISION_NODES, UNDEAD, key_text
from conquest.rulesets.narby.state import NarbyData
from conquest.rulesets.narby.tables import TABLES as T

_NEEDS_EVENT = {"react": ("attack", "steal", "destroy", "claim"), "place": ("place",), "upgrade": ("upgrade",),
                "pop_x": ("place_power",), "pop_y": ("place_power",), "token": ("token",),
                "tribute_card": ("tribute",), "lose": ("lose",), "roll": ("attack", "steal", "destroy", "tribute")}
"""The event a node acts on: its type."""


def check_coherence(s: NarbyData) -> None:
    """The seats, dragons, claims, cards and turn order against each other and the number of players, then the
    node against what it needs (``_check_node``)."""
    players = s.players
    if s.options["max_rounds"] and s.round > s.options["max_rounds"]:
        raise StateFormatError("round", f"round {s.round} is past the round limit (option max_rounds "
                                        f"{s.options['max_rounds']}), which ends the game")
    if s.node in DECISION_NODES and not 0 <= s.who < players:
        raise StateFormatError("seat", f"a decision node needs the deciding seat, got "
                                       f"{None if s.who < 0 else s.who!r}")
    if len([x for x in s.dragon if x >= 0]) != len({x for x in s.dragon if x >= 0}):
        raise StateFormatError("dragons", "a dragon is chosen twice")
    for i in range(players):
        if s.cave[i] >= 0 and s.dragon[i] == UNDEAD:
            raise StateFormatError(f"caves/{i}", "the Undead \"Does not place home cave\"")
    for k, o in s.claims.items():
        if isinstance(k, str) and k not in s.places:
            raise StateFormatError(f"claims/{key_text(k)}", "that place of power is not on the board")
        if not 0 <= o < players:
            raise StateFormatError(f"claims/{key_text(k)}", f"expected a seat number, got {o!r}")
    for i, left in enumerate(s.rings_left):
        if left < 0:
            total = T.dragons[s.dragon[i]].rings if s.dragon[i] >= 0 else 0
            raise StateFormatError("claims", f"seat {i} has {total - left} claim rings on the board, more than "
                                             f"{total}")
    dealt = [c for c in s.hand if c is not None] + s.played
    if len(dealt) != len(set(dealt)):
        raise StateFormatError("hands", "a card is in two places (the deck has one card of each title)")
    if sorted(s.order) != list(range(players)):
        raise StateFormatError("order", f"a permutation of the seats 0-{players - 1}")
    if s.turn > players:
        raise StateFormatError("turn", f"{s.turn} out of range")
    _check_event(s)
    _check_node(s)


def _check_event(s: NarbyData) -> None:
    ev = s.ev
    if ev is None:
        return
    for k in ("actor", "defender", "seat", "by", "from"):
        if isinstance(ev.get(k), int) and not 0 <= ev[k] < s.players:
            raise StateFormatError(f"event/{k}", f"seat {ev[k]} out of range")
    if any(not 0 <= y < s.players for y in ev.get("queue", ())):
        raise StateFormatError("event/queue", "seats out of range")
    if ev["type"] == "place" and ev["piece"] == "dragon" and not 0 <= ev["dragon"] < s.players:
        raise StateFormatError("event/dragon", f"placing a dragon names its seat, got {ev['dragon']!r}")


def _check_node(s: NarbyData) -> None:
    """The coherence of the node with the rest: the seats, dragons, event and dice it needs."""
    node, players = s.node, s.players
    if s.phase not in ("setup", "over"):
        # "When every dragon is on the board the first round" begins: after the set-up every seat has its
        # dragon, on the board, and a home (its cave; the Undead's rolled square). A finished game plays no more:
        # it may have ended before the set-up was done (a seat past the win at once: win_check=at_once)
        for i in range(players):
            if s.dragon[i] < 0:
                raise StateFormatError(f"dragons/{i}", f"seat {i} has no dragon after the set-up")
            if s.dpos[i] < 0:
                raise StateFormatError(f"dragon_at/{i}", f"seat {i}'s dragon is off the board in the {s.phase} "
                                                         "phase (dragons stay on the board after the set-up)")
            if s.home[i] < 0:
                raise StateFormatError(f"home/{i}", f"seat {i} has no home cave after the set-up")
    if node in _NEEDS_EVENT and (s.ev is None or s.ev["type"] not in _NEEDS_EVENT[node]):
        raise StateFormatError("event", f"node {node} needs an event of type {' or '.join(_NEEDS_EVENT[node])}")
    if node == "act" and s.dpos[s.who] < 0:
        raise StateFormatError("dragon_at", f"seat {s.who} acts but its dragon is not on the board")
    if node in ("act", "react", "roll") and s.phase == "action":
        missing = [i for i in range(players) if s.dpos[i] < 0 or s.dragon[i] < 0]
        if missing:
            raise StateFormatError("dragon_at", f"seats {missing} have no dragon on the board")
    if node == "react" and s.ev is not None and s.who not in s.ev["queue"][:1]:
        raise StateFormatError("seat", "at node react the seat must be the first of event/queue")
    if node in ("tribute_card", "procreator") and s.hand[s.who] is None:
        raise StateFormatError("hands", f"node {node} asks a seat that holds a card")
    if node in ("settle_y", "pop_y", "chest_y", "cave_y", "procreator") and s.die == 0:
        raise StateFormatError("dice", f"node {node} needs the first die")
    if node == "procreator" and s.die2 == 0:
        raise StateFormatError("dice", "node procreator needs both dice")
