"""The pace of a game: live (played at one sitting, as before) or turn-based, with a move deadline per turn.

A turn-based game keeps, in the table ``game_pace``, its deadline per turn (seconds), what the table chose to
happen at a deadline (``computer``: a computer plays that turn at the chosen level; ``drop``: the seat is
dropped and the game goes on as its rules allow), and the turn under way: the seat whose turn it is and its
deadline (an instant, stored: a restarted server finds it).

A *turn* begins when a person's seat becomes the seat to move after another seat (chance steps in between do
not end a turn). ``Pace.track`` runs after every write to a game (``Games.listeners``): when a turn begins it
moves the game's turn and deadline forward with one ``UPDATE ... WHERE turn_seat IS DISTINCT FROM :seat``, so
of several writers and processes exactly one sees the new turn, and that one tells the player (an e-mail,
``conquest.web.notify``).

The deadline checker (``Pace.run``, an asyncio task of every server process) looks every ``check_seconds`` for
turns past their deadline. It claims one by moving its deadline ``claim_seconds`` on (``UPDATE ... WHERE
deadline_at = :seen``: one process wins), then plays the turn out in a thread: the level's agent decides each
decision of the seat until another seat is to move; or, for ``drop``, the ruleset's own way to leave the game
is played for the seat. A process killed while doing so leaves the claim to expire: another process (or
itself, restarted) plays on from where the log is.

Dropping a seat is a rule of the game, not of the server: a ruleset offers it with a method
``drop_action(state, seat) -> Action | None`` (the action by which the seat to move leaves the game, in its
notation and log like any other). A ruleset without one cannot drop a seat: the server says so and offers only
the computer (none of Kingdom, Narby, Small World and Nerath has a rule for a player who leaves).

All instants are UTC, stored without a zone (the same on SQLite and PostgreSQL). The clock is a parameter: the
tests move a fake one.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import logging
import random
import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Literal, Protocol, runtime_checkable

from sqlalchemy import Column, DateTime, ForeignKey, Integer, String, Table, insert, select, update

from conquest.core.game import Ruleset, State
from conquest.core.kinds import CHANCE, Action
from conquest.web.games import Games, Live, WebError
from conquest.web.notify import EmailOf, Mailer, turn_mail
from conquest.web.seats import SeatKinds
from conquest.web.storage import Store, games_table, metadata, seats_table

log = logging.getLogger("conquest.web")

Mode = Literal["live", "turn"]
AtDeadline = Literal["computer", "drop"]
DEFAULT_DEADLINE = 24 * 3600
MIN_DEADLINE = 60
MAX_DEADLINE = 30 * 24 * 3600
CHECK_SECONDS = 15.0  # how often each server process looks for turns past their deadline
CLAIM_SECONDS = 300  # a claimed turn is another process's to play after this long (its player died)
MAX_DECISIONS = 2000  # the most decisions the server plays for one seat's turn at its deadline

game_pace_table = Table(
    "game_pace", metadata,
    Column("game_id", String(32), ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
    Column("mode", String(8), nullable=False),                # live | turn
    Column("deadline_seconds", Integer, nullable=True),       # per turn (turn-based only)
    Column("at_deadline", String(16), nullable=True),         # computer | drop
    Column("level", String(32), nullable=True),               # the computer's level at a deadline
    Column("turn_seat", Integer, nullable=True),              # the seat whose turn is under way
    Column("turn_step", Integer, nullable=True),              # the step at which it began
    Column("deadline_at", DateTime(), nullable=True),         # UTC, no zone; None: no deadline running
    Column("missed", Integer, nullable=False, default=0),     # turns played or dropped at their deadline
)


@runtime_checkable
class DropsSeats(Protocol):
    """A ruleset whose rules let a seat leave the game: the action that does it for the seat to move."""

    def drop_action(self, state: State, seat: int) -> Action | None: ...


def can_drop(rs: Ruleset) -> bool:
    return isinstance(rs, DropsSeats)


@dataclass(frozen=True)
class PaceSettings:
    mode: Mode = "live"
    deadline_seconds: int | None = None
    at_deadline: AtDeadline | None = None
    level: str | None = None

    def to_json(self) -> dict[str, Any]:
        return {"mode": self.mode, "deadline_seconds": self.deadline_seconds, "at_deadline": self.at_deadline,
                "level": self.level}


LIVE = PaceSettings()


def utcnow() -> dt.datetime:
    return dt.datetime.now(dt.UTC).replace(tzinfo=None)


def _iso(t: dt.datetime | None) -> str | None:
    return t.replace(tzinfo=dt.UTC).isoformat().replace("+00:00", "Z") if t is not None else None


def choose(mode: str, deadline_seconds: int | None, at_deadline: str | None, level: str | None,
           rs: Ruleset, kinds: SeatKinds) -> PaceSettings:
    """The pace a game is created with, from the request's fields (422 with a clear reason otherwise)."""
    if mode == "live":
        if deadline_seconds is not None or at_deadline is not None or level is not None:
            raise WebError(422, "pace: a live game has no deadline (deadline_seconds, at_deadline and level are "
                                "for mode 'turn')")
        return LIVE
    if mode != "turn":
        raise WebError(422, "pace.mode: 'live' or 'turn'")
    seconds = DEFAULT_DEADLINE if deadline_seconds is None else deadline_seconds
    if not MIN_DEADLINE <= seconds <= MAX_DEADLINE:
        raise WebError(422, f"pace.deadline_seconds: from {MIN_DEADLINE} (a minute) to {MAX_DEADLINE} (30 days)")
    what = at_deadline or "computer"
    if what == "drop":
        if not can_drop(rs):
            raise WebError(422, f"pace.at_deadline: {rs.title} cannot drop a seat (its rules have no way for a "
                                f"player to leave the game): choose 'computer'")
        if level is not None:
            raise WebError(422, "pace.level: only for at_deadline 'computer'")
        return PaceSettings("turn", seconds, "drop", None)
    if what != "computer":
        raise WebError(422, "pace.at_deadline: 'computer' or 'drop'")
    lv = level or ("normal" if "normal" in kinds.levels else kinds.levels[0])
    if lv not in kinds.levels:
        raise WebError(422, f"pace.level: one of {', '.join(kinds.levels)}")
    return PaceSettings("turn", seconds, "computer", lv)


class Pace:
    """The paces of games, their turns and deadlines, and the turn mails (see the module's docstring)."""

    def __init__(self, store: Store, games: Games, kinds: SeatKinds, *, clock: Callable[[], dt.datetime] = utcnow,
                 mailer: Mailer | None = None, email_of: EmailOf | None = None, public_url: str | None = None,
                 check_seconds: float = CHECK_SECONDS, claim_seconds: int = CLAIM_SECONDS) -> None:
        self.store, self.games, self.kinds, self.clock = store, games, kinds, clock
        self.mailer, self.email_of = mailer, email_of
        self.public_url = public_url.rstrip("/") if public_url else None
        self.check_seconds, self.claim_seconds = check_seconds, claim_seconds
        self._settings: dict[str, PaceSettings] = {}
        self._lock = threading.Lock()
        self.stopped = threading.Event()
        self.expired = 0  # turns this process played or dropped at a deadline (for tests)

    # ---- settings --------------------------------------------------------------------------------
    def save(self, gid: str, settings: PaceSettings) -> None:
        """Store a new game's pace (a live game stores nothing) and start its first turn's deadline."""
        if settings.mode == "live":
            return
        with self.store._write_lock, self.store.engine.begin() as conn:
            conn.execute(insert(game_pace_table).values(
                game_id=gid, mode=settings.mode, deadline_seconds=settings.deadline_seconds,
                at_deadline=settings.at_deadline, level=settings.level, missed=0))
        with self._lock:
            self._settings[gid] = settings
        self.track(gid)

    def settings(self, gid: str) -> PaceSettings:
        with self._lock:
            s = self._settings.get(gid)
        if s is not None:
            return s
        with self.store.engine.connect() as conn:
            row = conn.execute(select(game_pace_table).where(game_pace_table.c.game_id == gid)).mappings().first()
        s = LIVE if row is None else PaceSettings(row["mode"], row["deadline_seconds"], row["at_deadline"],
                                                  row["level"])
        with self._lock:
            if len(self._settings) > 100_000:
                self._settings.clear()
            self._settings[gid] = s
        return s

    def info(self, live: Live) -> dict[str, Any]:
        """What a game's summary says of its pace (``pace``): the settings, and for a turn-based game the
        seat whose turn is under way and its deadline (ISO 8601, UTC)."""
        s = self.settings(live.row.id)
        out: dict[str, Any] = s.to_json()
        if s.mode == "turn":
            with self.store.engine.connect() as conn:
                row = conn.execute(select(game_pace_table.c.turn_seat, game_pace_table.c.deadline_at,
                                          game_pace_table.c.missed)
                                   .where(game_pace_table.c.game_id == live.row.id)).first()
            if row is not None:
                out.update(turn_seat=row[0], deadline_at=_iso(row[1]) if live.state.to_move is not None else None,
                           missed=row[2])
        return {"pace": out}

    # ---- turns -----------------------------------------------------------------------------------
    def track(self, gid: str, _revision: int | None = None) -> None:
        """After a write to ``gid``: when a person's seat has begun a turn, set its deadline and tell them. Called
        by the writer after its commit: a failure here is logged, never the move's (it is committed)."""
        try:
            self._track(gid)
        except Exception:
            log.exception("the turn of game %s could not be tracked", gid)

    def _track(self, gid: str) -> None:
        s = self.settings(gid)
        if s.mode != "turn" or s.deadline_seconds is None:
            return
        now = self.clock()
        pace = game_pace_table
        with self.store.engine.connect() as conn:
            g = conn.execute(select(games_table.c.to_move, games_table.c.next_step)
                             .where(games_table.c.id == gid)).first()
            if g is None:
                return
            to_move, step = g[0], g[1]
            if to_move == CHANCE:
                return  # a draw within a turn does not end it
            kind = None if to_move is None else conn.execute(
                select(seats_table.c.kind).where(seats_table.c.game_id == gid, seats_table.c.seat == to_move)).scalar()
        deadline = now + dt.timedelta(seconds=s.deadline_seconds)
        # the UPDATEs are guarded: of writers that saw the same new turn, one moves it (and tells the player)
        with self.store._write_lock, self.store.engine.begin() as conn:
            if to_move is None:  # over
                conn.execute(update(pace).where(pace.c.game_id == gid, pace.c.deadline_at.is_not(None))
                             .values(turn_seat=None, deadline_at=None))
                return
            if kind != "human":  # the server plays it: no deadline
                conn.execute(update(pace).where(pace.c.game_id == gid, pace.c.turn_seat.is_distinct_from(to_move))
                             .values(turn_seat=to_move, turn_step=step, deadline_at=None))
                return
            res = conn.execute(update(pace).where(pace.c.game_id == gid, pace.c.turn_seat.is_distinct_from(to_move))
                               .values(turn_seat=to_move, turn_step=step, deadline_at=deadline))
            began = res.rowcount == 1
        if began:
            self.tell(gid, int(to_move), deadline)

    def tell(self, gid: str, seat: int, deadline: dt.datetime | None) -> None:
        """Mail the player of ``seat`` that it is their turn (when there is a mailer and an address)."""
        if self.mailer is None or self.email_of is None:
            return
        row = self.store.get_game(gid)
        if row is None:
            return
        try:
            to = self.email_of(row, seat)
        except Exception:  # an address book that fails must not break a move
            log.exception("looking up the e-mail of seat %s of game %s failed", seat, gid)
            return
        if not to:
            return
        if self.public_url is None:
            log.warning("no public URL (--public-url): the turn mail of game %s is not sent", gid)
            return
        seat_row = next((x for x in row.seats if x.seat == seat), None)
        if seat_row is None or seat_row.token is None:
            return
        rs = self.games.rulesets().get(row.ruleset)
        title = rs.title if rs is not None else row.ruleset
        when = deadline.strftime("%Y-%m-%d %H:%M UTC") if deadline is not None else None
        subject, body = turn_mail(title, gid, seat_row.name, f"{self.public_url}/game/{gid}#t={seat_row.token}", when)
        self.mailer.send(to, subject, body)

    # ---- deadlines -------------------------------------------------------------------------------
    def due(self, now: dt.datetime | None = None) -> list[tuple[str, int, dt.datetime]]:
        """The turns past their deadline: (game, seat, deadline)."""
        now = now or self.clock()
        pace = game_pace_table
        with self.store.engine.connect() as conn:
            rows = conn.execute(select(pace.c.game_id, pace.c.turn_seat, pace.c.deadline_at)
                                .where(pace.c.mode == "turn", pace.c.deadline_at.is_not(None),
                                       pace.c.deadline_at <= now).order_by(pace.c.deadline_at).limit(100)).all()
        return [(r[0], int(r[1]), r[2]) for r in rows if r[1] is not None]

    def claim(self, gid: str, seat: int, seen: dt.datetime) -> bool:
        """Take the expired turn for this process (False: another process took it, or the turn moved on)."""
        pace = game_pace_table
        with self.store._write_lock, self.store.engine.begin() as conn:
            res = conn.execute(update(pace).where(pace.c.game_id == gid, pace.c.turn_seat == seat,
                                                  pace.c.deadline_at == seen)
                               .values(deadline_at=self.clock() + dt.timedelta(seconds=self.claim_seconds),
                                       missed=pace.c.missed + 1))
            return bool(res.rowcount == 1)

    def expire(self, gid: str, seat: int) -> int:
        """Play out ``seat``'s turn as the table chose (its claim taken); returns the decisions played."""
        s = self.settings(gid)
        played = 0
        agent = None
        budget = None
        rng = random.Random()
        for _ in range(MAX_DECISIONS):
            if self.stopped.is_set():
                break
            try:
                live = self.games.load(gid)
            except WebError:
                break
            state = live.state
            if state.to_move == CHANCE:
                self.games.resolve_chance(gid)
                continue
            if state.to_move != seat:
                break
            rng = self.games.agent_rng(live)
            action: Action | None = None
            if s.at_deadline == "drop" and isinstance(live.ruleset, DropsSeats):
                action = live.ruleset.drop_action(state, seat)
            if action is None:
                from conquest.agents.budget import TurnBudget, decide_within
                kind = self.kinds.get(s.level or "easy") or self.kinds.get("easy")
                if kind is None:
                    break
                if agent is None or budget is None:
                    agent, budget = kind.make(), TurnBudget(kind.decision, kind.turn)
                try:
                    action = decide_within(agent, state, rng, budget)
                except Exception:  # a failing agent must not leave the turn stuck
                    log.exception("game %s: the computer could not play seat %s's turn at its deadline", gid, seat)
                    acts = list(state.legal_actions())
                    action = acts[rng.randrange(len(acts))]
            if self.games.commit_agent(gid, live.revision, action):
                played += 1
        with self._lock:
            self.expired += 1
        log.info("game %s: seat %s's turn reached its deadline; %d decision(s) played (%s)", gid, seat, played,
                 s.at_deadline)
        return played

    def check(self, now: dt.datetime | None = None) -> list[str]:
        """One look at the deadlines: every expired turn this process claims is played out (in this thread).
        Returns the games whose turn was played."""
        done = []
        for gid, seat, seen in self.due(now):
            if self.stopped.is_set():
                break
            if self.claim(gid, seat, seen):
                self.expire(gid, seat)
                done.append(gid)
        return done

    async def run(self) -> None:
        """The deadline checker of this process (an asyncio task until cancelled)."""
        while True:
            await asyncio.sleep(self.check_seconds)
            try:
                await asyncio.to_thread(self.check)
            except Exception:
                log.exception("the deadline check failed")

    def stop(self) -> None:
        self.stopped.set()
