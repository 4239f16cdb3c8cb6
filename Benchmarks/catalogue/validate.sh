#!/usr/bin/env bash
# Times CategoryCatalogue.validate (docs/FEATURES.md, "Validation cost"): builds the release products, then compiles
# main.swift against InsightCore's module and object files (the product takes no benchmark target), and runs it on
# config/features. Prints the median of 5 runs of 200,000 calls, in ns per call, for a valid and an invalid request.
#   Benchmarks/catalogue/validate.sh
set -euo pipefail
cd "$(dirname "$0")/../.."
swift build -c release >/dev/null
release=.build/release
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
maps=()
for map in "$release"/*.build/module.modulemap Sources/CCrypto/module.modulemap; do maps+=(-Xcc "-fmodule-map-file=$map"); done
objects=()
for target in InsightCore InsightModel InsightCrypto JSONStream DetachedThreads CLinux; do objects+=("$release/$target.build/"*.o); done
swiftc -O -module-name CatalogueBench -I "$release/Modules" "${maps[@]}" Benchmarks/catalogue/main.swift "${objects[@]}" -lcrypto -o "$out/validate"
"$out/validate" config/features
