#!/usr/bin/env bash
# Fuzzes TetherHTTP1's response parser and request serializer (the client side) with libFuzzer for a number of seconds.
#
#   Scripts/fuzz-http-response.sh [seconds]     # default 60
#
# Builds Fuzz/FuzzHTTPResponse.swift together with every file in Sources/TetherHTTP1 (one module, so the library is
# instrumented) with -sanitize=fuzzer,address, then runs it on Fuzz/http-response-corpus plus the inputs found so far.
# Output goes to $FUZZ_OUT (default: fuzz-out-http-response/):
#   fuzz-out-http-response/bin/fuzz-http-response   the fuzzer; give it a FILE to replay one input
#   fuzz-out-http-response/corpus/           inputs found by earlier runs (kept between runs, grows the coverage)
#   fuzz-out-http-response/artifacts/        crash-*, leak-*, timeout-*, oom-* inputs
#   fuzz-out-http-response/fuzz.log          the fuzzer's log
# Exits 0 when the time ran out without findings, non-zero on a crash, leak, timeout or build failure.
# FUZZ_SEED=N makes the run repeatable (libFuzzer's -seed).
set -euo pipefail

seconds="${1:-60}"
if ! [[ "$seconds" =~ ^[0-9]+$ ]] || [ "$seconds" -lt 1 ]; then
    echo "usage: Scripts/fuzz-http-response.sh [seconds]" >&2
    exit 2
fi

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
out="${FUZZ_OUT:-$root/fuzz-out-http-response}"
mkdir -p "$out/bin" "$out/corpus" "$out/artifacts"

echo "fuzz-http-response: building"
mapfile -t sources < <(find Sources/TetherHTTP1 -name '*.swift' | sort)
if ! swiftc -sanitize=fuzzer,address -parse-as-library -O -g -use-ld=lld \
    -swift-version 6 -enable-upcoming-feature ExistentialAny -enable-upcoming-feature InternalImportsByDefault \
    -module-name TetherHTTP1ResponseFuzz -module-cache-path "$out/module-cache" \
    "${sources[@]}" Fuzz/FuzzHTTPResponse.swift -o "$out/bin/fuzz-http-response" >"$out/build.log" 2>&1; then
    cat "$out/build.log" >&2
    echo "fuzz-http-response: the build failed" >&2
    exit 1
fi
grep -E "warning:" "$out/build.log" || true

# A crash must end the process at once: Swift's backtracer would otherwise take its time (or hang).
export SWIFT_BACKTRACE=enable=no
# LeakSanitizer works for Swift code; a smaller quarantine keeps the fuzzer's memory flat over a long run.
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1:quarantine_size_mb=64:symbolize=1}"

# The dictionary: tokens the mutator splices in.
cat >"$out/http.dict" <<'DICT'
"\x0d\x0a"
"\x0d\x0a\x0d\x0a"
"HTTP/1.1 200 OK\x0d\x0a"
"HTTP/1.0 200 OK\x0d\x0a"
"HTTP/1.1 100 Continue\x0d\x0a\x0d\x0a"
"HTTP/1.1 204 No Content\x0d\x0a"
"HTTP/1.1 304 Not Modified\x0d\x0a"
"HTTP/1.1 101 Switching Protocols\x0d\x0a"
"Content-Length: "
"Transfer-Encoding: chunked\x0d\x0a"
"Transfer-Encoding: "
"Connection: close\x0d\x0a"
"Connection: keep-alive\x0d\x0a"
"0\x0d\x0a\x0d\x0a"
";ext=1"
": "
","
"chunked"
DICT

echo "fuzz-http-response: running for ${seconds}s; log in $out/fuzz.log"
status=0
"$out/bin/fuzz-http-response" "$out/corpus" Fuzz/http-response-corpus \
    -dict="$out/http.dict" -max_total_time="$seconds" -timeout=5 -rss_limit_mb=2048 -max_len=4096 \
    ${FUZZ_SEED:+-seed="$FUZZ_SEED"} \
    -artifact_prefix="$out/artifacts/" -print_final_stats=1 >"$out/fuzz.log" 2>&1 || status=$?

grep -E "^#[0-9]+ +(INITED|DONE)|stat::number_of_executed_units|stat::average_exec_per_sec|stat::peak_rss_mb" \
    "$out/fuzz.log" || true
if [ "$status" -ne 0 ]; then
    echo "fuzz-http-response: FAILED (exit $status). The end of the log:" >&2
    tail -n 60 "$out/fuzz.log" >&2
    echo >&2
    grep -hE "^(artifact_prefix|Test unit written to)" "$out/fuzz.log" >&2 || true
    echo "fuzz-http-response: replay an input with: $out/bin/fuzz-http-response <file from $out/artifacts/>" >&2
    exit "$status"
fi
echo "fuzz-http-response: no findings in ${seconds}s (corpus: $(find "$out/corpus" -type f | wc -l) inputs)"
