#!/usr/bin/env bash
# Checks deploy/ as far as this machine can without Docker or a cluster (CI runs it from .ci/run):
#   - YAML lint (yamllint) of the Kubernetes manifests and openapi.yaml;
#   - the manifests against the Kubernetes API schemas, strict (kubernetes-validate: unknown fields are errors);
#   - the systemd unit with `systemd-analyze verify` and its `security` exposure score (must stay <= 2.0);
#   - the Dockerfile's structure, and the project's own rules for all three (deploy/README.md): one replica
#     recreated, grace periods above the drain deadline, non-root, read-only root, probes on /readyz and /healthz,
#     configuration files holding only known keys.
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
yamllint -s -d '{extends: default, rules: {line-length: disable, document-start: disable}}' openapi.yaml

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

echo "deploy: project rules"
python3 - <<'PY'
import json, re, sys, yaml

problems = []
def need(condition, message):
    if not condition:
        problems.append(message)

known = set(json.load(open("config/default.json")))

# Kubernetes
docs = {}
for name in ["configmap", "deployment", "service", "persistentvolumeclaim"]:
    docs[name] = yaml.safe_load(open(f"deploy/kubernetes/{name}.yaml"))
kustomization = yaml.safe_load(open("deploy/kubernetes/kustomization.yaml"))
need(sorted(kustomization["resources"]) == sorted(f"{n}.yaml" for n in docs), "kustomization.yaml must list every manifest")
config = json.loads(docs["configmap"]["data"]["config.json"])
need(set(config) <= known, f"ConfigMap config.json has unknown keys {sorted(set(config) - known)} (start-up would stop)")
grace = config.get("shutdownGraceSeconds", 10)
deployment = docs["deployment"]["spec"]
need(deployment["replicas"] == 1, "one replica: SQLite has one writer")
need(deployment["strategy"]["type"] == "Recreate", "strategy Recreate: the old pod must release the volume first")
pod = deployment["template"]["spec"]
container = pod["containers"][0]
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
port = config.get("port", 8080)
need(any(p["containerPort"] == port for p in container["ports"]), "containerPort matches the configured port")
env = {e["name"]: e.get("value") for e in container.get("env", [])}
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
need("--config /etc/trust-insights/config.json" in settings["ExecStart"][0], "ExecStart reads /etc/trust-insights/config.json")
need(unit_config["dataDir"] == "/var/lib/" + settings["StateDirectory"][0], "dataDir is the StateDirectory")

# Dockerfile: a structural review (no Docker daemon here; hadolint is not on PyPI).
dockerfile = open("deploy/Dockerfile").read()
instructions = [re.split(r"\s+", l.strip(), 1) for l in re.sub(r"\\\n", " ", dockerfile).splitlines() if l.strip() and not l.lstrip().startswith("#")]
stages = [i for i, ins in enumerate(instructions) if ins[0] == "FROM"]
need(len(stages) >= 2, "multi-stage build")
build = instructions[stages[0]:stages[-1]]
runtime = instructions[stages[-1]:]
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
import os
for ins in instructions:
    if ins[0] == "COPY" and not ins[1].startswith("--from"):
        for source in ins[1].split()[:-1]:
            need(os.path.exists(source), f"COPY source {source} exists")
ignore = open("deploy/Dockerfile.dockerignore").read()
need("**" in ignore.splitlines(), "Dockerfile.dockerignore excludes everything not copied")

for problem in problems:
    print("deploy: " + problem, file=sys.stderr)
sys.exit(1 if problems else 0)
PY

if docker info >/dev/null 2>&1; then
  echo "deploy: docker build"
  docker build -f deploy/Dockerfile -t trust-insights:validate .
else
  echo "deploy: no Docker daemon here; the Dockerfile was checked structurally only"
fi
echo "deploy: passed"
