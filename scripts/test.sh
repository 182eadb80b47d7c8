#!/usr/bin/env bash
# The whole test suite, as CI runs it: type checks, ESLint, the SDK's build, unit and integration tests on a real PostgreSQL,
# then the Playwright browser tests against a freshly started platform.
set -euo pipefail
cd "$(dirname "$0")/.."
step() { printf '\n== %s\n' "$1"; }
step "typecheck"; npx tsc --noEmit
step "lint"; npx eslint --max-warnings 0 .
step "SDK build (@chartkey/sdk, packages/sdk)"; npm run sdk:build --silent
step "unit and integration tests"; npx vitest run
step "browser tests"; npx playwright test
