"""A short run of the Python soak (soak_python.py; `make soak` runs the long one): a few thousand steps of every
workload in a fresh process, which must stay flat after its warm-up (Python blocks and objects within 500, the
other figures as the soak says)."""
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def test_soak_short(tmp_path):
    out = tmp_path / "soak.json"
    env = dict(os.environ, TMPDIR=str(tmp_path))
    run = subprocess.run([sys.executable, os.path.join(HERE, "soak_python.py"), "--steps", "6000",
                          "--blocks-tolerance", "500", "--json", str(out)],
                         capture_output=True, text=True, timeout=600, env=env)
    assert run.returncode == 0, run.stdout[-4000:] + run.stderr[-4000:]
    result = json.loads(out.read_text())
    assert result["failures"] == []
    rows = result["rows"]
    assert [r["point"] for r in rows] == ["start", "middle", "end"]
    assert rows[-1]["steps"] >= 6000
    counts = result["counts"]
    # every kind of work happened, so flat figures mean something
    for key in ("episodes", "clones", "restores", "state_files", "creates", "drops", "vector_creates", "movies"):
        assert counts[key] > 0, key
    # nothing the environments created is left in TMPDIR (the soak removes its own folder)
    assert not [p for p in os.listdir(tmp_path) if p.startswith("retrogym-")]
