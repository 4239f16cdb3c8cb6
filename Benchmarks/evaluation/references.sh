# Sourced by the evaluation benchmarks, with ROOT set to the repository. Builds what they run in release and sets
# BIN (trust-insights, unless BIN already names a build) and REFERENCE_BIN (http-conformance-target, whose
# POST /numbers is our own side of the reference route), and defines how the two reference servers start.
if [ -z "${BIN:-}" ]; then
  (cd "$ROOT" && swift build -c release --product trust-insights >&2)
  BIN="$(cd "$ROOT" && swift build -c release --show-bin-path)/trust-insights"
fi
(cd "$ROOT" && swift build -c release --product http-conformance-target >&2)
REFERENCE_BIN="$(cd "$ROOT" && swift build -c release --show-bin-path)/http-conformance-target"

# Our /numbers route on a free port, its output in the file $1: sets REFERENCE (the pid) and REFERENCE_URL.
start_reference() {
  "$REFERENCE_BIN" --port 0 >"$1" 2>/dev/null &
  REFERENCE=$!
  for _ in $(seq 100); do grep -q listening "$1" && break; sleep 0.2; done
  REFERENCE_URL="http://127.0.0.1:$(sed -n 's/.*listening on [^:]*:\([0-9]*\).*/\1/p' "$1")"
}

# Hummingbird's route from the build HUMMINGBIRD_BIN names, its output in the file $1: sets HUMMINGBIRD (the pid)
# and HUMMINGBIRD_URL. It takes a fixed port: the first free one from 18089.
start_hummingbird() {
  HUMMINGBIRD_PORT=18089
  while (exec 3<>"/dev/tcp/127.0.0.1/$HUMMINGBIRD_PORT") 2>/dev/null; do HUMMINGBIRD_PORT=$((HUMMINGBIRD_PORT + 1)); done
  "$HUMMINGBIRD_BIN" "$HUMMINGBIRD_PORT" >"$1" 2>&1 &
  HUMMINGBIRD=$!
  HUMMINGBIRD_URL="http://127.0.0.1:$HUMMINGBIRD_PORT"
  for _ in $(seq 100); do curl -s -o /dev/null "$HUMMINGBIRD_URL/" && break; sleep 0.2; done
}
