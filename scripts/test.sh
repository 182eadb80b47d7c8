#!/usr/bin/env bash
# The whole test suite, as CI runs it: type checks, ESLint, the SDK's build, unit and integration tests on a real
# PostgreSQL, then the Playwright browser tests against a freshly started platform.
# Steps that do not depend on each other overlap, since each leaves cores idle on its own: the three static checks
# run together, and the production build the browser tests start from is made while the vitest suite runs.
set -euo pipefail
cd "$(dirname "$0")/.."
logs="$(mktemp -d)"
trap 'rm -rf "$logs"' EXIT
# Each step's header also says how long the previous one took, so a slow run says where its time went.
step_started=$SECONDS
step() {
  [ -z "${step_name:-}" ] || printf -- '-- %s: %d s\n' "$step_name" "$((SECONDS - step_started))"
  step_name="$1" step_started=$SECONDS
  [ "$1" = "done" ] || printf '\n== %s\n' "$1"
}

# Runs each "name::command" at once; prints every log, then fails if any command failed.
together() {
  local pids=() names=() failed=0
  for job in "$@"; do
    names+=("${job%%::*}")
    bash -c "${job#*::}" >"$logs/${#names[@]}.log" 2>&1 &
    pids+=($!)
  done
  for index in "${!pids[@]}"; do
    if wait "${pids[$index]}"; then status=ok; else status=FAILED; failed=1; fi
    printf -- '-- %s: %s\n' "${names[$index]}" "$status"
    cat "$logs/$((index + 1)).log"
  done
  return "$failed"
}

step "typecheck, lint, SDK build (@chartkey/sdk, packages/sdk)"
together "typecheck::npx tsc --noEmit" "lint::npx eslint --max-warnings 0 ." "SDK build::npm run sdk:build --silent"

step "unit and integration tests (the production build for the browser tests is made meanwhile)"
build_pid=""
if ! npx tsx -e 'import { buildIsFresh } from "./lib/config/build-freshness"; process.exit(buildIsFresh() ? 0 : 1)'; then
  # CHARTKEY_BUILD_READY_FILE, when set, is created once the build is made: .ci/run's production install check
  # waits for it, to run beside the tests too.
  (npx next build >"$logs/build.log" 2>&1 && if [ -n "${CHARTKEY_BUILD_READY_FILE:-}" ]; then touch "$CHARTKEY_BUILD_READY_FILE"; fi) &
  build_pid=$!
elif [ -n "${CHARTKEY_BUILD_READY_FILE:-}" ]; then
  touch "$CHARTKEY_BUILD_READY_FILE"
fi
vitest_status=0
npx vitest run || vitest_status=$?
if [ -n "$build_pid" ]; then
  if ! wait "$build_pid"; then
    cat "$logs/build.log"
    echo "next build failed" >&2
    exit 1
  fi
  echo "production build: done"
fi
[ "$vitest_status" -eq 0 ] || exit "$vitest_status"

step "browser tests"; npx playwright test
step "done"
