"""The cartridge's backup (battery) RAM from Python: ``RetroEmulator.get_save_ram()`` / ``set_save_ram()`` and the
same on an environment's ``env.unwrapped.em`` (a retrogym extension; rg_emu_save_ram). A Genesis ROM image built here
(as tests/cores/genesis/test_genesis_cart.c builds its images) with an ``RA`` backup RAM field at $200001-$20FFFF runs
a 68000 program of ours that writes the backup RAM (bytes and a word, a write lost while $A130F1 write-protects it) on
our own core "genesis"; the bytes it wrote are read back, a save written through the API is what the game then reads,
wrong sizes and types are refused with nothing changed, and the Atari test ROM (no backup RAM) gives an empty array.
Our Genesis and Atari cores are built into the library; the one test on Genesis Plus GX (a libretro core's
RETRO_MEMORY_SAVE_RAM, against ours) skips without stable-retro's wheel."""
import hashlib
import os

import numpy as np
import pytest

import retrogym
from retrogym.emulator import RetroEmulator

HERE = os.path.dirname(os.path.abspath(__file__))
A26_ROM = os.path.join(HERE, "..", "..", "tests", "roms", "bin", "test.a26")

# The program at $200 (68000 machine code, the listing in tests/cores/genesis/test_genesis_cart.c): writes $5A to the
# backup RAM at $200001 and $1234 at $200010, write-protects it ($A130F1 = 3) and writes $77 to $200001 (lost), maps
# the ROM back and the backup RAM again, writes $66 at $200003, reads the 512 KiB banks, stores what it read in work
# RAM $FF0000-$FF0017 and $BEEF at $FF0018, then loops.
PROG = bytes.fromhex(
    "46fc270041f90020000110bc005a13d000ff000033fc12340020001033f90020"
    "001000ff000213fc000300a130f110bc007713d000ff000413fc000000a130f1"
    "33f90020001000ff000613fc000100a130f133f90020001000ff000813fc0066"
    "0020000333f9000ffff000ff001013fc000900a130f333f9000ffff000ff0012"
    "33fc000800a130fe33f9003ffff000ff001433f90007fff000ff001633fcbeef"
    "00ff001860fe"
)
LOOP = 0x200 + len(PROG) - 2
ROM_SIZE = 512 * 1024


def _text(s, n):
    return s.encode("ascii")[:n].ljust(n, b" ")


def genesis_rom(ra=True):
    """A 512 KiB Genesis ROM image running PROG; with ``ra``, the header names backup RAM at $200001-$20FFFF."""
    rom = bytearray(((o >> 16) ^ o) & 0xFF for o in range(ROM_SIZE))
    rom[0:4] = (0x00FFFE00).to_bytes(4, "big")  # the stack pointer
    rom[4:8] = (0x200).to_bytes(4, "big")  # the reset vector
    for v in range(2, 64):
        rom[4 * v : 4 * v + 4] = LOOP.to_bytes(4, "big")
    rom[0x100:0x110] = _text("SEGA MEGA DRIVE", 16)
    rom[0x110:0x120] = _text("(C)RGYM 2026.NOV", 16)
    rom[0x120:0x150] = _text("RG SAVE RAM", 48)
    rom[0x150:0x180] = _text("RG SAVE RAM", 48)
    rom[0x180:0x18E] = _text("GM 00000000-00", 14)
    rom[0x18E:0x190] = b"\0\0"
    rom[0x190:0x1A0] = _text("J", 16)
    rom[0x1A0:0x1B0] = (0).to_bytes(4, "big") + (ROM_SIZE - 1).to_bytes(4, "big") + bytes.fromhex("00ff000000ffffff")
    rom[0x1B0:0x1F0] = _text("", 64)
    if ra:
        rom[0x1B0:0x1BC] = b"RA\xf8\x20" + (0x200001).to_bytes(4, "big") + (0x20FFFF).to_bytes(4, "big")
    rom[0x1F0:0x200] = _text("U", 16)
    rom[0x200 : 0x200 + len(PROG)] = PROG
    return bytes(rom)


def expected_save(n):
    """The backup RAM the program leaves: $FF (power-on) but the bytes it wrote."""
    want = np.full(n, 0xFF, np.uint8)
    want[1], want[3], want[0x10], want[0x11] = 0x5A, 0x66, 0x12, 0x34
    return want


@pytest.fixture
def rom_path(tmp_path):
    p = tmp_path / "saveram.md"
    p.write_bytes(genesis_rom())
    return p


def test_genesis_save_ram(rom_path):
    em = RetroEmulator(rom_path, core="genesis")
    try:
        before = em.get_save_ram()
        assert before.dtype == np.uint8 and before.ndim == 1 and before.size >= 0x12
        assert (before == 0xFF).all()  # power-on
        for _ in range(3):
            em.step()
        save = em.get_save_ram()
        np.testing.assert_array_equal(save, expected_save(save.size))
        assert save.size == 0x10000  # our core keeps 64 KiB, whatever the field's end (docs/genesis.md)
        # a copy: writing it changes nothing in the emulator
        save[1] = 0
        assert em.get_save_ram()[1] == 0x5A

        # round trip: bytes, bytearray and a uint8 array are all taken
        new = np.arange(save.size, dtype=np.uint32).astype(np.uint8)
        em.set_save_ram(new.tobytes())
        np.testing.assert_array_equal(em.get_save_ram(), new)
        em.set_save_ram(bytearray(save.size))
        assert not em.get_save_ram().any()
        em.set_save_ram(new)
        np.testing.assert_array_equal(em.get_save_ram(), new)

        state = em.get_state()  # carries the backup RAM written through the API (checked below)

        # wrong sizes and types: a clear ValueError, nothing written
        for bad in (b"", new.tobytes()[:-1], new.tobytes() + b"\0", np.zeros(save.size // 2, np.uint16)):
            with pytest.raises(ValueError, match="save RAM|uint8"):
                em.set_save_ram(bad)
            np.testing.assert_array_equal(em.get_save_ram(), new)
        with pytest.raises(TypeError):
            em.set_save_ram(12)
        np.testing.assert_array_equal(em.get_save_ram(), new)
    finally:
        em.close()

    # the state holds the backup RAM written through the API
    two = RetroEmulator(rom_path, core="genesis")
    try:
        assert two.set_state(state)
        np.testing.assert_array_equal(two.get_save_ram(), new)
    finally:
        two.close()
    with pytest.raises(RuntimeError, match="closed"):
        em.get_save_ram()


def test_written_save_is_read_by_the_game(tmp_path):
    """A save written before the first frame is what the 68000 then reads: a program that only reads the backup RAM
    word at $200010 into work RAM."""
    # reading program: move.w #$2700,sr; move.w $200010,$FF0000; move.w #$BEEF,$FF0018; loop
    prog = bytes.fromhex("46fc2700" "33f90020001000ff0000" "33fcbeef00ff0018" "60fe")
    rom = bytearray(genesis_rom())
    rom[0x200 : 0x200 + len(PROG)] = prog + bytes(len(PROG) - len(prog))
    loop = 0x200 + len(prog) - 2
    for v in range(2, 64):
        rom[4 * v : 4 * v + 4] = loop.to_bytes(4, "big")
    p = tmp_path / "reader.md"
    p.write_bytes(bytes(rom))
    em = RetroEmulator(p, core="genesis")
    try:
        save = np.full(em.get_save_ram().size, 0xFF, np.uint8)
        save[0x10], save[0x11] = 0xC0, 0xDE
        em.set_save_ram(save)
        for _ in range(2):
            em.step()
        ram = em.get_ram()  # work RAM as 16-bit host-order words (docs/genesis.md)
        words = ram[:0x1A].view(np.uint16)
        assert int(words[0x18 // 2]) == 0xBEEF, "the program did not run to its end"
        assert int(words[0]) == 0xC0DE
    finally:
        em.close()


def test_no_save_ram_atari():
    em = RetroEmulator(A26_ROM, core="atari2600")
    try:
        em.step()
        save = em.get_save_ram()
        assert isinstance(save, np.ndarray) and save.dtype == np.uint8 and save.shape == (0,)
        em.set_save_ram(b"")  # the one size there is
        with pytest.raises(ValueError, match="no save RAM"):
            em.set_save_ram(b"\0")
    finally:
        em.close()


def test_env_em_save_ram(rom_path, saved_data_settings, tmp_path):
    """The same through an environment's emulator (env.unwrapped.em), on a game folder made for the image; a reset
    powers on and so clears what was written (docs/python.md)."""
    d = tmp_path / "data" / "stable" / "SaveRam-Genesis"
    d.mkdir(parents=True)
    data = rom_path.read_bytes()
    (d / "rom.md").write_bytes(data)
    (d / "rom.sha").write_text(hashlib.sha1(data).hexdigest() + "\n")
    (d / "data.json").write_text('{"info": {"done": {"address": 16711704, "type": ">u2"}}}')
    (d / "scenario.json").write_text('{"done": {"variables": {"done": {"op": "equal", "reference": 48879}}}}')
    saved_data_settings.set_path(tmp_path / "data")
    env = retrogym.make("SaveRam-Genesis", state=retrogym.State.NONE, core="genesis")
    try:
        env.reset(seed=0)
        em = env.unwrapped.em
        noop = np.zeros(env.action_space.shape, env.action_space.dtype)
        for _ in range(3):
            env.step(noop)
        save = em.get_save_ram()
        np.testing.assert_array_equal(save, expected_save(save.size))
        save[:] = 7
        em.set_save_ram(save)
        np.testing.assert_array_equal(em.get_save_ram(), save)
        with pytest.raises(ValueError, match="save RAM"):
            em.set_save_ram(save[:-1])
        np.testing.assert_array_equal(em.get_save_ram(), save)
        # a reset without a start state powers on: the backup RAM is $FF again, then the reset's frames run the program
        env.reset()
        np.testing.assert_array_equal(em.get_save_ram(), expected_save(save.size))
    finally:
        env.close()


def test_libretro_core_save_ram(rom_path):
    """Through a libretro core (RETRO_MEMORY_SAVE_RAM): Genesis Plus GX from stable-retro's wheel runs the same image
    and its backup RAM is ours; a save written there reads back. Skips without the wheel."""
    from conftest import _stable_retro_cores

    folder = _stable_retro_cores()
    core = folder and os.path.join(folder, "genesis_plus_gx_libretro.so")
    if not core or not os.path.exists(core):
        pytest.skip("stable-retro's wheel (its genesis_plus_gx core) is not installed")
    ours, theirs = RetroEmulator(rom_path, core="genesis"), RetroEmulator(rom_path, core=core)
    try:
        for _ in range(3):
            ours.step()
            theirs.step()
        save = theirs.get_save_ram()
        np.testing.assert_array_equal(save, ours.get_save_ram())
        np.testing.assert_array_equal(save, expected_save(save.size))
        new = np.arange(save.size, dtype=np.uint32).astype(np.uint8) ^ 0x5C
        theirs.set_save_ram(new)
        np.testing.assert_array_equal(theirs.get_save_ram(), new)
        with pytest.raises(ValueError, match="save RAM"):
            theirs.set_save_ram(new[1:])
        np.testing.assert_array_equal(theirs.get_save_ram(), new)
    finally:
        ours.close()
        theirs.close()
