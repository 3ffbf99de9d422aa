#!/usr/bin/env bash
# Fuzzes TetherJSON's parser, writer and decoder with libFuzzer for a number of seconds.
#
#   Scripts/fuzz-json.sh [seconds]     # default 60
#
# Builds Fuzz/FuzzJSON.swift together with every file in Sources/TetherJSON (one module, so the library is
# instrumented) with -sanitize=fuzzer,address, then runs it on Fuzz/corpus (and ../shared/JSONTestSuite when
# present) plus the inputs found so far.
# Output goes to $FUZZ_OUT (default: fuzz-out/, gitignored):
#   fuzz-out/bin/fuzz-json     the fuzzer; `fuzz-out/bin/fuzz-json FILE` replays one input
#   fuzz-out/corpus/           inputs found by earlier runs (kept between runs, grows the coverage)
#   fuzz-out/artifacts/        crash-*, leak-*, timeout-*, oom-* inputs
#   fuzz-out/fuzz.log          the fuzzer's log
# Exits 0 when the time ran out without findings, non-zero on a crash, leak, timeout or build failure.
# FUZZ_SEED=N makes the run repeatable (libFuzzer's -seed); CI sets it so a smoke run cannot land or fail by chance.
set -euo pipefail

seconds="${1:-60}"
if ! [[ "$seconds" =~ ^[0-9]+$ ]] || [ "$seconds" -lt 1 ]; then
    echo "usage: Scripts/fuzz-json.sh [seconds]" >&2
    exit 2
fi

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
out="${FUZZ_OUT:-$root/fuzz-out}"
mkdir -p "$out/bin" "$out/corpus" "$out/artifacts"

# Compile what exists: the decoder parts of the entry point only once the decoder is implemented.
flags=()
if grep -rqs "DecodingState" Sources/TetherJSON/Decoding; then
    flags+=(-D FUZZ_DECODER)
fi
if grep -rqsE "extension JSON: *(Codable|Decodable)|extension JSON: .*Decodable" Sources/TetherJSON; then
    flags+=(-D FUZZ_JSON_DECODABLE)
fi
echo "fuzz-json: building ${flags[*]:-(parser and writer only)}"

mapfile -t sources < <(find Sources/TetherJSON Sources/TetherSync -name '*.swift' | sort)
if ! swiftc -sanitize=fuzzer,address -parse-as-library -O -g -use-ld=lld \
    -swift-version 6 -enable-upcoming-feature ExistentialAny -enable-upcoming-feature InternalImportsByDefault \
    -module-name TetherJSONFuzz -module-cache-path "$out/module-cache" -I Sources/CThreadSanitizer -package-name Tether \
    "${flags[@]}" "${sources[@]}" Fuzz/FuzzJSON.swift -o "$out/bin/fuzz-json" >"$out/build.log" 2>&1; then
    cat "$out/build.log" >&2
    echo "fuzz-json: the build failed" >&2
    exit 1
fi
grep -E "warning:" "$out/build.log" || true

# A crash must end the process at once: Swift's backtracer would otherwise take its time (or hang).
export SWIFT_BACKTRACE=enable=no
# LeakSanitizer works for Swift code (a retain cycle is reported as a leak); a smaller quarantine keeps the
# fuzzer's memory flat (the default 256 MB fills up over a long run and looks like growth).
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1:quarantine_size_mb=64:symbolize=1}"

# Seeds: our small corpus, plus JSONTestSuite's parsing cases when ../shared is beside the repository (read only;
# new inputs go to the first folder).
seeds=(Fuzz/corpus)
if [ -d ../shared/JSONTestSuite/test_parsing ]; then
    seeds+=(../shared/JSONTestSuite/test_parsing)
fi

echo "fuzz-json: running for ${seconds}s; log in $out/fuzz.log"
status=0
"$out/bin/fuzz-json" "$out/corpus" "${seeds[@]}" \
    -dict=Fuzz/json.dict -max_total_time="$seconds" -timeout=5 -rss_limit_mb=2048 -max_len=8192 \
    ${FUZZ_SEED:+-seed="$FUZZ_SEED"} \
    -artifact_prefix="$out/artifacts/" -print_final_stats=1 >"$out/fuzz.log" 2>&1 || status=$?

grep -E "^#[0-9]+ +(INITED|DONE)|stat::number_of_executed_units|stat::average_exec_per_sec|stat::peak_rss_mb" \
    "$out/fuzz.log" || true
if [ "$status" -ne 0 ]; then
    echo "fuzz-json: FAILED (exit $status). The end of the log:" >&2
    tail -n 60 "$out/fuzz.log" >&2
    echo >&2
    grep -hE "^(artifact_prefix|Test unit written to)" "$out/fuzz.log" >&2 || true
    echo "fuzz-json: replay an input with: $out/bin/fuzz-json <file from $out/artifacts/>" >&2
    exit "$status"
fi
echo "fuzz-json: no findings in ${seconds}s (corpus: $(find "$out/corpus" -type f | wc -l) inputs)"
