"""docs/coming-from.md's retrogym scripts, run as they stand: every ```python block after a `<!-- run: needs
MODULES -->` comment, each in a fresh Python (stable-retro's data and cores discovered as a user's would be, a private
user data root) against the real games the wheels ship (stable-retro's Airstriker-Genesis, ale-py's ROMs,
gym-super-mario-bros' ROM). A block whose modules are not installed is skipped with their names. The page must
keep its blocks: a test counts them per section."""
import importlib.util
import os
import re
import subprocess
import sys

import pytest

from conftest import SOURCE

PAGE = os.path.join(SOURCE, "docs", "coming-from.md")
_BLOCK = re.compile(r"<!-- run: needs ([^>]*?) -->\n```python\n(.*?)```", re.S)


def _blocks():
    with open(PAGE, encoding="utf-8") as f:
        text = f.read()
    out, section = [], None
    heads = [(m.start(), m.group(1)) for m in re.finditer(r"^## (.+)$", text, re.M)]
    for m in _BLOCK.finditer(text):
        section = [title for start, title in heads if start < m.start()][-1]
        slug = re.sub(r"[^a-z]+", "-", section.split(" (")[0].lower()).strip("-")
        n = sum(1 for b in out if b[0].startswith(slug)) + 1
        out.append((f"{slug}-{n}", m.group(1).split(), m.group(2)))
    return out


BLOCKS = _blocks()


def test_the_page_has_its_runnable_blocks():
    counts = {}
    for name, _, _ in BLOCKS:
        counts[name.rsplit("-", 1)[0]] = counts.get(name.rsplit("-", 1)[0], 0) + 1
    assert counts == {"stable-retro": 2, "ale": 3, "nes-py": 3}, counts


@pytest.mark.parametrize("name,needs,code", BLOCKS, ids=[b[0] for b in BLOCKS])
def test_block_runs(name, needs, code, tmp_path):
    missing = [m for m in needs if importlib.util.find_spec(m) is None]
    if missing:
        pytest.skip(f"{name} needs {', '.join(missing)}, not installed (make venv installs it)")
    # a user's environment: stable-retro discovered (conftest turns that off for this process), a fresh data root
    env = {k: v for k, v in os.environ.items() if k not in ("RETROGYM_STABLE_RETRO", "RETROGYM_DATA_PATH")}
    env["XDG_DATA_HOME"] = str(tmp_path / "xdg")
    env["SDL_VIDEODRIVER"] = env["SDL_AUDIODRIVER"] = "dummy"
    script = tmp_path / f"{name}.py"
    script.write_text(code)
    run = subprocess.run([sys.executable, str(script)], cwd=tmp_path, env=env, capture_output=True, text=True,
                         timeout=120)
    assert run.returncode == 0, f"{name}:\n{code}\n{run.stderr[-4000:]}"
