#!/usr/bin/env bash
# The documentation check, run by .ci/run before the tests (README's test command): every public
# symbol of the library, the code generator and the tools has a `///` comment
# (scripts/UndocumentedSymbols.swift lists those that don't), and the DocC catalog
# (Sources/OpenCoreData/OpenCoreDataCore.docc) builds without a warning.
#
# The symbol graphs are extracted here rather than with `swift package dump-symbol-graph`, which
# on Linux also tries the generated test modules and fails on them. `swift build` builds what
# `swift test` builds next (debug builds are testable), so the check adds about 40 s to CI.
set -euo pipefail
cd "$(dirname "$0")/.."
swift build
bin=$(swift build --show-bin-path)
graphs=.build/doc-symbol-graphs
rm -rf "$graphs" && mkdir -p "$graphs"
module_maps=()
while IFS= read -r map; do module_maps+=(-Xcc "-fmodule-map-file=$map"); done \
    < <(find .build/checkouts -name module.modulemap -path '*/Sources/*')
for module in OpenCoreDataCore OpenCoreDataCodegen OpenCoreDataTools; do
    swift-symbolgraph-extract -module-name "$module" -target "$(basename "$(dirname "$bin")")" \
        -I "$bin/Modules" -module-cache-path "$bin/ModuleCache" "${module_maps[@]}" \
        -minimum-access-level public -skip-synthesized-members -skip-inherited-docs -output-dir "$graphs"
done
swift scripts/UndocumentedSymbols.swift "$graphs"
swift package generate-documentation --target OpenCoreDataCore --warnings-as-errors
