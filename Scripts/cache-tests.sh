#!/bin/bash
# Runs the HTTP Working Group's cache-tests suite (https://github.com/http-tests/cache-tests, taken at b55b8bd)
# against TetherHTTP's cache, through the `tether-cache-tests` proxy: the suite's client -> the proxy (one
# HTTPClient with one HTTPCache in its default configuration, retries and redirects off) -> the suite's origin server.
#
#   Scripts/cache-tests.sh <suite folder> [results.json]
#
# Needs node (18 or later). The suite's source stays outside this repository; nothing here is copied from it.
# Prints the summary over the tests that apply to a private client cache (shared-cache-only, browser-only,
# CDN-only and interim-response tests left out, as Docs/HTTPCache.md says), then one line per test not passed.
# TETHER_CACHE_TEST_ID=<id> runs one test and dumps its exchange.
set -euo pipefail

suite=${1:?usage: Scripts/cache-tests.sh <suite folder> [results.json]}
suite=$(cd "$suite" && pwd)
results=${2:-${TMPDIR:-/tmp}/tether-cache-tests-results.json}
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"

swift build -c release --product tether-cache-tests >&2
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()'; }
origin_port=$(free_port)
proxy_port=$(free_port)
work=$(mktemp -d)
cleanup() {
    kill "${origin_pid:-}" "${proxy_pid:-}" 2>/dev/null || true
    rm -rf "$work"
}
trap cleanup EXIT

npm_config_protocol=http npm_config_port=$origin_port npm_config_pidfile=$work/origin.pid \
    node "$suite/test-engine/server/server.mjs" >"$work/origin.log" 2>&1 &
origin_pid=$!
.build/release/tether-cache-tests --port "$proxy_port" --origin "http://127.0.0.1:$origin_port" \
    --cache-directory "$work/cache" >"$work/proxy.log" 2>&1 &
proxy_pid=$!
for _ in $(seq 100); do
    if grep -q listening "$work/proxy.log" 2>/dev/null && grep -q Listening "$work/origin.log" 2>/dev/null; then break; fi
    sleep 0.1
done

npm_config_base="http://127.0.0.1:$proxy_port" npm_config_id="${TETHER_CACHE_TEST_ID:-}" npm_package_config_id="" \
    node --no-warnings "$suite/test-engine/cli.mjs" >"$results"
if [ -n "${TETHER_CACHE_TEST_ID:-}" ]; then
    cat "$results"
    exit 0
fi
node "$root/Scripts/cache-tests-summary.mjs" "$suite" "$results"
