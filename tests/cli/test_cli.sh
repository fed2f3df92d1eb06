#!/usr/bin/env bash
# The retrogym CLI: help on every command, exit codes, one-line errors, and the outputs of `run`.
set -u
cli="$1"
src="$2"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$src/tests/cli/harness.sh"

expect_rc "top-level help" 0 "$cli" --help
grep -q "run ROM" "$tmp/out"; check "help lists run" $?
expect_rc "no command" 2 "$cli"
expect_rc "unknown command" 1 "$cli" frobnicate
[ "$(wc -l <"$tmp/err")" -eq 1 ]; check "unknown command: one-line error" $?
expect_rc "cores --help" 0 "$cli" cores --help
expect_rc "run --help" 0 "$cli" run --help
grep -q -- "--buttons" "$tmp/out"; check "run help documents --buttons" $?

rom="$src/tests/roms/bin/test.nes"
expect_rc "run without ROM" 1 "$cli" run
expect_rc "run missing ROM" 1 "$cli" run "$tmp/missing.nes"
[ "$(wc -l <"$tmp/err")" -eq 1 ] && grep -q "missing.nes" "$tmp/err"; check "missing ROM: one line naming it" $?
expect_rc "bad option" 1 "$cli" run "$rom" --frobs 3
expect_rc "bad button name" 1 "$cli" run "$rom" --buttons JUMP@3
grep -q 'no button named "JUMP"' "$tmp/err"; check "bad button message" $?
expect_rc "bad frames" 1 "$cli" run "$rom" --frames many

if "$cli" cores | grep -q '^nestopia '; then
  expect_rc "cores" 0 "$cli" cores
  grep -q "Nes" "$tmp/out"; check "cores shows the systems" $?
  expect_rc "run" 0 "$cli" run "$rom" --frames 61 --buttons A@60 --png "$tmp/f.png" --ram 0x10:2 \
    --ram 0x20:8 --state-out "$tmp/s.state"
  grep -q "frames/s" "$tmp/out"; check "run reports frames/s" $?
  grep -q "^00000010  3a 80" "$tmp/out"; check "RAM dump: counter and held A after 61 frames" $?
  grep -q "^00000020  48 4f 4d 45 42 52 45 57" "$tmp/out"; check "RAM dump: signature" $?
  [ "$(head -c 8 "$tmp/f.png" | od -An -tx1 | tr -d ' \n')" = "89504e470d0a1a0a" ]; check "PNG written" $?
  [ "$(head -c 2 "$tmp/s.state" | od -An -tx1 | tr -d ' \n')" = "1f8b" ]; check "gzip state written" $?
  ! grep -q "Plain ROM\|rambanks" "$tmp/out"; check "core chatter kept off stdout" $?
  # Continue from the saved state: the counter goes on from 0x3a.
  expect_rc "state-in" 0 "$cli" run "$rom" --frames 1 --state-in "$tmp/s.state" --ram 0x10:1 --quiet
  [ "$(cat "$tmp/out")" = "00000010  3b" ]; check "state-in continues the run" $?
  printf 'junk' >"$tmp/bad.state"
  expect_rc "bad state" 1 "$cli" run "$rom" --frames 1 --state-in "$tmp/bad.state"
fi

# play: an integrated game scored by its scenario.
expect_rc "play --help" 0 "$cli" play --help
grep -q -- "--input FILE" "$tmp/out"; check "play help documents --input" $?
expect_rc "play without a game" 1 "$cli" play
expect_rc "play unknown game" 1 "$cli" play NoSuchGame-Nes
[ "$(wc -l <"$tmp/err")" -eq 1 ]; check "play unknown game: one-line error" $?
expect_rc "play --random with --buttons" 1 "$cli" play StarCatcher-Nes --random 1 --buttons A@3
expect_rc "play bad --core-option" 1 "$cli" play StarCatcher-Nes --core-option novalue
# The option parser shared by play, record and playback (cli/options.c): one clear line per mistake.
expect_rc "play option without value" 1 "$cli" play StarCatcher-Nes --frames
grep -q -- "--frames needs a value" "$tmp/err"; check "missing value named" $?
expect_rc "play option not a number" 1 "$cli" play StarCatcher-Nes --repeat often
grep -q -- '--repeat: "often" is not a number' "$tmp/err"; check "bad number named" $?
expect_rc "play unknown option" 1 "$cli" play StarCatcher-Nes --frobs
grep -q -- "play: unknown option --frobs" "$tmp/err"; check "unknown option named with the command" $?
expect_rc "play two games" 1 "$cli" play StarCatcher-Nes Other-Nes
grep -q "play: one game at a time" "$tmp/err"; check "second game refused" $?
many=(); for k in $(seq 0 64); do many+=(--core-option "k$k=v"); done
expect_rc "play too many --core-option" 1 "$cli" play StarCatcher-Nes "${many[@]}"
grep -q "play: more than 64 --core-option" "$tmp/err"; check "core-option limit named" $?
expect_rc "record bad number" 1 "$cli" record StarCatcher-Nes --max-steps 1e3
grep -q -- '--max-steps: "1e3" is not a number' "$tmp/err"; check "record: bad number named" $?
expect_rc "playback two movies named" 1 "$cli" playback a.bk2 b.bk2
grep -q "playback: one movie at a time" "$tmp/err"; check "playback: second movie refused" $?
if "$cli" cores | grep -q '^nestopia '; then
  expect_rc "play scripted" 0 "$cli" play StarCatcher-Nes --frames 3600 --buttons RIGHT@30 --buttons 0@80 \
    --buttons LEFT@500 --buttons 0@600 --buttons A+RIGHT@1200 --buttons 0@1230 --buttons LEFT@2500
  grep -q "^episode 1: 3600 frames, reward 30, not done" "$tmp/out"; check "play scripted: known reward" $?
  grep -q " lives=3 .* score=30" "$tmp/out"; check "play scripted: final variables" $?
  printf '1\n0x80 0\n128\n' >"$tmp/in.txt"
  expect_rc "play --input --trace" 0 "$cli" play StarCatcher-Nes --input "$tmp/in.txt" --trace
  [ "$(grep -c '^[0-9]' "$tmp/out")" -eq 3 ]; check "play --input: one trace line per input line" $?
  grep -q "^episode 1: 3 frames" "$tmp/out"; check "play --input: the episode ends with the file" $?
  printf '1\nbanana\n' >"$tmp/bad.txt"
  expect_rc "play bad --input" 1 "$cli" play StarCatcher-Nes --input "$tmp/bad.txt"
  grep -q "line 2" "$tmp/err"; check "play bad --input names the line" $?
  expect_rc "play missing state" 1 "$cli" play StarCatcher-Nes --state Nowhere
fi
finish
