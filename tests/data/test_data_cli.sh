#!/usr/bin/env bash
# The integration-data commands of the CLI: games, states, scenarios, validate, import.
set -u
cli="$1"
src="$2"
tmp=$(mktemp -d)
snap=$(mktemp -d)
trap 'rm -rf "$tmp" "$snap"' EXIT
. "$src/tests/cli/harness.sh"

# A data root with two games. NES ROM: 16 header bytes + body; rom.sha holds the SHA-1 of the body.
data="$tmp/data"
mkdir -p "$data/stable" "$data/contrib" "$data/experimental" "$tmp/in/deep"
printf 'NES\032\001\001\000\000\000\000\000\000\000\000\000\000' >"$tmp/in/deep/star.nes"
printf 'body of the star catcher test rom' >>"$tmp/in/deep/star.nes"
sha=$(tail -c +17 "$tmp/in/deep/star.nes" | sha1sum | cut -d' ' -f1)
game="$data/stable/Star-Nes"
mkdir -p "$game"
echo "$sha" >"$game/rom.sha"
cat >"$game/data.json" <<'EOF'
{"info": {"score": {"address": 16, "type": ">u2"}, "lives": {"address": 18, "type": "|u1"}}}
EOF
cat >"$game/scenario.json" <<'EOF'
{"reward": {"variables": {"score": {"reward": 1}}}, "done": {"variables": {"lives": {"op": "zero"}}}}
EOF
echo '{"done": {"variables": {"lives": {"op": "zero"}}}}' >"$game/contest.json"
echo '{"default_state": "Level1"}' >"$game/metadata.json"
echo x >"$game/Level1.state"
echo x >"$game/Level2.state"
echo x >"$game/_private.state"
mkdir -p "$data/contrib/Other-Snes"
echo "0123456789abcdef0123456789abcdef01234567" >"$data/contrib/Other-Snes/rom.sha"

# Help on every command.
for c in games states scenarios validate import; do
  expect_rc "$c --help" 0 "$cli" "$c" --help
  grep -q "usage: retrogym $c" "$tmp/out"; check "$c help text" $?
done
expect_rc "top-level help" 0 "$cli" --help
grep -q "validate" "$tmp/out" && grep -q "import" "$tmp/out"; check "help lists the data commands" $?

# Listings.
expect_rc "games" 0 "$cli" games --data-path "$data"
[ "$(cat "$tmp/out")" = "Star-Nes" ]; check "games: stable only by default" $?
expect_rc "games all" 0 "$cli" games --data-path "$data" --integrations all
[ "$(tr '\n' ' ' <"$tmp/out")" = "Other-Snes Star-Nes " ]; check "games: all, sorted" $?
expect_rc "games contrib-only" 0 "$cli" games --data-path "$data" --integrations contrib-only
[ "$(cat "$tmp/out")" = "Other-Snes" ]; check "games: contrib only" $?
RETROGYM_DATA_PATH="$data" expect_rc "games from the environment" 0 "$cli" games
grep -qx "Star-Nes" "$tmp/out" && grep -qx "StarCatcher-Nes" "$tmp/out"
check "games: \$RETROGYM_DATA_PATH, then the default roots" $?
expect_rc "games custom path" 0 "$cli" games --data-path "$data" --custom-path contrib
[ "$(tr '\n' ' ' <"$tmp/out")" = "Other-Snes Star-Nes " ]; check "games: a custom path joins the default" $?
expect_rc "games bad integration" 1 "$cli" games --data-path "$data" --integrations nightly
one_line_err && grep -q '"nightly"' "$tmp/err"; check "bad integration: one line naming it" $?
expect_rc "games missing root" 1 "$cli" games --data-path "$tmp/nowhere"
one_line_err && grep -q "nowhere" "$tmp/err"; check "missing root: one line" $?
expect_rc "games stray argument" 1 "$cli" games Star-Nes
expect_rc "games option without value" 1 "$cli" games --data-path
expect_rc "states" 0 "$cli" states Star-Nes --data-path "$data"
[ "$(tr '\n' ' ' <"$tmp/out")" = "Level1 Level2 " ]; check "states: sorted, no _private" $?
expect_rc "scenarios" 0 "$cli" scenarios --data-path "$data" Star-Nes
[ "$(tr '\n' ' ' <"$tmp/out")" = "contest scenario " ]; check "scenarios: sorted, metadata/data excluded" $?
expect_rc "states without game" 1 "$cli" states --data-path "$data"
expect_rc "states unknown game" 1 "$cli" states Nobody-Nes --data-path "$data"
one_line_err && grep -q "Nobody-Nes" "$tmp/err"; check "unknown game: one line naming it" $?

# Validate: warnings do not fail; errors do.
expect_rc "validate game" 0 "$cli" validate Star-Nes --data-path "$data"
grep -q "contest.json: warning: missing reward" "$tmp/out"; check "validate: warning printed" $?
grep -q "1 game checked: 0 errors, 1 warning" "$tmp/out"; check "validate: summary" $?
expect_rc "validate folder" 0 "$cli" validate "$game/"
expect_rc "validate quiet" 0 "$cli" validate --quiet Star-Nes --data-path "$data"
! grep -q "warning: missing reward" "$tmp/out"; check "validate --quiet hides warnings" $?
expect_rc "validate all" 1 "$cli" validate --data-path "$data"
grep -q "Other-Snes: error: missing data.json" "$tmp/out"; check "validate all: finds the bare contrib game" $?
grep -q "2 games checked" "$tmp/out"; check "validate all: both games" $?
echo '{"default_state": "Gone"}' >"$game/metadata.json"
expect_rc "validate bad default state" 1 "$cli" validate Star-Nes --data-path "$data"
grep -q "metadata.json: error: invalid default state Gone" "$tmp/out"; check "validate: error printed" $?
echo '{"default_state": "Level1"}' >"$game/metadata.json"
expect_rc "validate unknown game" 1 "$cli" validate Nobody-Nes --data-path "$data"
grep -q "Nobody-Nes" "$tmp/err"; check "validate unknown game named" $?
expect_rc "validate bad option" 1 "$cli" validate --frob

# Import: a folder walk and a zip (when the zip tool is there); only the game folder changes.
find "$tmp" | sort >"$snap/before"
expect_rc "import" 0 "$cli" import "$tmp/in" --data-path "$data"
grep -q "^Importing Star-Nes$" "$tmp/out"; check "import: Importing line" $?
grep -q "^Imported 1 games$" "$tmp/out"; check "import: summary" $?
cmp -s "$tmp/in/deep/star.nes" "$game/rom.nes"; check "import: ROM written unchanged" $?
find "$tmp" | sort >"$snap/after"
[ "$(comm -13 "$snap/before" "$snap/after")" = "$game/rom.nes" ]; check "import: nothing else written" $?
expect_rc "validate with ROM" 0 "$cli" validate Star-Nes --data-path "$data"
! grep -q "sha mismatch" "$tmp/out"; check "validate: imported ROM matches rom.sha" $?
rm "$game/rom.nes"
printf 'junk' >"$tmp/in/bad.zip"
expect_rc "import with a bad zip" 0 "$cli" import "$tmp/in" --data-path "$data"
grep -q "warning: skipping .*bad.zip: not a valid zip archive" "$tmp/err"; check "import: bad zip warned" $?
grep -q "^Imported 1 games$" "$tmp/out"; check "import: goes on after a bad zip" $?
expect_rc "import quiet" 0 "$cli" import "$tmp/in" --data-path "$data" --quiet
[ "$(cat "$tmp/out")" = "Imported 1 games" ] && [ ! -s "$tmp/err" ]; check "import --quiet: summary only" $?
expect_rc "import nothing" 0 "$cli" import "$tmp/nowhere" --data-path "$data"
grep -q "^Imported 0 games$" "$tmp/out"; check "import: nothing found" $?
(cd "$tmp/in" && "$cli" import --data-path "$data" >"$tmp/out" 2>"$tmp/err")
grep -q "^Imported 1 games$" "$tmp/out"; check "import: current folder by default" $?
expect_rc "import --integrations refused" 1 "$cli" import "$tmp/in" --integrations all
expect_rc "import bad option" 1 "$cli" import --frob

# A damaged metadata.json is an error for play (not a silent power-on); none at all plays from power-on.
atari="$data/stable/Test-Atari2600"
mkdir -p "$atari"
cp "$src/tests/roms/bin/test.a26" "$atari/rom.a26"
sha1sum "$atari/rom.a26" | cut -d' ' -f1 >"$atari/rom.sha"
echo '{"info": {"byte": {"address": 128, "type": "|u1"}}}' >"$atari/data.json"
echo '{"reward": {"variables": {"byte": {"reward": 1}}}}' >"$atari/scenario.json"
expect_rc "play without metadata.json" 0 "$cli" play Test-Atari2600 --data-path "$data" --frames 10 --core atari2600
echo '{"default_state": ' >"$atari/metadata.json"
expect_rc "play with a damaged metadata.json" 1 "$cli" play Test-Atari2600 --data-path "$data" --frames 10 --core atari2600
one_line_err && grep -q "metadata.json" "$tmp/err"; check "play: damaged metadata.json named in one line" $?
echo '{"default_state": 5}' >"$atari/metadata.json"
expect_rc "play with a mistyped metadata.json" 1 "$cli" play Test-Atari2600 --data-path "$data" --frames 10 --core atari2600
grep -q "default_state must be a string" "$tmp/err"; check "play: mistyped default_state named" $?
expect_rc "play --state none ignores metadata.json" 0 "$cli" play Test-Atari2600 --data-path "$data" --frames 10 \
  --core atari2600 --state none
rm "$atari/metadata.json"

# A FIFO in place of an input file: an error at once, never a wait (the timeout would give 124).
mkfifo "$atari/fifo.json"
mv "$atari/data.json" "$atari/data.json.aside"
mkfifo "$atari/data.json"
expect_rc "validate with a FIFO data.json" 1 timeout 20 "$cli" validate Test-Atari2600 --data-path "$data"
grep -q "not a regular file" "$tmp/out" "$tmp/err"; check "validate: the FIFO named as not a regular file" $?
expect_rc "play with a FIFO data.json" 1 timeout 20 "$cli" play Test-Atari2600 --data-path "$data" --frames 10 \
  --core atari2600
grep -q "not a regular file" "$tmp/err"; check "play: the FIFO named as not a regular file" $?
rm "$atari/data.json" "$atari/fifo.json"
mv "$atari/data.json.aside" "$atari/data.json"

finish
