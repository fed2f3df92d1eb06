#!/usr/bin/env bash
# `retrogym validate --states`: every state of a game loaded on the core the env picks, each in a child process with
# a timeout; ok, refused (the error), crashed (the signal) and hung reported per state, the exit status 1 on a crash
# or a hang, and the command goes on after each. Crashes and hangs come from our fault cores (run_segv, run_hang)
# standing in for a third-party core that a damaged state sends astray; good and refused states from our Atari core.
# usage: test_faults_validate_states.sh RETROGYM_CLI SOURCE_DIR FAULT_CORE_DIR
set -u
cli="$1"
src="$2"
faults="$3"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$src/tests/cli/harness.sh"

# An Atari game (our core) with a good state, a garbage one and a cut-short one.
data="$tmp/data"
game="$data/stable/States-Atari2600"
mkdir -p "$game"
cp "$src/tests/roms/bin/test.a26" "$game/rom.a26"
sha1sum "$game/rom.a26" | cut -d' ' -f1 >"$game/rom.sha"
echo '{"info": {"byte": {"address": 0, "type": "|u1"}}}' >"$game/data.json"
echo '{"done": {"variables": {}}, "reward": {"variables": {}}}' >"$game/scenario.json"
echo '{"default_state": "Good"}' >"$game/metadata.json"
expect_rc "a real state" 0 "$cli" run "$game/rom.a26" --frames 30 --state-out "$game/Good.state"
printf 'not a state' | gzip >"$game/Garbage.state"
gzip -dc "$game/Good.state" | head -c 100 | gzip >"$game/Short.state"

expect_rc "validate --states" 0 "$cli" validate --states States-Atari2600 --data-path "$data"
grep -q "^States-Atari2600/Good.state: ok on atari2600$" "$tmp/out"; check "a good state: ok, the core named" $?
grep -q "^States-Atari2600/Garbage.state: refused: ." "$tmp/out"; check "a garbage state: refused with the error" $?
grep -q "^States-Atari2600/Short.state: refused: ." "$tmp/out"; check "a cut-short state: refused with the error" $?
grep -q "^3 states loaded: 1 ok, 2 refused, 0 crashed, 0 hung$" "$tmp/out"; check "validate --states: the tally" $?
expect_rc "validate --states --quiet" 0 "$cli" validate --states --quiet States-Atari2600 --data-path "$data"
! grep -q "Good.state" "$tmp/out" && grep -q "Garbage.state: refused" "$tmp/out"; check "--quiet: no ok lines" $?
expect_rc "validate without --states loads nothing" 0 "$cli" validate States-Atari2600 --data-path "$data"
! grep -q "states loaded" "$tmp/out"; check "validate: no state lines without --states" $?
mkdir -p "$data/stable/NoRom-Atari2600"
cp "$game/data.json" "$game/scenario.json" "$game/metadata.json" "$game/Good.state" "$data/stable/NoRom-Atari2600/"
echo "0123456789abcdef0123456789abcdef01234567" >"$data/stable/NoRom-Atari2600/rom.sha"
expect_rc "validate --states without ROM" 0 "$cli" validate --states NoRom-Atari2600 --data-path "$data"
grep -q "^NoRom-Atari2600: states not loaded: no ROM imported$" "$tmp/out" &&
  grep -q "^0 states loaded: .* (games without a ROM skipped)$" "$tmp/out"; check "a game without ROM: skipped, said" $?
rm -r "$data/stable/NoRom-Atari2600"
expect_rc "validate --states bad timeout" 1 "$cli" validate --states --timeout 0 --data-path "$data"
one_line_err && grep -q -- "--timeout must be" "$tmp/err"; check "--timeout 0: our error" $?
expect_rc "validate --states folder" 1 "$cli" validate --states "$game" --data-path "$data"
grep -q "name the game" "$tmp/err"; check "--states on a folder: our error" $?

# A core that crashes, and one that hangs, on every state (fault cores put first on the path under the NES core's
# name): reported per state, the command goes on to the next state and exits 1.
if [ -e "$faults/fault_run_segv_libretro.so" ] && [ -e "$faults/fault_run_hang_libretro.so" ]; then
  nes="$data/stable/Faulty-Nes"
  mkdir -p "$nes" "$tmp/segv" "$tmp/hang"
  { printf 'NES\032\001\001\000\000\000\000\000\000\000\000\000\000'; head -c 24576 /dev/zero; } >"$nes/rom.nes"
  tail -c +17 "$nes/rom.nes" | sha1sum | cut -d' ' -f1 >"$nes/rom.sha"
  echo '{"info": {"byte": {"address": 0, "type": "|u1"}}}' >"$nes/data.json"
  echo '{"done": {"variables": {}}, "reward": {"variables": {}}}' >"$nes/scenario.json"
  echo '{"default_state": "One"}' >"$nes/metadata.json"
  head -c 4096 /dev/zero | gzip >"$nes/One.state"
  head -c 4096 /dev/zero | gzip >"$nes/Two.state"
  cp "$faults/fault_run_segv_libretro.so" "$tmp/segv/fceumm_libretro.so"
  cp "$faults/fault_run_hang_libretro.so" "$tmp/hang/fceumm_libretro.so"
  expect_rc "validate --states crash" 1 "$cli" validate --states Faulty-Nes --core-path "$tmp/segv" --data-path "$data"
  # (under the sanitizers a child may end without a result instead of by the signal)
  [ "$(grep -Ec '^Faulty-Nes/(One|Two).state: error: crashed the core: (crashed \(signal 11\)|the check stopped)' \
    "$tmp/out")" -eq 2 ]; check "a crashing core: each state reported, the command goes on" $?
  grep -q "^2 states loaded: 0 ok, 0 refused, 2 crashed, 0 hung$" "$tmp/out"; check "crash tally" $?
  expect_rc "validate --states hang" 1 "$cli" validate --states Faulty-Nes --timeout 1 --core-path "$tmp/hang" \
    --data-path "$data"
  [ "$(grep -c '^Faulty-Nes/\(One\|Two\).state: error: hung the core: timeout after 1 s$' "$tmp/out")" -eq 2 ]
  check "a hanging core: each state reported after the timeout" $?
  grep -q "^2 states loaded: 0 ok, 0 refused, 0 crashed, 2 hung$" "$tmp/out"; check "hang tally" $?
fi
finish
