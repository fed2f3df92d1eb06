#!/usr/bin/env bash
# The game library out of the box: the CLI finds an installed stable-retro through its Python (data root and cores),
# --core-path, core and game origins, `library` (rows, summary, --check in child processes), imports into the user
# root, another dump reported and adopted with --force, the core fallback of `play`, `.bin` as Atari 2600.
# Parts that need stable-retro, ale-py or gym-super-mario-bros in the project's .venv are skipped without them.
# usage: test_cli_library.sh RETROGYM_CLI SOURCE_DIR
set -u
cli="$1"
src="$2"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$src/tests/cli/harness.sh" # discovery off, private XDG_DATA_HOME
py="$src/.venv/bin/python"
site=$(ls -d "$src"/.venv/lib/python3*/site-packages 2>/dev/null | head -1)
sr="${site:-/nonexistent}/stable_retro"
ale="${site:-/nonexistent}/ale_py/roms"
smb="${site:-/nonexistent}/gym_super_mario_bros/_roms/super-mario-bros.nes"

# A data root of our own: a NES game whose start state is garbage (it cannot start), one with a ROM named like it of
# another dump, and a game of an unknown system.
data="$tmp/data"
nes_sha() { tail -c +17 "$1" | sha1sum | cut -d' ' -f1; }
mkdir -p "$data/stable/Broken-Nes" "$data/stable/Dump-Nes" "$data/contrib/Odd-Saturn" "$tmp/in"
{ printf 'NES\032\001\001\000\000\000\000\000\000\000\000\000\000'; head -c 24576 /dev/zero | tr '\0' '\377'; } \
  >"$data/stable/Broken-Nes/rom.nes"
nes_sha "$data/stable/Broken-Nes/rom.nes" >"$data/stable/Broken-Nes/rom.sha"
echo '{"default_state": "Start"}' >"$data/stable/Broken-Nes/metadata.json"
printf 'not a state' | gzip >"$data/stable/Broken-Nes/Start.state"
echo "0123456789abcdef0123456789abcdef01234567" >"$data/stable/Dump-Nes/rom.sha"
echo "0123456789abcdef0123456789abcdef01234567" >"$data/contrib/Odd-Saturn/rom.sha"
{ printf 'NES\032\001\001\000\000\000\000\000\000\000\000\000\000'; head -c 24576 /dev/zero; } >"$tmp/in/Dump (USA).nes"

expect_rc "library --help" 0 "$cli" library --help
grep -q -- "--check" "$tmp/out" && grep -q "stable-retro" "$tmp/out"; check "library help" $?
expect_rc "help lists library" 0 "$cli" --help
grep -q "library" "$tmp/out"; check "top-level help lists library" $?
expect_rc "library bad option" 1 "$cli" library --frobs
expect_rc "library bad system" 1 "$cli" library --system Atari7800 --data-path "$data"
one_line_err && grep -q "Atari7800" "$tmp/err"; check "library: unknown system named" $?
expect_rc "library bad timeout" 1 "$cli" library --timeout 0 --data-path "$data"

# Rows: every integration with ROM or not; the summary per system and core origin; advice for the rest.
expect_rc "library" 0 "$cli" library --data-path "$data"
grep -q "^Broken-Nes .* Nes .* stable .* given .* yes " "$tmp/out"; check "library: a game with its ROM" $?
grep -q "^Dump-Nes .* no " "$tmp/out"; check "library: a game without ROM" $?
grep -q "^Odd-Saturn .* ? .* contrib .* none " "$tmp/out"; check "library: an unknown system" $?
grep -q "^all  *3  *1  *-$" "$tmp/out"; check "library: totals (3 integrations, 1 with ROM, unchecked)" $?
grep -q "^2 integrations without a ROM: import your ROMs with retrogym import PATH (searched $data (given))" \
  "$tmp/out"; check "library: import advice names the roots" $?
expect_rc "library --summary" 0 "$cli" library --summary --data-path "$data"
! grep -q "^Broken-Nes" "$tmp/out" && grep -q "^all " "$tmp/out"; check "library --summary: no rows" $?
if "$cli" cores | grep -q '^nestopia '; then
  expect_rc "library --check" 0 "$cli" library --check --frames 5 --timeout 20 --data-path "$data"
  line=$(grep "^Broken-Nes" "$tmp/out")
  [ -n "$line" ] && ! echo "$line" | grep -q " ok$"; echo "$line" | grep -q "Start.state"; check "library --check: a broken state does not start, the error shown" $?
  grep -q "^Nes .* 2  *1  *0$" "$tmp/out"; check "library --check: the summary counts no start" $?
fi

# --check runs each game in a child: a core that crashes while running (one of our fault cores, put first on the
# path under nestopia's name, which the game's start state names by its signature) is reported in its row and the
# command goes on.
segv="$(dirname "$cli")/../fault-cores/fault_run_segv_libretro.so"
if [ -e "$segv" ]; then
  mkdir -p "$tmp/crashing" "$tmp/data2/stable/Crash-Nes"
  cp "$segv" "$tmp/crashing/nestopia_libretro.so"
  cp "$data/stable/Broken-Nes/rom.nes" "$data/stable/Broken-Nes/rom.sha" "$tmp/data2/stable/Crash-Nes/"
  echo '{"default_state": "Start"}' >"$tmp/data2/stable/Crash-Nes/metadata.json"
  printf 'NST\032 a state' | gzip >"$tmp/data2/stable/Crash-Nes/Start.state"
  expect_rc "library --check crash" 0 "$cli" library --check --timeout 20 --core-path "$tmp/crashing" \
    --data-path "$tmp/data2"
  # (under the sanitizers, ASan catches the fault and the child exits without a result)
  grep -Eq "^Crash-Nes .* nestopia .* env var  *(crashed \(signal 11\)|the check stopped without a result)$" "$tmp/out"
  check "library --check: a crashing core is contained in its child" $?
fi

# games --long: the origin of each game's root and its ROM.
expect_rc "games --long" 0 "$cli" games --long --data-path "$data" --integrations all
grep -q "^Broken-Nes  *given  *rom$" "$tmp/out" && grep -q "^Dump-Nes  *given  *no rom$" "$tmp/out"
check "games --long: origin and ROM" $?

# Another dump: reported by name, adopted with --force, refused for an unknown game.
expect_rc "import another dump" 0 "$cli" import "$tmp/in" --data-path "$data"
grep -q "Dump (USA).nes is named like Dump-Nes but its SHA-1" "$tmp/err" && grep -q -- "--force Dump-Nes" "$tmp/err"
check "import: another dump reported with the command that adopts it" $?
[ ! -e "$data/stable/Dump-Nes/rom.nes" ]; check "import: another dump not written" $?
expect_rc "import --force" 0 "$cli" import --force Dump-Nes "$tmp/in" --data-path "$data"
cmp -s "$tmp/in/Dump (USA).nes" "$data/stable/Dump-Nes/rom.nes"; check "import --force: written as the game's ROM" $?
expect_rc "import --force unknown" 1 "$cli" import --force Nobody-Nes "$tmp/in" --data-path "$data"
grep -q "unknown game Nobody-Nes (searched $data (given))" "$tmp/err"; check "import --force: unknown game named" $?
expect_rc "import --force without value" 1 "$cli" import --force

# --core-path: a folder prepended to the search path, its cores of origin "env var".
mkdir -p "$tmp/mycores"
if [ -e /usr/lib/x86_64-linux-gnu/libretro/nestopia_libretro.so ]; then
  cp /usr/lib/x86_64-linux-gnu/libretro/nestopia_libretro.so "$tmp/mycores/"
  expect_rc "cores --core-path" 0 "$cli" cores --core-path "$tmp/mycores"
  grep -q "^nestopia .* env var  *$tmp/mycores/nestopia_libretro.so" "$tmp/out"; check "--core-path: first, env var" $?
  expect_rc "cores without" 0 "$cli" cores
  grep -q "^nestopia .* Debian  *" "$tmp/out"; check "cores: Debian origin" $?
fi
expect_rc "--core-path without value" 1 "$cli" cores --core-path

# .bin: Atari 2600 at 2-32 KiB only.
head -c 40000 /dev/zero >"$tmp/big.bin"
expect_rc "run big .bin" 1 "$cli" run "$tmp/big.bin"
grep -q "only at 2-32 KiB" "$tmp/err"; check "run: a big .bin is refused with the reason" $?

# With stable-retro in the project's .venv: found through the configured Python, without any setup.
if [ -d "$sr/data" ] && [ -x "$py" ]; then
  export XDG_DATA_HOME="$tmp/xdg2"
  found=(env -u RETROGYM_STABLE_RETRO RETROGYM_PYTHON="$py")
  expect_rc "cores (discovered)" 0 "${found[@]}" "$cli" cores
  grep -q "^genesis_plus_gx .* stable-retro  *$sr/cores/genesis_plus_gx_libretro.so" "$tmp/out"
  check "discovery: stable-retro's cores, origin stable-retro" $?
  expect_rc "states by the plain name" 0 "${found[@]}" "$cli" states Airstriker-Genesis
  [ "$(cat "$tmp/out")" = "Level1" ]; check "discovery: Airstriker-Genesis finds Airstriker-Genesis-v0" $?
  expect_rc "play Airstriker" 0 "${found[@]}" "$cli" play Airstriker-Genesis --frames 120
  grep -q "^episode 1: 120 frames" "$tmp/out"; check "discovery: a stable-retro game plays" $?
  expect_rc "no Python" 1 env -u RETROGYM_STABLE_RETRO RETROGYM_PYTHON=/nonexistent/python "$cli" states \
    Airstriker-Genesis
  grep -q "unknown game Airstriker-Genesis (searched .*(user), .*(own);" "$tmp/err"
  check "without stable-retro: unknown game, the roots named" $?
  expect_rc "library --check discovered" 0 "${found[@]}" "$cli" library --check --system Genesis --frames 10
  grep -q "^Airstriker-Genesis-v0 .* stable .* stable-retro yes  genesis .* own  *ok$" "$tmp/out"
  check "library --check: Airstriker's GPGX start state starts on our genesis core" $?
  expect_rc "play missing state" 1 "${found[@]}" "$cli" play Airstriker-Genesis --state Nowhere
  grep -q 'game Airstriker-Genesis has no state "Nowhere" (see retrogym states Airstriker-Genesis)' "$tmp/err"
  check "play: a missing state in rg_env_create's words" $?
  if "$cli" cores | grep -q '^nestopia '; then
    expect_rc "play StarCatcher" 0 "${found[@]}" "$cli" play StarCatcher-Nes --frames 60
    ! grep -q "runs the game instead" "$tmp/err"
    check "play: a nestopia start state picks nestopia over stable-retro's fceumm, no fallback" $?
  fi
  if [ -d "$ale" ] && "${found[@]}" "$cli" cores | grep -q '^stella '; then
    # Pong with its Stella state damaged where Stella does not look (a false CPU flag written 0x00, which Stella
    # reads as false and our core refuses): our core refuses it, and play falls back to Stella as rg_env_create does
    fb="$tmp/fallback"
    mkdir -p "$fb/stable"
    cp -r "$sr/data/stable/Pong-Atari2600-v0" "$fb/stable/"
    chmod -R u+w "$fb"
    cp "$ale/pong.bin" "$fb/stable/Pong-Atari2600-v0/rom.a26"
    "$py" - "$fb/stable/Pong-Atari2600-v0/Start.state" <<'PY'
import gzip, sys
path = sys.argv[1]
with gzip.open(path) as f:
    b = bytearray(f.read())
flags = b.index(b"\x05\0\0\0M6502") + 9 + 7  # after the name: A X Y SP IR, PC (2 bytes), then 7 flags
b[next(j for j in range(flags, flags + 7) if b[j] == 1)] = 0
with gzip.open(path, "wb") as f:
    f.write(bytes(b))
PY
    expect_rc "play fallback" 0 "${found[@]}" "$cli" play Pong-Atari2600-v0 --data-path "$fb" --frames 60
    grep -q "Pong-Atari2600-v0: the start state does not load in core atari2600, so core stella runs the game" \
      "$tmp/err"
    check "play: a refused start state moves to the next core (as rg_env_create)" $?
  fi
  if [ -d "$ale" ]; then
    expect_rc "import ale-py ROMs" 0 "${found[@]}" "$cli" import "$ale" --quiet
    [ -e "$XDG_DATA_HOME/retrogym/stable/Pong-Atari2600-v0/rom.a26" ]; check "import: into the user root" $?
    [ ! -e "$sr/data/stable/Pong-Atari2600-v0/rom.a26" ]; check "import: the package folder untouched" $?
    expect_rc "run pong.bin" 0 "$cli" run "$ale/pong.bin" --frames 10 --quiet
  fi
  if [ -e "$smb" ]; then
    expect_rc "import SMB" 0 "${found[@]}" "$cli" import "$smb"
    grep -q "named like SuperMarioBros-Nes-v0" "$tmp/err"; check "import: gym-super-mario-bros' SMB is another dump" $?
  fi
else
  echo "stable-retro not in $src/.venv: discovery checks skipped"
fi
finish
