#!/usr/bin/env bash
# Proves the platform runs without its dev dependencies: the checkout and its build outputs are copied to a temporary
# folder, installed there with `npm ci --omit=dev`, and `npm start` is started on a fresh data folder; /api/v1/health
# and the landing page must answer, then the server is stopped. A runtime import of a dev dependency fails here.
#
# A production deploy builds with the full install (`next build` needs TypeScript and Tailwind) and ships the build
# outputs, `.next` and the generated Prisma client, with the source; this does the same. Copies keep file times, so
# `npm start` sees the build as fresh and does not try to rebuild (which would need the dev dependencies).
#
# The install needs no build, so CI makes it while the tests run (it mostly waits on the disk):
#   check-production-install.sh --prepare DIR   copy the tracked files into DIR and install them (no build needed)
#   check-production-install.sh --in DIR        add the build outputs to a prepared DIR, start it and check it
# Without arguments it does both in a temporary folder.
set -euo pipefail
cd "$(dirname "$0")/.."
checkout=$PWD

mode=all
work=""
case "${1:-}" in
  --prepare) mode=prepare work="$2" ;;
  --in) mode=check work="$2" ;;
  "") ;;
  *) echo "usage: $0 [--prepare DIR | --in DIR]" >&2; exit 2 ;;
esac
[ -n "$work" ] || work=$(mktemp -d "${TMPDIR:-/tmp}/ck-omit-dev-XXXXXX")
app="$work/app"
server_pid=""
cleanup() {
  if [ -n "$server_pid" ]; then
    kill -KILL -- "-$server_pid" 2>/dev/null || true
    wait "$server_pid" 2>/dev/null || true
  fi
  [ "$mode" = prepare ] || rm -rf "$work"
}
trap cleanup EXIT

prepare() {
  mkdir -p "$app"
  # The embedded PostgreSQL runs as its own user when we are root, so it must reach its binaries under this folder.
  chmod 755 "$work"
  # The tracked files with their folders, each folder followed by its contents: tar gives a folder its time back once
  # it has left it, and a folder created now would be newer than the build (then stale).
  git ls-files -z | node -e '
  const files = require("node:fs").readFileSync(0, "utf8").split("\0").filter(Boolean);
  const folders = new Set(files.flatMap((file) => file.split("/").slice(1).map((_, i, rest) => file.split("/").slice(0, i + 1).join("/"))));
  const parts = (entry) => entry.split("/");
  const treeOrder = (a, b) => {
    const [x, y] = [parts(a), parts(b)];
    for (let i = 0; i < Math.min(x.length, y.length); i++) if (x[i] !== y[i]) return x[i] < y[i] ? -1 : 1;
    return x.length - y.length;
  };
  process.stdout.write([...folders, ...files].sort(treeOrder).map((entry) => `${entry}\0`).join(""));
' | tar -c --no-recursion --null -T - | tar -x -C "$app"
  (cd "$app" && npm ci --omit=dev --no-audit --no-fund --loglevel=error)
  if [ -e "$app/node_modules/vitest" ]; then
    echo "npm ci --omit=dev installed a dev dependency (vitest)" >&2
    exit 1
  fi
}

if [ "$mode" != check ]; then prepare; fi
if [ "$mode" = prepare ]; then
  echo "Production install (npm ci --omit=dev) prepared in $app."
  exit 0
fi
[ -d "$app/node_modules" ] || { echo "$app is not a prepared install (run --prepare first)" >&2; exit 1; }

if ! npx tsx -e 'import { buildIsFresh } from "@/lib/config"; process.exit(buildIsFresh() ? 0 : 1)'; then
  echo "Building (next build) for the production install check..."
  npx next build >/dev/null
fi
# The build outputs, with their times; the install's own Prisma client generation touched lib/db, which gets the
# checkout's time back so the copy's sources stay older than its build.
tar -c --exclude=.next/cache .next lib/db/generated | tar -x -C "$app"
touch -r "$checkout/lib/db" "$app/lib/db"

port=$(node -e 'const s = require("node:net").createServer().listen(0, "127.0.0.1", () => { console.log(s.address().port); s.close(); })')
log="$work/start.log"
# Its own process group, so stopping it reaches npm, tsx and the node process under them.
(cd "$app" && PORT=$port CHARTKEY_DATA_DIR="$work/data" exec setsid npm start >"$log" 2>&1) &
server_pid=$!

health="http://127.0.0.1:$port/api/v1/health"
for _ in $(seq 1 120); do
  if curl -sf -o /dev/null "$health"; then break; fi
  if ! kill -0 "$server_pid" 2>/dev/null; then break; fi
  sleep 1
done
if ! curl -sf -o /dev/null "$health" || ! curl -sf -o /dev/null "http://127.0.0.1:$port/"; then
  echo "The platform did not start from a production install (npm ci --omit=dev):" >&2
  cat "$log" >&2
  exit 1
fi
# npm exits on the signal before the platform has stopped; the process group is empty once everything has.
kill -TERM -- "-$server_pid"
for _ in $(seq 1 60); do
  if ! kill -0 -- "-$server_pid" 2>/dev/null; then break; fi
  sleep 0.5
done
wait "$server_pid" || true
server_pid=""
if ! grep -q "Chartkey stopped." "$log"; then
  echo "The platform did not stop cleanly:" >&2
  cat "$log" >&2
  exit 1
fi
echo "Production install (npm ci --omit=dev) started and answered /api/v1/health."
