"""Accounts: optional identity for the web app (a name and a password), sessions and the seats an account holds.

Nothing here is needed to play: a seat link (its token) works without an account. An account adds

* a name, a password hashed with **argon2id** (``argon2-cffi``: RFC 9106's second recommended setting, 64 MiB,
  3 passes; a hash made with older settings is renewed at the next login) and an optional e-mail address;
* **sessions**: a random session id in a cookie signed with a server key (HMAC-SHA256, the key kept in the
  database so that every process of one server signs alike), whose row holds the account, the expiry and the
  session's CSRF token; the database keeps only the SHA-256 of the id, so a copy of the table opens no session;
* **CSRF**: a synchronizer token per session; every write that a session cookie authenticates must send it back
  in the ``X-CSRF-Token`` header (the cookie is also ``SameSite=Lax``);
* **seat ownership** (``account_seats``): the seats of games an account sits at (a lobby table's seats, or a
  seat link the account claimed), so its games are listed by the server on any device.

Login answers do not tell which names exist: an unknown name and a wrong password get the same answer, after
the same work (a hash is checked against a dummy hash for an unknown name). Login attempts are limited per name
and per client (``LoginLimit``; counted in each server process).
"""

from __future__ import annotations

import base64
import datetime as dt
import hashlib
import hmac
import re
import secrets
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError, VerifyMismatchError
from sqlalchemy import Column, DateTime, ForeignKey, Integer, String, Table, Text, delete, insert, select, update
from sqlalchemy.exc import IntegrityError

from conquest.web.games import WebError
from conquest.web.storage import Store, metadata

SESSION_COOKIE = "conquest_session"
CSRF_HEADER = "X-CSRF-Token"
SESSION_DAYS = 30
NAME_RE = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{2,23}")  # 3 to 24 characters, starting with a letter or digit
MIN_PASSWORD, MAX_PASSWORD = 8, 256
# an address with one @, no spaces, a dot in the domain (the syntax a mail server will take; whether mail
# reaches it is the mail's business); 254 characters at most (RFC 5321's path limit)
EMAIL_RE = re.compile(r"[^@\s<>\"',;]{1,64}@[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?"
                      r"(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)+")

accounts_table = Table(
    "accounts", metadata,
    Column("id", String(32), primary_key=True),
    Column("name", String(32), nullable=False),
    Column("name_key", String(32), nullable=False, unique=True),  # the name case-folded: Ann and ann are one
    Column("password_hash", Text, nullable=False),
    Column("email", String(254), nullable=True),
    Column("created_at", DateTime(timezone=True), nullable=False),
)

sessions_table = Table(
    "account_sessions", metadata,
    Column("id_hash", String(64), primary_key=True),  # SHA-256 of the session id (the cookie holds the id)
    Column("account_id", String(32), ForeignKey("accounts.id", ondelete="CASCADE"), nullable=False, index=True),
    Column("csrf", String(64), nullable=False),
    Column("created_at", DateTime(timezone=True), nullable=False),
    Column("expires_at", DateTime(timezone=True), nullable=False),
)

server_keys_table = Table(
    "server_keys", metadata,
    Column("name", String(32), primary_key=True),
    Column("value", String(128), nullable=False),
)

account_seats_table = Table(
    "account_seats", metadata,
    Column("game_id", String(32), ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
    Column("seat", Integer, primary_key=True),  # one account per seat
    Column("account_id", String(32), ForeignKey("accounts.id", ondelete="CASCADE"), nullable=False, index=True),
    Column("claimed_at", DateTime(timezone=True), nullable=False),
)


def _now() -> dt.datetime:
    return dt.datetime.now(dt.UTC)


def _aware(t: dt.datetime) -> dt.datetime:
    """SQLite gives back naive datetimes (stored in UTC)."""
    return t if t.tzinfo is not None else t.replace(tzinfo=dt.UTC)


@dataclass(frozen=True)
class Account:
    id: str
    name: str
    email: str | None


@dataclass(frozen=True)
class Session:
    account: Account
    csrf: str


@dataclass(frozen=True)
class SeatClaim:
    game_id: str
    seat: int


def check_name(name: str) -> str:
    if not isinstance(name, str) or not NAME_RE.fullmatch(name):
        raise WebError(422, "name: 3 to 24 letters, digits, '.', '_' or '-', starting with a letter or digit")
    return name


def check_password(password: str) -> str:
    if not isinstance(password, str) or not (MIN_PASSWORD <= len(password) <= MAX_PASSWORD):
        raise WebError(422, f"password: {MIN_PASSWORD} to {MAX_PASSWORD} characters")
    return password


def check_email(email: str | None) -> str | None:
    """The address, trimmed, or None for none given (``""`` too); 422 when it is not an address."""
    if email is None:
        return None
    email = email.strip()
    if not email:
        return None
    if len(email) > 254 or not EMAIL_RE.fullmatch(email):
        raise WebError(422, "email: not an e-mail address (name@example.org)")
    return email


class SlidingWindow:
    """At most ``limit`` events per key in the last ``window`` seconds (kept in memory, per process)."""

    def __init__(self, limit: int, window: float, clock: Callable[[], float] = time.monotonic) -> None:
        self.limit, self.window, self.clock = limit, window, clock
        self._events: dict[str, deque[float]] = {}
        self._lock = threading.Lock()

    def _recent(self, key: str) -> deque[float]:
        q = self._events.setdefault(key, deque())
        cut = self.clock() - self.window
        while q and q[0] <= cut:
            q.popleft()
        return q

    def full(self, key: str) -> float:
        """Seconds until ``key`` may try again (0 when it may now)."""
        with self._lock:
            q = self._recent(key)
            if len(q) < self.limit:
                if not q:
                    self._events.pop(key, None)
                return 0.0
            return max(0.0, q[0] + self.window - self.clock())

    def add(self, key: str) -> None:
        with self._lock:
            self._recent(key).append(self.clock())
            if len(self._events) > 100_000:  # forget keys that have no recent events left
                for k in [k for k, q in self._events.items() if not q or q[-1] <= self.clock() - self.window]:
                    del self._events[k]

    def clear(self, key: str) -> None:
        with self._lock:
            self._events.pop(key, None)


class LoginLimit:
    """Failed logins: at most ``per_name`` per name and ``per_client`` per client in ``window`` seconds; beyond,
    every attempt (right password or not) is refused with 429 until the window has room. A success clears the
    name's count. The same answer for names that exist and names that do not."""

    def __init__(self, per_name: int = 5, per_client: int = 20, window: float = 15 * 60,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.names = SlidingWindow(per_name, window, clock)
        self.clients = SlidingWindow(per_client, window, clock)

    def check(self, name_key: str, client: str) -> None:
        wait = max(self.names.full(name_key), self.clients.full(client))
        if wait > 0:
            raise WebError(429, f"too many failed logins: try again in {max(1, round(wait / 60))} min")

    def failed(self, name_key: str, client: str) -> None:
        self.names.add(name_key)
        self.clients.add(client)

    def succeeded(self, name_key: str) -> None:
        self.names.clear(name_key)


class Accounts:
    """Accounts, sessions and seat ownership in the app's database (see the module's docstring)."""

    def __init__(self, store: Store, hasher: PasswordHasher | None = None, login_limit: LoginLimit | None = None,
                 registrations_per_client: int = 10, registration_window: float = 3600.0) -> None:
        self.store = store
        metadata.create_all(store.engine, checkfirst=True)  # the tables of this module (a database made before)
        self.hasher = hasher or PasswordHasher()  # argon2id, RFC 9106 low-memory: t=3, m=64 MiB, p=4
        self.login_limit = login_limit or LoginLimit()
        self.registrations = SlidingWindow(registrations_per_client, registration_window)
        self._dummy: str | None = None  # a hash checked for unknown names (the same work): made when first needed
        self._key = self._server_key()

    # ---- the signing key -------------------------------------------------------------------------------
    def _server_key(self) -> bytes:
        with self.store.engine.begin() as conn:
            row = conn.execute(select(server_keys_table.c.value)
                               .where(server_keys_table.c.name == "session")).scalar()
        if row is None:
            try:
                with self.store.engine.begin() as conn:
                    conn.execute(insert(server_keys_table).values(name="session", value=secrets.token_hex(32)))
            except IntegrityError:  # another process made it first
                pass
            with self.store.engine.begin() as conn:
                row = conn.execute(select(server_keys_table.c.value)
                                   .where(server_keys_table.c.name == "session")).scalar_one()
        return bytes.fromhex(row)

    def _sign(self, sid: str) -> str:
        mac = hmac.new(self._key, sid.encode(), hashlib.sha256).digest()
        return base64.urlsafe_b64encode(mac).decode().rstrip("=")

    # ---- accounts ----------------------------------------------------------------------------------------
    def register(self, name: str, password: str, email: str | None, client: str) -> Account:
        name, password, email = check_name(name), check_password(password), check_email(email)
        if self.registrations.full(client) > 0:
            raise WebError(429, "too many new accounts from here: try again in an hour")
        acc = Account(secrets.token_urlsafe(12), name, email)
        pw_hash = self.hasher.hash(password)
        try:
            with self.store.engine.begin() as conn:
                conn.execute(insert(accounts_table).values(
                    id=acc.id, name=name, name_key=name.casefold(), password_hash=pw_hash, email=email,
                    created_at=_now()))
        except IntegrityError:
            raise WebError(409, f"the name '{name}' is taken: choose another") from None
        self.registrations.add(client)
        return acc

    def login(self, name: str, password: str, client: str) -> Account:
        """The account of ``name`` when ``password`` is its password; 401 "wrong name or password" otherwise,
        whether the name exists or not (429 after too many failures)."""
        wrong = WebError(401, "wrong name or password")
        if not isinstance(name, str) or not isinstance(password, str) or len(name) > 64 or len(password) > MAX_PASSWORD:
            raise wrong
        key = name.casefold()
        self.login_limit.check(key, client)
        with self.store.engine.connect() as conn:
            row = conn.execute(select(accounts_table).where(accounts_table.c.name_key == key)).mappings().first()
        if row is None and self._dummy is None:
            self._dummy = self.hasher.hash(secrets.token_urlsafe(16))
        stored: str = row["password_hash"] if row is not None else (self._dummy or "")
        try:
            self.hasher.verify(stored, password)
            ok = row is not None
        except (VerifyMismatchError, VerificationError, InvalidHashError):
            ok = False
        if not ok or row is None:
            self.login_limit.failed(key, client)
            raise wrong
        self.login_limit.succeeded(key)
        if self.hasher.check_needs_rehash(stored):
            with self.store.engine.begin() as conn:
                conn.execute(update(accounts_table).where(accounts_table.c.id == row["id"])
                             .values(password_hash=self.hasher.hash(password)))
        return Account(row["id"], row["name"], row["email"])

    def by_name(self, name: str) -> Account | None:
        if not isinstance(name, str) or len(name) > 64:
            return None
        with self.store.engine.connect() as conn:
            row = conn.execute(select(accounts_table).where(accounts_table.c.name_key == name.casefold())
                               ).mappings().first()
        return Account(row["id"], row["name"], row["email"]) if row is not None else None

    def names(self, ids: list[str]) -> dict[str, str]:
        if not ids:
            return {}
        with self.store.engine.connect() as conn:
            rows = conn.execute(select(accounts_table.c.id, accounts_table.c.name)
                                .where(accounts_table.c.id.in_(set(ids)))).all()
        return {r[0]: r[1] for r in rows}

    def seat_email(self, gid: str, seat: int) -> str | None:
        """The e-mail address of the account that holds seat ``seat`` of game ``gid`` (a lobby table's seat, or
        one claimed from its link); None when no account holds it or the account gave no address."""
        with self.store.engine.connect() as conn:
            found = conn.execute(
                select(accounts_table.c.email)
                .join(account_seats_table, account_seats_table.c.account_id == accounts_table.c.id)
                .where(account_seats_table.c.game_id == gid, account_seats_table.c.seat == seat)).scalar()
        return str(found) if found else None

    def set_email(self, account: Account, email: str | None) -> Account:
        email = check_email(email)
        with self.store.engine.begin() as conn:
            conn.execute(update(accounts_table).where(accounts_table.c.id == account.id).values(email=email))
        return Account(account.id, account.name, email)

    # ---- sessions ----------------------------------------------------------------------------------------
    def open_session(self, account: Account) -> tuple[str, Session]:
        """A new session: the cookie's value and the session (with its CSRF token)."""
        sid = secrets.token_urlsafe(32)
        csrf = secrets.token_urlsafe(32)
        now = _now()
        with self.store.engine.begin() as conn:
            conn.execute(insert(sessions_table).values(
                id_hash=hashlib.sha256(sid.encode()).hexdigest(), account_id=account.id, csrf=csrf,
                created_at=now, expires_at=now + dt.timedelta(days=SESSION_DAYS)))
        return f"{sid}.{self._sign(sid)}", Session(account, csrf)

    def session(self, cookie: str | None) -> Session | None:
        """The session of a cookie: None without one or for one that has ended (expired, logged out);
        401 for a cookie this server did not sign (forged or damaged)."""
        if not cookie:
            return None
        sid, _, sig = cookie.partition(".")
        if not sid or not sig or len(cookie) > 200 or not hmac.compare_digest(self._sign(sid), sig):
            raise WebError(401, "the session cookie is not one this server made: log in again")
        with self.store.engine.connect() as conn:
            row = conn.execute(
                select(sessions_table.c.csrf, sessions_table.c.expires_at, accounts_table.c.id,
                       accounts_table.c.name, accounts_table.c.email)
                .join(accounts_table, accounts_table.c.id == sessions_table.c.account_id)
                .where(sessions_table.c.id_hash == hashlib.sha256(sid.encode()).hexdigest())).first()
        if row is None or _aware(row[1]) <= _now():
            return None
        return Session(Account(row[2], row[3], row[4]), row[0])

    def close_session(self, cookie: str) -> None:
        sid = cookie.partition(".")[0]
        with self.store.engine.begin() as conn:
            conn.execute(delete(sessions_table).where(
                sessions_table.c.id_hash == hashlib.sha256(sid.encode()).hexdigest()))
            conn.execute(delete(sessions_table).where(sessions_table.c.expires_at <= _now()))

    # ---- seats --------------------------------------------------------------------------------------------
    def claim(self, account: Account, game_id: str, seat: int) -> bool:
        """Give ``seat`` of ``game_id`` to ``account``: True when it is now theirs (or was), 409 when it is
        another account's."""
        try:
            with self.store.engine.begin() as conn:
                conn.execute(insert(account_seats_table).values(game_id=game_id, seat=seat, account_id=account.id,
                                                                claimed_at=_now()))
            return True
        except IntegrityError:
            with self.store.engine.connect() as conn:
                owner = conn.execute(select(account_seats_table.c.account_id).where(
                    account_seats_table.c.game_id == game_id, account_seats_table.c.seat == seat)).scalar()
            if owner == account.id:
                return True
            if owner is None:  # the game is gone
                raise WebError(404, f"no game '{game_id}'") from None
            raise WebError(409, "this seat is already claimed by another account") from None

    def seats_of(self, account_id: str) -> list[SeatClaim]:
        with self.store.engine.connect() as conn:
            rows = conn.execute(select(account_seats_table.c.game_id, account_seats_table.c.seat)
                                .where(account_seats_table.c.account_id == account_id)
                                .order_by(account_seats_table.c.claimed_at.desc())).all()
        return [SeatClaim(r[0], r[1]) for r in rows]

    def owners(self, game_id: str) -> dict[int, str]:
        """Seat -> account id, for the seats of ``game_id`` that accounts hold."""
        with self.store.engine.connect() as conn:
            rows = conn.execute(select(account_seats_table.c.seat, account_seats_table.c.account_id)
                                .where(account_seats_table.c.game_id == game_id)).all()
        return {r[0]: r[1] for r in rows}
