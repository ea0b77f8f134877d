"""Games in play: the event log (storage) plus the game contract. Everything here speaks only the contract
(``new_game``, ``legal_actions``, ``apply``, ``view``, ``chance_outcomes``, notation, ``result``, ``scores``),
so it serves every ruleset, including ones written later.

Who may see what is decided by ``view(seat)`` alone. From it this module derives two facts per action,
stored beside the action when it is committed:

* ``hidden_from``: the seats (``None`` = spectators) that may not read the action's notation in the log.
  An action is shown to seat *s* unless *s* could not tell it apart: when some other outcome of the same
  chance node (or some other legal action of the same seat) would have left ``view(s)`` exactly the same
  while the referee's ``to_json()`` differs (a die whose value the state does not keep stays public).
  When nothing is hidden from *s* before and after, the action is shown without that search.
* ``barrier``: undo may not cross it. Chance outcomes are barriers; so is any action that changes what some
  seat cannot see (the part of ``to_json()`` that ``view(seat)`` does not show), because then something
  hidden was revealed, taken or added.
"""

from __future__ import annotations

import datetime as dt
import logging
import random
import threading
import time
import weakref
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from conquest.core.errors import ConquestError, IllegalAction
from conquest.core.game import CHANCE, Action, Ruleset, State, seat_label
from conquest.core.jsondoc import _MISSING, flatten as _flatten, hidden_part  # noqa: F401 - tests read them here
from conquest.core.records import RECORD_FORMAT, Record
from conquest.core.variants import variant_label
from conquest.web.storage import ActionRow, Conflict, GameRow, SeatRow, Store
from conquest.web.visibility import (  # noqa: F401 - read from here by the CLI and tests
    MAX_ALTERNATIVES,
    SEARCH_BUDGET,
    Hidden,
    HiddenParts,
    action_visibility,
    hidden_parts,
    viewers,
)

log = logging.getLogger("conquest.web")
MAX_UNDO = 50
SNAPSHOT_EVERY = 100  # a game in memory keeps its state every this many steps: replay and undo start there
# A seat's narrated log is built step by step as the game is played. When it must be built afresh (a restarted
# server, an undo past what it kept) it starts at the snapshot nearest to this many steps before the end, so that
# one request never replays a whole long game; the older steps are told by their notation.
NARRATE_WINDOW = 1000
MAX_RECORD_ACTIONS = 30_000  # the longest record POST /api/records takes
MAX_IMPORT_SECONDS = 30.0  # and the longest it may take to check it
# The games kept in memory (replayed, with their snapshots and narrated logs): at most CACHE_GAMES, holding at most
# CACHE_STATES states in all (see Live.weight; a Nerath state with what goes with it is about 100-200 KiB); the
# least recently used beyond that are dropped (the database holds them: ``load`` replays them when asked for again)
CACHE_GAMES = 256
CACHE_STATES = 4096


class WebError(Exception):
    """A refusal with an HTTP status and a one-line reason."""

    def __init__(self, status: int, reason: str) -> None:
        super().__init__(reason)
        self.status = status
        self.reason = reason


def not_found(what: str) -> WebError:
    return WebError(404, what)


# ---- one game in memory (a cache of the log) ------------------------------------------------------

@dataclass
class Live:
    row: GameRow
    ruleset: Ruleset
    state: State
    revision: int
    next_step: int
    hidden: dict[int | None, frozenset[Any]]
    lock: threading.RLock
    log: list[ActionRow]
    snapshots: dict[int, State] = field(default_factory=dict)
    """The state after k steps, for k = 0 and every SNAPSHOT_EVERY steps (only those the log still has)."""
    stories: dict[int | None, Story] = field(default_factory=dict)
    """The log narrated to each seat that asked (see ``Games.narrated``)."""

    def weight(self) -> int:
        """What the game holds in memory, counted in states: its state and snapshots, each narrated log's recent
        states (kept for undo: up to MAX_UNDO + 1 per seat that reads the log) and one per 500 steps of its log."""
        return 1 + len(self.snapshots) + sum(1 + len(st.recent) for st in self.stories.values()) + len(self.log) // 500


@dataclass
class Actor:
    """Who holds a token: a seat, or ``None`` for a spectator."""
    seat: int | None
    name: str


def clean(text: str) -> str:
    """Text from outside without control characters."""
    return "".join(ch for ch in str(text) if ch >= " " and ch != "\x7f").strip()


def _as_list(t: tuple[float, ...] | None) -> list[float] | None:
    return [float(x) for x in t] if t is not None else None


class Games:
    def __init__(self, store: Store, rulesets: Callable[[], dict[str, Ruleset]],
                 import_seconds: float = MAX_IMPORT_SECONDS, cache_games: int = CACHE_GAMES,
                 cache_states: int = CACHE_STATES) -> None:
        self.store = store
        self.import_seconds = import_seconds
        self._rulesets = rulesets
        self.cache_games, self.cache_states = cache_games, cache_states
        self._cache: OrderedDict[str, Live] = OrderedDict()  # least recently used first
        self._cache_lock = threading.Lock()
        # a game's lock lives while its game is cached or a thread holds or awaits it: a game dropped from the
        # cache and loaded again by another thread meanwhile still gets the same lock
        self._game_locks: weakref.WeakValueDictionary[str, threading.RLock] = weakref.WeakValueDictionary()
        self.evicted = 0  # games dropped from the cache (for tests and benchmarks)
        self.listeners: list[Callable[[str, int], None]] = []  # (game, revision) after every write
        self.on_server_turn: Callable[[str], None] = lambda gid: None  # an agent seat is to move
        self.summary_extras: list[Callable[[Live], dict[str, Any]]] = []  # more of a game's summary (its pace)

    # ---- rulesets --------------------------------------------------------------------------------
    def rulesets(self) -> dict[str, Ruleset]:
        return self._rulesets()

    def ruleset(self, rid: str) -> Ruleset:
        rs = self.rulesets().get(rid)
        if rs is None:
            raise WebError(422, f"unknown ruleset '{rid}' (known: {', '.join(sorted(self.rulesets()))})")
        return rs

    # ---- creation --------------------------------------------------------------------------------
    def create(self, ruleset_id: str, players: int | None, options: dict[str, Any] | None,
               seats: list[tuple[str, str]], seed: int | None) -> GameRow:
        rs = self.ruleset(ruleset_id)
        seed_chosen = seed is not None
        if seed is None:
            seed = random.SystemRandom().randrange(2 ** 31)
        try:
            n = rs.check_players(players if players is not None else (len(seats) or None))
            if seats and len(seats) != n:
                raise WebError(422, f"{len(seats)} seats given for {n} players")
        except ConquestError as e:
            raise WebError(422, str(e)) from None
        state = self._start(rs, n, options, seed)
        if not seats:
            seats = [("human", name) for name in rs.seat_names(n, state.options)]
        hidden = hidden_parts(state)
        row = self.store.create_game(ruleset=rs.id, rules_version=rs.rules_version, players=n,
                                     options=dict(state.options), seed=seed, seed_chosen=seed_chosen,
                                     seats=seats, to_move=state.to_move,
                                     has_secrets=any(hidden.values()))
        live = Live(row, rs, state, 0, 0, hidden, self._lock_for(row.id), [], {0: state})
        self._remember(live)
        return row

    def import_record(self, doc: Any, time_limit: float | None = None, share: float = 1.0) -> GameRow:
        """A finished (or unfinished) game from its ``conquest-record/1`` document, for watching and
        replaying: its seats are played by nobody (kind ``record``). Every step is checked with ``apply``;
        a record longer than MAX_RECORD_ACTIONS or needing more than ``time_limit`` seconds of CPU to check is
        refused. With ``share`` < 1 the check pauses every 50 steps, long enough that it uses about that share
        of the time of the thread's processor (the other threads of the server get the rest).
        The game is kept in memory with its snapshots (its replay starts at the nearest one)."""
        try:
            rec = Record.from_json(doc)
        except ConquestError as e:
            raise WebError(422, f"not a record: {e}") from None
        rs = self.ruleset(rec.ruleset)
        if rec.rules_version and rec.rules_version != rs.rules_version:
            raise WebError(422, f"the record is for {rs.id} rules {rec.rules_version}; this server plays "
                                f"{rs.rules_version}")
        if len(rec.actions) > MAX_RECORD_ACTIONS:
            raise WebError(422, f"the record is too long: {len(rec.actions)} actions "
                                f"({MAX_RECORD_ACTIONS} at most)")
        if rec.start is not None:
            raise WebError(422, "records of games begun from a given position (start) cannot be imported")
        state = self._start(rs, rec.players, rec.options, rec.seed, "the record's settings")
        if len(rec.seats) != state.players:
            raise WebError(422, f"the record names {len(rec.seats)} seats for {state.players} players")
        hidden = HiddenParts(state)
        has_secrets = any(hidden.all().values())
        snapshots = {0: state}
        if time_limit is None:
            time_limit = self.import_seconds
        rows: list[ActionRow] = []
        cpu0 = last = time.thread_time()
        for i, text in enumerate(rec.actions):
            if i % 50 == 0:
                now = time.thread_time()
                if now - cpu0 >= time_limit:
                    raise WebError(422, f"the record takes too long to check: step {i} of {len(rec.actions)} after "
                                        f"{time_limit:g} s ({time_limit:g} s of CPU at most)")
                if share < 1.0:
                    time.sleep((now - last) * (1 / share - 1))
                    last = time.thread_time()
            try:
                action = rs.parse_action(text)
                new = state.apply(action)
            except ConquestError as e:
                raise WebError(422, f"the record's step {i + 1} ('{clean(text)[:80]}'): {e}") from None
            except Exception:  # a ruleset that trips over odd input: still the record's fault
                log.exception("%s could not read the record's action %r", rs.id, text)
                raise WebError(422, f"the record's step {i + 1} ('{clean(text)[:80]}') is not an action of "
                                    f"{rs.id} (the ruleset cannot read it)") from None
            hidden_after = HiddenParts(new)
            # nobody plays an imported game on, so nothing is undone: every step is a barrier (and the hidden
            # parts of every seat are only computed where the log's visibility needs them)
            hidden_from, _barrier = action_visibility(state, action, new, hidden, hidden_after, barrier=True)
            seat = state.to_move if state.to_move is not None else -1
            rows.append(ActionRow(i, seat, rs.format_action(action), hidden_from, True))
            if not has_secrets:
                has_secrets = bool(hidden_from) or any(hidden_after.all().values())
            state, hidden = new, hidden_after
            if (i + 1) % SNAPSHOT_EVERY == 0:
                snapshots[i + 1] = state
        res = state.result()
        names = [clean(n)[:40] or f"Player {k + 1}" for k, n in enumerate(rec.seats)]
        row = self.store.create_game(ruleset=rs.id, rules_version=rs.rules_version, players=state.players,
                                     options=dict(state.options), seed=rec.seed, seed_chosen=True,
                                     seats=[("record", n) for n in names], to_move=state.to_move,
                                     has_secrets=has_secrets, actions=rows, result=_as_list(res),
                                     scores=_as_list(state.scores()) if res is not None else None)
        live = Live(row, rs, state, row.revision, len(rows), hidden.all(), self._lock_for(row.id), rows, snapshots)
        self._remember(live)
        return row

    def _start(self, rs: Ruleset, players: int | None, options: dict[str, Any] | None, seed: int,
               what: str = "") -> State:
        """``rs.new_game``; settings it refuses are a 422 naming them (after ``what``, if given)."""
        lead = f"{what}: " if what else ""
        try:
            return rs.new_game(players, options, seed)
        except ConquestError as e:
            raise WebError(422, f"{lead}{e}") from None
        except (ValueError, TypeError, KeyError, OverflowError) as e:  # settings a ruleset did not expect
            log.exception("%s could not start a game with %r", rs.id, options)
            raise WebError(422, f"{lead}{rs.id} cannot start a game with these settings: {e}") from None

    # ---- loading (replay of the log, cached) -----------------------------------------------------
    def _lock_for(self, gid: str) -> threading.RLock:
        with self._cache_lock:
            lk = self._game_locks.get(gid)
            if lk is None:
                lk = threading.RLock()
                self._game_locks[gid] = lk
            return lk

    def _remember(self, live: Live) -> None:
        """Put ``live`` in the cache as its most recent game, then drop the least recently used games while
        the cache holds more than ``cache_games`` games or ``cache_states`` states. A game whose lock some
        thread holds is in use and stays (so is the one just put)."""
        gid = live.row.id
        with self._cache_lock:
            self._cache[gid] = live
            self._cache.move_to_end(gid)
            weights = {k: v.weight() for k, v in self._cache.items()}
            total = sum(weights.values())
            for k in list(self._cache):
                if len(self._cache) <= self.cache_games and total <= self.cache_states:
                    break
                if k == gid:
                    continue
                old = self._cache[k]
                if getattr(old.lock, "_is_owned", lambda: False)() or not old.lock.acquire(blocking=False):
                    continue  # in use under its lock (by this thread or another)
                try:
                    del self._cache[k]
                finally:
                    old.lock.release()
                total -= weights[k]
                self.evicted += 1

    def _touch(self, gid: str) -> None:
        with self._cache_lock:
            if gid in self._cache:
                self._cache.move_to_end(gid)

    def _forget(self, gid: str) -> None:
        with self._cache_lock:
            self._cache.pop(gid, None)

    def cached(self) -> int:
        """How many games are in memory."""
        return len(self._cache)

    def current(self, gid: str) -> Live | None:
        """The cached game when it is as the database has it (one small query), else None: ``load`` would
        then read and replay its log."""
        if not isinstance(gid, str) or not (0 < len(gid) <= 32):
            return None
        live = self._cache.get(gid)
        if live is None or self.store.get_revision(gid) != live.revision:
            return None
        self._touch(gid)
        return live

    def _replay(self, row: GameRow, rs: Ruleset, actions: list[ActionRow], state: State | None = None,
                snapshots: dict[int, State] | None = None) -> State:
        """Apply ``actions`` (checked) to ``state`` (default: the game's first state), adding the states
        after every SNAPSHOT_EVERY steps to ``snapshots``."""
        if state is None:
            state = rs.new_game(row.players, rs.options().saved(row.options), row.seed)
            if snapshots is not None:
                snapshots[0] = state
        for a in actions:
            try:
                state = state.apply(a.text)
            except ConquestError as e:
                raise WebError(409, f"game {row.id} cannot be replayed by {rs.id} {rs.rules_version} "
                                    f"at step {a.step + 1} ('{a.text}'): {e}") from None
            if snapshots is not None and (a.step + 1) % SNAPSHOT_EVERY == 0:
                snapshots[a.step + 1] = state
        return state

    def load(self, gid: str) -> Live:
        """The game as its log says now. One small query (the revision) when the cache is current."""
        if not isinstance(gid, str) or not (0 < len(gid) <= 32):
            raise not_found("no such game")
        revision = self.store.get_revision(gid)
        if revision is None:
            raise not_found(f"no game '{gid}'")
        live = self._cache.get(gid)
        if live is not None and live.revision == revision:
            self._touch(gid)
            return live
        lock = self._lock_for(gid)
        with lock:
            row = self.store.get_game(gid)  # read under the lock: others may have written meanwhile
            if row is None:
                raise not_found(f"no game '{gid}'")
            live = self._cache.get(gid)
            if live is not None and live.revision == row.revision:
                return live
            rs = self.rulesets().get(row.ruleset)
            if rs is None:
                raise WebError(409, f"game {gid} is played with ruleset '{row.ruleset}', "
                                    f"which this server does not have")
            if (live is not None and live.revision < row.revision and row.last_undo_revision <= live.revision
                    and live.next_step <= row.next_step):
                new_actions = self.store.actions(gid, from_step=live.next_step)
                snapshots = dict(live.snapshots)
                state = self._replay(row, rs, new_actions, live.state, snapshots)
                log = live.log + new_actions
            else:
                log = self.store.actions(gid)
                # after an undo (or another process's), the snapshots of the part of the log that is the same
                snapshots = self._kept_snapshots(live, log) if live is not None and live.ruleset is rs else {}
                start = max(snapshots, default=0)
                state = self._replay(row, rs, log[start:], snapshots.get(start), snapshots)
                snapshots = {k: st for k, st in snapshots.items() if k % SNAPSHOT_EVERY == 0}
            # the row and the actions were read apart: trust the pair only if they agree
            revision = row.revision if len(log) == row.next_step else -1
            # the narrated logs go on (narrated() checks that they still match the log)
            stories = live.stories if live is not None else {}
            live = Live(row, rs, state, revision, len(log), hidden_parts(state), lock, log, snapshots, stories)
            self._remember(live)
            return live

    @staticmethod
    def _kept_snapshots(old: Live, log: list[ActionRow]) -> dict[int, State]:
        """The snapshots of ``old`` that ``log`` still leads to (its actions agree up to them)."""
        same = 0
        for a, b in zip(old.log, log):
            if a.text != b.text:
                break
            same += 1
        return {k: st for k, st in dict(old.snapshots).items() if k <= same}

    def state_at(self, live: Live, step: int) -> State:
        """The state after ``step`` steps of the log, replayed from the nearest snapshot before it. The log
        of a game in memory was checked when it was committed or loaded, so its steps are applied unchecked."""
        snapshots = dict(live.snapshots)  # a copy: the game's thread may add one meanwhile
        start = max((k for k in snapshots if k <= step), default=None)
        rows = list(live.log[start or 0:step])
        if start is None:
            return self._replay(live.row, live.ruleset, rows)
        state = snapshots[start]
        parse = live.ruleset.parse_action
        for a in rows:
            state = state.apply_unchecked(parse(a.text))
        return state

    # ---- tokens ----------------------------------------------------------------------------------
    def authorize(self, gid: str, token: str | None) -> Actor:
        """Who holds ``token`` in game ``gid`` (404 no such game, 401 no token, 403 another token), from the
        game's row alone: nothing is replayed for a wrong token. Seats and tokens never change, so a cached
        game answers without the database."""
        if not isinstance(gid, str) or not (0 < len(gid) <= 32):
            raise not_found("no such game")
        live = self._cache.get(gid)
        row = live.row if live is not None else self.store.get_game(gid)
        if row is None:
            raise not_found(f"no game '{gid}'")
        return self.check_token(row, token)

    def actor(self, live: Live, token: str | None) -> Actor:
        return self.check_token(live.row, token)

    @staticmethod
    def check_token(row: GameRow, token: str | None) -> Actor:
        import secrets as _s
        if not token or not isinstance(token, str) or len(token) > 128:
            raise WebError(401, "a seat or spectator token is required (the part after # in your link)")
        if not token.isascii():  # tokens are URL-safe ASCII; other text (a lone surrogate) cannot be encoded
            raise WebError(403, "this token does not belong to this game")
        found: Actor | None = None
        for s in row.seats:
            if s.token is not None and _s.compare_digest(s.token.encode(), token.encode()):
                found = Actor(s.seat, s.name)
        if _s.compare_digest(row.spectator_token.encode(), token.encode()):
            found = Actor(None, "spectator")
        if found is None:
            raise WebError(403, "this token does not belong to this game")
        return found

    # ---- writes ----------------------------------------------------------------------------------
    def _commit(self, live: Live, action: Action, new: State) -> None:
        """Commit ``action`` (legal in ``live.state``) then move the cache forward. Raises Conflict."""
        before = live.state
        hidden_after = hidden_parts(new)
        hidden_from, barrier = action_visibility(before, action, new, live.hidden, hidden_after)
        text = live.ruleset.format_action(action)
        seat = before.to_move if before.to_move is not None else -2
        has_secrets = live.row.has_secrets or any(hidden_after.values()) or bool(hidden_from)
        res = new.result()
        revision = self.store.append_action(
            live.row.id, seen_revision=live.revision, step=live.next_step, seat=seat, text=text,
            hidden_from=hidden_from, barrier=barrier, to_move=new.to_move, has_secrets=has_secrets,
            result=_as_list(res), scores=_as_list(new.scores()) if res is not None else None)
        # readers without the lock trust the cache when its revision matches the database's: so the
        # revision is written last
        live.log.append(ActionRow(live.next_step, seat, text, hidden_from, barrier))
        live.state, live.hidden = new, hidden_after
        live.next_step += 1
        if live.next_step % SNAPSHOT_EVERY == 0:
            live.snapshots[live.next_step] = new
        live.row.has_secrets = has_secrets
        live.row.revision, live.row.next_step, live.row.to_move = revision, live.next_step, new.to_move
        live.row.updated_at = dt.datetime.now(dt.UTC)
        live.revision = revision
        for f in self.listeners:
            f(live.row.id, revision)
        if new.to_move is not None and new.to_move >= 0 and self._kind(live, new.to_move) != "human":
            self.on_server_turn(live.row.id)

    def lone_pass(self, live: Live) -> Action | None:
        """The ``pass`` the server answers for a person's seat whose only legal action it is, or None.

        Only when every other seat is a computer (docs/web.md, "Windows with one answer"): the pass is then
        committed like any answer (its log line, its step, the record are those of a chosen pass), and no
        seat that could read the speed of the answer plays against it. With another person in the game the
        seat is asked as before: an answer at once would tell that person that the seat's hidden card does
        not fit this window, where a pass after a pause tells nothing."""
        state = live.state
        seat = state.to_move
        if seat is None or not isinstance(seat, int) or seat < 0 or self._kind(live, seat) != "human":
            return None
        if any(s.kind in ("human", "record") for s in live.row.seats if s.seat != seat):
            return None
        acts = state.legal_actions()
        if len(acts) != 1 or live.ruleset.format_action(acts[0]) != "pass":
            return None
        return acts[0]

    def play(self, gid: str, token: str | None, text: Any, expect_step: int | None = None) -> Live:
        """A human seat's action in notation. Every refusal is a WebError and writes nothing."""
        who = self.authorize(gid, token)  # before anything is replayed
        live = self.load(gid)
        if not isinstance(text, str) or not text.strip():
            raise WebError(422, "the action must be non-empty text in the ruleset's notation")
        if len(text) > 500:
            raise WebError(422, "the action text is too long (500 characters at most)")
        with live.lock:
            live = self._cached(gid)  # just checked against the database; a stale one fails at commit
            state = live.state
            if who.seat is None:
                raise WebError(403, "spectators cannot act")
            if state.to_move is None:
                raise WebError(409, "the game is over")
            if expect_step is not None and expect_step != live.next_step:
                raise WebError(409, f"the game moved on: you answered step {expect_step}, "
                                    f"it is now at step {live.next_step}")
            if state.to_move != who.seat:
                raise WebError(409, f"it is not your turn: {self.seat_name(live, state.to_move)} is to move")
            try:
                action = live.ruleset.parse_action(text.strip())
                new = state.apply(action)
            except IllegalAction as e:
                raise WebError(422, str(e)) from None
            except ConquestError as e:
                raise WebError(422, f"'{text.strip()}' is not an action here: {e}") from None
            except Exception:  # a ruleset that trips over odd input: still the input's fault
                log.exception("%s could not read the action %r", live.ruleset.id, text)
                raise WebError(422, f"'{text.strip()}' is not an action here (the ruleset cannot read it)"
                               ) from None
            try:
                self._commit(live, action, new)
            except Conflict:
                self._forget(gid)
                raise WebError(409, "another action was accepted for this step first; yours was not "
                                    "played (reload to see the game as it is)") from None
            self.resolve_chance(gid)
            return self._cached(gid)

    def _cached(self, gid: str) -> Live:
        """The cached game without asking the database (for use under the game's lock, right after a
        load; the revision check of the commit catches any other writer)."""
        live = self._cache.get(gid)
        return live if live is not None else self.load(gid)

    def resolve_chance(self, gid: str) -> None:
        """Draw every pending chance outcome with the game's secret seeded generator and commit it; answer
        every lone ``pass`` the server answers for a person's seat (``lone_pass``) on the way, so the answer
        to an action already shows the game past them."""
        from conquest.analysis.runner import sample_chance
        for _ in range(10_000):
            with self._lock_for(gid):
                live = self._cached(gid)
                if live.state.to_move != CHANCE:
                    lone = self.lone_pass(live)
                    if lone is None:
                        return
                    try:
                        self._commit(live, lone, live.state.apply(lone))
                    except Conflict:
                        self._forget(gid)
                    continue
                rng = random.Random(f"{live.row.chance_seed}:chance:{live.revision}")
                outcome = sample_chance(live.state, rng)
                try:
                    self._commit(live, outcome, live.state.apply(outcome))
                except Conflict:  # someone else drew it: read theirs
                    self._forget(gid)

    def agent_rng(self, live: Live) -> random.Random:
        return random.Random(f"{live.row.chance_seed}:agent:{live.revision}")

    def commit_agent(self, gid: str, revision: int, action: Action) -> bool:
        """Commit an agent's choice made at ``revision``; False if the game moved meanwhile."""
        live = self.load(gid)
        with live.lock:
            live = self.load(gid)
            if live.revision != revision:
                return False
            try:
                new = live.state.apply(action)
                self._commit(live, action, new)
            except (Conflict, ConquestError):
                self._forget(gid)
                return False
        self.resolve_chance(gid)
        return True

    # ---- undo ------------------------------------------------------------------------------------
    def undoable(self, live: Live, seat: int | None) -> int:
        """How many of ``seat``'s last actions may be undone: its own, in its current turn, with no chance
        outcome and nothing hidden revealed since."""
        if seat is None or live.state.to_move != seat or live.next_step == 0:
            return 0
        n = 0
        for a in reversed(live.log[max(0, live.next_step - MAX_UNDO):live.next_step]):
            if a.seat != seat or a.barrier:
                break
            n += 1
        return n

    def undo(self, gid: str, token: str | None, count: Any = 1, expect_step: int | None = None) -> Live:
        who = self.authorize(gid, token)  # before anything is replayed
        live = self.load(gid)
        if not isinstance(count, int) or isinstance(count, bool) or count < 1:
            raise WebError(422, "count must be a whole number of actions, at least 1")
        with live.lock:
            live = self.load(gid)
            if who.seat is None:
                raise WebError(403, "spectators cannot undo")
            if expect_step is not None and expect_step != live.next_step:
                raise WebError(409, f"the game moved on: you asked at step {expect_step}, "
                                    f"it is now at step {live.next_step}")
            allowed = self.undoable(live, who.seat)
            if allowed == 0:
                raise WebError(409, "nothing to undo: only your own actions in your current turn, with no "
                                    "dice, draw or hidden information revealed since, can be taken back")
            if count > allowed:
                raise WebError(409, f"only your last {allowed} action(s) can be taken back")
            keep = live.next_step - count
            state = self.state_at(live, keep)  # the state before the undone actions
            live.snapshots[keep] = state  # where load() below starts (it keeps only the regular ones)
            try:
                revision = self.store.truncate(gid, seen_revision=live.revision, keep_steps=keep,
                                               to_move=state.to_move)
            except Conflict:
                self._forget(gid)
                raise WebError(409, "the game changed while undoing; nothing was undone") from None
            # the cache is now older than the database: load() replays the kept part from its snapshots
            for f in self.listeners:
                f(gid, revision)
            live = self.load(gid)
            if live.state.to_move is not None and (self._kind(live, live.state.to_move) not in ("human", None)
                                                   or self.lone_pass(live) is not None):
                self.on_server_turn(gid)
            return live

    # ---- reading ---------------------------------------------------------------------------------
    def seat_name(self, live: Live, seat: int | None) -> str:
        if seat is None:
            return "nobody"
        if seat == CHANCE:
            return "chance"
        for s in live.row.seats:
            if s.seat == seat:
                return s.name
        return seat_label(seat)

    def log_for(self, live: Live, seat: int | None, upto: int | None = None) -> list[dict[str, Any]]:
        """The log as ``seat`` may read it: each entry's narrated line (``text``, ``kind``, ``dice``, ``group``,
        ``changed``...) told from the seat's views, and the notation (``None`` where it is hidden)."""
        out = []
        lines = self.narrated(live, seat)
        for a in list(live.log[:upto]):
            hidden = seat in a.hidden_from
            said = lines[a.step] if a.step < len(lines) else {}
            out.append({**said, "step": a.step, "seat": a.seat if a.seat >= 0 else None,
                        "by": "chance" if a.seat == CHANCE else self.seat_name(live, a.seat),
                        "chance": a.seat == CHANCE, "hidden": hidden,
                        "notation": None if hidden else a.text,
                        "text": said.get("text") or (None if hidden else a.text)})
        return out

    def narrated(self, live: Live, seat: int | None) -> list[dict[str, Any]]:
        """The log told to ``seat``, one line per step. Kept per game and seat with the state and view it
        reached: a new step is narrated from there (one ``apply`` and one ``view``); a log that no longer
        starts with the narrated steps (an undo) is narrated again from the start."""
        stories = live.stories
        with live.lock:
            key = seat
            story = stories.get(key)
            log = list(live.log)
            texts = [a.text for a in log]
            if story is not None and texts[:len(story.texts)] != story.texts:  # an undo: back to the common part
                common = next((i for i, (x, y) in enumerate(zip(texts, story.texts)) if x != y),
                              min(len(texts), len(story.texts)))
                story.back_to(common)
            if story is None or texts[:len(story.texts)] != story.texts:
                begin = max((k for k in live.snapshots if k <= max(0, len(log) - NARRATE_WINDOW)), default=0)
                start = live.snapshots.get(begin) if begin else None
                if start is None:
                    begin, start = 0, live.ruleset.new_game(live.row.players, live.ruleset.options().saved(
                        live.row.options), live.row.seed)
                # the steps before the window keep their notation (log_for falls back to it)
                story = stories[key] = Story(texts[:begin], [{} for _ in range(begin)], [(start, start.view(seat))])
            names = [self.seat_name(live, s) for s in range(live.row.players)]
            for a in log[len(story.texts):]:
                action = live.ruleset.parse_action(a.text)
                state0, view0 = story.recent[-1]
                state = state0.apply_unchecked(action)  # the log holds only actions that were checked
                view = state.view(seat)
                story.lines.append(narrate_step(live.ruleset, {seat: view0}, action, {seat: view},
                                                a.hidden_from, names)[seat])
                story.texts.append(a.text)
                story.recent = story.recent[-MAX_UNDO:] + [(state, view)]
            return story.lines

    def record(self, live: Live, who: Actor) -> dict[str, Any]:
        """The ``conquest-record/1`` of the game. While the game is on, only if it never had secrets (the
        record holds every action and the set-up seed)."""
        if live.state.to_move is not None and live.row.has_secrets:
            raise WebError(409, "this game has hidden information: its record is available when it is over")
        acts = live.log[:live.next_step]
        res = live.state.result()
        rec = Record(ruleset=live.ruleset.id, rules_version=live.row.rules_version or live.ruleset.rules_version,
                     players=live.row.players, options=dict(live.row.options),
                     seats=[s.name if s.kind == "human" else s.kind for s in live.row.seats],
                     seed=live.row.seed, actions=[a.text for a in acts], result=_as_list(res),
                     scores=_as_list(live.state.scores()) if res is not None else None)
        doc = rec.to_json()
        assert doc["format"] == RECORD_FORMAT
        return doc

    def summary(self, live: Live) -> dict[str, Any]:
        row, state = live.row, live.state
        extra: dict[str, Any] = {}
        for f in self.summary_extras:
            extra.update(f(live))
        return {
            "id": row.id, "ruleset": row.ruleset, "title": live.ruleset.title, "players": row.players,
            "options": row.options, "variant": variant_label(row.options), "seed": row.seed,
            "seed_chosen": row.seed_chosen,
            "seats": [{"seat": s.seat, "name": s.name, "kind": s.kind} for s in row.seats],
            "step": live.next_step, "revision": live.revision,
            "to_move": state.to_move if state.to_move is None or state.to_move >= 0 else "chance",
            "to_move_name": self.seat_name(live, state.to_move),
            "to_move_kind": self._kind(live, state.to_move),
            "over": state.to_move is None,
            "result": _as_list(state.result()),
            "scores": _as_list(state.scores()) if state.to_move is None else None,
            "has_secrets": row.has_secrets,
            "created_at": row.created_at.isoformat() if row.created_at else None,
            "updated_at": row.updated_at.isoformat() if row.updated_at else None,
            **extra,
        }

    def _kind(self, live: Live, seat: int | None) -> str | None:
        if seat is None:
            return None
        if seat == CHANCE:
            return "chance"
        for s in live.row.seats:
            if s.seat == seat:
                return s.kind
        return None

    def seat_row(self, live: Live, seat: int) -> SeatRow | None:
        for s in live.row.seats:
            if s.seat == seat:
                return s
        return None


# ---- the story: the log told to each seat -----------------------------------------------------------

@dataclass
class Story:
    """The narrated log of one game for one seat: the notations narrated, their lines, and the states (with
    the seat's views) of the last steps, so that an undo goes back without narrating from the start."""
    texts: list[str]
    lines: list[dict[str, Any]]
    recent: list[tuple[State, dict[str, Any]]]  # after the last len(recent) - 1 steps, the last one last

    def back_to(self, steps: int) -> None:
        """Forget the steps after the first ``steps`` when the states kept reach back that far (else leave
        the story as it is: it is narrated again from the start)."""
        drop = len(self.texts) - steps
        if 0 < drop < len(self.recent):
            del self.texts[steps:], self.lines[steps:], self.recent[len(self.recent) - drop:]


def narrate_step(ruleset: Ruleset, before: dict[int | None, dict[str, Any]], action: Action,
                 after: dict[int | None, dict[str, Any]], hidden_from: list[int | None],
                 names: list[str]) -> dict[int | None, dict[str, Any]]:
    """The log line of one action for each viewer given, told from that viewer's views only (the action
    itself is withheld from the viewers it is hidden from). A ruleset whose narration fails gets the
    default line, never a broken log."""
    out: dict[int | None, dict[str, Any]] = {}
    for s in before:
        act = None if s in hidden_from else action
        try:
            out[s] = ruleset.narrate(before[s], act, after[s], s, names)
        except Exception:  # a log line must not break the game
            log.exception("%s could not narrate %r for seat %s", ruleset.id, action, s)
            out[s] = Ruleset.narrate(ruleset, before[s], act, after[s], s, names)
    return out
