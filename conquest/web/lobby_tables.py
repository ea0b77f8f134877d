"""The open lobby's tables in the database (``lobby.py`` says what a table is): their own module, so that the
ratings (``ratings.py``), which the lobby uses, read them without importing the lobby."""

from __future__ import annotations

from sqlalchemy import JSON, Boolean, Column, DateTime, ForeignKey, Integer, String, Table

from conquest.web.storage import metadata

HUMAN = "human"

tables_table = Table(
    "lobby_tables", metadata,
    Column("id", String(32), primary_key=True),
    Column("ruleset", String(64), nullable=False),
    Column("players", Integer, nullable=False),
    Column("options", JSON, nullable=False),
    Column("creator", String(32), ForeignKey("accounts.id", ondelete="CASCADE"), nullable=False),
    Column("public", Boolean, nullable=False),
    Column("rated", Boolean, nullable=False),
    Column("status", String(16), nullable=False, index=True),  # open | started | cancelled
    Column("game_id", String(32), ForeignKey("games.id", ondelete="SET NULL"), nullable=True, index=True),
    Column("created_at", DateTime(timezone=True), nullable=False),
    Column("started_at", DateTime(timezone=True), nullable=True),
    Column("pace", JSON, nullable=True),  # a turn-based game's pace (PaceSettings.to_json); null: live
)

table_seats_table = Table(
    "lobby_seats", metadata,
    Column("table_id", String(32), ForeignKey("lobby_tables.id", ondelete="CASCADE"), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("kind", String(32), nullable=False),  # human | a level
    Column("account_id", String(32), ForeignKey("accounts.id", ondelete="SET NULL"), nullable=True),
)
