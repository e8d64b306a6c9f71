#!/usr/bin/env bash
# Brings a WordPress release Debian ships in a newer suite than the machine's (The Events Calendar
# 6.15 needs WordPress 6.7+; bookworm has 6.1): downloads the package with a private apt state (its
# own sources list, lists and cache, so the system's apt is untouched), unpacks it with dpkg-deb
# into a cache folder kept between runs, and re-points the package's links into /usr/share/php and
# /usr/share/javascript (bookworm's wordpress package installs those libraries).
#   fetch-wordpress.sh <cache dir>   prints the WordPress tree (…/usr/share/wordpress)
set -euo pipefail
CACHE="$1"
SUITE="${SITEGRAPH_WP_SUITE:-trixie}"
VERSION="${SITEGRAPH_WP_DEB_VERSION:-6.8.12+dfsg1-0+deb13u1}"
DEST="$CACHE/wordpress-$VERSION"
TREE="$DEST/usr/share/wordpress"
log() { echo "[wordpress] $*" >&2; }
# Several sites start at once: one fetch at a time, the others then find the finished tree.
mkdir -p "$CACHE"
exec 9>"$CACHE/.fetch.lock"
flock 9
if [ -f "$TREE/wp-settings.php" ] && [ -f "$DEST/.complete" ]; then
  echo "$TREE"
  exit 0
fi
rm -rf "$DEST"
APT="$CACHE/apt-$SUITE"
mkdir -p "$APT/lists/partial" "$APT/cache/archives/partial" "$DEST"
cat >"$APT/sources.list" <<LIST
deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] http://deb.debian.org/debian $SUITE main
deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] http://deb.debian.org/debian-security $SUITE-security main
LIST
opts=(-q -o "Dir::Etc::SourceList=$APT/sources.list" -o Dir::Etc::SourceParts=/dev/null
  -o "Dir::State::Lists=$APT/lists" -o "Dir::Cache=$APT/cache" -o Debug::NoLocking=1
  -o APT::Sandbox::User=root)
log "downloading wordpress $VERSION from Debian $SUITE (private apt state in $APT)"
apt-get "${opts[@]}" update >"$APT/update.log" 2>&1 || { cat "$APT/update.log" >&2; exit 1; }
(cd "$APT" && rm -f wordpress_*.deb && apt-get "${opts[@]}" download "wordpress=$VERSION" >"$APT/download.log" 2>&1) \
  || { cat "$APT/download.log" >&2; exit 1; }
dpkg-deb -x "$APT"/wordpress_*.deb "$DEST"
# The package's relative links point into /usr/share/{php,javascript} beside it; after the move they
# must point at the system's copies, and the CA bundle at the system's.
while IFS= read -r link; do
  target="$(readlink "$link")"
  case "$target" in
    /*) continue ;;
  esac
  abs="$(cd "$(dirname "$link")" && realpath -m "$target")"
  rel="${abs#"$DEST"}"
  ln -sfn "$rel" "$link"
done < <(find "$DEST" -type l)
touch "$DEST/.complete"
echo "$TREE"
