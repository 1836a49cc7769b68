#!/usr/bin/env bash
# Stop script (coder_script, run on stop, and again at the next start before login): deletes
# what this workspace's builds left behind in the Harvester build namespace, with the
# workspace's own (namespace-scoped) kubeconfig: every object labeled
# app.coder.io/workspace=<ws> of each kind the workspace identity's Roles let it create,
# owners before what they own, so no controller recreates what was just deleted:
#   1. VirtualMachinePools (pool.kubevirt.io)     they make VMs
#   2. VirtualMachineInstanceReplicaSets          they make VMIs
#   3. VirtualMachines                            they make VMIs and own their DataVolume templates
#   4. VirtualMachineInstances                    standalone ones (a VM's go with it)
#   5. DataVolumes (cdi.kubevirt.io)              build disks, imports, clones
#   6. PersistentVolumeClaims                     disks made without a DataVolume
# Images are never deleted: they are what a build produces (and publishing is additive). Equivalent to, kind by kind,
#   kubectl -n packer-dev delete <kind> -l app.coder.io/workspace=<ws>
#
# A kind the cluster does not serve (no pool CRD) holds nothing and is skipped. Pools and
# VMI replica sets are optional: a refused delete of one of them is no failure when the
# identity may not create that kind either (`kubectl auth can-i create` says "no"). Any other
# failed kind is loud: the script goes on with the next kinds, then prints a line
#   sweep: FAILED: build objects left in <namespace>: <kind>/<name> ... (<why>)
# (or, when even listing them fails, the kinds and the label selector they carry), the
# command to clean up by hand, and exits 1, so Coder marks the stop script as failed in the
# agent's log. The stop itself goes on either way: Coder does not wait for a stop script.
# The deletes do not wait for the objects to go away (--wait=false). All the deletes together
# take at most SWEEP_TIMEOUT seconds, and all the listings after failed deletes at most
# SWEEP_LIST_TIMEOUT (each kubectl gets what is left, and is killed 5 s after it), so a slow
# or unreachable API server cannot hold up the stop beyond the pod's grace period.
#
# Inputs (environment variables; the template prepends NAME='value' lines right after
# the shebang line):
#   SWEEP_WORKSPACE     required: <ws>, the value of the app.coder.io/workspace label on
#                       this workspace's build objects. Empty or invalid = nothing is deleted
#                       (and the sweep fails).
#   SWEEP_NAMESPACE     the build namespace. Default packer-dev.
#   SWEEP_KUBECONFIG    kubeconfig of the workspace identity.
#                       Default "$KUBECONFIG", else /etc/packer-kubeconfig.yaml.
#   SWEEP_TIMEOUT       seconds for all the deletes. Default 60.
#   SWEEP_LIST_TIMEOUT  seconds for listing what is left after failed deletes. Default 10.
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

# Owners first (see the header). The optional ones may be outside the identity's Roles.
kinds=(
  virtualmachinepools.pool.kubevirt.io
  virtualmachineinstancereplicasets.kubevirt.io
  virtualmachines.kubevirt.io
  virtualmachineinstances.kubevirt.io
  datavolumes.cdi.kubevirt.io
  persistentvolumeclaims
)
optional_kinds=" virtualmachinepools.pool.kubevirt.io virtualmachineinstancereplicasets.kubevirt.io "
all_kinds="$(
  IFS=,
  echo "${kinds[*]}"
)"

# Says what may be left and how to delete it, then fails the script.
# $1: why the sweep did not (fully) happen; $2: what is left (kind/name ...), when known;
# $3: the kinds to clean up (comma-separated). Default: all of them.
fail_sweep() {
  local why="$1" left="${2:-}" cleanup="${3:-${all_kinds}}"
  if [[ -n "${left}" ]]; then
    log "FAILED: build objects left in ${namespace}: ${left} (${why})"
  else
    log "FAILED: build objects labeled ${selector} in ${namespace} may be left (${why})"
  fi
  log "to clean up by hand: kubectl -n ${namespace} delete ${cleanup} -l ${selector}"
  exit 1
}

# A Kubernetes label value: at most 63 characters, alphanumerics with - _ . inside.
# An empty value would select objects that carry the label with no value, so it is refused.
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

# Seconds left until the deadline $1 (in bash's SECONDS), 0 when it has passed.
seconds_left() {
  local left=$(($1 - SECONDS))
  echo $((left > 0 ? left : 0))
}

if ! command -v timeout >/dev/null; then
  log "no timeout command in the image; relying on kubectl's --request-timeout alone"
fi
log "deleting objects labeled ${selector} in namespace ${namespace} (timeout ${timeout_s}s)"
delete_deadline=$((SECONDS + timeout_s))
failed_kinds=() why=""
err="$(mktemp "${TMPDIR:-/tmp}/sweep.XXXXXX")" || err=/dev/null
for kind in "${kinds[@]}"; do
  left="$(seconds_left "${delete_deadline}")"
  if ((left == 0)); then
    failed_kinds+=("${kind}")
    why="${why:-the deletes did not finish within ${timeout_s}s}"
    continue
  fi
  status=0
  bounded_kubectl "${left}" delete "${kind}" --selector "${selector}" \
    --ignore-not-found --wait=false >&2 2>"${err}" || status=$?
  cat "${err}" >&2 2>/dev/null
  ((status == 0)) && continue
  # A kind the API server does not serve holds nothing of this workspace.
  if grep -q "doesn't have a resource type" "${err}" 2>/dev/null; then
    log "${kind} is not served by this cluster; nothing of it to delete"
    continue
  fi
  case "${status}" in
    124 | 137) log "deleting ${kind}: kubectl did not finish within ${left}s" ;;
    *) log "deleting ${kind}: kubectl exited with status ${status}" ;;
  esac
  case "${status}" in
    124 | 137) why="${why:-kubectl did not finish within ${timeout_s}s}" ;;
    *) why="${why:-kubectl exited with status ${status}}" ;;
  esac
  failed_kinds+=("${kind}")
done
[[ "${err}" == /dev/null ]] || rm -f "${err}"

if ((${#failed_kinds[@]} == 0)); then
  log "done: delete requested for every object labeled ${selector} in ${namespace} (none listed above = none were left)"
  exit 0
fi
log "${why}; listing what is left"

# What is left, by kind and name: `kubectl get --output name` prints one `<kind>.<group>/<name>`
# per line. Names are Kubernetes names; anything else in the output is not printed.
list_deadline=$((SECONDS + list_timeout_s))
left_names="" unlisted=()
for kind in "${failed_kinds[@]}"; do
  limit="$(seconds_left "${list_deadline}")"
  listing="" list_status=1
  if ((limit > 0)); then
    list_status=0
    listing="$(bounded_kubectl "${limit}" get "${kind}" --selector "${selector}" \
      --ignore-not-found --output name)" || list_status=$?
  fi
  if ((list_status != 0)); then
    # An optional kind the identity may not create cannot hold anything it made.
    limit="$(seconds_left "${list_deadline}")"
    if [[ "${optional_kinds}" == *" ${kind} "* ]] && ((limit > 0)) &&
      [[ "$(bounded_kubectl "${limit}" auth can-i create "${kind}" 2>/dev/null)" == no ]]; then
      log "this identity may not create ${kind}; none of them can be its own"
      continue
    fi
    unlisted+=("${kind}")
    continue
  fi
  while IFS= read -r line; do
    name="${line##*/}"
    if [[ "${name}" =~ ^[a-z0-9]([-a-z0-9.]*[a-z0-9])?$ ]]; then
      left_names="${left_names:+${left_names} }${kind%%.*}/${name}"
    fi
  done <<<"${listing}"
done

if ((${#unlisted[@]} > 0)); then
  fail_sweep "${why}; listing ${unlisted[*]} failed too" "${left_names}" "$(
    IFS=,
    echo "${failed_kinds[*]}"
  )"
fi
if [[ -z "${left_names}" ]]; then
  log "nothing labeled ${selector} is left in ${namespace}, although a delete failed (${why})"
  exit 0
fi
fail_sweep "${why}" "${left_names}" "$(
  IFS=,
  echo "${failed_kinds[*]}"
)"
