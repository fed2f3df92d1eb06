#!/usr/bin/env bash
# Rebuilds every test ROM from source into a temporary folder and compares with the committed images; the same for
# our game StarCatcher (games/starcatcher), whose ROM and rom.sha are committed in data/stable/StarCatcher-Nes.
# Exit 77 (skipped) when a toolchain is missing.
set -u
src="$1"
for tool in ca65 ld65 dasm sdasgb sdasz80 makebin m68k-linux-gnu-as arm-none-eabi-as cc make sha1sum; do
  command -v "$tool" >/dev/null 2>&1 || { echo "skipped: $tool is not installed"; exit 77; }
done
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
if ! make -s -C "$src/tests/roms" OUT="$out" >"$out.log" 2>&1; then
  cat "$out.log"; rm -f "$out.log"; echo "FAIL: the ROM build failed"; exit 1
fi
rm -f "$out.log"
status=0
count=0
for f in "$src"/tests/roms/bin/*; do
  [ -f "$f" ] || continue
  count=$((count + 1))
  name=$(basename "$f")
  if ! cmp -s "$f" "$out/$name"; then echo "FAIL: $name differs from its rebuild"; status=1; fi
done
built=$(find "$out" -maxdepth 1 -type f | wc -l)
if [ "$built" -ne "$count" ]; then echo "FAIL: built $built images, $count committed"; status=1; fi
[ "$count" -eq 10 ] || { echo "FAIL: expected 10 committed images, found $count"; status=1; }
# The Atari 2600 feature ROMs (tests/roms/a26/features) live one folder down, in bin/a26.
a26count=0
for f in "$src"/tests/roms/bin/a26/*.a26; do
  [ -f "$f" ] || continue
  a26count=$((a26count + 1))
  name=$(basename "$f")
  if ! cmp -s "$f" "$out/a26/$name"; then echo "FAIL: a26/$name differs from its rebuild"; status=1; fi
done
a26built=$(find "$out/a26" -maxdepth 1 -type f -name '*.a26' 2>/dev/null | wc -l)
if [ "$a26built" -ne "$a26count" ] || [ "$a26count" -eq 0 ]; then
  echo "FAIL: built $a26built 2600 feature images, $a26count committed"; status=1
fi
count=$((count + a26count))
# The size-switching ROMs (tests/roms/{md,snes,pce}/modes) live in bin/md, bin/snes and bin/pce; the SMS/GG VDP
# feature ROMs (tests/roms/sms/tms, tests/roms/sms/features), the Codemasters-mapper ROM (tests/roms/sms/codemasters)
# and the Z80 exerciser (tests/roms/sms/z80ex) in bin/sms; the Genesis hardware programs (tests/roms/md/{dma,irq,z80,ym,sat,stop,m68k})
# in bin/md.
for name in md/modes.md md/vdp.md snes/modes.sfc pce/modes.pce sms/tms.sms sms/features.sms sms/codemasters.sms sms/z80ex.sms \
    md/dma.md md/irq.md md/z80.md md/ym.md md/sat.md md/stop.md md/m68k.md; do
  count=$((count + 1))
  if ! cmp -s "$src/tests/roms/bin/$name" "$out/$name"; then echo "FAIL: $name differs from its rebuild"; status=1; fi
done
if ! make -s -C "$src/games/starcatcher" OUT="$out/starcatcher" >"$out.log" 2>&1; then
  cat "$out.log"; rm -f "$out.log"; echo "FAIL: the StarCatcher build failed"; exit 1
fi
rm -f "$out.log"
for name in rom.nes rom.sha; do
  if ! cmp -s "$src/data/stable/StarCatcher-Nes/$name" "$out/starcatcher/$name"; then
    echo "FAIL: StarCatcher $name differs from its rebuild"; status=1
  fi
done
[ $status -eq 0 ] && echo "all $count test ROMs and StarCatcher rebuild byte-identical"
exit $status
