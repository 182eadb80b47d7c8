#!/usr/bin/env bash
# `npm run test:quick`: the checks a change needs before it is pushed, in minutes: `tsc --noEmit`, ESLint on the
# changed files, every unit test, and the integration tests in the folders the change touched (a file's own folder,
# not its subfolders: a change to lib/server/next-app.ts runs lib/server/*.int.test.ts). `npm test` runs everything.
#
# "The change" is everything that differs from a base, committed or not, plus new untracked files. The base is
# CHARTKEY_QUICK_BASE when set (any git revision), else the merge base with origin/main when the repository has
# that branch, else the commit before HEAD (so on a single-branch checkout: the last commit and whatever is
# uncommitted on top of it). Paths given as arguments (`npm run test:quick -- lib/consent/x.ts`) replace that list.
set -euo pipefail
cd "$(dirname "$0")/.."
logs="$(mktemp -d)"
trap 'rm -rf "$logs"' EXIT

if [ -n "${CHARTKEY_QUICK_BASE:-}" ]; then
  base="$CHARTKEY_QUICK_BASE"
elif git rev-parse -q --verify origin/main >/dev/null; then
  base="$(git merge-base HEAD origin/main)"
elif git rev-parse -q --verify HEAD~1 >/dev/null; then
  base="HEAD~1"
else
  base="$(git hash-object -t tree /dev/null)"
fi
if [ $# -gt 0 ]; then
  changed=("$@")
  echo "test:quick: ${#changed[@]} path(s) given"
else
  mapfile -t changed < <({ git diff --name-only "$base" --; git ls-files --others --exclude-standard; } | sort -u)
  echo "test:quick: ${#changed[@]} file(s) changed since $(git rev-parse --short "$base" 2>/dev/null || echo "$base")"
fi

lintable=()
declare -A folders=()
for file in "${changed[@]}"; do
  folders["$(dirname "$file")"]=1
  case "$file" in *.ts | *.tsx | *.mts | *.mjs | *.js) [ -f "$file" ] && lintable+=("$file") ;; esac
done
integration=()
while IFS= read -r file; do
  [ -n "${folders[$(dirname "$file")]:-}" ] && integration+=("$file")
done < <({ git ls-files '*.int.test.ts'; git ls-files --others --exclude-standard '*.int.test.ts'; } | sort -u)

# The type check and the lint run beside the tests: tsc holds one core, and the tests often wait on I/O.
started=$SECONDS
npx tsc --noEmit >"$logs/typecheck.log" 2>&1 &
typecheck_pid=$!
if [ ${#lintable[@]} -gt 0 ]; then
  npx eslint --max-warnings 0 --no-warn-ignored "${lintable[@]}" >"$logs/lint.log" 2>&1 &
  lint_pid=$!
else
  echo "no changed file to lint" >"$logs/lint.log"
  lint_pid=""
fi

# Loading every browser spec (without a browser or a server) catches a spec that no longer imports or compiles, such
# as one reaching a module Node's ESM loader refuses: 11 CPU seconds.
npx playwright test --list >"$logs/specs.log" 2>&1 &
specs_pid=$!

failed=0
printf '\n== unit tests (all)\n'
step=$SECONDS
npx vitest run --project unit || failed=1
printf -- '-- unit tests: %d s\n' "$((SECONDS - step))"

if [ ${#integration[@]} -gt 0 ]; then
  printf '\n== integration tests of the changed folders (%d file(s))\n' "${#integration[@]}"
  step=$SECONDS
  npx vitest run --project integration --project integration-own-process "${integration[@]}" || failed=1
  printf -- '-- integration tests: %d s\n' "$((SECONDS - step))"
else
  printf '\n== no integration test in the changed folders\n'
fi

printf '\n== typecheck\n'
if wait "$typecheck_pid"; then echo ok; else cat "$logs/typecheck.log"; failed=1; fi
printf '\n== browser specs load\n'
if wait "$specs_pid"; then tail -1 "$logs/specs.log"; else cat "$logs/specs.log"; failed=1; fi
printf '\n== lint of %d changed file(s)\n' "${#lintable[@]}"
if [ -z "$lint_pid" ] || wait "$lint_pid"; then cat "$logs/lint.log"; echo ok; else cat "$logs/lint.log"; failed=1; fi

printf -- '\n-- test:quick: %d s, %s\n' "$((SECONDS - started))" "$([ "$failed" -eq 0 ] && echo passed || echo FAILED)"
exit "$failed"
