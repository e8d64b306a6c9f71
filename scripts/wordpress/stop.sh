#!/usr/bin/env bash
# Stops what scripts/wordpress/start.sh started (PHP's server, then MariaDB), by the process IDs it
# recorded in .wordpress/. Leaves .wordpress/ in place (logs); start.sh wipes it.
set -uo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
DIR="${SITEGRAPH_WP_DIR:-$(cd "$HERE/../.." && pwd)/.wordpress}"

stop() { # $1: pid file. Each server was started with setsid: it leads its own process group.
  local f="$DIR/$1" pid
  [ -f "$f" ] || return 0
  pid="$(cat "$f")"
  rm -f "$f"
  [[ "$pid" =~ ^[0-9]+$ ]] || return 0
  kill -0 "$pid" 2>/dev/null || return 0
  kill -TERM -- "-$pid" 2>/dev/null || kill -TERM "$pid" 2>/dev/null
  for _ in $(seq 1 100); do
    kill -0 "$pid" 2>/dev/null || return 0
    sleep 0.1
  done
  kill -KILL -- "-$pid" 2>/dev/null || kill -KILL "$pid" 2>/dev/null
}
stop php.pid
stop mariadb.pid
# The short socket folder start.sh made when the clone's own path was too long for a socket.
if [ -f "$DIR/sock-dir" ]; then
  sock_dir="$(cat "$DIR/sock-dir")"
  case "$sock_dir" in */sgwp.*) rm -rf -- "$sock_dir" ;; esac
  rm -f "$DIR/sock-dir"
fi
echo "[wordpress] stopped" >&2
