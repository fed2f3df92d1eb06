#!/usr/bin/env bash
# The movie commands of the CLI: `record` (random and Brute agents, file names), `playback` (the summary, the check
# of the recorded rewards, video with sound, PNGs, CSV, NPZ, JSON) and every error path with its one-line message.
# usage: test_cli_movie.sh RETROGYM_CLI SOURCE_DIR
set -u
cli="$1"
src="$2"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$src/tests/cli/harness.sh"
py=python3
[ -x "$src/.venv/bin/python" ] && py="$src/.venv/bin/python"

expect_rc "help lists playback" 0 "$cli" --help
grep -q "playback MOVIE" "$tmp/out" && grep -q "record GAME" "$tmp/out"; check "top-level help lists the movie commands" $?
expect_rc "playback --help" 0 "$cli" playback --help
grep -q -- "--video FILE" "$tmp/out" && grep -q -- "--npz FILE" "$tmp/out"; check "playback help documents outputs" $?
expect_rc "record --help" 0 "$cli" record --help
grep -q -- "--agent random|brute" "$tmp/out"; check "record help documents agents" $?

# Errors that need no core.
expect_rc "playback without a movie" 1 "$cli" playback
one_line_err; check "playback without a movie: one line" $?
expect_rc "playback missing movie" 1 "$cli" playback "$tmp/missing.bk2"
one_line_err && grep -q "missing.bk2" "$tmp/err"; check "missing movie: one line naming it" $?
printf 'this is not a zip' >"$tmp/junk.bk2"
expect_rc "playback corrupt movie" 1 "$cli" playback "$tmp/junk.bk2"
one_line_err && grep -q "junk.bk2" "$tmp/err"; check "corrupt movie: one line naming it" $?
head -c 300 "$src/tests/movie/data/sr-Nes.bk2" >"$tmp/cut.bk2"
expect_rc "playback truncated movie" 1 "$cli" playback "$tmp/cut.bk2"
one_line_err; check "truncated movie: one line" $?
expect_rc "playback two movies" 1 "$cli" playback a.bk2 b.bk2
expect_rc "playback bad option" 1 "$cli" playback "$tmp/junk.bk2" --frobs
expect_rc "playback bad --png-every" 1 "$cli" playback x.bk2 --png-every 0
expect_rc "playback --png-dir alone" 1 "$cli" playback x.bk2 --png-dir "$tmp"
expect_rc "record without a game" 1 "$cli" record
expect_rc "record unknown agent" 1 "$cli" record StarCatcher-Nes --agent smart
grep -q 'unknown agent "smart"' "$tmp/err"; check "unknown agent message" $?
expect_rc "record bad episodes" 1 "$cli" record StarCatcher-Nes --episodes 0
expect_rc "record unknown game" 1 "$cli" record NoSuchGame-Nes --out "$tmp/never"
one_line_err && grep -q "NoSuchGame-Nes" "$tmp/err"; check "record unknown game: one line naming it" $?

# A movie naming a game that does not exist, and one for another system than its game's (built with zipfile).
mkbk2() { # path platform game
  "$py" - "$@" <<'EOF'
import sys, zipfile
path, platform, game = sys.argv[1:4]
header = (f"MovieVersion Retro\nAuthor ?\nemuVersion ?\nPlatform {platform}\nGameName {game}\nSHA1 ?\nCore ?\n"
          "rerecordCount 1\n")
keys = {"NES": "P1 A|P1 Right|P1 Left|P1 Down|P1 Up|P1 Start|P1 Select|P1 B|",
        "SNES": "P1 R|P1 L|P1 X|P1 A|P1 Right|P1 Left|P1 Down|P1 Up|P1 Start|P1 Select|P1 Y|P1 B|"}[platform]
width = keys.count("|")
log = "[Input]\n" + keys + "\n" + ("|..|" + "." * width + "|\n") * 5 + "[/Input]"
with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
    z.writestr("Input Log.txt", log)
    z.writestr("Header.txt", header)
EOF
}
mkbk2 "$tmp/nogame.bk2" NES NoSuchGame-Nes
expect_rc "playback game not found" 1 "$cli" playback "$tmp/nogame.bk2"
one_line_err && grep -q "NoSuchGame-Nes" "$tmp/err"; check "game not found: one line naming it" $?
mkbk2 "$tmp/snes.bk2" SNES StarCatcher-Nes
if "$cli" cores | grep -q '^nestopia '; then
  expect_rc "playback movie of another system" 1 "$cli" playback "$tmp/snes.bk2"
  one_line_err && grep -q "the movie is for Snes" "$tmp/err"; check "another system: one line saying so" $?
  expect_rc "playback --game of another system" 1 "$cli" playback "$tmp/nogame.bk2" --game NoSuchGame-Snes
fi

if ! "$cli" cores | grep -q '^nestopia '; then
  echo "skipped the rest: StarCatcher-Nes needs the nestopia core"
  finish
  exit $?
fi

# record: random agent, two episodes, numbered from 0; a second run goes on after the files already there.
expect_rc "record random" 0 "$cli" record StarCatcher-Nes --episodes 2 --max-steps 300 --seed 5 --out "$tmp/rec"
[ "$(grep -c '^episode [12]: 300 steps' "$tmp/out")" -eq 2 ]; check "record: two episodes of 300 steps" $?
m0="$tmp/rec/StarCatcher-Nes-Start-000000.bk2"
[ -f "$m0" ] && [ -f "$tmp/rec/StarCatcher-Nes-Start-000001.bk2" ]; check "record: stable-retro's file names" $?
expect_rc "record again" 0 "$cli" record StarCatcher-Nes --max-steps 50 --out "$tmp/rec" --quiet
[ -f "$tmp/rec/StarCatcher-Nes-Start-000002.bk2" ] && [ ! -s "$tmp/out" ]; check "record: numbering goes on, quiet" $?
expect_rc "record brute" 0 "$cli" record StarCatcher-Nes --agent brute --episodes 4 --max-steps 200 --out "$tmp/brute"
[ "$(ls "$tmp/brute" | wc -l)" -eq 4 ]; check "record brute: a movie per episode" $?
grep -q "^best reward" "$tmp/out"; check "record brute: best reward" $?
expect_rc "record power-on" 0 "$cli" record StarCatcher-Nes --state none --max-steps 100 --out "$tmp/pon"
[ -f "$tmp/pon/StarCatcher-Nes-none-000000.bk2" ]; check "record power-on: 'none' stem" $?

# playback: the summary and the check of the recorded rewards.
expect_rc "playback" 0 "$cli" playback "$m0"
grep -q "StarCatcher-Nes (Nes, 1 player), 1201 frames, core nestopia" "$tmp/out"; check "playback summary" $?
grep -q "recorded rewards: identical on all 1201 frames checked" "$tmp/out"; check "playback: rewards identical" $?
expect_rc "playback power-on" 0 "$cli" playback "$tmp/pon/StarCatcher-Nes-none-000000.bk2" --quiet
[ ! -s "$tmp/out" ]; check "playback --quiet prints nothing" $?
expect_rc "playback no-verify" 0 "$cli" playback "$m0" --no-verify
grep -q "not checked" "$tmp/out"; check "playback --no-verify" $?
# A recording whose rewards were changed is caught (exit 1, the first frame that differs named).
bad=$("$py" - "$m0" "$tmp/tampered.bk2" <<'EOF'
import sys, zipfile
src, dst = sys.argv[1:3]
with zipfile.ZipFile(src) as z, zipfile.ZipFile(dst, "w", zipfile.ZIP_DEFLATED) as out:
    for info in z.infolist():
        data = z.read(info.filename)
        if info.filename == "retrogym.txt":
            lines = data.decode().splitlines()
            frames = [i for i, l in enumerate(lines) if l[:1].isdigit()]
            if frames:  # the first frame that scored now says 7
                frame = lines[frames[0]].split()[0]
                lines[frames[0]] = f"{frame} 7 0"
            else:
                frame = "1200"
                lines.append("1200 7 0")
            print(frame)
            data = ("\n".join(lines) + "\n").encode()
        out.writestr(info.filename, data)
EOF
)
expect_rc "playback tampered rewards" 1 "$cli" playback "$tmp/tampered.bk2"
grep -q "differs from the recording on 1 of 1201 frames; first at frame $bad: recorded reward 7" "$tmp/err"
check "tampered rewards: frame $bad named" $?
# A stable-retro movie has no recorded rewards; stable-retro's Core.bin (fceumm) does not load into nestopia.
expect_rc "playback stable-retro movie, wrong core" 1 "$cli" playback "$src/tests/movie/data/sr-Nes.bk2" \
  --custom-path "$tmp/none" --core nestopia
one_line_err && grep -q "MovieTestNes-Nes" "$tmp/err"; check "reference game missing: named" $?
mkdir -p "$tmp/int/MovieTestNes-Nes" && cp "$src/tests/roms/bin/test.nes" "$tmp/int/MovieTestNes-Nes/rom.nes"
expect_rc "playback Core.bin of another core" 1 "$cli" playback "$src/tests/movie/data/sr-Nes.bk2" \
  --custom-path "$tmp/int" --core nestopia
one_line_err && grep -q "Core.bin" "$tmp/err" && grep -q "another core" "$tmp/err"; check "state of another core" $?
fceumm=$(ls "$src"/.venv/lib/python3*/site-packages/stable_retro/cores/fceumm_libretro.so 2>/dev/null | head -1)
if [ -n "$fceumm" ]; then
  expect_rc "playback stable-retro movie" 0 "$cli" playback "$src/tests/movie/data/sr-Nes.bk2" \
    --custom-path "$tmp/int" --core "$fceumm"
  grep -q "MovieTestNes-Nes (Nes, 1 player), 91 frames" "$tmp/out" && grep -q "none in this movie" "$tmp/out"
  check "stable-retro movie plays, no rewards to check" $?
fi

# An FCEUX movie names no game: --game says which; it starts at power-on.
{
  printf 'version 3\nemuVersion 22020\nrerecordCount 0\nromFilename x\nguid 0\nport0 1\nport1 0\nport2 0\n'
  for i in $(seq 1 60); do printf '|0|R.......|||\n'; done
} >"$tmp/t.fm2"
expect_rc "playback FM2 without --game" 1 "$cli" playback "$tmp/t.fm2"
one_line_err && grep -q -- "--game" "$tmp/err"; check "FM2: asks for --game" $?
expect_rc "playback FM2" 0 "$cli" playback "$tmp/t.fm2" --game StarCatcher-Nes
grep -q "StarCatcher-Nes (Nes, 1 player), 60 frames" "$tmp/out" && grep -q "none in this movie" "$tmp/out"
check "FM2 plays with --game" $?

# The outputs: CSV, JSON, NPZ, PNGs (one entry per step: frames - 1).
expect_rc "playback PNGs into a missing folder" 1 "$cli" playback "$m0" --png-every 400 --png-dir "$tmp/png"
one_line_err && grep -q "$tmp/png" "$tmp/err"; check "missing PNG folder: one line naming it" $?
mkdir -p "$tmp/png"
expect_rc "playback PNGs" 0 "$cli" playback "$m0" --png-every 400 --png-dir "$tmp/png" --quiet
[ "$(ls "$tmp/png" | wc -l)" -eq 4 ] && [ -f "$tmp/png/StarCatcher-Nes-Start-000000-001200.png" ]
check "PNGs of frames 0, 400, 800, 1200" $?
expect_rc "playback outputs" 0 "$cli" playback "$m0" --csv "$tmp/o.csv" --info-json "$tmp/o.json" \
  --npz "$tmp/o.npz" --quiet
[ "$(wc -l <"$tmp/o.csv")" -eq 1201 ] && head -1 "$tmp/o.csv" | grep -q "^frame,reward,done,.*lives.*score"
check "CSV: header and 1200 rows" $?
"$py" - "$tmp/o.json" "$tmp/o.npz" "$tmp/o.csv" <<'EOF'
import json, sys, zipfile
info = json.load(open(sys.argv[1]))
assert len(info) == 1200 and "score" in info[0] and "lives" in info[-1], "info json"
z = zipfile.ZipFile(sys.argv[2])
names = sorted(i.filename for i in z.infolist())
assert names == ["actions.npy", "dones.npy", "obs.npy", "rewards.npy"], names
assert all(i.compress_type == zipfile.ZIP_STORED for i in z.infolist()), "npz entries are stored"
for name, shape in [("obs.npy", "(1200, 224, 256, 3)"), ("rewards.npy", "(1200,)"), ("actions.npy", "(1200, 9)")]:
    data = z.read(name)
    assert data[:8] == b"\x93NUMPY\x01\x00", name
    hlen = data[8] | data[9] << 8
    assert (10 + hlen) % 64 == 0, name
    assert f"'shape': {shape}" in data[10:10 + hlen].decode(), (name, data[10:10 + hlen])
try:
    import numpy as np
except ImportError:
    sys.exit(0)
a = np.load(sys.argv[2])
assert a["obs"].shape == (1200, 224, 256, 3) and a["dones"].dtype == bool
rows = [line.split(",") for line in open(sys.argv[3]).read().splitlines()[1:]]
assert abs(a["rewards"].sum() - sum(float(r[1]) for r in rows)) < 1e-6
EOF
check "NPZ, JSON and CSV agree and have the right shapes" $?

# Video with sound through ffmpeg: one picture per step; a clear error without ffmpeg.
expect_rc "playback without ffmpeg" 1 env PATH=/nonexistent "$cli" playback "$m0" --video "$tmp/x.mp4"
one_line_err && grep -q "ffmpeg" "$tmp/err" && [ ! -e "$tmp/x.mp4" ]; check "missing ffmpeg: one clear line" $?
if command -v ffmpeg >/dev/null && command -v ffprobe >/dev/null; then
  expect_rc "playback --video" 0 "$cli" playback "$m0" --video "$tmp/v.mp4" --quiet
  frames=$(ffprobe -v error -count_frames -select_streams v:0 -show_entries stream=nb_read_frames -of csv=p=0 \
    "$tmp/v.mp4")
  [ "$frames" = "1200" ]; check "video: 1200 frames (got $frames)" $?
  audio=$(ffprobe -v error -select_streams a:0 -show_entries stream=codec_name,channels -of csv=p=0 "$tmp/v.mp4")
  [ "$audio" = "aac,2" ]; check "video: stereo AAC sound (got $audio)" $?
  [ -z "$(ls "${TMPDIR:-/tmp}" | grep retrogym-video)" ]; check "video: temporary files removed" $?
  expect_rc "playback --video into a missing folder" 1 "$cli" playback "$m0" --video "$tmp/no/such/v.mp4"
  grep -q "ffmpeg" "$tmp/err"; check "video write failure names ffmpeg" $?
else
  echo "skipped the video checks: ffmpeg/ffprobe not installed"
fi
finish
