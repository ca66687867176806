#!/usr/bin/env bash
# Starts a throwaway PostgreSQL cluster on a loopback port and prints its URL.
# Usage: eval "$(bash scripts/pg_temp.sh start)"  → exports HASHLINE_TEST_PG_URL, HASHLINE_PG_DIR
#        bash scripts/pg_temp.sh stop DIR
set -euo pipefail
cmd=${1:-start}
bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1 || true)
if [ -z "$bin" ] || [ ! -x "$bin/initdb" ]; then
  echo "echo 'PostgreSQL server binaries not found; PostgreSQL tests will be skipped' >&2"
  exit 0
fi
as_pg() {
  if [ "$(id -u)" = "0" ]; then runuser -u postgres -- "$@"; else "$@"; fi
}
if [ "$cmd" = "stop" ]; then
  dir=${2:?cluster dir}
  as_pg "$bin/pg_ctl" -D "$dir/data" -m immediate stop >/dev/null 2>&1 || true
  rm -rf "$dir"
  exit 0
fi
dir=$(mktemp -d /tmp/hashline-pg.XXXXXX)
chmod 755 "$dir"
[ "$(id -u)" = "0" ] && chown postgres "$dir"
port=$(node -e 'const s=require("net").createServer();s.listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})')
as_pg "$bin/initdb" -D "$dir/data" -U hashline --auth=trust -E UTF8 >"$dir/initdb.log" 2>&1
as_pg "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 \
  -o "-h 127.0.0.1 -p $port -k $dir -c fsync=off -c max_connections=200" start >/dev/null
as_pg "$bin/createdb" -h 127.0.0.1 -p "$port" -U hashline hashline_test
echo "export HASHLINE_TEST_PG_URL=postgres://hashline@127.0.0.1:$port/hashline_test"
echo "export HASHLINE_PG_DIR=$dir"
