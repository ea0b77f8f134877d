"""A crafted "policy" that runs code when unpickled: the attack of issue 33 section 1. The sb3-contrib zip format
stores some of its ``data`` entries as base64 pickles (``":serialized:"``), which ``MaskablePPO.load`` unpickles,
and its ``policy.pth`` is torch's pickle format. Both carry a payload here that writes ``marker`` (with the pid of
the process that ran it) when unpickled."""

from __future__ import annotations

import base64
import json
import pickle
import zipfile
from pathlib import Path


class _Payload:
    def __init__(self, marker: Path) -> None:
        self.marker = marker

    def __reduce__(self) -> tuple[object, tuple[str]]:
        code = f"import os; open({str(self.marker)!r}, 'w').write('pwned by %d' % os.getpid())"
        return (exec, (code,))


def payload(marker: Path) -> bytes:
    """Pickle bytes that write ``marker`` when loaded (``pickle.loads(payload(m))`` does: the tests check it)."""
    return pickle.dumps(_Payload(marker))


def crafted_zip(path: Path, marker: Path, plain_kwargs: bool = False) -> Path:
    """An sb3-style zip whose ``data`` names a pickled policy class and whose ``policy.pth`` is a pickle, both the
    payload (``plain_kwargs``: its ``policy_kwargs`` are plain JSON, so only ``policy.pth`` carries it there)."""
    blob = base64.b64encode(payload(marker)).decode()
    data = {"policy_class": {":type:": "<class 'abc.ABCMeta'>", ":serialized:": blob,
                             "__module__": "sb3_contrib.common.maskable.policies"},
            "observation_space": {":type:": "<class 'gymnasium.spaces.box.Box'>", ":serialized:": blob},
            "policy_kwargs": {"net_arch": [4]} if plain_kwargs else {":type:": "<class 'dict'>", ":serialized:": blob}}
    with zipfile.ZipFile(path, "w") as z:
        z.writestr("data", json.dumps(data))
        z.writestr("policy.pth", payload(marker))
        z.writestr("_stable_baselines3_version", "2.7.0")
    return path


def crafted_pair(folder: Path, name: str, marker: Path) -> Path:
    """``NAME.json`` (a plausible description) with ``NAME.safetensors`` holding the pickle instead of weights."""
    desc = {"format": "conquest-policy/1", "ruleset": "kingdom", "players": 2, "options": {},
            "observation_size": 356, "actions": 125, "net": {"hidden": [4], "activation": "tanh"}}
    (folder / f"{name}.json").write_text(json.dumps(desc))
    (folder / f"{name}.safetensors").write_bytes(payload(marker))
    return folder / f"{name}.json"
