#!/usr/bin/env python3
"""Summarises a soak run: per minute, requests, errors, p50/p99 latency and the server's RSS; then the verdict.

    report.py LOG_DIR MINUTES WARMUP_MINUTES

LOG_DIR holds thread-*.log from mix.lua ("<wall ms> <latency us> <kind> <status>") and rss.log from soak.sh
("<wall ms> <VmRSS kB>"). Pass: no error (every answer 2xx), RSS at the end within 10% of RSS after warm-up, and
p99 stable: no minute after warm-up above twice the median of those minutes' p99.
"""
import glob
import os
import statistics
import sys


def percentile(values, fraction):
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def main():
    log_dir, minutes, warmup = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    requests = []
    for path in glob.glob(os.path.join(log_dir, "thread-*.log")):
        with open(path) as handle:
            for line in handle:
                parts = line.split()
                if len(parts) == 4:
                    requests.append((int(parts[0]), int(parts[1]), parts[2], int(parts[3])))
    rss = []
    with open(os.path.join(log_dir, "rss.log")) as handle:
        for line in handle:
            stamp, kilobytes = line.split()
            rss.append((int(stamp), int(kilobytes)))
    start = min(r[0] for r in requests)
    per_minute = [[] for _ in range(minutes)]
    for request in requests:
        minute = (request[0] - start) // 60000
        if 0 <= minute < minutes:
            per_minute[minute].append(request)

    def rss_at(ms):
        before = [kb for stamp, kb in rss if stamp <= ms]
        return before[-1] if before else rss[0][1]

    print("| minute | requests/s | evaluations | consumption | label batches | exports | errors | p50 ms | p99 ms | eval p99 ms | RSS MB |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    p99s = []
    errors_total = 0
    kinds_total = {}
    for minute, rows in enumerate(per_minute):
        latencies = [r[1] / 1000 for r in rows]
        evaluation = [r[1] / 1000 for r in rows if r[2] == "evaluation"]
        kinds = {}
        for r in rows:
            kinds[r[2]] = kinds.get(r[2], 0) + 1
            kinds_total[r[2]] = kinds_total.get(r[2], 0) + 1
        errors = sum(1 for r in rows if not 200 <= r[3] < 300)
        errors_total += errors
        p99 = percentile(latencies, 0.99)
        if minute >= warmup:
            p99s.append(p99)
        print("| %d | %.0f | %d | %d | %d | %d | %d | %.2f | %.2f | %.2f | %.1f |" % (
            minute + 1, len(rows) / 60, kinds.get("evaluation", 0), kinds.get("consumption", 0),
            kinds.get("labels", 0), kinds.get("export", 0), errors, percentile(latencies, 0.5), p99,
            percentile(evaluation, 0.99), rss_at(start + (minute + 1) * 60000) / 1024))
    statuses = {}
    for r in requests:
        if not 200 <= r[3] < 300:
            statuses[(r[2], r[3])] = statuses.get((r[2], r[3]), 0) + 1
    after_warmup = rss_at(start + warmup * 60000)
    end = rss_at(start + minutes * 60000)
    peak = max(kb for stamp, kb in rss if stamp >= start + warmup * 60000) if rss else end
    growth = (end - after_warmup) / after_warmup
    median_p99 = statistics.median(p99s) if p99s else float("nan")
    worst_p99 = max(p99s) if p99s else float("nan")
    print()
    print("requests: %d (%s); errors: %d %s" % (
        len(requests), ", ".join("%s %d" % item for item in sorted(kinds_total.items())), errors_total,
        "" if not statuses else "(" + ", ".join("%s %d: %d" % (k[0], k[1], v) for k, v in sorted(statuses.items())) + ")"))
    print("RSS: %.1f MB after %d min warm-up, %.1f MB at the end (%+.1f%%), peak %.1f MB" % (
        after_warmup / 1024, warmup, end / 1024, growth * 100, peak / 1024))
    print("p99 after warm-up: median %.2f ms, worst minute %.2f ms (%.2fx)" % (median_p99, worst_p99, worst_p99 / median_p99))
    checks = [("no errors", errors_total == 0), ("RSS growth under 10%", growth < 0.10),
              ("stable p99 (worst minute <= 2x median)", worst_p99 <= 2 * median_p99)]
    for name, ok in checks:
        print("%s: %s" % (name, "PASS" if ok else "FAIL"))
    sys.exit(0 if all(ok for _, ok in checks) else 1)


if __name__ == "__main__":
    main()
