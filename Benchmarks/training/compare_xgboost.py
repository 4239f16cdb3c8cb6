#!/usr/bin/env python3
"""Trainer benchmark: XGBoost `hist` (one thread) against `trust-insights train` (one thread) on identical CSVs.

Generates a 200k x 32 training set plus validation and held-out sets shaped like ../shared/fixtures/gbdt
(make_fixtures.py's generative story: 32 float32 features, ~5% missing, informative missingness on f12, ~2%
positive), trains both with the same trees, depth, eta, lambda and min_child_weight (no subsampling, no early
stopping), scores the held-out set with both (our model by an independent numpy float32 tree walk of the JSON
document, checked bit for bit against `trust-insights models score`), and prints held-out AUC and wall time side by side over several runs (medians).

Usage: compare_xgboost.py --binary .build/release/trust-insights [--runs 3] [--rows 200000] [--workdir DIR]
"""
import argparse, json, os, re, statistics, subprocess, sys, time
import numpy as np

NF = 32


def generate(n, seed):
    rng = np.random.default_rng(seed)
    X = np.empty((n, NF), dtype=np.float64)
    X[:, 0:10] = rng.standard_normal((n, 10))
    X[:, 3] = 0.6 * X[:, 0] + 0.8 * X[:, 3]
    X[:, 10:16] = np.exp(rng.normal(3.0, 1.2, (n, 6)))
    X[:, 16:22] = rng.poisson([0.5, 1, 2, 4, 8, 16], (n, 6))
    X[:, 22:26] = rng.integers(0, [3, 5, 8, 12], (n, 4))
    X[:, 26:32] = rng.random((n, 6))
    sig = lambda z: 1.0 / (1.0 + np.exp(-z))
    z = (0.8 * X[:, 0] - 0.6 * X[:, 1] + 0.5 * X[:, 2] * X[:, 3] + 0.4 * np.sin(2 * X[:, 4])
         + 0.3 * np.abs(X[:, 5]) + 0.7 * (np.log(X[:, 10]) - 3) - 0.4 * (np.log(X[:, 11]) - 3)
         + 0.9 * (X[:, 16] > 2) + 0.25 * np.sqrt(X[:, 19]) + 0.6 * (X[:, 22] == 2)
         - 0.5 * (X[:, 24] == 7) + 1.0 * (X[:, 26] > 0.9) + 0.8 * X[:, 27] * X[:, 28]
         + 0.3 * rng.standard_normal(n))
    miss = np.zeros((n, NF), dtype=bool)
    for j, p in {3: .02, 10: .10, 11: .10, 12: .15, 13: .10, 14: .10, 15: .10,
                 16: .25, 17: .25, 18: .25, 26: .05, 27: .05, 28: .05, 29: .05, 30: .05, 31: .05}.items():
        miss[:, j] = rng.random(n) < p
    miss[:, 12] |= rng.random(n) < 0.10 * sig(z - 2)
    z = z + 0.7 * miss[:, 12] + 0.4 * miss[:, 16]
    lo, hi = -20.0, 5.0
    for _ in range(60):
        c = (lo + hi) / 2
        if sig(z + c).mean() > 0.02: hi = c
        else: lo = c
    y = (rng.random(n) < sig(z + c)).astype(np.int32)
    X[miss] = np.nan
    return X.astype(np.float32), y


def write_csv(path, X, y):
    with open(path, "w") as f:
        f.write("label," + ",".join(f"f{j}" for j in range(NF)) + "\n")
        for row, label in zip(X.tolist(), y.tolist()):
            f.write(str(label) + "," + ",".join("" if v != v else "%.9g" % v for v in row) + "\n")


def read_csv(path):
    with open(path) as f:
        f.readline()
        rows = [line.rstrip("\n").split(",") for line in f]
    y = np.array([int(r[0]) for r in rows], dtype=np.int32)
    X = np.array([[float(v) if v else np.nan for v in r[1:]] for r in rows], dtype=np.float32)
    return X, y


def auc(y, s):
    order = np.argsort(s, kind="mergesort")
    s, y = s[order], y[order]
    ranks = np.empty(len(s))
    i = 0
    while i < len(s):  # average ranks of ties
        j = i
        while j + 1 < len(s) and s[j + 1] == s[i]: j += 1
        ranks[i:j + 1] = (i + j) / 2 + 1
        i = j + 1
    pos = y.sum(); neg = len(y) - pos
    return (ranks[y == 1].sum() - pos * (pos + 1) / 2) / (pos * neg)


def score_document(doc, X):
    """Float32 walk of our model document: NaN takes the default, else left iff x < t, trees summed in order."""
    margin = np.full(len(X), np.float32(doc["baseMargin"]), dtype=np.float32)
    rows = np.arange(len(X))
    for t in doc["trees"]:
        left = np.array(t["leftChildren"]); right = np.array(t["rightChildren"])
        feat = np.array(t["splitFeatures"]); thr = np.array(t["thresholds"], dtype=np.float32)
        dl = np.array(t["defaultLeft"]); leaf = np.array(t["leafValues"], dtype=np.float32)
        idx = np.zeros(len(X), dtype=np.int64)
        while True:
            active = left[idx] != -1
            if not active.any(): break
            x = X[rows, feat[idx]]
            go_left = np.where(np.isnan(x), dl[idx], x < thr[idx])
            idx = np.where(active, np.where(go_left, left[idx], right[idx]), idx)
        margin = (margin + leaf[idx]).astype(np.float32)
    return margin


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--binary", required=True)
    ap.add_argument("--workdir", default=".build/bench-training")
    ap.add_argument("--rows", type=int, default=200_000)
    ap.add_argument("--valid-rows", type=int, default=50_000)
    ap.add_argument("--heldout-rows", type=int, default=100_000)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--trees", type=int, default=200)
    ap.add_argument("--depth", type=int, default=6)
    ap.add_argument("--eta", type=float, default=0.1)
    ap.add_argument("--lambda_", type=float, default=1.0)
    ap.add_argument("--min-child-weight", type=float, default=1.0)
    a = ap.parse_args()
    import xgboost as xgb

    os.makedirs(a.workdir, exist_ok=True)
    paths = {k: os.path.join(a.workdir, f"{k}_{a.rows}.csv") for k in ("train", "valid", "heldout")}
    if not all(os.path.exists(p) for p in paths.values()):
        X, y = generate(a.rows + a.valid_rows + a.heldout_rows, 20261121)
        cuts = [0, a.rows, a.rows + a.valid_rows, len(y)]
        for k, (lo, hi) in zip(("train", "valid", "heldout"), zip(cuts, cuts[1:])):
            write_csv(paths[k], X[lo:hi], y[lo:hi])
    # Both tools train on exactly what the CSV holds.
    Xtr, ytr = read_csv(paths["train"]); Xho, yho = read_csv(paths["heldout"])
    print(f"train {Xtr.shape}, positive rate {ytr.mean():.4f}, missing {np.isnan(Xtr).mean():.4f}; "
          f"held-out {Xho.shape}, positive rate {yho.mean():.4f}", flush=True)

    xp = {"objective": "binary:logistic", "tree_method": "hist", "max_depth": a.depth, "eta": a.eta,
          "lambda": a.lambda_, "min_child_weight": a.min_child_weight, "max_bin": 256, "nthread": 1, "seed": 0}
    out = os.path.join(a.workdir, "model.json")
    cmd = [a.binary, "train", "--train", paths["train"], "--valid", paths["valid"], "--out", out,
           "--trees", str(a.trees), "--max-depth", str(a.depth), "--learning-rate", str(a.eta),
           "--lambda", str(a.lambda_), "--min-child-weight", str(a.min_child_weight),
           "--early-stopping-rounds", "0", "--threads", "1", "--seed", "0", "--created-at", "2026-01-01T00:00:00Z"]
    xgb_times, our_train_times, our_total_times, xgb_auc, our_auc = [], [], [], None, None
    xgb_cpu, our_cpu = [], []
    for run in range(a.runs):
        t = time.perf_counter(); c = time.process_time()
        dtr = xgb.DMatrix(Xtr, label=ytr, missing=np.nan, nthread=1)
        bst = xgb.train(xp, dtr, num_boost_round=a.trees)
        xgb_times.append(time.perf_counter() - t); xgb_cpu.append(time.process_time() - c)
        xgb_auc = auc(yho, bst.predict(xgb.DMatrix(Xho, missing=np.nan, nthread=1), output_margin=True))

        t = time.perf_counter()
        result = subprocess.run(cmd, check=True, capture_output=True, text=True)
        our_total_times.append(time.perf_counter() - t)
        match = re.search(r"in ([0-9.]+) s \(cpu ([0-9.]+) s\)", result.stderr)  # train's summary is on stderr
        our_train_times.append(float(match.group(1))); our_cpu.append(float(match.group(2)))
        with open(out) as f: doc = json.load(f)
        walk = score_document(doc, Xho)
        our_auc = auc(yho, walk)
        # The service's scorer must agree bit for bit with the independent walk.
        scored = os.path.join(a.workdir, "scores.csv")
        subprocess.run([a.binary, "models", "score", "--model", out, "--input", paths["heldout"], "--output", scored],
                       check=True, capture_output=True)
        service = np.loadtxt(scored, delimiter=",", skiprows=1, usecols=0, dtype=np.float32)
        if not np.array_equal(service, walk):
            sys.exit(f"models score differs from the numpy walk on {(service != walk).sum()} rows")
        print(f"run {run + 1}: xgboost {xgb_times[-1]:.2f} s (cpu {xgb_cpu[-1]:.2f}) AUC {xgb_auc:.5f} | "
              f"trust-insights train {our_train_times[-1]:.2f} s (cpu {our_cpu[-1]:.2f}; process wall "
              f"{our_total_times[-1]:.2f} s) AUC {our_auc:.5f}", flush=True)

    med = statistics.median
    mx, mxc = med(xgb_times), med(xgb_cpu)
    mo, moc, mp = med(our_train_times), med(our_cpu), med(our_total_times)
    print(f"\nxgboost {xgb.__version__} hist nthread=1: median {mx:.2f} s wall, {mxc:.2f} s cpu (DMatrix + train), "
          f"held-out AUC {xgb_auc:.5f}")
    print(f"trust-insights train --threads 1: median {mo:.2f} s wall, {moc:.2f} s cpu (binning + boosting + "
          f"metrics), {mp:.2f} s wall for the whole process incl. CSV parse, held-out AUC {our_auc:.5f}")
    print(f"ratio ours/xgboost: wall {mo / mx:.2f}, cpu {moc / mxc:.2f}, whole process wall {mp / mx:.2f}; "
          f"AUC difference ours - xgboost: {our_auc - xgb_auc:+.5f}")


if __name__ == "__main__":
    main()
