"""Move Armies (rules document ``002``, CONQUEST PHASE): "Choose a destination territory and any number of your
adjacent territories. Spend 1 Soldier token per army you wish to move from your starting territories, then move
these armies to the destination territory."

An action in steps: ``move T`` chooses the destination (``choose_destination``), ``from T N`` each starting
territory, ``go`` carries the move out (``move_armies``); then, when the player has a choice, ``vacate`` the
bonus locations the leaving armies stood on and ``place`` the arriving ones (``settle_destination``). Double
move (BONUS EFFECTS) widens the starting territories (``move_sources_for``)."""

from __future__ import annotations

from conquest.core.kinds import Action
from conquest.rulesets.kingdom.base import MOVE, PLACE, VACATE
from conquest.rulesets.kingdom.bonus import has_effect
from conquest.rulesets.kingdom.conquest_phase import end_action
from conquest.rulesets.kingdom.state import KingdomData


def move_sources_for(s: KingdomData, dest: int, seat: int, double: bool | None = None) -> tuple[int, ...]:
    """"Choose a destination territory and any number of your adjacent territories." With Double move:
    "you can choose your starting territories not only from those adjacent to it, but also from your
    territories adjacent to those ... as long as they do not move through enemy territories." The
    territory passed through is never the opponent's; option ``double_move_via`` says whether an empty
    one will do (``friendly_or_empty``, the default) or it must be yours (``own``). ``double``: whether
    ``seat`` has Double move, when the caller already knows."""
    b = s.board
    A = s.armies
    near = b.adjacent[dest]
    srcs = {x for x in near if A[2 * x + seat] > 0}
    if double is None:
        double = has_effect(s, seat, "double_move")
    if double:
        own_only = s.options["double_move_via"] == "own"
        for mid in near:
            holder = s.controller(mid)
            if holder == seat or (holder == -1 and not own_only):
                for x in b.adjacent[mid]:
                    if x != dest and A[2 * x + seat] > 0:
                        srcs.add(x)
    return tuple(sorted(srcs))


def move_capacity(s: KingdomData, dest: int, seat: int, sources: tuple[int, ...]) -> int:
    """The most armies ``seat`` can move from ``sources``: one Soldier token each."""
    A = s.armies
    return min(s.soldiers[seat], sum(A[2 * x + seat] for x in sources))


def destinations(s: KingdomData, me: int) -> list[Action]:
    """``move T``: every territory but the opponent's castle ("You cannot move your Army pawns onto your
    opponent's castle") that ``me`` can move more armies into than the enemy armies there ("You can only
    move into the territory if the number of armies you move into it is greater than the number of enemy
    armies already there")."""
    acts: list[Action] = []
    soldiers = s.soldiers[me]
    if soldiers > 0:
        b = s.board
        A = s.armies
        names = b.names
        enemy_castle = b.castles[1 - me]
        double = has_effect(s, me, "double_move")
        for t in range(b.territories):
            if t == enemy_castle:
                continue
            srcs = move_sources_for(s, t, me, double)
            # move_capacity and enemy_armies, inline: this loop is most of a random game's time
            if srcs and min(soldiers, sum(A[2 * x + me] for x in srcs)) > A[2 * t + 1 - me]:
                acts.append(("move", names[t]))
    return acts


def move_choices(s: KingdomData, me: int) -> list[Action]:
    """During a move: ``from T N`` for each starting territory not chosen yet, as long as enough armies and
    Soldier tokens remain to outnumber the enemy; ``go`` once the armies chosen outnumber it."""
    acts: list[Action] = []
    b = s.board
    dest = s.move_to
    need = s.enemy_armies(dest, me)
    total = s.moved_total()
    used = {x for x, _ in s.move_from}
    unused = [x for x in s.move_sources if x not in used]
    budget = s.soldiers[me] - total
    A = s.armies
    rest_all = sum(A[2 * x + me] for x in unused)
    for x in unused:
        have = A[2 * x + me]
        rest = rest_all - have
        for n in range(1, min(have, budget) + 1):
            if min(total + n + rest, s.soldiers[me]) > need:
                acts.append(("from", b.names[x], n))
    if total > need:
        acts.append(("go",))
    return acts


def choose_destination(s: KingdomData, dest: int) -> None:
    s.phase = MOVE
    s.move_to = dest
    s.move_from = ()
    s.move_sources = move_sources_for(s, dest, s.current)


def move_armies(s: KingdomData) -> None:
    """"Spend 1 Soldier token per army you wish to move from your starting territories, then move these
    armies to the destination territory. ... All enemy armies in the destination territory return to
    their castle, and you return the same number of armies from this territory to your castle." """
    b = s.board
    me, op = s.current, 1 - s.current
    A = s.armies
    dest = s.move_to
    total = s.moved_total()
    s.soldiers[me] -= total
    tasks: list[tuple[str, int, int]] = []
    for src, n in s.move_from:
        occ = s.occupied(me, src)
        unassigned = A[2 * src + me] - len(occ)
        A[2 * src + me] -= n
        lose = n - unassigned
        if lose > 0:
            # "If you remove an army from a bonus location ... you immediately lose the bonus effect"
            if lose >= len(occ) or len({b.loc_kind[l] for l in occ}) == 1:
                for l in occ[:lose]:
                    s.loc[l] = -1
            else:
                tasks.append((VACATE, src, lose))
    enemy = A[2 * dest + op]
    if enemy:
        A[2 * dest + op] = 0
        A[2 * b.castles[op] + op] += enemy
        for l in b.territory_locs[dest]:
            if s.loc[l] == op:
                s.loc[l] = -1
        A[2 * b.castles[me] + me] += enemy
    A[2 * dest + me] += total - enemy
    s.tasks = tuple(tasks)
    settle_destination(s)


def settle_destination(s: KingdomData) -> None:
    """"When you have armies in a territory, you can divide them up among bonus locations in the territory
    ... each bonus location can only accommodate a single Army pawn." Every effect helps its holder, so
    arriving armies take free locations; the player chooses which only when there are fewer armies than
    free locations of different kinds."""
    if s.tasks:
        s.phase = s.tasks[0][0]
        return
    me = s.current
    dest = s.move_to
    b = s.board
    if dest >= 0 and s.phase != PLACE:
        occ = s.occupied(me, dest)
        free = s.free_locations(dest)
        spare = s.armies[2 * dest + me] - len(occ)
        if spare > 0 and free:
            if spare >= len(free) or len({b.loc_kind[l] for l in free}) == 1:
                for l in free[:spare]:
                    s.loc[l] = me
            else:
                s.tasks = ((PLACE, dest, spare),)
                s.phase = PLACE
                return
    end_action(s)


def location_choices(s: KingdomData, me: int) -> list[Action]:
    """``vacate T.K`` (one of ``me``'s locations in the territory being left) or ``place T.K`` (a free one in
    the destination), by the task pending."""
    _, t, _ = s.tasks[0]
    locs = s.occupied(me, t) if s.phase == VACATE else s.free_locations(t)
    return [(s.phase, s.board.loc_ids[l]) for l in locs]


def vacate(s: KingdomData, l: int) -> None:
    """"If you remove an army from a bonus location ... you immediately lose the bonus effect associated with
    this location": the pawn leaves location ``l``."""
    s.loc[l] = -1
    kind, t, n = s.tasks[0]
    rest = s.tasks[1:]
    if n > 1:
        occ = s.occupied(s.current, t)
        if len({s.board.loc_kind[x] for x in occ}) == 1:
            for x in occ[:n - 1]:
                s.loc[x] = -1
        else:
            rest = ((kind, t, n - 1),) + rest
    s.tasks = rest
    s.phase = MOVE
    settle_destination(s)


def place(s: KingdomData, l: int) -> None:
    """An arriving army takes the free bonus location ``l``."""
    me = s.current
    s.loc[l] = me
    kind, t, n = s.tasks[0]
    free = s.free_locations(t)
    if n > 1 and free:
        if n - 1 >= len(free) or len({s.board.loc_kind[x] for x in free}) == 1:
            for x in free[:n - 1]:
                s.loc[x] = me
            s.tasks = ()
        else:
            s.tasks = ((kind, t, n - 1),)
            return
    s.tasks = ()
    end_action(s)
