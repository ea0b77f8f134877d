#!/bin/sh
# Best effort: a local PostgreSQL for the web app's tests. Prints a database URL on success, nothing otherwise
# (the PostgreSQL runs of the tests are then skipped). Installs Debian's postgresql when run as root with apt.
# Listens on 127.0.0.1 only.
set -u
log=/tmp/conquest-pg-setup.log
if ! ls /usr/lib/postgresql/*/bin/pg_ctl >/dev/null 2>&1; then
  [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1 || exit 0
  { timeout 300 apt-get update -qq && DEBIAN_FRONTEND=noninteractive timeout 600 apt-get install -y -qq postgresql; } >>"$log" 2>&1 || exit 0
fi
command -v pg_lsclusters >/dev/null 2>&1 || exit 0
ver=$(pg_lsclusters -h 2>/dev/null | awk 'NR==1 {print $1}')
cluster=$(pg_lsclusters -h 2>/dev/null | awk 'NR==1 {print $2}')
port=$(pg_lsclusters -h 2>/dev/null | awk 'NR==1 {print $3}')
[ -n "$ver" ] || exit 0
pg_ctlcluster "$ver" "$cluster" start >>"$log" 2>&1 || true
i=0
until su postgres -c "psql -p $port -tAc 'select 1'" >/dev/null 2>&1; do
  i=$((i + 1)); [ $i -gt 20 ] && exit 0; sleep 1
done
su postgres -c "psql -p $port -q -c \"ALTER USER postgres PASSWORD 'conquest-tests'\"" >>"$log" 2>&1 || exit 0
su postgres -c "psql -p $port -tAc \"SELECT 1 FROM pg_database WHERE datname='conquest_test'\"" | grep -q 1 || \
  su postgres -c "createdb -p $port conquest_test" >>"$log" 2>&1 || exit 0
echo "postgresql://postgres:conquest-tests@127.0.0.1:$port/conquest_test"
