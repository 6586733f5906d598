#!/usr/bin/env bash
# npm run test:citus: the suite on a real Citus cluster, set up the way docs/operations/scale-out.md
# tells an operator to: a fresh database, `db migrate`, `db distribute`, then Kairos against the
# coordinator. The cluster is the local one of ../shared/tools/citus (CITUS_CLUSTER names another
# cluster.sh); CITUS_KEEP=1 leaves it running afterwards.
set -euo pipefail
cd "$(dirname "$0")/.."
cluster=$(realpath -m "${CITUS_CLUSTER:-../shared/tools/citus/cluster.sh}")
[ -x "$cluster" ] || { echo "no Citus cluster script at $cluster (set CITUS_CLUSTER)" >&2; exit 1; }

node scripts/ensure-deps.mjs
node scripts/ensure-built.mjs
# `start` starts the nodes, then fails to re-create extensions in a database a previous run
# distributed (workers refuse that DDL): the reset after it makes that database anew anyway.
"$cluster" start >/dev/null 2>&1 || true
"$cluster" reset >/dev/null
url=$("$cluster" url)
[ "${CITUS_KEEP:-0}" = 1 ] || trap '"$cluster" stop' EXIT

export DATABASE_URL=$url
node dist/src/cli/main.js db migrate >/dev/null
# A workspace with data before distributing, as after "start Kairos once": its rows move into the
# shards (test/citus/distributed-data.test.ts reads them back).
node dist/src/cli/main.js workspace create --slug before-distribute --name "Made before db distribute" --demo >/dev/null
node dist/src/cli/main.js db distribute >/dev/null
unset DATABASE_URL

# The upgrade test makes a database of its own with the same script.
CITUS_CLUSTER=$cluster TEST_CITUS_URL=$url npx vitest run --config test/citus/vitest.config.ts "$@"
