#!/usr/bin/env bash
# A throwaway PostgreSQL server on this machine, for trying coimbra as a club would use it.
#
#   eval "$(bash scripts/dev-postgres.sh)"     # start it (or find it running) and export COIMBRA_DB
#   coimbra store init && coimbra store check  # then every coimbra command uses it
#   bash scripts/dev-postgres.sh --stop        # stop it and delete everything it stored
#
# Prints exactly one line on stdout (everything else goes to stderr):
#   export COIMBRA_DB='postgresql://coimbra@127.0.0.1:54330/coimbra'
#
# Needs the PostgreSQL server programs (Debian: apt-get install postgresql), not a running service,
# not Docker, not root: the server runs as you (as the "postgres" user when run as root, since
# PostgreSQL refuses to run as root), keeps its data in a temporary folder, listens on 127.0.0.1
# only, and lets anyone on this machine in without a password. It is for trying things out:
# a club's real server has passwords (see docs/club.md).
#
# Settings: COIMBRA_DEV_PG_PORT (54330), COIMBRA_DEV_PG_DIR (a folder under $TMPDIR or /tmp),
# PG_BIN (the folder of initdb and pg_ctl, found by itself on Debian and with pg_config).
set -euo pipefail
export LC_ALL=C.UTF-8

port=${COIMBRA_DEV_PG_PORT:-54330}
dir=${COIMBRA_DEV_PG_DIR:-${TMPDIR:-/tmp}/coimbra-dev-postgres-$port}
say() { echo "dev-postgres: $*" >&2; }
die() { say "error: $*"; exit 1; }

bin=${PG_BIN:-}
if [ -z "$bin" ]; then
  if command -v pg_config >/dev/null && [ -x "$(pg_config --bindir)/initdb" ]; then
    bin=$(pg_config --bindir)
  else
    bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1 || true)
  fi
fi
[ -n "$bin" ] && [ -x "$bin/initdb" ] && [ -x "$bin/pg_ctl" ] ||
  die "no PostgreSQL server programs found (Debian: apt-get install postgresql; or set PG_BIN)"

if [ "$(id -u)" -eq 0 ]; then
  id postgres >/dev/null 2>&1 || die "run as a normal user (PostgreSQL will not run as root, and there is no postgres user)"
  as_owner() { (cd / && runuser -u postgres -- "$@"); }
  owner=postgres
else
  as_owner() { "$@"; }
  owner=$(id -un)
fi
data=$dir/data

case "${1:-}" in
  --stop)
    if [ -d "$data" ]; then
      as_owner "$bin/pg_ctl" -D "$data" stop -m fast >&2 || true
      rm -rf "$dir"
      say "stopped; $dir deleted"
    else
      say "nothing to stop at $dir"
    fi
    exit 0 ;;
  "") ;;
  *) echo "usage: $0 [--stop]" >&2; exit 2 ;;
esac

if [ ! -d "$data" ]; then
  mkdir -p "$dir"
  chown "$owner" "$dir"
  say "creating a server in $data"
  as_owner "$bin/initdb" -D "$data" -U coimbra --auth=trust -E UTF8 --locale=C.UTF-8 >/dev/null
fi
if ! as_owner "$bin/pg_ctl" -D "$data" status >/dev/null 2>&1; then
  say "starting it on 127.0.0.1:$port"
  as_owner "$bin/pg_ctl" -D "$data" -l "$dir/server.log" -w \
    -o "-p $port -k $dir -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200" start >/dev/null ||
    { tail -n 20 "$dir/server.log" >&2 || true; die "the server did not start (is port $port taken? set COIMBRA_DEV_PG_PORT)"; }
fi
if ! as_owner "$bin/psql" -X -q -h "$dir" -p "$port" -U coimbra -d postgres -Atc \
    "SELECT 1 FROM pg_database WHERE datname = 'coimbra'" | grep -q 1; then
  as_owner "$bin/createdb" -h "$dir" -p "$port" -U coimbra coimbra
fi
say "ready: database coimbra on 127.0.0.1:$port (stop it with: bash $0 --stop)"
printf "export COIMBRA_DB='postgresql://coimbra@127.0.0.1:%s/coimbra'\n" "$port"
