"""The Nerath evaluation that knows what battles are worth (``NerathRuleset.evaluate``; docs/agents.md, "Nerath's
evaluation").

A position is scored per realm in points (1 VP = 4 points, 1 gold = 0.5) and summed per side; a seat's value is
its side's minus the strongest other side's (as the earlier evaluation, ``NerathRuleset.evaluate_reference``).
On top of the material (VP, gold, lands, Capitals, pieces, Castles, Warships, Treasures) it counts battles with the
project's exact battle calculator (``odds.NerathBattle``, cached by the two sides' piece counts):

- **declared battles** (the spaces the realm to move has entered, and the battle being fought): the attacker's
  chance to win times what the space is worth to each realm (VP scored, the land and its income, a Capital's
  halving of income, the Castle), and each side's expected gold of pieces lost;
- **the battles a realm's pieces can start next** (each realm's pieces next to an enemy land, against what
  defends it; each dungeon entrance its Heroes stand next to, against its Guardians): the same values, weighed
  by ``REACH`` (a possibility, not a fact), counted only when they are worth starting, and only the best
  ``BEST_TARGETS`` of each realm (one stack cannot attack everywhere). This is also what each realm's lands,
  Capital and Castles risk from the enemy's replies.

The plans the greedy agent and the search's ordering weigh (``plans``): for every enemy space or dungeon entrance
the realm to move can reach in its Move step, every movable piece that can reach it moved there at once.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import compress
from typing import Any

from conquest.core.game import Action
from conquest.rulesets.nerath.cards import treasure_cards
from conquest.rulesets.nerath.data import DRAGON, DUNGEON, FIGHTER, LAND, N_TYPES, SEA, WIZARD, R, guardian_tiles
from conquest.rulesets.nerath.income import income
from conquest.rulesets.nerath.odds import NerathBattle
from conquest.rulesets.nerath.state import (
    ADJ,
    C1,
    C2,
    CAPITAL,
    COST,
    HOME,
    IS_CAPITAL,
    KIND,
    LANDS,
    OWNER,
    SPACE,
    NerathData,
)

VP_POINTS = 4.0          # a VP, in points
GOLD_POINTS = 0.5        # a gold piece in the treasury
PIECE_POINTS = 0.8       # a piece on the board, per gold of its cost
LAND_POINTS = 1.5        # a land held (its gold of income every turn)
CAPITAL_HELD = 3.0       # one's own Capital held ...
CAPITAL_LOST = -6.0      # ... or lost (income halved)
CASTLE_POINTS = 2.0      # a Castle (it belongs to whoever controls its space)
DUNGEON_WIN = 7.0        # a plundered dungeon: a Treasure card (VP, a power) - as the earlier evaluation
REACH = 0.4              # weight of a battle a realm can start next (not yet declared)
BEST_TARGETS = 2         # battles counted per realm among those it can start next
MAX_COUNT = 12           # piece counts above this are capped in the odds' cache key
STAND_IN = "orc-warband"  # a facedown Guardian is taken as this tile (2d8: the tiles' middle strength)
_HEROES = (FIGHTER, WIZARD)
_WARSHIP_VALUE = 1.6

_Odds = tuple[float, float, float]
_ODDS: dict[tuple[Any, ...], _Odds] = {}
ODDS_CACHE_MAX = 200_000
stats = {"solved": 0, "looked_up": 0}
"""Odds solved and looked up since the process started (for benchmarks)."""


def _names(counts: Sequence[int], names: Sequence[str]) -> list[str]:
    out: list[str] = []
    for c, nm in zip(counts, names):
        out += [nm] * c
    return out


_PIECES = ("footsoldier", "siege", "fighter", "wizard", "monster", "storm", "dragon")


def battle_odds(att: Sequence[int], dfn: Sequence[int], castle: bool = False, sea_ships: tuple[int, int] | None = None,
                wounded: tuple[int, int] = (0, 0)) -> _Odds:
    """(attacker wins, expected gold lost by the attacker, by the defender) of a land battle (``sea_ships``
    None) or a sea battle (``sea_ships``: the two sides' Warships), the sides given as counts per piece kind
    (``data.COUNTED``' order; at sea the Heroes aboard). Exact (the calculator's Markov chain), cached by the
    counts."""
    stats["looked_up"] += 1
    raw = (tuple(att), tuple(dfn), castle, sea_ships, wounded)
    got = _ODDS.get(raw)   # the counts as they are (the result is also kept under them: see below)
    if got is not None:
        return got
    a = tuple(min(c, MAX_COUNT) for c in att)
    d = tuple(min(c, MAX_COUNT) for c in dfn)
    key = (a, d, castle, sea_ships, wounded)
    got = _ODDS.get(key)
    if got is not None:
        _ODDS[raw] = got
        return got
    an = _names(a, _PIECES)
    dn = _names(d, _PIECES)
    if sea_ships is not None:
        an += ["warship"] * sea_ships[0]
        dn += ["warship"] * sea_ships[1]
    if castle:
        dn.append("castle")
    if not an:
        got = (0.0, 0.0, 0.0)
    elif not dn:
        got = (1.0, 0.0, 0.0)
    else:
        o = NerathBattle(an, dn, sea=sea_ships is not None, wounded=wounded).solve()
        got = (o.attacker_wins, o.expected_gold_lost["attacker"], o.expected_gold_lost["defender"])
    stats["solved"] += 1
    if len(_ODDS) >= ODDS_CACHE_MAX:
        _ODDS.clear()
    _ODDS[key] = _ODDS[raw] = got
    return got


def dungeon_odds(heroes: Sequence[int], guardians: Sequence[tuple[str, tuple[int, ...]]]) -> _Odds:
    """(Heroes win, expected gold the Heroes lose, 0) against an entrance's Guardians: (tile, dice left) each, a
    facedown tile given as ``STAND_IN``; cached."""
    h = tuple(min(c, MAX_COUNT) for c in heroes)
    key = ("dungeon", h, tuple(guardians))
    stats["looked_up"] += 1
    got = _ODDS.get(key)
    if got is not None:
        return got
    hn = _names(h, _PIECES)
    if not hn:
        got = (0.0, 0.0, 0.0)
    elif not guardians:
        got = (1.0, 0.0, 0.0)
    else:
        tiles = [g for g, _ in guardians]
        if len(set(tiles)) < len(tiles):   # two stand-ins: the second as another middling tile
            tiles = [t if t not in tiles[:i] else "bandit-lair" for i, t in enumerate(tiles)]
        dice = {t: list(dl) for t, (_, dl) in zip(tiles, guardians)}
        o = NerathBattle(hn, tiles, dungeon=True, guardian_dice=dice).solve()
        got = (o.attacker_wins, o.expected_gold_lost["attacker"], 0.0)
    stats["solved"] += 1
    if len(_ODDS) >= ODDS_CACHE_MAX:
        _ODDS.clear()
    _ODDS[key] = got
    return got


def _guardians(st: NerathData, x: int) -> tuple[tuple[str, tuple[int, ...]], ...]:
    tiles = guardian_tiles()
    out = []
    for g in st.guardians[x]:
        if g[1]:
            out.append((str(g[0]), tuple(int(f) for f in g[2:])))
        else:
            out.append((STAND_IN, tuple(tiles[STAND_IN].dice)))
    return tuple(out)


def _reward(st: NerathData, x: int) -> float:
    tiles = guardian_tiles()
    return float(sum(tiles[g[0]].reward for g in st.guardians[x] if g[1]))


def conquest_swing(st: NerathData, x: int, r: int) -> list[float]:
    """What each realm gains (points) if realm r conquers land x: VP, the land, a Capital's income, the Castle.
    An ally's starting land is liberated: it goes back to the ally, and nobody scores VP."""
    out = [0.0] * R
    owner = st.ctrl[x]
    h = HOME[x]
    new = h if (h >= 0 and h != r and st.team[h] == st.team[r]) else r
    if new == owner:
        return out
    if new == r and h >= 0 and h != r:
        out[r] += VP_POINTS * (5 if IS_CAPITAL[x] else 1)
    out[new] += LAND_POINTS
    out[owner] -= LAND_POINTS
    if IS_CAPITAL[x] and h >= 0:
        if owner == h:
            out[h] += CAPITAL_LOST - CAPITAL_HELD
        elif new == h:
            out[h] += CAPITAL_HELD - CAPITAL_LOST
    if st.castle[x]:
        out[new] += CASTLE_POINTS
        out[owner] -= CASTLE_POINTS
    return out


_NONZERO = bytes([0] + [1] * 255)
_PIECE_VALUE = [PIECE_POINTS * COST[t] for t in range(N_TYPES)]


def _cells(n: Sequence[int], val: list[float]) -> dict[int, Sequence[int]]:
    """Each (space * R + realm) holding pieces -> its counts per kind; each piece's value added to its realm's
    ``val`` in the order of the table. For a table with a count outside 0..255 (``state.counts_table``), which
    cannot be memoised as bytes; every other table goes through ``_cells_of`` and its memo."""
    cells: dict[int, Sequence[int]] = {}
    for i in compress(range(len(n)), n):
        cell, t = divmod(i, N_TYPES)
        val[cell % R] += _PIECE_VALUE[t] * n[i]
        cells.setdefault(cell, [0] * N_TYPES)[t] = n[i]   # type: ignore[index]
    return cells


def _cells_of(blob: bytes, adds: list[list[float]]) -> dict[int, Sequence[int]]:
    """``_cells`` of a byte table, each piece's value put in its realm's list of ``adds`` in the table's order
    instead of added."""
    cells: dict[int, Sequence[int]] = {}
    flags = blob.translate(_NONZERO)
    rows = _ROWS
    i = flags.find(1)
    while i >= 0:
        cell = i // N_TYPES
        b = cell * N_TYPES
        key = blob[b:b + N_TYPES]
        got = rows.get(key)
        if got is None:
            if len(rows) >= _ROWS_MAX:
                rows.clear()
            got = rows[key] = (tuple(key), tuple(_PIECE_VALUE[t] * c for t, c in enumerate(key) if c))
        cells[cell] = got[0]
        adds[cell % R] += got[1]
        i = flags.find(1, b + N_TYPES)
    return cells


_CELLS: dict[bytes, tuple[dict[int, Sequence[int]], tuple[tuple[float, ...], ...]]] = {}
"""``_cells_of`` memoised by the piece counts (the dict is shared: read it, do not change it)."""

_ROWS: dict[bytes, tuple[tuple[int, ...], tuple[float, ...]]] = {}
_ROWS_MAX = 50_000
"""A (space, realm)'s counts as bytes -> (the counts, the value of each kind present, in order)."""


def _swing(st: NerathData, x: int, r: int) -> list[float]:
    """``conquest_swing``, memoised by what it reads (the land, the realm, its controller, its Castle, the sides);
    the list returned is shared: read it, do not change it."""
    key = (x, r, st.ctrl[x], st.castle[x], tuple(st.team))
    got = _SWINGS.get(key)
    if got is None:
        if len(_SWINGS) >= _ROWS_MAX:
            _SWINGS.clear()
        got = _SWINGS[key] = conquest_swing(st, x, r)
    return got


_SWINGS: dict[tuple[int, int, int, int, tuple[int, ...]], list[float]] = {}


def realm_values(st: NerathData) -> list[float]:
    """Each realm's value in points: material, declared battles and the battles it can start next."""
    val = [0.0] * R
    for r in range(R):
        val[r] = VP_POINTS * st.vp[r] + GOLD_POINTS * st.gold[r]
    ctrl = st.ctrl
    for s in LANDS:   # halves and whole numbers: these sums are exact in any order
        val[ctrl[s]] += LAND_POINTS
    for r in range(R):
        val[r] += CAPITAL_HELD if ctrl[CAPITAL[r]] == r else CAPITAL_LOST
    if st.phase == "reinforce":
        val[st.realm] += GOLD_POINTS * income(st, st.realm)
    # pieces: value, and each (space, realm)'s counts (from here on each sum is added in a fixed order)
    try:
        blob: bytes | None = bytes(st.pieces)
    except ValueError:   # a count outside 0..255 (``state.counts_table``): nothing memoised
        blob = None
        cells = _cells(st.pieces, val)
    if blob is not None:
        got = _CELLS.get(blob)
        if got is None:
            adds: list[list[float]] = [[] for _ in range(R)]
            got = (_cells_of(blob, adds), tuple(map(tuple, adds)))
            if len(_CELLS) >= _NEXT_MAX:
                _CELLS.clear()
            _CELLS[blob] = got
        cells = got[0]
        _replay(val, got[1])   # the pieces' values in the order of the table, as ``_cells`` adds them
    ships_at: dict[int, list[int]] = {}   # (space * R + realm) -> [warships, heroes aboard per kind...]
    for sh in st.ships.values():
        c1, c2 = sh[C1], sh[C2]
        val[sh[OWNER]] += _WARSHIP_VALUE + PIECE_POINTS * ((COST[c1] if c1 >= 0 else 0) + (COST[c2] if c2 >= 0 else 0))
        row = ships_at.setdefault(sh[SPACE] * R + sh[OWNER], [0] * (N_TYPES + 1))
        row[N_TYPES] += 1
        if c1 in _HEROES:
            row[c1] += 1
        if c2 in _HEROES:
            row[c2] += 1
    castle = st.castle
    for s in compress(range(len(castle)), castle):
        if KIND[s] == LAND:
            val[ctrl[s]] += CASTLE_POINTS
    cards = treasure_cards()
    long_game = st.options["length"] == "long"
    for r in range(R):
        if st.treasures[r]:
            val[r] += sum(3.5 * cards[c]["vp"] for c in st.treasures[r] if c in cards)
        if long_game:
            val[r] += 4.0 * (len(st.treasures[r]) + len(st.treasures_played[r]))
    # declared battles, at their exact odds
    r0 = st.realm
    fighting = list(st.pending)
    bt = st.battle
    if bt is not None and bt.space not in fighting:
        fighting.append(bt.space)
    for x in fighting:
        att = bt.attacker if bt is not None and bt.space == x else r0
        _declared(st, x, att, cells, ships_at, val)
    committed = {x * R + r0 for x in fighting}
    if blob is None:
        ops: list[tuple[int, float]] = []
        _next_battles(st, cells, committed, ops)
        for r, pts in ops:
            val[r] += pts
        return val
    key = (blob, tuple(st.ctrl), tuple(st.castle), tuple(st.team), tuple(sorted(committed)),
           _guardians_key(st.guardians))
    got_ops = _NEXT.get(key)
    if got_ops is None:
        ops = []
        _next_battles(st, cells, committed, ops)
        by_realm: list[list[float]] = [[] for _ in range(R)]
        for r, pts in ops:
            by_realm[r].append(pts)
        if len(_NEXT) >= _NEXT_MAX:
            _NEXT.clear()
        got_ops = _NEXT[key] = tuple(map(tuple, by_realm))
    _replay(val, got_ops)
    return val


def _replay(val: list[float], adds: tuple[tuple[float, ...], ...]) -> None:
    """Add to each realm's value its points in the order they were found: each realm's sum is the same to the
    last bit as when they were added as found (the realms' sums are apart; each one's order is kept). Tuples of
    numbers only, so that the memos hold nothing the garbage collector must walk."""
    for r, xs in enumerate(adds):
        if xs:
            a = val[r]
            for x in xs:
                a += x
            val[r] = a


_NEXT: dict[tuple[Any, ...], tuple[tuple[float, ...], ...]] = {}
_NEXT_MAX = 5_000   # (each entry holds the piece table: 2 KB)
"""``_next_battles``' additions to the realms' values, memoised by all it reads: the piece counts, control, the
Castles, the sides, the cells committed to declared battles and the Guardians."""


def _guardians_key(guardians: dict[int, list[list[Any]]]) -> tuple[Any, ...]:
    """What ``_next_battles`` reads of the Guardians: each entrance's tiles, a facedown one as 0 (``_guardians``
    takes it as ``STAND_IN`` at full strength whatever it is, and ``_reward`` counts the face-up ones only).
    Memoised by the dict itself: the rules never change a state's Guardians once it is made (a clone shares them
    and every change takes its own copy first, ``base.own_guardians``; a determinization makes a new dict)."""
    return _guardians_memo(guardians)[1]


def _guardians_memo(guardians: dict[int, list[list[Any]]]) -> tuple[Any, tuple[Any, ...], dict[int, Any]]:
    """(the Guardians' dict, ``_guardians_key``, each entrance's (``_guardians``, ``_reward``) as asked), memoised by
    the dict (see ``_guardians_key``)."""
    got = _GKEYS.get(id(guardians))
    if got is not None and got[0] is guardians:   # (the dict is held: its id is not another's)
        return got
    key = tuple((x, tuple(tuple(g) if g[1] else 0 for g in tiles)) for x, tiles in guardians.items())
    if len(_GKEYS) >= 1_000:
        _GKEYS.clear()
    got = _GKEYS[id(guardians)] = (guardians, key, {})
    return got


_GKEYS: dict[int, tuple[Any, tuple[Any, ...], dict[int, Any]]] = {}


_NEAR = [tuple((s, KIND[s] == LAND) for s in ADJ[y] if KIND[s] != SEA) for y in range(len(ADJ))]
"""The land spaces and dungeon entrances next to each space (the map only)."""


def _next_battles(st: NerathData, cells: dict[int, Sequence[int]], committed: set[int],
                  ops: list[tuple[int, float]]) -> None:
    """The battles each realm can start next: every enemy land and dungeon entrance next to its pieces (but those
    already ``committed`` to a declared battle), at their odds; the best ``BEST_TARGETS`` of each realm count.
    What each adds to a realm's value is put in ``ops`` as (realm, points), in order."""
    team, ctrl = st.team, st.ctrl
    targets = _targets(tuple(team), ctrl)
    reach: dict[int, Sequence[int]] = {}   # (space * R + realm) -> counts next to that space
    for cell, row in cells.items():
        if cell in committed:
            continue
        # the enemy lands next to the cell's space (a friendly land: no battle to start there), and the dungeon
        # entrances next to it when Heroes are in the cell; as (space * R + realm)
        lands, dungeons = targets[cell]
        for k2 in lands:
            acc = reach.get(k2)
            reach[k2] = row if acc is None else [u + v for u, v in zip(acc, row)]
        if dungeons and (row[FIGHTER] or row[WIZARD]):
            for k2 in dungeons:
                acc = reach.get(k2)
                reach[k2] = row if acc is None else [u + v for u, v in zip(acc, row)]
    options: list[list[tuple[float, int, float, float, int]]] = [[] for _ in range(R)]
    held: dict[int, tuple[int, ...] | None] = {}   # a land's defenders' counts (None: a battle of its own is there)
    entrance: dict[int, tuple[tuple[tuple[str, tuple[int, ...]], ...], float]] = _guardians_memo(st.guardians)[2]
    castle = st.castle
    team_t = tuple(team)
    memo = _OPTIONS
    for key, force in reach.items():
        s, e = divmod(key, R)
        if KIND[s] == LAND:
            owner = ctrl[s]
            if s in held:
                dfn = held[s]
            else:
                got_d = _defenders(team, owner, cells, s)
                dfn = held[s] = None if got_d is None else tuple(got_d)
            if dfn is None:
                continue
            mk: tuple[Any, ...] = (key, tuple(force), dfn, owner, castle[s], team_t)
            opt = memo.get(mk)
            if opt is None:
                p, lost_a, lost_d = battle_odds(force, dfn, bool(castle[s]))
                swing = _swing(st, s, e)
                gain = p * swing[e] - PIECE_POINTS * lost_a
                opt = memo[mk] = (gain, s, p, lost_d, owner)
            if opt[0] > 0:
                options[e].append(opt)
        elif st.guardians.get(s) is not None:
            got = entrance.get(s)
            if got is None:
                got = entrance[s] = (_guardians(st, s), _reward(st, s))
            mk = (key, force[FIGHTER], force[WIZARD], got)
            opt = memo.get(mk)
            if opt is None:
                heroes = [force[t] if t in _HEROES else 0 for t in range(N_TYPES)]
                p, lost_a, _ = dungeon_odds(heroes, got[0])
                gain = p * (DUNGEON_WIN + GOLD_POINTS * got[1]) - PIECE_POINTS * lost_a
                opt = memo[mk] = (gain, s, p, 0.0, -1)
            if opt[0] > 0:
                options[e].append(opt)
    if len(memo) >= _OPTIONS_MAX:
        memo.clear()
    for e in range(R):
        opts = options[e]
        if not opts:
            continue
        opts.sort(reverse=True)
        for gain, s, p, lost_d, owner in opts[:BEST_TARGETS]:
            ops.append((e, REACH * gain))
            if owner >= 0:
                swing = _swing(st, s, e)
                for d in range(R):
                    if d != e and swing[d]:
                        ops.append((d, REACH * p * swing[d]))
                ops.append((owner, -(REACH * PIECE_POINTS * lost_d)))   # x - y is x + (-y), bit for bit


_OPTIONS: dict[tuple[Any, ...], tuple[float, int, float, float, int]] = {}
_OPTIONS_MAX = 50_000
"""A battle a realm can start next, (gain, space, the attacker's odds, the defender's expected loss, the land's
owner or -1), memoised by all its values are worked out from: the space and realm, the attacking counts and, for
a land, its defenders' counts, owner, Castle and the sides; for a dungeon entrance, its Guardians and reward."""


def _targets(team: tuple[int, ...], ctrl: list[int]) -> list[tuple[tuple[int, ...], tuple[int, ...]]]:
    """By cell (space * R + realm): the keys (space * R + realm) of the land spaces next to that space whose
    controller is not on the realm's side, and of the dungeon entrances next to it (``_NEAR`` order); memoised by
    the control of every space and the sides (control changes seldom)."""
    key = (tuple(ctrl), team)
    got = _TARGETS.get(key)
    if got is None:
        got = []
        for y in range(len(_NEAR)):
            for e in range(R):
                side = team[e]
                got.append((tuple(s * R + e for s, land in _NEAR[y] if land and team[ctrl[s]] != side),
                            tuple(s * R + e for s, land in _NEAR[y] if not land)))
        if len(_TARGETS) >= _TARGETS_MAX:
            _TARGETS.clear()
        _TARGETS[key] = got
    return got


_TARGETS: dict[tuple[tuple[int, ...], tuple[int, ...]], list[tuple[tuple[int, ...], tuple[int, ...]]]] = {}
_TARGETS_MAX = 2_000


def _defenders(team: tuple[int, ...], owner: int, cells: dict[int, Sequence[int]], s: int) -> Sequence[int] | None:
    """The counts defending land ``s`` for its ``owner`` (its side's pieces there), or None when enemy pieces are
    there already (a battle of its own)."""
    dfn: Sequence[int] | None = None
    for d in range(R):
        row = cells.get(s * R + d)
        if row is None:
            continue
        if team[d] != team[owner]:
            return None
        dfn = row if dfn is None else [u + v for u, v in zip(dfn, row)]
    return _NONE if dfn is None else dfn


_NONE = (0,) * N_TYPES


def _declared(st: NerathData, x: int, att: int, cells: dict[int, Sequence[int]], ships_at: dict[int, list[int]],
              val: list[float]) -> None:
    """A declared battle (or the one being fought) at its exact odds: the attacker's chance to take the space
    times each realm's gain, and the pieces each side expects to lose."""
    team = st.team
    bt = st.battle
    in_battle = bt is not None and bt.space == x
    hurt = bt.wounded_dragons if in_battle and bt is not None else [0] * R
    kind = KIND[x]
    if kind == DUNGEON:
        hrow = cells.get(x * R + att, [0] * N_TYPES)
        heroes = [hrow[t] if t in _HEROES else 0 for t in range(N_TYPES)]
        p, lost_a, _ = dungeon_odds(heroes, _guardians(st, x))
        val[att] += p * (DUNGEON_WIN + GOLD_POINTS * _reward(st, x)) - PIECE_POINTS * lost_a
        return
    att_row = list(cells.get(x * R + att, [0] * N_TYPES))
    dfn = [0] * N_TYPES
    owner = st.ctrl[x] if kind == LAND else -1
    hurt_d = 0
    ships_a = ships_d = 0
    defenders = [d for d in range(R) if team[d] != team[att]]
    for d in defenders:
        drow = cells.get(x * R + d)
        if drow is not None:
            for t in range(N_TYPES):
                dfn[t] += drow[t]
        hurt_d += hurt[d]
    if kind == SEA:
        sa = ships_at.get(x * R + att)
        if sa is not None:
            ships_a = sa[N_TYPES]
            for t in _HEROES:
                att_row[t] += sa[t]
        for d in defenders:
            sd = ships_at.get(x * R + d)
            if sd is not None:
                ships_d += sd[N_TYPES]
                for t in _HEROES:
                    dfn[t] += sd[t]
        att_row = [c if t in _HEROES or t >= 5 else 0 for t, c in enumerate(att_row)]
        dfn = [c if t in _HEROES or t >= 5 else 0 for t, c in enumerate(dfn)]
    castle = kind == LAND and bool(st.castle[x]) and team[owner] != team[att] and \
        not (in_battle and bt is not None and bt.castle_inactive)
    wounded = (min(hurt[att], att_row[DRAGON]), min(hurt_d, dfn[DRAGON]))
    p, lost_a, lost_d = battle_odds(att_row, dfn, castle, (ships_a, ships_d) if kind == SEA else None, wounded)
    val[att] -= PIECE_POINTS * lost_a
    hit = [d for d in defenders if x * R + d in cells] or ([owner] if owner >= 0 else [])
    for d in hit:
        val[d] -= PIECE_POINTS * lost_d / len(hit)
    if kind == LAND:
        swing = _swing(st, x, att)
        for r in range(R):
            val[r] += p * swing[r]


def team_values(st: NerathData) -> dict[int, float]:
    """Each side's value: the sum of its realms'."""
    val = realm_values(st)
    teams: dict[int, float] = {}
    for r in range(R):
        teams[st.team[r]] = teams.get(st.team[r], 0.0) + val[r]
    return teams


# ------------------------------------------------------------------------------------------------ plans
def plans(st: NerathData, legal: Sequence[Action]) -> list[list[Action]]:
    """The realm to move's attack plans in its Move step: for each enemy space or dungeon entrance its pieces can
    move into, every movable piece that can reach it moved there (the largest move of each stack, strongest
    stacks first). Plans of one action are left out (the single moves weigh them)."""
    if st.phase != "move" or st.battle is not None or st.reaction is not None:
        return []
    best: dict[str, dict[tuple[str, str], Action]] = {}
    for a in legal:
        if not (isinstance(a, tuple) and a and a[0] == "move"):
            continue
        _, frm, to, name, k = a
        by = best.setdefault(str(to), {})
        prev = by.get((str(frm), str(name)))
        if prev is None or int(prev[4]) < int(k):
            by[(str(frm), str(name))] = a
    from conquest.rulesets.nerath.base import enemy_space
    from conquest.rulesets.nerath.state import IX
    out: list[list[Action]] = []
    cost = dict(zip(_PIECES, COST))
    for to, moves in sorted(best.items()):
        y = IX[to]
        if not (y in st.pending or enemy_space(st, y, st.realm) or KIND[y] == DUNGEON):
            continue
        if KIND[y] == DUNGEON and not any(m[3] in ("fighter", "wizard") for m in moves.values()):
            continue
        acts = sorted(moves.values(), key=lambda m: (-cost[str(m[3])] * int(m[4]), str(m[1]), str(m[3])))
        if len(acts) > 1:
            out.append(acts)
    return out
