"""python -m retrogym.import and retrogym.data.import_roms: a ROM whose SHA-1 matches a game's rom.sha is copied
into that game's folder."""
import os
import shutil
import subprocess
import sys

import pytest

import retrogym


def test_import_roms(tmp_path, saved_data_settings, test_games):
    game = test_games["Nes"]
    integration = tmp_path / "custom" / game.name
    integration.mkdir(parents=True)
    for f in ("rom.sha", "data.json", "scenario.json", "metadata.json"):
        shutil.copy(os.path.join(game.dir, f), integration / f)
    saved_data_settings.clear_custom_paths()
    saved_data_settings.add_custom_path(str(tmp_path / "custom"))
    custom = retrogym.Integrations.CUSTOM_ONLY
    with pytest.raises(FileNotFoundError, match="import"):
        retrogym.make(game.name, inttype=custom)
    incoming = tmp_path / "incoming"
    incoming.mkdir()
    shutil.copy(os.path.join(game.dir, "rom.nes"), incoming / "whatever.nes")
    (incoming / "junk.bin").write_bytes(b"nothing")
    report = retrogym.data.import_roms(str(incoming))
    assert report["games"] == 1 and report["imported"][0][0] == game.name
    assert os.path.exists(integration / "rom.nes")
    assert retrogym.data.get_romfile_path(game.name, custom) == str(integration / "rom.nes")


def test_import_command(tmp_path):
    out = subprocess.run([sys.executable, "-m", "retrogym.import", str(tmp_path)], capture_output=True, text=True,
                         env=dict(os.environ, RETROGYM_DATA_PATH=str(tmp_path)))
    assert out.returncode == 0, out.stderr
    assert "Imported 0 games" in out.stdout
