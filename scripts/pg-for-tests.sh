#!/bin/sh
# Runs a command (the test suite) with CONQUEST_TEST_PG naming a PostgreSQL database for the web app's tests:
#   sh scripts/pg-for-tests.sh python -m pytest
# - CONQUEST_TEST_PG already set: that database is used, nothing is started.
# - Otherwise a private, throwaway cluster: initdb in a temporary folder, its own free port on 127.0.0.1 only,
#   trust authentication for the local test user; stopped and deleted when the command ends (or is
#   interrupted). The machine's own PostgreSQL clusters are never touched.
# - No PostgreSQL binaries: as root with apt, Debian's postgresql is installed (said on stderr; the cluster
#   that the package itself creates and starts is stopped again); otherwise the command runs without
#   CONQUEST_TEST_PG and the PostgreSQL runs of the tests are skipped.
# The command's exit code is this script's.
set -u
if [ $# -eq 0 ]; then
  echo "usage: $0 COMMAND [ARGS...]" >&2
  exit 2
fi
if [ -n "${CONQUEST_TEST_PG:-}" ]; then
  exec "$@"
fi
log="${TMPDIR:-/tmp}/conquest-pg-tests.log"
find_bindir() {
  ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1
}
bindir=$(find_bindir)
if [ -z "$bindir" ] && [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
  echo "pg-for-tests: installing Debian's postgresql for the web app's PostgreSQL tests (once; log: $log)" >&2
  before=$(pg_lsclusters -h 2>/dev/null | awk '{print $1 "/" $2}')
  { timeout 300 apt-get update -qq && DEBIAN_FRONTEND=noninteractive timeout 600 apt-get install -y -qq postgresql; } \
    >>"$log" 2>&1 || echo "pg-for-tests: could not install postgresql (see $log)" >&2
  # the package makes and starts a 'main' cluster of its own: stop what the install started
  pg_lsclusters -h 2>/dev/null | while read -r ver name _rest; do
    case " $before " in *" $ver/$name "*) ;; *) pg_ctlcluster "$ver" "$name" stop >>"$log" 2>&1 || true ;; esac
  done
  bindir=$(find_bindir)
fi
if [ -z "$bindir" ]; then
  echo "pg-for-tests: no PostgreSQL here: the web app's tests run on SQLite only" >&2
  exec "$@"
fi
py=$(command -v python3 || command -v python)
port=$("$py" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
dir=$(mktemp -d "${TMPDIR:-/tmp}/conquest-pg.XXXXXX")
as_user=""
if [ "$(id -u)" = 0 ]; then  # PostgreSQL refuses to run as root: its own system user runs the cluster
  chown postgres "$dir" && as_user="runuser -u postgres --"
fi
cleanup() {
  $as_user "$bindir/pg_ctl" -D "$dir/data" -m fast -w stop >>"$log" 2>&1
  rm -rf "$dir"
}
trap cleanup EXIT
trap 'exit 130' INT TERM
echo "pg-for-tests: a throwaway PostgreSQL on 127.0.0.1:$port in $dir (removed at the end)" >&2
if $as_user "$bindir/initdb" -D "$dir/data" -U postgres --auth=trust -E UTF8 >>"$log" 2>&1 &&
   $as_user "$bindir/pg_ctl" -D "$dir/data" -l "$dir/data/server.log" -w \
     -o "-p $port -k $dir -c listen_addresses=127.0.0.1" start >>"$log" 2>&1 &&
   $as_user "$bindir/createdb" -h 127.0.0.1 -p "$port" -U postgres conquest_test >>"$log" 2>&1; then
  CONQUEST_TEST_PG="postgresql://postgres@127.0.0.1:$port/conquest_test" "$@"
else
  echo "pg-for-tests: the throwaway PostgreSQL did not start (see $log): SQLite only" >&2
  "$@"
fi
