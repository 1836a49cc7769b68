#!/usr/bin/env bash
# Stop script (coder_script, run on stop): deletes build VMs this workspace left behind
# in the Harvester build namespace, i.e. every KubeVirt VirtualMachine labeled
# app.coder.io/workspace=<ws> in packer-dev, with the workspace's own (packer-dev scoped)
# kubeconfig. Equivalent to `kubectl -n packer-dev delete vm -l app.coder.io/workspace=<ws>`.
#
# A failed sweep is loud: whenever VMs may be left (no kubectl, no kubeconfig, an API error
# such as 403 Forbidden because the identity is gone, a hang), the script prints a line
#   sweep: FAILED: build VMs left in <namespace>: <name> <name> ...
# (or, when even listing them fails, the label selector they carry), the command to clean
# up by hand, and exits 1, so Coder marks the stop script as failed in the agent's log. The
# stop itself goes on either way: Coder does not wait for a stop script's result.
# The delete does not wait for the VMs to go away (--wait=false), kubectl is cut after
# SWEEP_TIMEOUT seconds and the listing after SWEEP_LIST_TIMEOUT, so a slow or unreachable
# API server cannot hold up the stop beyond the pod's grace period.
#
# Inputs (environment variables; the template prepends NAME='value' lines right after
# the shebang line):
#   SWEEP_WORKSPACE     required: <ws>, the value of the app.coder.io/workspace label on
#                       this workspace's build VMs. Empty or invalid = nothing is deleted
#                       (and the sweep fails).
#   SWEEP_NAMESPACE     namespace of the build VMs. Default packer-dev.
#   SWEEP_KUBECONFIG    kubeconfig of the workspace identity.
#                       Default "$KUBECONFIG", else /etc/packer-kubeconfig.yaml.
#   SWEEP_TIMEOUT       seconds for the delete. Default 60.
#   SWEEP_LIST_TIMEOUT  seconds for listing what is left after a failed delete. Default 10.
# Needs: bash, kubectl, coreutils (timeout).

set -uo pipefail

log() { echo "sweep: $*" >&2; }

label_key="app.coder.io/workspace"
workspace="${SWEEP_WORKSPACE:-}"
namespace="${SWEEP_NAMESPACE:-packer-dev}"
kubeconfig="${SWEEP_KUBECONFIG:-${KUBECONFIG:-/etc/packer-kubeconfig.yaml}}"
timeout_s="${SWEEP_TIMEOUT:-60}"
list_timeout_s="${SWEEP_LIST_TIMEOUT:-10}"
selector="${label_key}=${workspace}"

# Says which VMs may be left and how to delete them, then fails the script.
# $1: why the sweep did not (fully) happen; $2: the VM names, when known.
fail_sweep() {
  local why="$1" names="${2:-}"
  if [[ -n "${names}" ]]; then
    log "FAILED: build VMs left in ${namespace}: ${names} (${why})"
  else
    log "FAILED: build VMs labeled ${selector} in ${namespace} may be left (${why})"
  fi
  log "to clean up by hand: kubectl -n ${namespace} delete vm -l ${selector}"
  exit 1
}

# A Kubernetes label value: at most 63 characters, alphanumerics with - _ . inside.
# An empty value would select VMs that carry the label with no value, so it is refused.
if [[ ! "${workspace}" =~ ^[A-Za-z0-9]([A-Za-z0-9_.-]{0,61}[A-Za-z0-9])?$ ]]; then
  log "SWEEP_WORKSPACE is empty or not a label value ('${workspace}'); not deleting anything"
  selector="${label_key}=<this workspace>"
  fail_sweep "SWEEP_WORKSPACE is invalid"
fi
for setting in timeout_s list_timeout_s; do
  if [[ ! "${!setting}" =~ ^[1-9][0-9]*$ ]]; then
    default=60
    if [[ "${setting}" == list_timeout_s ]]; then default=10; fi
    log "timeout '${!setting}' is not a positive number of seconds; using ${default}"
    printf -v "${setting}" '%s' "${default}"
  fi
done
if ! command -v kubectl >/dev/null; then
  fail_sweep "kubectl is not installed"
fi
if [[ ! -r "${kubeconfig}" ]]; then
  fail_sweep "kubeconfig ${kubeconfig} is not readable"
fi

# Runs kubectl against the build namespace, cut after $1 seconds: each API request gets
# the timeout, so kubectl gives up by itself where it can; `timeout` is the hard stop
# (TERM, then KILL 5 s later).
bounded_kubectl() {
  local limit="$1"
  shift
  if command -v timeout >/dev/null; then
    timeout --kill-after=5 "${limit}" kubectl --kubeconfig "${kubeconfig}" \
      --request-timeout "${limit}s" --namespace "${namespace}" "$@"
  else
    kubectl --kubeconfig "${kubeconfig}" --request-timeout "${limit}s" \
      --namespace "${namespace}" "$@"
  fi
}

if ! command -v timeout >/dev/null; then
  log "no timeout command in the image; relying on kubectl's --request-timeout alone"
fi
log "deleting VMs labeled ${selector} in namespace ${namespace} (timeout ${timeout_s}s)"
status=0
bounded_kubectl "${timeout_s}" delete virtualmachines.kubevirt.io \
  --selector "${selector}" --ignore-not-found --wait=false >&2 || status=$?

if ((status == 0)); then
  log "done: delete requested for every VM labeled ${selector} in ${namespace} (none listed above = none were left)"
  exit 0
fi
case "${status}" in
  124 | 137) why="kubectl did not finish within ${timeout_s}s" ;;
  *) why="kubectl exited with status ${status}" ;;
esac
log "${why}; listing the VMs that are left"

# What is left, by name: one `virtualmachine.kubevirt.io/<name>` per line. Names are
# Kubernetes names; anything else in the output is not printed.
listing="" list_status=0
listing="$(bounded_kubectl "${list_timeout_s}" get virtualmachines.kubevirt.io \
  --selector "${selector}" --ignore-not-found --output name)" || list_status=$?
if ((list_status != 0)); then
  fail_sweep "${why}; listing them failed too (status ${list_status})"
fi
names=""
while IFS= read -r line; do
  name="${line##*/}"
  if [[ "${name}" =~ ^[a-z0-9]([-a-z0-9.]*[a-z0-9])?$ ]]; then names="${names:+${names} }${name}"; fi
done <<<"${listing}"
if [[ -z "${names}" ]]; then
  log "no VM labeled ${selector} is left in ${namespace}, although the delete failed (${why})"
  exit 0
fi
fail_sweep "${why}" "${names}"
