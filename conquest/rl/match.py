"""One game seen as a sequence of token decisions: what the PettingZoo and Gymnasium environments share.

The engine state, the seeded generator that resolves chance, the decision under way (legal actions and the tokens
chosen so far), and the observation of each seat (its ``view``, written by the ruleset's encoding, then the
decision's tokens when the seat is the one deciding)."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import numpy as np

from conquest.core.chance import sample_chance
from conquest.core.encoding import Encoding
from conquest.core.errors import ConquestError
from conquest.core.game import CHANCE, State
from conquest.core.registry import get_ruleset
from conquest.core.view_encoding import ViewEncoding
from conquest.rl.codec import ActionCodec, Decision, _describe, as_token, codec_for

MAX_PREFIX = 8
"""The observation counts the tokens chosen in the current decision up to this many."""

EncodingChoice = None | str | Callable[[int, dict[str, Any]], Encoding]
"""Which encoding an environment uses: ``None`` (or ``"ruleset"``), the ruleset's (``Ruleset.rl_encoding``: its
own, or the generic one for a game without); ``"view"``, the generic one built from the view even for a game
that has its own (conquest/core/view_encoding.py); or a callable ``(players, options) -> Encoding``."""


def encoding_for(ruleset: str, players: int, options: dict[str, Any], choice: EncodingChoice = None) -> Encoding:
    """The encoding of ``ruleset`` for ``players`` and the resolved ``options`` (see ``EncodingChoice``)."""
    rs = get_ruleset(ruleset)
    if choice is None or choice == "ruleset":
        return rs.rl_encoding(players, options)
    if choice == "view":
        return ViewEncoding.for_ruleset(rs, players, options)
    if callable(choice):
        enc = choice(players, options)
        if not isinstance(enc, Encoding):
            raise ConquestError(f"the encoding given for {rs.id} made {type(enc).__name__}, not an Encoding")
        return enc
    raise ConquestError(f"encoding must be 'ruleset', 'view' or a callable (players, options) -> Encoding, "
                        f"not {choice!r}")


class IllegalToken(ValueError):
    """A token outside the action mask (the game is left as it was)."""


SEED_MAX = 2 ** 63 - 1
"""The largest seed ``reset`` takes (seeds are 0..2^63-1, as the command line's non-negative ones)."""


def as_seed(seed: Any) -> int | None:
    """A ``reset`` seed as an int: ``None``, or a whole number from 0 to ``SEED_MAX`` (int, numpy integer, 0-d
    integer array); ``ValueError`` otherwise (strings, floats, NaN, negative or larger numbers)."""
    if seed is None:
        return None
    try:
        value = as_token(seed)
    except ValueError:
        raise ValueError(f"seed must be None or a whole number from 0 to 2^63-1, not {_describe(seed)}") from None
    if not 0 <= value <= SEED_MAX:
        shown = str(value) if abs(value) < 10 ** 30 else f"a number of {len(str(abs(value)))} digits"
        raise ValueError(f"seed must be a whole number from 0 to 2^63-1, not {shown}")
    return value


def _check_settings(max_decisions: Any, shaped_reward: Any) -> tuple[int | None, float]:
    """``max_decisions``: None or a whole number of at least 1; ``shaped_reward``: a finite real number."""
    if max_decisions is not None:
        try:
            max_decisions = as_token(max_decisions)
        except ValueError:
            raise ValueError(f"max_decisions must be None or a whole number of at least 1, not "
                             f"{_describe(max_decisions)}") from None
        if max_decisions < 1:
            raise ValueError(f"max_decisions must be None or a whole number of at least 1, not {max_decisions}")
    value = float("nan")
    if isinstance(shaped_reward, (int, float, np.integer, np.floating)) and not isinstance(shaped_reward, bool):
        try:
            value = float(shaped_reward)
        except OverflowError:  # an int past float's range
            pass
    if not np.isfinite(value):
        raise ValueError(f"shaped_reward must be a finite number, not {_describe(shaped_reward)}")
    return max_decisions, value


class Match:
    """A game of ``ruleset`` for the environments. ``reset(seed)`` starts it; ``choose(token)`` is one decision
    of the seat to move."""

    def __init__(self, ruleset: str, players: int | None = None, options: dict[str, Any] | None = None,
                 max_decisions: int | None = None, shaped_reward: float = 0.0,
                 encoding: EncodingChoice = None) -> None:
        max_decisions, shaped_reward = _check_settings(max_decisions, shaped_reward)
        self.rs = get_ruleset(ruleset)
        self.players = self.rs.check_players(players)
        self.options = self.rs.options().resolve(options)
        self.rs.check_option_combination(self.players, self.options)
        self.encoding = encoding_for(self.rs.id, self.players, self.options, encoding)
        self.codec: ActionCodec = codec_for(self.encoding)
        self.max_decisions = max_decisions
        self.token_seats: set[int] | None = None
        """The seats that decide by tokens (None: all); at another seat's turn the match waits for ``play``."""
        self.shaped_reward = shaped_reward
        names = self.rs.seat_names(self.players, self.options)
        self.agent_names = _agent_names(names, self.players)
        # the observation: the encoding's numbers, then the decision (seat to decide, tokens chosen, count)
        probe = self.rs.new_game(self.players, self.options, seed=0)
        self.board_size = len(self.encoding.features(probe.view(0), 0))
        self.obs_size = self.board_size + 1 + self.codec.size + MAX_PREFIX + 1
        self._count0 = self.board_size + 1 + self.codec.size
        # per seat: its last observation, the state its board part was written from, the decision's marks in it
        self._obs = [np.zeros(self.obs_size, dtype=np.float32) for _ in range(self.players)]
        self._obs_of: list[State | None] = [None] * self.players
        self._marks: list[list[int]] = [[] for _ in range(self.players)]
        self.last_shaping: list[float] | None = None
        self.rng = random.Random(0)
        self.state: State = probe
        self.to_move: int | None = probe.to_move
        """The state's seat to move (kept: some rulesets work it out at each ask)."""
        self.decision: Decision | None = None
        self.decisions = 0
        self.actions: list[Any] = []

    # ---- the game --------------------------------------------------------------------------------
    def reset(self, seed: int | None) -> None:
        seed = as_seed(seed)
        if seed is None:
            seed = random.SystemRandom().randrange(2**31)
        self.rng = random.Random(seed)
        # the players and options were checked once, when the match was made
        self.state = self.rs._new_game(self.players, self.options, seed)
        self.decisions = 0
        self.actions = []
        self._settle()

    def truncated(self) -> bool:
        return self.max_decisions is not None and self.decisions >= self.max_decisions and not self.over()

    def over(self) -> bool:
        return self.to_move is None

    def at(self, state: State) -> Decision:
        """Put the match at ``state`` (a decision of a seat, from outside: a policy asked to choose there) and
        return its decision, with the tokens that are forced taken."""
        self.state = state
        self.to_move = state.to_move
        self.decision = d = Decision(self.codec, state.legal_actions())
        return d

    def _play(self, action: Any) -> None:
        if not self.shaped_reward:
            self.state = self.state.apply_unchecked(action)
            self.actions.append(action)
            self._settle()
            self.last_shaping = None
            return
        before = self._evaluations()
        self.state = self.state.apply_unchecked(action)
        self.actions.append(action)
        self._settle()
        self.last_shaping = [self.shaped_reward * (b - a) for a, b in zip(before, self._evaluations())]

    def _settle(self) -> None:
        """Resolve chance and forced tokens until a seat has a choice to make (or the game ends)."""
        self.decision = None
        while True:
            st = self.state
            self.to_move = to_move = st.to_move
            if to_move is None:
                return
            if to_move == CHANCE:
                outcome = sample_chance(st, self.rng)
                self.state = st.apply_unchecked(outcome)
                self.actions.append(outcome)
                continue
            if self.token_seats is not None and to_move not in self.token_seats:
                return
            d = Decision(self.codec, st.legal_actions())
            done = d.advance_forced()
            if done is None:
                self.decision = d
                return
            self.state = st.apply_unchecked(done)
            self.actions.append(done)

    def play(self, action: Any) -> None:
        """A whole action of a seat that does not decide by tokens (an opponent agent), checked."""
        self.state.check(action)
        self._play(action)

    def _evaluations(self) -> list[float]:
        return self.rs.evaluate_all(self.state)

    def mask(self) -> np.ndarray:
        m = bytearray(self.codec.size)  # a fresh buffer each time: the array is the caller's to keep
        if self.decision is not None:
            for t in self.decision.options():
                m[t] = 1
        return np.frombuffer(m, dtype=np.int8)

    def choose(self, token: Any) -> None:
        """One decision of the seat to move. A value that is not a whole number raises ``ValueError`` (see
        ``as_token``), a token outside the mask ``IllegalToken``; neither changes anything."""
        token = as_token(token)
        d = self.decision
        if d is None:
            raise IllegalToken("the game is over: no action is expected")
        if token not in (d._next or d._branches()):
            name = (repr(self.codec.token_name(token)) if 0 <= token < self.codec.size
                    else "(outside the action space)")
            legal = ", ".join(sorted(repr(self.codec.token_name(t)) for t in d.options()))
            raise IllegalToken(f"action {token} {name} is not legal here (legal: {legal})")
        self.decisions += 1
        done = d.choose(token)
        if done is None:
            done = d.advance_forced()
        if done is not None:
            self._play(done)
        else:
            self.last_shaping = None

    # ---- what a seat sees ------------------------------------------------------------------------
    def observe(self, seat: int) -> np.ndarray:
        """The seat's observation: the encoding's numbers (written again only when the engine state is another
        object: the tokens of one action do not change the board), then the decision when the seat is the one
        deciding. A fresh array: the caller may keep it."""
        obs = self._obs[seat]
        st = self.state
        if self._obs_of[seat] is not st:
            obs[:self.board_size] = self.encoding.observe(st, seat)
            self._obs_of[seat] = st
        marks = self._marks[seat]
        if marks:
            for i in marks:
                obs[i] = 0.0
            marks.clear()
        d = self.decision
        if d is not None and self.to_move == seat:
            base = self.board_size + 1
            marks.append(base - 1)
            for t in d.prefix:
                marks.append(base + t)
            marks.append(self._count0 + min(len(d.prefix), MAX_PREFIX))
            for i in marks:
                obs[i] = 1.0
        return obs.copy()

    def result(self) -> tuple[float, ...] | None:
        return self.state.result()


def _agent_names(names: list[str], players: int) -> list[str]:
    out: list[str] = []
    for i in range(players):
        base = names[i] if i < len(names) else f"seat {i}"
        name = "".join(c if c.isalnum() else "_" for c in base.lower().replace(" & ", "_and_")).strip("_")
        name = name or f"seat_{i}"
        if name in out:
            name = f"{name}_{i}"
        out.append(name)
    return out
