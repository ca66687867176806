#!/usr/bin/env bash
# MCP conformance of `hashline serve`'s /mcp (docs/mcp.md "Conformance"):
# installs Node 22 and @modelcontextprotocol/conformance from npm into a cache
# folder (HASHLINE_CONFORMANCE_DIR, default $TMPDIR/hashline-conformance),
# starts `serve`'s app on a throwaway root (scripts/conformance_server.ts:
# the default tools plus the suite's three diagnostic tools, added through
# `extraTools`) and runs each scenario against it.
# Exit 0 when every check of every scenario passes, 1 when one fails, 3 when
# the packages cannot be installed.
set -euo pipefail
cd "$(dirname "$0")/.."
[ -t 1 ] || export NO_COLOR=1
VERSION=0.2.0-alpha.12
SCENARIOS=(
  server-stateless caching http-header-validation sep-2164-resource-not-found
  server-initialize server-session-lifecycle ping tools-list dns-rebinding-protection
  logging-set-level
)
cache="${HASHLINE_CONFORMANCE_DIR:-${TMPDIR:-/tmp}/hashline-conformance}"
suite="$cache/node_modules/@modelcontextprotocol/conformance/dist/index.js"
node22="$cache/node_modules/.bin/node"
if ! [ -f "$suite" ] || ! grep -q "\"version\": \"$VERSION\"" \
  "$cache/node_modules/@modelcontextprotocol/conformance/package.json" 2>/dev/null; then
  mkdir -p "$cache"
  npm install --silent --no-audit --no-fund --prefix "$cache" \
    node@22 "@modelcontextprotocol/conformance@$VERSION" >&2 ||
    { echo "conformance: cannot install node@22 and @modelcontextprotocol/conformance@$VERSION from npm" >&2; exit 3; }
fi
"$node22" --version >/dev/null 2>&1 ||
  { echo "conformance: the node@22 package gave no working node binary at $node22" >&2; exit 3; }

root="$(mktemp -d)"
out="$root.serve"
server=""
finish() {
  if [ -n "$server" ]; then kill "$server" 2>/dev/null || true; wait "$server" 2>/dev/null || true; fi
  rm -rf "$root" "$out"
}
trap finish EXIT
node_modules/.bin/deno run -A scripts/conformance_server.ts "$root" >"$out" 2>&1 &
server=$!
url=""
for _ in $(seq 1 300); do
  url="$(sed -n 's/.*"mcp":"\([^"]*\)".*/\1/p' "$out")"
  [ -n "$url" ] && break
  kill -0 "$server" 2>/dev/null || { cat "$out" >&2; exit 1; }
  sleep 0.1
done
[ -n "$url" ] || { echo "conformance: serve did not start" >&2; cat "$out" >&2; exit 1; }

failed=0
for scenario in "${SCENARIOS[@]}"; do
  if "$node22" "$suite" server --url "$url" --scenario "$scenario" \
    >"$root.log" 2>&1; then
    echo "ok   $scenario: $(grep -m1 'Passed:' "$root.log")"
  else
    failed=1
    echo "FAIL $scenario"
    cat "$root.log"
  fi
  rm -f "$root.log"
done
exit "$failed"
