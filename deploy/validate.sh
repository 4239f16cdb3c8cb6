#!/usr/bin/env bash
# Checks deploy/ as far as this machine can without Docker or a cluster (CI runs it from .ci/run):
#   - YAML lint (yamllint) of the Kubernetes manifests and openapi.yaml;
#   - the manifests against the Kubernetes API schemas, strict (kubernetes-validate: unknown fields are errors);
#   - the systemd unit with `systemd-analyze verify` and its `security` exposure score (must stay <= 2.0);
#   - the Prometheus alerting rules: promtool when installed, their shape, and that each series they name is in
#     deploy/README.md's metrics table;
#   - the Dockerfile's structure, and the project's own rules for all three (deploy/README.md): one replica
#     recreated, grace periods above the drain deadline, non-root, read-only root, probes on /readyz and /healthz,
#     configuration files holding only known keys, the settings each deployment actually runs with (its file,
#     then any TRUST_INSIGHTS_* variables) matching its ports, volumes and grace periods;
#   - the Docker build stage's view of the package: the context filtered by Dockerfile.dockerignore, then the
#     stage's COPY lines, assembled in a scratch folder where SwiftPM must load Package.swift (`swift package
#     describe`, loading only; skipped, saying so, without swift).
# Installs yamllint and kubernetes-validate (PyPI) and systemd (Debian) when missing.
set -euo pipefail
cd "$(dirname "$0")/.."

command -v yamllint >/dev/null 2>&1 || pip install -q yamllint
command -v kubernetes-validate >/dev/null 2>&1 || pip install -q kubernetes-validate
if ! command -v systemd-analyze >/dev/null 2>&1; then
  apt-get update -qq && apt-get install -y -qq --no-install-recommends systemd >/dev/null
fi

echo "deploy: yamllint"
yamllint -s -d '{extends: default, rules: {line-length: {max: 120}, document-start: disable}}' deploy/kubernetes
yamllint -s -d '{extends: default, rules: {line-length: disable, document-start: disable}}' docs/openapi.yaml

echo "deploy: Kubernetes schemas (strict)"
for manifest in deploy/kubernetes/*.yaml; do
  [ "$(basename "$manifest")" = kustomization.yaml ] && continue
  kubernetes-validate --strict --quiet "$manifest"
done

echo "deploy: systemd unit"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# verify insists that ExecStart= exists here; check the unit as written with the binary path pointed at a stub.
sed 's#/usr/local/bin/trust-insights#/bin/true#' deploy/systemd/trust-insights.service >"$work/trust-insights.service"
systemd-analyze verify "$work/trust-insights.service"
exposure=$(systemd-analyze security --offline=yes "$work/trust-insights.service" 2>/dev/null |
  sed -n 's/.*Overall exposure level for trust-insights.service: \([0-9.]*\).*/\1/p')
echo "deploy: systemd exposure level $exposure (0 = fully locked down, 10 = unprotected)"
python3 -c "import sys; sys.exit(0 if float('$exposure') <= 2.0 else 1)" ||
  { echo "deploy: the unit's exposure level rose above 2.0" >&2; exit 1; }

echo "deploy: Prometheus rules"
yamllint -s -d '{extends: default, rules: {line-length: {max: 200}, document-start: disable}}' deploy/prometheus
if command -v promtool >/dev/null 2>&1; then
  promtool check rules deploy/prometheus/alerts.yaml
else
  echo "deploy: promtool is not here (apt-get install prometheus): the rules' structure and series were checked, not their PromQL"
fi
python3 - <<'PY'
import re, sys, yaml
# Every series a rule names must be one deploy/README.md's metrics table lists (and so one the service exports:
# the observability probe checked that table against /metrics); `up` is Prometheus's own.
table = open("deploy/README.md").read().split("## What `/metrics` shows", 1)[1]
documented = set(re.findall(r"`([a-z_][a-z0-9_]*)(?:\{[^`]*\})?`", table))
problems = []
for group in yaml.safe_load(open("deploy/prometheus/alerts.yaml"))["groups"]:
    for rule in group["rules"]:
        name = rule.get("alert", "?")
        for key in ("alert", "expr", "labels", "annotations"):
            if key not in rule:
                problems.append(f"{name}: no {key}")
        if rule.get("labels", {}).get("severity") not in ("critical", "warning"):
            problems.append(f"{name}: severity must be critical or warning")
        if "summary" not in rule.get("annotations", {}):
            problems.append(f"{name}: no summary")
        for series in re.findall(r"\b([a-zA-Z_:][a-zA-Z0-9_:]*)\s*\{", rule.get("expr", "")):
            base = re.sub(r"_(bucket|sum|count)$", "", series)
            if series != "up" and series not in documented and base not in documented:
                problems.append(f"{name}: {series} is not in deploy/README.md's metrics table")
for problem in problems:
    print("deploy: prometheus/alerts.yaml:", problem, file=sys.stderr)
sys.exit(1 if problems else 0)
PY

echo "deploy: project rules"
BUILD_STAGE="$work/build-stage" python3 - <<'PY'
import json, os, re, shutil, sys, yaml

problems = []
def need(condition, message):
    if not condition:
        problems.append(message)

# config/default.json holds every key with its built-in default (README, Configuration).
defaults = json.load(open("config/default.json"))
# Keys the service still accepts but ignores, so that files which set them stay valid (README, Configuration).
retired = {"evaluationHoldMicroseconds"}
known = set(defaults) | retired
def variable(key):
    return "TRUST_INSIGHTS_" + re.sub(r"([A-Z])", r"_\1", key).upper()
variables = {variable(key): key for key in known}
def effective(file_settings, *environments):
    # What the service runs with: built-in defaults, then the file, then TRUST_INSIGHTS_* variables in order.
    settings = dict(defaults, **file_settings)
    for environment in environments:
        for name, value in environment.items():
            if name in variables and value is not None:
                try:
                    settings[variables[name]] = json.loads(value)
                except ValueError:
                    settings[variables[name]] = value
    return settings
loopback = ("127.0.0.1", "::1", "localhost")

# The Dockerfile, parsed once (its checks are further down).
dockerfile = open("deploy/Dockerfile").read()
instructions = [re.split(r"\s+", l.strip(), 1) for l in re.sub(r"\\\n", " ", dockerfile).splitlines() if l.strip() and not l.lstrip().startswith("#")]
stages = [i for i, ins in enumerate(instructions) if ins[0] == "FROM"]
build = instructions[stages[0]:stages[-1]]
runtime = instructions[stages[-1]:]
image_env = {}
for ins in runtime:
    if ins[0] == "ENV":
        image_env.update(dict(re.findall(r"(\w+)=(\S*)", ins[1])) or dict([ins[1].split(None, 1)]))

# Kubernetes
docs = {}
for name in ["configmap", "deployment", "service", "persistentvolumeclaim"]:
    docs[name] = yaml.safe_load(open(f"deploy/kubernetes/{name}.yaml"))
kustomization = yaml.safe_load(open("deploy/kubernetes/kustomization.yaml"))
need(sorted(kustomization["resources"]) == sorted(f"{n}.yaml" for n in docs), "kustomization.yaml must list every manifest")
config_file = json.loads(docs["configmap"]["data"]["config.json"])
need(set(config_file) <= known, f"ConfigMap config.json has unknown keys {sorted(set(config_file) - known)} (start-up would stop)")
deployment = docs["deployment"]["spec"]
need(deployment["replicas"] == 1, "one replica: SQLite has one writer")
need(deployment["strategy"]["type"] == "Recreate", "strategy Recreate: the old pod must release the volume first")
pod = deployment["template"]["spec"]
container = pod["containers"][0]
env = {e["name"]: e.get("value") for e in container.get("env", [])}
# The ConfigMap's file replaces the image's config/default.json; the image's and the Deployment's TRUST_INSIGHTS_*
# variables would override it, so the checks below use the result.
config = effective(config_file, image_env, env)
grace = config["shutdownGraceSeconds"]
need(config["host"] not in loopback, f"the pod listens on {config['host']}: the kubelet's probes and the Service need 0.0.0.0 or ::")
pre_stop = int(container["lifecycle"]["preStop"]["exec"]["command"][-1])
need(pod["terminationGracePeriodSeconds"] > pre_stop + grace,
     f"terminationGracePeriodSeconds must exceed preStop ({pre_stop}) + shutdownGraceSeconds ({grace})")
need(pod["securityContext"].get("runAsNonRoot") is True and pod["securityContext"].get("runAsUser", 0) != 0, "pod runs as non-root")
need(pod["securityContext"].get("fsGroupChangePolicy") == "OnRootMismatch", "fsGroupChangePolicy OnRootMismatch keeps signing-keys 0700")
need(pod["securityContext"].get("seccompProfile", {}).get("type") == "RuntimeDefault", "seccomp RuntimeDefault")
need(pod.get("automountServiceAccountToken") is False, "no service account token")
security = container["securityContext"]
need(security.get("readOnlyRootFilesystem") is True, "readOnlyRootFilesystem")
need(security.get("allowPrivilegeEscalation") is False, "allowPrivilegeEscalation false")
need(security.get("capabilities", {}).get("drop") == ["ALL"], "drop ALL capabilities")
need(container["readinessProbe"]["httpGet"]["path"] == "/readyz", "readiness probe on /readyz")
need(container["livenessProbe"]["httpGet"]["path"] == "/healthz", "liveness probe on /healthz")
port = config["port"]
need(any(p["containerPort"] == port for p in container["ports"]), "containerPort matches the configured port")
mounts = {m["name"]: m["mountPath"] for m in container["volumeMounts"]}
need(env.get("TRUST_INSIGHTS_CONFIG", "").startswith(mounts["config"] + "/"), "TRUST_INSIGHTS_CONFIG points into the config mount")
need(mounts["data"] == config["dataDir"], "the data volume is mounted at dataDir")
need("tmp" in mounts and mounts["tmp"] == "/tmp", "a writable /tmp (emptyDir) beside the read-only root")
claim = [v for v in pod["volumes"] if v["name"] == "data"][0]["persistentVolumeClaim"]["claimName"]
need(claim == docs["persistentvolumeclaim"]["metadata"]["name"], "the data volume uses the PVC")
need(docs["persistentvolumeclaim"]["spec"]["accessModes"] == ["ReadWriteOnce"], "the PVC is ReadWriteOnce")
need(docs["service"]["spec"]["selector"] == docs["deployment"]["spec"]["selector"]["matchLabels"], "Service selects the pods")

# systemd
unit = open("deploy/systemd/trust-insights.service").read()
settings = {}
for line in unit.splitlines():
    if "=" in line and not line.startswith("#"):
        key, value = line.split("=", 1)
        settings.setdefault(key.strip(), []).append(value.strip())
unit_config = json.load(open("deploy/systemd/config.json"))
need(set(unit_config) <= known, f"systemd config.json has unknown keys {sorted(set(unit_config) - known)}")
need(settings.get("KillSignal") == ["SIGTERM"], "KillSignal=SIGTERM")
stop = int(settings["TimeoutStopSec"][0])
need(stop > unit_config.get("shutdownGraceSeconds", 10), "TimeoutStopSec must exceed shutdownGraceSeconds")
for key, value in [("NoNewPrivileges", "yes"), ("ProtectSystem", "strict"), ("StateDirectory", "trust-insights"),
                   ("CapabilityBoundingSet", ""), ("PrivateTmp", "yes")]:
    need(settings.get(key) == [value], f"{key}={value}")
need(settings.get("DynamicUser") == ["yes"] or "User" in settings, "DynamicUser=yes or a dedicated User=")
# A refused configuration (exit 2) or command line (64) is not mended by a restart: the unit must stop on them.
need({"2", "64"} <= set(" ".join(settings.get("RestartPreventExitStatus", [])).split()), "RestartPreventExitStatus=2 64")
need("--config /etc/trust-insights/config.json" in settings["ExecStart"][0], "ExecStart reads /etc/trust-insights/config.json")
need(unit_config["dataDir"] == "/var/lib/" + settings["StateDirectory"][0], "dataDir is the StateDirectory")
readme = open("deploy/README.md").read()
systemd_section = readme.split("## systemd", 1)[1].split("\n## ", 1)[0]
for document in settings.get("Documentation", [""])[0].split():
    if document.startswith("file://"):
        need(f" {document[len('file://'):]}" in systemd_section, f"Documentation= {document} is installed by deploy/README.md's steps")
# The CLI recipe (README and the unit's header) runs as the unit's user: the same state folder mode and umask, or
# each call would reset the folder to systemd's default 0755.
for where, text in [("deploy/README.md", systemd_section), ("the unit's header", unit.split("[Unit]", 1)[0])]:
    recipe = re.sub(r"\\\n#?\s*", " ", text)
    for line in recipe.splitlines():
        if "systemd-run" in line:
            for key in ["StateDirectory", "StateDirectoryMode", "UMask", "User"]:
                need(f"-p {key}={settings[key][0]} " in line, f"{where}: systemd-run passes -p {key}={settings[key][0]}")

# Dockerfile: a structural review (no Docker daemon here; hadolint is not on PyPI).
need(len(stages) >= 2, "multi-stage build")
need(any(i[0] == "RUN" and "swift build -c release --static-swift-stdlib" in i[1] for i in build), "release build with --static-swift-stdlib")
runtime_runs = " ".join(i[1] for i in runtime if i[0] == "RUN")
installed = re.findall(r"apt-get install -y --no-install-recommends ([^&]*)", runtime_runs)
need([p.split() for p in installed] == [["libsqlite3-0", "libssl3"]], f"runtime installs only libsqlite3-0 and libssl3 (found {installed})")
need("rm -rf /var/lib/apt/lists/*" in runtime_runs, "apt lists removed in the runtime image")
users = [i[1] for i in runtime if i[0] == "USER"]
need(users and not users[-1].startswith(("root", "0")), "the runtime runs as a non-root USER")
need(any(i[0] == "HEALTHCHECK" and "/healthz" in i[1] for i in runtime), "HEALTHCHECK on /healthz")
need(any(i[0] == "VOLUME" for i in runtime), "a data VOLUME")
need(any(i[0] == "STOPSIGNAL" and i[1] == "SIGTERM" for i in runtime), "STOPSIGNAL SIGTERM")
need(any(i[0] == "ENTRYPOINT" and i[1].startswith("[") for i in runtime), "ENTRYPOINT in exec form")
# The image's settings are a file, config/default.json in its working directory: TRUST_INSIGHTS_* variables in the
# image would override any file named by TRUST_INSIGHTS_CONFIG (the Kubernetes ConfigMap) without a word.
need(not [n for n in image_env if n.startswith("TRUST_INSIGHTS_")],
     f"the image sets no TRUST_INSIGHTS_* variables (found {sorted(image_env)}): they would override the ConfigMap's file")
# The allocator's per-thread cache (deploy/README.md, The allocator): the image and the unit run with the same setting.
unit_tunables = [v.split("=", 1)[1] for v in settings.get("Environment", []) if v.startswith("GLIBC_TUNABLES=")]
need("glibc.malloc.tcache_count=" in image_env.get("GLIBC_TUNABLES", ""), "the image sets GLIBC_TUNABLES with glibc.malloc.tcache_count")
need(unit_tunables == [image_env.get("GLIBC_TUNABLES")], f"the unit's GLIBC_TUNABLES {unit_tunables} is the image's {image_env.get('GLIBC_TUNABLES')}")
image_file = json.load(open("deploy/docker/config.json"))
need(set(image_file) <= known, f"deploy/docker/config.json has unknown keys {sorted(set(image_file) - known)}")
workdirs = [i[1] for i in runtime if i[0] == "WORKDIR"]
need(any(i[0] == "COPY" and i[1].split() == ["deploy/docker/config.json", f"/out{workdirs[-1] if workdirs else '/'}/config/default.json"] for i in build),
     "deploy/docker/config.json becomes config/default.json in the runtime WORKDIR")
image = effective(image_file, image_env)
need(image["host"] not in loopback, f"the image listens on {image['host']}: `docker run -p` needs 0.0.0.0 or ::")
need(any(i[0] == "EXPOSE" and str(image["port"]) in i[1].split() for i in runtime), f"EXPOSE {image['port']}, the image's port")
need(any(i[0] == "VOLUME" and image["dataDir"] in i[1] for i in runtime), f"the data VOLUME is the image's dataDir {image['dataDir']}")

# The build context as BuildKit filters it: every .dockerignore pattern is tried on a path and its parent folders,
# the last one that matches decides (! re-includes); `**` spans folders, `*` does not.
def pattern(text):
    out = re.escape(text.lstrip("!").strip("/"))
    out = out.replace(r"\*\*/", "(?:.*/)?").replace(r"\*\*", ".*").replace(r"\*", "[^/]*").replace(r"\?", "[^/]")
    return text.startswith("!"), re.compile(out + r"\Z")
ignore = [l.strip() for l in open("deploy/Dockerfile.dockerignore") if l.strip() and not l.startswith("#")]
need("**" in ignore, "Dockerfile.dockerignore excludes everything not copied")
rules = [pattern(l) for l in ignore]
def in_context(path):
    parts = path.split("/")
    included = True
    for negated, regex in rules:
        if any(regex.match("/".join(parts[:n])) for n in range(1, len(parts) + 1)):
            included = negated
    return included
context = []
for folder, folders, files in os.walk("."):
    folders[:] = sorted(f for f in folders if f != ".git")
    context += [p for p in (os.path.relpath(os.path.join(folder, f)) for f in sorted(files)) if in_context(p)]
# What the build stage sees: its COPY lines (the ones into its WORKDIR, the package folder) applied to the context.
stage = os.environ["BUILD_STAGE"]
workdir = "/"
for ins in build:
    if ins[0] == "WORKDIR":
        workdir = os.path.join(workdir, ins[1])
    if ins[0] != "COPY" or ins[1].startswith("--"):
        continue
    *sources, target = ins[1].split()
    for source in sources:
        source = os.path.normpath(source)
        files = [p for p in context if p == source or p.startswith(source + "/")]
        need(os.path.exists(source), f"COPY source {source} exists")
        need(files, f"COPY source {source} is in the build context (Dockerfile.dockerignore)")
        if os.path.isdir(source):
            outside = [p for p in (os.path.relpath(os.path.join(f, n)) for f, _, ns in os.walk(source) for n in ns) if not in_context(p)]
            need(not outside, f"Dockerfile.dockerignore leaves out {len(outside)} files of COPY {source}, e.g. {outside[:3]}")
        destination = os.path.normpath(os.path.join(workdir, target))
        if os.path.relpath(destination, workdir).startswith(".."):
            continue   # outside the package folder, e.g. /out
        for path in files:
            inside = os.path.basename(path) if path == source else os.path.relpath(path, source)
            copy = os.path.join(stage, os.path.relpath(destination, workdir), inside)
            os.makedirs(os.path.dirname(copy), exist_ok=True)
            if os.path.islink(path):
                os.symlink(os.readlink(path), copy)
            else:
                shutil.copy2(path, copy)
need(os.path.exists(os.path.join(stage, "Package.swift")), "the build stage copies Package.swift")

for problem in problems:
    print("deploy: " + problem, file=sys.stderr)
sys.exit(1 if problems else 0)
PY

echo "deploy: Docker build stage loads the package"
# SwiftPM refuses a Package.swift whose targets' folders are missing (test targets too) before building anything.
if command -v swift >/dev/null 2>&1 || [ -x /opt/swift/usr/bin/swift ]; then
  swift=$(command -v swift || echo /opt/swift/usr/bin/swift)
  if ! (cd "$work/build-stage" && "$swift" package --scratch-path "$work/scratch" describe >"$work/describe.log" 2>&1); then
    cat "$work/describe.log" >&2
    echo "deploy: SwiftPM cannot load Package.swift from what deploy/Dockerfile's build stage copies" >&2
    exit 1
  fi
else
  echo "deploy: no swift here; the build stage's package loading was not checked"
fi

if docker info >/dev/null 2>&1; then
  echo "deploy: docker build"
  docker build -f deploy/Dockerfile -t trust-insights:validate .
else
  echo "deploy: no Docker daemon here; the Dockerfile was checked structurally only"
fi
echo "deploy: passed"
