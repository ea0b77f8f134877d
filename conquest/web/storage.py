"""Games stored as an event log (SQLAlchemy Core; SQLite by default, PostgreSQL through the same code).

A game is its ruleset, options, seats, setup seed and its ordered actions in notation (chance outcomes
included, marked with seat -1). Nothing else is needed to rebuild it: a restarted server replays the log.

Concurrency: every write is one transaction that first moves the game's ``revision`` forward with
``UPDATE ... WHERE revision = :seen`` (optimistic concurrency: of two writers that saw the same revision,
exactly one updates a row, the other gets ``Conflict``), then inserts or deletes the actions. The primary
key (game_id, step) is the second guard: two rows for one step cannot both exist. A write returns only
after its commit, so an acknowledged action survives ``kill -9``.

Schema versions: ``create_all`` makes missing tables and the table ``conquest_schema`` holds the version
number; ``_MIGRATIONS`` maps an old version to the statements that bring it one step forward.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import os
import secrets
import threading
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    Column,
    DateTime,
    ForeignKey,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    create_engine,
    delete,
    event,
    insert,
    select,
    update,
)
from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError, OperationalError
from sqlalchemy.pool import StaticPool

SCHEMA_VERSION = 1
_MIGRATIONS: dict[int, list[str]] = {}  # version -> SQL statements that upgrade it to version + 1

metadata = MetaData()

schema_table = Table("conquest_schema", metadata, Column("version", Integer, primary_key=True))

games_table = Table(
    "games", metadata,
    Column("id", String(32), primary_key=True),
    Column("ruleset", String(64), nullable=False),
    Column("rules_version", String(64), nullable=False, default=""),
    Column("players", Integer, nullable=False),
    Column("options", JSON, nullable=False),
    Column("seed", BigInteger, nullable=False),          # the set-up seed handed to new_game (public)
    Column("seed_chosen", Boolean, nullable=False, default=False),
    Column("chance_seed", String(64), nullable=False),   # the server's secret for dice and draws
    Column("spectator_token", String(64), nullable=False, unique=True),
    Column("next_step", Integer, nullable=False, default=0),
    Column("revision", Integer, nullable=False, default=0),
    Column("last_undo_revision", Integer, nullable=False, default=0),
    Column("to_move", Integer, nullable=True),           # seat, -1 chance, NULL over
    Column("status", String(16), nullable=False, default="playing"),  # playing | over
    Column("has_secrets", Boolean, nullable=False, default=False),
    Column("result", JSON, nullable=True),
    Column("scores", JSON, nullable=True),
    Column("created_at", DateTime(timezone=True), nullable=False),
    Column("updated_at", DateTime(timezone=True), nullable=False),
)

seats_table = Table(
    "seats", metadata,
    Column("game_id", String(32), ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("kind", String(32), nullable=False),          # human | an agent id
    Column("name", String(64), nullable=False),
    Column("token", String(64), nullable=True, unique=True),
)

actions_table = Table(
    "actions", metadata,
    Column("game_id", String(32), ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
    Column("step", Integer, primary_key=True),           # the unique (game, step): one action per step
    Column("seat", Integer, nullable=False),             # -1: a chance outcome drawn by the server
    Column("text", Text, nullable=False),                # the action in the ruleset's notation
    Column("hidden_from", JSON, nullable=False),         # seats (null = spectators) that may not see it
    Column("barrier", Boolean, nullable=False),          # chance, or something hidden was revealed: no undo
    Column("revision", Integer, nullable=False),
    Column("created_at", DateTime(timezone=True), nullable=False),
)


class Conflict(Exception):
    """Another writer changed the game first (a racing action or undo). Nothing was written."""


class StorageError(Exception):
    pass


@dataclass
class SeatRow:
    seat: int
    kind: str
    name: str
    token: str | None


@dataclass
class GameRow:
    id: str
    ruleset: str
    rules_version: str
    players: int
    options: dict[str, Any]
    seed: int
    seed_chosen: bool
    chance_seed: str
    spectator_token: str
    next_step: int
    revision: int
    last_undo_revision: int
    to_move: int | None
    status: str
    has_secrets: bool
    result: list[float] | None
    scores: list[float] | None
    created_at: dt.datetime
    updated_at: dt.datetime
    seats: list[SeatRow] = field(default_factory=list)


@dataclass
class ActionRow:
    step: int
    seat: int
    text: str
    hidden_from: list[int | None]
    barrier: bool


def default_db_url() -> str:
    """``CONQUEST_DB`` if set, else SQLite in the user's data directory."""
    env = os.environ.get("CONQUEST_DB")
    if env:
        return env
    from platformdirs import user_data_dir
    d = Path(user_data_dir("conquest", appauthor=False))
    d.mkdir(parents=True, exist_ok=True)
    return f"sqlite:///{d / 'games.sqlite3'}"


def normalise_url(db: str | None) -> str:
    if not db:
        return default_db_url()
    if "://" not in db:  # a plain file path means SQLite
        return f"sqlite:///{Path(db).expanduser().resolve()}"
    if db.startswith("postgresql://") or db.startswith("postgres://"):
        # SQLAlchemy's default PostgreSQL driver is psycopg2; prefer psycopg 3 when it is the one installed
        try:
            import psycopg  # noqa: F401
            return "postgresql+psycopg://" + db.split("://", 1)[1]
        except ImportError:
            return "postgresql://" + db.split("://", 1)[1]
    return db


def database_problem(url: str) -> str | None:
    """Why the games cannot be stored at ``url`` (one line), or None when they can: opens the database and
    creates or upgrades its tables, as serving it would, so ``conquest serve`` can refuse before it starts."""
    from sqlalchemy.exc import ArgumentError, NoSuchModuleError, SQLAlchemyError
    safe = _hide_password(url)
    try:
        Store(url).close()
    except NoSuchModuleError:
        scheme = url.split("://", 1)[0]
        return (f"unknown database scheme '{scheme}' in {safe} (use sqlite:///FILE, a file path, or "
                "postgresql://USER:PASSWORD@HOST/DB)")
    except ArgumentError as e:
        return f"not a database URL: {safe} ({str(e).splitlines()[0]})"
    except StorageError as e:
        return f"{safe}: {e}"
    except SQLAlchemyError as e:
        cause = str(getattr(e, "orig", None) or e).strip().splitlines()
        text = cause[0] if cause else type(e).__name__
        if url.startswith("sqlite") and "file is not a database" in text:
            return f"{safe} is not an SQLite database (a file of another kind is there)"
        if url.startswith("sqlite") and "unable to open database file" in text:
            return f"cannot open or create the SQLite database {safe} (does its folder exist and is it writable?)"
        return f"cannot use the database {safe}: {text}"
    except (ImportError, OSError) as e:
        return f"cannot use the database {safe}: {e}"
    return None


def _hide_password(url: str) -> str:
    import re
    return re.sub(r"//[^@/]*@", "//***@", url)


def _now() -> dt.datetime:
    return dt.datetime.now(dt.UTC)


def new_token() -> str:
    return secrets.token_urlsafe(24)


class Store:
    def __init__(self, url: str | None = None) -> None:
        self.url = normalise_url(url)
        kwargs: dict[str, Any] = {"future": True}
        if self.url.startswith("sqlite"):
            kwargs["connect_args"] = {"check_same_thread": False, "timeout": 30}
            if self.url in ("sqlite://", "sqlite:///:memory:"):
                kwargs["poolclass"] = StaticPool
            else:
                kwargs.update(pool_size=16, max_overflow=16)
        else:
            kwargs["pool_pre_ping"] = True
        self.engine: Engine = create_engine(self.url, **kwargs)
        # SQLite has one writer at a time and its busy handler sleeps in steps of milliseconds: queue this
        # process's writers on a lock instead (other processes still meet the busy timeout)
        self._write_lock: Any = threading.Lock() if self.url.startswith("sqlite") else contextlib.nullcontext()
        if self.url.startswith("sqlite"):
            sync = os.environ.get("CONQUEST_SQLITE_SYNCHRONOUS", "NORMAL").upper()
            if sync not in ("NORMAL", "FULL", "EXTRA"):
                raise StorageError("CONQUEST_SQLITE_SYNCHRONOUS must be NORMAL, FULL or EXTRA")

            @event.listens_for(self.engine, "connect")
            def _pragmas(dbapi_conn: Any, _record: Any) -> None:
                cur = dbapi_conn.cursor()
                cur.execute("PRAGMA journal_mode=WAL")
                # WAL + NORMAL: a commit survives the process being killed (kill -9); FULL also survives a
                # power cut, at one fsync per action (CONQUEST_SQLITE_SYNCHRONOUS=FULL)
                cur.execute(f"PRAGMA synchronous={sync}")
                cur.execute("PRAGMA foreign_keys=ON")
                cur.execute("PRAGMA busy_timeout=30000")
                cur.close()
        self.migrate()

    # ---- schema ----------------------------------------------------------------------------------
    def migrate(self) -> None:
        metadata.create_all(self.engine, checkfirst=True)
        with self.engine.begin() as conn:
            row = conn.execute(select(schema_table.c.version)).first()
            if row is None:
                try:
                    conn.execute(insert(schema_table).values(version=SCHEMA_VERSION))
                except IntegrityError:  # another process made it at the same moment
                    pass
                return
            version = row[0]
            if version > SCHEMA_VERSION:
                raise StorageError(f"the database has schema version {version}; this server knows up to "
                                   f"{SCHEMA_VERSION}: upgrade conquest")
            while version < SCHEMA_VERSION:
                from sqlalchemy import text
                for stmt in _MIGRATIONS[version]:
                    conn.execute(text(stmt))
                version += 1
                conn.execute(update(schema_table).values(version=version))

    def schema_version(self) -> int:
        with self.engine.connect() as conn:
            return int(conn.execute(select(schema_table.c.version)).scalar_one())

    def close(self) -> None:
        self.engine.dispose()

    # ---- games -----------------------------------------------------------------------------------
    def create_game(self, *, ruleset: str, rules_version: str, players: int, options: dict[str, Any],
                    seed: int, seed_chosen: bool, seats: list[tuple[str, str]], to_move: int | None,
                    has_secrets: bool, actions: list[ActionRow] | None = None,
                    result: list[float] | None = None, scores: list[float] | None = None) -> GameRow:
        """Insert a game with its seats (and, for an imported record, its actions) in one transaction;
        human seats get a fresh secret token each."""
        now = _now()
        gid = secrets.token_urlsafe(9)
        seat_rows = [SeatRow(i, kind, name, new_token() if kind == "human" else None)
                     for i, (kind, name) in enumerate(seats)]
        values = dict(id=gid, ruleset=ruleset, rules_version=rules_version, players=players, options=options,
                      seed=seed, seed_chosen=seed_chosen, chance_seed=secrets.token_hex(16),
                      spectator_token=new_token(), next_step=len(actions or ()), revision=0, last_undo_revision=0,
                      to_move=to_move, status="playing" if to_move is not None else "over",
                      has_secrets=has_secrets, result=result, scores=scores, created_at=now, updated_at=now)
        with self._write_lock, self.engine.begin() as conn:
            conn.execute(insert(games_table).values(**values))
            conn.execute(insert(seats_table), [dict(game_id=gid, seat=s.seat, kind=s.kind, name=s.name,
                                                    token=s.token) for s in seat_rows])
            if actions:
                conn.execute(insert(actions_table), [
                    dict(game_id=gid, step=a.step, seat=a.seat, text=a.text, hidden_from=a.hidden_from,
                         barrier=a.barrier, revision=0, created_at=now) for a in actions])
        return GameRow(seats=seat_rows, **values)  # type: ignore[arg-type]

    def get_game(self, gid: str) -> GameRow | None:
        with self.engine.connect() as conn:
            row = conn.execute(select(games_table).where(games_table.c.id == gid)).mappings().first()
            if row is None:
                return None
            seats = conn.execute(select(seats_table).where(seats_table.c.game_id == gid)
                                 .order_by(seats_table.c.seat)).mappings().all()
        return GameRow(**dict(row), seats=[SeatRow(s["seat"], s["kind"], s["name"], s["token"]) for s in seats])

    def get_revision(self, gid: str) -> int | None:
        with self.engine.connect() as conn:
            return conn.execute(select(games_table.c.revision).where(games_table.c.id == gid)).scalar()

    def actions(self, gid: str, from_step: int = 0, to_step: int | None = None) -> list[ActionRow]:
        q = select(actions_table).where(actions_table.c.game_id == gid, actions_table.c.step >= from_step)
        if to_step is not None:
            q = q.where(actions_table.c.step < to_step)
        with self.engine.connect() as conn:
            rows = conn.execute(q.order_by(actions_table.c.step)).mappings().all()
        return [ActionRow(r["step"], r["seat"], r["text"], list(r["hidden_from"]), bool(r["barrier"]))
                for r in rows]

    def games_to_advance(self) -> list[str]:
        """Unfinished games whose next move is the server's: a chance node or a seat played by an agent."""
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(games_table.c.id, games_table.c.to_move).where(games_table.c.status == "playing")
            ).all()
            agent_seats = {(g, s) for g, s in conn.execute(
                select(seats_table.c.game_id, seats_table.c.seat)
                .where(seats_table.c.kind != "human", seats_table.c.kind != "record")).all()}
        return [g for g, tm in rows if tm == -1 or (g, tm) in agent_seats]

    def games_by_ids(self, ids: Iterable[str]) -> dict[str, GameRow]:
        out: dict[str, GameRow] = {}
        for gid in list(dict.fromkeys(ids))[:200]:
            g = self.get_game(gid)
            if g is not None:
                out[gid] = g
        return out

    # ---- writes ----------------------------------------------------------------------------------
    def _bump(self, conn: Any, gid: str, seen_revision: int, **values: Any) -> None:
        res = conn.execute(update(games_table)
                           .where(games_table.c.id == gid, games_table.c.revision == seen_revision)
                           .values(revision=seen_revision + 1, updated_at=_now(), **values))
        if res.rowcount != 1:
            raise Conflict(gid)

    def append_action(self, gid: str, *, seen_revision: int, step: int, seat: int, text: str,
                      hidden_from: list[int | None], barrier: bool, to_move: int | None,
                      has_secrets: bool, result: list[float] | None, scores: list[float] | None) -> int:
        """Commit one action at ``step``; returns the new revision. Raises Conflict if the game moved."""
        try:
            with self._write_lock, self.engine.begin() as conn:
                self._bump(conn, gid, seen_revision, next_step=step + 1, to_move=to_move,
                           status="playing" if to_move is not None else "over", has_secrets=has_secrets,
                           result=result, scores=scores)
                conn.execute(insert(actions_table).values(
                    game_id=gid, step=step, seat=seat, text=text, hidden_from=hidden_from, barrier=barrier,
                    revision=seen_revision + 1, created_at=_now()))
        except IntegrityError:
            raise Conflict(gid) from None
        except OperationalError as e:  # SQLite "database is locked" after the busy timeout, PG serialisation
            raise Conflict(gid) from e
        return seen_revision + 1

    def truncate(self, gid: str, *, seen_revision: int, keep_steps: int, to_move: int | None) -> int:
        """Undo: delete the actions from step ``keep_steps`` on; returns the new revision."""
        try:
            with self._write_lock, self.engine.begin() as conn:
                self._bump(conn, gid, seen_revision, next_step=keep_steps, to_move=to_move,
                           last_undo_revision=seen_revision + 1,
                           status="playing" if to_move is not None else "over", result=None, scores=None)
                conn.execute(delete(actions_table).where(actions_table.c.game_id == gid,
                                                         actions_table.c.step >= keep_steps))
        except OperationalError as e:
            raise Conflict(gid) from e
        return seen_revision + 1
