"""Ratings: one openskill rating (Plackett-Luce model: mu, sigma) per account and ruleset, moved by every rated
lobby game that ends.

A game is rated when its lobby table was (``lobby_tables.rated``) and at least two accounts played it. The seats
are ranked by the game's ``result()`` (1 a win, 0 a loss, a share for tied winners), ties broken by its
``scores()`` (victory points, coins); equal seats share a rank. Computer seats are left out: the accounts are
ranked among themselves. The rating shown is openskill's ordinal, ``mu - 3 sigma`` (0 for a new player, rising as
the rating becomes surer and better).

A game is rated once (``rated_games``, keyed by the game, is written in the same transaction as the ratings):
the process that commits the last action rates it at once (``on_write``), and any process rates a finished game
it finds unrated when the lobby or a player page is read (``settle_pending``), so a game that ended while a
process was stopping is rated later.
"""

from __future__ import annotations

import datetime as dt
import logging
from typing import Any

from openskill.models import PlackettLuce
from sqlalchemy import Column, DateTime, Float, ForeignKey, Integer, String, Table, insert, select, update
from sqlalchemy.exc import IntegrityError

from conquest.web.accounts import Accounts
from conquest.web.games import Games, WebError
from conquest.web.lobby_tables import HUMAN, table_seats_table, tables_table
from conquest.web.storage import Store, games_table, metadata

log = logging.getLogger("conquest.web")

ratings_table = Table(
    "ratings", metadata,
    Column("account_id", String(32), ForeignKey("accounts.id", ondelete="CASCADE"), primary_key=True),
    Column("ruleset", String(64), primary_key=True),
    Column("mu", Float, nullable=False),
    Column("sigma", Float, nullable=False),
    Column("games", Integer, nullable=False),
    Column("updated_at", DateTime(timezone=True), nullable=False),
)

rated_games_table = Table(
    "rated_games", metadata,
    Column("game_id", String(32), ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
    Column("rated_at", DateTime(timezone=True), nullable=False),
)

rating_events_table = Table(
    "rating_events", metadata,
    Column("game_id", String(32), ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
    Column("account_id", String(32), ForeignKey("accounts.id", ondelete="CASCADE"), primary_key=True,
           index=True),
    Column("ruleset", String(64), nullable=False),
    Column("seat", Integer, nullable=False),
    Column("rank", Integer, nullable=False),  # 1 the best among the accounts of the game
    Column("of", Integer, nullable=False),  # how many accounts were ranked
    Column("mu_before", Float, nullable=False),
    Column("sigma_before", Float, nullable=False),
    Column("mu_after", Float, nullable=False),
    Column("sigma_after", Float, nullable=False),
    Column("at", DateTime(timezone=True), nullable=False),
)


def _now() -> dt.datetime:
    return dt.datetime.now(dt.UTC)


def ordinal(mu: float, sigma: float) -> float:
    return round(mu - 3 * sigma, 2)


def ranks_of(result: list[float], scores: list[float] | None, seats: list[int]) -> list[int]:
    """The rank (1 the best) of each of ``seats``: by result, then score; equal seats share a rank."""
    def key(s: int) -> tuple[float, float]:
        return (result[s], scores[s] if scores is not None and s < len(scores) else 0.0)
    keys = [key(s) for s in seats]
    return [1 + sum(1 for k in keys if k > mine) for mine in keys]


class Ratings:
    def __init__(self, store: Store, games: Games, accounts: Accounts) -> None:
        self.store, self.games, self.accounts = store, games, accounts
        self.model = PlackettLuce()

    def on_write(self, gid: str, _revision: int) -> None:
        """After every committed action: rate the game if that action ended it (the game in memory says so
        without a query while it goes on)."""
        live = self.games._cache.get(gid)
        if live is None or live.state.to_move is not None:
            return
        try:
            self.settle(gid)
        except Exception:  # a rating must never break the game's write
            log.exception("rating game %s failed", gid)

    def settle_pending(self) -> None:
        """Rate the finished rated games no process has rated yet."""
        with self.store.engine.connect() as conn:
            gids = [g for (g,) in conn.execute(
                select(tables_table.c.game_id)
                .join(games_table, games_table.c.id == tables_table.c.game_id)
                .outerjoin(rated_games_table, rated_games_table.c.game_id == tables_table.c.game_id)
                .where(tables_table.c.rated.is_(True), games_table.c.status == "over",
                       rated_games_table.c.game_id.is_(None))
                .limit(50)).all()]
        for g in gids:
            try:
                self.settle(g)
            except Exception:
                log.exception("rating game %s failed", g)

    def settle(self, gid: str) -> bool:
        """Rate the finished game ``gid`` if it is rated and not rated yet; True when this call rated it."""
        with self.store.engine.connect() as conn:
            table = conn.execute(select(tables_table.c.id, tables_table.c.rated).where(
                tables_table.c.game_id == gid)).first()
            game = conn.execute(select(games_table.c.ruleset, games_table.c.status, games_table.c.result,
                                       games_table.c.scores).where(games_table.c.id == gid)).first()
            if table is None or not table[1] or game is None or game[1] != "over" or game[2] is None:
                return False
            seated = conn.execute(select(table_seats_table.c.seat, table_seats_table.c.account_id).where(
                table_seats_table.c.table_id == table[0], table_seats_table.c.kind == HUMAN,
                table_seats_table.c.account_id.is_not(None)).order_by(table_seats_table.c.seat)).all()
        ruleset, result, scores = game[0], list(game[2]), list(game[3]) if game[3] is not None else None
        seats = [int(s) for s, _a in seated]
        accounts = [str(a) for _s, a in seated]
        now = _now()
        try:
            with self.store._write_lock, self.store.engine.begin() as conn:
                conn.execute(insert(rated_games_table).values(game_id=gid, rated_at=now))  # once per game
                if len(set(accounts)) < 2:
                    return False
                old = {r[0]: (r[1], r[2], r[3]) for r in conn.execute(
                    select(ratings_table.c.account_id, ratings_table.c.mu, ratings_table.c.sigma,
                           ratings_table.c.games)
                    .where(ratings_table.c.ruleset == ruleset, ratings_table.c.account_id.in_(accounts))
                    .with_for_update()).all()}
                before = [self.model.rating(mu=old[a][0], sigma=old[a][1]) if a in old else self.model.rating()
                          for a in accounts]
                ranks = ranks_of(result, scores, seats)
                after = self.model.rate([[r] for r in before], ranks=[float(r) for r in ranks])
                for i, a in enumerate(accounts):
                    new = after[i][0]
                    if a in old:
                        conn.execute(update(ratings_table).where(ratings_table.c.account_id == a,
                                                                 ratings_table.c.ruleset == ruleset)
                                     .values(mu=new.mu, sigma=new.sigma, games=old[a][2] + 1, updated_at=now))
                    else:
                        conn.execute(insert(ratings_table).values(account_id=a, ruleset=ruleset, mu=new.mu,
                                                                  sigma=new.sigma, games=1, updated_at=now))
                    conn.execute(insert(rating_events_table).values(
                        game_id=gid, account_id=a, ruleset=ruleset, seat=seats[i], rank=ranks[i], of=len(accounts),
                        mu_before=before[i].mu, sigma_before=before[i].sigma, mu_after=new.mu,
                        sigma_after=new.sigma, at=now))
        except IntegrityError:  # rated already (by another process)
            return False
        return True

    def ordinals(self, account_ids: list[str], ruleset: str) -> dict[str, float]:
        """Each account's displayed rating in ``ruleset`` (0 for one with no rated game there)."""
        ids = [a for a in account_ids if a]
        if not ids:
            return {}
        with self.store.engine.connect() as conn:
            rows = conn.execute(select(ratings_table.c.account_id, ratings_table.c.mu, ratings_table.c.sigma)
                                .where(ratings_table.c.ruleset == ruleset, ratings_table.c.account_id.in_(ids))
                                ).all()
        got = {r[0]: ordinal(r[1], r[2]) for r in rows}
        return {a: got.get(a, 0.0) for a in ids}

    def player(self, name: str) -> dict[str, Any]:
        """A player's page: ratings per ruleset and the history of rated games (the latest 100)."""
        acc = self.accounts.by_name(name)
        if acc is None:
            raise WebError(404, "no player of that name")
        self.settle_pending()
        with self.store.engine.connect() as conn:
            ratings = conn.execute(select(ratings_table).where(ratings_table.c.account_id == acc.id)
                                   .order_by(ratings_table.c.ruleset)).mappings().all()
            events = conn.execute(select(rating_events_table).where(rating_events_table.c.account_id == acc.id)
                                  .order_by(rating_events_table.c.at.desc()).limit(100)).mappings().all()
        titles = {rid: rs.title for rid, rs in self.games.rulesets().items()}
        return {
            "name": acc.name,
            "ratings": [{"ruleset": r["ruleset"], "title": titles.get(r["ruleset"], r["ruleset"]),
                         "rating": ordinal(r["mu"], r["sigma"]), "mu": round(r["mu"], 3),
                         "sigma": round(r["sigma"], 3), "games": r["games"]} for r in ratings],
            "history": [{"game": e["game_id"], "ruleset": e["ruleset"],
                         "title": titles.get(e["ruleset"], e["ruleset"]), "rank": e["rank"], "of": e["of"],
                         "before": ordinal(e["mu_before"], e["sigma_before"]),
                         "after": ordinal(e["mu_after"], e["sigma_after"]),
                         "at": e["at"].isoformat() if e["at"] else None} for e in events]}
