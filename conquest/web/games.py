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
from dataclasses import dataclass
from typing import Any, Callable, Iterator

from conquest.core.errors import ConquestError, IllegalAction
from conquest.core.game import CHANCE, Action, Ruleset, State, seat_label
from conquest.core.jsondoc import hidden_part
from conquest.core.records import RECORD_FORMAT, Record
from conquest.web.storage import ActionRow, Conflict, GameRow, SeatRow, Store

log = logging.getLogger("conquest.web")
MAX_ALTERNATIVES = 64
SEARCH_BUDGET = 0.05  # seconds per action for the visibility search
MAX_UNDO = 50


class WebError(Exception):
    """A refusal with an HTTP status and a one-line reason."""

    def __init__(self, status: int, reason: str) -> None:
        super().__init__(reason)
        self.status = status
        self.reason = reason


def not_found(what: str) -> WebError:
    return WebError(404, what)


# ---- what a seat cannot see -----------------------------------------------------------------------

def viewers(players: int) -> list[int | None]:
    return list(range(players)) + [None]


def hidden_parts(state: State) -> dict[int | None, frozenset[tuple[Any, ...]]]:
    full = state.to_json()
    return {s: hidden_part(full, state.view(s)) for s in viewers(state.players)}


def _alternatives(before: State, action: Action) -> list[Action]:
    if before.to_move == CHANCE:
        alts = [a for a, _p in before.chance_outcomes() if a != action]
    else:
        alts = [a for a in before.legal_actions() if a != action]
    if len(alts) > MAX_ALTERNATIVES:  # spread evenly rather than the first ones
        stride = len(alts) / MAX_ALTERNATIVES
        alts = [alts[int(i * stride)] for i in range(MAX_ALTERNATIVES)]
    return alts


def action_visibility(before: State, action: Action, after: State,
                      hidden_before: dict[int | None, frozenset[Any]],
                      hidden_after: dict[int | None, frozenset[Any]],
                      budget: float = SEARCH_BUDGET) -> tuple[list[int | None], bool]:
    """(seats the action is hidden from, whether it is an undo barrier).

    A ruleset may answer for itself with ``log_visible(before, action, after, seat) -> bool | None``
    (``None``: let the server search). The search stops after ``budget`` seconds; the seats still
    undecided then are counted as not seeing the action (a hidden entry is safe, a leak is not)."""
    actor = before.to_move
    barrier = actor == CHANCE or any(hidden_before[s] != hidden_after[s] for s in hidden_before)
    hidden_from: list[int | None] = []
    to_check = [s for s in viewers(before.players)
                if s != actor and (hidden_before[s] or hidden_after[s])]
    hook = getattr(before.ruleset, "log_visible", None)
    if hook is not None and to_check:
        undecided_by_hook = []
        for s in to_check:
            answer = hook(before, action, after, s)
            if answer is None:
                undecided_by_hook.append(s)
            elif not answer:
                hidden_from.append(s)
        to_check = undecided_by_hook
    if to_check:
        deadline = time.perf_counter() + budget
        mine = {s: after.view(s) for s in to_check}
        full = after.to_json()
        undecided = set(to_check)
        for alt in _alternatives(before, action):
            if not undecided:
                break
            if time.perf_counter() > deadline:
                log.info("%s: visibility search of '%s' over budget; hidden from %s",
                         before.ruleset.id, before.ruleset.format_action(action), sorted(map(str, undecided)))
                hidden_from.extend(undecided)
                break
            try:
                other = before.apply_unchecked(alt)
            except Exception:  # an alternative the ruleset cannot apply unchecked: no information
                continue
            other_full: Any = None
            for s in list(undecided):
                if other.view(s) == mine[s]:
                    if other_full is None:
                        other_full = other.to_json()
                    if other_full == full:
                        break  # not even the referee's state tells them apart (a die the state does not keep)
                    hidden_from.append(s)
                    undecided.discard(s)
    return sorted(hidden_from, key=lambda s: -1 if s is None else s), barrier


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
    def __init__(self, store: Store, rulesets: Callable[[], dict[str, Ruleset]]) -> None:
        self.store = store
        self._rulesets = rulesets
        self._cache: dict[str, Live] = {}
        self._cache_lock = threading.Lock()
        self._game_locks: dict[str, threading.RLock] = {}
        self.listeners: list[Callable[[str, int], None]] = []  # (game, revision) after every write
        self.on_server_turn: Callable[[str], None] = lambda gid: None  # an agent seat is to move

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
            state = rs.new_game(n, options, seed)
        except ConquestError as e:
            raise WebError(422, str(e)) from None
        except (ValueError, TypeError, KeyError) as e:  # options a ruleset did not expect
            log.exception("%s could not start a game with %r", rs.id, options)
            raise WebError(422, f"{rs.id} cannot start a game with these settings: {e}") from None
        if not seats:
            seats = [("human", name) for name in rs.seat_names(n, state.options)]
        hidden = hidden_parts(state)
        row = self.store.create_game(ruleset=rs.id, rules_version=rs.rules_version, players=n,
                                     options=dict(state.options), seed=seed, seed_chosen=seed_chosen,
                                     seats=seats, to_move=state.to_move,
                                     has_secrets=any(hidden.values()))
        live = Live(row, rs, state, 0, 0, hidden, self._lock_for(row.id), [])
        with self._cache_lock:
            self._cache[row.id] = live
        return row

    def import_record(self, doc: Any) -> GameRow:
        """A finished (or unfinished) game from its ``conquest-record/1`` document, for watching and
        replaying: its seats are played by nobody (kind ``record``)."""
        try:
            rec = Record.from_json(doc)
        except ConquestError as e:
            raise WebError(422, f"not a record: {e}") from None
        rs = self.ruleset(rec.ruleset)
        if rec.rules_version and rec.rules_version != rs.rules_version:
            raise WebError(422, f"the record is for {rs.id} rules {rec.rules_version}; this server plays "
                                f"{rs.rules_version}")
        if len(rec.actions) > 100_000:
            raise WebError(422, "the record is too long (100000 actions at most)")
        try:
            state = rs.new_game(rec.players, rec.options, rec.seed)
        except ConquestError as e:
            raise WebError(422, f"the record's settings: {e}") from None
        if len(rec.seats) != state.players:
            raise WebError(422, f"the record names {len(rec.seats)} seats for {state.players} players")
        hidden = hidden_parts(state)
        has_secrets = any(hidden.values())
        rows: list[ActionRow] = []
        for i, text in enumerate(rec.actions):
            try:
                action = rs.parse_action(text)
                new = state.apply(action)
            except ConquestError as e:
                raise WebError(422, f"the record's step {i + 1} ('{text}'): {e}") from None
            hidden_after = hidden_parts(new)
            hidden_from, barrier = action_visibility(state, action, new, hidden, hidden_after)
            seat = state.to_move if state.to_move is not None else -1
            rows.append(ActionRow(i, seat, rs.format_action(action), hidden_from, barrier))
            has_secrets = has_secrets or bool(hidden_from) or any(hidden_after.values())
            state, hidden = new, hidden_after
        res = state.result()
        names = [clean(n)[:40] or f"Player {k + 1}" for k, n in enumerate(rec.seats)]
        row = self.store.create_game(ruleset=rs.id, rules_version=rs.rules_version, players=state.players,
                                     options=dict(state.options), seed=rec.seed, seed_chosen=True,
                                     seats=[("record", n) for n in names], to_move=state.to_move,
                                     has_secrets=has_secrets, actions=rows, result=_as_list(res),
                                     scores=_as_list(state.scores()) if res is not None else None)
        return row

    # ---- loading (replay of the log, cached) -----------------------------------------------------
    def _lock_for(self, gid: str) -> threading.RLock:
        with self._cache_lock:
            lk = self._game_locks.get(gid)
            if lk is None:
                lk = self._game_locks[gid] = threading.RLock()
            return lk

    def _replay(self, row: GameRow, rs: Ruleset, actions: list[ActionRow], state: State | None = None
                ) -> State:
        if state is None:
            state = rs.new_game(row.players, row.options, row.seed)
        for a in actions:
            try:
                state = state.apply(a.text)
            except ConquestError as e:
                raise WebError(409, f"game {row.id} cannot be replayed by {rs.id} {rs.rules_version} "
                                    f"at step {a.step + 1} ('{a.text}'): {e}") from None
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
                state = self._replay(row, rs, new_actions, live.state)
                log = live.log + new_actions
            else:
                log = self.store.actions(gid)
                state = self._replay(row, rs, log)
            # the row and the actions were read apart: trust the pair only if they agree
            revision = row.revision if len(log) == row.next_step else -1
            live = Live(row, rs, state, revision, len(log), hidden_parts(state), lock, log)
            with self._cache_lock:
                self._cache[gid] = live
            return live

    def states(self, live: Live, upto: int) -> Iterator[tuple[State, ActionRow | None]]:
        """Replay from the start: yields (state before step i, action i) ... and (final, None)."""
        rs, row = live.ruleset, live.row
        state = rs.new_game(row.players, row.options, row.seed)
        for a in list(live.log[:upto]):
            yield state, a
            state = state.apply(a.text)
        yield state, None

    # ---- tokens ----------------------------------------------------------------------------------
    def actor(self, live: Live, token: str | None) -> Actor:
        import secrets as _s
        if not token or not isinstance(token, str) or len(token) > 128:
            raise WebError(401, "a seat or spectator token is required (the part after # in your link)")
        found: Actor | None = None
        for s in live.row.seats:
            if s.token is not None and _s.compare_digest(s.token.encode(), token.encode()):
                found = Actor(s.seat, s.name)
        if _s.compare_digest(live.row.spectator_token.encode(), token.encode()):
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
        live.row.has_secrets = has_secrets
        live.row.revision, live.row.next_step, live.row.to_move = revision, live.next_step, new.to_move
        live.row.updated_at = dt.datetime.now(dt.timezone.utc)
        live.revision = revision
        for f in self.listeners:
            f(live.row.id, revision)
        if new.to_move is not None and new.to_move >= 0 and self._kind(live, new.to_move) != "human":
            self.on_server_turn(live.row.id)

    def play(self, gid: str, token: str | None, text: Any, expect_step: int | None = None) -> Live:
        """A human seat's action in notation. Every refusal is a WebError and writes nothing."""
        live = self.load(gid)
        who = self.actor(live, token)
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
            except Exception:  # noqa: BLE001 - a ruleset that trips over odd input: still the input's fault
                log.exception("%s could not read the action %r", live.ruleset.id, text)
                raise WebError(422, f"'{text.strip()}' is not an action here (the ruleset cannot read it)"
                               ) from None
            try:
                self._commit(live, action, new)
            except Conflict:
                self._cache.pop(gid, None)
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
        """Draw every pending chance outcome with the game's secret seeded generator and commit it."""
        from conquest.analysis.runner import sample_chance
        for _ in range(10_000):
            with self._lock_for(gid):
                live = self._cached(gid)
                if live.state.to_move != CHANCE:
                    return
                rng = random.Random(f"{live.row.chance_seed}:chance:{live.revision}")
                outcome = sample_chance(live.state, rng)
                try:
                    self._commit(live, outcome, live.state.apply(outcome))
                except Conflict:  # someone else drew it: read theirs
                    self._cache.pop(gid, None)

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
                self._cache.pop(gid, None)
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
        live = self.load(gid)
        who = self.actor(live, token)
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
            state = live.state  # the state before the undone actions: replay the kept part
            row = live.row
            state = self._replay(row, live.ruleset, live.log[:keep])
            try:
                revision = self.store.truncate(gid, seen_revision=live.revision, keep_steps=keep,
                                               to_move=state.to_move)
            except Conflict:
                self._cache.pop(gid, None)
                raise WebError(409, "the game changed while undoing; nothing was undone") from None
            self._cache.pop(gid, None)
            for f in self.listeners:
                f(gid, revision)
            live = self.load(gid)
            if live.state.to_move is not None and self._kind(live, live.state.to_move) not in ("human", None):
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
        out = []
        for a in list(live.log[:upto]):
            hidden = seat in a.hidden_from
            out.append({"step": a.step, "seat": a.seat if a.seat >= 0 else None,
                        "by": "chance" if a.seat == CHANCE else self.seat_name(live, a.seat),
                        "chance": a.seat == CHANCE, "hidden": hidden,
                        "text": None if hidden else a.text})
        return out

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
        return {
            "id": row.id, "ruleset": row.ruleset, "title": live.ruleset.title, "players": row.players,
            "options": row.options, "seed": row.seed, "seed_chosen": row.seed_chosen,
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
