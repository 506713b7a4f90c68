#!/bin/sh
# Runs ./b64 on every tests/cases/*.in and compares with the matching .out.
# Prints automake-style PASS:/FAIL:/SKIP: lines and a summary; exits 1 on any failure.
set -u
bin=${B64:-./b64}
pass=0 fail=0 skip=0
for input in tests/cases/*.in; do
  name=$(basename "$input" .in)
  want=tests/cases/$name.out
  args=$(cat "tests/cases/$name.args" 2>/dev/null || true)
  if [ ! -f "$want" ]; then
    echo "SKIP: $name (no expected output)"
    skip=$((skip + 1))
    continue
  fi
  # shellcheck disable=SC2086
  if "$bin" $args < "$input" > "tests/$name.got" 2> "tests/$name.err" && cmp -s "$want" "tests/$name.got"; then
    echo "PASS: $name"
    pass=$((pass + 1))
  else
    echo "FAIL: $name"
    diff -u "$want" "tests/$name.got" | sed 's/^/    /'
    [ -s "tests/$name.err" ] && sed 's/^/    stderr: /' "tests/$name.err"
    fail=$((fail + 1))
  fi
done
echo "============================================================================"
echo "Testsuite summary for b64 1.0.2"
echo "============================================================================"
echo "# TOTAL: $((pass + fail + skip))"
echo "# PASS:  $pass"
echo "# SKIP:  $skip"
echo "# XFAIL: 0"
echo "# FAIL:  $fail"
echo "# XPASS: 0"
echo "# ERROR: 0"
echo "============================================================================"
[ "$fail" -eq 0 ]
