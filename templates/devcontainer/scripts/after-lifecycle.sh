#!/bin/sh
# Dev Container hooks after login: coder_script "devcontainer_lifecycle_background" (the hooks
# after waitFor: updateContentCommand, postCreateCommand, postStartCommand, as the template
# passes them) and coder_script "devcontainer_post_attach" (postAttachCommand). Neither blocks
# login, unless waitFor names postAttachCommand (then the template makes the second one block).
#
# It waits for the login-blocking lifecycle script (lifecycle.sh) to finish, and runs its hooks
# only if that succeeded: in order, each from the workspace folder, stopping at the first that
# fails with its exit status, as the Dev Containers tools run the hooks after waitFor in the
# background. It waits for the login-blocking part only: a postStartCommand that never ends
# (a dev server in the foreground) holds neither login nor postAttachCommand. Coder has no
# attach event, so postAttachCommand runs once per start. The script resources always exist
# (their count cannot depend on image metadata); without a hook it exits 0 at once.
#
# POSIX sh on purpose: a Dev Container image need not have bash.
#
# Inputs, prepended by the template as single-quoted assignments after line 1:
#   DC_WORKSPACE_FOLDER           (required with a hook) folder the hooks run in.
#                                 Example: /workspaces/app
#   DC_HOOK_UPDATE_CONTENT_COMMAND, DC_HOOK_POST_CREATE_COMMAND, DC_HOOK_POST_START_COMMAND,
#   DC_HOOK_POST_ATTACH_COMMAND   base64 of the rendered hook, or '' for none (a hook that runs
#                                 before login is '' here). Example: ZWNobyBoZWxsbwo= ("echo hello")
#   DC_LOG_NAME                   what its log lines start with. Default devcontainer-after-lifecycle.
#   DC_STATE_FILE                 where it records what it is doing, for the workspace page's
#                                 metadata item (one line: waiting, running <hook>, done, or
#                                 what failed); '' for none. Written atomically.
#   DC_STATUS_FILE                the lifecycle script's status file.
#                                 Default /tmp/devcontainer-lifecycle.status; only tests change it.
#   DC_WAIT_TIMEOUT_SECONDS       how long to wait for that file. Default 1800 (30 minutes).
#   DC_WAIT_INTERVAL_SECONDS      poll interval, fractions allowed where sleep takes them.
#                                 Default 2.
#   DC_ATTACH_TIMEOUT_SECONDS     the most seconds, from this script's start, that login may
#                                 wait for it (the template's lifecycle_timeout_minutes when
#                                 waitFor makes postAttachCommand block login; the agent ends
#                                 the script at the same time): past it a running hook is ended
#                                 (TERM, then KILL, with all it started) and the state
#                                 file says so, some seconds before the agent's cut (issue
#                                 43.7). '' or 0: no limit.
# From the agent's environment: HOME.
#
# Exit status: 0 with no hook or when every hook succeeded, 1 on timeout or a failed lifecycle
# script, else the first failing hook's.

set -u

name=${DC_LOG_NAME:-devcontainer-after-lifecycle}
state_file=${DC_STATE_FILE-}

log() {
  printf '%s: %s\n' "$name" "$*" >&2
}

# One line, renamed into place: the metadata item never reads a partial write.
state() {
  [ -n "$state_file" ] || return 0
  if ! { printf '%s\n' "$*" >"$state_file.tmp" && mv -f "$state_file.tmp" "$state_file"; }; then
    log "cannot write $state_file (continuing)"
  fi
}

hooks=
for hook in updateContentCommand postCreateCommand postStartCommand postAttachCommand; do
  case $hook in
    updateContentCommand) encoded=${DC_HOOK_UPDATE_CONTENT_COMMAND-} ;;
    postCreateCommand) encoded=${DC_HOOK_POST_CREATE_COMMAND-} ;;
    postStartCommand) encoded=${DC_HOOK_POST_START_COMMAND-} ;;
    postAttachCommand) encoded=${DC_HOOK_POST_ATTACH_COMMAND-} ;;
  esac
  [ -z "$encoded" ] || hooks="$hooks $hook"
done
if [ -z "$hooks" ]; then
  state "none"
  exit 0
fi
hooks=${hooks# }

status_file=${DC_STATUS_FILE:-/tmp/devcontainer-lifecycle.status}
timeout=${DC_WAIT_TIMEOUT_SECONDS:-1800}
interval=${DC_WAIT_INTERVAL_SECONDS:-2}
case $timeout in
  '' | *[!0-9]*)
    log "DC_WAIT_TIMEOUT_SECONDS must be whole seconds, not '$timeout'; using 1800"
    timeout=1800
    ;;
esac
limit=${DC_ATTACH_TIMEOUT_SECONDS:-0}
case $limit in
  '' | *[!0-9]*)
    log "DC_ATTACH_TIMEOUT_SECONDS must be whole seconds, not '$limit'; no limit"
    limit=0
    ;;
esac
if [ -z "${DC_WORKSPACE_FOLDER-}" ] || [ -z "${HOME-}" ]; then
  log "missing input: DC_WORKSPACE_FOLDER or HOME (a template bug)"
  state "failed: a template bug (missing input)"
  exit 1
fi

log "waiting for the Dev Container lifecycle script to finish before $hooks"
state "waiting for the lifecycle script"
started=$(date +%s)
# The hook's own cut comes a little before the agent's (at started + limit), so that the
# state file can still say what happened.
margin=0
[ "$limit" -le 60 ] || margin=10
deadline=$((started + limit - margin))
until [ -s "$status_file" ]; do
  now=$(date +%s)
  if [ "$limit" -gt 0 ] && [ "$now" -ge "$deadline" ]; then
    log "login waited $limit seconds for the lifecycle script; not running $hooks"
    state "not run: timed out after $limit seconds (lifecycle_timeout_minutes) waiting for the lifecycle script"
    exit 1
  fi
  # -gt: whole-second clock readings must never cut the wait short.
  if [ $((now - started)) -gt "$timeout" ]; then
    log "the lifecycle script did not finish within $timeout seconds; not running $hooks"
    state "not run: the lifecycle script did not finish within $timeout seconds"
    exit 1
  fi
  sleep "$interval"
done

status=$(cat "$status_file")
if [ "$status" != 0 ]; then
  log "the lifecycle script failed (exit status $status); not running $hooks"
  state "not run: the lifecycle script failed"
  exit 1
fi

# The process $1 and its descendants, as " pid pid ... " (Linux /proc: a script without a
# terminal has no job control, so the hook gets no process group of its own to end).
process_tree() {
  pairs=$(for stat in /proc/[0-9]*/stat; do
    line=$(cat "$stat" 2>/dev/null) || continue
    rest=${line##*') '}
    # shellcheck disable=SC2086 # the fields after the command name are words
    set -- $rest
    printf '%s %s\n' "${line%% *}" "$2"
  done)
  tree=" $1 "
  grown=1
  while [ "$grown" = 1 ]; do
    grown=0
    while read -r child parent; do
      case $tree in *" $parent "*) case $tree in *" $child "*) ;; *) tree="$tree$child " grown=1 ;; esac ;; esac
    done <<EOF
$pairs
EOF
  done
  printf '%s' "$tree"
}

# Ends the process $1 and everything it started: frozen first (STOP), so that none is
# orphaned out of the tree while the others die, then TERM, and KILL a second later.
end_tree() {
  doomed=$(process_tree "$1")
  # shellcheck disable=SC2086 # a list of pids
  kill -STOP $doomed 2>/dev/null
  doomed=$(process_tree "$1")
  # shellcheck disable=SC2086
  kill -STOP $doomed 2>/dev/null
  # shellcheck disable=SC2086
  kill -TERM $doomed 2>/dev/null
  # shellcheck disable=SC2086
  kill -CONT $doomed 2>/dev/null
  sleep 1
  # shellcheck disable=SC2086
  kill -KILL $doomed 2>/dev/null
}

# Runs the hook file $2 in the background and waits for the status it writes to $1; rc is
# its exit status. Returns 1 when the deadline passes first, after ending the hook and all it
# started. (A finished child stays a zombie that kill -0 still finds until waited for, so the
# status file, not the process, tells that it has ended.)
run_until_deadline() {
  rm -f "$1"
  (cd "$DC_WORKSPACE_FOLDER" && sh "$2" </dev/null; echo "$?" >"$1.tmp" && mv -f "$1.tmp" "$1") &
  pid=$!
  until [ -s "$1" ]; do
    if [ "$(date +%s)" -ge "$deadline" ]; then
      end_tree "$pid"
      wait "$pid" 2>/dev/null
      return 1
    fi
    sleep "$interval"
  done
  wait "$pid"
  rc=$(cat "$1")
  return 0
}

hook_dir=$HOME/.cache/devcontainer-lifecycle
if ! mkdir -p "$hook_dir"; then
  log "cannot create $hook_dir"
  state "failed: cannot create $hook_dir"
  exit 1
fi
for hook in $hooks; do
  case $hook in
    updateContentCommand) encoded=$DC_HOOK_UPDATE_CONTENT_COMMAND ;;
    postCreateCommand) encoded=$DC_HOOK_POST_CREATE_COMMAND ;;
    postStartCommand) encoded=$DC_HOOK_POST_START_COMMAND ;;
    postAttachCommand) encoded=$DC_HOOK_POST_ATTACH_COMMAND ;;
  esac
  hook_file=$hook_dir/$hook.sh
  if ! printf '%s' "$encoded" | base64 -d >"$hook_file"; then
    log "cannot write $hook_file"
    state "failed: cannot decode $hook"
    exit 1
  fi
  log "running $hook"
  state "running $hook"
  if [ "$limit" -eq 0 ]; then
    (cd "$DC_WORKSPACE_FOLDER" && exec sh "$hook_file" </dev/null)
    rc=$?
  elif ! run_until_deadline "$hook_dir/$hook.rc" "$hook_file"; then
    log "$hook did not finish within $limit seconds (lifecycle_timeout_minutes); it was ended"
    state "$hook timed out after $limit seconds (lifecycle_timeout_minutes) and was ended; login no longer waits for it"
    exit 1
  fi
  if [ "$rc" -ne 0 ]; then
    log "$hook failed with exit status $rc"
    state "$hook failed with exit status $rc - see this script's log"
    exit "$rc"
  fi
done
log "done"
state "done"
exit 0
