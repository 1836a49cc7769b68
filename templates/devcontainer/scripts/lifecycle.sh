#!/bin/sh
# Dev Container lifecycle: coder_script "devcontainer_lifecycle" (start_blocks_login = true).
#
# On the first start it clones the repository into the workspace folder, at the commit the
# image was built from. On every start it then runs the Dev Container lifecycle hooks, because
# the root filesystem is fresh each time. Its exit status is written to a status file that the
# postAttachCommand script (post-attach.sh) waits for.
#
# POSIX sh on purpose: a Dev Container image need not have bash (Alpine, BusyBox).
#
# Inputs. The template prepends them as single-quoted assignments right after line 1, so they
# are plain shell variables. The DC_ prefix is safe: the pod's wrapper unsets every DC_*
# variable before it starts the agent, so none can leak in from containerEnv.
#   DC_WORKSPACE_FOLDER  (required) folder to clone into and to run hooks from.
#                        Example: /workspaces/app
#   DC_REPOSITORY        (required) the "repository" parameter: https, ssh:// or scp-style.
#                        Example: git@github.com:acme/app.git
#   DC_BRANCH            (required) the "branch" parameter. Example: main
#   DC_COMMIT            the build's commit (full SHA), or '' when the service did not report
#                        one. Example: 3f2a9c0d5e6b7a8f9e0d1c2b3a4f5e6d7c8b9a0f
#   DC_HOOK_INITIALIZE_COMMAND, DC_HOOK_ON_CREATE_COMMAND, DC_HOOK_UPDATE_CONTENT_COMMAND,
#   DC_HOOK_POST_CREATE_COMMAND, DC_HOOK_POST_START_COMMAND
#                        base64 of the rendered hook from lifecycle_scripts, or '' for none.
#                        Example: ZWNobyBoZWxsbwo= ("echo hello")
#   DC_STATUS_FILE       where the exit status goes.
#                        Default /tmp/devcontainer-lifecycle.status; only tests change it.
# From the agent's environment: HOME, PATH, and for private repositories GIT_ASKPASS (https)
# or GIT_SSH_COMMAND (ssh). This script never handles a token itself.
#
# Exit status: 0, 1 when the clone failed or git is missing, or the first failing hook's status.

set -u

log() {
  printf 'devcontainer-lifecycle: %s\n' "$*" >&2
}

status_file=${DC_STATUS_FILE:-/tmp/devcontainer-lifecycle.status}

# Atomic, so that a reader polling for a non-empty file never sees a partial write.
# shellcheck disable=SC2317 # only called from the EXIT trap
write_status() {
  printf '%s\n' "$1" >"$status_file.tmp" && mv -f "$status_file.tmp" "$status_file"
}

rm -f "$status_file" "$status_file.tmp"
trap 'write_status "$?"' EXIT
# A stop signal still leaves a (failed) status behind, so the postAttach waiter ends at once.
trap 'exit 129' HUP
trap 'exit 130' INT
trap 'exit 143' TERM

missing=
for name in DC_WORKSPACE_FOLDER DC_REPOSITORY DC_BRANCH HOME; do
  eval "value=\${$name-}"
  [ -n "$value" ] || missing="$missing $name"
done
if [ -n "$missing" ]; then
  log "missing input:$missing (a template bug)"
  exit 1
fi

folder=$DC_WORKSPACE_FOLDER
repository=$DC_REPOSITORY
branch=$DC_BRANCH
commit=${DC_COMMIT-}
# The build's commit is a full object name (SHA-1 or SHA-256, lowercase hex). Anything else
# never reaches git, where a value such as --upload-pack=... would be read as an option: the
# clone then checks out the branch, as without a commit.
is_object_name() {
  case $1 in '' | *[!0-9a-f]*) return 1 ;; esac
  [ ${#1} -eq 40 ] || [ ${#1} -eq 64 ]
}
if [ -n "$commit" ] && ! is_object_name "$commit"; then
  log "the build's commit is not a commit id; checking out origin/$branch instead"
  commit=
fi
hook_dir=$HOME/.cache/devcontainer-lifecycle
git_dir=$folder/.git
# The clone is finished: the working copy belongs to the user and is never touched again.
marker=$git_dir/devcontainer-cloned
# This script's clone is under way. Written into .git before anything else is, so that a .git
# without it is never this script's and is never deleted: only an interrupted clone carries it.
in_progress=$git_dir/devcontainer-clone-in-progress

if ! mkdir -p "$hook_dir"; then
  log "cannot create $hook_dir"
  exit 1
fi

# For log lines only: credentials embedded in an http(s) URL must never reach the log.
display_url() {
  printf '%s\n' "$1" | sed -e 's#^\([Hh][Tt][Tt][Pp][Ss]*://\)[^/@]*@#\1***@#'
}

# Prints "host port" (port may be empty) for ssh:// and scp-style URLs; nothing for others.
ssh_host_of() {
  url=$1
  case $url in
    ssh://* | git+ssh://* | ssh+git://*)
      rest=${url#*://}
      rest=${rest%%/*}
      rest=${rest##*@}
      ;;
    *://*) return 0 ;;
    *)
      # scp-style: [user@]host:path, recognized by git only when a colon comes before any slash.
      before_slash=${url%%/*}
      case $before_slash in *:*) ;; *) return 0 ;; esac
      rest=${url%%:*}
      rest=${rest##*@}
      printf '%s \n' "$rest"
      return 0
      ;;
  esac
  case $rest in
    \[*\]:*) host=${rest%%]*}; host=${host#\[}; port=${rest##*]:} ;;
    \[*\]) host=${rest#\[}; host=${host%]}; port= ;;
    *:*) host=${rest%%:*}; port=${rest#*:} ;;
    *) host=$rest; port= ;;
  esac
  printf '%s %s\n' "$host" "$port"
}

# Best effort: a missing host key would make the first ssh fetch stop at a prompt.
ensure_known_host() {
  host_port=$(ssh_host_of "$repository")
  [ -n "$host_port" ] || return 0
  host=${host_port%% *}
  port=${host_port#* }
  [ -n "$host" ] || return 0
  if [ -n "$port" ] && [ "$port" != 22 ]; then
    entry="[$host]:$port"
    set -- -p "$port"
  else
    entry=$host
    set --
  fi
  known_hosts=$HOME/.ssh/known_hosts
  if [ -f "$known_hosts" ]; then
    if command -v ssh-keygen >/dev/null 2>&1; then
      # Also finds hashed entries.
      if ssh-keygen -F "$entry" -f "$known_hosts" >/dev/null 2>&1; then return 0; fi
    elif grep -q -F -e "$entry " -e "$entry," "$known_hosts" 2>/dev/null; then
      return 0
    fi
  fi
  if ! command -v ssh-keyscan >/dev/null 2>&1; then
    log "ssh-keyscan is not installed; cannot record the host key of $entry"
    return 0
  fi
  mkdir -p "$HOME/.ssh" && chmod 700 "$HOME/.ssh" || return 0
  if ssh-keyscan -H "$@" "$host" >"$known_hosts.scan" 2>/dev/null && [ -s "$known_hosts.scan" ]; then
    cat "$known_hosts.scan" >>"$known_hosts"
    log "added the host key of $entry to $known_hosts"
  else
    log "could not read the host key of $entry; the fetch may fail"
  fi
  rm -f "$known_hosts.scan"
}

# Clones into $folder. $1 is 1 in retry mode (after an interrupted clone), else 0.
# Runs git in this shell (never in a subshell), in $folder.
clone() {
  retry=$1
  ensure_known_host
  if ! mkdir -p "$folder" || ! cd "$folder"; then
    log "cannot create $folder"
    return 1
  fi
  # An empty repository in place rather than "git clone", because the folder may already
  # hold mount points (a node_modules volume, say). symbolic-ref rather than "init -b",
  # which needs git 2.28. .git is created here, holding the in-progress marker, before git
  # init fills it: a stop at any point leaves either an empty .git or a marked one.
  log "cloning branch $branch of $(display_url "$repository") into $folder"
  if ! mkdir "$git_dir" || ! printf '' >"$in_progress"; then
    log "cannot create $git_dir"
    rmdir "$git_dir" 2>/dev/null
    return 1
  fi
  if ! {
    git init -q &&
      git symbolic-ref HEAD "refs/heads/$branch" &&
      git remote add origin "$repository" &&
      git fetch origin "+refs/heads/$branch:refs/remotes/origin/$branch"
  }; then
    log "the clone failed; removing $git_dir, the next start tries again"
    rm -rf "$git_dir"
    return 1
  fi

  target=origin/$branch
  if [ -n "$commit" ]; then
    if git cat-file -e "$commit^{commit}" 2>/dev/null ||
      { git fetch -q origin "$commit" && git cat-file -e "$commit^{commit}" 2>/dev/null; }; then
      target=$commit
    else
      log "the image's commit $commit cannot be fetched; checking out origin/$branch instead"
    fi
  fi

  if [ "$retry" = 1 ]; then set -- -f; else set --; fi
  if ! git checkout -q "$@" -B "$branch" "$target"; then
    if [ "$retry" = 1 ]; then
      log "the checkout failed; the next start tries again"
    else
      log "the checkout failed (files already in $folder that are in the way are listed above); removing $git_dir"
      rm -rf "$git_dir"
    fi
    return 1
  fi
  if ! git branch -q --set-upstream-to="origin/$branch" "$branch"; then
    log "could not set the upstream of $branch to origin/$branch (continuing)"
  fi
  # printf, not ":": a failed redirection of a special builtin would end the shell.
  if ! printf '' >"$marker"; then
    log "cannot write $marker; the next start clones again"
    return 1
  fi
  rm -f "$in_progress"
  log "checked out $branch at $(git rev-parse --short HEAD)"
}

# A .git this script did not create (or finish creating): says what it is and keeps it.
# Never deletes or rewrites anything; marks a plain repository with a commit as cloned.
keep_existing_git() {
  if [ -L "$git_dir" ]; then
    log "$git_dir is a symbolic link; keeping it and not cloning"
    return 0
  fi
  if [ ! -d "$git_dir" ]; then
    gitdir_line=
    IFS= read -r gitdir_line <"$git_dir" 2>/dev/null
    case $gitdir_line in
      'gitdir: '*) log "$git_dir is a file pointing at ${gitdir_line#gitdir: } (a linked worktree or a submodule); keeping it and not cloning" ;;
      *) log "$git_dir is a file but no git link; keeping it and not cloning" ;;
    esac
    return 0
  fi
  if ! command -v git >/dev/null 2>&1; then
    log "$folder holds a .git this template did not create; keeping it (this image has no git to look at it)"
    return 0
  fi
  # GIT_DIR keeps git from walking up to a parent repository when .git is broken.
  if head=$(GIT_DIR=$git_dir git rev-parse --verify -q 'HEAD^{commit}' 2>/dev/null); then
    # A real working copy, e.g. one cloned by an older template version: keep and mark it.
    log "$folder already holds a working copy at ${head%"${head#???????}"}; keeping it"
    printf '' >"$marker" || log "cannot write $marker (continuing)"
    return 0
  fi
  if ! problem=$(GIT_DIR=$git_dir git rev-parse --git-dir 2>&1 >/dev/null); then
    log "$git_dir is a repository that this image's git cannot read ($(printf '%s' "$problem" | tr '\n' ' ')); keeping it and not cloning"
  elif ref=$(GIT_DIR=$git_dir git symbolic-ref -q HEAD 2>/dev/null); then
    log "$git_dir is a repository whose branch ${ref#refs/heads/} has no commit yet; keeping it and not cloning"
  else
    log "$git_dir is a repository whose HEAD names no commit; keeping it and not cloning"
  fi
  log "to have this template clone $(display_url "$repository") instead, move $git_dir away and restart the workspace"
  return 0
}

prepare_working_copy() {
  if [ -d "$git_dir" ] && [ ! -L "$git_dir" ] && [ -e "$marker" ]; then
    log "$folder is already cloned; leaving it as it is"
    return 0
  fi
  retry=0
  ours=0
  if [ -d "$git_dir" ] && [ ! -L "$git_dir" ] && [ -e "$in_progress" ]; then
    ours=1
  elif [ -e "$git_dir" ] || [ -L "$git_dir" ]; then
    # rmdir removes only an empty directory: a start stopped right after creating .git.
    if [ -L "$git_dir" ] || [ ! -d "$git_dir" ] || ! rmdir "$git_dir" 2>/dev/null; then
      keep_existing_git
      return 0
    fi
  fi
  # Checked before an interrupted clone is removed: without git it could not be redone.
  if ! command -v git >/dev/null 2>&1; then
    log "ERROR: this image has no git, so the repository cannot be cloned."
    log "Add the Feature ghcr.io/devcontainers/features/git:1 to devcontainer.json and rebuild the workspace."
    return 1
  fi
  if [ "$ours" = 1 ]; then
    log "found this template's interrupted clone in $folder; removing its .git and cloning again"
    rm -rf "$git_dir"
    retry=1
  fi
  clone "$retry"
}

run_hooks() {
  for hook in initializeCommand onCreateCommand updateContentCommand postCreateCommand postStartCommand; do
    case $hook in
      initializeCommand) encoded=${DC_HOOK_INITIALIZE_COMMAND-} ;;
      onCreateCommand) encoded=${DC_HOOK_ON_CREATE_COMMAND-} ;;
      updateContentCommand) encoded=${DC_HOOK_UPDATE_CONTENT_COMMAND-} ;;
      postCreateCommand) encoded=${DC_HOOK_POST_CREATE_COMMAND-} ;;
      postStartCommand) encoded=${DC_HOOK_POST_START_COMMAND-} ;;
    esac
    [ -n "$encoded" ] || continue
    hook_file=$hook_dir/$hook.sh
    if ! printf '%s' "$encoded" | base64 -d >"$hook_file"; then
      log "cannot decode $hook"
      return 1
    fi
    log "running $hook"
    (cd "$folder" && exec sh "$hook_file" </dev/null)
    rc=$?
    if [ "$rc" -ne 0 ]; then
      log "$hook failed with exit status $rc"
      return "$rc"
    fi
  done
}

prepare_working_copy || exit 1
run_hooks || exit $?
log "done"
exit 0
