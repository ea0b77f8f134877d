"""3. FIGHT BATTLES: declared battles fought in order (sea battles first), each round's steps "1. First Strike
attacks and damage. 2. Roll other attacks. 3. Take damage.", the dice each side rolls ("Special Abilities",
"Allies and Combat", "Sea Battles"), the battle's card windows, and the dispatch of the step's decisions.
"""

from __future__ import annotations

import conquest.rulesets.nerath.effects as fx
from conquest.core.kinds import Action, ActionArgs
from conquest.core.schema import add_to_counter
from conquest.rulesets.nerath.base import (
    add,
    cargo,
    cargo_add,
    cargo_remove,
    friendly_land,
    own_guardians,
    own_pile,
    own_ship,
    own_stats,
    ships_at,
)
from conquest.rulesets.nerath.data import (
    COUNTED,
    DRAGON,
    FLYING_TYPES,
    HEROES,
    LAND,
    N_TYPES,
    REALM_INDEX,
    REALMS,
    SEA,
    SIEGE,
    STORM,
    TYPE_INDEX,
    WIZARD,
    R,
)
from conquest.rulesets.nerath.dungeons import explore, guardian_dice, hero_need, return_guardian
from conquest.rulesets.nerath.reposition import start_reposition
from conquest.rulesets.nerath.results import battle_over
from conquest.rulesets.nerath.retreat import finish_withdrawal_if_done, withdraw_actions
from conquest.rulesets.nerath.run_amok import amok_targets, run_amok
from conquest.rulesets.nerath.sea import debark, landing_actions
from conquest.rulesets.nerath.state import (
    DIE,
    F_RETREATED,
    FLAGS,
    GUARDIANS,
    HIT_ON,
    IDS,
    IX,
    KIND,
    OWNER,
    SPACE,
    TB,
    Battle,
    NerathData,
)


def fight_actions(st: NerathData) -> list[Action]:
    bt = st.battle
    if bt is None:
        seas = [s for s in st.pending if KIND[s] == SEA]
        return [("battle", IDS[s]) for s in (seas or st.pending)] + fx.playable(st)
    step = bt.step
    if step == "assign":
        return hit_targets(st, bt.queue[0][0])
    if step == "choose":
        return split_choices(st)
    if step == "press":
        return [("press",), ("retreat",)]
    if step == "withdraw":
        return withdraw_actions(st)
    if step == "amok":
        return [("amok", IDS[y]) for y in amok_targets(st)] + [("stay",)]
    if step == "landing":
        return landing_actions(st) + [("done",)]
    if step == "window":
        return [("play", c) for c in fx.window_cards(st, bt.window[0], bt.window_kind)] + [("pass",)]
    return []


def battle_realms(st: NerathData, side: str) -> list[int]:
    bt = st.battle
    assert bt is not None
    return [bt.attacker] if side == "a" else bt.defenders


def start_battle(st: NerathData, x: int) -> None:
    r = st.realm
    st.pending.remove(x)
    add_to_counter(own_stats(st), "battles")
    k = KIND[x]
    if k == LAND and friendly_land(st, x, r):
        return  # taken meanwhile (a Monster ran amok into it): nothing left to fight
    kind = "land" if k == LAND else "sea" if k == SEA else "dungeon"
    if kind == "dungeon":
        defs: list[int] = []
    else:
        defs = [e for e in range(R) if st.team[e] != st.team[r] and
                (any(st.pieces[(x * R + e) * N_TYPES:(x * R + e) * N_TYPES + N_TYPES]) or
                 any(sh[SPACE] == x and sh[OWNER] == e for sh in st.ships.values()))]
        if kind == "land" and st.ctrl[x] not in defs:
            defs.insert(0, st.ctrl[x])
    st.battle = Battle(x, kind, r, defs)
    if kind == "dungeon":
        explore(st, x)
        if not st.guardians[x]:
            battle_over(st, True)
            return
    elif not side_alive(st, "d"):
        # An empty enemy space: no defender can roll or take damage, so the round changes nothing.
        battle_over(st, side_alive(st, "a"))
        return
    open_battle_window(st)


def open_battle_window(st: NerathData) -> None:
    """Cards "played when required": before the first round, each realm in the battle that holds a card
    for battles may play it (attacker first, then the defenders), or pass."""
    bt = st.battle
    assert bt is not None
    realms = [bt.attacker] + [d for d in bt.defenders if d >= 0]
    bt.window = [r for r in realms if fx.battle_cards(st, r)]
    if bt.window:
        bt.window_kind = "battle"
        bt.step = "window"


def close_window(st: NerathData) -> None:
    bt = st.battle
    assert bt is not None
    kind = bt.window_kind
    bt.window = []
    if kind == "battle":
        bt.step = "fs_a"
    elif kind == "roll":
        k = bt.rolled
        bt.rolled = 0
        take_roll(st, bt.window_step, k)
    else:
        bt.step = "assign"


def take_roll(st: NerathData, step: str, k: int) -> None:
    """The hits of a side's roll are scored (and taken together once both sides of the phase rolled)."""
    bt = st.battle
    assert bt is not None
    if step == "fs_a":
        bt.hits_on_defenders += k
        bt.step = "fs_d"
    elif step == "fs_d":
        bt.hits_on_attacker += k
        begin_damage(st, "roll_a")
    elif step == "roll_a":
        bt.hits_on_defenders += k
        bt.step = "roll_d"
    elif step == "roll_d":
        bt.hits_on_attacker += k
        begin_damage(st, "end")


def battle_dice(st: NerathData, side: str, first_strike: bool) -> tuple[tuple[int, int, int], ...]:
    """Each piece rolls its attack die: Siege Engines 2 when attacking, Storm Elementals 2 in sea battles;
    Wizards (and Heroes aboard at sea) by their abilities; the Castle only defends."""
    bt = st.battle
    assert bt is not None
    x = bt.space
    sea = bt.kind == "sea"
    dungeon = bt.kind == "dungeon"
    if dungeon and side == "d":
        return guardian_dice(st, first_strike)
    dice: dict[tuple[int, int], int] = {}
    n = st.pieces
    fights = st.options["hurt_dragon_fights"]
    for r in battle_realms(st, side):
        base = (x * R + r) * N_TYPES
        for t in range(N_TYPES):
            c = n[base + t]
            if not c:
                continue
            if sea and t not in FLYING_TYPES:
                continue
            if (t == WIZARD) != first_strike:
                continue
            if t == DRAGON and not fights:
                c -= bt.wounded_dragons[r]
                if c <= 0:
                    continue
            per = 2 if (t == SIEGE and side == "a") or (t == STORM and sea) else 1
            need = hero_need(st, r, t, side) if dungeon else HIT_ON - fx.attack_bonus(st, r, t, side)
            key = (DIE[t], need)
            dice[key] = dice.get(key, 0) + c * per
        if sea:
            for sh in st.ships.values():
                if sh[SPACE] != x or sh[OWNER] != r:
                    continue
                if not first_strike:
                    key = (TB.warship.die, HIT_ON - fx.attack_bonus(st, r, -1, side))
                    dice[key] = dice.get(key, 0) + 1
                for t in cargo(sh):
                    if t in HEROES and (t == WIZARD) == first_strike:
                        key = (DIE[t], HIT_ON - fx.attack_bonus(st, r, t, side))
                        dice[key] = dice.get(key, 0) + 1
        elif side == "d" and not first_strike and r == st.ctrl[x] and st.castle[x] \
                and not bt.castle_inactive:
            key = (TB.castle.die, HIT_ON - fx.attack_bonus(st, r, -2, side))
            dice[key] = dice.get(key, 0) + 1
    return tuple(sorted((f, need, c) for (f, need), c in dice.items()))


def side_alive(st: NerathData, side: str) -> bool:
    bt = st.battle
    assert bt is not None
    x = bt.space
    if side == "d" and bt.kind == "dungeon":
        return bool(st.guardians[x])
    for r in battle_realms(st, side):
        base = (x * R + r) * N_TYPES
        if any(st.pieces[base:base + N_TYPES]):
            return True
        if bt.kind == "sea":
            if any(sh[SPACE] == x and sh[OWNER] == r for sh in st.ships.values()):
                return True
        elif side == "d" and r == st.ctrl[x] and st.castle[x] and not bt.castle_inactive:
            return True
    return False


def capacity(st: NerathData, r: int) -> tuple[int, int]:
    """(hits the realm's pieces in this battle can absorb, number of its pieces there)."""
    bt = st.battle
    assert bt is not None
    x = bt.space
    if r == GUARDIANS:
        return sum(len(g) - 2 for g in st.guardians[x]), len(st.guardians[x])
    base = (x * R + r) * N_TYPES
    pieces = sum(st.pieces[base:base + N_TYPES])
    cap = pieces + st.pieces[base + DRAGON] - bt.wounded_dragons[r]
    if bt.kind == "sea":
        for sh in st.ships.values():
            if sh[SPACE] == x and sh[OWNER] == r:
                heroes = sum(1 for t in cargo(sh) if t in HEROES)
                pieces += 1 + heroes
                cap += 1 + heroes
    elif r == st.ctrl[x] and st.castle[x] and not bt.castle_inactive and r != bt.attacker:
        pieces += 1
        cap += 1
    return cap, pieces


def hit_targets(st: NerathData, r: int) -> list[Action]:
    """"When a player's piece hits, his opponent decides which of his pieces takes the damage and in which
    order. A new piece must be chosen for each hit scored.\""""
    bt = st.battle
    assert bt is not None
    x = bt.space
    if r == GUARDIANS:
        # "each time you score a hit against it, it loses one of its attack dice (the opponent controlling
        # it chooses which)"
        return [("hit", "guardian", i + 1, f) for i, g in enumerate(st.guardians[x])
                for f in sorted(set(g[2:]))]
    base = (x * R + r) * N_TYPES
    hurt = bt.wounded_dragons[r]
    hitnow = bt.hit_this_assignment
    out: list[Action] = []
    sea = bt.kind == "sea"
    for t in range(N_TYPES):
        c = st.pieces[base + t]
        if not c or (sea and t not in FLYING_TYPES):
            continue
        if t == DRAGON:
            if c - hurt > 0:
                out.append(("hit", "dragon"))
            if hurt - hitnow > 0:
                out.append(("hit", "wounded-dragon"))
        else:
            out.append(("hit", COUNTED[t]))
    if sea:
        for sid in ships_at(st, x, r):
            out.append(("hit", "ship", sid))
            for t in sorted(set(cargo(st.ships[sid]))):
                if t in HEROES:
                    out.append(("hit", COUNTED[t], sid))
    elif r == st.ctrl[x] and st.castle[x] and not bt.castle_inactive and r != bt.attacker:
        out.append(("hit", "castle"))
    if not out and hitnow > 0:
        out.append(("hit", "wounded-dragon"))
    return out


def assign_hit(st: NerathData, r: int, action: ActionArgs) -> None:
    bt = st.battle
    assert bt is not None
    x = bt.space
    what = action[1]
    if what == "guardian":
        tiles = own_guardians(st, x)
        g = tiles[action[2] - 1]
        g.pop(g.index(action[3], 2))
        if len(g) == 2:
            tiles.pop(action[2] - 1)
            return_guardian(st, g[0])
    elif what == "dragon":
        bt.wounded_dragons[r] += 1
        bt.hit_this_assignment += 1
    elif what == "wounded-dragon":
        add(st, x, r, DRAGON, -1)
        if bt.wounded_dragons[r] - bt.hit_this_assignment <= 0:
            bt.hit_this_assignment -= 1
        bt.wounded_dragons[r] -= 1
    elif what == "castle":
        # "When a Castle takes damage, it becomes inactive and plays no more part in the current battle."
        bt.castle_inactive = True
    elif what == "ship":
        # "If a Warship takes damage, it is destroyed along with all land pieces it carries."
        del st.ships[action[2]]
    elif len(action) == 3:
        cargo_remove(own_ship(st, action[2]), TYPE_INDEX[what])
    else:
        add(st, x, r, TYPE_INDEX[what], -1)
    q = bt.queue[0]
    q[1] -= 1
    if q[1] <= 0:
        bt.queue.pop(0)
        bt.hit_this_assignment = 0


def destroy_all(st: NerathData, r: int) -> None:
    """More hits than the realm's pieces in this battle can take: all of them are destroyed."""
    bt = st.battle
    assert bt is not None
    x = bt.space
    if r == GUARDIANS:
        for g in st.guardians[x]:
            return_guardian(st, g[0])
        st.guardians = {**st.guardians, x: []}
        return
    base = (x * R + r) * N_TYPES
    sea = bt.kind == "sea"
    for t in range(N_TYPES):
        if not sea or t in FLYING_TYPES:
            st.pieces[base + t] = 0
    bt.wounded_dragons[r] = 0
    if sea:
        for sid in ships_at(st, x, r):
            del st.ships[sid]
    elif r == st.ctrl[x] and st.castle[x] and r != bt.attacker:
        bt.castle_inactive = True


def begin_damage(st: NerathData, after: str) -> None:
    """Both sides' hits are taken together; allied defenders split the damage (see docs)."""
    bt = st.battle
    assert bt is not None
    hd, ha = bt.hits_on_defenders, bt.hits_on_attacker
    bt.hits_on_defenders = bt.hits_on_attacker = 0
    bt.after = after
    bt.offered = []
    queue: list[list[int]] = []
    if bt.kind == "dungeon":
        defs = [GUARDIANS] if st.guardians[bt.space] else []
    else:
        defs = [d for d in bt.defenders if capacity(st, d)[1] > 0]
    bt.split_hits = 0
    if hd:
        if len(defs) <= 1:
            queue = [[defs[0], hd]] if defs else []
        else:
            a, b = defs[0], defs[1]
            if one_seat_allies(st, a, b):
                # one seat plays both allies: it decides the split (reading 12)
                bt.split_hits = hd
                bt.queue = [[bt.attacker, ha]] if ha else []
                choices = split_choices(st)
                if len(choices) > 1:
                    bt.step = "choose"
                    return
                apply_split(st, choices[0])
                return
            extra_to_a = extra_to_first(hd, capacity(st, a)[1], capacity(st, b)[1])
            if extra_to_a is None:
                bt.split_hits = hd
                bt.queue = [[bt.attacker, ha]] if ha else []
                bt.step = "split"
                return
            queue = split_damage(st, a, b, hd, extra_to_a)
    if ha:
        queue.append([bt.attacker, ha])
    bt.queue = queue
    bt.step = "assign"


def one_seat_allies(st: NerathData, a: int, b: int) -> bool:
    """Whether one seat plays both defending allies and decides their split itself (option ``ally_split``
    ``choose``): "Allies decide among themselves how to take damage in battle" - one player is always of one
    mind. Allies of two seats take half each (the text's no-consensus rule: the engine cannot know that two
    players agreed)."""
    return st.options.get("ally_split", "half") == "choose" and st.seat_of[a] == st.seat_of[b]


def split_choices(st: NerathData) -> list[Action]:
    """The splits open to the seat playing both defending allies: ``("split", REALM, N, REALM, M)`` with the two
    realms in turn order and N + M the hits pending; each realm takes at most what its pieces can absorb
    (``capacity``). When the hits can destroy both, the one split left takes everything."""
    bt = st.battle
    assert bt is not None
    lo, hi = sorted(bt.defenders[:2])
    h = bt.split_hits
    cl, ch = capacity(st, lo)[0], capacity(st, hi)[0]
    if h >= cl + ch:
        return [("split", REALMS[lo], cl, REALMS[hi], ch)]
    return [("split", REALMS[lo], k, REALMS[hi], h - k) for k in range(max(0, h - ch), min(h, cl) + 1)]


def apply_split(st: NerathData, action: ActionArgs) -> None:
    """The seat's split: each realm's share queued before the attacker's hits (the defenders' order kept)."""
    bt = st.battle
    assert bt is not None
    share = {REALM_INDEX[action[1]]: action[2], REALM_INDEX[action[3]]: action[4]}
    queue = [[d, share[d]] for d in bt.defenders[:2] if share.get(d, 0) > 0]
    bt.queue = queue + bt.queue
    bt.split_hits = 0
    bt.step = "assign"


def extra_to_first(hits: int, pieces_a: int, pieces_b: int) -> bool | None:
    """"On an odd number of hits, the ally with the most pieces in the space takes the extra; if you each have
    the same number of pieces there, decide randomly": does the first ally take the extra hit (None: decided at
    random)? An even number has no extra hit (False)."""
    if hits % 2 and pieces_a == pieces_b:
        return None
    return pieces_a > pieces_b


def split_hits(hits: int, cap_a: int, cap_b: int, extra_to_a: bool) -> tuple[int, int]:
    """"Each takes half the total damage. On an odd number of hits, the ally with the most pieces in the
    space takes the extra ... If more hits are scored against one ally than he has pieces to lose, the
    other ally must take all the remaining damage." ``cap_a``, ``cap_b``: the hits each ally's pieces in the
    battle can absorb (``capacity``). The battle calculator splits its allied defenders' hits with it too."""
    sa = hits // 2 + (hits % 2 if extra_to_a else 0)
    sb = hits - sa
    if sa > cap_a:
        sb += sa - cap_a
        sa = cap_a
    if sb > cap_b:
        sa = min(cap_a, sa + sb - cap_b)
        sb = cap_b
    return sa, sb


def split_damage(st: NerathData, a: int, b: int, hits: int, extra_to_a: bool) -> list[list[int]]:
    """The damage queue of two allied defenders (``split_hits`` on their capacities)."""
    sa, sb = split_hits(hits, capacity(st, a)[0], capacity(st, b)[0], extra_to_a)
    return [q for q in ([a, sa], [b, sb]) if q[1] > 0]


def end_battle_round(st: NerathData) -> None:
    bt = st.battle
    assert bt is not None
    a, d = side_alive(st, "a"), side_alive(st, "d")
    if a and d:
        bt.step = "press"
    else:
        battle_over(st, a and not d)


def apply_fight(st: NerathData, action: ActionArgs) -> None:
    bt = st.battle
    verb = action[0]
    if bt is None:
        start_battle(st, IX[action[1]])
        return
    step = bt.step
    if verb == "hits":
        k = action[1]
        side = "a" if step in ("fs_a", "roll_a") else "d"
        realms = [r for r in battle_realms(st, side) if r >= 0 and fx.window_cards(st, r, "roll")]
        if realms:
            # a card "when rolling": the side that rolled may reroll before the hits count
            bt.rolled, bt.window_step, bt.window_kind, bt.window, bt.step = k, step, "roll", realms, "window"
        else:
            take_roll(st, step, k)
    elif verb == "treasure":
        st.treasure_deck = deck = st.treasure_deck[:]   # a clone shares the pile: copied on write
        deck.remove(action[1])
        st.treasures, held = own_pile(st.treasures, bt.attacker)
        held.append(action[1])
        st.battle = None
    elif verb == "extra":
        a, b = bt.defenders[0], bt.defenders[1]
        queue = split_damage(st, a, b, bt.split_hits, REALM_INDEX[action[1]] == a)
        bt.queue = queue + bt.queue
        bt.split_hits = 0
        bt.step = "assign"
    elif verb == "split":
        apply_split(st, action)
    elif verb == "hit":
        assign_hit(st, bt.queue[0][0], action)
    elif verb == "press":
        bt.round += 1
        bt.step = "fs_a"
    elif verb == "retreat":
        bt.step = "withdraw"
    elif verb == "withdraw":
        x, y, t, k = bt.space, IX[action[1]], TYPE_INDEX[action[2]], action[3]
        add(st, x, bt.attacker, t, -k)
        add(st, y, bt.attacker, t, k)
    elif verb == "withdraw-aboard":
        sh = own_ship(st, action[1])
        t = TYPE_INDEX[action[2]]
        add(st, bt.space, bt.attacker, t, -1)
        cargo_add(sh, t, bt.space)
        sh[FLAGS] |= F_RETREATED
    elif verb == "withdraw-ship":
        sh = own_ship(st, action[1])
        sh[SPACE] = IX[action[2]]
        sh[FLAGS] |= F_RETREATED
    elif verb == "amok":
        run_amok(st, IX[action[1]])
    elif verb == "stay":
        st.battle = None
    elif verb == "pass":
        bt.window.pop(0)
        if not bt.window:
            close_window(st)
    elif verb == "debark":
        debark(st, action[1], IX[action[2]], TYPE_INDEX[action[3]])
        if not landing_actions(st):
            st.battle = None
    elif verb == "done":
        st.battle = None
    if st.battle is not None and st.battle.step == "withdraw":
        finish_withdrawal_if_done(st)


def advance(st: NerathData) -> None:
    """Carry out everything automatic until a decision or a chance outcome is due: rolls of sides with no
    dice, damage with no choice, the end of a battle round, the end of the Fight Battles step."""
    while True:
        if st.phase != "fight":
            return
        bt = st.battle
        if bt is None:
            if not st.pending:
                start_reposition(st)
                return
            return
        step = bt.step
        if step in ("fs_a", "fs_d", "roll_a", "roll_d"):
            if battle_dice(st, "a" if step.endswith("a") else "d", step.startswith("fs")):
                return
            if step == "fs_a":
                bt.step = "fs_d"
            elif step == "fs_d":
                begin_damage(st, "roll_a")
            elif step == "roll_a":
                bt.step = "roll_d"
            else:
                begin_damage(st, "end")
            continue
        if step == "window":
            w = bt.window
            while w and not fx.window_cards(st, w[0], bt.window_kind):
                w.pop(0)
            if not w:
                close_window(st)
                continue
            return
        if step == "assign":
            q = bt.queue
            if not q:
                if bt.after == "end" or not (side_alive(st, "a") and side_alive(st, "d")):
                    # first-strike damage that left one side without pieces ends the round there
                    end_battle_round(st)
                else:
                    bt.step = bt.after
                continue
            r, h = q[0]
            if r >= 0 and h > 0 and r not in bt.offered and fx.window_cards(st, r, "damage"):
                # a card "when taking damage", before the hits are assigned
                bt.offered.append(r)
                bt.window, bt.window_kind, bt.step = [r], "damage", "window"
                return
            cap = capacity(st, r)[0]
            if h >= cap:
                destroy_all(st, r)
                q.pop(0)
                bt.hit_this_assignment = 0
                continue
            targets = hit_targets(st, r)
            if len(targets) == 1:
                assign_hit(st, r, targets[0])
                continue
            return
        return
