"""Card effects and the hooks the rules call (the Event and Treasure card issue fills in the content).

The rules ask this module: a realm's bonus to attack rolls (``attack_bonus``), to Move (``move_bonus``), to
income (``income_bonus``); which cards the seat to move may play now (``playable``) and what playing one does
(``play``); the Draw step's chance outcomes (``draw_outcomes``, ``resolve_draw``); and it is told of
conquests/liberations (``on_conquer``), retreats (``on_retreat``) and plundered dungeons (``plunder``).

Active effects are records ``[realm, verb, value, piece, until]`` in ``state.effects`` (until: ``turn`` or
``game``); ``expire`` drops the finished ones at the start of each turn.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

import yaml

from conquest.rulesets.nerath.data import COUNTED, REALMS, DataError

if TYPE_CHECKING:  # pragma: no cover
    from conquest.rulesets.nerath.rules import NerathState

VERBS = ("gain_gold", "attack_bonus", "move_bonus", "income_bonus", "vp", "place_pieces", "remove_piece",
         "reroll", "cancel_hits", "tax")
INSTANT = ("gain_gold", "vp", "place_pieces", "remove_piece", "reroll", "cancel_hits", "tax")
WHEN = ("move", "fight", "reinforce", "any", "battle", "roll", "damage", "income", "enemy_move", "enemy_income")
WINDOWS = ("battle", "roll", "damage")   # moments inside a battle, in anyone's turn
REACTIONS = ("income", "enemy_move", "enemy_income")   # moments outside battles, offered as card windows


@lru_cache(maxsize=1)
def event_cards() -> dict[str, dict[str, Any]]:
    data = yaml.safe_load((Path(__file__).parent / "events.yaml").read_text())
    out: dict[str, dict[str, Any]] = {}
    for realm, cards in data.get("cards", {}).items():
        if realm not in REALMS:
            raise DataError(f"events.yaml: unknown realm {realm}")
        for c in cards:
            cid = c.get("id")
            if not isinstance(cid, str) or cid in out:
                raise DataError(f"events.yaml: card ids must be unique strings ({cid!r})")
            if c.get("when") not in WHEN:
                raise DataError(f"events.yaml: {cid}: when must be one of {', '.join(WHEN)}")
            check_effects(f"events.yaml: {cid}", c.get("effects", []))
            verbs = {e[0] for e in c.get("effects", [])}
            if "reroll" in verbs and c["when"] != "roll" or "cancel_hits" in verbs and c["when"] != "damage":
                raise DataError(f"events.yaml: {cid}: reroll is a 'roll' card, cancel_hits a 'damage' card")
            if targeted(c.get("effects", [])) and (c.get("immediate") or c["when"] in WINDOWS + (
                    "income", "enemy_income")):
                raise DataError(f"events.yaml: {cid}: a card that removes a piece is played by choice, on its "
                                f"realm's turn or when an enemy moves in (not immediate, not a battle card)")
            if "tax" in verbs and c["when"] != "enemy_income":
                raise DataError(f"events.yaml: {cid}: tax is an 'enemy_income' card")
            if c["when"] in REACTIONS and c.get("immediate"):
                raise DataError(f"events.yaml: {cid}: a card kept for a moment is not Play Immediately")
            out[cid] = {**c, "realm": realm}
    return out


def targeted(effects: Any) -> str | None:
    """The piece kind a card's remove_piece effect targets (or None)."""
    for verb, _value, piece in effects:
        if verb == "remove_piece":
            return str(piece)
    return None


def removal_targets(state: "NerathState", realm: int, piece: str) -> list[tuple[str, str]]:
    """(space, piece) of every enemy piece a removal card may target: pieces only — never a Castle, and never
    a Dungeon Guardian ("Dungeon Guardians do not count as pieces")."""
    from conquest.rulesets.nerath.data import COUNTED, R, T
    from conquest.rulesets.nerath.rules import IDS, S
    out = []
    for s in range(S):
        for e in range(R):
            if state.team[e] == state.team[realm]:
                continue
            base = (s * R + e) * T
            for t in range(T):
                if state.n[base + t] and (piece == "*" or COUNTED[t] == piece):
                    out.append((IDS[s], COUNTED[t]))
    return sorted(set(out))


def check_effects(where: str, effects: Any) -> None:
    for e in effects:
        if len(e) != 3 or e[0] not in VERBS or not isinstance(e[1], int) or \
                (e[2] != "*" and e[2] not in COUNTED + ("warship", "castle")):
            raise DataError(f"{where}: effect {e!r} is not [verb, N, piece-or-*]")


def setup_decks(state: "NerathState") -> None:
    if state.options.get("events") != "decks":
        return
    for cid, c in event_cards().items():
        state.decks[REALMS.index(c["realm"])].append(cid)
    for d in state.decks:
        d.sort()


# ------------------------------------------------------------------------------------------ modifiers
def _sum(state: "NerathState", realm: int, verb: str, piece: str) -> int:
    total = 0
    for e in state.effects:
        if e[0] == realm and e[1] == verb and (e[3] == "*" or e[3] == piece):
            total += e[2]
    return total


def attack_bonus(state: "NerathState", realm: int, t: int, side: str) -> int:
    """Bonus to attack rolls (a hit needs 6 - bonus or higher). ``t`` -1 is a Warship, -2 a Castle."""
    if not state.effects:
        return 0
    name = COUNTED[t] if t >= 0 else ("warship" if t == -1 else "castle")
    return _sum(state, realm, "attack_bonus", name)


def move_bonus(state: "NerathState", realm: int, t: int) -> int:
    if not state.effects:
        return 0
    return _sum(state, realm, "move_bonus", COUNTED[t] if t >= 0 else "warship")


def income_bonus(state: "NerathState", realm: int) -> int:
    if not state.effects:
        return 0
    return _sum(state, realm, "income_bonus", "*")


def expire(state: "NerathState", until: str) -> None:
    if state.effects:
        state.effects = [e for e in state.effects if e[4] != until]


# ------------------------------------------------------------------------------------------ cards
def playable(state: "NerathState") -> list[tuple]:
    """Cards the realm whose turn it is may play now (outside battles' inner decisions): Event cards in the
    step their ``when`` names, Treasure cards at any of these times."""
    r = state.realm
    hand = state.hands[r]
    out = []
    if hand:
        cards = event_cards()
        for cid in sorted(set(hand)):
            c = cards.get(cid)
            if c is not None and c["when"] in (state.phase, "any"):
                out.extend(_plays(state, r, cid, c.get("effects", [])))
    if state.treasures[r]:
        from conquest.rulesets.nerath.dungeons import treasure_cards
        tcards = treasure_cards()
        for cid in sorted(set(state.treasures[r])):
            out.extend(_plays(state, r, cid, tcards[cid].get("power", [])))
    return out


def _plays(state: "NerathState", realm: int, cid: str, effects: Any) -> list[tuple]:
    kind = targeted(effects)
    if kind is None:
        return [("play", cid)]
    return [("play", cid, space, piece) for space, piece in removal_targets(state, realm, kind)]


def instant(state: "NerathState", realm: int, verb: str, value: int, piece: str) -> None:
    """Effects that act once: gain_gold N, vp N, place_pieces N PIECE (free pieces at the realm's capital,
    if it holds it)."""
    if verb == "gain_gold":
        state.gold[realm] += value
    elif verb == "vp":
        state.vp[realm] += value
    elif verb in ("remove_piece", "reroll", "cancel_hits", "tax"):
        pass  # they act on a target or on the battle: see play(), play_reaction() and the rules' card windows
    elif verb == "place_pieces":
        from conquest.rulesets.nerath.data import TYPE_INDEX
        from conquest.rulesets.nerath.rules import CAPITAL
        cap = CAPITAL[realm]
        if state.ctrl[cap] == realm and piece in TYPE_INDEX:
            state.add(cap, realm, TYPE_INDEX[piece], value)


def apply_card(state: "NerathState", realm: int, card: dict[str, Any]) -> None:
    until = "battle" if card.get("when") in WINDOWS else "turn"
    for verb, value, piece in card.get("effects", []):
        if verb in INSTANT:
            instant(state, realm, verb, value, piece)
        else:
            state.effects.append([realm, verb, value, piece, until])


def window_cards(state: "NerathState", realm: int, kind: str = "battle") -> list[str]:
    """Event cards the realm may play at a moment of a battle it fights, attacking or defending ("kept in hand
    until required"): before the battle (``battle``), after its own roll (``roll``), when it takes damage
    (``damage``)."""
    hand = state.hands[realm]
    if not hand:
        return []
    cards = event_cards()
    return sorted({c for c in hand if c in cards and cards[c]["when"] == kind})


def reaction_kind(state: "NerathState", realm: int) -> str:
    """The kind of card a realm may play in the open reaction window: at income its own ``income`` cards (the
    collecting realm) or ``enemy_income`` cards (its enemies); in movement ``enemy_move`` cards."""
    react = state.react
    assert react is not None
    if react["kind"] == "income":
        return "income" if realm == react["mover"] else "enemy_income"
    return "enemy_move"


def reaction_plays(state: "NerathState", realm: int) -> list[tuple]:
    """The plays a realm has in the open reaction window: ``play CARD`` (a card that removes a piece names its
    target among the moving realm's pieces in the space just entered: ``play CARD SPACE PIECE``)."""
    react = state.react
    assert react is not None
    out: list[tuple] = []
    for cid in window_cards(state, realm, reaction_kind(state, realm)):
        kind = targeted(event_cards()[cid].get("effects", []))
        if kind is None:
            out.append(("play", cid))
            continue
        from conquest.rulesets.nerath.data import R, T
        s, mover = react["space"], react["mover"]
        base = (s * R + mover) * T
        for t in range(T):
            if state.n[base + t] and (kind == "*" or COUNTED[t] == kind):
                out.append(("play", cid, _space_id(s), COUNTED[t]))
    return out


def _space_id(s: int) -> str:
    from conquest.rulesets.nerath.rules import IDS
    return IDS[s]


def play_reaction(state: "NerathState", realm: int, action: tuple) -> None:
    """A card played in a reaction window: its effects act for its holder, except ``tax N`` (the realm
    collecting income collects N less, this turn) and ``remove_piece`` (the moving realm's pieces)."""
    react = state.react
    assert react is not None
    cid = action[1]
    card = event_cards()[cid]
    state.hands[realm].remove(cid)
    mover = react["mover"]
    if len(action) == 4:
        remove_piece(state, realm, action[2], action[3], cid, victim=mover)
    apply_card(state, realm, card)
    for verb, value, _piece in card.get("effects", []):
        if verb == "tax":
            state.effects.append([mover, "income_bonus", -value, "*", "turn"])
    state.discards[realm].append(cid)
    count_play(state, realm)


def battle_cards(state: "NerathState", realm: int) -> list[str]:
    return window_cards(state, realm, "battle")


def play(state: "NerathState", action: tuple, realm: int | None = None) -> None:
    r = state.realm if realm is None else realm
    cid = action[1]
    if len(action) == 4:
        remove_piece(state, r, action[2], action[3], cid)
    if cid in state.treasures[r]:
        play_treasure(state, r, cid)
        return
    state.hands[r].remove(cid)
    apply_card(state, r, event_cards()[cid])
    state.discards[r].append(cid)
    count_play(state, r)


def count_play(state: "NerathState", realm: int) -> None:
    """Report counters: Event cards played, and those played in another seat's turn."""
    st = state.stats
    st["events_played"] = st.get("events_played", 0) + 1
    if state.seat_of[realm] != state.seat_of[state.realm]:
        st["events_out_of_turn"] = st.get("events_out_of_turn", 0) + 1


def remove_piece(state: "NerathState", realm: int, space: str, piece: str, cid: str,
                 victim: int | None = None) -> None:
    """remove_piece N P: up to N enemy pieces of kind P in the chosen space leave play (only the ``victim``
    realm's, when the card reacts to that realm's movement)."""
    from conquest.rulesets.nerath.data import R, T, TYPE_INDEX
    from conquest.rulesets.nerath.dungeons import treasure_cards
    from conquest.rulesets.nerath.rules import IX
    card = event_cards().get(cid) or treasure_cards()[cid]
    n = sum(v for verb, v, _p in card.get("effects", card.get("power", [])) if verb == "remove_piece")
    s, t = IX[space], TYPE_INDEX[piece]
    for e in range(R):
        if state.team[e] != state.team[realm] and n > 0 and (victim is None or e == victim):
            k = min(n, state.n[(s * R + e) * T + t])
            state.n[(s * R + e) * T + t] -= k
            n -= k


def play_treasure(state: "NerathState", realm: int, cid: str) -> None:
    """"A Treasure card's Power is a single-use ability that takes place as soon as you play the card. Its
    Property is an ability that is in effect for the rest of the game." / "Whenever you play a Treasure card,
    you immediately score the VP listed on the card."
    """
    from conquest.rulesets.nerath.dungeons import treasure_cards
    card = treasure_cards()[cid]
    state.treasures[realm].remove(cid)
    state.treasures_played[realm].append(cid)
    state.vp[realm] += int(card.get("vp", 0))
    for verb, value, piece in card.get("power", []):
        if verb in INSTANT:
            instant(state, realm, verb, value, piece)
        else:
            state.effects.append([realm, verb, value, piece, "turn"])
    for verb, value, piece in card.get("property", []):
        if verb in INSTANT:
            instant(state, realm, verb, value, piece)
        else:
            state.effects.append([realm, verb, value, piece, "game"])


def _drawing_realm(state: "NerathState") -> int:
    return state.dealing[0] if state.phase == "deal" else state.realm


def draw_outcomes(state: "NerathState") -> list[tuple[tuple, float]]:
    """The Draw step: one card from the realm's deck (the discards reshuffled when it runs out)."""
    r = _drawing_realm(state)
    deck = state.decks[r] or state.discards[r]
    if not deck:
        return []
    counts: dict[str, int] = {}
    for c in deck:
        counts[c] = counts.get(c, 0) + 1
    return [(("draw", c), k / len(deck)) for c, k in sorted(counts.items())]


def resolve_deal(state: "NerathState", cid: str) -> None:
    """Set-up: each realm draws 2 Event cards to form its hand, in turn order."""
    resolve_draw(state, cid)
    state.dealing.pop(0)
    while state.dealing and not draw_outcomes(state):
        state.dealing.pop(0)
    if not state.dealing:
        state.start_turn()


def resolve_draw(state: "NerathState", cid: str) -> None:
    r = _drawing_realm(state)
    if not state.decks[r]:
        state.decks[r] = sorted(state.discards[r])
        state.discards[r] = []
    state.decks[r].remove(cid)
    card = event_cards().get(cid)
    if card is not None and card.get("immediate"):
        apply_card(state, r, card)
        state.discards[r].append(cid)
    else:
        state.hands[r].append(cid)


# ------------------------------------------------------------------------------------------ notifications
def on_conquer(state: "NerathState", space: int, realm: int, liberated: bool) -> None:
    """Card effects that key on conquering also fire on liberating an ally's space (none yet)."""


def on_retreat(state: "NerathState", space: int) -> None:
    """A retreat from a dungeon leaves its Guardians face up (the dungeon issue)."""


def plunder(state: "NerathState", space: int) -> None:
    """A won dungeon (notification; the Treasure draw itself is a chance node of the battle)."""
