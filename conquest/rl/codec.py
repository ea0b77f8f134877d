"""Actions as a sequence of small decisions over one fixed vocabulary of tokens (see docs/rl.md).

An action tuple ``(verb, arg, ...)`` is written as tokens: the verb, then each argument. A string is one token
(the ruleset's encoding lists every string its actions can hold: verbs, region ids, pieces, cards...). An int
``k`` below ``small`` is one token (``k`` itself); a larger int is a length token ``#L`` followed by its ``L``
digits in base ``small`` (so no int is out of reach). ``END`` closes an action that is also the start of a longer
legal action (``hit fighter`` beside ``hit fighter 3``); an action that nothing longer continues ends by
itself.

The vocabulary is fixed for a ruleset and its options, so ``Discrete(len(vocabulary))`` is the action space;
index ``i`` is ``vocabulary[i]``. An encoding with ``spare`` tokens (the generic one, conquest/core/view_encoding.py)
keeps that many places free for strings its list missed: a string met in a legal action for the first time takes
the free place its hash names (the next free one after it when taken), so the size never changes and the mask
always covers every legal action, up to ``spare`` such strings. A ``signed`` encoding writes a negative number as
the sign token ``#-`` then its size. At each decision the mask marks the tokens that continue some legal action
from the tokens chosen so far; a token that is the only possible continuation is taken without asking.
"""

from __future__ import annotations

import hashlib
from collections.abc import Collection, Iterable, Sequence
from typing import Any

import numpy as np

from conquest.core.kinds import Action

Token = str | int

END = "#end"
SIGN = "#-"
MAX_DIGITS = 8
KNOWN_ACTIONS = 200_000


class EncodingError(ValueError):
    """An action or token that the encoding cannot write (a string missing from the vocabulary)."""


def _describe(value: Any) -> str:
    text = repr(value)
    return f"{type(value).__name__} {text[:40] + '...' if len(text) > 40 else text}"


def as_token(action: Any) -> int:
    """The token an environment is given, as an int: a whole number of Python (``bool`` excepted), a numpy
    integer, or a 0-d numpy integer array (what Gymnasium's ``Discrete.contains`` accepts). Anything else -
    floats (even ``1.0``), strings, ``None``, lists, arrays of another shape - raises ``ValueError``: it is
    never rounded or truncated into a token."""
    if type(action) is int:
        return action
    if isinstance(action, (int, np.integer)) and not isinstance(action, bool):
        return int(action)
    if isinstance(action, np.ndarray) and action.shape == () and np.issubdtype(action.dtype, np.integer):
        return int(action)
    raise ValueError(f"an action is one token, a whole number (int, numpy integer or 0-d integer array), "
                     f"not {_describe(action)}")


def codec_for(encoding: Any) -> ActionCodec:
    """The codec of an encoding (``conquest.core.encoding.Encoding``): its strings, ints below its ``small``,
    its ``spare`` places and, when ``signed``, the sign token."""
    return ActionCodec(encoding.strings(), small=encoding.small, spare=encoding.spare, signed=encoding.signed)


class ActionCodec:
    def __init__(self, strings: Iterable[str], small: int = 64, spare: int = 0, signed: bool = False) -> None:
        self.small = small
        tokens: list[Token | None] = [END]
        tokens += [f"#{n}" for n in range(2, MAX_DIGITS + 1)]
        tokens += list(range(small))
        if signed:
            tokens.append(SIGN)
        seen = set(tokens)
        for s in strings:
            if s not in seen:
                seen.add(s)
                tokens.append(s)
        self.spare = spare
        self._spare0 = len(tokens)
        tokens += [None] * spare
        self.vocabulary: list[Token | None] = tokens
        """The token of each index; ``None``: a spare place no string has taken yet."""
        self._str_index = {t: i for i, t in enumerate(tokens) if isinstance(t, str)}
        self._int0 = tokens.index(0)
        self.end = 0
        self._sign = self._str_index[SIGN] if signed else -1
        self._single: dict[Any, int] = {**self._str_index, **{k: self._int0 + k for k in range(small)}}
        """The token of every element that is one token (actions hold no bools: ``encode`` refuses them)."""
        self._known: dict[Any, tuple[int, ...]] = {}

    def _learn(self, text: str, action: Any) -> int:
        """The spare place ``text`` takes (the first free one from the place its hash names)."""
        if not self.spare:
            raise EncodingError(f"{text!r} (in {action!r}) is not in the action vocabulary")
        digest = hashlib.blake2b(text.encode("utf-8", "surrogatepass"), digest_size=8).digest()
        start = int.from_bytes(digest, "big") % self.spare
        voc = self.vocabulary
        for k in range(self.spare):
            i = self._spare0 + (start + k) % self.spare
            if voc[i] is None:
                voc[i] = text
                self._str_index[text] = self._single[text] = i
                return i
        raise EncodingError(f"{text!r} (in {action!r}): the {self.spare} spare tokens of the encoding are all taken "
                            f"by strings its sample games did not show (write an encoding for the game: "
                            f"Ruleset.rl_encoding, docs/rl.md)")

    def tokens_of(self, action: Any) -> tuple[int, ...]:
        """``encode(action)``, remembered: a game meets the same actions again and again (at most
        ``KNOWN_ACTIONS`` are kept; then the memory starts afresh)."""
        seq = self._known.get(action)
        if seq is None:
            if len(self._known) >= KNOWN_ACTIONS:
                self._known.clear()
            seq = self._known[action] = self.encode(action)
        return seq

    @property
    def size(self) -> int:
        return len(self.vocabulary)

    # ---- action <-> token indices ----------------------------------------------------------------
    def encode(self, action: Sequence[Any]) -> tuple[int, ...]:
        """The token indices of ``action`` (without ``END``)."""
        out: list[int] = []
        for x in action:
            if isinstance(x, str):
                i = self._str_index.get(x)
                if i is None:
                    i = self._learn(x, action)
                out.append(i)
            elif isinstance(x, int) and not isinstance(x, bool) and (x >= 0 or self._sign >= 0):
                if x < 0:
                    out.append(self._sign)
                    x = -x
                if x < self.small:
                    out.append(self._int0 + x)
                else:
                    digits: list[int] = []
                    while x:
                        x, d = divmod(x, self.small)
                        digits.append(d)
                    if len(digits) > MAX_DIGITS:
                        raise EncodingError(f"{action!r}: a number too large for the encoding")
                    out.append(self._str_index[f"#{len(digits)}"])
                    out.extend(self._int0 + d for d in reversed(digits))
            elif isinstance(x, int) and not isinstance(x, bool):
                raise EncodingError(f"{x!r} (in {action!r}): a negative number, and the encoding has no sign token")
            else:
                raise EncodingError(f"{x!r} (in {action!r}) is neither a string nor a whole number")
        return tuple(out)

    def decode(self, tokens: Sequence[int]) -> tuple[Any, ...]:
        """The action written by ``tokens`` (a trailing ``END`` is allowed)."""
        voc = self.vocabulary
        out: list[Any] = []
        i = 0
        n = len(tokens)
        tokens = [as_token(t) for t in tokens]
        negative = False
        while i < n:
            t = tokens[i]
            if not 0 <= t < len(voc):
                raise EncodingError(f"token {t} is outside the vocabulary (0..{len(voc) - 1})")
            v = voc[t]
            if t == self.end:
                if i != n - 1:
                    raise EncodingError("END before the last token")
                break
            if v is None:
                raise EncodingError(f"token {t} is a spare place that no string has taken")
            if t == self._sign:
                if negative:
                    raise EncodingError("a sign token must be followed by a number")
                negative = True
                i += 1
                continue
            if isinstance(v, int):
                out.append(-v if negative else v)
            elif isinstance(v, str) and v.startswith("#"):
                length = int(v[1:])
                digits = tokens[i + 1:i + 1 + length]
                if len(digits) != length or any(not isinstance(voc[d], int) for d in digits):
                    raise EncodingError(f"a long number needs {length} digit tokens")
                value = 0
                for d in digits:
                    digit = voc[d]
                    assert isinstance(digit, int)
                    value = value * self.small + digit
                out.append(-value if negative else value)
                i += length
            elif negative:
                raise EncodingError("a sign token must be followed by a number")
            else:
                out.append(v)
            negative = False
            i += 1
        if negative:
            raise EncodingError("a sign token must be followed by a number")
        return tuple(out)

    def token_name(self, index: int) -> str:
        v = self.vocabulary[index]
        if v is None:
            return "#spare"
        return v if isinstance(v, str) else f"#int {v}"


class Decision:
    """The legal actions of one position and the tokens chosen so far: what may come next.

    The live actions are grouped by the token that comes next, once per prefix. While every element met so far
    is one token (a vocabulary string or an int below ``small``: nearly always), the actions are grouped by their
    elements directly, without writing out their tokens; the first element that takes several tokens (a large
    number) turns the decision to whole token sequences, which agree with the tokens chosen so far."""

    __slots__ = ("codec", "actions", "prefix", "_live", "_next", "_by_tokens")

    def __init__(self, codec: ActionCodec, actions: Sequence[Any]) -> None:
        self.codec = codec
        self.actions = actions
        self.prefix: list[int] = []
        self._live: Sequence[Any] = actions  # the actions (by element) or (tokens, action) pairs (by tokens)
        self._by_tokens = False
        self._next: dict[int, list[Any]] | None = None

    def _branches(self) -> dict[int, list[Any]]:
        """The live actions grouped by the token that comes next (``END``: the one the prefix already spells,
        when something longer continues it). Worked out once per prefix."""
        b = self._next
        if b is not None:
            return b
        k = len(self.prefix)
        b = {}
        ended = None
        if not self._by_tokens:
            single = self.codec._single
            for a in self._live:
                if len(a) > k:
                    t = single.get(a[k])
                    if t is None:  # an element of several tokens (or none): group by token sequences
                        return self._to_tokens()
                    group = b.get(t)
                    if group is None:
                        b[t] = [a]
                    else:
                        group.append(a)
                else:
                    ended = a
        else:
            for item in self._live:
                seq = item[0]
                if len(seq) > k:
                    group = b.get(seq[k])
                    if group is None:
                        b[seq[k]] = [item]
                    else:
                        group.append(item)
                else:
                    ended = item
        if ended is not None and b:
            b[0] = [ended]  # END
        self._next = b
        return b

    def _to_tokens(self) -> dict[int, list[Any]]:
        known = self.codec.tokens_of
        self._live = [(known(a), a) for a in self._live]
        self._by_tokens = True
        self._next = None
        return self._branches()

    def _action(self, item: Any) -> Action:
        action: Action = item[1] if self._by_tokens else item  # a (tokens, action) pair, or the action
        return action

    def options(self) -> Collection[int]:
        """The token indices that continue a legal action (``END`` when the prefix is complete and continued)."""
        return self._branches().keys()

    def choose(self, token: int) -> Action | None:
        """Add ``token`` (checked by the caller against ``options``); the finished action, or None. When one
        action is left it is finished: every token it still has is forced."""
        group = self._branches()[token]
        if token == 0 or len(group) == 1:
            return self._action(group[0])
        self._live = group
        self._next = None
        self.prefix.append(token)
        return None

    def advance_forced(self) -> Action | None:
        """Take tokens while only one is possible; the finished action if that finishes one."""
        while True:
            if len(self._live) == 1:
                return self._action(self._live[0])
            opts = self._branches()
            if len(opts) != 1:
                return None
            done = self.choose(next(iter(opts)))
            if done is not None:
                return done
