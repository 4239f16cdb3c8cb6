#!/usr/bin/env python3
"""Trains small models of many shapes with the real XGBoost and LightGBM and writes, for each, the saved model,
rows to score and the library's own predictions, so that a test can import every model and compare.

    python3 scripts/library_parity.py OUT_DIR

Needs: pip install numpy xgboost-cpu lightgbm (or xgboost). Writes OUT_DIR/cases.json, a list of cases:
  {"name", "library" ("xgboost" | "lightgbm"), "model" (file name), "features" (names, in column order),
   "rows" (CSV: a header of the names, an empty field for a missing value), "predictions" (one line per row: the
   probability, %.17g, and for XGBoost a comma and its float32 margin, %.9g), "bestIteration" (XGBoost: import
   with --best-iteration)}
or, for a shape the import must refuse, "refused": a piece of the error message it must give instead.
Seeded, and on one thread each (the test suite runs beside it): the same versions of the libraries write the same
files.

With PARITY_SKIP_UNSUPPORTED=1 in the environment, a shape the installed library cannot train (a parameter an older
release lacks) is listed under "skipped" with the library's message instead of stopping the script: for checking
the import against older releases by hand. Without it, any failure stops the script.
"""
import json
import os
import sys

import lightgbm as lgb
import numpy as np
import xgboost as xgb

OUT = sys.argv[1]
os.makedirs(OUT, exist_ok=True)
rng = np.random.default_rng(20261204)
cases = []
skipped = []
skip_unsupported = os.environ.get("PARITY_SKIP_UNSUPPORTED") == "1"


def tolerant(case):
    """Runs `case` as is, or, with PARITY_SKIP_UNSUPPORTED=1, lists it as skipped when the library refuses it."""
    def run(name, *arguments, **keywords):
        try:
            case(name, *arguments, **keywords)
        except Exception as error:
            if not skip_unsupported:
                raise
            skipped.append({"name": name, "reason": ("%s: %s" % (type(error).__name__, error))[:300]})
    return run


def data(rows, features, missing=0.1, zeros=0.0, integers=False):
    x = rng.normal(size=(rows, features))
    if integers:
        x = np.floor(np.abs(x) * 3)
    if zeros:
        x[rng.random(x.shape) < zeros] = 0.0
    x[rng.random(x.shape) < missing] = np.nan
    logit = np.nansum(x[:, :3], axis=1) - 0.5 * np.nan_to_num(x[:, min(3, features - 1)]) ** 2
    y = (rng.random(rows) < 1 / (1 + np.exp(-logit))).astype(int)
    return x, y


def write_rows(name, x, names):
    with open(os.path.join(OUT, name + ".csv"), "w") as out:
        out.write(",".join(names) + "\n")
        for row in x:
            out.write(",".join("" if np.isnan(v) else repr(float(v)) for v in row) + "\n")


def record(name, library, model, x, names, predictions, margins=None, best=False):
    write_rows(name, x, names)
    with open(os.path.join(OUT, name + ".preds"), "w") as out:
        if margins is None:
            out.writelines("%.17g\n" % p for p in predictions)
        else:
            out.writelines("%.17g,%.9g\n" % pair for pair in zip(predictions, margins))
    cases.append({"name": name, "library": library, "model": model, "features": names, "rows": name + ".csv",
                  "predictions": name + ".preds", "bestIteration": best})


def refused(name, library, model, names, message):
    cases.append({"name": name, "library": library, "model": model, "features": names, "refused": message})


@tolerant
def xgboost_case(name, params, rounds=30, features=8, suffix="json", missing=0.1, best=False, label_count=2,
                 refuse=None, logitraw=False):
    x, y = data(3000, features, missing)
    if label_count > 2:
        y = rng.integers(0, label_count, size=len(y))
    train = xgb.DMatrix(x[:2000], label=y[:2000], missing=np.nan)
    held_out = xgb.DMatrix(x[2000:], label=y[2000:], missing=np.nan)
    booster = xgb.train(dict(params, seed=7, nthread=1), train, rounds, evals=[(held_out, "heldout")] if best else [],
                        early_stopping_rounds=5 if best else None, verbose_eval=False)
    model = name + "." + suffix
    booster.save_model(os.path.join(OUT, model))
    names = ["f%d" % i for i in range(features)]
    if refuse:
        return refused(name, "xgboost", model, names, refuse)
    kept = (0, booster.best_iteration + 1) if best else (0, 0)
    margins = booster.predict(held_out, iteration_range=kept, output_margin=True)
    predictions = booster.predict(held_out, iteration_range=kept)
    if logitraw:
        # XGBoost predicts the margin itself; the probability is its logistic, as XGBoost computes it for
        # binary:logistic (in float32), since XGBoost gives none for this objective.
        assert np.array_equal(predictions, margins)
        predictions = 1 / (1 + np.exp(-margins))
    record(name, "xgboost", model, x[2000:], names, predictions, margins, best)


@tolerant
def lightgbm_case(name, params, rounds=30, features=8, missing=0.1, zeros=0.0, integers=False, categorical=(),
                  refuse=None, label_count=2):
    x, y = data(3000, features, missing, zeros, integers)
    if label_count > 2:
        y = rng.integers(0, label_count, size=len(y))
    dataset = lgb.Dataset(x[:2000], label=y[:2000], categorical_feature=list(categorical) or "auto")
    booster = lgb.train(dict(params, verbose=-1, seed=7, num_threads=1), dataset, rounds)
    model = name + ".txt"
    booster.save_model(os.path.join(OUT, model))
    names = ["f%d" % i for i in range(features)]
    if refuse:
        return refused(name, "lightgbm", model, names, refuse)
    record(name, "lightgbm", model, x[2000:], names, booster.predict(x[2000:]))


logistic = {"objective": "binary:logistic", "max_depth": 4, "eta": 0.3}
xgboost_case("xgboost_plain", logistic)
xgboost_case("xgboost_ubjson", logistic, suffix="ubj")
xgboost_case("xgboost_stumps", dict(logistic, max_depth=1))
xgboost_case("xgboost_deep", dict(logistic, max_depth=12, min_child_weight=0), rounds=10)
xgboost_case("xgboost_exact", dict(logistic, tree_method="exact"))
xgboost_case("xgboost_approx", dict(logistic, tree_method="approx"))
xgboost_case("xgboost_lossguide", dict(logistic, grow_policy="lossguide", max_leaves=20, max_depth=0))
xgboost_case("xgboost_base_score", dict(logistic, base_score=0.2))
xgboost_case("xgboost_reg_logistic", dict(logistic, objective="reg:logistic"))
xgboost_case("xgboost_dart", dict(logistic, booster="dart", rate_drop=0.2, skip_drop=0.0))
xgboost_case("xgboost_forest", dict(logistic, num_parallel_tree=4, subsample=0.8, colsample_bynode=0.8))
xgboost_case("xgboost_nothing_missing", logistic, missing=0.0)
xgboost_case("xgboost_200_features", logistic, features=200)
xgboost_case("xgboost_1_feature", logistic, features=1)
xgboost_case("xgboost_best_iteration", logistic, rounds=200, best=True)
xgboost_case("xgboost_weighted", dict(logistic, scale_pos_weight=5, max_delta_step=1))
xgboost_case("xgboost_monotone", dict(logistic, monotone_constraints="(1,0,0,0,0,0,0,0)"))
xgboost_case("xgboost_pruned", dict(logistic, gamma=5.0))
xgboost_case("xgboost_1_round", logistic, rounds=1)
xgboost_case("xgboost_logitraw", dict(logistic, objective="binary:logitraw"), logitraw=True)
xgboost_case("xgboost_logitraw_base_score", dict(logistic, objective="binary:logitraw", base_score=-2.0), logitraw=True)
xgboost_case("xgboost_multiclass", dict(logistic, objective="multi:softprob", num_class=3), label_count=3,
             refuse="multi:softprob")
xgboost_case("xgboost_gblinear", {"objective": "binary:logistic", "booster": "gblinear"}, refuse="gblinear")

binary = {"objective": "binary", "num_leaves": 15}
lightgbm_case("lightgbm_plain", binary)
lightgbm_case("lightgbm_zero_as_missing", dict(binary, zero_as_missing=True), zeros=0.2)
lightgbm_case("lightgbm_no_missing", dict(binary, use_missing=False))
lightgbm_case("lightgbm_cross_entropy", dict(binary, objective="cross_entropy"))
lightgbm_case("lightgbm_dart", dict(binary, boosting="dart"))
lightgbm_case("lightgbm_goss", dict(binary, data_sample_strategy="goss"))
lightgbm_case("lightgbm_random_forest", dict(binary, boosting="rf", bagging_freq=1, bagging_fraction=0.7))
lightgbm_case("lightgbm_255_leaves", dict(binary, num_leaves=255, min_data_in_leaf=2), rounds=10)
lightgbm_case("lightgbm_single_leaf", dict(binary, min_data_in_leaf=5000), rounds=3)
lightgbm_case("lightgbm_unbalanced", dict(binary, is_unbalance=True))
lightgbm_case("lightgbm_not_from_average", dict(binary, boost_from_average=False))
lightgbm_case("lightgbm_200_features", binary, features=200)
lightgbm_case("lightgbm_1_feature", binary, features=1)
lightgbm_case("lightgbm_shallow", dict(binary, max_depth=2, num_leaves=4))
lightgbm_case("lightgbm_sigmoid_2", dict(binary, sigmoid=2.0))
lightgbm_case("lightgbm_random_forest_sigmoid", dict(binary, sigmoid=0.37, boosting="rf", bagging_freq=1,
                                                     bagging_fraction=0.7))
lightgbm_case("lightgbm_linear", dict(binary, linear_tree=True), refuse="linear tree")
lightgbm_case("lightgbm_categorical", binary, integers=True, missing=0.0, categorical=(0,), refuse="categorical")
lightgbm_case("lightgbm_multiclass", {"objective": "multiclass", "num_class": 3}, label_count=3,
              refuse="multi-class")

with open(os.path.join(OUT, "cases.json"), "w") as out:
    json.dump({"xgboost": xgb.__version__, "lightgbm": lgb.__version__, "cases": cases, "skipped": skipped}, out,
              indent=1)
print("%d cases (xgboost %s, lightgbm %s) in %s" % (len(cases), xgb.__version__, lgb.__version__, OUT))
