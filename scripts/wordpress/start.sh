#!/usr/bin/env bash
# Starts a real WordPress for the test tier (npm run test:wordpress), all of it inside the clone:
#   .wordpress/db/        a private MariaDB datadir (mariadbd on 127.0.0.1, its own socket and port;
#                         not the system service)
#   .wordpress/site/      WordPress from Debian's package (/usr/share/wordpress): its PHP files copied,
#                         wp-admin/ wp-includes/ and the themes linked, our own wp-config.php, and the
#                         mu-plugin scripts/wordpress/sitegraph-test-site.php (application passwords over
#                         HTTP, no mail); the REST API keeps WordPress's own names (wp/v2)
#   .wordpress/site.json  REST root, users, the administrator's fresh application password, seeded IDs
#   .wordpress/*.pid      what stop.sh stops
# PHP's built-in server answers on 127.0.0.1. Each start is a fresh install (stop.sh runs first).
# SITEGRAPH_WP_SHAPE picks the site (docs/real-sites.md, "The real-calendar tier"):
#   core     WordPress 6.1 (bookworm's package) alone: the real-WordPress tier (default)
#   tec57    WordPress 6.1 + The Events Calendar 5.7.1 + Yoast SEO 19.3 + Duplicate Post 4.5
#   tec615   WordPress 6.8 (Debian trixie's package, scripts/wordpress/fetch-wordpress.sh) + The Events
#            Calendar 6.15.14 (legacy interface and calendar-core)
# The calendar shapes unpack the real plugins from SITEGRAPH_WP_PLUGINS (default ../shared/wp-plugins
# beside the clone; their SHA256SUMS are checked) and add the mu-plugin sitegraph-rest-names.php, which
# serves the REST API under the plugins' names or the contract's (the file wp-content/sitegraph-names).
# SITEGRAPH_WP_WPGRAPHQL=1 adds WPGraphQL 1.8.6, WPGraphQL Yoast SEO and ql-events (tec57: for bench:real, and on
# the real tier's tec57 site under the plugins' names for test/real/wpgraphql.test.ts); WPGraphQL answers at /graphql.
# Installs Debian's packages (wordpress mariadb-server php-cli php-mysql php-curl php-xml php-mbstring; the
# calendar and SEO plugins need the last three) when something is missing;
# `start.sh --packages-only` does only that (CI runs it before the tests).
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$HERE/../.." && pwd)"
DIR="${SITEGRAPH_WP_DIR:-$ROOT/.wordpress}"
SHAPE="${SITEGRAPH_WP_SHAPE:-core}"
PLUGINS_SRC="${SITEGRAPH_WP_PLUGINS:-$ROOT/../shared/wp-plugins}"
WP_SRC=/usr/share/wordpress
case "$SHAPE" in
  core) PLUGINS=() ;;
  tec57)
    PLUGINS=(the-events-calendar-5.7.1:the-events-calendar/the-events-calendar.php
      wordpress-seo-19.3:wordpress-seo/wp-seo.php duplicate-post-4.5:duplicate-post/duplicate-post.php)
    if [ "${SITEGRAPH_WP_WPGRAPHQL:-0}" = 1 ]; then
      PLUGINS+=(wp-graphql-1.8.6:wp-graphql/wp-graphql.php wp-graphql-yoast-seo-4.18.1:add-wpgraphql-seo/wp-graphql-yoast-seo.php
        ql-events-0.1.0:ql-events/ql-events.php)
    fi ;;
  tec615) PLUGINS=(the-events-calendar-6.15.14:the-events-calendar/the-events-calendar.php) ;;
  *) echo "[wordpress] error: SITEGRAPH_WP_SHAPE must be core, tec57 or tec615 (got '$SHAPE')" >&2; exit 2 ;;
esac
export PATH="$PATH:/usr/sbin:/sbin"

log() { echo "[wordpress] $*" >&2; }
die() { echo "[wordpress] error: $*" >&2; exit 1; }

# ---- packages
missing() {
  [ -f "$WP_SRC/wp-settings.php" ] || return 0
  command -v php >/dev/null 2>&1 || return 0
  php -r 'exit(extension_loaded("mysqli") && extension_loaded("curl") && extension_loaded("dom") && extension_loaded("mbstring") ? 0 : 1);' 2>/dev/null || return 0
  command -v mariadbd >/dev/null 2>&1 || command -v mysqld >/dev/null 2>&1 || return 0
  command -v mariadb-install-db >/dev/null 2>&1 || command -v mysql_install_db >/dev/null 2>&1 || return 0
  return 1
}
if missing; then
  [ "$(id -u)" = 0 ] || die "Debian packages missing; run as root or: apt-get install -y wordpress mariadb-server php-cli php-mysql php-curl php-xml php-mbstring"
  pkgs=(wordpress mariadb-server php-cli php-mysql php-curl php-xml php-mbstring)
  log "installing Debian packages (${pkgs[*]})"
  export DEBIAN_FRONTEND=noninteractive
  apt-get install -y -qq "${pkgs[@]}" >/dev/null </dev/null \
    || { apt-get update -qq </dev/null && apt-get install -y -qq "${pkgs[@]}" >/dev/null </dev/null; }
  missing && die "packages installed but WordPress, php-mysql or MariaDB is still missing"
fi
[ "${1:-}" = --packages-only ] && exit 0
if [ "$SHAPE" != core ]; then
  [ -f "$PLUGINS_SRC/SHA256SUMS" ] || die "no plugin tarballs at $PLUGINS_SRC (set SITEGRAPH_WP_PLUGINS)"
  (cd "$PLUGINS_SRC" && sha256sum --quiet -c SHA256SUMS) || die "$PLUGINS_SRC: SHA256SUMS does not match"
fi
if [ "$SHAPE" = tec615 ]; then
  WP_SRC="$("$HERE/fetch-wordpress.sh" "${SITEGRAPH_WP_CACHE:-$ROOT/.wordpress-cache}")"
fi
MARIADBD="$(command -v mariadbd || command -v mysqld)"
INSTALL_DB="$(command -v mariadb-install-db || command -v mysql_install_db)"
CLIENT="$(command -v mariadb || command -v mysql)"
ADMIN="$(command -v mariadb-admin || command -v mysqladmin)"

# ---- a clean slate; whatever this run starts is stopped again if it fails half-way
"$HERE/stop.sh" >/dev/null 2>&1 || true
started=0
trap '[ "$started" = 1 ] || "$HERE/stop.sh" >/dev/null 2>&1 || true' EXIT
rm -rf "$DIR"
mkdir -p "$DIR/db" "$DIR/run" "$DIR/tmp"
chmod 700 "$DIR"

free_port() { php -r '$s = stream_socket_server("tcp://127.0.0.1:0"); echo explode(":", stream_socket_get_name($s, false))[1];'; }
DB_PORT="$(free_port)"
WEB_PORT="$(free_port)"
while [ "$WEB_PORT" = "$DB_PORT" ]; do WEB_PORT="$(free_port)"; done
URL="http://127.0.0.1:$WEB_PORT"
SOCK="$DIR/run/mysqld.sock"
# A unix socket's path has room for about 100 bytes: a clone deep in the file system puts MariaDB's
# socket in a short folder of its own instead (recorded in sock-dir, removed by stop.sh).
if [ "${#SOCK}" -ge 100 ]; then
  SOCK_DIR="$(mktemp -d "${TMPDIR:-/tmp}/sgwp.XXXXXX")"
  echo "$SOCK_DIR" >"$DIR/sock-dir"
  SOCK="$SOCK_DIR/mysqld.sock"
  [ "${#SOCK}" -lt 100 ] || die "socket path too long for a unix socket: $SOCK (set TMPDIR or SITEGRAPH_WP_DIR to a shorter directory)"
fi
RUN_AS=()
[ "$(id -u)" = 0 ] && RUN_AS=(--user=root)

# ---- MariaDB
log "initialising MariaDB in $DIR/db"
# Temporary tables in a folder of this site's own, not the shared /tmp: sites initialised at the same moment
# (the real tier starts four) each had a bootstrap fail there ("Unknown table 'mysql.tmp_user_sys'").
"$INSTALL_DB" --no-defaults --datadir="$DIR/db" --tmpdir="$DIR/tmp" "${RUN_AS[@]}" --auth-root-authentication-method=socket \
  --auth-root-socket-user="$(id -un)" --skip-test-db >"$DIR/mariadb-install.log" 2>&1 \
  || { cat "$DIR/mariadb-install.log" >&2; die "mariadb-install-db failed"; }

setsid "$MARIADBD" --no-defaults --datadir="$DIR/db" --tmpdir="$DIR/tmp" "${RUN_AS[@]}" \
  --bind-address=127.0.0.1 --port="$DB_PORT" --socket="$SOCK" --pid-file="$DIR/run/mariadbd.pid" \
  --log-error="$DIR/mariadb.log" --skip-name-resolve --skip-log-bin \
  --innodb-buffer-pool-size=64M --innodb-log-file-size=16M --innodb-flush-log-at-trx-commit=0 --innodb-doublewrite=0 \
  --character-set-server=utf8mb4 --collation-server=utf8mb4_unicode_ci \
  </dev/null >/dev/null 2>&1 &
echo $! >"$DIR/mariadb.pid"
for _ in $(seq 1 150); do
  "$ADMIN" --no-defaults --socket="$SOCK" -u "$(id -un)" ping >/dev/null 2>&1 && break
  kill -0 "$(cat "$DIR/mariadb.pid")" 2>/dev/null || { cat "$DIR/mariadb.log" >&2 || true; die "mariadbd exited"; }
  sleep 0.2
done
"$ADMIN" --no-defaults --socket="$SOCK" -u "$(id -un)" ping >/dev/null 2>&1 || { cat "$DIR/mariadb.log" >&2; die "mariadbd did not start"; }

DB_PASS="$(php -r 'echo bin2hex(random_bytes(12));')"
"$CLIENT" --no-defaults --socket="$SOCK" -u "$(id -un)" <<SQL
CREATE DATABASE wordpress CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci;
CREATE USER 'wordpress'@'127.0.0.1' IDENTIFIED BY '$DB_PASS';
GRANT ALL PRIVILEGES ON wordpress.* TO 'wordpress'@'127.0.0.1';
SQL

# ---- the WordPress tree: our own wp-config.php (Debian's reads /etc/wordpress/config-<host>.php)
SITE="$DIR/site"
mkdir -p "$SITE/wp-content/mu-plugins" "$SITE/wp-content/plugins" "$SITE/wp-content/uploads"
for f in "$WP_SRC"/*.php; do
  [ "$(basename "$f")" = wp-config.php ] || cp "$f" "$SITE/"
done
ln -s "$WP_SRC/wp-admin" "$SITE/wp-admin"
ln -s "$WP_SRC/wp-includes" "$SITE/wp-includes"
ln -s "$WP_SRC/wp-content/themes" "$SITE/wp-content/themes"
ln -s "$HERE/sitegraph-test-site.php" "$SITE/wp-content/mu-plugins/sitegraph-test-site.php"
ACTIVATE=()
for p in "${PLUGINS[@]}"; do
  tar -xJf "$PLUGINS_SRC/${p%%:*}.tar.xz" -C "$SITE/wp-content/plugins"
  ACTIVATE+=("${p#*:}")
done
if [ "$SHAPE" != core ]; then
  ln -s "$HERE/sitegraph-rest-names.php" "$SITE/wp-content/mu-plugins/sitegraph-rest-names.php"
  echo plugin >"$SITE/wp-content/sitegraph-names"
fi

salt() { php -r 'echo bin2hex(random_bytes(32));'; }
cat >"$SITE/wp-config.php" <<PHP
<?php
// Written by scripts/wordpress/start.sh for the sitegraph test tier; not Debian's config.
define( 'DB_NAME', 'wordpress' );
define( 'DB_USER', 'wordpress' );
define( 'DB_PASSWORD', '$DB_PASS' );
define( 'DB_HOST', '127.0.0.1:$DB_PORT' );
define( 'DB_CHARSET', 'utf8mb4' );
define( 'DB_COLLATE', '' );
define( 'AUTH_KEY', '$(salt)' );
define( 'SECURE_AUTH_KEY', '$(salt)' );
define( 'LOGGED_IN_KEY', '$(salt)' );
define( 'NONCE_KEY', '$(salt)' );
define( 'AUTH_SALT', '$(salt)' );
define( 'SECURE_AUTH_SALT', '$(salt)' );
define( 'LOGGED_IN_SALT', '$(salt)' );
define( 'NONCE_SALT', '$(salt)' );
define( 'WP_HOME', '$URL' );
define( 'WP_SITEURL', '$URL' );
define( 'WP_ENVIRONMENT_TYPE', 'development' );
define( 'DISABLE_WP_CRON', true );
define( 'AUTOMATIC_UPDATER_DISABLED', true );
define( 'WP_AUTO_UPDATE_CORE', false );
define( 'WP_HTTP_BLOCK_EXTERNAL', true );
define( 'EMPTY_TRASH_DAYS', 30 );
define( 'WP_DEBUG', false );
\$table_prefix = 'wp_';
if ( ! defined( 'ABSPATH' ) ) {
	define( 'ABSPATH', __DIR__ . '/' );
}
require_once ABSPATH . 'wp-settings.php';
PHP

log "installing WordPress"
php -d error_reporting=E_ALL\&~E_DEPRECATED\&~E_NOTICE -d display_errors=stderr \
  "$HERE/install.php" "$SITE" "$URL" "$DIR/site.json" "${ACTIVATE[@]}" >&2

# ---- PHP's built-in server (several workers, so parallel upstream requests do not queue)
PHP_CLI_SERVER_WORKERS="${SITEGRAPH_WP_WORKERS:-4}" setsid php -d display_errors=0 -d log_errors=1 -d error_log="$DIR/php-errors.log" \
  -S "127.0.0.1:$WEB_PORT" -t "$SITE" "$HERE/router.php" </dev/null >"$DIR/php.log" 2>&1 &
echo $! >"$DIR/php.pid"
http_ok() { php -r 'exit(@file_get_contents($argv[1]) === false ? 1 : 0);' "$1"; }
for _ in $(seq 1 100); do
  http_ok "$URL/wp-json/" && break
  kill -0 "$(cat "$DIR/php.pid")" 2>/dev/null || { cat "$DIR/php.log" >&2 || true; die "php -S exited"; }
  sleep 0.1
done
http_ok "$URL/wp-json/wp/v2/posts" || { tail -20 "$DIR/php.log" >&2; die "WordPress does not answer $URL/wp-json/wp/v2/posts"; }
if [ "$SHAPE" != core ]; then
  log "seeding the calendar through REST"
  (cd "$ROOT" && node --import tsx/esm "$HERE/seed-calendar.ts" "$DIR/site.json") || die "seeding failed"
  # Seeded under the plugins' names; from here on the site serves the names asked for.
  echo "${SITEGRAPH_WP_NAMES:-plugin}" >"$SITE/wp-content/sitegraph-names"
  php -r '$j = json_decode(file_get_contents($argv[1]), true); $j["shape"] = $argv[2]; $j["names"] = $argv[3];
    file_put_contents($argv[1], json_encode($j, JSON_PRETTY_PRINT | JSON_UNESCAPED_SLASHES) . "\n");' \
    "$DIR/site.json" "$SHAPE" "${SITEGRAPH_WP_NAMES:-plugin}"
fi
started=1
log "WordPress ready at $URL/wp-json/ ($DIR/site.json)"
echo "$URL/wp-json/"
