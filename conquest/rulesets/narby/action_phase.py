"""Action Phase (rules document 001, section "Action Phase"): "Each turn a Dragon has 3 actions, starting with
the dragon with the lowest total coins, in case of a tie, dragon with the most remaining claim rings then
proceeds clockwise". The turn order, the choices at node act (the Actions table's actions, then the cards and
the places of power that add to them: ``actions``, ``cards``, ``places``), a declared claim, destroy, steal
or attack and the other dragons' answers to it (node react), and the rolls that resolve it on the Charts
(``charts``). After the last turn, the Tribute Phase (``tribute.start_tribute``). Readings R13, R31, R32 in
docs/rules/narby.md.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from conquest.rulesets.narby.actions import action_choices, action_refusal, attack, claim, take_action
from conquest.rulesets.narby.base import BABA, PIDX
from conquest.rulesets.narby.cards import answer_with_card, card_answers, card_plays, card_refusal, play_card
from conquest.rulesets.narby.charts import destroy, steal
from conquest.rulesets.narby.places import answer_with_power, power_answers, power_refusal, power_uses, use_power
from conquest.rulesets.narby.state import NarbyData
from conquest.rulesets.narby.tables import TABLES as T
from conquest.rulesets.narby.tribute import start_tribute

ACTION_KINDS = frozenset(("move", "claim", "claim2", "destroy", "steal", "attack", "abandon"))


# ==================================================================== the turns
def start_action_phase(s: NarbyData) -> None:
    """"starting with the dragon with the lowest total coins, in case of a tie, dragon with the most
    remaining claim rings then proceeds clockwise" (clockwise = increasing seat number)."""
    s.phase = "action"
    first = s.lowest_coin_seat()
    n = s.players
    s.order = [(first + i) % n for i in range(n)]
    s.turn = 0
    start_turn(s)


def start_turn(s: NarbyData) -> None:
    if s.options["baba_yaga_uses"] == "turn":
        s.used &= ~(1 << PIDX[BABA])  # "Moves 3 spaces each turn" (reading R34)
    s.acts = T.actions_per_turn
    s.bonus = [0, 0, 0, 0]
    s.node, s.who = "act", s.order[s.turn]
    s.ev = None


def back_to_act(s: NarbyData) -> None:
    """The dragon whose turn it is decides again; with no action left and nothing else to do its turn ends."""
    s.node, s.who = "act", s.order[s.turn]
    s.ev = None
    if s.acts <= 0 and len(act_actions(s)) == 1 and s.hand[s.who] is None:
        end_turn(s)  # a dragon holding a card decides to end (whether the card could still be played is secret)


def end_turn(s: NarbyData) -> None:
    s.turn += 1
    if s.turn < s.players:
        start_turn(s)
    else:
        start_tribute(s)


# ==================================================================== node act
def act_actions(s: NarbyData) -> list[Any]:
    """The choices at node act, in the order players read them (the CLI numbers them): end, then claims of
    settlements and places, steals, attacks, destroys, cards, powers, moves, abandons, and last the claims of
    blank squares, which earn nothing at tribute."""
    seat = s.who
    first, moves, last, can_attack, can_steal, can_destroy = action_choices(s, seat)
    if s.options["modifiers"] == "any_time":   # the bonus waits for the roll (reading R26)
        can_attack = can_steal = can_destroy = True
    out: list[Any] = [("end",)]
    out += first
    out += card_plays(s, seat, can_attack, can_steal, can_destroy)
    out += power_uses(s, seat, can_attack, can_steal)
    out += moves
    out += last
    return out


def _end(s: NarbyData, seat: int, action: Any) -> None:
    end_turn(s)


def _take(s: NarbyData, seat: int, action: Any) -> None:
    """One of the Actions table's actions; a claim, destroy, steal or attack is declared first (node react)."""
    ev = take_action(s, seat, action)
    if ev is None:
        back_to_act(s)
    else:
        declare(s, ev)


def _play(s: NarbyData, seat: int, action: Any) -> None:
    play_card(s, seat, action)
    if s.node != "place":
        back_to_act(s)


def _power(s: NarbyData, seat: int, action: Any) -> None:
    use_power(s, seat, action)
    if s.node != "place":
        back_to_act(s)


# node act: verb -> what it does
ACT: dict[str, Callable[[NarbyData, int, Any], None]] = {
    "end": _end, "play": _play, "power": _power, **dict.fromkeys(ACTION_KINDS, _take),
}


def act(s: NarbyData, action: Any) -> None:
    ACT[action[0]](s, s.who, action)


def act_refusal(s: NarbyData, action: Any) -> str:
    """The rule that refuses ``action`` at node act, named for this very case (not the action's whole
    row): the message a player reads when the engine says no ("" when no rule says more)."""
    kind = action[0]
    try:
        if kind == "play":
            return card_refusal(s, action[1])
        if kind == "power":
            return power_refusal(s, action[1])
        return action_refusal(s, action)
    except (KeyError, IndexError, TypeError, ValueError):
        return ""


# ==================================================================== a declared action and the answers to it
def declare(s: NarbyData, ev: dict[str, Any]) -> None:
    """The other dragons, clockwise from the actor, may answer the declared action with a card or a power
    before it is resolved (node react, one seat at a time)."""
    s.ev = ev
    n = s.players
    a = ev["actor"]
    queue = []
    for i in range(1, n):
        t = (a + i) % n
        if asked(s, t):
            queue.append(t)
    ev["queue"] = tuple(queue)
    next_answer(s)


def answers(s: NarbyData, t: int) -> list[Any]:
    """What seat ``t`` may play against the declared action in ``s.ev`` (besides ``pass``)."""
    ev = s.ev
    assert ev is not None
    if t == ev["actor"]:
        return []
    return card_answers(s, t, ev) + power_answers(s, t, ev)


def asked(s: NarbyData, t: int) -> bool:
    """Whether seat ``t`` is asked to answer the declared action: when it holds any card (hands are secret: a
    seat holding a card that cannot answer is asked too, and passes) or controls a place of power that can
    answer (places are public)."""
    ev = s.ev
    assert ev is not None
    if t == ev["actor"]:
        return False
    return s.hand[t] is not None or bool(answers(s, t))


def next_answer(s: NarbyData) -> None:
    ev = s.ev
    assert ev is not None
    q = ev["queue"]
    while q:
        if asked(s, q[0]):
            s.node, s.who = "react", q[0]
            return
        q = q[1:]
        ev["queue"] = q
    resolve_declared(s)


def react(s: NarbyData, action: Any) -> None:
    """Node react: ``pass``, or a card or a power against the declared action."""
    ev = s.ev
    assert ev is not None
    kind = action[0]
    if kind == "pass":
        ev["queue"] = ev["queue"][1:]
        next_answer(s)
        return
    if kind == "play":
        goes_on = answer_with_card(s, s.who, action)
    else:
        goes_on = answer_with_power(s, action[1])
    if goes_on:
        next_answer(s)
    elif s.node != "place":
        back_to_act(s)  # the action is prevented


def resolve_declared(s: NarbyData) -> None:
    ev = s.ev
    assert ev is not None
    if ev["type"] == "claim":
        claim(s, ev["actor"], ev["targets"])
        back_to_act(s)
    else:
        s.node, s.who = "roll", -1


def resolve_roll(s: NarbyData, action: Any) -> None:
    """The d20 of a declared attack (two: the attacker's, then the defender's), steal or destroy."""
    r = action[1]
    ev = s.ev
    assert ev is not None
    typ = ev["type"]
    if typ == "attack":
        if "first" not in ev:
            ev["first"] = r
            return
        attack(s, ev["actor"], ev["defender"], ev["first"] + ev["mod"], r)
        back_to_act(s)
    elif typ == "steal":
        steal(s, ev["actor"], ev["from"], r + ev["mod"])
        back_to_act(s)
    else:  # destroy
        tokens = destroy(s, ev["actor"], ev["target"], r + ev["mod"])
        if tokens:
            s.node = "token"
            s.ev = {"type": "token", "seat": ev["actor"], "left": tokens, "then": "act"}
        else:
            back_to_act(s)
