#!/usr/bin/env bash
# Entrypoint of the packer-builder workspace container.
#
# Runs three steps in order, then replaces itself with the Coder agent:
#   ca-fetch        download the organization CA (skipped when BOOTSTRAP_CA_URL is empty)
#   ca-install      build a CA bundle (system roots + that CA) and point the usual
#                   SSL_CERT_FILE / CURL_CA_BUNDLE / GIT_SSL_CAINFO / REQUESTS_CA_BUNDLE /
#                   NODE_EXTRA_CA_CERTS variables at it, so the agent and every tool it
#                   starts (packer, git, curl, kubectl) trust the organization CA
#   plugin-install  `packer plugins install --path` the plugin binary baked into the image
#                   (skipped when BOOTSTRAP_PACKER_PLUGIN_PATH is empty)
#   agent-exec      `exec sh -c "$BOOTSTRAP_AGENT_INIT_SCRIPT"`
# Each step says what it does on stderr. The first failure stops the container with
#   bootstrap: step "<name>" failed: <reason>
# which is what the workspace build log and `kubectl logs` show.
#
# The container is non-root, so the CA is not written into the system trust store; the
# bundle lives in a file the workspace user owns.
#
# Inputs (environment variables; the template sets them on the container or prepends
# NAME='value' lines right after the shebang line):
#   BOOTSTRAP_AGENT_INIT_SCRIPT     required: the Coder agent init script (its content, a sh
#                                   script). Unset before the exec so sessions don't inherit it.
#   BOOTSTRAP_CA_URL                URL of the organization CA (PEM). Default "" = no CA step.
#                                   Must not carry credentials. https://, or http:// only
#                                   together with BOOTSTRAP_CA_SHA256: an unpinned CA over
#                                   plain http would let anyone on the path plant a root.
#   BOOTSTRAP_CA_SHA256             hex SHA-256 the fetched PEM must match (pinning).
#                                   Default "" = trust what https delivers.
#   BOOTSTRAP_CA_FETCH_TIMEOUT      seconds for the whole download. Default 30.
#   BOOTSTRAP_CA_BUNDLE             where the combined bundle is written.
#                                   Default "$HOME/.local/share/packer-builder/ca-bundle.pem".
#   BOOTSTRAP_SYSTEM_CA_BUNDLE      system roots to start the bundle from. Default: the first
#                                   of the Debian, RHEL and Alpine locations that exists.
#   BOOTSTRAP_PACKER_PLUGIN_PATH    plugin binary in the image. Default "" = no plugin step.
#   BOOTSTRAP_PACKER_PLUGIN_SOURCE  plugin source address (e.g. github.com/<org>/harvester);
#                                   required when the path is set.
#   BOOTSTRAP_PLUGIN_INSTALL_TIMEOUT seconds for the plugin install. Default 120.
# Needs: bash, curl (CA step), packer (plugin step), coreutils (timeout, sha256sum).

set -Eeuo pipefail

step="start"
# Any command failing unexpectedly still names the step. Subshells inherit the trap
# (set -E), and only the main shell reports, so the message appears once.
on_error() {
  local status=$?
  if [[ "${BASHPID}" == "$$" ]]; then
    echo "bootstrap: step \"${step}\" failed: command exited with status ${status}" >&2
  fi
  exit "${status}"
}
trap on_error ERR

log() { echo "bootstrap: $*" >&2; }

# Stops the container naming the current step.
fail() {
  trap - ERR
  echo "bootstrap: step \"${step}\" failed: $*" >&2
  exit 1
}

# A URL for the log: without user:password@ and without the query string, in case an
# operator put something there that should not be printed.
printable_url() {
  local url="${1%%\?*}"
  if [[ "${url}" =~ ^([a-zA-Z][a-zA-Z0-9+.-]*://)[^/@]*@(.*)$ ]]; then
    url="${BASH_REMATCH[1]}${BASH_REMATCH[2]}"
  fi
  printf '%s' "${url}"
}

fetch_ca() {
  step="ca-fetch"
  local url="${BOOTSTRAP_CA_URL}" timeout_s="${BOOTSTRAP_CA_FETCH_TIMEOUT:-30}"
  command -v curl >/dev/null || fail "curl is not installed in the image"
  local pin="${BOOTSTRAP_CA_SHA256:-}" protocols="=https"
  if [[ -n "${pin}" && ! "${pin}" =~ ^[0-9A-Fa-f]{64}$ ]]; then
    fail "BOOTSTRAP_CA_SHA256 is not a SHA-256 (64 hexadecimal digits)"
  fi
  if [[ "${url,,}" == http://* ]]; then
    [[ -n "${pin}" ]] ||
      fail "$(printable_url "${url}") is plain http and no SHA-256 pins the CA; use https or set ca_sha256"
    protocols="=http,https"
  elif [[ "${url,,}" != https://* ]]; then
    fail "$(printable_url "${url}") is not an https:// URL"
  fi
  log "fetching the organization CA from $(printable_url "${url}") (timeout ${timeout_s}s${pin:+, pinned})"
  # --proto: https only (http too when the CA is pinned); --proto-redir: a redirect never
  # leads to plain http. The URL is data, never parsed as an option.
  if ! curl --fail --silent --show-error --location --proto "${protocols}" --proto-redir '=https' \
    --max-time "${timeout_s}" --output "${ca_file}" --url "${url}"; then
    fail "could not download $(printable_url "${url}")"
  fi
  grep -q -- '-----BEGIN CERTIFICATE-----' "${ca_file}" ||
    fail "$(printable_url "${url}") did not return a PEM certificate"
  if [[ -n "${pin}" ]]; then
    local actual
    actual="$(sha256sum "${ca_file}" | cut -d' ' -f1)"
    [[ "${actual}" == "${pin,,}" ]] ||
      fail "SHA-256 of the CA is ${actual}, expected ${pin}"
  fi
}

install_ca() {
  step="ca-install"
  local bundle="${BOOTSTRAP_CA_BUNDLE:-${HOME:-/tmp}/.local/share/packer-builder/ca-bundle.pem}"
  local system="${BOOTSTRAP_SYSTEM_CA_BUNDLE:-}" candidate
  if [[ -z "${system}" ]]; then
    for candidate in /etc/ssl/certs/ca-certificates.crt /etc/pki/tls/certs/ca-bundle.crt /etc/ssl/cert.pem; do
      if [[ -r "${candidate}" ]]; then
        system="${candidate}"
        break
      fi
    done
  fi
  mkdir -p "$(dirname "${bundle}")" || fail "cannot create the directory of ${bundle}"
  {
    if [[ -n "${system}" ]]; then cat "${system}"; fi
    cat "${ca_file}"
  } >"${bundle}.tmp" || fail "cannot write ${bundle}"
  mv -f "${bundle}.tmp" "${bundle}"
  export SSL_CERT_FILE="${bundle}" CURL_CA_BUNDLE="${bundle}" GIT_SSL_CAINFO="${bundle}"
  export REQUESTS_CA_BUNDLE="${bundle}" NODE_EXTRA_CA_CERTS="${bundle}"
  log "trusting the organization CA through ${bundle} (system roots: ${system:-none found})"
}

install_plugin() {
  step="plugin-install"
  local path="${BOOTSTRAP_PACKER_PLUGIN_PATH:-}" source="${BOOTSTRAP_PACKER_PLUGIN_SOURCE:-}"
  local timeout_s="${BOOTSTRAP_PLUGIN_INSTALL_TIMEOUT:-120}"
  if [[ -z "${path}" ]]; then
    log "no Packer plugin configured (BOOTSTRAP_PACKER_PLUGIN_PATH is empty); skipping"
    return 0
  fi
  [[ -n "${source}" ]] || fail "BOOTSTRAP_PACKER_PLUGIN_SOURCE is empty (needed with BOOTSTRAP_PACKER_PLUGIN_PATH)"
  [[ -f "${path}" ]] || fail "plugin binary ${path} is not in the image (rebuild the image?)"
  command -v packer >/dev/null || fail "packer is not installed in the image"
  log "installing Packer plugin ${source} from ${path} (timeout ${timeout_s}s)"
  local status=0
  if command -v timeout >/dev/null; then
    timeout --kill-after=5 "${timeout_s}" packer plugins install --path "${path}" "${source}" >&2 || status=$?
  else
    log "no timeout command in the image; running the install unbounded"
    packer plugins install --path "${path}" "${source}" >&2 || status=$?
  fi
  if ((status == 124 || status == 137)); then
    fail "packer plugins install timed out after ${timeout_s}s"
  elif ((status != 0)); then
    fail "packer plugins install exited with status ${status}"
  fi
}

exec_agent() {
  step="agent-exec"
  local init="${BOOTSTRAP_AGENT_INIT_SCRIPT:-}"
  [[ -n "${init}" ]] || fail "BOOTSTRAP_AGENT_INIT_SCRIPT is empty: nothing to start"
  unset BOOTSTRAP_AGENT_INIT_SCRIPT
  log "starting the Coder agent"
  trap - ERR
  exec sh -c "${init}"
}

if [[ -n "${BOOTSTRAP_CA_URL:-}" ]]; then
  step="ca-fetch"
  ca_file="$(mktemp "${TMPDIR:-/tmp}/org-ca.XXXXXX")"
  fetch_ca
  install_ca
  rm -f "${ca_file}"
else
  log "no organization CA configured (BOOTSTRAP_CA_URL is empty); keeping the image's trust store"
fi
install_plugin
exec_agent
