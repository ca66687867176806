#!/usr/bin/env bash
# The whole check: generated Wasm up to date, format, lint, import layers,
# types, doc examples, publish dry run, then the same test files under Deno, Bun and Node.
# Starts a throwaway PostgreSQL cluster when HASHLINE_TEST_PG_URL is unset and
# the server binaries are installed; when they are not, the PostgreSQL tests
# are skipped and the last line says so, except under CI (CI=true), where that
# is a failure.
set -euo pipefail
cd "$(dirname "$0")/.."
# A log written to a file or a pipe carries no colour codes.
[ -t 1 ] || export NO_COLOR=1
bin=node_modules/.bin
[ -x "$bin/deno" ] || { echo "Run 'npm ci' first (Deno, Bun and the toolchain come from npm)." >&2; exit 2; }
# Two packages the root install leaves out, so `npm ci` stays light
# (docs/dependencies.md): the Wasm compiler (check:wasm) and the edge runtimes
# (tests/edge/). Installed here on first use, and again when their lock changes.
for dir in assembly tests/edge/hosts; do
  if ! [ "$dir/node_modules/.package-lock.json" -nt "$dir/package-lock.json" ]; then
    npm ci --prefix "$dir" --no-audit --no-fund
  fi
done

step() { printf '\n== %s\n' "$*"; }

pg_skipped=""
finish() {
  if [ -n "${HASHLINE_PG_DIR:-}" ]; then bash scripts/pg_temp.sh stop "$HASHLINE_PG_DIR"; fi
  if [ -n "$pg_skipped" ]; then
    echo
    echo "PostgreSQL tests SKIPPED: $pg_skipped"
  fi
}
trap finish EXIT

if [ -z "${HASHLINE_TEST_PG_URL:-}" ]; then
  eval "$(bash scripts/pg_temp.sh start)"
  if [ -z "${HASHLINE_TEST_PG_URL:-}" ]; then
    pg_skipped="no PostgreSQL server binaries (initdb, pg_ctl) under /usr/lib/postgresql/*/bin and HASHLINE_TEST_PG_URL is unset; install them (apt-get install postgresql) or point HASHLINE_TEST_PG_URL at a database"
    if [ "${CI:-}" = "true" ]; then
      echo "CI must run the PostgreSQL tests, but there are $pg_skipped." >&2
      pg_skipped=""
      exit 1
    fi
    echo "PostgreSQL tests will be SKIPPED: $pg_skipped" >&2
  fi
fi
export HASHLINE_TEST_PG_URL="${HASHLINE_TEST_PG_URL:-}"

mapfile -t ts_files < <(git ls-files --cached --others --exclude-standard '*.ts' | grep -v -e '^node_modules/' -e '^assembly/' | while read -r f; do [ -f "$f" ] && echo "$f"; done)
mapfile -t test_files < <(printf '%s\n' "${ts_files[@]}" | grep -E '^tests/.*\.test\.ts$' | sort)

step "wasm module matches assembly/"
"$bin/deno" task -q check:wasm
step "deno fmt --check"
"$bin/deno" fmt --check
step "deno lint"
"$bin/deno" lint
step "import layers (no cycle, no import up the layers)"
"$bin/deno" run -A scripts/check_layers.ts
step "CLI bundle (scripts/build_cli.ts; bin/hashline runs it)"
"$bin/deno" run -A scripts/build_cli.ts
step "deno check"
"$bin/deno" check "${ts_files[@]}"
step "deno test --doc"
"$bin/deno" test -q --doc --allow-all mod.ts src/
step "deno doc --lint (every entry point of deno.json)"
mapfile -t entries < <(node -p "Object.values(require('./deno.json').exports).join('\n')")
doc_log=$(mktemp)
if ! NO_COLOR=1 "$bin/deno" doc --lint "${entries[@]}" >"$doc_log" 2>&1 || grep -qE '^error' "$doc_log"; then
  cat "$doc_log"
  rm -f "$doc_log"
  exit 1
fi
rm -f "$doc_log"
echo "deno doc --lint: ${#entries[@]} entry points documented"
step "deno publish --dry-run"
# A warning (an import() JSR cannot analyze, a slow type excluded) fails the
# run: the published package would differ from what the tests ran.
publish_log=$(mktemp)
if ! NO_COLOR=1 "$bin/deno" publish --dry-run --allow-dirty >"$publish_log" 2>&1 ||
  grep -qiE '^(warning|error)' "$publish_log"; then
  cat "$publish_log"
  rm -f "$publish_log"
  exit 1
fi
tail -n 3 "$publish_log"
rm -f "$publish_log"

# Each runtime runs even when one before it failed; the last lines count
# every runtime's tests (passed, failed, skipped) and the total.
status=0
logs=$(mktemp -d)
summary=()
count() { grep -a -E "$1" "$2" | tail -n 1 | grep -oE "$3" | grep -oE '[0-9]+' || echo 0; }

step "tests under Deno"
"$bin/deno" test -q --allow-all "${test_files[@]}" 2>&1 | tee "$logs/deno" || status=1
# Deno counts each suite as a test and each it() as a step.
d_line=$(grep -a -E '^(ok|FAILED) \| ' "$logs/deno" | tail -n 1)
deno_count() { # $1: passed|failed|ignored; the steps' count when Deno gives one
  local n
  n=$(sed -nE "s/.*[| ]([0-9]+) $1 \(([0-9]+) steps?\).*/\2/p" <<<"$d_line")
  [ -n "$n" ] || n=$(sed -nE "s/.*[| ]([0-9]+) $1.*/\1/p" <<<"$d_line")
  echo "${n:-0}"
}
d_pass=$(deno_count passed) d_fail=$(deno_count failed) d_skip=$(deno_count ignored)
summary+=("deno: ${d_pass:-0} passed, ${d_fail:-0} failed, ${d_skip:-0} skipped")

step "tests under Bun"
"$bin/bun" test --timeout 60000 "${test_files[@]/#/./}" 2>&1 | tee "$logs/bun" || status=1
summary+=("bun: $(count '^ *[0-9]+ pass$' "$logs/bun" '[0-9]+ pass') passed, $(count '^ *[0-9]+ fail$' "$logs/bun" '[0-9]+ fail') failed, $(count '^ *[0-9]+ skip$' "$logs/bun" '[0-9]+ skip') skipped")

step "tests under Node"
node --import tsx --test --test-reporter=spec "${test_files[@]}" 2>&1 | tee "$logs/node" || status=1
# A test cut short by a failed hook is "cancelled": it failed too.
n_fail=$(( $(count '^ℹ fail [0-9]+' "$logs/node" 'fail [0-9]+') + $(count '^ℹ cancelled [0-9]+' "$logs/node" 'cancelled [0-9]+') ))
summary+=("node: $(count '^ℹ pass [0-9]+' "$logs/node" 'pass [0-9]+') passed, ${n_fail} failed, $(count '^ℹ skipped [0-9]+' "$logs/node" 'skipped [0-9]+') skipped")
rm -rf "$logs"

echo
total_pass=0 total_fail=0 total_skip=0
for line in "${summary[@]}"; do
  echo "$line"
  read -r p f k <<<"$(grep -oE '[0-9]+' <<<"${line#*:}" | tr '\n' ' ')"
  total_pass=$((total_pass + p)) total_fail=$((total_fail + f)) total_skip=$((total_skip + k))
done
echo "tests: ${total_pass} passed, ${total_fail} failed, ${total_skip} skipped"
exit "$status"
