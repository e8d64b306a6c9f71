#!/usr/bin/env bash
# A Node 20 base image from Debian packages, for hosts that cannot pull from a registry:
# debootstrap of trixie (whose nodejs is Node 20), then nodejs, npm and CA certificates with apt,
# imported into podman.
#   scripts/image/build-base.sh [image name, default localhost/sitegraph-base]
# Needs root (debootstrap, chroot, mount), debootstrap and podman (apt-get install debootstrap podman runc).
# About 5 minutes (downloads); the image is about 370 MB (Debian's npm brings many node-* packages).
# MIRROR overrides the Debian mirror. The image is left as it is when it exists (REBUILD=1: anew).
set -euo pipefail
image="${1:-localhost/sitegraph-base}"
mirror="${MIRROR:-http://deb.debian.org/debian}"

if [[ "${REBUILD:-0}" != 1 ]] && podman image exists "$image"; then
  echo "== $image exists (REBUILD=1 to build it anew)"
  exit 0
fi

root="$(mktemp -d "${TMPDIR:-/tmp}/sitegraph-base.XXXXXX")"
trap 'rm -rf "$root"' EXIT

echo "== debootstrap trixie (minbase)"
debootstrap --variant=minbase trixie "$root" "$mirror" >"$root.log" 2>&1 || {
  tail -30 "$root.log"
  exit 1
}
rm -f "$root.log"
# apt, not debootstrap, resolves npm's dependencies (alternatives and virtual packages included).
echo "== apt-get install nodejs npm ca-certificates (in the new root)"
mount -t proc proc "$root/proc"
trap 'umount "$root/proc" 2>/dev/null || true; rm -rf "$root"' EXIT
chroot "$root" /usr/bin/env DEBIAN_FRONTEND=noninteractive sh -c \
  'apt-get -o APT::Sandbox::User=root update -qq &&
   apt-get -o APT::Sandbox::User=root -o Dpkg::Use-Pty=0 install -y -qq --no-install-recommends nodejs npm ca-certificates >/dev/null'
umount "$root/proc"
# Slimmer: no package lists, caches or documentation in the image.
chroot "$root" apt-get clean
rm -rf "$root"/var/lib/apt/lists/* "$root"/usr/share/doc/* "$root"/usr/share/man/* "$root"/usr/share/info/*

echo "== node $(chroot "$root" node --version), npm $(chroot "$root" npm --version)"
tar -C "$root" -c . | podman import \
  --change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
  --change 'CMD ["node"]' \
  - "$image"
echo "== $image"
