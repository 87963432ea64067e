#!/usr/bin/env bash
# Start a PostgreSQL server for the store tests and print how to reach it.
#
#   pg_env=$(bash scripts/ci-postgres.sh) && eval "$pg_env"     # as .ci/run does
#   bash scripts/ci-postgres.sh --env-file FILE                 # also write the line to FILE
#
# Prints exactly one line on stdout (everything else goes to stderr):
#   export COIMBRA_TEST_POSTGRES='host=127.0.0.1 port=54329 dbname=coimbra_test user=coimbra password=...'
# which tests/store/conftest.py reads.
#
# Idempotent, for Debian (needs root, or sudo):
# - installs Debian's postgresql (apt-get update && apt-get install) unless a server is installed;
# - creates the cluster "coimbra" (pg_createcluster) listening on 127.0.0.1:$COIMBRA_PG_PORT
#   (default 54329) unless it exists, and starts it unless it runs;
# - outside CI (CI unset) an already running local cluster is reused instead (the "coimbra"
#   cluster first, else any online cluster pg_lsclusters lists);
# - creates (or updates) the login role and the database it owns, then waits until a password
#   login over TCP succeeds.
# Settings: COIMBRA_PG_PORT, COIMBRA_PG_USER (coimbra), COIMBRA_PG_PASSWORD (coimbra-test),
# COIMBRA_PG_DBNAME (coimbra_test). The server is for tests only: it listens on loopback and runs
# with fsync off.
set -euo pipefail
export LC_ALL=C.UTF-8

port=${COIMBRA_PG_PORT:-54329}
user=${COIMBRA_PG_USER:-coimbra}
password=${COIMBRA_PG_PASSWORD:-coimbra-test}
dbname=${COIMBRA_PG_DBNAME:-coimbra_test}
cluster=coimbra
env_file=
case "${1:-}" in
  --env-file) env_file=${2:?--env-file needs a path} ;;
  "") ;;
  *) echo "usage: $0 [--env-file FILE]" >&2; exit 2 ;;
esac

[[ $password =~ ^[A-Za-z0-9._-]+$ && $user =~ ^[a-z_][a-z0-9_]*$ && $dbname =~ ^[a-z_][a-z0-9_]*$ ]] ||
  { echo "ci-postgres: user and dbname: lower-case words; password: letters, digits, '.', '_', '-'" >&2; exit 2; }

started=$SECONDS
say() { echo "ci-postgres: $*" >&2; }
die() { say "error: $*"; exit 1; }
in_ci() { case "${CI:-}" in ""|0|false|False|no) return 1 ;; *) return 0 ;; esac; }

if [ "$(id -u)" -eq 0 ]; then
  as_root() { "$@"; }
elif command -v sudo >/dev/null; then
  as_root() { sudo -n "$@"; }
else
  die "run as root (or with sudo): it installs and starts PostgreSQL"
fi
as_postgres() { (cd / && as_root runuser -u postgres -- "$@"); }

# --- install ------------------------------------------------------------------------------------
server_installed() {
  command -v pg_createcluster >/dev/null && command -v pg_lsclusters >/dev/null &&
    compgen -G "/usr/lib/postgresql/*/bin/postgres" >/dev/null
}
if ! server_installed; then
  say "installing PostgreSQL from Debian"
  as_root env DEBIAN_FRONTEND=noninteractive apt-get update -qq >&2
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends postgresql >&2
  server_installed || die "postgresql installed, but no server binary found"
  say "installed in $((SECONDS - started)) s"
fi
# The newest installed major version.
version=$(ls -d /usr/lib/postgresql/*/bin/postgres | cut -d/ -f5 | sort -V | tail -n 1)

# --- choose or create the cluster ---------------------------------------------------------------
# pg_lsclusters -h: version cluster port status owner datadir logfile
online_clusters() { pg_lsclusters -h | awk '$4 ~ /^online/ {print $1, $2, $3}'; }
reuse=
if ! in_ci; then
  reuse=$(online_clusters | awk -v c="$cluster" '$2 == c' | head -n 1)
  [ -n "$reuse" ] || reuse=$(online_clusters | head -n 1)
fi
if [ -n "$reuse" ]; then
  read -r version cluster port <<<"$reuse"
  say "reusing the running cluster $version/$cluster on port $port"
else
  existing=$(pg_lsclusters -h | awk -v c="$cluster" '$2 == c {print $1, $3}' | sort -V | tail -n 1)
  if [ -n "$existing" ]; then
    read -r version port <<<"$existing"
  else
    if (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then
      die "port $port is taken by another program; set COIMBRA_PG_PORT to a free port"
    fi
    say "creating cluster $version/$cluster on 127.0.0.1:$port"
    as_root pg_createcluster "$version" "$cluster" --port "$port" --locale C.UTF-8 --start-conf manual \
      -- --auth-local=peer --auth-host=scram-sha-256 >&2
  fi
  # Loopback only; durability is not what the tests are about. Written on every run, into the
  # conf.d directory that Debian's postgresql.conf includes.
  printf '%s\n' "# written by coimbra's scripts/ci-postgres.sh" "listen_addresses = '127.0.0.1'" \
    "fsync = off" "synchronous_commit = off" "full_page_writes = off" |
    as_root tee "/etc/postgresql/$version/$cluster/conf.d/coimbra-tests.conf" >/dev/null
  if ! pg_lsclusters -h | awk -v v="$version" -v c="$cluster" '$1 == v && $2 == c && $4 ~ /^online/' | grep -q .; then
    say "starting cluster $version/$cluster"
    as_root pg_ctlcluster "$version" "$cluster" start >&2 ||
      { tail -n 20 "/var/log/postgresql/postgresql-$version-$cluster.log" >&2 || true; die "the cluster did not start"; }
  fi
fi

# --- wait, then the role and the database -------------------------------------------------------
for _ in $(seq 120); do
  pg_isready -q -h /var/run/postgresql -p "$port" && break
  sleep 0.5
done
pg_isready -q -h /var/run/postgresql -p "$port" || die "cluster $version/$cluster does not accept connections"

as_postgres psql -X -q -v ON_ERROR_STOP=1 -h /var/run/postgresql -p "$port" -d postgres \
  -v user="$user" -v password="$password" -v dbname="$dbname" >&2 <<'SQL'
SELECT format('CREATE ROLE %I LOGIN', :'user') WHERE NOT EXISTS (SELECT FROM pg_roles WHERE rolname = :'user') \gexec
ALTER ROLE :"user" LOGIN PASSWORD :'password';
SELECT format('CREATE DATABASE %I OWNER %I', :'dbname', :'user')
  WHERE NOT EXISTS (SELECT FROM pg_database WHERE datname = :'dbname') \gexec
ALTER DATABASE :"dbname" OWNER TO :"user";
SQL

conninfo="host=127.0.0.1 port=$port dbname=$dbname user=$user password=$password"
for _ in $(seq 60); do
  PGCONNECT_TIMEOUT=5 psql -X -q -At "$conninfo" -c 'SELECT 1' >/dev/null 2>&1 && break
  sleep 0.5
done
PGCONNECT_TIMEOUT=5 psql -X -q -At "$conninfo" -c 'SELECT 1' >/dev/null ||
  die "cannot log in as $user over TCP on 127.0.0.1:$port (pg_hba.conf must allow scram-sha-256 or md5 from 127.0.0.1)"

line="export COIMBRA_TEST_POSTGRES='$conninfo'"
[ -z "$env_file" ] || printf '%s\n' "$line" >"$env_file"
say "PostgreSQL $version ready on 127.0.0.1:$port, database $dbname, in $((SECONDS - started)) s"
printf '%s\n' "$line"
