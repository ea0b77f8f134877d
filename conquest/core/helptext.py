"""Rules help read from text the rules already hold: the verbs of a notation from its module docstring, where
each verb line is indented, names the verb first and its text after two or more spaces::

    move FROM TO PIECE N          N pieces of one kind move from FROM to TO
                                  (a continuation line is indented to the text column)
"""

from __future__ import annotations

import re

_LINE = re.compile(r"^ {2,8}([a-z][a-z0-9_-]*)(?: [^ ].*?)?\s{2,}(\S.*)$")
_MORE = re.compile(r"^ {12,}(\S.*)$")
_BARE = re.compile(r"^ {2,8}[a-z][a-z0-9_-]*( [^ ]+)*$")


def verbs_from_docstring(doc: str | None) -> dict[str, str]:
    """{verb: text} for each verb line (the first line of a verb wins; '|' alternatives name several verbs)."""
    out: dict[str, str] = {}
    last: list[str] = []
    for line in (doc or "").splitlines():
        m = _LINE.match(line)
        if m:
            head = line.strip().split("  ")[0]
            verbs = [w.split()[0] for w in head.split("|") if w.strip()]
            last = [v for v in verbs if v not in out and re.fullmatch(r"[a-z][a-z0-9_-]*", v)]
            for v in last:
                out[v] = m.group(2).strip()
            continue
        m2 = _MORE.match(line)
        if m2 and last:
            for v in last:
                out[v] = (out[v] + " " + m2.group(1).strip()).strip()
            continue
        bare = _BARE.match(line)  # a verb line whose text starts on the next line
        if bare:
            verbs = [w.split()[0] for w in line.strip().split("|") if w.strip()]
            last = [v for v in dict.fromkeys(verbs) if v not in out]
            for v in last:
                out[v] = ""
            continue
        last = []
    return {k: v for k, v in out.items() if v}
