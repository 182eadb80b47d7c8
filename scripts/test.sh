#!/usr/bin/env bash
# The whole test suite, as CI runs it: type checks, ESLint, the SDK's build, unit and integration tests on a real
# PostgreSQL, and the Playwright browser tests against a freshly started platform.
# Steps that do not depend on each other overlap, since each leaves cores idle on its own: the production build (with
# its type check) runs beside ESLint and the SDK's build, then beside Vitest, and the browser tests start as soon as
# the build is made, beside Vitest.
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

# The production build the browser tests start from is made from the start, beside the static checks. Next.js's
# build type-checks the whole project (every file of tsconfig.json, as `tsc --noEmit` does), so when a build is
# made `tsc --noEmit` is not run a second time: a type error fails the build, and its log is printed.
build_needed=0
npx tsx -e 'import { buildIsFresh } from "./lib/config/build-freshness"; process.exit(buildIsFresh() ? 0 : 1)' || build_needed=1
build_done="$logs/build.status"
checks=("lint::npx eslint --max-warnings 0 ." "SDK build::npm run sdk:build --silent")
if [ "$build_needed" = 1 ]; then
  step "lint and SDK build, beside the production build (which type-checks the project)"
  # CHARTKEY_BUILD_READY_FILE, when set, is created once the build is made: .ci/run's production install check
  # waits for it, to run beside the tests too.
  (
    status=0
    npx next build >"$logs/build.log" 2>&1 || status=$?
    if [ "$status" = 0 ] && [ -n "${CHARTKEY_BUILD_READY_FILE:-}" ]; then touch "$CHARTKEY_BUILD_READY_FILE"; fi
    echo "$status" >"$build_done"
  ) &
  together "${checks[@]}"
else
  step "typecheck, lint, SDK build (@chartkey/sdk, packages/sdk); the production build is fresh"
  echo 0 >"$build_done"
  if [ -n "${CHARTKEY_BUILD_READY_FILE:-}" ]; then touch "$CHARTKEY_BUILD_READY_FILE"; fi
  together "typecheck::npx tsc --noEmit" "${checks[@]}"
fi

# Vitest and the browser tests run at once: each waits on PostgreSQL, HTTP, child processes and the browser much of
# the time, which left a core idle when they ran one after the other. The browser tests start once the build is
# made; their output is printed after Vitest's. CHARTKEY_TEST_SERIAL=1 runs them one after the other.
step "unit and integration tests, and the browser tests beside them once the build is made"
browser_tests() {
  until [ -e "$build_done" ]; do sleep 1; done
  if [ "$(cat "$build_done")" != 0 ]; then
    echo "next build failed (the browser tests did not run):"
    cat "$logs/build.log"
    return 1
  fi
  local started=$SECONDS
  npx playwright test && status=0 || status=$?
  printf -- '-- browser tests: %d s\n' "$((SECONDS - started))"
  return "$status"
}
vitest_status=0 browser_status=0
if [ "${CHARTKEY_TEST_SERIAL:-0}" = 1 ]; then
  npx vitest run || vitest_status=$?
  browser_tests || browser_status=$?
else
  browser_tests >"$logs/browser.log" 2>&1 &
  browser_pid=$!
  npx vitest run || vitest_status=$?
  printf -- '-- vitest: %d s\n' "$((SECONDS - step_started))"
  wait "$browser_pid" || browser_status=$?
  printf '\n== browser tests (ran beside Vitest)\n'
  cat "$logs/browser.log"
fi
[ "$vitest_status" -eq 0 ] || exit "$vitest_status"
[ "$browser_status" -eq 0 ] || exit "$browser_status"
step "done"
