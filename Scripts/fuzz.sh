#!/usr/bin/env bash
# Fuzzes one of Tether's parsers or encoders with libFuzzer and AddressSanitizer for a number of seconds.
#
#   Scripts/fuzz.sh <target> [seconds]      # default 60
#
# Targets (entry points in Fuzz/, each built together with its module's sources, so the library is instrumented):
#   json            TetherJSON's parser, writer and decoder (Fuzz/FuzzJSON.swift); seeds Fuzz/corpus and
#                   ../shared/JSONTestSuite/test_parsing when present
#   encoder         TetherJSONEncoder (Fuzz/FuzzEncoder.swift); seeds as json
#   http            TetherHTTP1's request parser and response serializer, the server side (Fuzz/FuzzHTTP.swift)
#   http-response   TetherHTTP1's response parser and request serializer, the client side (Fuzz/FuzzHTTPResponse.swift)
#
# Output goes to $FUZZ_OUT (default: fuzz-out-<target>/, gitignored):
#   bin/fuzz-<target>   the fuzzer; `fuzz-out-<target>/bin/fuzz-<target> FILE` replays one input
#   corpus/             inputs found by earlier runs (kept between runs, grows the coverage)
#   artifacts/          crash-*, leak-*, timeout-*, oom-* inputs
#   fuzz.log            the fuzzer's log
# Exits 0 when the time ran out without findings, 1 on a crash, leak, timeout or build failure, 2 on a wrong
# command line. FUZZ_SEED=N makes the run repeatable (libFuzzer's -seed); CI sets it so a smoke run cannot land or
# fail by chance.
set -euo pipefail

usage() {
    echo "usage: Scripts/fuzz.sh <json|encoder|http|http-response> [seconds]" >&2
    exit 2
}
target="${1:-}"
seconds="${2:-60}"
if ! [[ "$seconds" =~ ^[0-9]+$ ]] || [ "$seconds" -lt 1 ]; then usage; fi

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"

# What each target builds and runs.
seeds=()
case "$target" in
json | encoder)
    modules=(Sources/TetherJSON Sources/TetherSync)
    flags=(-I Sources/CThreadSanitizer -package-name Tether)
    dict=Fuzz/json.dict
    max_len=8192
    seeds=(Fuzz/corpus)
    if [ -d ../shared/JSONTestSuite/test_parsing ]; then seeds+=(../shared/JSONTestSuite/test_parsing); fi
    if [ "$target" = json ]; then
        entry=Fuzz/FuzzJSON.swift
        flags+=(-D FUZZ_DECODER -D FUZZ_JSON_DECODABLE)
    else
        entry=Fuzz/FuzzEncoder.swift
    fi
    ;;
http | http-response)
    modules=(Sources/TetherHTTP1 Sources/TetherSync)
    flags=(-I Sources/CThreadSanitizer -package-name Tether)
    dict="Fuzz/$target.dict"
    max_len=4096
    if [ "$target" = http ]; then
        entry=(Fuzz/FuzzHTTP.swift Fuzz/FuzzSplits.swift)
        seeds=(Fuzz/http-corpus)
    else
        entry=(Fuzz/FuzzHTTPResponse.swift Fuzz/FuzzSplits.swift)
        seeds=(Fuzz/http-response-corpus)
    fi
    ;;
*) usage ;;
esac

name="fuzz-$target"
out="${FUZZ_OUT:-$root/fuzz-out-$target}"
mkdir -p "$out/bin" "$out/corpus" "$out/artifacts"

echo "$name: building"
mapfile -t sources < <(find "${modules[@]}" -name '*.swift' | sort)
if ! swiftc -sanitize=fuzzer,address -parse-as-library -O -g -use-ld=lld \
    -swift-version 6 -enable-upcoming-feature ExistentialAny -enable-upcoming-feature InternalImportsByDefault \
    -module-name "Fuzz${target//-/}" -module-cache-path "$out/module-cache" ${flags[@]+"${flags[@]}"} \
    "${sources[@]}" "${entry[@]}" -o "$out/bin/$name" >"$out/build.log" 2>&1; then
    cat "$out/build.log" >&2
    echo "$name: the build failed" >&2
    exit 1
fi
grep -E "warning:" "$out/build.log" || true

# A crash must end the process at once: Swift's backtracer would otherwise take its time (or hang).
export SWIFT_BACKTRACE=enable=no
# LeakSanitizer works for Swift code (a retain cycle is reported as a leak); a smaller quarantine keeps the
# fuzzer's memory flat (the default 256 MB fills up over a long run and looks like growth).
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1:quarantine_size_mb=64:symbolize=1}"

echo "$name: running for ${seconds}s; log in $out/fuzz.log"
status=0
"$out/bin/$name" "$out/corpus" "${seeds[@]}" \
    -dict="$dict" -max_total_time="$seconds" -timeout=5 -rss_limit_mb=2048 -max_len="$max_len" \
    ${FUZZ_SEED:+-seed="$FUZZ_SEED"} \
    -artifact_prefix="$out/artifacts/" -print_final_stats=1 >"$out/fuzz.log" 2>&1 || status=$?

grep -E "^#[0-9]+ +(INITED|DONE)|stat::number_of_executed_units|stat::average_exec_per_sec|stat::peak_rss_mb" \
    "$out/fuzz.log" || true
if [ "$status" -ne 0 ]; then
    echo "$name: FAILED (exit $status). The end of the log:" >&2
    tail -n 60 "$out/fuzz.log" >&2
    echo >&2
    grep -hE "^(artifact_prefix|Test unit written to)" "$out/fuzz.log" >&2 || true
    echo "$name: replay an input with: $out/bin/$name <file from $out/artifacts/>" >&2
    exit 1
fi
echo "$name: no findings in ${seconds}s (corpus: $(find "$out/corpus" -type f | wc -l) inputs)"
