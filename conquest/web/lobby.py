"""The open lobby: tables that players with accounts set up, find and join.

A table is a game not yet begun: its ruleset, players, options, seats (each a person's seat, open or taken by an
account, or a computer seat at a level), whether it is public (listed in the lobby, its game open to spectators)
and whether it is rated. Its creator sits at its first person's seat. Players join open seats; when the last
person's seat is taken the game starts by itself, and the creator may start it before, with computers of a
level in the seats still open. Starting creates the game as ``POST /api/games`` does (the same ``Games.create``)
and gives each person's seat to its account (``account_seats``): each player finds the seat link among their
games. A table's status: ``open``, ``started`` (its ``game_id`` set), ``cancelled`` (its creator left it).

Every change is one guarded statement (``UPDATE ... WHERE status = 'open'`` / ``WHERE account_id IS NULL``):
two players racing for the last seat cannot both have it, and a table starts once.
"""

from __future__ import annotations

import datetime as dt
import secrets
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import insert, select, update

from conquest.web.accounts import Account, Accounts
from conquest.web.games import Games, WebError
from conquest.web.live import Advancer
from conquest.web.lobby_tables import HUMAN, table_seats_table, tables_table
from conquest.web.pace import LIVE, Pace, PaceSettings
from conquest.web.ratings import Ratings
from conquest.web.storage import Store

MAX_OPEN_PER_ACCOUNT = 10  # open tables one account may have created at once


def _now() -> dt.datetime:
    return dt.datetime.now(dt.UTC)


@dataclass
class SeatInfo:
    seat: int
    kind: str
    account_id: str | None


@dataclass
class TableRow:
    id: str
    ruleset: str
    players: int
    options: dict[str, Any]
    creator: str
    public: bool
    rated: bool
    status: str
    game_id: str | None
    created_at: dt.datetime
    started_at: dt.datetime | None
    pace: dict[str, Any] | None = None
    seats: list[SeatInfo] = field(default_factory=list)

    def open_seats(self) -> list[int]:
        return [s.seat for s in self.seats if s.kind == HUMAN and s.account_id is None]

    def seat_of(self, account_id: str) -> int | None:
        return next((s.seat for s in self.seats if s.account_id == account_id), None)


class Lobby:
    """Tables of the open lobby (see the module's docstring) and the ratings of their games."""

    def __init__(self, store: Store, games: Games, accounts: Accounts, advancer: Advancer,
                 pace: Pace | None = None) -> None:
        self.store, self.games, self.accounts, self.advancer = store, games, accounts, advancer
        self.pace = pace  # the games' paces: a table's game starts with the table's
        self.ratings = Ratings(store, games, accounts)

    # ---- reading -----------------------------------------------------------------------------------------
    def _rows(self, where: Any) -> list[TableRow]:
        with self.store.engine.connect() as conn:
            rows = conn.execute(select(tables_table).where(where).order_by(tables_table.c.created_at.desc())
                                .limit(200)).mappings().all()
            ids = [r["id"] for r in rows]
            seats = conn.execute(select(table_seats_table).where(table_seats_table.c.table_id.in_(ids))
                                 .order_by(table_seats_table.c.seat)).mappings().all() if ids else []
        by: dict[str, list[SeatInfo]] = {}
        for s in seats:
            by.setdefault(s["table_id"], []).append(SeatInfo(s["seat"], s["kind"], s["account_id"]))
        return [TableRow(**dict(r), seats=by.get(r["id"], [])) for r in rows]

    def get(self, tid: str) -> TableRow:
        if not isinstance(tid, str) or not (0 < len(tid) <= 32):
            raise WebError(404, "no such table")
        rows = self._rows(tables_table.c.id == tid)
        if not rows:
            raise WebError(404, f"no table '{tid}'")
        return rows[0]

    def public(self) -> list[TableRow]:
        """The public tables open or in play (games over and cancelled tables are not listed)."""
        rows = self._rows((tables_table.c.public.is_(True)) & (tables_table.c.status.in_(["open", "started"])))
        started = [r.game_id for r in rows if r.status == "started" and r.game_id]
        over = set()
        if started:
            from conquest.web.storage import games_table
            with self.store.engine.connect() as conn:
                over = {g for (g,) in conn.execute(select(games_table.c.id).where(
                    games_table.c.id.in_(started), games_table.c.status == "over")).all()}
        return [r for r in rows if r.game_id not in over]

    def describe(self, t: TableRow, viewer: Account | None) -> dict[str, Any]:
        """A table as the lobby shows it to ``viewer`` (None: nobody logged in)."""
        rs = self.games.rulesets().get(t.ruleset)
        ids = [s.account_id for s in t.seats if s.account_id] + [t.creator]
        names = self.accounts.names(ids)
        ratings = self.ratings.ordinals(ids, t.ruleset)
        levels = self.advancer.seats.describe()["levels"]
        seats = []
        for s in t.seats:
            if s.kind == HUMAN:
                who = names.get(s.account_id) if s.account_id else None
                seats.append({"seat": s.seat, "kind": HUMAN, "taken": s.account_id is not None, "player": who,
                              "rating": ratings.get(s.account_id) if s.account_id else None})
            else:
                seats.append({"seat": s.seat, "kind": s.kind, "taken": True,
                              "player": f"Computer ({levels.get(s.kind, {}).get('label', s.kind)})", "rating": None})
        rated = [r for s in t.seats if s.account_id and (r := ratings.get(s.account_id)) is not None]
        out: dict[str, Any] = {
            "id": t.id, "ruleset": t.ruleset, "title": rs.title if rs is not None else t.ruleset,
            "players": t.players, "options": t.options, "public": t.public, "rated": t.rated, "status": t.status,
            "creator": names.get(t.creator), "seats": seats, "open_seats": len(t.open_seats()),
            "rating": round(sum(rated) / len(rated), 2) if rated else None,
            "created_at": t.created_at.isoformat(), "game": t.game_id, "pace": t.pace or LIVE.to_json()}
        if t.status == "started" and t.game_id:
            game = self.store.get_game(t.game_id)
            if game is not None:
                if t.public:
                    out["watch"] = f"/game/{game.id}#t={game.spectator_token}"
                mine = t.seat_of(viewer.id) if viewer is not None else None
                if mine is not None:
                    tok = next((s.token for s in game.seats if s.seat == mine), None)
                    out["play"] = f"/game/{game.id}#t={tok}" if tok else None
                out["over"] = game.status == "over"
        if viewer is not None:
            out["you"] = {"seat": t.seat_of(viewer.id), "creator": viewer.id == t.creator}
        return out

    # ---- writing -----------------------------------------------------------------------------------------
    def create(self, creator: Account, ruleset: str, players: int | None, options: dict[str, Any],
               seats: list[str], public: bool, rated: bool, pace: PaceSettings = LIVE) -> TableRow:
        """A new table; ``seats``: each seat's kind (``human`` or a level); the creator sits at the first person's
        seat; ``pace``: its game's (``conquest.web.pace.choose`` checked it). The settings are checked by starting a
        game with them (422 naming what is wrong)."""
        rs = self.games.ruleset(ruleset)
        n = players if players is not None else (len(seats) or rs.default_players())
        if not seats:
            seats = [HUMAN] * n
        if len(seats) != n:
            raise WebError(422, f"{len(seats)} seats given for {n} players")
        if not rs.min_players <= n <= rs.max_players:
            raise WebError(422, f"{rs.id} is played by {rs.min_players} to {rs.max_players} players, not {n}")
        levels = self.advancer.seats.levels
        for i, k in enumerate(seats):
            if k != HUMAN and k not in levels:
                raise WebError(422, f"seats.{i}: a table's seat is 'human' or a computer level "
                                    f"({', '.join(levels)}), not '{k[:32]}'")
        if HUMAN not in seats:
            raise WebError(422, "a table needs at least one person's seat (for its creator)")
        self.games._start(rs, n, options, 0)  # the options checked as the game's start will check them
        with self.store.engine.connect() as conn:
            mine = conn.execute(select(tables_table.c.id).where(
                tables_table.c.creator == creator.id, tables_table.c.status == "open")).all()
        if len(mine) >= MAX_OPEN_PER_ACCOUNT:
            raise WebError(429, f"you have {len(mine)} open tables: start or leave one first")
        tid = secrets.token_urlsafe(9)
        first = seats.index(HUMAN)
        with self.store.engine.begin() as conn:
            conn.execute(insert(tables_table).values(
                id=tid, ruleset=rs.id, players=n, options=dict(options), creator=creator.id, public=public,
                rated=rated, status="open", game_id=None, created_at=_now(), started_at=None,
                pace=pace.to_json() if pace.mode == "turn" else None))
            conn.execute(insert(table_seats_table), [
                dict(table_id=tid, seat=i, kind=k, account_id=creator.id if i == first else None)
                for i, k in enumerate(seats)])
        return self.get(tid)

    def join(self, account: Account, tid: str, seat: int | None) -> TableRow:
        """Take an open person's seat (``seat``, or the first open one); the game starts when it was the last."""
        t = self.get(tid)
        if t.status != "open":
            raise WebError(409, "this table was cancelled" if t.status == "cancelled"
                           else "this table is full: its game has already started")
        if t.seat_of(account.id) is not None:
            raise WebError(409, f"you already sit at this table (seat {t.seat_of(account.id)})")
        free = t.open_seats()
        if not free:
            raise WebError(409, "this table is full")
        if seat is None:
            seat = free[0]
        elif not any(s.seat == seat for s in t.seats):
            raise WebError(422, f"this table has no seat {seat}")
        elif seat not in free:
            raise WebError(409, f"seat {seat} is not open (taken, or a computer's)")
        with self.store.engine.begin() as conn:
            # the table's row locked first (PostgreSQL; SQLite has one writer at a time): a start waits for this
            # join, then reads the seats with it
            status = conn.execute(select(tables_table.c.status).where(tables_table.c.id == tid)
                                  .with_for_update()).scalar()
            if status != "open":
                raise WebError(409, "this table is full: its game has already started")
            # and the seat taken only while the table is open, in one statement (SQLite's driver begins the
            # transaction at the first write, so the read above does not hold the table back there)
            still_open = select(tables_table.c.id).where(tables_table.c.id == tid,
                                                         tables_table.c.status == "open").exists()
            got = conn.execute(update(table_seats_table).where(
                table_seats_table.c.table_id == tid, table_seats_table.c.seat == seat,
                table_seats_table.c.account_id.is_(None), table_seats_table.c.kind == HUMAN, still_open)
                .values(account_id=account.id)).rowcount
        if got != 1:
            if self.get(tid).status != "open":
                raise WebError(409, "this table is full: its game has already started")
            raise WebError(409, "someone took this seat first: choose another")
        t = self.get(tid)
        if not t.open_seats():
            try:
                return self.start(t, None)
            except WebError as e:
                if e.status != 409:  # 409: another join started it (with this seat taken)
                    raise
                return self.get(tid)
        return t

    def leave(self, account: Account, tid: str) -> TableRow:
        """Leave a table before its game starts; the creator leaving cancels it."""
        t = self.get(tid)
        if t.status != "open":
            raise WebError(409, "the game has started: a seat cannot be left from the lobby")
        if t.seat_of(account.id) is None:
            raise WebError(409, "you do not sit at this table")
        with self.store.engine.begin() as conn:
            if account.id == t.creator:
                conn.execute(update(tables_table).where(tables_table.c.id == tid, tables_table.c.status == "open")
                             .values(status="cancelled"))
            else:
                conn.execute(update(table_seats_table).where(table_seats_table.c.table_id == tid,
                                                             table_seats_table.c.account_id == account.id)
                             .values(account_id=None))
        return self.get(tid)

    def start_now(self, account: Account, tid: str, level: str) -> TableRow:
        """The creator starts the game with computers of ``level`` in the open seats."""
        t = self.get(tid)
        if account.id != t.creator:
            raise WebError(403, "only the table's creator can start its game")
        if t.status != "open":
            raise WebError(409, "this table was cancelled" if t.status == "cancelled"
                           else "this table's game has already started")
        if level not in self.advancer.seats.levels:
            raise WebError(422, f"level: one of {', '.join(self.advancer.seats.levels)}")
        return self.start(t, level)

    def start(self, t: TableRow, level: str | None) -> TableRow:
        """Create the table's game (open seats played by ``level``) and give each person's seat to its account."""
        with self.store.engine.begin() as conn:  # claim the start: one request starts a table
            if conn.execute(update(tables_table).where(tables_table.c.id == t.id, tables_table.c.status == "open")
                            .values(status="starting")).rowcount != 1:
                raise WebError(409, "this table's game has already started")
        t = self.get(t.id)  # the seats as they are now: a join that was under way has finished
        names = self.accounts.names([s.account_id for s in t.seats if s.account_id])
        levels = self.advancer.seats.describe()["levels"]
        seats: list[tuple[str, str]] = []
        for s in t.seats:
            if s.kind == HUMAN and s.account_id is not None:
                seats.append((HUMAN, names.get(s.account_id, f"Player {s.seat + 1}")))
            else:
                kind = s.kind if s.kind != HUMAN else (level or "normal")
                seats.append((kind, f"Computer {s.seat + 1} ({levels.get(kind, {}).get('label', kind)})"))
        try:
            row = self.games.create(t.ruleset, t.players, t.options, seats, None)
        except BaseException:
            with self.store.engine.begin() as conn:
                conn.execute(update(tables_table).where(tables_table.c.id == t.id).values(status="open"))
            raise
        for s in t.seats:
            if s.kind == HUMAN and s.account_id is not None:
                self.accounts.claim(Account(s.account_id, "", None), row.id, s.seat)
        if self.pace is not None:  # after the seats are claimed: the first turn's mail goes to the account
            self.pace.save(row.id, PaceSettings(**t.pace) if t.pace else LIVE)
        with self.store.engine.begin() as conn:
            conn.execute(update(table_seats_table).where(  # the open seats are now computers of the level
                table_seats_table.c.table_id == t.id, table_seats_table.c.kind == HUMAN,
                table_seats_table.c.account_id.is_(None)).values(kind=level or "normal"))
            conn.execute(update(tables_table).where(tables_table.c.id == t.id)
                         .values(status="started", game_id=row.id, started_at=_now()))
        self.advancer.schedule(row.id)
        self.games.resolve_chance(row.id)
        return self.get(t.id)
