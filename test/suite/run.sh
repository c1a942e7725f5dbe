#!/usr/bin/env bash
# npm test: the checks and the test files of the suite, on the machine's cores at once.
#
# - The checks (the typecheck, ESLint, Prettier and knip) run in the background at a lower priority: they
#   take what the tests leave of the cores, and each one's output is printed whole when it ends.
# - The build (npm run build, whose tsc typechecks the server as `npm run typecheck` does) runs beside the
#   first test files, at the tests' priority: only the files that need dist/ (the browser files, and the
#   few that start the built server) wait for it (test/e2e/build.ts reads CHIRP_SUITE_BUILD).
# - tap runs a few long-lived processes (the files of test/suite/shards/), three at a time, and each runs
#   many files one after another (test/suite/run-shard.ts). The processes of one kind take their files from
#   one queue, a temporary directory, so they share out what is left and end together. tap starts them in
#   the order of their names, which begin with that order: one of each long kind first (the browser files,
#   the node files, the PostgreSQL pass), then their second processes and the short kinds, so that no kind
#   is left to run alone at the end.
# Exits non-zero when a check, the build or a test failed.
set -uo pipefail
cd "$(dirname "$0")/../.."

work=$(mktemp -d "${TMPDIR:-/tmp}/chirp-suite-XXXXXX")
checks=()
cleanup() {
  # The checks still running when the run is stopped are this script's own children.
  for pid in "${checks[@]}"; do kill "$pid" 2>/dev/null; done
  rm -rf "$work"
}
trap cleanup EXIT
mkdir "$work/queue"
export CHIRP_SUITE_QUEUE=$work/queue
# Node keeps the bytecode of the modules it compiles here, for the next process that loads them: the
# shards, and the servers and commands the tests start.
export NODE_COMPILE_CACHE=${NODE_COMPILE_CACHE:-node_modules/.cache/node-compile}

# Runs a command with its output in a file of its own, then prints that output and whether it passed, so
# that what runs at once does not interleave.
check() {
  local name=$1
  shift
  local status=0
  "$@" >"$work/$name.log" 2>&1 || status=$?
  cat "$work/$name.log"
  if [ "$status" -eq 0 ]; then echo "$name: passed"; else echo "$name: FAILED (exit $status)"; fi
  return "$status"
}

# A check in the background, at a lower priority (nice holds for what it starts, too).
background() {
  check "$1" nice -n 10 "${@:2}" &
  checks+=("$!")
}
background typecheck npx tsc --noEmit
background eslint npx eslint --max-warnings=0 .
background prettier npx prettier --check .
background knip npx knip

status=0
export CHIRP_SUITE_BUILD=$work/build-status
{
  build_status=0
  check build npm run build || build_status=$?
  echo "$build_status" >"$work/build-status.tmp" && mv "$work/build-status.tmp" "$CHIRP_SUITE_BUILD"
} &
build=$!

tap --jobs=3 test/suite/shards/*.ts || status=1
wait "$build" || status=1
[ "$(cat "$CHIRP_SUITE_BUILD" 2>/dev/null)" = 0 ] || status=1

for pid in "${checks[@]}"; do wait "$pid" || status=1; done
checks=()
exit "$status"
