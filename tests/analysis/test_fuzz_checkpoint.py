"""benchmarks/fuzz.py's long runs (issue 33, section 6): chunks of one seed each, interleaved over the rulesets,
split into shards, recorded in a checkpoint file that a second run resumes without playing a chunk twice."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from conquest.analysis import fuzz
from conquest.core.registry import rulesets

ROOT = Path(__file__).resolve().parents[2]


def test_chunks_interleave_rulesets_and_shards_split_them_without_overlap() -> None:
    all_chunks = fuzz.plan_chunks(["kingdom", "narby"], 25, 10, 7)
    assert [(c.ruleset, c.index, c.seed, c.size) for c in all_chunks] == [
        ("kingdom", 0, 7, 10), ("narby", 0, 7, 10), ("kingdom", 1, 8, 10), ("narby", 1, 8, 10),
        ("kingdom", 2, 9, 5), ("narby", 2, 9, 5)]
    shards = [fuzz.plan_chunks(["kingdom", "narby"], 25, 10, 7, k, 2) for k in range(2)]
    keys = [c.key for s in shards for c in s]
    assert sorted(keys) == sorted(c.key for c in all_chunks) and len(set(keys)) == len(keys)


def test_a_chunk_is_the_same_run_alone_or_in_a_series() -> None:
    rs = rulesets()["kingdom"]
    chunk = fuzz.plan_chunks(["kingdom"], 60, 30, 5)[1]
    alone = fuzz.run(rs, 30, 6)
    result = fuzz.run_chunk(rs, chunk)
    assert result["steps_checked"] == alone.steps == 30 and result["inputs_tried"] == alone.inputs > 0
    assert result["violations"] == len(alone.violations) == 0


def _fuzz(*args: str) -> list[dict]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    r = subprocess.run([sys.executable, "benchmarks/fuzz.py", *args], capture_output=True, text=True, cwd=ROOT,
                       env=env, timeout=300)
    assert r.returncode == 0, r.stderr
    return [json.loads(line) for line in r.stdout.splitlines() if line.startswith("{\"ruleset\"")]


def test_a_second_run_resumes_from_the_checkpoint_and_shards_share_it(tmp_path: Path) -> None:
    ck = str(tmp_path / "ck.json")
    first = _fuzz("--actions", "40", "--chunk", "20", "--checkpoint", ck, "--shard", "0/2", "kingdom")
    assert [c["index"] for c in first] == [0]
    second = _fuzz("--actions", "40", "--chunk", "20", "--checkpoint", ck, "kingdom")
    assert [c["index"] for c in second] == [1]           # chunk 0 was done: not played again
    assert _fuzz("--actions", "40", "--chunk", "20", "--checkpoint", ck, "kingdom") == []
    summary = fuzz.summarise(fuzz.load_checkpoint(ck))["kingdom"]
    assert summary["steps_checked"] == 40 and summary["seeds"] == [0, 1] and summary["chunks"] == 2
    assert summary["violations"] == 0 and summary["cpu_seconds"] > 0


def test_a_file_that_is_not_a_checkpoint_is_refused(tmp_path: Path) -> None:
    bad = tmp_path / "x.json"
    bad.write_text("[1, 2]")
    with pytest.raises(ValueError, match="not a fuzz checkpoint"):
        fuzz.load_checkpoint(str(bad))
