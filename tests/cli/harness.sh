# Shared by the CLI test scripts (sourced): counters, checks, and running a command into $tmp/out and $tmp/err.
# The sourcing script sets $tmp first; it ends with `finish`.
pass=0
fail=0
check() { # name, condition result (0 = ok)
  if [ "$2" -eq 0 ]; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL: $1"; fi
}
expect_rc() { # name, expected rc, command...
  local name="$1" want="$2"; shift 2
  "$@" >"$tmp/out" 2>"$tmp/err"
  local rc=$?
  [ "$rc" -eq "$want" ]; check "$name (rc $rc, wanted $want)" $?
  if [ "$rc" -ne "$want" ]; then sed 's/^/  out: /' "$tmp/out"; sed 's/^/  err: /' "$tmp/err"; fi
}
one_line_err() { [ "$(wc -l <"$tmp/err")" -eq 1 ]; }
finish() {
  echo "$pass passed, $fail failed"
  [ "$fail" -eq 0 ]
}
