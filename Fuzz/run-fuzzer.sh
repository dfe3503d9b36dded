#!/usr/bin/env bash
# Runs one fuzz target for a number of seconds on its seeds, growing
# Fuzz/corpus/<name> and writing crashes, hangs (timeouts) and memory
# exhaustion to Fuzz/crashes/; prints libFuzzer's final statistics.
# Usage: Fuzz/run-fuzzer.sh model|store|predicate|sql SECONDS [libFuzzer options…]
set -euo pipefail
cd "$(dirname "$0")"
name=$1 seconds=$2; shift 2
case $name in
    model) target=FuzzModelReader dict=dictionaries/model.dict ;;
    store) target=FuzzStoreOpen dict= ;;
    predicate) target=FuzzPredicateParser dict=dictionaries/predicate.dict ;;
    sql) target=FuzzPredicateSQL dict=dictionaries/predicate.dict ;;
    *) echo "unknown target $name: model, store, predicate or sql" >&2; exit 2 ;;
esac
[ -d "seeds/$name" ] || { echo "no seeds: run make-seeds.sh first" >&2; exit 1; }
mkdir -p "corpus/$name" crashes
# Leaks are not looked for (the Swift runtime keeps metadata for good): not
# by ASan, and not by libFuzzer, which would run again every input that ends
# with more allocations than frees; the Swift backtracer is off so that ASan
# and libFuzzer report crashes themselves.
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=0} SWIFT_BACKTRACE=enable=no
exec ".build/release/$target" "corpus/$name" "seeds/$name" ${dict:+-dict=$dict} \
    -max_total_time="$seconds" -timeout=10 -rss_limit_mb=4096 -artifact_prefix="crashes/$name-" \
    -detect_leaks=0 -print_final_stats=1 "$@"
