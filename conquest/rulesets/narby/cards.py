"""Cards (rules document 001, section "Cards": "Possible Cards, discarded after use"): when each bonus card
may be played and what it does. Own-turn cards at node act (Speedster, Fighter, Sneaker, Destroyer, Jumper,
Robber, Horror, Confuser, Vigor), answers to another dragon's declared action (Guardian, Peacemaker, Defender,
Inciter, Leader), the Pro-creator on a settlement's dice and the tribute cards (Governor, Sheriff, Mayor).
Dealing them is the Draw Phase (``draw``). Readings R26, R29 in docs/rules/narby.md.
"""

from __future__ import annotations

from typing import Any

from conquest.rulesets.narby import board as B
from conquest.rulesets.narby.base import RUIN, TOWN
from conquest.rulesets.narby.state import NarbyData, ask_place, discard
from conquest.rulesets.narby.tables import TABLES as T
from conquest.rulesets.narby.variant import tables_of

TRIBUTE_CARDS = ("governor", "sheriff", "mayor")


# ==================================================================== own turn (node act, no action spent)
def card_plays(s: NarbyData, seat: int, can_attack: bool, can_steal: bool, can_destroy: bool) -> list[Any]:
    """The ``play`` actions of ``seat`` at node act; ``can_attack`` / ``can_steal`` / ``can_destroy``: that
    action is open to the dragon now (a target in reach)."""
    card = s.hand[seat]
    out: list[Any] = []
    if card is None:
        return out
    acts = s.acts
    if card == "vigor":
        out.append(("play", "vigor"))
    elif card == "speedster":
        if acts >= 1 and not s.bonus[0]:
            out.append(("play", "speedster"))
    elif card == "fighter":
        if acts >= 1 and can_attack:
            out.append(("play", "fighter"))
    elif card == "sneaker":
        if acts >= 1 and can_steal:
            out.append(("play", "sneaker"))
    elif card == "destroyer":
        if acts >= 1 and can_destroy:
            out.append(("play", "destroyer"))
    elif card == "jumper":
        if s.place_options_for("dragon", seat, "claims", 0):
            out.append(("play", "jumper"))
    elif card == "robber":
        for t in range(s.players):
            if t != seat:
                out.append(("play", "robber", s.dragon_id(t)))
    elif card == "horror":
        for t in range(s.players):
            if s.place_options_for("dragon", t, "home", 0):
                out.append(("play", "horror", s.dragon_id(t)))
    elif card == "confuser":
        for t in range(s.players):
            if t != seat and s.place_options_for("dragon", t, "near", 3):
                out.append(("play", "confuser", s.dragon_id(t)))
    return out


def play_card(s: NarbyData, seat: int, action: Any) -> None:
    """An own-turn card; the cards that move a dragon leave the placement to ``seat`` (node place)."""
    card = action[1]
    discard(s, seat, card)
    if card == "vigor":
        s.acts += 1
    elif card == "speedster":
        s.bonus[0] = 1
    elif card == "fighter":
        s.bonus[1] += 2
    elif card == "sneaker":
        s.bonus[2] += 2
    elif card == "destroyer":
        s.bonus[3] += 2
    elif card == "robber":
        t = s.seat_of(action[2])
        loss = min(tables_of(s).robber_loss, s.coins[t])
        s.coins[t] -= loss
        s.chest_coins += loss
    elif card == "jumper":
        ask_place(s, seat, "dragon", seat, "claims", 0)
    elif card == "horror":
        ask_place(s, seat, "dragon", s.seat_of(action[2]), "home", 0)
    elif card == "confuser":
        ask_place(s, seat, "dragon", s.seat_of(action[2]), "near", 3)


# ==================================================================== answers to a declared action (node react)
def card_answers(s: NarbyData, t: int, ev: dict[str, Any]) -> list[Any]:
    """The cards seat ``t`` may play against the declared action ``ev`` of another dragon."""
    out: list[Any] = []
    card = s.hand[t]
    typ = ev["type"]
    if typ == "attack":
        d = ev["defender"]
        if card == "defender" and t == d:
            out.append(("play", "defender"))
        if card == "peacemaker":
            for x in (ev["actor"], d):
                if s.place_options_for("dragon", x, "home", 0):
                    out.append(("play", "peacemaker", s.dragon_id(x)))
    elif typ == "steal":
        if card == "guardian" and ev["from"] != "chest":
            out.append(("play", "guardian"))
    elif typ == "destroy":
        key = ev["target"]
        if card == "inciter" and key in s.claims and isinstance(key, int):
            out.append(("play", "inciter"))
    elif typ == "claim":
        if card == "leader":
            for key in ev["targets"]:
                if isinstance(key, int) and TOWN <= s.occ[key] <= RUIN:
                    out.append(("play", "leader", key))
    return out


def answer_with_card(s: NarbyData, t: int, action: Any) -> bool:
    """Seat ``t`` plays a card against the declared action; returns whether that action goes on. Defender
    ("-2 on attackers roll") and Inciter ("-2 on dragon opponent's destroy roll") change its roll; Leader
    ("Prevent on settlement from being claimed") drops one target; Guardian ("Prevent a thief from stealing
    from a dragon") prevents it; Peacemaker ("Before attack, Place dragon adjacent to its home cave") asks
    ``t`` where the dragon goes (node place) and the attack does not happen."""
    card = action[1]
    discard(s, t, card)
    ev = s.ev
    assert ev is not None
    if card == "defender" or card == "inciter":
        ev["mod"] -= 2
        return True
    if card == "leader":
        ev["targets"] = tuple(k for k in ev["targets"] if k != action[2])
        return bool(ev["targets"])
    if card == "peacemaker":
        ask_place(s, t, "dragon", s.seat_of(action[2]), "home", 0)
    return False


# ==================================================================== Pro-creator (node procreator)
def procreator_choices(s: NarbyData) -> list[Any]:
    """"+/- 2 on one of the dice rolled for settlement placement", staying on the board, or ``pass`` (the only
    choice of a seat that holds another card: the window is offered to every seat holding a card)."""
    out: list[Any] = [("pass",)]
    if s.hand[s.who] != "procreator":
        return out
    for axis, v in (("x", s.die), ("y", s.die2)):
        for d in (2, -2):
            if 1 <= v + d <= B.N:
                out.append(("play", "procreator", f"{axis}{d:+d}"))
    return out


def play_procreator(s: NarbyData, action: Any) -> None:
    discard(s, s.who, "procreator")
    axis, d = action[2][0], int(action[2][1:])
    if axis == "x":
        s.die += d
    else:
        s.die2 += d


# ==================================================================== tribute cards (node tribute_card)
def tribute_card_choices(s: NarbyData) -> list[Any]:
    """``pass``, and the card when it is a Governor, Sheriff or Mayor (every tributing seat holding a card is
    asked, so the question does not tell which card it holds)."""
    card = s.hand[s.who]
    return [("pass",), ("play", card)] if card in ("governor", "sheriff", "mayor") else [("pass",)]


def play_tribute_card(s: NarbyData, card: str) -> None:
    """Governor "+2 on tribute dice", Sheriff "+1 coin from all towns", Mayor "+1 coin from all cities"."""
    discard(s, s.who, card)
    ev = s.ev
    assert ev is not None
    if card == "governor":
        ev["mod"] += 2
    elif card == "sheriff":
        ev["town"] += 1
    else:
        ev["city"] += 1


# ==================================================================== refusals
def card_refusal(s: NarbyData, card: str) -> str:
    """Why ``play ID`` is refused now."""
    seat = s.who
    if s.hand[seat] != card:
        held = s.hand[seat]
        return (f"the {T.cards[T.card_ids.index(card)].name} card is not in your hand"
                + (f" (you hold the {T.cards[T.card_ids.index(held)].name})" if held else " (you hold no card)"))
    reach = s.options["modifiers"] == "in_reach"
    why = {
        "speedster": "before a Move, with an action left, once",
        "fighter": "before an attack: " + ("a dragon must be adjacent and " if reach else "") + "an action left",
        "sneaker": "before a steal: " + ("a cave or the chest must be in reach and " if reach else "")
                   + "an action left",
        "destroyer": "before a destroy: " + ("a target must be in reach and " if reach else "") + "an action left",
        "jumper": "when there is a free 2x2 place adjacent to one of your claims",
        "robber": "naming an opponent",
        "horror": "naming a dragon that has a free 2x2 place beside its cave",
        "confuser": "naming an opponent that has a free place within 3 spaces",
        "guardian": "when another dragon declares a steal from a cave",
        "peacemaker": "when a dragon declares an attack",
        "defender": "when you are attacked",
        "inciter": "when another dragon declares a destroy on a claimed settlement",
        "leader": "when another dragon declares a claim on a settlement",
        "procreator": "after the two dice of a settlement are rolled",
        "governor": "before your tribute roll",
        "sheriff": "before your tribute roll",
        "mayor": "before your tribute roll",
    }.get(card, "")
    return f"the {T.cards[T.card_ids.index(card)].name} card is played {why}, not like this now"
