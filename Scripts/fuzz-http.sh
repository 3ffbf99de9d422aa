#!/usr/bin/env bash
# Fuzzes TetherHTTP1's request parser and response serializer with libFuzzer for a number of seconds.
#
#   Scripts/fuzz-http.sh [seconds]     # default 60
#
# Builds Fuzz/FuzzHTTP.swift together with every file in Sources/TetherHTTP1 (one module, so the library is
# instrumented) with -sanitize=fuzzer,address, then runs it on Fuzz/http-corpus plus the inputs found so far.
# Output goes to $FUZZ_OUT (default: fuzz-out-http/):
#   fuzz-out-http/bin/fuzz-http     the fuzzer; `fuzz-out-http/bin/fuzz-http FILE` replays one input
#   fuzz-out-http/corpus/           inputs found by earlier runs (kept between runs, grows the coverage)
#   fuzz-out-http/artifacts/        crash-*, leak-*, timeout-*, oom-* inputs
#   fuzz-out-http/fuzz.log          the fuzzer's log
# Exits 0 when the time ran out without findings, non-zero on a crash, leak, timeout or build failure.
# FUZZ_SEED=N makes the run repeatable (libFuzzer's -seed).
set -euo pipefail

seconds="${1:-60}"
if ! [[ "$seconds" =~ ^[0-9]+$ ]] || [ "$seconds" -lt 1 ]; then
    echo "usage: Scripts/fuzz-http.sh [seconds]" >&2
    exit 2
fi

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
out="${FUZZ_OUT:-$root/fuzz-out-http}"
mkdir -p "$out/bin" "$out/corpus" "$out/artifacts"

echo "fuzz-http: building"
mapfile -t sources < <(find Sources/TetherHTTP1 -name '*.swift' | sort)
if ! swiftc -sanitize=fuzzer,address -parse-as-library -O -g -use-ld=lld \
    -swift-version 6 -enable-upcoming-feature ExistentialAny -enable-upcoming-feature InternalImportsByDefault \
    -module-name TetherHTTP1Fuzz -module-cache-path "$out/module-cache" \
    "${sources[@]}" Fuzz/FuzzHTTP.swift -o "$out/bin/fuzz-http" >"$out/build.log" 2>&1; then
    cat "$out/build.log" >&2
    echo "fuzz-http: the build failed" >&2
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
" HTTP/1.1\x0d\x0a"
" HTTP/1.0\x0d\x0a"
"GET "
"POST "
"Host: a\x0d\x0a"
"Content-Length: "
"Transfer-Encoding: chunked\x0d\x0a"
"Transfer-Encoding: "
"Expect: 100-continue\x0d\x0a"
"Connection: close\x0d\x0a"
"Connection: keep-alive\x0d\x0a"
"0\x0d\x0a\x0d\x0a"
";ext=1"
": "
","
"chunked"
DICT

echo "fuzz-http: running for ${seconds}s; log in $out/fuzz.log"
status=0
"$out/bin/fuzz-http" "$out/corpus" Fuzz/http-corpus \
    -dict="$out/http.dict" -max_total_time="$seconds" -timeout=5 -rss_limit_mb=2048 -max_len=4096 \
    ${FUZZ_SEED:+-seed="$FUZZ_SEED"} \
    -artifact_prefix="$out/artifacts/" -print_final_stats=1 >"$out/fuzz.log" 2>&1 || status=$?

grep -E "^#[0-9]+ +(INITED|DONE)|stat::number_of_executed_units|stat::average_exec_per_sec|stat::peak_rss_mb" \
    "$out/fuzz.log" || true
if [ "$status" -ne 0 ]; then
    echo "fuzz-http: FAILED (exit $status). The end of the log:" >&2
    tail -n 60 "$out/fuzz.log" >&2
    echo >&2
    grep -hE "^(artifact_prefix|Test unit written to)" "$out/fuzz.log" >&2 || true
    echo "fuzz-http: replay an input with: $out/bin/fuzz-http <file from $out/artifacts/>" >&2
    exit "$status"
fi
echo "fuzz-http: no findings in ${seconds}s (corpus: $(find "$out/corpus" -type f | wc -l) inputs)"
