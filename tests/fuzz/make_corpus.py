#!/usr/bin/env python3
"""Writes the seed corpora of the fuzz targets (tests/fuzz/corpus/<target>/): small inputs of our own that reach
each parser's main paths. Deterministic; run it again after changing it (`python3 tests/fuzz/make_corpus.py`).
The files are committed, so the build does not need Python."""
import gzip
import hashlib
import io
import os
import struct
import sys
import zipfile

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "corpus")


def put(target, name, data):
    d = os.path.join(OUT, target)
    os.makedirs(d, exist_ok=True)
    if isinstance(data, str):
        data = data.encode()
    with open(os.path.join(d, name), "wb") as f:
        f.write(data)


def gz(data, mtime=0):
    buf = io.BytesIO()
    with gzip.GzipFile(fileobj=buf, mode="wb", mtime=mtime) as f:
        f.write(data)
    return buf.getvalue()


def make_zip(entries, compression=zipfile.ZIP_DEFLATED):
    """entries: list of (name, bytes); fixed timestamps so the output is reproducible."""
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", compression) as z:
        for name, data in entries:
            info = zipfile.ZipInfo(name, date_time=(2024, 1, 1, 0, 0, 0))
            info.compress_type = compression
            info.external_attr = 0o644 << 16
            z.writestr(info, data)
    return buf.getvalue()


# ---- datatype: "<descriptor>\n" + 8 bytes to decode + 8 bytes of a value + address + options ----
def datatype():
    tail_a = bytes([0x12, 0x34, 0x56, 0x78, 0x9A, 0xBC, 0xDE, 0xF0])
    tail_b = bytes([0x99, 0x09, 0x90, 0x45, 0x00, 0x01, 0x80, 0x7F])
    value = struct.pack("<q", -123456789)
    big = struct.pack("<q", 99999999)
    descs = ["|u1", "|i1", "|d1", "|n1", "<u2", ">u2", "=u2", "<i4", ">i4", "><u4", "<>u4", ">=i4", "<=u4",
             "<>d4", "><n4", ">d8", "<u8", ">i8", "<i3", ">u5", ">d5", "<n7", "|x2", "?u3", "<<u2", "<u9", "u1",
             "", "><u", "abcdefghijklmno1", "><i6"]
    for i, d in enumerate(descs):
        tail = tail_a if i % 2 == 0 else tail_b
        v = value if i % 3 else big
        extra = bytes([i % 20, i * 37 % 256])
        put("datatype", "%02d" % i, d.encode() + b"\n" + tail + v + extra)


# ---- json: first byte picks the file kind (mod 5), bit 7 strict ----
DATA = """{
  "info": {
    "score": {"address": 0, "type": "<u4"},
    "lives": {"address": 4, "type": "|u1"},
    "x": {"address": 6, "type": ">i2", "mask": 1023},
    "flags": {"address": 9, "type": "|u1", "mask": -113},
    "bcd": {"address": 10, "type": ">d3"},
    "digits": {"address": 14, "type": "<n4"},
    "mixed": {"address": 20, "type": "><u4"},
    "wide": {"address": 32, "type": "<i8"},
    "real_address": {"address": 40.0, "type": "=u2"},
    "odd": {"address": 4090, "type": "<u8"},
    "short": {"address": 1, "type": "u1"},
    "badwidth": {"address": 2, "type": "<u9"},
    "badmask": {"address": 3, "type": "|u1", "mask": "x"}
  }
}"""

SCENARIO = """{
  "reward": {
    "variables": {
      "score": {"reward": 1.0},
      "lives": {"penalty": 10.0, "op": "negative"},
      "x": {"measurement": "absolute", "op": "greater-than", "reference": 100, "reward": 0.5},
      "bcd": {"op": "sign", "reward": 2, "penalty": 3}
    },
    "time": {"reward": -0.01}
  },
  "done": {
    "condition": "any",
    "variables": {
      "lives": {"op": "zero"},
      "score": {"op": "greater-or-equal", "reference": 999999, "measurement": "absolute"}
    },
    "nodes": {
      "both": {"condition": "all", "variables": {"x": {"op": "less-than", "reference": -5},
                                                 "digits": {"op": "equal", "reference": 1234}}}
    }
  },
  "actions": [[[], ["UP"], ["DOWN"]], [[], ["LEFT"], ["RIGHT"]], [[], ["BUTTON"], ["BUTTON", "UP"]]],
  "crop": [0, 10, 160, 190]
}"""

SCENARIO_2P = """{
  "rewards": [
    {"variables": {"score": {"reward": 1}}},
    {"variables": {"lives": {"reward": 1, "measurement": "delta", "op": "not-equal", "reference": 0}},
     "script": "lua:reward2"}
  ],
  "done": {"script": "lua:done", "variables": {"lives": {"op": "negative-equal", "reference": -9223372036854775808}}},
  "crops": [[0, 0, 0, 0], [8, 8, 32, 32]],
  "scripts": ["script.lua", "lua:other.lua"]
}"""

SCENARIO_ODD = """{
  "reward": {"variables": {"score": {"reward": "one", "op": "nope", "measurement": "both", "reference": 1.5e300},
                           "missing": {"reward": 1}, "wide": {"reward": 3.4e38, "op": "positive"}}},
  "done": {"condition": "all", "variables": {}, "nodes": {"a": {"nodes": {"b": {"variables":
           {"lives": {"op": "less-or-equal", "reference": 0}}}}}}},
  "crop": [1, 2, 3],
  "actions": []
}"""

METADATA = """{"default_state": "Level1", "default_player_state": ["Level1", "Level1.2P"],
"whitelist": {"data.json": ["suspicious type <>u4 for mixed"], "scenario.json": ["no done"], "rom.md": []},
"other": 1}"""

ROMSHA = ("da39a3ee5e6b4b0d3255bfef95601890afd80709\n"
          "\xef\xbb\xbf  DA39A3EE5E6B4B0D3255BFEF95601890AFD80709  \r\n\n"
          "0123456789abcdef0123456789abcdef01234567\n")


def json_seeds():
    put("json", "data", "\x00" + DATA)
    put("json", "data_strict", b"\x80" + DATA.encode())
    put("json", "data_empty", "\x00{\"info\": {}}")
    put("json", "data_bad", "\x00{\"info\": {\"a\": {\"address\": -1, \"type\": \"|u1\"}}}")
    put("json", "data_big_address", "\x00{\"info\": {\"a\": {\"address\": 1e19, \"type\": \"|u1\"}}}")
    put("json", "scenario", "\x01" + SCENARIO)
    put("json", "scenario_with_data", "\x01" + DATA + "\n----\n" + SCENARIO)
    put("json", "scenario_2p", "\x01" + SCENARIO_2P)
    put("json", "scenario_odd", "\x01" + SCENARIO_ODD)
    put("json", "scenario_odd_strict", b"\x81" + SCENARIO_ODD.encode())
    put("json", "scenario_deep", "\x01{\"done\": " + "{\"nodes\": {\"n\": " * 40 + "{}" + "}}" * 40 + "}")
    put("json", "metadata", "\x02" + METADATA)
    put("json", "metadata_bad", "\x02{\"default_player_state\": [\"a\", 1]}")
    put("json", "romsha", b"\x03" + ROMSHA.encode("latin-1"))
    put("json", "romsha_bad", "\x03da39a3ee5e6b4b0d3255bfef95601890afd8070\n")
    put("json", "game", "\x04" + DATA + "\n----\n" + SCENARIO + "\n----\n" + METADATA + "\n----\n" + ROMSHA)
    put("json", "game_partial", "\x04{\"info\": {\"a\": {\"address\": 0, \"type\": \"<>u4\"}}}\n----\n{}")
    put("json", "not_json", "\x00{\"info\": [1, 2,")


# ---- state: first byte picks the mode (mod 4) ----
def state_seeds():
    put("state", "gzip_small", b"\x00" + gz(b"retrogym state\x00\x01\x02" * 10))
    put("state", "gzip_empty", b"\x00" + gz(b""))
    put("state", "gzip_truncated", b"\x00" + gz(bytes(range(256)) * 4)[:-7])
    put("state", "gzip_trailing", b"\x00" + gz(b"abc") + b"\x1f\x8b")
    put("state", "gzip_two_members", b"\x00" + gz(b"abc") + gz(b"def"))
    put("state", "gzip_bomb", b"\x00" + gz(b"\x00" * (1 << 20)))
    put("state", "not_gzip", b"\x00plain bytes")
    # edits: (offset lo, offset hi, xor)
    put("state", "edit_none", b"\x01")
    put("state", "edit_header", b"\x01" + bytes([0, 0, 1, 8, 0, 2, 16, 0, 0x40]))
    put("state", "edit_body", b"\x01" + bytes([40, 0, 0xFF, 41, 0, 0x80, 100, 0, 0x7F, 0, 1, 0x10, 200, 2, 0x01]))
    put("state", "edit_spread", b"\x01" + b"".join(bytes([i & 255, i >> 8, 0xA5]) for i in range(24, 6000, 97)))
    put("state", "file_gzip_junk", b"\x02" + gz(b"RGA26ST\x00" + b"\x00" * 64))
    put("state", "file_raw_junk", b"\x02" + b"RGA26ST\x00\x01\x00\x00\x00")
    put("state", "file_empty", b"\x02")
    put("state", "gzfile_edit_body", b"\x03" + bytes([64, 0, 0x3C, 65, 0, 0xC3]))
    put("state", "gzfile_edit_none", b"\x03")


# ---- movie: .bk2 zips (stable-retro and BizHawk layouts) and .fm2 text ----
def movie_seeds():
    nes_header = ("MovieVersion Retro\nAuthor fuzz\nemuVersion ?\nPlatform NES\nGameName FuzzGame-Nes\n"
                  "SHA1 ?\nCore ?\nrerecordCount 0\n")
    nes_log = ("[Input]\nP1 A|P1 Right|P1 Left|P1 Down|P1 Up|P1 Start|P1 Select|P1 B|\n"
               "|..|........|\n|..|A.......|\n|r.|.R..U...|\n|..|..LD..sB|\n|.P|........|\n[/Input]\n")
    put("movie", "bk2_nes", make_zip([("Header.txt", nes_header), ("Input Log.txt", nes_log),
                                      ("Core.bin", bytes(range(64)))]))
    put("movie", "bk2_nes_stored", make_zip([("Header.txt", nes_header), ("Input Log.txt", nes_log)],
                                            zipfile.ZIP_STORED))
    gen_header = nes_header.replace("Platform NES", "Platform GEN").replace("-Nes", "-Genesis")
    gen_keys = "|".join("P%d %s" % (p, b) for p in (1, 2) for b in
                        ("Z", "X", "Y", "C", "Right", "Left", "Down", "Up", "Start", "Mode", "A", "B")) + "|"
    gen_log = "[Input]\n" + gen_keys + "\n" + "|..|............|............|\n|..|Z.....DU..A.|....RL......|\n"
    gen_log += "[/Input]\n"
    put("movie", "bk2_genesis_2p", make_zip([("Header.txt", gen_header), ("Input Log.txt", gen_log),
                                             ("Core.bin", b"\x00" * 32)]))
    bizhawk_header = "MovieVersion BizHawk v2.0\nPlatform A26\nGameName fuzz\n"
    bizhawk_log = ("[Input]\nLogKey:#Reset|Select|Power|#P1 Up|P1 Down|P1 Left|P1 Right|P1 Button|\n"
                   "|...|.....|\n|r..|U...B|\n|.s.|.D.R.|\n|..P|.....|\n[/Input]\n")
    put("movie", "bk2_bizhawk_a26", make_zip([("Header.txt", bizhawk_header), ("Input Log.txt", bizhawk_log)]))
    gba_log = ("[Input]\nLogKey:#P1 Up|P1 Down|P1 Left|P1 Right|P1 Start|P1 Select|P1 B|P1 A|P1 L|P1 R|P1 Power|"
               "#P1 Tilt X|P1 Tilt Y|P1 Light Sensor|\n|U.....BA.r.|    0,  -12,  255,|\n"
               "|..........P|123456,    0,    0,|\n[/Input]\n")
    put("movie", "bk2_bizhawk_gba", make_zip([("Header.txt", "Platform GBA\n"), ("Input Log.txt", gba_log)]))
    put("movie", "bk2_crlf", make_zip([("Header.txt", nes_header.replace("\n", "\r\n")),
                                       ("Input Log.txt", nes_log.replace("\n", "\r\n"))]))
    put("movie", "bk2_slip_names", make_zip([("../Header.txt", nes_header), ("/Input Log.txt", nes_log),
                                             ("Header.txt", nes_header), ("Input Log.txt", nes_log)]))
    put("movie", "bk2_no_log", make_zip([("Header.txt", nes_header)]))
    put("movie", "bk2_bad_width", make_zip([("Header.txt", nes_header),
                                            ("Input Log.txt", nes_log.replace("|A.......|", "|A......|"))]))
    fm2_head = ("version 3\nemuVersion 22020\nrerecordCount 1\npalFlag 0\nromFilename fuzz\n"
                "romChecksum base64:AAAAAAAAAAAAAAAAAAAAAA==\nguid 00000000-0000-0000-0000-000000000000\n"
                "fourscore 0\nmicrophone 0\nport0 1\nport1 1\nport2 0\nFDS 0\nNewPPU 0\n")
    put("movie", "fm2_two", fm2_head + "|0|R.......|........||\n|1|...U..BA|.L......||\n|2|....TS..|.......A||\n"
                                       "|0|        |RLDUTSBA||\n")
    put("movie", "fm2_fourscore", "version 3\nfourscore 1\nport0 1\nport1 1\nport2 0\n"
                                  "|0|R.......|.L......|..D.....|...U....||\n|0|........|........|........|........||\n")
    put("movie", "fm2_zapper", "version 3\nport0 1\nport1 2\nport2 0\n|0|.......A|120 80 1||\n")
    put("movie", "fm2_crlf", "version 3\r\nport0 1\r\nport1 0\r\nport2 0\r\n|0|..D.....|||\r\n|0|A......A|||\r\n")
    put("movie", "fm2_binary", "version 3\nbinary 1\nlength 99\nport0 1\n|\n")
    # 0x01: the texts of a .bk2 the fuzz target zips itself (Header.txt, Input Log.txt, Core.bin)
    sep = "\n====\n"
    put("movie", "texts_nes", "\x01" + nes_header + sep + nes_log + sep + "core state bytes")
    put("movie", "texts_genesis_2p", "\x01" + gen_header + sep + gen_log)
    put("movie", "texts_bizhawk_a26", "\x01" + bizhawk_header + sep + bizhawk_log)
    put("movie", "texts_bizhawk_gba", "\x01Platform GBA\n" + sep + gba_log)
    snes_log = ("[Input]\nP1 B|P1 Y|P1 Select|P1 Start|P1 Up|P1 Down|P1 Left|P1 Right|P1 A|P1 X|P1 L|P1 R|\n"
                "|..|B...UD..AXLR|\n|..|.ys.........|\n[/Input]\n")
    put("movie", "texts_snes", "\x01Platform SNES\nGameName x-Snes\n" + sep + snes_log)
    put("movie", "texts_pce", "\x01Platform PCE\n" + sep + "[Input]\nLogKey:#Reset|Power|#P1 Up|P1 Down|P1 Left|"
        "P1 Right|P1 I|P1 II|P1 Select|P1 Run|\n|..|U...12sr|\n[/Input]\n")
    put("movie", "texts_sms_gg_gb", "\x01Platform GG\n" + sep + "[Input]\nLogKey:#Reset|Pause|#P1 Up|P1 Down|"
        "P1 Left|P1 Right|P1 B1|P1 B2|\n|.p|U...1.|\n|..|.....2|\n[/Input]\n")
    put("movie", "texts_duplicate", "\x01" + nes_header + sep + nes_log + sep + sep + sep + nes_header)


# ---- zip: archives to import; the fuzz target knows two ROMs (an Atari 2600 one, a NES one) ----
A26_ROM = b"retrogym fuzz: an Atari 2600 ROM\n"
NES_ROM = b"NES\x1a\x01\x01" + b"\x00" * 10 + b"retrogym fuzz: a NES ROM\n"


def zip_seeds():
    put("zip", "a26", make_zip([("game.a26", A26_ROM)]))
    put("zip", "a26_stored", make_zip([("dir/", b""), ("dir/game.bin", A26_ROM)], zipfile.ZIP_STORED))
    put("zip", "nes", make_zip([("Game (U).nes", NES_ROM), ("readme.txt", b"not a rom\n")]))
    put("zip", "nes_headerless", make_zip([("game.bin", NES_ROM[16:])]))
    inner = make_zip([("inner.a26", A26_ROM)])
    put("zip", "nested", make_zip([("inner.zip", inner), ("x.nes", NES_ROM)]))
    put("zip", "nested_deep", make_zip([("a.zip", make_zip([("b.zip", make_zip([("c.zip", inner)]))]))]))
    put("zip", "slip_names", make_zip([("../../evil.a26", A26_ROM), ("/abs/game.a26", A26_ROM),
                                       ("dir\\..\\x.a26", A26_ROM)]))
    put("zip", "empty", make_zip([]))
    put("zip", "bomb", make_zip([("zeros.a26", b"\x00" * (2 << 20))]))
    put("zip", "truncated", make_zip([("game.a26", A26_ROM * 20)])[:-30])
    put("zip", "not_zip", b"PK\x03\x04 but not really a zip archive")


# ---- a26rom: cartridge images of every layout the core detects, each running a small program ----
def program(org, hot=b""):
    """A tiny 6502 kernel at window offset `org` (relative to $F000): VSYNC, 192 lines of colours from the
    joystick, optional bank-switch accesses (`hot`: instructions placed in the frame loop), forever."""
    base = 0xF000 + org
    code = bytearray()
    code += bytes([0x78, 0xD8, 0xA2, 0xFF, 0x9A])            # SEI CLD LDX #$FF TXS
    frame = base + len(code)
    code += bytes([0xA9, 0x02, 0x85, 0x00, 0x85, 0x02, 0x85, 0x02, 0x85, 0x02])  # VSYNC on, 3 lines
    code += bytes([0xA9, 0x00, 0x85, 0x00])                  # VSYNC off
    code += bytes([0xAD, 0x80, 0x02, 0x85, 0x06])            # LDA SWCHA, STA COLUP0
    code += bytes([0xA5, 0x0C, 0x85, 0x08])                  # LDA INPT4, STA COLUPF
    code += hot
    code += bytes([0xA0, 0xC0])                              # LDY #192
    line = base + len(code)
    code += bytes([0x84, 0x09, 0x84, 0x0D, 0x85, 0x02, 0x88])  # STY COLUBK, STY PF0, STA WSYNC, DEY
    code += bytes([0xD0, (line - (base + len(code) + 2)) & 0xFF])  # BNE line
    code += bytes([0x4C, frame & 0xFF, frame >> 8])          # JMP frame
    return bytes(code)


def bank(size, org=0x100, hot=b"", fill=0xEA, vector_org=None):
    """One bank of `size` bytes (2K or 4K) with the program and the reset vector."""
    img = bytearray([fill] * size)
    code = program(org, hot)
    img[org:org + len(code)] = code
    start = 0xF000 + org if vector_org is None else vector_org
    img[size - 4] = start & 0xFF
    img[size - 3] = (start >> 8) & 0xFF
    img[size - 2] = start & 0xFF
    img[size - 1] = (start >> 8) & 0xFF
    return bytes(img)


def a26_seeds():
    put("a26rom", "2k", bank(2048, org=0x000, vector_org=0xF000))
    put("a26rom", "4k", bank(4096))
    put("a26rom", "cv_2k", bank(2048, org=0x000, hot=bytes([0x9D, 0xFF, 0xF3]), vector_org=0xF000))
    lda = 0xAD
    f8 = b"".join(bank(4096, hot=bytes([lda, 0xF8 + i, 0x1F]), fill=0xEA + i) for i in range(2))
    put("a26rom", "f8", f8)
    sc = b"".join(bytes([0x00] * 256) + bank(4096, hot=bytes([lda, 0xF8 + i, 0x1F]))[256:] for i in range(2))
    put("a26rom", "f8sc", sc)
    put("a26rom", "f6", b"".join(bank(4096, hot=bytes([lda, 0xF6 + i, 0x1F]), fill=0xE0 + i) for i in range(4)))
    put("a26rom", "f4", b"".join(bank(4096, hot=bytes([lda, 0xF4 + i, 0x1F]), fill=0xD0 + i) for i in range(8)))
    put("a26rom", "fa", b"".join(bank(4096, hot=bytes([lda, 0xF8 + i, 0x1F]), fill=0xC0 + i) for i in range(3)))
    e0 = bytes([0x8D, 0xE0, 0x1F, lda, 0xE9, 0xFF])
    put("a26rom", "e0", bytes([0xEA]) * 4096 + bank(4096, hot=e0))
    put("a26rom", "e7", b"".join(bytes([0xB0 + i]) * 2048 for i in range(7)) +
        bank(2048, org=0x000, hot=bytes([lda, 0xE5, 0xFF, 0x8D, 0xE7, 0x1F]), vector_org=0xF800))
    put("a26rom", "3f", b"".join(bytes([0x90 + i]) * 2048 for i in range(3)) +
        bank(2048, org=0x000, hot=bytes([0xA9, 0x01, 0x85, 0x3F, 0x85, 0x3F]), vector_org=0xF800))
    put("a26rom", "3f_14k", b"".join(bytes([i]) * 2048 for i in range(6)) +
        bank(2048, org=0x000, hot=bytes([0xA9, 0x05, 0x85, 0x3F, 0x85, 0x3F]), vector_org=0xF800))
    ua = bytes([0x8D, 0x40, 0x02, 0xAD, 0x20, 0x02])
    put("a26rom", "ua", bank(4096, hot=ua) + bank(4096, hot=ua, fill=0x00))
    fe = bytes([0x20, 0x00, 0xF0, 0x84, 0xD6])
    put("a26rom", "fe", bank(4096, hot=fe) + bank(4096, fill=0x11))
    put("a26rom", "odd_size", bank(4096) + b"\x00" * 100)
    put("a26rom", "too_small", b"\xEA" * 1000)
    put("a26rom", "runaway", bytes([0x4C, 0x00, 0xF0]) + b"\xEA" * 2041 + bytes([0, 0xF0, 0, 0xF0]))
    put("a26rom", "brk_loop", b"\x00" * 4096)


# ---- lua: scenario scripts (reward, reward2, done) ----
LUA = {
    "basic": """
prev = 0
function reward()
  local r = data.score - prev
  prev = data.score
  return r
end
function reward2() return data.lives end
function done() return data.lives == 0 end
""",
    "custom_vars": """
data.counter = 0
data.flag = true
function reward()
  data.counter = data.counter + 1
  data.x = data.counter
  data[7] = 3
  return data.counter + data[0] + scenario.frame + scenario.timestep
end
function done() return data.counter > 2 end
""",
    "runaway": "function reward() while true do end end\nfunction done() return false end\n",
    "runaway_pcall": "function reward() while true do pcall(function() while true do end end) end end\n",
    "memory_bomb": "t = {}\nfunction reward() local s = 'x' for i = 1, 40 do s = s .. s t[i] = s end return 0 end\n",
    "string_rep": "function done() local s = string.rep('ab', 100000000) return #s end\n",
    "sandbox": """
assert(io == nil and os == nil and load == nil and loadstring == nil and dofile == nil and require == nil)
assert(string.dump == nil and collectgarbage == nil)
function reward() return #tostring(getmetatable('')) end
function done() return false end
""",
    "errors": """
function reward() return data.unknown end
function reward2() error({}) end
function done() return data[1e300] end
""",
    "edge_write": "function reward() data.edge = 1 data.bcd = -5 data.wide = 1/0 return 0/0 end\n",
    "globals_snapshot": "a = 1\nb = 'two'\nc = true\nd = {1, 2}\nfunction reward() a = a + 1 return a end\n",
    "metatable_g": """
setmetatable(_G, {__index = function(t, k) error('no global ' .. tostring(k)) end})
function reward() return 1 end
""",
    "pattern": "function reward() return string.find(string.rep('a', 5000), '.-.-.-.-b') or 0 end\n",
    "coroutine": """
function reward()
  local ok = pcall(function() return coroutine.resume(nil) end)
  return coroutine.running() and 1 or 0
end
""",
    "recursion": """
function f(n) return f(n + 1) + 1 end
function g() return g() end
local t = setmetatable({}, {__index = function(t, k) return t[k + 1] end})
function reward() local ok = pcall(f, 1) local ok2 = pcall(function() return t[1] end) return g() end
""",
    "error_objects": """
function reward() error(setmetatable({}, {__tostring = function() return 'x' end})) end
function reward2() error(nil) end
function done() coroutine.yield(1) end
""",
    "rawset_data": "rawset(data, 'score', 5)\nfunction reward() data.lives = -1 return data.score + #tostring(data) end\n",
    "sort_concat": """
t = {}
for i = 1, 20000 do t[i] = (i * 7919) % 10007 end
function reward() table.sort(t) table.sort(t, function(a, b) return a > b end) return #table.concat(t, ',') end
""",
    "plain_find": "function reward() return string.find(string.rep('a', 100000), string.rep('a', 5000) .. 'b', 1, true) or 0 end\n",
    "gsub_gmatch": """
function reward()
  local s = string.rep('ab(cd)', 100)
  local n = 0
  for w in string.gmatch(s, '%b()') do n = n + #w end
  return n + select(2, string.gsub(s, '(a)(b)', '%2%1%0')) + #string.format('%5.2f %q', 1.5, s)
end
""",
    "syntax_error": "function reward( return 1 end\n",
    "bytecode": "\x1bLua\x51\x00",
}


def lua_seeds():
    # the scenario calls done, then reward and reward2: each seed defines the ones it does not test
    defaults = {"done": "function done() return false end\n", "reward": "function reward() return 0 end\n",
                "reward2": "function reward2() return 1 end\n"}
    for name, src in LUA.items():
        if name not in ("syntax_error", "bytecode"):
            for fn, text in defaults.items():
                if "function %s(" % fn not in src:
                    src += text
        put("lua", name, src)


def ines(mapper, prg16, chr8, program_bytes, flags6=0, nes2=False, extra=b""):
    """An iNES image: PRG banks of NOPs with `program_bytes` at $C000 of the last bank, all vectors -> $C000."""
    header = bytearray(b"NES\x1a" + bytes([prg16, chr8, (mapper & 15) << 4 | flags6, mapper & 0xF0]) + bytes(8))
    if nes2:
        header[7] |= 0x08
        header[10] = 0x07  # 8 KiB PRG-RAM
    prg = bytearray(b"\xea" * (prg16 * 16384))
    last = len(prg) - 16384
    prg[last:last + len(program_bytes)] = program_bytes
    for v in (0x3FFA, 0x3FFC, 0x3FFE):
        prg[last + v:last + v + 2] = b"\x00\xc0"
    return bytes(header) + bytes(prg) + bytes(chr8 * 8192) + extra


def nes_seeds():
    # a frame loop: PPU on with NMI, joypad strobe/reads, writes to the mapper, OAM DMA, a loop
    loop = bytes([
        0x78, 0xA9, 0x80, 0x8D, 0x00, 0x20, 0xA9, 0x1E, 0x8D, 0x01, 0x20,  # sei; NMI on; rendering on
        0xA9, 0x01, 0x8D, 0x16, 0x40, 0xA9, 0x00, 0x8D, 0x16, 0x40,        # strobe the pads
        0xAD, 0x16, 0x40, 0x8D, 0x00, 0x80, 0x8D, 0x01, 0xE0,              # read pad 1, write it to the mapper
        0xA9, 0x02, 0x8D, 0x14, 0x40, 0xA9, 0x1F, 0x8D, 0x15, 0x40,        # OAM DMA from $0200; APU channels on
        0x58, 0x4C, 0x0B, 0xC0,                                            # cli; loop back to the strobe
    ])
    put("nesrom", "nrom_loop", ines(0, 1, 0, loop))
    put("nesrom", "mmc1_loop", ines(1, 2, 0, loop))
    put("nesrom", "mmc3_loop", ines(4, 2, 1, loop))
    put("nesrom", "nes2_uxrom", ines(2, 2, 0, loop, nes2=True))
    put("nesrom", "kil", ines(0, 1, 1, bytes([0x02])))
    put("nesrom", "truncated", ines(0, 1, 1, loop)[:9000])


# ---- smsrom: Master System / Game Gear images (opened as both) running a small frame loop ----
def sms_image(size=32768, region=0x4C, extra=None):
    """A Sega-mapper image: `di; im 1; ld sp`, then a loop writing the VDP (registers, CRAM), the mapper's page
    register and reading the pads, with an IM 1 handler at $38 and RETN at $66 (the pause NMI); "TMR SEGA" header."""
    rom = bytearray(b"\x00" * size)
    rom[0x0000:0x0009] = bytes([0xF3, 0xED, 0x56, 0x31, 0xF0, 0xDF, 0xC3, 0x00, 0x01])
    rom[0x0038:0x003D] = bytes([0xDB, 0xBF, 0xFB, 0xED, 0x4D])
    rom[0x0066:0x0068] = bytes([0xED, 0x45])
    rom[0x0100:0x0108] = bytes([0x3E, 0xE0, 0xD3, 0xBF, 0x3E, 0x81, 0xD3, 0xBF])
    rom[0x0108:0x0120] = bytes([0x3E, 0x01, 0x32, 0xFF, 0xFF, 0xDB, 0xDC, 0x3E, 0x00, 0xD3, 0xBF, 0x3E, 0xC0,
                                0xD3, 0xBF, 0xDB, 0xDC, 0xD3, 0xBE, 0xFB, 0xC3, 0x08, 0x01, 0x00])
    if extra:
        for at, data in extra:
            rom[at:at + len(data)] = data
    rom[0x7FF0:0x7FF8] = b"TMR SEGA"
    rom[0x7FFF] = region
    return bytes(rom)


def sms_seeds():
    put("smsrom", "sega_32k", sms_image())
    put("smsrom", "gg_32k", sms_image(region=0x6C))
    put("smsrom", "sega_128k", sms_image(131072))
    # Codemasters: the page register at $8000 written in the loop (ld ($8000),a instead of $FFFF)
    put("smsrom", "codemasters_64k", sms_image(65536, extra=[(0x010A, bytes([0x00, 0x80]))]))
    put("smsrom", "copier_header", bytes(512) + sms_image())
    put("smsrom", "halt", bytes([0x76]) * 8192)
    put("smsrom", "odd_size", sms_image()[:9000])
    for name in ("test.sms", "test.gg"):
        with open(os.path.join(HERE, "..", "roms", "bin", name), "rb") as f:
            put("smsrom", "ours_" + name.replace(".", "_"), f.read())


# ---- mdrom: Genesis images: vectors, a header, and a 68000 loop over the VDP, the pads and the Z80 bus ----
def md_image(pc=0x200, code=None, size=0x8000):
    rom = bytearray(size)
    struct.pack_into(">II", rom, 0, 0x00FFFE00, pc)
    for v in range(2, 64):  # every exception and interrupt: an RTE at $300
        struct.pack_into(">I", rom, v * 4, 0x300)
    rom[0x100:0x110] = b"SEGA GENESIS    "
    rom[0x1F0:0x1F3] = b"JUE"
    if code is None:
        setup = bytes.fromhex("33FC817400C00004" "33FC8F0200C00004" "46FC2000")
        loop = bytes.fromhex("103900A10003" "23FCC000000000C00004" "33C000C00000" "33FC010000A11100")
        disp = -(len(loop) + 2)
        code = setup + loop + bytes([0x60, disp & 0xFF])  # bra.s back to the loop
    rom[0x200:0x200 + len(code)] = code
    rom[0x300:0x302] = bytes([0x4E, 0x73])
    return bytes(rom)


def md_seeds():
    put("mdrom", "vdp_loop", md_image())
    put("mdrom", "illegal", md_image(code=bytes([0x4A, 0xFC]) * 16))
    put("mdrom", "odd_pc", md_image(pc=0x201))
    put("mdrom", "big_1m", md_image(size=0x100000))
    smd = bytearray(md_image(size=16384 + 512))
    smd[8:10] = b"\xaa\xbb"
    put("mdrom", "smd_interleaved", bytes(smd))
    put("mdrom", "odd_size", md_image()[:513])
    with open(os.path.join(HERE, "..", "roms", "bin", "test.md"), "rb") as f:
        put("mdrom", "ours_test_md", f.read())
    # the cartridge (docs/genesis.md "Cartridge"): a backup RAM field, a loop writing it, $A130F1 and a bank register
    cart = bytes.fromhex("13FC005A00200001" "13FC000300A130F1" "13FC000100A130F3" "103900200001")
    sram = bytearray(md_image(code=cart + bytes([0x60, (-(len(cart) + 2)) & 0xFF])))
    sram[0x1B0:0x1BC] = b"RA\xf8\x20" + struct.pack(">II", 0x200001, 0x203FFF)
    put("mdrom", "sram_ra", bytes(sram))
    eeprom = bytearray(md_image())
    eeprom[0x180:0x18E] = b"GM T-081326 00"  # a serial EEPROM cartridge's product code: refused
    put("mdrom", "eeprom_product", bytes(eeprom))


def main():
    datatype()
    json_seeds()
    state_seeds()
    movie_seeds()
    zip_seeds()
    a26_seeds()
    lua_seeds()
    nes_seeds()
    sms_seeds()
    md_seeds()
    total = sum(len(files) for _, _, files in os.walk(OUT))
    print("wrote %d seed files under %s" % (total, OUT))


if __name__ == "__main__":
    sys.exit(main())
