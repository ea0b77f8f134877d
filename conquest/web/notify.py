"""Telling a player that it is their turn: by e-mail through the operator's SMTP server.

Who gets the mail is asked of one small interface, ``EmailOf``: a function that takes a game and a seat and
returns an address or None. The one here, ``seat_notify_email``, reads the address the seat's player set
with their seat token (``PUT /api/games/{id}/notify``, table ``seat_notify``); a server with accounts can
hand ``create_app`` another one (the address of the account that holds the seat), or chain the two.

The SMTP settings come from ``conquest serve`` options or the environment (``SmtpSettings.from_env``); the
mails link to the game at the server's public address (``--public-url``), since the server cannot know the
address its players reach it at behind a proxy. Mails are sent by one background thread, never by the request
or the game's thread: a slow or failing SMTP server delays no move (a failure is logged, the move stands).

The browser notification (the Notification API, while a tab of the game is open) is the page's own work
(static/game.js): it needs nothing from the server beyond the live updates every page already receives.
"""

from __future__ import annotations

import logging
import re
import smtplib
import ssl
import threading
from collections.abc import Callable, Mapping
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import asdict, dataclass
from email.message import EmailMessage
from email.utils import make_msgid
from typing import Any

from sqlalchemy import Column, ForeignKey, Integer, String, Table, delete, insert, select

from conquest.web.storage import GameRow, Store, metadata

log = logging.getLogger("conquest.web")

seat_notify_table = Table(
    "seat_notify", metadata,
    Column("game_id", String(32), ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("email", String(254), nullable=False),
)

EmailOf = Callable[[GameRow, int], str | None]
"""The e-mail address of the player in ``seat`` of the game, or None (nobody to tell by e-mail)."""

# an address as people write them: one @, no spaces or control characters, a host name after it; what the
# SMTP server does with it is its business (a wrong address bounces to the sender, the move stands)
_EMAIL = re.compile(r"[^@\s\x00-\x1f\x7f<>(),;:\\\"\[\]]{1,64}@[A-Za-z0-9](?:[A-Za-z0-9-]{0,62}[A-Za-z0-9])?"
                    r"(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,62}[A-Za-z0-9])?)*")


def email_problem(address: str) -> str | None:
    """Why ``address`` is not an e-mail address this server sends to (one line), or None when it is."""
    if len(address) > 254:
        return "the e-mail address is longer than 254 characters"
    if not _EMAIL.fullmatch(address):
        return f"'{address[:60]}' is not an e-mail address (name@example.org)"
    return None


def seat_notify_email(store: Store) -> EmailOf:
    """The default ``EmailOf``: the address the seat's player set with their seat token, if any."""
    def email_of(game: GameRow, seat: int) -> str | None:
        with store.engine.connect() as conn:
            found = conn.execute(select(seat_notify_table.c.email).where(
                seat_notify_table.c.game_id == game.id, seat_notify_table.c.seat == seat)).scalar()
        return str(found) if found is not None else None
    return email_of


def set_seat_email(store: Store, gid: str, seat: int, email: str | None) -> None:
    """Set (or, with None, remove) the address the seat is told at."""
    with store._write_lock, store.engine.begin() as conn:
        conn.execute(delete(seat_notify_table).where(seat_notify_table.c.game_id == gid,
                                                     seat_notify_table.c.seat == seat))
        if email is not None:
            conn.execute(insert(seat_notify_table).values(game_id=gid, seat=seat, email=email))


@dataclass(frozen=True)
class SmtpSettings:
    """How to reach the SMTP server. ``starttls``: upgrade the connection with STARTTLS (required then: a
    server that does not offer it is an error, the password is never sent in clear); ``user``/``password``:
    log in (only after STARTTLS unless ``allow_plain_login``, for a server on loopback)."""
    host: str
    port: int = 587
    sender: str = "conquest@localhost"
    starttls: bool = True
    user: str | None = None
    password: str | None = None
    timeout: float = 20.0
    allow_plain_login: bool = False

    def problem(self) -> str | None:
        """What is wrong with the settings (one line), or None."""
        if not self.host or any(c.isspace() for c in self.host):
            return "the SMTP host must be a host name or address"
        if not 1 <= self.port <= 65535:
            return f"the SMTP port must be 1 to 65535, not {self.port}"
        bad = email_problem(self.sender)
        if bad:
            return f"the sender (--smtp-from): {bad}"
        if (self.user is None) != (self.password is None):
            return "an SMTP user needs a password (CONQUEST_SMTP_PASSWORD) and a password needs a user"
        if self.user is not None and not self.starttls and not self.allow_plain_login:
            return "an SMTP login needs STARTTLS (the password would cross the network in clear)"
        return None

    def public(self) -> dict[str, Any]:
        """The settings without the password (for JSON handed to worker processes)."""
        d = asdict(self)
        d.pop("password")
        return d

    @classmethod
    def from_env(cls, env: Mapping[str, str]) -> SmtpSettings | None:
        """``CONQUEST_SMTP_HOST`` (none: no mail), ``CONQUEST_SMTP_PORT``, ``CONQUEST_SMTP_FROM``,
        ``CONQUEST_SMTP_STARTTLS`` (1/0), ``CONQUEST_SMTP_USER``, ``CONQUEST_SMTP_PASSWORD``. Raises
        ValueError with one line for a bad value."""
        host = env.get("CONQUEST_SMTP_HOST", "").strip()
        if not host:
            return None
        port_text = env.get("CONQUEST_SMTP_PORT", "587").strip()
        if not port_text.isdigit():
            raise ValueError(f"CONQUEST_SMTP_PORT must be a port number, not '{port_text[:20]}'")
        tls = env.get("CONQUEST_SMTP_STARTTLS", "1").strip().lower()
        if tls not in ("1", "0", "yes", "no", "true", "false"):
            raise ValueError("CONQUEST_SMTP_STARTTLS must be 1 or 0")
        s = cls(host=host, port=int(port_text), sender=env.get("CONQUEST_SMTP_FROM", "conquest@localhost").strip(),
                starttls=tls in ("1", "yes", "true"), user=env.get("CONQUEST_SMTP_USER") or None,
                password=env.get("CONQUEST_SMTP_PASSWORD") or None)
        bad = s.problem()
        if bad:
            raise ValueError(bad)
        return s


def public_url_problem(url: str) -> str | None:
    """Why ``url`` cannot be the server's public address for links in mails (one line), or None."""
    if not re.fullmatch(r"https?://[^\s/?#]+(/[^\s?#]*)?", url):
        return f"the public URL must be http(s)://HOST[:PORT][/PATH], not '{url[:80]}'"
    return None


class Mailer:
    """Sends mails through the SMTP server in one background thread. ``sent`` and ``failed`` count them."""

    def __init__(self, settings: SmtpSettings) -> None:
        self.settings = settings
        self.pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="conquest-mail")
        self.sent = 0
        self.failed = 0
        self._lock = threading.Lock()

    def send(self, to: str, subject: str, body: str) -> Future[bool]:
        """Queue one mail; the future says whether the SMTP server took it."""
        msg = EmailMessage()
        msg["From"] = self.settings.sender
        msg["To"] = to
        msg["Subject"] = subject
        msg["Message-ID"] = make_msgid(domain=self.settings.sender.rsplit("@", 1)[-1])
        msg.set_content(body)
        return self.pool.submit(self._deliver, msg)

    def _deliver(self, msg: EmailMessage) -> bool:
        s = self.settings
        try:
            with smtplib.SMTP(s.host, s.port, timeout=s.timeout) as smtp:
                if s.starttls:
                    smtp.starttls(context=ssl.create_default_context())
                if s.user is not None and s.password is not None:
                    smtp.login(s.user, s.password)
                smtp.send_message(msg)
        except (OSError, smtplib.SMTPException) as e:
            with self._lock:
                self.failed += 1
            log.warning("the turn mail to %s was not sent: %s", msg["To"], str(e).splitlines()[0] if str(e) else e)
            return False
        with self._lock:
            self.sent += 1
        return True

    def close(self) -> None:
        self.pool.shutdown(wait=False, cancel_futures=False)


def turn_mail(title: str, gid: str, seat_name: str, link: str, deadline: str | None) -> tuple[str, str]:
    """The subject and text of the mail that tells ``seat_name`` it is their turn."""
    subject = f"Your turn in {title} ({gid})"
    lines = [f"{seat_name}, it is your turn in {title}.", "", f"Play: {link}", ""]
    if deadline:
        lines += [f"Move by {deadline}.", ""]
    lines += ["This link holds your seat: keep it to yourself.",
              "You get this mail because an e-mail address was set for your seat in this game."]
    return subject, "\n".join(lines) + "\n"
