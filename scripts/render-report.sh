#!/usr/bin/env bash
# Renders the HTML report to PNG with headless Chromium (Debian: apt-get install -y chromium), and counts the charts
# the browser actually parsed. Exit status 3 when no Chromium is installed.
#
#   scripts/render-report.sh report.html report.png [WIDTH [HEIGHT]]
#
# Prints "rendered <png> (<bytes> bytes), <n> charts" on success.
set -euo pipefail
HTML=${1:?usage: $0 REPORT.html OUT.png [WIDTH [HEIGHT]]}
PNG=${2:?usage: $0 REPORT.html OUT.png [WIDTH [HEIGHT]]}
WIDTH=${3:-1000}
HEIGHT=${4:-2600}
BROWSER=${CHROMIUM:-$(command -v chromium || command -v chromium-browser || command -v google-chrome || true)}
if [ -z "$BROWSER" ]; then
  echo "render-report: Chromium not found (apt-get install -y chromium)" >&2
  exit 3
fi
URL="file://$(realpath "$HTML")"
PROFILE=$(mktemp -d)
trap 'rm -rf "$PROFILE"' EXIT
# --no-sandbox: CI runs as root. A private profile keeps runs independent; no network is needed (no external assets).
FLAGS=(--headless --no-sandbox --disable-gpu --hide-scrollbars --no-first-run --user-data-dir="$PROFILE"
       --disable-extensions --disable-background-networking --run-all-compositor-stages-before-draw)
rm -f "$PNG"
# Up to 3 minutes each: starting Chromium takes 30-90 s on a loaded 2-core CI host, and under ThreadSanitizer load 60 s
# was once not enough (13th session).
timeout 180 "$BROWSER" "${FLAGS[@]}" --window-size="$WIDTH,$HEIGHT" --screenshot="$PNG" "$URL" >/dev/null 2>&1 || true
if [ ! -s "$PNG" ] || [ "$(head -c 8 "$PNG" | od -An -tx1 | tr -d ' \n')" != "89504e470d0a1a0a" ]; then
  echo "render-report: Chromium wrote no PNG" >&2
  exit 1
fi
CHARTS=$(timeout 180 "$BROWSER" "${FLAGS[@]}" --dump-dom "$URL" 2>/dev/null | grep -o '<svg[^>]*class="chart"' | wc -l)
echo "rendered $PNG ($(stat -c %s "$PNG") bytes), $CHARTS charts"
