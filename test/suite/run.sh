#!/usr/bin/env bash
# The test files of the suite, as npm test runs them: tap runs a few long-lived processes (the files of
# test/suite/shards/), two at a time, and each runs many files one after another (test/suite/run-shard.ts).
# The processes of one kind take their files from one queue, a temporary directory, so they end together.
# The browser files run afterwards in a process of their own. Exits non-zero when either run failed.
set -uo pipefail
cd "$(dirname "$0")/../.."

queue=$(mktemp -d "${TMPDIR:-/tmp}/chirp-suite-XXXXXX")
trap 'rm -rf "$queue"' EXIT
export CHIRP_SUITE_QUEUE=$queue
# Node keeps the bytecode of the modules it compiles here, for the next process that loads them: the
# shards, and the servers and commands the tests start.
export NODE_COMPILE_CACHE=${NODE_COMPILE_CACHE:-node_modules/.cache/node-compile}

tap --jobs=2 test/suite/shards/client-*.ts test/suite/shards/node-*.ts test/suite/shards/postgres-*.ts test/suite/shards/s3-*.ts
status=$?
tap --jobs=1 test/suite/shards/e2e.ts || status=1
exit "$status"
