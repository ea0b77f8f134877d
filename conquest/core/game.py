"""The game contract: a ``Ruleset`` makes ``State`` objects; a state knows who moves, what is legal and how
to apply it. Chance is explicit: at a chance node ``to_move == CHANCE`` and ``chance_outcomes()`` publishes the
distribution; the rules never hold a random generator. Runners and agents do.

Actions are small immutable values (tuples of strings and ints) so that they hash, compare and serialise
cheaply. Their text form, the notation, is what people type, what records store and what errors quote:
``ruleset.parse_action(ruleset.format_action(a)) == a``.
"""

from __future__ import annotations

import functools
import importlib
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar

from conquest.core.errors import ConquestError, IllegalAction, NotationError, OptionError, StateFormatError
from conquest.core.kinds import CHANCE as CHANCE, Action as Action  # re-exported: the contract's names
from conquest.core.notation import action_label, is_action
from conquest.core.options import OptionsSpec
from conquest.core.schema import check_nesting, validate_document

if TYPE_CHECKING:
    import random

    from conquest.core.calculator import Calculator
    from conquest.core.encoding import Encoding
    from conquest.core.variants import VariantModel

"""``State.to_move`` at a chance node (a die roll, shuffle or draw). ``None`` means the game is over."""

STATE_FORMAT = "conquest-state/1"
CHANCE_OUTCOMES_SHOWN = 12
"""How many possible outcomes a refused chance outcome's message lists."""


def seat_label(seat: int | None) -> str:
    if seat is None:
        return "nobody"
    if seat == CHANCE:
        return "chance"
    return f"seat {seat}"


def to_move_json(seat: int | None) -> int | str | None:
    return "chance" if seat == CHANCE else seat


def to_move_from_json(value: Any) -> int | None:
    if value == "chance":
        return CHANCE
    if value is None or (isinstance(value, int) and not isinstance(value, bool) and value >= 0):
        return value
    raise StateFormatError("to_move", f"expected a seat number, \"chance\" or null, got {value!r}")


NOT_AN_ACTION = "not an action (a tuple of a word, then words and whole numbers, or its notation as text)"
NOT_HERE = "not an action of this position (its arguments name nothing here)"
_CRASHES = (IndexError, KeyError, TypeError, ValueError, AttributeError)
"""What a ruleset's code raises when an action-shaped value names nothing in the position (``('move', 'x')``
where x is no space): the shape check turns it into the contract's error."""


def require_action(value: Any) -> Action:
    """The one shape check of every public function that takes an action: ``value`` itself when it has the
    shape of an action (``core.notation.is_action``), else ``IllegalAction`` naming it."""
    if not is_action(value):
        raise IllegalAction(action_label(value), NOT_AN_ACTION)
    return value


def _guarded(fn: Callable[..., Any], at: int, kind: str) -> Callable[..., Any]:
    """``fn`` (a method) behind the shape check of its argument number ``at`` (after ``self``). ``kind``:
    ``raise`` (IllegalAction for a non-action, and for an action whose arguments make the ruleset's code fail),
    ``reason`` (``illegal_reason``: the refusal is the answer), ``bool`` (``is_legal``: False), ``odds``
    (``action_odds``: OddsError; text is parsed by the ruleset), ``optional`` (``narrate``: None is an action
    the seat may not read)."""
    if getattr(fn, "_shape_checked", False):
        return fn

    @functools.wraps(fn)
    def checked(self: Any, *args: Any, **kwargs: Any) -> Any:
        action = args[at] if len(args) > at else kwargs.get("action")
        if not ((kind == "optional" and action is None) or (kind == "odds" and isinstance(action, str))):
            if not is_action(action):
                if kind == "bool":
                    return False
                if kind == "reason":
                    return NOT_AN_ACTION
                if kind == "odds":
                    from conquest.core.odds import OddsError
                    raise OddsError(f"'{action_label(action)}': {NOT_AN_ACTION}")
                raise IllegalAction(action_label(action), NOT_AN_ACTION)
        try:
            return fn(self, *args, **kwargs)
        except _CRASHES as e:
            if isinstance(e, ConquestError):
                raise
            if kind == "bool":
                return False
            if kind == "reason":
                return "it is not among the legal actions here"
            if kind == "odds":
                from conquest.core.odds import OddsError
                raise OddsError(f"'{action_label(action)}': {NOT_HERE}") from None
            raise IllegalAction(action_label(action), NOT_HERE) from None

    checked._shape_checked = True  # type: ignore[attr-defined]
    return checked


_STATE_GUARDS = {"is_legal": (0, "bool"), "illegal_reason": (0, "reason")}
_RULESET_GUARDS = {"describe_action": (1, "raise"), "action_odds": (1, "odds"), "narrate": (1, "optional")}


def _guard_class(cls: type, guards: dict[str, tuple[int, str]]) -> None:
    for name, (at, kind) in guards.items():
        if name in cls.__dict__:
            setattr(cls, name, _guarded(cls.__dict__[name], at, kind))


_LEAVES = frozenset({str, int, float, bool, type(None)})


def json_copy(doc: Any) -> Any:
    """A copy of a JSON-like document: new dicts and lists all the way down (tuples become lists), leaves
    shared (they are immutable). Leaves are copied without a call each: a state document is mostly leaves, and
    every ``to_json`` copies one (about half the CPU of a Nerath ``to_json`` was this function's calls)."""
    leaves = _LEAVES
    if isinstance(doc, dict):
        return {k: v if type(v) in leaves else json_copy(v) for k, v in doc.items()}
    if isinstance(doc, (list, tuple)):
        return [v if type(v) in leaves else json_copy(v) for v in doc]
    return doc


class State(ABC):
    """One position of a game. ``apply`` returns a new state and never changes this one."""

    ruleset: ClassVar[Ruleset]
    schema: ClassVar[Any] = None
    """The declared schema of the state document's body (a ``core.schema.Body`` model): its types and bounds
    are checked before ``_from_body`` reads the document."""
    body_is_fresh: ClassVar[bool] = False
    """``_body_json`` builds a new document each time, sharing no list or dict with the state (a
    ``core.fields.Document`` writer does): ``to_json`` then does not copy it again."""
    players: int
    options: dict[str, Any]

    def __init_subclass__(cls, **kwargs: Any) -> None:
        """A ruleset's ``is_legal`` and ``illegal_reason`` go through the shape check (``require_action``)."""
        super().__init_subclass__(**kwargs)
        _guard_class(cls, _STATE_GUARDS)

    # ---- who moves -------------------------------------------------------------------------------
    @property
    @abstractmethod
    def to_move(self) -> int | None:
        """A seat (0-based), ``CHANCE``, or ``None`` when the game is over."""

    def is_terminal(self) -> bool:
        return self.to_move is None

    def is_chance(self) -> bool:
        return self.to_move == CHANCE

    # ---- legality --------------------------------------------------------------------------------
    @abstractmethod
    def legal_actions(self) -> Sequence[Action]:
        """Every legal action of the seat to move (the outcomes at a chance node; empty at the end)."""

    def chance_outcomes(self) -> list[tuple[Action, float]]:
        """``[(outcome, probability)]`` at a chance node; empty elsewhere."""
        return []

    def is_legal(self, action: Action) -> bool:
        return action in self.legal_actions()

    def illegal_reason(self, action: Action) -> str:
        """Why ``action`` is not legal here, naming the rule. Rulesets override this for better messages;
        ``check`` asks it only at a decision (the end and chance nodes are answered by ``refusal``)."""
        if self.to_move is None:
            return "the game is over"
        return "it is not among the legal actions here"

    def refusal(self, action: Action) -> str:
        """Why ``action`` is refused here: the end and chance nodes are answered the same way in every
        ruleset; a decision asks the ruleset's ``illegal_reason``."""
        if self.to_move is None:
            return "the game is over"
        if self.to_move == CHANCE:
            possible = list(dict.fromkeys(self.ruleset.format_action(a) for a, _ in self.chance_outcomes()))
            shown = ", ".join(f"'{p}'" for p in possible[:CHANCE_OUTCOMES_SHOWN])
            if len(possible) > CHANCE_OUTCOMES_SHOWN:
                shown += f", ... ({len(possible)} in all)"
            return f"that outcome is not possible at this chance node; the possible outcomes are {shown}"
        return self.illegal_reason(action)

    def check(self, action: Action | str) -> Action:
        """Parse (if text) and check an action; raise ``IllegalAction`` naming the action and the rule.

        A value that does not have the shape of an action (``core.notation.is_action``: an int, ``None``, a
        list, a tuple holding a float or a ``bool``) is refused here, before the ruleset's rules see it; so is
        an action whose legality test or refusal message fails on its arguments (a word with too few)."""
        if isinstance(action, str):
            action = self.ruleset.parse_action(action)
        else:
            action = require_action(action)
        label = self._label(action)
        try:
            legal = self.to_move is not None and self.is_legal(action)
        except (IndexError, KeyError, TypeError, ValueError):
            legal = False
        if not legal:
            try:
                reason = self.refusal(action)
            except (IndexError, KeyError, TypeError, ValueError):
                reason = "it is not among the legal actions here"
            raise IllegalAction(label, reason)
        return action

    def _label(self, action: Action) -> str:
        try:
            return self.ruleset.format_action(action)
        except NotationError:
            return action_label(action)

    # ---- transitions -----------------------------------------------------------------------------
    def apply(self, action: Action | str) -> State:
        """Checked: a new state after ``action``; raises ``IllegalAction`` and leaves this state unchanged."""
        action = self.check(action)
        new = self.clone()
        new._apply(action)
        return new

    def apply_unchecked(self, action: Action) -> State:
        """For search and simulation: no legality check. Tested against ``apply``."""
        new = self.clone()
        new._apply(action)
        return new

    @abstractmethod
    def _apply(self, action: Action) -> None:
        """Apply a legal action to this (freshly cloned) state in place."""

    @abstractmethod
    def clone(self) -> State:
        ...

    # ---- the end ---------------------------------------------------------------------------------
    @abstractmethod
    def result(self) -> tuple[float, ...] | None:
        """Per seat at the end (1 win, 0 loss, shared between tied winners); ``None`` before the end."""

    def scores(self) -> tuple[float, ...]:
        """The game's own score per seat (victory points, coins), for reports. Defaults to the result."""
        r = self.result()
        return r if r is not None else tuple(0.0 for _ in range(self.players))

    # ---- information -----------------------------------------------------------------------------
    def view(self, seat: int | None) -> dict[str, Any]:
        """What ``seat`` may see (``None``: a spectator), JSON-ready. The only place that decides it."""
        return self.to_json()

    def determinize(self, seat: int, rng: random.Random) -> State:
        """A full state that agrees with everything ``seat`` may know (``view(seat)``), every part hidden from
        ``seat`` resampled from what it cannot see, drawing on ``rng`` only. Agents get this, never the
        referee's state. A game without hidden parts returns a clone."""
        return self.ruleset.determinize(self, seat, rng)

    def to_json(self) -> dict[str, Any]:
        """The whole state, versioned, for the referee: ``{"format": "conquest-state/1", ...}``. A fresh
        document: its lists and objects are copies, so a caller who edits it never edits the game."""
        body = self._body_json() if self.body_is_fresh else json_copy(self._body_json())
        return {
            "format": STATE_FORMAT,
            "ruleset": self.ruleset.id,
            "rules_version": self.ruleset.rules_version,
            "players": self.players,
            "options": dict(self.options),
            "to_move": to_move_json(self.to_move),
            **body,
        }

    @abstractmethod
    def _body_json(self) -> dict[str, Any]:
        ...

    @classmethod
    @abstractmethod
    def _from_body(cls, data: dict[str, Any], players: int, options: dict[str, Any]) -> State:
        """Build a state from its JSON (header already validated). Raise StateFormatError naming a field."""

    def check_coherence(self) -> None:
        """Refuse, with a StateFormatError naming the field, a position whose fields disagree with each other
        (what a type cannot say). Called on every state read, after ``_from_body``; a ruleset binds its
        ``coherence.check_coherence``, which play keeps true (tests/core/test_coherence.py). By default nothing
        is refused."""
        return None

    def __repr__(self) -> str:
        return f"<{self.ruleset.id} state to_move={seat_label(self.to_move)}>"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, State) and self.to_json() == other.to_json()

    __hash__ = None  # type: ignore[assignment]


MAX_LEGAL_ACTIONS = 20_000
"""No position of any ruleset lists more decisions than this; a loaded state that does holds an unbounded count."""


def probe_state(state: State) -> None:
    """Refuse a loaded state that cannot be played: one whose legal actions, chance distribution, views or
    JSON fail, or whose legal list is unbounded. A document is refused when read, not on the next call."""
    try:
        legal = state.legal_actions()
        if len(legal) > MAX_LEGAL_ACTIONS:
            raise StateFormatError("(document)", f"{len(legal)} legal actions: a count is beyond what the "
                                                 f"game allows")
        if state.to_move == CHANCE:
            probs = [p for _a, p in state.chance_outcomes()]
            if not probs or abs(sum(probs) - 1.0) > 1e-9:
                raise StateFormatError("to_move", "a chance node without outcomes")
        elif state.to_move is not None and not legal:
            raise StateFormatError("to_move", "the seat to move has no legal action (the game is not over)")
        state.to_json()
        for seat in list(range(state.players)) + [None]:
            state.view(seat)
    except StateFormatError:
        raise
    except (TypeError, KeyError, ValueError, AttributeError, IndexError, AssertionError) as e:
        raise StateFormatError("(document)", f"the position cannot be played "
                                             f"({type(e).__name__}: {str(e)[:80]})") from None


# --- test-settings hook (issue 28) ---
@dataclass(frozen=True)
class TestSettings:
    """How the project's own checks play one game (``Ruleset.test_settings``): sizes that keep the suite fast
    for a long game and thorough for a short one. Every field has a default, so a new game is checked without
    declaring any; none of them skips a check."""

    __test__: ClassVar[bool] = False  # not a pytest test class

    fuzz_steps: int = 40
    """Random actions per Hypothesis example of the contract fuzz (tests/test_boundaries.py)."""
    spectator_steps: int = 30
    """Actions of the web spectator leak check (tests/web/test_spectators.py)."""
    hides_draws: bool = False
    """Some chance outcomes (a card drawn to a hand) are hidden from spectators: the leak check then also
    requires that some log entry was hidden."""
    players: int | None = None
    """Seats of the checks that play one table (the browser boards, the agents' tests; None:
    ``default_players()``)."""
    browser_actions: int = 100
    """The most actions the browser story test plays before it stops."""
    short_options: Mapping[str, Any] = field(default_factory=dict)
    """Options that make a quick game (fewer rounds) for the browser tests and ``conquest doctor``."""
    preferred_actions: tuple[str, ...] = ()
    """Action words a scripted random player picks more often (to reach battles, cards, the end)."""
    rl_max_decisions: int | None = None
    """Where the RL library checks cut a long game (None: played to its end)."""
    rl_observation_games: tuple[int, int] = (4, 2_000)
    """Games and decisions per game whose every observation is compared with the view's (tests/rl)."""
    narration_games: tuple[tuple[int | None, int], ...] = ((None, 1), (None, 2))
    """(players, seed) of the random games whose every narrated line is checked against the board."""
    evaluate_players: tuple[int | None, ...] = (None,)
    """Player counts whose ``evaluate_all`` is checked against ``evaluate``."""


# --- end test-settings hook ---


Narrator = Callable[[dict[str, Any], Any, dict[str, Any], int | None, Sequence[str]], dict[str, Any]]


@functools.cache
def _module_narrator(package: str) -> Narrator | None:
    name = f"{package}.narrate"
    try:
        module = importlib.import_module(name)
    except ModuleNotFoundError as e:
        if e.name in (name, package):
            return None
        raise  # the narrate module is there and imports something missing: say so
    told = getattr(module, "narrate", None)
    return told if callable(told) else None


def package_narrator(cls: type) -> Narrator | None:
    """The function ``narrate`` of the ``narrate`` module beside a ruleset class (``conquest/rulesets/<id>/
    narrate.py`` for a class of ``conquest/rulesets/<id>/ruleset.py``), looked up along the class's bases, or
    None: the one place a ruleset's log lines are written, found by convention as the other sections are."""
    for klass in cls.__mro__:
        if klass is Ruleset or klass is object:
            break
        package = klass.__module__.rpartition(".")[0]
        told = _module_narrator(package) if package else None
        if told is not None:
            return told
    return None


class Ruleset(ABC):
    """A game: its static facts, its options and its notation. One instance per game, registered by id."""

    id: ClassVar[str]
    title: ClassVar[str]
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    rules_version: ClassVar[str]
    summary: ClassVar[str] = ""
    state_class: ClassVar[type[State]]
    search_prior: ClassVar[int] = 0
    """Where ``ismcts`` ranks a node's children by a one-ply lookahead unless its spec says (its ``prior``
    parameter): 0 at the root only; 2 at every decision node, for a game of many moves of which few are good."""
    search_plans: ClassVar[int] = 1
    """How ``ismcts`` uses the ruleset's ``plans`` unless its spec says (its ``plans`` parameter): 1 they rank a
    plan's first move by the position after the whole plan; 2 each plan is also a child of the tree, played whole
    (search over which pieces go where, for a game whose turn moves many pieces: Nerath)."""
    # --- test-settings hook (issue 28) ---
    test_settings: ClassVar[TestSettings] = TestSettings()
    """How the project's checks play this game (``TestSettings``: every field has a default)."""
    # --- end test-settings hook ---

    def __init_subclass__(cls, **kwargs: Any) -> None:
        """A ruleset's ``describe_action``, ``action_odds`` and ``narrate`` go through the shape check
        (``require_action``); ``format_action`` has its own (``core.notation.guarded_format``)."""
        super().__init_subclass__(**kwargs)
        _guard_class(cls, _RULESET_GUARDS)

    def __init__(self) -> None:
        # A state reaches its ruleset (notation, evaluation) through its class.
        self.state_class.ruleset = self

    def options(self) -> OptionsSpec:
        return OptionsSpec()

    def default_players(self) -> int:
        return self.min_players

    def check_players(self, players: int | None) -> int:
        if players is None:
            return self.default_players()
        if not isinstance(players, int) or isinstance(players, bool):
            raise OptionError(f"{self.id}: player count must be a whole number, got {players!r}")
        if not self.min_players <= players <= self.max_players:
            span = (f"{self.min_players}" if self.min_players == self.max_players
                    else f"{self.min_players} to {self.max_players}")
            raise OptionError(f"{self.id} is played by {span} players, not {players}")
        return players

    def new_game(self, players: int | None = None, options: dict[str, Any] | None = None,
                 seed: int = 0) -> State:
        """A new game. ``seed`` is for set-up that the rules leave to the publisher (a generated map);
        dice and draws during play are chance nodes, never drawn here."""
        n = self.check_players(players)
        opts = self.options().resolve(options)
        self.check_option_combination(n, opts)
        return self._new_game(n, opts, seed)

    # --- variant hook (issue 31) ---
    def variant_schema(self) -> type[VariantModel] | None:
        """What a variant file may change in this game's data (charts, cards, races, prices, starting forces):
        a pydantic model, a subclass of ``conquest.core.variants.VariantModel`` (unknown fields refused, every
        field optional, bounds that the rules need, e.g. no negative price). A ruleset that declares one also
        lists ``core.variants.variant_option(self)`` among its ``options()`` and reads the varied data from a
        state's options (``core.variants.variant_of``). Default ``None``: nothing may be varied."""
        return None

    def check_option_combination(self, players: int, options: dict[str, Any]) -> None:  # noqa: B027 - a hook
        """Raise OptionError when options that are fine alone do not fit together or with ``players``."""

    @abstractmethod
    def _new_game(self, players: int, options: dict[str, Any], seed: int) -> State:
        ...

    @abstractmethod
    def parse_action(self, text: str) -> Action:
        """Notation to action; raises NotationError with a one-line message."""

    @abstractmethod
    def format_action(self, action: Action) -> str:
        ...

    def state_from_json(self, data: Any) -> State:
        """Validate the header of a ``conquest-state/1`` document and build the state."""
        if not isinstance(data, dict):
            raise StateFormatError("(document)", "a state must be a JSON object")
        check_nesting(data)
        if data.get("format") != STATE_FORMAT:
            raise StateFormatError("format", f"expected \"{STATE_FORMAT}\", got {data.get('format')!r}")
        if data.get("ruleset") != self.id:
            raise StateFormatError("ruleset", f"expected \"{self.id}\", got {data.get('ruleset')!r}")
        if "players" not in data:
            raise StateFormatError("players", "missing")
        try:
            players = self.check_players(data["players"])
        except OptionError as e:
            raise StateFormatError("players", str(e)) from None
        if not isinstance(data.get("options", {}), dict):
            raise StateFormatError("options", "must be an object")
        try:
            options = self.options().resolve(self.options().saved(data.get("options", {})))
        except OptionError as e:
            raise StateFormatError("options", str(e)) from None
        if self.state_class.schema is not None:
            validate_document(self.state_class.schema, data)
        try:
            state = self.state_class._from_body(data, players, options)
            state.check_coherence()
        except StateFormatError:
            raise
        except (TypeError, KeyError, ValueError, AttributeError, IndexError) as e:
            # the schema and the loader missed it; still a refusal, never a crash
            raise StateFormatError("(document)", f"does not describe a {self.id} position "
                                                 f"({type(e).__name__}: {str(e)[:80]})") from None
        probe_state(state)
        unknown = sorted(set(data) - set(state.to_json()))
        if unknown:
            raise StateFormatError(unknown[0], "unknown field (not part of this ruleset's state)")
        if "to_move" in data and to_move_from_json(data["to_move"]) != state.to_move:
            raise StateFormatError("to_move", f"{data['to_move']!r} does not match the rest of the state "
                                              f"({to_move_json(state.to_move)!r})")
        return state

    def determinize(self, state: State, seat: int, rng: random.Random) -> State:
        """``State.determinize``: rulesets with hidden parts override this (see their ``hidden`` module)."""
        return state.clone()

    # ---- helpers that consumers use --------------------------------------------------------------
    def evaluate(self, state: State, seat: int) -> float:
        """A heuristic value of ``state`` for ``seat`` (higher is better), for the greedy agent."""
        r = state.result()
        if r is not None:
            return r[seat]
        return 0.0

    def evaluate_reference(self, state: State, seat: int) -> float:
        """The evaluation this ruleset had before its current one, kept for reference figures (``greedy:old=1``);
        by default ``evaluate`` itself."""
        return self.evaluate(state, seat)

    def plans(self, state: State, legal: Sequence[Action]) -> list[list[Action]]:
        """Groups of the mover's consecutive actions worth weighing together (a plan: which pieces go where),
        for the greedy agent and the search's ordering: a plan's value is that of the position after all its
        actions, and it is reached by playing its first. By default none."""
        return []

    def evaluate_all(self, state: State) -> list[float]:
        """``evaluate`` for every seat, in seat order (search scores a leaf for all seats at once). A ruleset
        whose evaluation shares its work between seats overrides this; the values must be the same."""
        return [self.evaluate(state, p) for p in range(state.players)]

    def render_text(self, state: State, seat: int | None = None) -> str:
        """The board as text for the terminal (what ``seat`` may see): plain text, or Rich console markup
        (closing tags ``[/...]``), which the CLI renders in a terminal and strips when piped."""
        import json
        return json.dumps(state.view(seat), indent=1)

    def game_stats(self, state: State) -> dict[str, Any]:
        """Figures of one finished game for simulation reports: numbers (summed and averaged) or short
        strings (counted), e.g. ``{"end": "capitals", "rounds": 9, "battles": 31}``."""
        return {}

    def describe_action(self, state: State, action: Action) -> str:
        """A short human explanation of an action in this state (for menus). Defaults to the notation."""
        return self.format_action(action)

    def action_odds(self, state: State, action: Action | str) -> dict[str, Any]:
        """The exact distribution of what follows ``action`` (a decision leading into dice) until the next
        decision: ``{ruleset, action, outcomes: [{outcome, probability}], method, seconds, ...}``. This default
        enumerates the chance nodes through ``apply``/``chance_outcomes``; rulesets override it with a summary
        of their own (conquest/core/odds.py)."""
        from conquest.core.odds import action_odds_report, chance_path_summary
        return action_odds_report(self, state, action, chance_path_summary(self))

    def seat_names(self, players: int, options: dict[str, Any]) -> list[str]:
        """The seats' names in a game of ``players`` with ``options`` (the log, the lobby, the CLI, the RL agents'
        names). Default: "Player 1" ... "Player N"."""
        return [f"Player {i + 1}" for i in range(players)]

    def log_names(self, view: dict[str, Any]) -> list[list[str]]:
        """The names the narrated log gives each seat in a position (``view``): by default its seat name. The
        narration check (``conquest.core.narration.named_seat``) requires a seat's action to name it first."""
        return [[n] for n in self.seat_names(int(view.get("players", 0)), view.get("options", {}))]

    def help_terms(self) -> dict[str, dict[str, str]]:
        """Rules help: ``{"kind:id": {"kind", "name", "text"}}`` for each race, power, card, piece kind, action
        verb... taken from the ruleset's data. ``conquest info --terms`` prints it; the web app shows it as
        tooltips and in its rules help panel. None by default."""
        return {}

    def narrate(self, before: dict[str, Any], action: Action | None, after: dict[str, Any], seat: int | None,
                names: Sequence[str] | None = None) -> dict[str, Any]:
        """The log line of ``action`` told to ``seat``, from ``seat``'s views before and after it (``action`` is
        ``None`` when the seat may not read it): see ``conquest.core.narration``. ``names`` are the seats'
        names (default ``seat_names``). The ruleset's package tells it when it has a ``narrate`` module with a
        function ``narrate(before, action, after, seat, names)`` (``package_narrator``); otherwise this default
        says who acted and quotes the notation."""
        from conquest.core import narration
        if names is None:
            names = self.seat_names(int(before.get("players", 0)), before.get("options", {}))
        told = package_narrator(type(self))
        if told is not None:
            return told(before, action, after, seat, names)
        text = self.format_action(action) if action is not None else None
        return narration.generic(before, text, after, seat, names)

    # --- presentation, visibility and balance hooks (issue 28) ---
    # Every hook the generic layers (web, analysis, cli, rl) call is declared here with its default: a ruleset
    # overrides what its game needs and nothing else. Nothing outside core probes a ruleset with getattr.
    def board_json(self, view: dict[str, Any], seat: int | None) -> dict[str, Any] | None:
        """The web board of ``seat``'s ``view`` (drawn from the view only, never the state): ``{"map":
        conquest-map/1, "regions": {id: {owner, pieces, markers}}, "help": ..., "question": ...}`` (docs/web.md,
        "The board"); a bare map gets its regions filled from the view (``web.board.auto_regions``). Default
        ``None``: the page shows ``render_text`` instead."""
        return None

    def confirm_text(self, view: dict[str, Any], action: Action) -> str | None:
        """Why ``action`` (a legal action of the seat whose ``view`` this is) cannot be taken back and deserves
        a second click in the web page, as the question the page asks ("Go into decline? ..."); ``None``: no
        question. Sent with each legal action. Default ``None`` for every action."""
        return None

    def has_odds(self, state: State, action: Action) -> bool:
        """Whether the page offers ``action_odds`` beside ``action`` (legal for the seat to move): a decision
        whose dice the seat may weigh, from what it sees. Called for every legal action of every page shown, so
        it must be cheap. Default: the action leads straight into a chance node (``action_odds`` then weighs it
        by enumerating the chance outcomes); a game whose chance nodes hide something, or come later than the
        next step, overrides it."""
        try:
            return state.apply_unchecked(action).to_move == CHANCE
        except _CRASHES:
            return False

    def calculator(self) -> Calculator | None:
        """The game's odds calculator (``conquest.core.calculator.Calculator``): a form of inputs that is not
        a position (a battle's pieces) answered with exact odds, served at ``/api/odds/{ruleset}``, on the
        calculator page and by ``conquest odds RULESET --FIELD ...``. Default ``None``: no calculator (the
        odds of a position's action, ``action_odds``, remain)."""
        return None

    def log_visible(self, before: State, action: Action, after: State, seat: int | None) -> bool | None:
        """Whether ``seat`` (``None``: a spectator) may read the log entry of ``action`` (``before`` ->
        ``after``): ``True`` shown, ``False`` hidden, ``None`` let the server decide by searching the positions
        the seat cannot tell apart (conquest/web/visibility.py). Default ``None`` for every entry."""
        return None

    def seat_factions(self, record: Any, state: State) -> list[dict[str, list[str]]]:
        """Balance reports: per seat, the factors the seat played with in the game of ``record`` ending at
        ``state`` (``{"race": ["ratmen", "elves"]}``, ``{"colour": ["Red"]}``); an empty list when the set-up
        leaves it to chance or the players. Default: no factor (``{}`` per seat)."""
        return [{} for _ in range(state.players)]

    def round_of(self, state: State) -> int | None:
        """Balance reports: the round (turn, game turn) ``state`` is in, for the score track by round and the
        game length. Default ``None``: the game has no rounds (the report tracks none)."""
        return None

    def faction_rotation(self, players: int, options: dict[str, Any]) -> tuple[str, list[str]] | None:
        """Balance runs: ``(factor, pool)`` when the set-up deals a faction by chance that a run may deal
        instead, so that each faction plays from each seat equally often (``faction_opening`` then deals it).
        Default ``None``: nothing is dealt."""
        return None

    def faction_opening(self, state: State, names: list[str]) -> list[Action]:
        """The opening actions (chance outcomes) from the new game ``state`` that give seat i the faction
        ``names[i]`` of ``faction_rotation``'s pool. Default: none (used only with ``faction_rotation``)."""
        return []

    def info(self) -> dict[str, Any]:
        return {"id": self.id, "title": self.title, "min_players": self.min_players,
                "max_players": self.max_players, "rules_version": self.rules_version,
                "summary": self.summary, "options": self.options().describe()}

    # --- RL hooks (issue 28) ---
    max_chance_outcomes: ClassVar[int] = 256
    """The most outcomes one chance node of the game can have (OpenSpiel's ``max_chance_outcomes``; a node with
    more is refused with an error by ``conquest/openspiel``). A ruleset declares its own bound, e.g. its largest
    die's faces; 256 by default."""

    def rl_encoding(self, players: int, options: dict[str, Any]) -> Encoding:
        """The reinforcement-learning encoding of a game of ``players`` with the resolved ``options``: the action
        vocabulary and the observation of a seat's view as a fixed number of floats (``conquest.core.encoding``),
        what the PettingZoo, Gymnasium and OpenSpiel games of ``conquest/rl`` and ``conquest/openspiel`` use.

        By default the generic encoding built from the view (``conquest.core.view_encoding.ViewEncoding``): it
        learns the view's shape and the actions' strings from a few seeded random games, so a new game has
        environments without writing one (docs/rl.md, "A game without an encoding" says what it cannot do). A
        ruleset overrides this to return its own encoding, from its package's ``encoding.py``."""
        from conquest.core.view_encoding import ViewEncoding
        return ViewEncoding.for_ruleset(self, players, options)


_guard_class(State, _STATE_GUARDS)
_guard_class(Ruleset, _RULESET_GUARDS)
