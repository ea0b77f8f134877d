"""What a seat cannot see in Nerath, and its determinization.

Hidden from a seat (``NerathState.view``):

- every Event deck (its size is public; the deck of a realm the seat plays is known as a set — its cards
  are the realm's cards that are neither in its hand nor in its discards — and draws are chance nodes over
  that set, so its order hides nothing);
- the Event hand of every realm the seat does not play (its size is public; the Event discards are shown to
  every seat: each card in them was seen when it was played);
- the Treasure hand of every realm the seat does not play, and the Treasure deck (sizes public);
- the tile (and so the dice) of every facedown Dungeon Guardian, and the pile of unused tiles.

A determinization for ``seat`` pools, per realm, the Event cards it cannot place (for another seat's realm,
its deck and its hand) and deals them back at random into piles of the same sizes; the facedown discards are
kept as they are, since every card in them was seen when it was played (or drawn and applied at once): the
public history places it there, and a determinization that dealt a card just played back into its realm's
hand would let the search play it twice. It does the same with the Treasure cards out of sight (Treasure deck and other
realms' Treasure hands), and with the Guardian tiles out of sight (facedown tiles on entrances and the pile), a facedown
tile at full strength as every facedown Guardian is.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from conquest.rulesets.nerath.data import R, full_strength

if TYPE_CHECKING:
    from conquest.core.game import State


def _deal(rng: random.Random, piles: list[list[str]], keep_sorted: list[bool]) -> list[list[str]]:
    """The cards of ``piles`` shuffled (from a sorted pool, so only their multiset matters) and dealt back
    into piles of the same sizes."""
    pool = sorted(c for p in piles for c in p)
    rng.shuffle(pool)
    out: list[list[str]] = []
    i = 0
    for p, sort in zip(piles, keep_sorted):
        part = pool[i:i + len(p)]
        i += len(p)
        out.append(sorted(part) if sort else part)
    return out


def determinize(state: State, seat: int, rng: random.Random) -> State:
    s = state.clone()
    seat_of = s.seat_of  # type: ignore[attr-defined]
    # a clone shares its card piles with the state it copies (copied on write: ``base.own_pile``)
    decks, hands = s.decks, s.hands = s.decks[:], s.hands[:]  # type: ignore[attr-defined]
    # Event cards, realm by realm
    for r in range(R):
        if seat_of[r] == seat:
            continue  # the deck is the rest of the realm's cards: known as a set, kept
        # the discards are kept: every card in them was seen played (or drawn and applied at once), so the
        # public history places it there; only the deck and the hand are dealt afresh
        decks[r], hands[r] = _deal(rng, [decks[r], hands[r]], [True, True])
    # Treasure cards: the deck and the hands of realms the seat does not play
    others = [r for r in range(R) if seat_of[r] != seat]
    treasures = s.treasures = s.treasures[:]  # type: ignore[attr-defined]
    dealt = _deal(rng, [s.treasure_deck] + [treasures[r] for r in others],  # type: ignore[attr-defined]
                  [True] * (1 + len(others)))
    s.treasure_deck = dealt[0]  # type: ignore[attr-defined]
    for r, h in zip(others, dealt[1:]):
        treasures[r] = h
    # Guardian tiles: facedown ones on entrances, and the pile
    # a clone shares the Guardians with the state it copies (copied on write: ``base.own_guardians``)
    guardians = s.guardians = {x: [g[:] for g in gs] for x, gs in s.guardians.items()}  # type: ignore[attr-defined]
    facedown = [g for x in sorted(guardians) for g in guardians[x] if not g[1]]
    dealt = _deal(rng, [s.guardian_pile, [g[0] for g in facedown]], [True, False])  # type: ignore[attr-defined]
    s.guardian_pile = dealt[0]  # type: ignore[attr-defined]
    for g, tile in zip(facedown, dealt[1]):
        g[:] = [tile, 0] + full_strength(tile)
    return s
