"""Exact odds in the web app: which legal actions get odds beside them, the seat's odds of one of them (cached
per game, revision, step and action), and the Nerath battle calculator's page data.

**No hidden information.** A seat is given odds only for the dice-driven actions of ``has_odds``, and for those
``Ruleset.action_odds`` reads only what every seat sees (docs/web.md, "Odds"):

* Nerath ``battle X``, ``press``, ``retreat``: the pieces in the space (each allied defender's), the Warships and
  their cargo, the Castle, the battle in progress (round, wounded Dragons, an inactive Castle) and the
  attack-bonus effects in force (cards already played: public records); in a dungeon entrance the face-up
  Guardians with their dice and, for a facedown one, the average over every tile not face up on the board (the
  tile itself and the facedown pile are never read). The Event and Treasure hands and decks, the hidden parts of
  the view, are never read.
* Narby ``steal``/``attack``/``destroy`` and the action that leads into a tribute roll: the dice and the
  modifiers in force; the other dragons' reaction windows on the way are read as "everybody passes", so their
  hands are never consulted. The walk stops after one roll's consequences, before any card is drawn.
* Small World ``final rN``: the reinforcement die and the board.

So the odds of an action are the same in every state that agrees with the seat's view
(tests/web/test_odds_api.py checks it on two states that differ only in a hidden hand).
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from typing import Any

from conquest.core.errors import ConquestError
from conquest.core.game import CHANCE, Action, Ruleset, State
from conquest.core.odds import OddsError

ODDS_SECONDS = 5.0      # the longest a request waits for odds (the computation runs in the odds lane)
MAX_SIDE = 40           # pieces a side in the web calculator (the CLI takes up to 500 of a kind)
CACHE_SIZE = 512
MAX_PENDING = 16        # odds computing or waiting at a time (beyond: 503 at once)


def has_odds(ruleset_id: str, state: State, action: Action) -> bool:
    """Is ``action`` (legal for the seat to move) a decision whose dice the seat may weigh with odds?"""
    verb = action[0] if isinstance(action, tuple) and action else None
    st: Any = state
    if ruleset_id == "nerath":
        if verb == "battle" and st.bt is None and len(action) > 1:
            from conquest.rulesets.nerath.state import IX
            x = IX.get(action[1]) if isinstance(action[1], str) else None
            return x is not None and _calculable(st, x)
        if verb in ("press", "retreat") and st.bt is not None:
            return _calculable(st, st.bt["space"])
        return False
    if ruleset_id == "narby":
        if verb in ("steal", "attack", "destroy"):
            return True
        if verb in ("end", "pass"):   # the tribute roll it leads into
            try:
                nxt: Any = state.apply(action)
                while nxt.to_move not in (None, CHANCE) and getattr(nxt, "node", None) == "react":
                    nxt = nxt.apply(("pass",))
            except ConquestError:
                return False
            return nxt.to_move == CHANCE and getattr(nxt, "phase", None) == "tribute"
        return False
    if ruleset_id == "smallworld":
        return verb == "final"
    return False


def seat_odds(rs: Ruleset, state: State, seat: int, action: Action) -> dict[str, Any]:
    """``rs.action_odds`` of ``action``, a legal dice-driven action of ``seat``, the seat to move; a WebError
    (422, one line) for anything else. Reads only what ``seat`` sees (the module's docstring)."""
    from conquest.web.games import WebError
    if state.to_move != seat:
        raise WebError(409, "odds are given to the seat to move, for its own actions")
    if not state.is_legal(action):
        try:
            state.check(action)
        except ConquestError as e:
            raise WebError(422, str(e).splitlines()[0]) from None
        raise WebError(422, f"'{rs.format_action(action)}' is not a legal action here")
    if not has_odds(rs.id, state, action):
        raise WebError(422, f"'{rs.format_action(action)}' leads into no dice this page weighs (odds are given "
                            f"for battles, steals, attacks, destructions, tribute rolls and final conquests)")
    try:
        return rs.action_odds(state, action)
    except OddsError as e:
        raise WebError(422, str(e).splitlines()[0]) from None


def _calculable(st: Any, x: int) -> bool:
    """Does the Nerath calculator take the battle in space x? Not one without defenders (taken without dice)
    nor an entrance without Guardians (plundered without dice)."""
    from conquest.rulesets.nerath.odds import battle_from_state
    try:
        battle_from_state(st, x)
    except OddsError:
        return False
    return True


class OddsCache:
    """The odds already computed, by (game, revision, step, action): a seat hovering over an action twice, or
    two seats' pages asking for the same battle, compute it once."""

    def __init__(self, size: int = CACHE_SIZE) -> None:
        self.size = size
        self._d: OrderedDict[tuple[Any, ...], dict[str, Any]] = OrderedDict()
        self._lock = threading.Lock()
        self.hits = 0

    def get(self, key: tuple[Any, ...]) -> dict[str, Any] | None:
        with self._lock:
            v = self._d.get(key)
            if v is not None:
                self._d.move_to_end(key)
                self.hits += 1
            return v

    def put(self, key: tuple[Any, ...], value: dict[str, Any]) -> None:
        with self._lock:
            self._d[key] = value
            self._d.move_to_end(key)
            while len(self._d) > self.size:
                self._d.popitem(last=False)


def calculator_info() -> dict[str, Any]:
    """What the calculator page offers: every Nerath piece kind (id, name, cost, die), the attack-bonus cards it
    accepts, the Dungeon Guardian tiles (id, name, dice, abilities, Reward) and the Heroes who may fight them."""
    from conquest.rulesets.nerath import data as nd
    from conquest.rulesets.nerath.cards import event_cards, treasure_cards
    from conquest.rulesets.nerath.odds import card_bonuses
    tb = nd.tables()
    pieces = []
    for p in nd.PIECE_NAMES:
        row = tb.pieces[p]
        pieces.append({"id": p, "name": row.name, "cost": getattr(row, "cost", None),
                       "die": getattr(row, "die", None)})
    cards = []
    for kind, deck in (("event", event_cards()), ("treasure", treasure_cards())):
        for cid, c in sorted(deck.items()):
            try:
                bonus = card_bonuses([cid], "card")   # the calculator's own test of a simple modifier
            except OddsError:
                continue
            cards.append({"id": cid, "name": c.get("name", cid), "kind": kind,
                          "bonus": [{"piece": p, "value": v} for p, v in bonus.items()]})
    guardians = [{"id": g.id, "name": g.name, "dice": list(g.dice), "first_strike": g.first_strike,
                  "heroes_need": g.heroes_need or None, "reward": g.reward}
                 for g in nd.guardian_tiles().values()]
    return {"pieces": pieces, "cards": cards, "max_side": MAX_SIDE, "orders": ["cheapest", "listed"],
            "guardians": guardians, "heroes": [nd.COUNTED[h] for h in nd.HEROES]}
