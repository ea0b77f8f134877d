"""A local SMTP server for the tests of turn mails: what it received, by recipient (aiosmtpd on loopback)."""

from __future__ import annotations

import email
import email.policy
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from email.message import EmailMessage
from typing import Any

from tests.web.liveserver import free_port


class Inbox:
    """What the local SMTP server received: (envelope recipients, message); ``port``: where it listens."""

    def __init__(self, port: int = 0) -> None:
        self.mails: list[tuple[list[str], EmailMessage]] = []
        self.lock = threading.Lock()
        self.port = port

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:  # aiosmtpd's name
        msg = email.message_from_bytes(envelope.content, policy=email.policy.default)
        assert isinstance(msg, EmailMessage)
        with self.lock:
            self.mails.append((list(envelope.rcpt_tos), msg))
        return "250 OK"

    def to(self, address: str) -> list[EmailMessage]:
        """The messages sent to ``address``: in their envelope and in their To header."""
        with self.lock:
            return [m for rcpt, m in self.mails if address in rcpt and m["To"] == address]


@contextmanager
def smtp_inbox() -> Iterator[Inbox]:
    """An SMTP server on a free port of 127.0.0.1 for the block's length, and what it receives."""
    from aiosmtpd.controller import Controller
    box = Inbox(free_port())
    ctl = Controller(box, hostname="127.0.0.1", port=box.port)
    ctl.start()
    try:
        yield box
    finally:
        ctl.stop()
