#!/bin/sh
# Dev Container postAttachCommand: coder_script "devcontainer_post_attach" (non-blocking).
#
# Coder has no attach event, so postAttachCommand runs once per start: after the lifecycle
# script (lifecycle.sh) has finished, and only if it succeeded. The script resource always
# exists (its count cannot depend on image metadata); without a hook it exits 0 at once.
#
# POSIX sh on purpose: a Dev Container image need not have bash.
#
# Inputs, prepended by the template as single-quoted assignments after line 1:
#   DC_WORKSPACE_FOLDER           (required with a hook) folder the hook runs in.
#                                 Example: /workspaces/app
#   DC_HOOK_POST_ATTACH_COMMAND   base64 of lifecycle_scripts.postAttachCommand, or ''.
#                                 Example: ZWNobyBoZWxsbwo= ("echo hello")
#   DC_STATUS_FILE                the lifecycle script's status file.
#                                 Default /tmp/devcontainer-lifecycle.status; only tests change it.
#   DC_WAIT_TIMEOUT_SECONDS       how long to wait for that file. Default 1800 (30 minutes).
#   DC_WAIT_INTERVAL_SECONDS      poll interval, fractions allowed where sleep takes them.
#                                 Default 2.
# From the agent's environment: HOME.
#
# Exit status: 0 with no hook, 1 on timeout or a failed lifecycle script, else the hook's.

set -u

log() {
  printf 'devcontainer-post-attach: %s\n' "$*" >&2
}

encoded=${DC_HOOK_POST_ATTACH_COMMAND-}
if [ -z "$encoded" ]; then
  exit 0
fi

status_file=${DC_STATUS_FILE:-/tmp/devcontainer-lifecycle.status}
timeout=${DC_WAIT_TIMEOUT_SECONDS:-1800}
interval=${DC_WAIT_INTERVAL_SECONDS:-2}
case $timeout in
  '' | *[!0-9]*)
    log "DC_WAIT_TIMEOUT_SECONDS must be whole seconds, not '$timeout'; using 1800"
    timeout=1800
    ;;
esac
if [ -z "${DC_WORKSPACE_FOLDER-}" ] || [ -z "${HOME-}" ]; then
  log "missing input: DC_WORKSPACE_FOLDER or HOME (a template bug)"
  exit 1
fi

log "waiting for the Dev Container lifecycle script to finish"
started=$(date +%s)
until [ -s "$status_file" ]; do
  now=$(date +%s)
  # -gt: whole-second clock readings must never cut the wait short.
  if [ $((now - started)) -gt "$timeout" ]; then
    log "the lifecycle script did not finish within $timeout seconds; not running postAttachCommand"
    exit 1
  fi
  sleep "$interval"
done

status=$(cat "$status_file")
if [ "$status" != 0 ]; then
  log "the lifecycle script failed (exit status $status); not running postAttachCommand"
  exit 1
fi

hook_dir=$HOME/.cache/devcontainer-lifecycle
hook_file=$hook_dir/postAttachCommand.sh
if ! mkdir -p "$hook_dir" || ! printf '%s' "$encoded" | base64 -d >"$hook_file"; then
  log "cannot write $hook_file"
  exit 1
fi
if ! cd "$DC_WORKSPACE_FOLDER"; then
  log "cannot enter $DC_WORKSPACE_FOLDER"
  exit 1
fi
log "running postAttachCommand"
exec sh "$hook_file" </dev/null
