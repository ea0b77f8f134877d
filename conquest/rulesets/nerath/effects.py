"""1. DRAW (an Event card each turn, "Play Immediately cards are played right away") and what playing an Event
or Treasure card does: card effects and the hooks the rules call (the cards themselves are data: ``cards.py``).

The rules ask this module: a realm's bonus to attack rolls (``attack_bonus``), to Move (``move_bonus``), to
income (``income_bonus``); which cards the seat to move may play now (``playable``) and what playing one does
(``play``); the Draw step's chance outcomes (``draw_outcomes``, ``resolve_draw``); and it is told of
conquests/liberations (``on_conquer``), retreats (``on_retreat``) and plundered dungeons (``plunder``).

Active effects are records ``[realm, verb, value, piece, until]`` in ``state.effects`` (until: ``turn``,
``battle`` or ``game``; the list is replaced on every change, never changed in place: a clone shares it),
with a sixth field ``treasure`` when a Treasure card made it (an Event card's record has five: "An Event card
that grants a Hero a bonus to attack rolls trumps" "Heroes Need", a Treasure's does not); ``expire`` drops the
finished ones at the start of each turn.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from conquest.core.kinds import Action, ActionArgs
from conquest.core.schema import add_to_counter
from conquest.rulesets.nerath.base import add, own_pile, own_stats
from conquest.rulesets.nerath.cards import INSTANT, WINDOWS, event_cards, targeted, treasure_cards
from conquest.rulesets.nerath.data import COUNTED, N_TYPES, REALMS, TYPE_INDEX, R
from conquest.rulesets.nerath.state import CAPITAL, IDS, IX, NerathData, S
from conquest.rulesets.nerath.variant import cards_out_of


def removal_targets(state: NerathData, realm: int, piece: str) -> list[tuple[str, str]]:
    """(space, piece) of every enemy piece a removal card may target: pieces only — never a Castle, and never
    a Dungeon Guardian ("Dungeon Guardians do not count as pieces")."""
    out = []
    for s in range(S):
        for e in range(R):
            if state.team[e] == state.team[realm]:
                continue
            base = (s * R + e) * N_TYPES
            for t in range(N_TYPES):
                if state.pieces[base + t] and (piece == "*" or COUNTED[t] == piece):
                    out.append((IDS[s], COUNTED[t]))
    return sorted(set(out))


def setup_decks(state: NerathData) -> None:
    if state.options.get("events") != "decks":
        return
    out = cards_out_of(state)
    state.decks = [d[:] for d in state.decks]   # a clone shares its card piles (copied on write)
    for cid, c in event_cards().items():
        if cid not in out:
            state.decks[REALMS.index(c["realm"])].append(cid)
    for d in state.decks:
        d.sort()


# ------------------------------------------------------------------------------------------ modifiers
TREASURE = "treasure"   # the source field of an effect a Treasure card made
UNTIL = ("turn", "battle", "game")


@lru_cache(maxsize=1)
def effect_forms() -> tuple[dict[str, tuple[int, int]], frozenset[str], int]:
    """What an effect record may hold, from the cards that make them: each lasting verb with the bounds of its
    value (what all the cards of that verb give together: one record may sum several, as the battle
    calculator's do; a Tax's income malus is its value negated), the pieces named, and how many records all the
    cards together could make at once (a state document's bounds)."""
    verbs: dict[str, tuple[int, int]] = {}
    pieces = {"*"}
    count = 0

    def note(verb: str, value: int, piece: str) -> None:
        lo, hi = verbs.get(verb, (0, 0))
        verbs[verb] = (lo + min(0, value), hi + max(0, value))
        pieces.add(piece)

    for c in [*event_cards().values(), *treasure_cards().values()]:
        for verb, value, piece in [*c.get("effects", []), *c.get("power", []), *c.get("property", [])]:
            count += 1
            if verb == "tax":
                note("income_bonus", -value, "*")
            elif verb not in INSTANT:
                note(verb, value, piece)
    return verbs, frozenset(pieces), count


def _sum(state: NerathData, realm: int, verb: str, piece: str, events_only: bool = False) -> int:
    total = 0
    for e in state.effects:
        if e[0] == realm and e[1] == verb and (e[3] == "*" or e[3] == piece) and \
                not (events_only and len(e) > 5 and e[5] == TREASURE):
            total += e[2]
    return total


def attack_bonus(state: NerathData, realm: int, t: int, side: str, events_only: bool = False) -> int:
    """Bonus to attack rolls (a hit needs 6 - bonus or higher). ``t`` -1 is a Warship, -2 a Castle.
    ``events_only``: the part Event cards give (Treasures' Powers and Properties left out)."""
    if not state.effects:
        return 0
    name = COUNTED[t] if t >= 0 else ("warship" if t == -1 else "castle")
    return _sum(state, realm, "attack_bonus", name, events_only)


def move_bonus(state: NerathData, realm: int, t: int) -> int:
    if not state.effects:
        return 0
    return _sum(state, realm, "move_bonus", COUNTED[t] if t >= 0 else "warship")


def income_bonus(state: NerathData, realm: int) -> int:
    if not state.effects:
        return 0
    return _sum(state, realm, "income_bonus", "*")


def expire(state: NerathData, until: str) -> None:
    if state.effects:
        state.effects = [e for e in state.effects if e[4] != until]


# ------------------------------------------------------------------------------------------ cards
def playable(state: NerathData) -> list[Action]:
    """Cards the realm whose turn it is may play now (outside battles' inner decisions): Event cards in the
    step their ``when`` names, Treasure cards at any of these times."""
    r = state.realm
    hand = state.hands[r]
    out: list[Action] = []
    if hand:
        key = (tuple(hand), state.phase)
        got = _HAND_PLAYS.get(key)
        if got is None:   # the cards' data only: (card, the kind its removal targets or None) of each playable
            cards = event_cards()
            got = tuple((cid, targeted(c.get("effects", []))) for cid in sorted(set(hand))
                        if (c := cards.get(cid)) is not None and c["when"] in (state.phase, "any"))
            if len(_HAND_PLAYS) >= 5_000:
                _HAND_PLAYS.clear()
            _HAND_PLAYS[key] = got
        for cid, kind in got:
            out.extend(_plays_of(state, r, cid, kind))
    if state.treasures[r]:
        tcards = treasure_cards()
        for cid in sorted(set(state.treasures[r])):
            out.extend(_plays(state, r, cid, tcards[cid].get("power", [])))
    return out


_HAND_PLAYS: dict[tuple[tuple[str, ...], str], tuple[tuple[str, str | None], ...]] = {}
"""``playable``'s Event cards by (hand, step): each card its step lets the realm play, with its removal's target
kind (the card data only)."""


def _plays_of(state: NerathData, realm: int, cid: str, kind: str | None) -> list[Action]:
    if kind is None:
        return [("play", cid)]
    return [("play", cid, space, piece) for space, piece in removal_targets(state, realm, kind)]


def _plays(state: NerathData, realm: int, cid: str, effects: Any) -> list[Action]:
    kind = targeted(effects)
    if kind is None:
        return [("play", cid)]
    return [("play", cid, space, piece) for space, piece in removal_targets(state, realm, kind)]


def instant(state: NerathData, realm: int, verb: str, value: int, piece: str) -> None:
    """Effects that act once: gain_gold N, place_pieces N PIECE (free pieces at the realm's capital,
    if it holds it)."""
    if verb == "gain_gold":
        state.gold[realm] += value
    elif verb in ("remove_piece", "reroll", "cancel_hits", "tax"):
        pass  # they act on a target or on the battle: see play(), play_reaction() and the rules' card windows
    elif verb == "place_pieces":
        cap = CAPITAL[realm]
        if state.ctrl[cap] == realm and piece in TYPE_INDEX:
            add(state, cap, realm, TYPE_INDEX[piece], value)


def apply_card(state: NerathData, realm: int, card: dict[str, Any]) -> None:
    until = "battle" if card.get("when") in WINDOWS else "turn"
    for verb, value, piece in card.get("effects", []):
        if verb in INSTANT:
            instant(state, realm, verb, value, piece)
        else:
            state.effects = [*state.effects, [realm, verb, value, piece, until]]


def window_cards(state: NerathData, realm: int, kind: str = "battle") -> list[str]:
    """Event cards the realm may play at a moment of a battle it fights, attacking or defending ("kept in hand
    until required"): before the battle (``battle``), after its own roll (``roll``), when it takes damage
    (``damage``)."""
    hand = state.hands[realm]
    if not hand:
        return []
    cards = event_cards()
    return sorted({c for c in hand if c in cards and cards[c]["when"] == kind})


def reaction_kind(state: NerathData, realm: int) -> str:
    """The kind of card a realm may play in the open reaction window: at income its own ``income`` cards (the
    collecting realm) or ``enemy_income`` cards (its enemies); in movement ``enemy_move`` cards."""
    react = state.reaction
    assert react is not None
    if react.kind == "income":
        return "income" if realm == react.mover else "enemy_income"
    return "enemy_move"


def reaction_plays(state: NerathData, realm: int) -> list[Action]:
    """The plays a realm has in the open reaction window: ``play CARD`` (a card that removes a piece names its
    target among the moving realm's pieces in the space just entered: ``play CARD SPACE PIECE``)."""
    react = state.reaction
    assert react is not None
    out: list[Action] = []
    for cid in window_cards(state, realm, reaction_kind(state, realm)):
        kind = targeted(event_cards()[cid].get("effects", []))
        if kind is None:
            out.append(("play", cid))
            continue
        s, mover = react.space, react.mover
        base = (s * R + mover) * N_TYPES
        for t in range(N_TYPES):
            if state.pieces[base + t] and (kind == "*" or COUNTED[t] == kind):
                out.append(("play", cid, _space_id(s), COUNTED[t]))
    return out


def _space_id(s: int) -> str:
    return IDS[s]


def play_reaction(state: NerathData, realm: int, action: ActionArgs) -> None:
    """A card played in a reaction window: its effects act for its holder, except ``tax N`` (the realm
    collecting income collects N less, this turn) and ``remove_piece`` (the moving realm's pieces)."""
    react = state.reaction
    assert react is not None
    cid = action[1]
    card = event_cards()[cid]
    state.hands, hand = own_pile(state.hands, realm)
    hand.remove(cid)
    mover = react.mover
    if len(action) == 4:
        remove_piece(state, realm, action[2], action[3], cid, victim=mover)
    apply_card(state, realm, card)
    for verb, value, _piece in card.get("effects", []):
        if verb == "tax":
            state.effects = [*state.effects, [mover, "income_bonus", -value, "*", "turn"]]
    state.discards, discards = own_pile(state.discards, realm)
    discards.append(cid)
    count_play(state, realm)


def battle_cards(state: NerathData, realm: int) -> list[str]:
    return window_cards(state, realm, "battle")


def play(state: NerathData, action: ActionArgs, realm: int | None = None) -> None:
    r = state.realm if realm is None else realm
    cid = action[1]
    if len(action) == 4:
        remove_piece(state, r, action[2], action[3], cid)
    if cid in state.treasures[r]:
        play_treasure(state, r, cid)
        return
    state.hands, hand = own_pile(state.hands, r)
    hand.remove(cid)
    apply_card(state, r, event_cards()[cid])
    state.discards, discards = own_pile(state.discards, r)
    discards.append(cid)
    count_play(state, r)


def count_play(state: NerathData, realm: int) -> None:
    """Report counters: Event cards played, and those played in another seat's turn."""
    st = own_stats(state)
    add_to_counter(st, "events_played")
    if state.seat_of[realm] != state.seat_of[state.realm]:
        add_to_counter(st, "events_out_of_turn")


def remove_piece(state: NerathData, realm: int, space: str, piece: str, cid: str,
                 victim: int | None = None) -> None:
    """remove_piece N P: up to N enemy pieces of kind P in the chosen space leave play (only the ``victim``
    realm's, when the card reacts to that realm's movement)."""
    card = event_cards().get(cid) or treasure_cards()[cid]
    n = sum(v for verb, v, _p in card.get("effects", card.get("power", [])) if verb == "remove_piece")
    s, t = IX[space], TYPE_INDEX[piece]
    for e in range(R):
        if state.team[e] != state.team[realm] and n > 0 and (victim is None or e == victim):
            k = min(n, state.pieces[(s * R + e) * N_TYPES + t])
            state.pieces[(s * R + e) * N_TYPES + t] -= k
            n -= k


def play_treasure(state: NerathData, realm: int, cid: str) -> None:
    """"A Treasure card's Power is a single-use ability that takes place as soon as you play the card. Its
    Property is an ability that is in effect for the rest of the game." / "Whenever you play a Treasure card,
    you immediately score the VP listed on the card."
    """
    card = treasure_cards()[cid]
    state.treasures, held = own_pile(state.treasures, realm)
    held.remove(cid)
    state.treasures_played, played = own_pile(state.treasures_played, realm)
    played.append(cid)
    state.vp[realm] += int(card.get("vp", 0))
    for verb, value, piece in card.get("power", []):
        if verb in INSTANT:
            instant(state, realm, verb, value, piece)
        else:
            state.effects = [*state.effects, [realm, verb, value, piece, "turn", TREASURE]]
    for verb, value, piece in card.get("property", []):
        if verb in INSTANT:
            instant(state, realm, verb, value, piece)
        else:
            state.effects = [*state.effects, [realm, verb, value, piece, "game", TREASURE]]


def _drawing_realm(state: NerathData) -> int:
    return state.dealing[0] if state.phase == "deal" else state.realm


def draw_outcomes(state: NerathData) -> list[tuple[Action, float]]:
    """The Draw step: one card from the realm's deck (the discards reshuffled when it runs out)."""
    r = _drawing_realm(state)
    deck = state.decks[r] or state.discards[r]
    if not deck:
        return []
    counts: dict[str, int] = {}
    for c in deck:
        counts[c] = counts.get(c, 0) + 1
    return [(("draw", c), k / len(deck)) for c, k in sorted(counts.items())]


def resolve_deal(state: NerathData, cid: str) -> None:
    """Set-up: each realm draws 2 Event cards to form its hand, in turn order (the first turn starts when no
    realm is left to deal to)."""
    resolve_draw(state, cid)
    state.dealing.pop(0)
    while state.dealing and not draw_outcomes(state):
        state.dealing.pop(0)


def resolve_draw(state: NerathData, cid: str) -> None:
    r = _drawing_realm(state)
    state.decks, deck = own_pile(state.decks, r)
    if not deck:
        deck[:] = sorted(state.discards[r])
        state.discards, discards = own_pile(state.discards, r)
        discards.clear()
    deck.remove(cid)
    card = event_cards().get(cid)
    if card is not None and card.get("immediate"):
        apply_card(state, r, card)
        state.discards, discards = own_pile(state.discards, r)
        discards.append(cid)
    else:
        state.hands, hand = own_pile(state.hands, r)
        hand.append(cid)


# ------------------------------------------------------------------------------------------ notifications
def on_conquer(state: NerathData, space: int, realm: int, liberated: bool) -> None:
    """Card effects that key on conquering also fire on liberating an ally's space (none yet)."""


def on_retreat(state: NerathData, space: int) -> None:
    """A retreat from a dungeon leaves its Guardians face up (the dungeon issue)."""


def plunder(state: NerathData, space: int) -> None:
    """A won dungeon (notification; the Treasure draw itself is a chance node of the battle)."""
