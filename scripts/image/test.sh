#!/usr/bin/env bash
# Builds the image (Containerfile) with podman on a Node 20 base made from Debian packages
# (build-base.sh; no registry image is pulled), runs it against a sandbox on loopback, checks
# /healthz, the healthcheck and a query, and stops both. CI runs it after the tests (.ci/run).
#   scripts/image/test.sh            BASE=<image> to use another base (default: localhost/sitegraph-base)
# Needs root, podman and runc (and debootstrap for the base): apt-get install debootstrap podman runc.
set -euo pipefail
cd "$(dirname "$0")/../.."

base="${BASE:-localhost/sitegraph-base}"
image="${IMAGE:-localhost/sitegraph:test}"
name="sitegraph-image-test-$$"

# This host refuses rlimit changes: no default ulimits for containers (CONTAINERS_CONF, when unset).
if [[ -z "${CONTAINERS_CONF:-}" ]]; then
  conf="$(mktemp "${TMPDIR:-/tmp}/sitegraph-containers.XXXXXX.conf")"
  printf '[containers]\ndefault_ulimits = []\n' >"$conf"
  export CONTAINERS_CONF="$conf"
fi
podman=(podman --runtime runc --cgroup-manager cgroupfs)

sandbox_pid=""
cleanup() {
  "${podman[@]}" rm -f "$name" >/dev/null 2>&1 || true
  [[ -n "$sandbox_pid" ]] && kill "$sandbox_pid" 2>/dev/null || true
  [[ -n "${conf:-}" ]] && rm -f "$conf"
  [[ -n "${sandbox_out:-}" ]] && rm -f "$sandbox_out"
  [[ -n "${podman_err:-}" ]] && rm -f "$podman_err"
}
trap cleanup EXIT

[[ "$base" == localhost/sitegraph-base ]] && scripts/image/build-base.sh "$base"

echo "== podman build ($image on $base)"
start=$SECONDS
# --format docker: OCI images have no HEALTHCHECK.
# A host behind a TLS-intercepting proxy (NODE_EXTRA_CA_CERTS, or BUILD_CA) lends the build its CA:
# mounted for the RUN steps only, never in a layer.
ca=(); build_ca="${BUILD_CA:-${NODE_EXTRA_CA_CERTS:-}}"
[[ -n "$build_ca" && -f "$build_ca" ]] && ca=(--volume "$build_ca:/run/build-ca.crt:ro" --build-arg NODE_EXTRA_CA_CERTS=/run/build-ca.crt)
"${podman[@]}" build --isolation chroot --format docker --build-arg "BASE=$base" "${ca[@]}" -t "$image" -f Containerfile . >/dev/null
echo "== built in $((SECONDS - start)) s: $("${podman[@]}" image inspect --format '{{.Size}} bytes, user {{.Config.User}}' "$image")"

free_port() { node -e 'const s=require("net").createServer().listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})'; }

echo "== sandbox on loopback"
sandbox_out="$(mktemp "${TMPDIR:-/tmp}/sitegraph-sandbox.XXXXXX.log")"
node --import tsx/esm packages/sandbox/src/cli.ts --host 127.0.0.1 --port "$(free_port)" >"$sandbox_out" 2>&1 &
sandbox_pid=$!
upstream=""
for _ in $(seq 100); do
  upstream="$(sed -n 's/^sandbox REST root: \(http[^ ]*\).*/\1/p' "$sandbox_out")"
  [[ -n "$upstream" ]] && break
  kill -0 "$sandbox_pid" 2>/dev/null || { cat "$sandbox_out"; exit 1; }
  sleep 0.3
done
[[ -n "$upstream" ]] || { echo "no sandbox banner"; cat "$sandbox_out"; exit 1; }
echo "   $upstream"

port="$(free_port)"
admin="$(free_port)"
echo "== podman run (host network, port $port)"
# With no systemd on the host, podman says at level "error" that it cannot set the healthcheck's
# timer (the healthcheck itself is run by hand below): its messages are shown only when it fails.
podman_err="$(mktemp "${TMPDIR:-/tmp}/sitegraph-podman.XXXXXX.log")"
"${podman[@]}" run -d --name "$name" --network host --read-only --health-interval disable \
  -e UPSTREAM_URL="$upstream" -e PORT="$port" -e ADMIN_PORT="$admin" -e LOG_LEVEL=warn \
  "$image" >/dev/null 2>"$podman_err" || { cat "$podman_err"; exit 1; }

ok=""
for _ in $(seq 60); do
  if curl -fsS "http://127.0.0.1:$port/healthz" >/dev/null 2>&1; then ok=1; break; fi
  [[ "$("${podman[@]}" inspect --format '{{.State.Running}}' "$name")" == true ]] || break
  sleep 0.5
done
if [[ -z "$ok" ]]; then
  echo "the gateway did not answer /healthz"; "${podman[@]}" logs "$name"; exit 1
fi
echo "   /healthz answered after $((SECONDS - start)) s since the build began"

echo "== healthcheck"
"${podman[@]}" healthcheck run "$name" && echo "   healthy"

echo "== query"
answer="$(curl -fsS "http://127.0.0.1:$port/graphql" -H 'content-type: application/json' \
  --data '{"query":"{ events(first: 2) { nodes { title } } }"}')"
echo "   $answer"
node -e 'const a = JSON.parse(process.argv[1]); if (a.errors || a.data?.events?.nodes?.length !== 2) process.exit(1)' "$answer"

echo "== runs as $("${podman[@]}" exec "$name" node -e 'console.log(process.getuid())') (not root)"
[[ "$("${podman[@]}" exec "$name" node -e 'console.log(process.getuid())')" != 0 ]]

echo "== stop"
"${podman[@]}" stop -t 20 "$name" >/dev/null 2>"$podman_err" || { cat "$podman_err"; exit 1; }
echo "image test passed"
