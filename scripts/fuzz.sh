#!/usr/bin/env bash
# Builds and runs one libFuzzer target (Tests/Fuzz/<target>/) under AddressSanitizer.
#
#   scripts/fuzz.sh <target> [seconds] [extra libFuzzer flags...]   # fuzz for `seconds` (default 60)
#   scripts/fuzz.sh <target> --run FILE...                           # run the given inputs once (regressions)
#   scripts/fuzz.sh --list                                           # the targets
#   scripts/fuzz.sh --build                                          # build every target, run nothing
#
# SwiftPM cannot link a libFuzzer executable (`swift build --sanitize` knows no `fuzzer`), so this compiles the
# library modules straight from Sources/ with swiftc, in dependency order, into .build-fuzz/ (never the default
# build's folder): each once, with coverage instrumentation, ASan and -enable-testing so a target can reach
# internal decoders with `@testable import`. A module is rebuilt only when a file of it or of a dependency changed.
# The seed corpus is Tests/Fuzz/corpus/<target>/ (read only); what libFuzzer adds goes to .build-fuzz/corpus/<target>/.
# A crash leaves its input in .build-fuzz/artifacts/<target>/ and exits non-zero: add that input to the seed
# corpus and a unit test for it once the bug is fixed.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="/opt/swift/usr/bin:$PATH"
root=$(pwd)
out=$root/.build-fuzz
modules=$out/modules

# Module graph: name, then its Swift module dependencies (must match Package.swift).
declare -A deps=(
    [JSONStream]=""
    [InsightCrypto]=""
    [InsightModel]="InsightCrypto"
    [InsightCore]="InsightModel InsightCrypto JSONStream"
    [DetachedThreads]=""
    [HTTPServer]="DetachedThreads"
    [InsightService]="HTTPServer InsightCore InsightCrypto JSONStream DetachedThreads"
)
# Target: the modules it imports (their dependencies come along).
declare -A targets=(
    [http-parser]="HTTPServer"
    [json-reader]="JSONStream"
    [evaluation-request]="InsightService"
    [consumption-request]="InsightService"
    [label-batch]="InsightService"
    [authorization-request]="InsightService"
    [xgboost-import]="InsightModel"
    [lightgbm-import]="InsightModel"
    [model-document]="InsightModel"
)
# Source folders a target shares with others, compiled into it.
declare -A support=(
    [evaluation-request]="Tests/Fuzz/Support/Wire"
    [consumption-request]="Tests/Fuzz/Support/Wire"
    [label-batch]="Tests/Fuzz/Support/Wire"
    [authorization-request]="Tests/Fuzz/Support/Wire"
    [xgboost-import]="Tests/Fuzz/Support/Model"
    [lightgbm-import]="Tests/Fuzz/Support/Model"
    [model-document]="Tests/Fuzz/Support/Model"
)
swift_flags=(-swift-version 6 -O -parse-as-library -sanitize=fuzzer,address -enable-testing -g
    -I "$modules" -I "$root/Sources/CCrypto" -I "$modules/CLinux")

closure() { # prints the modules $@ need, dependencies first, each once
    local seen=" " order=()
    visit() {
        local m=$1 d
        [[ $seen == *" $m "* ]] && return
        seen+="$m "
        for d in ${deps[$m]}; do visit "$d"; done
        order+=("$m")
    }
    local m
    for m in "$@"; do visit "$m"; done
    echo "${order[@]}"
}

newer_than() { # true when any path under $2.. is newer than file $1 (or $1 is missing)
    local stamp=$1; shift
    [[ -f $stamp ]] || return 0
    [[ -n $(find "$@" -newer "$stamp" -print -quit 2>/dev/null) ]]
}

build_clinux() {
    mkdir -p "$modules/CLinux"
    local object=$modules/CLinux.o
    newer_than "$object" Sources/CLinux || return 0
    printf 'module CLinux {\n    header "%s/Sources/CLinux/include/CLinux.h"\n    export *\n}\n' "$root" \
        >"$modules/CLinux/module.modulemap"
    clang -O1 -g -fsanitize=fuzzer-no-link,address -I Sources/CLinux/include -c Sources/CLinux/CLinux.c -o "$object"
}

build_module() {
    local name=$1 object=$modules/$1.o d
    local inputs=("Sources/$name")
    for d in ${deps[$name]}; do inputs+=("$modules/$d.o"); done
    [[ $name == HTTPServer ]] && inputs+=("$modules/CLinux.o")
    newer_than "$object" "${inputs[@]}" || return 0
    echo "fuzz: compiling $name"
    local sources
    mapfile -t sources < <(find "Sources/$name" -name '*.swift' | sort)
    if [[ $name == InsightService ]]; then
        # SwiftPM generates PackageResources for the embedded openapi.yaml; the fuzz targets never serve it.
        printf 'enum PackageResources {\n    static let openapi_yaml: [UInt8] = []\n}\n' >"$modules/InsightService+Resources.swift"
        sources+=("$modules/InsightService+Resources.swift")
    fi
    swiftc "${swift_flags[@]}" -module-name "$name" -wmo -c "${sources[@]}" \
        -emit-module -emit-module-path "$modules/$name.swiftmodule" -o "$object"
    # swiftc keeps an identical output's old timestamp; the stamp must say "built after its inputs".
    touch "$object"
}

build_target() {
    local target=$1 m
    [[ -n ${targets[$target]+x} ]] || { echo "fuzz: unknown target '$target' (try --list)" >&2; exit 64; }
    mkdir -p "$modules" "$out/bin"
    build_clinux
    local needed
    read -r -a needed <<<"$(closure ${targets[$target]})"
    local objects=()
    for m in "${needed[@]}"; do
        build_module "$m"
        objects+=("$modules/$m.o")
        [[ $m == HTTPServer ]] && objects+=("$modules/CLinux.o")
    done
    local binary=$out/bin/$target
    local folders=("Tests/Fuzz/$target" ${support[$target]:-})
    if newer_than "$binary" "${folders[@]}" "${objects[@]}"; then
        echo "fuzz: linking $target"
        local sources
        mapfile -t sources < <(find "${folders[@]}" -name '*.swift' | sort)
        # lld: gold warns about every ASan helper symbol it cannot export.
        swiftc "${swift_flags[@]}" -use-ld=lld -module-name "FuzzTarget" "${sources[@]}" "${objects[@]}" -lcrypto -o "$binary"
    fi
}

case "${1:-}" in
    "" | -h | --help)
        sed -n '2,7p' "$0"
        exit 64
        ;;
    --list)
        printf '%s\n' "${!targets[@]}" | sort
        exit 0
        ;;
    --build)
        for t in $(printf '%s\n' "${!targets[@]}" | sort); do build_target "$t"; done
        exit 0
        ;;
esac

target=$1
shift
build_target "$target"
binary=$out/bin/$target
# Swift reports an array index out of range or an overflow as a trap (SIGILL): libFuzzer counts it as a crash.
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=0:handle_sigill=1}

if [[ ${1:-} == --run ]]; then
    shift
    exec "$binary" "$@"
fi

seconds=${1:-60}
shift || true
mkdir -p "$out/corpus/$target" "$out/artifacts/$target"
seeds=Tests/Fuzz/corpus/$target
[[ -d $seeds ]] || { echo "fuzz: no seed corpus at $seeds" >&2; exit 1; }
dictionary=()
[[ -f Tests/Fuzz/dict/$target.dict ]] && dictionary=(-dict="Tests/Fuzz/dict/$target.dict")
# Inputs larger than max_len are cut by libFuzzer; the seeds are small, and the mutations stay near them.
exec "$binary" "$out/corpus/$target" "$seeds" "${dictionary[@]}" \
    -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -max_len="${FUZZ_MAX_LEN:-65536}" \
    -artifact_prefix="$out/artifacts/$target/" -print_final_stats=1 "$@"
