"""The rulesets as OpenSpiel games (``pyspiel.register_game``), one per ruleset: ``conquest_<id>``.

An OpenSpiel action is one token of the RL codec (conquest/rl/codec.py): a whole action of the engine is a few
consecutive decisions of the same player, the verb then each argument, exactly as in the PettingZoo environment;
a token that is the only possible continuation is taken without asking, and so is an action that is the only legal
one. Chance nodes are OpenSpiel chance nodes: outcome ``i`` is the ``i``-th entry of the state's
``chance_outcomes()`` with its probability (a node with one outcome is resolved at once). What a player is shown
(observation and information state, strings and tensor) is built from ``view(seat)`` only; the information state
adds the player's own actions and the sequence of its views, so it has perfect recall.

The parameters of ``conquest_<id>`` are ``players``, every option of the ruleset by its name, ``seed`` (the set-up
that the rules leave to the publisher: a generated map) and ``max_game_length``: the number of OpenSpiel moves
(decisions and chance outcomes) after which the game is stopped, every player's return 0 (OpenSpiel needs a bound;
the rulesets' own round limits, where they have one, end the game by its rules long before the default)."""

from __future__ import annotations

import hashlib
import json
import random
from typing import Any

import numpy as np
import pyspiel

from conquest.core.errors import ConquestError
from conquest.core.game import CHANCE, Ruleset, State
from conquest.core.registry import get_ruleset, rulesets
from conquest.rl.codec import Decision, codec_for
from conquest.rl.match import MAX_PREFIX, encoding_for

PREFIX = "conquest_"
DEFAULT_MAX_GAME_LENGTH = 20_000
"""OpenSpiel moves (decisions and chance outcomes) after which a game is stopped, unless the parameter says."""


class _Setup:
    """What every state of one game (ruleset, players, options) shares: the codec and the encoding."""

    def __init__(self, ruleset: str, players: int, options: dict[str, Any], seed: int, cap: int) -> None:
        self.rs: Ruleset = get_ruleset(ruleset)
        self.players = players
        self.options = options
        self.seed = seed
        self.cap = cap
        self.encoding = encoding_for(ruleset, players, options)
        self.codec = codec_for(self.encoding)
        self.max_chance = self.rs.max_chance_outcomes
        """The most outcomes a chance node may have (``Ruleset.max_chance_outcomes``; more is refused)."""
        self.hidden = type(self.rs).determinize is not Ruleset.determinize
        initial = self.rs._new_game(players, options, seed)
        self.board_size = len(self.encoding.features(initial.view(0), 0))
        self.obs_size = self.board_size + 1 + self.codec.size + MAX_PREFIX + 1
        self.key = (ruleset, players, json.dumps(options, sort_keys=True), seed, cap)
        core = _Core(self, initial, 0, _Trail(None, initial, None, None))
        core.settle()
        self.initial = core

    def __reduce__(self) -> Any:
        return (_setup_for, self.key)


_SETUPS: dict[tuple[Any, ...], _Setup] = {}


def _setup_for(ruleset: str, players: int, options_json: str, seed: int, cap: int) -> _Setup:
    key = (ruleset, players, options_json, seed, cap)
    s = _SETUPS.get(key)
    if s is None:
        s = _SETUPS[key] = _Setup(ruleset, players, json.loads(options_json), seed, cap)
    return s


def _hash(text: str) -> str:
    return hashlib.blake2b(text.encode(), digest_size=16).hexdigest()


class _Trail:
    """One step of a game's history (an engine state and the action that led to it), linked to the one before:
    states share their past. Each seat's digest is worked out when asked and kept: the hash of the seat's previous
    digest, its own action (when it acted) and its view, unchanged when neither its view changed nor it acted."""

    __slots__ = ("parent", "state", "mover", "action", "digests", "views")

    def __init__(self, parent: _Trail | None, state: State, mover: int | None, action: Any,
                 base: dict[int, str] | None = None) -> None:
        self.parent = parent
        self.state = state
        self.mover = mover
        self.action = action
        self.digests: dict[int, str] = dict(base) if base else {}
        self.views: dict[int, str] = {}

    def view_digest(self, seat: int) -> str:
        v = self.views.get(seat)
        if v is None:
            v = self.views[seat] = _hash(json.dumps(self.state.view(seat), sort_keys=True, separators=(",", ":")))
        return v

    def digest(self, seat: int) -> str:
        if seat in self.digests:
            return self.digests[seat]
        path: list[_Trail] = []
        node: _Trail | None = self
        while node is not None and seat not in node.digests:
            path.append(node)
            node = node.parent
        prev = node.digests[seat] if node is not None else ""
        for n in reversed(path):
            vd = n.view_digest(seat)
            own = n.mover == seat
            if n.parent is not None and not own and vd == n.parent.view_digest(seat):
                d = prev
            else:
                act = n.state.ruleset.format_action(n.action) if own else ""
                d = _hash(f"{prev}|{act}|{vd}")
            n.digests[seat] = prev = d
        return prev


class _Core:
    """A state of the OpenSpiel game: the engine state, the decision under way (its tokens so far), the number
    of OpenSpiel moves made, and the trail of the history. Copying shares the engine state and the trail (an
    engine state is never changed in place: ``apply_unchecked`` makes a new one)."""

    __slots__ = ("setup", "state", "to_move", "moves", "trail", "decision", "outcomes")

    def __init__(self, setup: _Setup, state: State, moves: int, trail: _Trail) -> None:
        self.setup = setup
        self.state = state
        self.to_move = state.to_move
        """The engine state's seat to move (kept: some rulesets work it out at each ask)."""
        self.moves = moves
        self.trail = trail
        self.decision: Decision | None = None
        self.outcomes: list[tuple[Any, float]] | None = None

    def copy(self) -> _Core:
        c = _Core(self.setup, self.state, self.moves, self.trail)
        d = self.decision
        if d is not None:
            e = Decision.__new__(Decision)
            e.codec, e.actions, e.prefix = d.codec, d.actions, list(d.prefix)
            e._live, e._next, e._by_tokens = d._live, d._next, d._by_tokens
            c.decision = e
        c.outcomes = self.outcomes
        return c

    def __deepcopy__(self, memo: Any) -> _Core:
        return self.copy()

    def __reduce__(self) -> Any:
        prefix = list(self.decision.prefix) if self.decision is not None else []
        digests = {s: self.trail.digest(s) for s in range(self.setup.players)}
        return (_restore, (self.setup, json.dumps(self.state.to_json()), self.moves, prefix, digests))

    # ---- moves -------------------------------------------------------------------------------------------
    def _advance(self, action: Any, mover: int | None) -> None:
        self.state = self.state.apply_unchecked(action)
        self.to_move = self.state.to_move
        self.trail = _Trail(self.trail, self.state, mover, action)

    def settle(self) -> None:
        """Resolve what needs nobody's choice (a chance node of one outcome, a forced token or action) until a
        player has a choice, a chance node has several outcomes, or the game is over."""
        self.decision = None
        self.outcomes = None
        while True:
            st = self.state
            tm = self.to_move
            if tm is None:
                return
            if tm == CHANCE:
                oc = st.chance_outcomes()
                if len(oc) == 1:
                    self._advance(oc[0][0], CHANCE)
                    continue
                if len(oc) > self.setup.max_chance:
                    raise ConquestError(f"a chance node of {len(oc)} outcomes: the game declares at most "
                                        f"{self.setup.max_chance}")
                self.outcomes = oc
                return
            d = Decision(self.setup.codec, st.legal_actions())
            done = d.advance_forced()
            if done is None:
                self.decision = d
                return
            self._advance(done, tm)

    def over(self) -> bool:
        return self.to_move is None or self.moves >= self.setup.cap

    def apply(self, action: int) -> None:
        if self.over():
            raise ValueError("the game is over")
        if self.outcomes is not None:
            if not 0 <= action < len(self.outcomes):
                raise ValueError(f"chance outcome {action} is not one of 0..{len(self.outcomes) - 1}")
            self.moves += 1
            self._advance(self.outcomes[action][0], CHANCE)
            self.settle()
            return
        d = self.decision
        assert d is not None
        if action not in d.options():
            raise ValueError(f"action {action} is not legal here")
        self.moves += 1
        done = d.choose(action)
        if done is None:
            done = d.advance_forced()
        if done is not None:
            self._advance(done, self.to_move)
            self.settle()


def _restore(setup: _Setup, state_json: str, moves: int, prefix: list[int], digests: dict[int, str]) -> _Core:
    st = setup.rs.state_from_json(json.loads(state_json))
    core = _Core(setup, st, moves, _Trail(None, st, None, None, base=digests))
    core.settle()
    _replay(core, prefix)
    return core


def _replay(core: _Core, prefix: list[int]) -> None:
    """Choose again the tokens of ``prefix`` that the settled decision has not taken by itself."""
    d = core.decision
    if d is None:
        return
    while len(d.prefix) < len(prefix):
        if d.choose(prefix[len(d.prefix)]) is not None:
            raise ConquestError("the tokens chosen so far make a whole action here")
        if d.advance_forced() is not None:
            raise ConquestError("the tokens chosen so far make a whole action here")


# ---- the OpenSpiel classes ---------------------------------------------------------------------------------
def _game_type(rs: Ruleset) -> Any:
    params: dict[str, Any] = {"players": rs.default_players()}
    for o in rs.options().options:
        # a text option whose values are numbers ('8') is an int parameter: OpenSpiel reads "adjacency=8" back
        # from a game's string as a number
        numeric = isinstance(o.default, str) and o.default.isdigit()
        params[o.name] = int(o.default) if numeric else o.default
    params["seed"] = 0
    params["max_game_length"] = DEFAULT_MAX_GAME_LENGTH
    hidden = type(rs).determinize is not Ruleset.determinize
    return pyspiel.GameType(
        short_name=PREFIX + rs.id,
        long_name=f"Conquest: {rs.title}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=(pyspiel.GameType.Information.IMPERFECT_INFORMATION if hidden
                     else pyspiel.GameType.Information.PERFECT_INFORMATION),
        utility=pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=rs.max_players,
        min_num_players=rs.min_players,
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=params,
        default_loadable=True,
    )


class ConquestGame(pyspiel.Game):  # type: ignore[misc]
    """``conquest_<id>``: see the module's docstring."""

    def __init__(self, ruleset: str, params: dict[str, Any] | None = None) -> None:
        rs = get_ruleset(ruleset)
        params = dict(params or {})
        game_type = _game_type(rs)
        spec = game_type.parameter_specification
        unknown = sorted(set(params) - set(spec))
        if unknown:
            raise ValueError(f"conquest_{rs.id} has no parameter '{unknown[0]}' (parameters: {', '.join(spec)})")
        values = {**spec, **params}
        try:
            players = rs.check_players(int(values["players"]))
            options = rs.options().resolve({o.name: values[o.name] for o in rs.options().options})
            rs.check_option_combination(players, options)
        except ConquestError as e:
            raise ValueError(f"conquest_{rs.id}: {e}") from None
        seed, cap = int(values["seed"]), int(values["max_game_length"])
        if cap < 1:
            raise ValueError(f"conquest_{rs.id}: max_game_length must be at least 1, got {cap}")
        self.setup = _setup_for(rs.id, players, json.dumps(options, sort_keys=True), seed, cap)
        n = players
        info = pyspiel.GameInfo(
            num_distinct_actions=self.setup.codec.size,
            max_chance_outcomes=self.setup.max_chance,
            num_players=n,
            min_utility=-1.0 / (n - 1),
            max_utility=1.0,
            utility_sum=0.0,
            max_game_length=cap,
        )
        super().__init__(game_type, info, params)

    def new_initial_state(self) -> ConquestState:
        return ConquestState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> Any:
        if params:
            raise ValueError(f"observation parameters are not supported; given {params}")
        if iig_obs_type is None:
            return _Observer(self.setup, recall=False)
        if iig_obs_type.public_info and iig_obs_type.private_info == pyspiel.PrivateInfoType.SINGLE_PLAYER:
            return _Observer(self.setup, recall=iig_obs_type.perfect_recall)
        return None


class ConquestState(pyspiel.State):  # type: ignore[misc]
    """A position: ``_c`` holds the engine state and the decision under way (see ``_Core``)."""

    def __init__(self, game: ConquestGame) -> None:
        super().__init__(game)
        self._c = game.setup.initial.copy()

    # ---- the OpenSpiel API -------------------------------------------------------------------------------
    def current_player(self) -> int:
        c = self._c
        if c.over():
            return int(pyspiel.PlayerId.TERMINAL)
        if c.outcomes is not None:
            return int(pyspiel.PlayerId.CHANCE)
        tm = c.to_move
        assert tm is not None
        return tm

    def _legal_actions(self, player: int) -> list[int]:
        d = self._c.decision
        return sorted(d.options()) if d is not None else []

    def chance_outcomes(self) -> list[tuple[int, float]]:
        oc = self._c.outcomes
        return [(i, p) for i, (_a, p) in enumerate(oc)] if oc is not None else []

    def _apply_action(self, action: int) -> None:
        self._c.apply(int(action))

    def _action_to_string(self, player: int, action: int) -> str:
        c = self._c
        if player == pyspiel.PlayerId.CHANCE:
            if c.outcomes is not None and 0 <= action < len(c.outcomes):
                return c.setup.rs.format_action(c.outcomes[action][0])
            return f"chance outcome {action}"
        if 0 <= action < c.setup.codec.size:
            return c.setup.codec.token_name(action)
        return f"action {action}"

    def is_terminal(self) -> bool:
        return self._c.over()

    def returns(self) -> list[float]:
        c = self._c
        n = c.setup.players
        res = c.state.result()
        if res is None:
            return [0.0] * n
        total = sum(res)
        return [(n * r - total) / (n - 1) for r in res]

    # ---- beyond the OpenSpiel API ----------------------------------------------------------------------------
    def engine_state(self) -> State:
        """The engine's state (the referee's: everything, hidden parts included)."""
        return self._c.state

    def engine_actions(self) -> list[Any]:
        """The legal engine actions of the decision under way (those that agree with the tokens chosen so far);
        empty at a chance node or the end."""
        d = self._c.decision
        if d is None or self._c.over():
            return []
        if not d.prefix:
            return list(d.actions)
        tokens = self._c.setup.codec.tokens_of
        k = len(d.prefix)
        return [a for a in d.actions if list(tokens(a)[:k]) == d.prefix]

    def apply_engine_action(self, action: Any) -> None:
        """Play a whole engine action of the player to move as its tokens (``apply_action`` for each, so the
        history holds them); the tokens the game takes by itself are skipped. Refused (``ValueError``, nothing
        changed) when it is not one of ``engine_actions()``."""
        if action not in self.engine_actions():
            raise ValueError(f"{action!r} is not a legal action of the decision under way")
        c = self._c
        d = c.decision
        seq = c.setup.codec.tokens_of(action)
        while c.decision is d and not c.over():
            k = len(d.prefix) if d is not None else 0
            self.apply_action(seq[k] if k < len(seq) else c.setup.codec.end)

    def resample_from_infostate(self, player: int, sampler: Any) -> ConquestState:
        """A state that ``player`` cannot tell from this one: the engine's ``determinize`` (every part hidden
        from the player drawn again), seeded by ``sampler``; the same information state for ``player``."""
        c = self._c
        rng = random.Random(int(sampler() * 2**53))
        det = c.state.determinize(player, rng)
        d = c.trail.digest(player)
        core = _Core(c.setup, det, c.moves, _Trail(None, det, None, None,
                                                   base={s: d for s in range(c.setup.players)}))
        core.settle()
        if c.decision is not None:
            _replay(core, list(c.decision.prefix))
        out: ConquestState = self.clone()
        out._c = core
        return out

    def __str__(self) -> str:
        c = self._c
        prefix = [c.setup.codec.token_name(t) for t in c.decision.prefix] if c.decision is not None else []
        return (f"moves {c.moves}; tokens {' '.join(prefix) or '-'}; "
                + json.dumps(c.state.to_json(), sort_keys=True, separators=(",", ":")))


class _Observer:
    """The observation (``recall=False``: the seat's view now, and its tokens when it is deciding) or the
    information state (``recall=True``: the string only; the digest of the seat's views and own actions)."""

    def __init__(self, setup: _Setup, recall: bool) -> None:
        self.setup = setup
        self.recall = recall
        if recall:
            self.tensor = None
            self.dict: dict[str, Any] = {}
        else:
            self.tensor = np.zeros(setup.obs_size, np.float32)
            self.dict = {"observation": self.tensor}

    def set_from(self, state: ConquestState, player: int) -> None:
        if self.tensor is None:
            return
        c = state._c
        s = self.setup
        t = self.tensor
        t.fill(0.0)
        t[:s.board_size] = s.encoding.observe(c.state, player)
        d = c.decision
        if d is not None and c.to_move == player and not c.over():
            base = s.board_size + 1
            t[base - 1] = 1.0
            for tok in d.prefix:
                t[base + tok] = 1.0
            t[base + s.codec.size + min(len(d.prefix), MAX_PREFIX)] = 1.0

    def string_from(self, state: ConquestState, player: int) -> str:
        c = state._c
        d = c.decision
        deciding = d is not None and c.to_move == player and not c.over()
        tokens = " ".join(self.setup.codec.token_name(t) for t in d.prefix) if deciding and d is not None else ""
        tail = f"; deciding: {tokens or '(first token)'}" if deciding else ""
        if self.recall:
            return f"seat {player}; history {c.trail.digest(player)}{tail}"
        view = json.dumps(c.state.view(player), sort_keys=True, separators=(",", ":"))
        return f"seat {player}{tail}; view {view}"


def _init_for(rid: str) -> Any:
    def __init__(self: ConquestGame, params: dict[str, Any] | None = None) -> None:
        ConquestGame.__init__(self, rid, params)
    return __init__


# ---- registration ------------------------------------------------------------------------------------------
_registered: set[str] = set()


def register_all() -> list[str]:
    """Register every ruleset of the registry as ``conquest_<id>`` (once); the names registered."""
    for rid, rs in rulesets().items():
        if rid in _registered:
            continue
        # every ruleset has an encoding (its own, or the generic one built from its view): the action vocabulary
        # and the observation tensor; it is made when the game is first loaded
        # the creator is a class, as in OpenSpiel's own Python games: the registry outlives the interpreter,
        # and a function held only by it would be freed after the interpreter has finalised (a crash at exit)
        creator = type(f"Conquest_{rid}", (ConquestGame,), {"__init__": _init_for(rid),
                                                             "__module__": __name__})
        globals()[creator.__name__] = creator
        pyspiel.register_game(_game_type(rs), creator)
        _registered.add(rid)
    return sorted(PREFIX + r for r in _registered)
