#!/usr/bin/env bash
# Stop script (coder_script, run on stop): deletes build VMs this workspace left behind
# in the Harvester build namespace, i.e. every KubeVirt VirtualMachine labeled
# app.coder.io/workspace=<ws> in packer-dev, with the workspace's own (packer-dev scoped)
# kubeconfig. Equivalent to `kubectl -n packer-dev delete vm -l app.coder.io/workspace=<ws>`.
#
# It never fails the stop: every problem (no kubectl, no kubeconfig, API errors, a hang)
# is logged and the script exits 0. The delete does not wait for the VMs to go away
# (--wait=false), and the whole kubectl run is cut after SWEEP_TIMEOUT seconds, so a
# slow or unreachable API server cannot hold up the stop.
#
# Inputs (environment variables; the template prepends NAME='value' lines right after
# the shebang line):
#   SWEEP_WORKSPACE   required: <ws>, the value of the app.coder.io/workspace label on
#                     this workspace's build VMs. Empty or invalid = nothing is deleted.
#   SWEEP_NAMESPACE   namespace of the build VMs. Default packer-dev.
#   SWEEP_KUBECONFIG  kubeconfig of the workspace identity.
#                     Default "$KUBECONFIG", else /etc/packer-kubeconfig.yaml.
#   SWEEP_TIMEOUT     seconds for the kubectl run. Default 60.
# Needs: bash, kubectl, coreutils (timeout).

set -uo pipefail

log() { echo "sweep: $*" >&2; }

label_key="app.coder.io/workspace"
workspace="${SWEEP_WORKSPACE:-}"
namespace="${SWEEP_NAMESPACE:-packer-dev}"
kubeconfig="${SWEEP_KUBECONFIG:-${KUBECONFIG:-/etc/packer-kubeconfig.yaml}}"
timeout_s="${SWEEP_TIMEOUT:-60}"

# A Kubernetes label value: at most 63 characters, alphanumerics with - _ . inside.
# An empty value would select VMs that carry the label with no value, so it is refused.
if [[ ! "${workspace}" =~ ^[A-Za-z0-9]([A-Za-z0-9_.-]{0,61}[A-Za-z0-9])?$ ]]; then
  log "SWEEP_WORKSPACE is empty or not a label value ('${workspace}'); not deleting anything"
  exit 0
fi
if [[ ! "${timeout_s}" =~ ^[1-9][0-9]*$ ]]; then
  log "SWEEP_TIMEOUT '${timeout_s}' is not a positive number of seconds; using 60"
  timeout_s=60
fi
if ! command -v kubectl >/dev/null; then
  log "kubectl is not installed; build VMs labeled ${label_key}=${workspace} in ${namespace} were not deleted"
  exit 0
fi
if [[ ! -r "${kubeconfig}" ]]; then
  log "kubeconfig ${kubeconfig} is not readable; build VMs labeled ${label_key}=${workspace} in ${namespace} were not deleted"
  exit 0
fi

selector="${label_key}=${workspace}"
log "deleting VMs labeled ${selector} in namespace ${namespace} (timeout ${timeout_s}s)"
# Each API request also gets the timeout, so kubectl gives up by itself where it can;
# `timeout` is the hard stop (TERM, then KILL 5 s later).
bounded=(timeout --kill-after=5 "${timeout_s}")
if ! command -v timeout >/dev/null; then
  log "no timeout command in the image; relying on kubectl's --request-timeout alone"
  bounded=()
fi
status=0
"${bounded[@]}" kubectl --kubeconfig "${kubeconfig}" --request-timeout "${timeout_s}s" \
  --namespace "${namespace}" delete virtualmachines.kubevirt.io \
  --selector "${selector}" --ignore-not-found --wait=false >&2 || status=$?

case "${status}" in
  0) log "done: delete requested for every VM labeled ${selector} in ${namespace} (none listed above = none were left)" ;;
  124 | 137) log "kubectl did not finish within ${timeout_s}s; some VMs may remain" ;;
  *) log "kubectl exited with status ${status}; some VMs may remain" ;;
esac
if ((status != 0)); then
  log "to clean up by hand: kubectl -n ${namespace} delete vm -l ${selector}"
fi
exit 0
