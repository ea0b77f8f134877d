"""The sides of a Nerath battle for the battle calculator (``conquest.rulesets.nerath.odds``), each a set of
states in which hits only move it forward: one realm's pieces as a hit track in a casualty order (``_Side``),
two allied defenders as the pair of their tracks with the rules' damage split (``_Allies``), a dungeon's
Guardians losing a die a hit (``_Guardians``); and the parsing of pieces, Guardian tiles and cards.
docs/odds.md gives the rules each follows and the policies.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from conquest.core.notation import is_digits
from conquest.core.odds import Moves, OddsError
from conquest.rulesets.nerath import data as nerath_data
from conquest.rulesets.nerath.data import guardian_tiles
from conquest.rulesets.nerath.dungeons import guardians_roll, heroes_need, need_against

POLICY_ORDERS = ("cheapest", "listed")


def piece_aliases() -> dict[str, str]:
    d = nerath_data
    tb = d.tables()
    out = {p: p for p in d.PIECE_NAMES}
    for p in d.PIECE_NAMES:
        out[tb.pieces[p].name.lower()] = p
        out[tb.pieces[p].name.lower() + "s"] = p
        out[p + "s"] = p
    out["siege engine"] = "siege"
    out["storm elemental"] = "storm"
    return out


def _counted_items(text: str, who: str, most: int, holds: str) -> list[tuple[int, str]]:
    """``"2 footsoldier, siege, 3x dragon"`` -> [(2, "footsoldier"), (1, "siege"), (3, "dragon")] (lower case,
    spaces tidied; an empty item skipped; more than ``most`` of one is refused)."""
    out: list[tuple[int, str]] = []
    for item in text.split(","):
        item = " ".join(item.strip().lower().split())
        if not item:
            continue
        k = 1
        head, _, rest = item.partition(" ")
        if is_digits(head) and rest:
            k, item = int(head), rest
        elif head.endswith("x") and is_digits(head[:-1]) and rest:
            k, item = int(head[:-1]), rest
        if k > most:
            raise OddsError(f"{who}: {k} {item} is more than {holds} (at most {most} of a kind)")
        out.append((k, item))
    return out


def parse_pieces(text: str, who: str) -> list[str]:
    """``"footsoldier,footsoldier,siege,dragon"`` or ``"2 footsoldier, siege"`` -> piece ids in that order."""
    names = piece_aliases()
    out: list[str] = []
    for k, item in _counted_items(text, who, 500, "a battle can hold"):
        if item not in names:
            raise OddsError(f"{who}: unknown piece '{item}' (one of {', '.join(nerath_data.PIECE_NAMES)})")
        out.extend([names[item]] * k)
    if not out:
        raise OddsError(f"{who}: no pieces given (an empty side cannot fight)")
    return out


def card_bonuses(cards: Sequence[str], who: str, events_only: bool = False) -> dict[str, int]:
    """The attack bonus per piece kind (``*`` for all) that Event and Treasure cards give in a battle
    (``events_only``: the Event cards' part, which trumps "Heroes Need"). Only cards whose every effect is
    ``attack_bonus`` are simple modifiers; others (reroll, cancel hits, removing pieces...) change the course
    of the battle and are refused."""
    if not cards:
        return {}
    from conquest.rulesets.nerath.cards import event_cards, treasure_cards
    events, treasures = event_cards(), treasure_cards()
    bonus: dict[str, int] = {}
    for cid in cards:
        if cid in events:
            effects = list(events[cid].get("effects", []))
        elif cid in treasures:
            effects = list(treasures[cid].get("power", [])) + list(treasures[cid].get("property", []))
        else:
            raise OddsError(f"{who}: unknown card '{cid}' (an Event card or Treasure id of the nerath decks)")
        if not effects or any(e[0] != "attack_bonus" for e in effects):
            verbs = ", ".join(sorted({e[0] for e in effects})) or "no battle effect"
            raise OddsError(f"{who}: card '{cid}' is not a simple battle modifier ({verbs}); only attack-bonus "
                            f"cards are supported")
        if events_only and cid not in events:
            continue
        for _verb, value, piece in effects:
            bonus[piece] = bonus.get(piece, 0) + int(value)
    return bonus


FACEDOWN = "facedown"


def parse_guardians(text: str, who: str = "defender") -> list[str]:
    """``"troll, guardian:ogre, facedown"`` -> Dungeon Guardian tile ids in that order (ids or names of
    ``guardians.yaml``; ``facedown`` or ``?``: a tile not seen yet; ``2 facedown``: two of them)."""
    tiles = guardian_tiles()
    names = {t: t for t in tiles}
    names.update({g.name.lower(): t for t, g in tiles.items()})
    out: list[str] = []
    for k, item in _counted_items(text.replace("guardian:", ""), who, 100, "a dungeon can hold"):
        if item in (FACEDOWN, "?"):
            out.extend([FACEDOWN] * k)
            continue
        if item not in names:
            raise OddsError(f"{who}: unknown Dungeon Guardian '{item}' (a tile of guardians.yaml: "
                            f"{', '.join(sorted(tiles))}; or facedown)")
        out.extend([names[item]] * k)
    if not out:
        raise OddsError(f"{who}: no Guardians given (a dungeon battle is fought against its Guardians)")
    return out


@dataclass
class _Unit:
    kind: str             # piece id
    cost: int
    index: int            # position in the listing
    ship: int = -1        # at sea: the unit index of the Warship a Hero is aboard
    cargo: list[int] = field(default_factory=list)


@dataclass
class _Snapshot:
    """A side after k hits: the units still in the battle, wounded Dragons, the Castle's state."""
    alive: list[bool]
    wounded: list[bool]


def _merge_dice(*rolls: tuple[tuple[int, int, int], ...]) -> tuple[tuple[int, int, int], ...]:
    dice: dict[tuple[int, int], int] = {}
    for roll in rolls:
        for f, n, c in roll:
            dice[(f, n)] = dice.get((f, n), 0) + c
    return tuple(sorted((f, n, c) for (f, n), c in dice.items()))


class _Side:
    """One realm's pieces in a battle, as a hit track: the order its pieces take hits, and what it rolls after
    k hits. Its attack bonuses (``bonus``: piece kind or ``*`` -> N) are its realm's; ``event_bonus``, the part
    of them Event cards give (in a dungeon it trumps "Heroes Need"; by default all of them)."""

    next_states: Moves | None = None   # a track: k hits -> k + h (the solver's default)
    variant: list[int] | None = None

    def __init__(self, pieces: list[str], attacking: bool, sea: bool, order: str, bonus: dict[str, int],
                 hurt_fights: bool, wounded_at_start: int = 0, who: str = "", dungeon: bool = False) -> None:
        d = nerath_data
        tb = d.tables()
        who = who or ("attacker" if attacking else "defender")
        self.name = who
        self.attacking, self.sea = attacking, sea
        if order not in POLICY_ORDERS:
            raise OddsError(f"--order '{order}': use one of {', '.join(POLICY_ORDERS)}")
        if attacking and "castle" in pieces:
            raise OddsError("attacker: a Castle cannot attack (Castles cannot move and can only defend in battle)")
        if pieces.count("castle") > 1:
            raise OddsError(f"{who}: only 1 Castle can be built in any land space")
        if dungeon:
            bad = sorted({p for p in pieces if p not in ("fighter", "wizard")})
            if bad:
                raise OddsError(f"{who}: {', '.join(bad)} cannot explore a dungeon (only Heroes (Fighters and "
                                f"Wizards) can move into dungeon entrance spaces)")
        units = [_Unit(p, tb.pieces[p].cost, i) for i, p in enumerate(pieces)]
        if sea:
            bad = sorted({p for p in pieces if p not in ("storm", "dragon", "warship", "fighter", "wizard")})
            if bad:
                raise OddsError(f"{who}: {', '.join(bad)} cannot fight at sea (only flying pieces, Warships and "
                                f"Heroes carried on Warships fight in sea battles)")
            ships = [u.index for u in units if u.kind == "warship"]
            heroes = [u for u in units if u.kind in ("fighter", "wizard")]
            if len(heroes) > 2 * len(ships):
                raise OddsError(f"{who}: {len(heroes)} Heroes at sea need {(len(heroes) + 1) // 2} Warships to "
                                f"carry them (a Warship carries up to 2 land pieces)")
            # a Hero is aboard the last Warship listed before it that has room, else the first with room
            for h in heroes:
                before = [w for w in ships if w < h.index and len(units[w].cargo) < 2]
                h.ship = before[-1] if before else next(w for w in ships if len(units[w].cargo) < 2)
                units[h.ship].cargo.append(h.index)
        else:
            if "warship" in pieces:
                raise OddsError(f"{who}: a Warship fights only in sea battles (use --sea)")
        self.units = units
        self.order = order
        self.bonus = bonus
        self.event_bonus = bonus
        self.hurt_fights = hurt_fights
        # the hit slots, in order: (unit, "wound" | "kill")
        if order == "cheapest":
            def eff_cost(u: _Unit) -> int:
                return u.cost + sum(units[c].cost for c in u.cargo)
            ranked = sorted(units, key=lambda u: (eff_cost(u), d.PIECE_NAMES.index(u.kind), u.index))
        else:
            ranked = list(units)
        slots = [(u.index, "wound" if u.kind == "dragon" else "kill") for u in ranked]
        slots += [(u.index, "kill") for u in ranked if u.kind == "dragon"]
        # walk the slots: each hit takes the next slot whose unit is still in the battle
        alive = [True] * len(units)
        wounded = [False] * len(units)
        # Dragons already wounded in this battle (a position mid-battle): the first ones listed
        dragons = [u.index for u in units if u.kind == "dragon"]
        if wounded_count := min(wounded_at_start, len(dragons)):
            for ui in dragons[:wounded_count]:
                wounded[ui] = True
        self.snaps: list[_Snapshot] = [_Snapshot(alive[:], wounded[:])]
        self.hit_slot: list[tuple[int, str]] = []
        for ui, what in slots:
            if not alive[ui] or (what == "wound" and wounded[ui]):
                continue   # a Hero lost with the Warship that carried it; a Dragon already wounded
            self.hit_slot.append((ui, what))
            if what == "wound":
                wounded[ui] = True
            else:
                alive[ui] = False
                wounded[ui] = False
                for c in units[ui].cargo:
                    alive[c] = False
            self.snaps.append(_Snapshot(alive[:], wounded[:]))
        self.K = len(self.hit_slot)   # hits that destroy the side (all its pieces, the Castle inactive)

    def slot_key(self, k: int) -> tuple[int, int, int]:
        """How cheap the side's (k+1)-th casualty is, in its order's terms: under ``cheapest`` (Dragons' second
        hits last, then the piece's cost with the Heroes a Warship carries, then the piece's kind), under
        ``listed`` its place in the order. The keys of one side's slots never decrease (``_Allies.chosen_split``
        compares two realms' keys under ``cheapest`` only: under ``listed`` the first realm goes first)."""
        ui, what = self.hit_slot[k]
        if self.order != "cheapest":
            return (0, k, 0)
        u = self.units[ui]
        cost = u.cost + sum(self.units[c].cost for c in u.cargo)
        return (int(u.kind == "dragon" and what == "kill"), cost, nerath_data.PIECE_NAMES.index(u.kind))

    # ---- what a side rolls after k hits (as rules.battle_dice) -------------------------------------
    def need(self, kind: str, heroes_need: int | None = None) -> int:
        """The roll a hit needs: 6 less the realm's attack bonus; in a dungeon (``heroes_need``: the highest
        "Heroes Need" number of the Guardians left, 0 for none) as the rules' ``need_against``."""
        bonus = self.bonus.get(kind, 0) + self.bonus.get("*", 0)
        if heroes_need is None:
            return nerath_data.tables().hit_on - bonus
        return need_against(bonus, (heroes_need,), self.event_bonus.get(kind, 0) + self.event_bonus.get("*", 0))

    def dice(self, k: int, first_strike: bool, heroes_need: int | None = None) -> tuple[tuple[int, int, int], ...]:
        tb = nerath_data.tables()
        snap = self.snaps[k]
        dice: dict[tuple[int, int], int] = {}
        for u, a, w in zip(self.units, snap.alive, snap.wounded):
            if not a:
                continue
            kind = u.kind
            if kind == "castle":
                if first_strike:
                    continue
            elif (kind == "wizard") != first_strike:
                continue
            if kind == "dragon" and w and not self.hurt_fights:
                continue
            per = 2 if (kind == "siege" and self.attacking) or (kind == "storm" and self.sea) else 1
            key = (tb.pieces[kind].die, self.need(kind, heroes_need))
            dice[key] = dice.get(key, 0) + per
        return tuple(sorted((f, n, c) for (f, n), c in dice.items()))

    def standing(self, k: int) -> tuple[int, int]:
        """(hits the side's pieces can still absorb, its pieces in the battle) after k hits: the rules'
        ``capacity`` (a Dragon not yet wounded absorbs two hits; at sea a Warship and each Hero aboard one)."""
        snap = self.snaps[k]
        pieces = sum(snap.alive)
        whole = sum(1 for u, a, w in zip(self.units, snap.alive, snap.wounded) if a and not w and u.kind == "dragon")
        return pieces + whole, pieces

    def survivors(self, k: int, keeps_castle: bool) -> tuple[Any, ...]:
        snap = self.snaps[k]
        out = []
        for u in self.units:
            if u.kind == "castle":
                if keeps_castle:
                    out.append("castle")
            elif snap.alive[u.index]:
                out.append(u.kind)
        return tuple(out)

    def row(self, key: tuple[Any, ...]) -> dict[str, Any]:
        return {"pieces": list(key)}

    def pieces_left(self, k: int) -> int:
        return sum(1 for u, a in zip(self.units, self.snaps[k].alive) if a and u.kind != "castle")

    def gold_lost(self, k: int, castle_lost: bool) -> int:
        snap = self.snaps[k]
        return sum(u.cost for u in self.units if (u.kind == "castle" and castle_lost) or
                   (u.kind != "castle" and not snap.alive[u.index]))


class _Allies:
    """Allied defenders: two realms' pieces defending a space together. Its states are the pairs (hits taken by
    the first realm, by the second), in the order of their sum, (K1, K2) last (both destroyed). The rules split
    each roll's hits between them (``battle.extra_to_first`` and ``battle.split_hits``: half each, the extra one
    to the ally with more pieces, at random on equal numbers, what one cannot take to the other); each realm
    takes its share in its own casualty order (it chooses its own casualties). ``one_seat``: one seat plays
    both realms and splits the hits itself (option ``ally_split`` ``choose``); the calculator assumes the split
    of ``chosen_split``, the casualty order across both realms."""

    variant: list[int] | None = None

    def __init__(self, realms: list[_Side], one_seat: bool = False) -> None:
        if len(realms) != 2:
            raise OddsError("the rules split the damage between two allied defenders, not more")
        self.realms = realms
        self.one_seat = one_seat
        a, b = realms
        self.states = sorted(((i, j) for i in range(a.K + 1) for j in range(b.K + 1)),
                             key=lambda p: (p[0] + p[1], p[0]))
        self.index = {p: n for n, p in enumerate(self.states)}
        self.K = len(self.states) - 1
        self.next_states: Moves | None = [self._moves(p) for p in self.states[:-1]]

    def _moves(self, pair: tuple[int, int]) -> list[list[tuple[int, Any]]]:
        """Where the pair goes with h = 0, 1, ... hits (the last entry: enough hits to destroy both)."""
        from conquest.rulesets.nerath.battle import extra_to_first, split_hits
        (ka, kb), (A, B) = pair, self.realms
        ca, pa = A.standing(ka)
        cb, pb = B.standing(kb)
        out: list[list[tuple[int, Any]]] = []
        for h in range(ca + cb + 1):
            if not pa or not pb:
                shares = [((0, h) if not pa else (h, 0), Fraction(1))]
            elif self.one_seat:
                shares = [(self.chosen_split(ka, kb, h), Fraction(1))]
            else:
                extra = extra_to_first(h, pa, pb)
                sides = [True, False] if extra is None else [extra]
                shares = [(split_hits(h, ca, cb, e), Fraction(1, len(sides))) for e in sides]
            moves: dict[int, Any] = {}
            for (sa, sb), w in shares:
                t = self.index[(min(A.K, ka + sa), min(B.K, kb + sb))]
                moves[t] = moves.get(t, Fraction(0)) + w
            out.append(sorted(moves.items()))
        return out

    def chosen_split(self, ka: int, kb: int, h: int) -> tuple[int, int]:
        """The split a seat playing both realms is assumed to choose for ``h`` hits after (ka, kb) hits taken:
        hit by hit, the next casualty of the order across both realms - under ``cheapest`` the cheaper of the two
        realms' next casualties (the first realm on a tie), under ``listed`` the first realm's pieces before the
        second's. Each realm takes at most what its pieces can absorb (the rules' ``capacity``), so the split is
        one the rules offer; hits that can destroy both destroy both."""
        A, B = self.realms
        ca, cb = A.standing(ka)[0], B.standing(kb)[0]
        if h >= ca + cb:
            return ca, cb
        sa = sb = 0
        for _ in range(h):
            key_a = A.slot_key(ka + sa) if ka + sa < A.K and sa < ca else None
            key_b = B.slot_key(kb + sb) if kb + sb < B.K and sb < cb else None
            if key_a is not None and (key_b is None or key_a <= key_b or A.order != "cheapest"):
                sa += 1
            elif key_b is not None:
                sb += 1
            elif sa < ca:   # both tracks ended (Heroes lost with their Warship): what is left can still take it
                sa += 1
            else:
                sb += 1
        return sa, sb

    def dice(self, j: int, first_strike: bool) -> tuple[tuple[int, int, int], ...]:
        return _merge_dice(*(s.dice(k, first_strike) for s, k in zip(self.realms, self.states[j])))

    def survivors(self, j: int, keeps_castle: bool) -> tuple[Any, ...]:
        return tuple((s.name, p) for s, k in zip(self.realms, self.states[j]) for p in s.survivors(k, keeps_castle))

    def row(self, key: tuple[Any, ...]) -> dict[str, Any]:
        return {"pieces": [p for _r, p in key],
                "by_realm": {s.name: [p for r, p in key if r == s.name] for s in self.realms}}

    def gold_lost(self, j: int, castle_lost: bool) -> int:
        return sum(s.gold_lost(k, castle_lost) for s, k in zip(self.realms, self.states[j]))


class _Guardians:
    """The Dungeon Guardians of an entrance as a hit track: "each time you score a hit against it, it loses one
    of its attack dice (the opponent controlling it chooses which)" - in a fixed order, the casualty policy:
    ``cheapest``, the dice of Guardians that do not make the Heroes need 7+/8+ first (then those of "Need 7",
    then "Need 8"), the fewest faces first, a die without First Strike before one with it, the Guardian listed
    first first; ``listed``, the Guardians in their order, each one's dice in theirs. A Guardian with no die
    left is destroyed."""

    next_states: Moves | None = None

    def __init__(self, guardians: list[tuple[str, list[int]]], order: str) -> None:
        tiles = guardian_tiles()
        self.guardians = [(t, list(d)) for t, d in guardians]
        if order not in POLICY_ORDERS:
            raise OddsError(f"--order '{order}': use one of {', '.join(POLICY_ORDERS)}")
        slots = [(g, i) for g, (_t, dice) in enumerate(self.guardians) for i in range(len(dice))]
        if order == "cheapest":
            def key(s: tuple[int, int]) -> tuple[int, int, bool, int, int]:
                tile = tiles[self.guardians[s[0]][0]]
                return (tile.heroes_need, self.guardians[s[0]][1][s[1]], tile.first_strike, s[0], s[1])
            slots.sort(key=key)
        self.hit_slot = slots
        left = [list(range(len(d))) for _t, d in self.guardians]
        self.snaps: list[list[list[int]]] = []   # after k hits: for each Guardian, the indices of its dice left
        for g, i in [(-1, -1)] + slots:
            if g >= 0:
                left[g].remove(i)
            self.snaps.append([d[:] for d in left])
        self.K = len(slots)
        # the "Heroes Need" number of the Guardians standing after k hits (odds.py: or of all fought)
        self.variant: list[int] | None = [heroes_need([t for (t, _d), lf in zip(self.guardians, snap) if lf], (),
                                                      "while_standing") for snap in self.snaps]

    def dice_left(self, k: int) -> list[tuple[str, list[int]]]:
        return [(t, [d[i] for i in lf]) for (t, d), lf in zip(self.guardians, self.snaps[k]) if lf]

    def dice(self, k: int, first_strike: bool) -> tuple[tuple[int, int, int], ...]:
        return guardians_roll(self.dice_left(k), first_strike)

    def survivors(self, k: int, keeps_castle: bool) -> tuple[Any, ...]:
        return tuple(t for t, _d in self.dice_left(k))

    def row(self, key: tuple[Any, ...]) -> dict[str, Any]:
        return {"pieces": list(key)}

    def gold_lost(self, k: int, castle_lost: bool) -> int:
        return 0
