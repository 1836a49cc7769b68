#!/bin/sh
# Dev Container lifecycle: coder_script "devcontainer_lifecycle" (start_blocks_login = true).
#
# On the first start it clones the repository into the workspace folder, at the commit the
# image was built from. On every start it then runs the Dev Container lifecycle hooks that hold
# login (those up to waitFor: the template passes '' for the later ones, which
# after-lifecycle.sh runs), because the root filesystem is fresh each time. Its exit status is
# written to a status file that the scripts after login (after-lifecycle.sh) wait for.
#
# POSIX sh on purpose: a Dev Container image need not have bash (Alpine, BusyBox).
#
# Inputs. The template prepends them as single-quoted assignments right after line 1, so they
# are plain shell variables. The DC_ prefix is safe: the pod's wrapper unsets every DC_*
# variable before it starts the agent, so none can leak in from containerEnv.
#   DC_WORKSPACE_FOLDER  (required) folder to run hooks from (workspaceFolder), and to clone
#                        into when DC_REPOSITORY_FOLDER is ''. Example: /workspaces/app
#   DC_REPOSITORY_FOLDER folder to clone into: workspaceMount's target when it names one, or
#                        /workspaces/<repo> when the workspace folder is a subfolder of it,
#                        else '' (the workspace folder). Example: /home/coder/cuml
#   DC_REPOSITORY        (required) the "repository" parameter: https, ssh:// or scp-style.
#                        Example: git@github.com:acme/app.git
#   DC_BRANCH            (required) the "branch" parameter. Example: main
#   DC_COMMIT            the build's commit (full SHA), or '' when the service did not report
#                        one. Example: 3f2a9c0d5e6b7a8f9e0d1c2b3a4f5e6d7c8b9a0f
#   DC_HOOK_INITIALIZE_COMMAND, DC_HOOK_ON_CREATE_COMMAND, DC_HOOK_UPDATE_CONTENT_COMMAND,
#   DC_HOOK_POST_CREATE_COMMAND, DC_HOOK_POST_START_COMMAND
#                        base64 of the rendered hook from lifecycle_scripts, or '' for none
#                        (and for a hook after waitFor).
#                        Example: ZWNobyBoZWxsbwo= ("echo hello")
#   DC_INITIALIZE_FOLDER_VARIABLE
#                        'workspace' when initializeCommand also names ${containerWorkspaceFolder}:
#                        $DEVCONTAINER_WORKSPACE_FOLDER then stays the workspace folder for it;
#                        else '' (it names the clone). It always runs in the clone.
#   DC_STATUS_FILE       where the exit status goes.
#                        Default /tmp/devcontainer-lifecycle.status; only tests change it.
# From the agent's environment: HOME, PATH, and for private repositories GIT_ASKPASS (https)
# or GIT_SSH_COMMAND (ssh). This script never handles a token itself.
#
# Exit status: 0, 1 when the clone failed or git is missing, or the first failing hook's status.
#
# An interrupted clone. While this script clones, .git holds the in-progress marker; once the
# checkout may have written files it reads "checkout". A later start deletes that .git and
# clones again only while it provably holds nothing but what the clone itself fetched: no
# branch at all, no index, and every ref, reflog entry and HEAD inside the fetched history.
# One whose checkout got as far as switching the branch is finished in place (upstream and
# marker), never deleted, when its branch is the only one, HEAD is on it, every commit is in
# the fetched history and "git status" reports nothing (no change, no file it cannot read).
# Anything else (another branch, a commit, a stash, an edit) is the user's: the marker is
# removed, the working copy is kept and marked as cloned, the log says what was found.
# The retry overwrites files in the way (checkout -f) only when the marker reads "checkout",
# which is written only when nothing stood at the paths the checkout writes: so it overwrites
# only files a stopped checkout of this clone wrote while no one could log in, never a file
# that was in the folder before (the user's, or the home's when the folder is the home).
# A failing checkout is not retried on every start: if it set the branch (it wrote part of the
# files, e.g. a file name too long or a full disk), the partial working copy is kept as the
# user's and marked as cloned, and this start fails once; if not, .git is removed and the
# next start tries again without overwriting anything. So every failed start leaves either no
# .git or the user's working copy, never an in-progress clone someone could work in.
# Needs git 1.8 or newer (branch --set-upstream-to); uses nothing newer.

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

folder=${DC_REPOSITORY_FOLDER:-$DC_WORKSPACE_FOLDER}
hooks_folder=$DC_WORKSPACE_FOLDER
# A template version that cloned into the workspace folder (a monorepo's subfolder, say) left
# its clone there: it stays the working copy, never a second clone around it.
if [ "$folder" != "$hooks_folder" ] && [ -e "$hooks_folder/.git/devcontainer-cloned" ] &&
  [ ! -e "$folder/.git" ]; then
  log "$hooks_folder holds this template's earlier clone; keeping it as the working copy (not cloning into $folder)"
  folder=$hooks_folder
fi
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
# The branch goes into git's argv and refspecs (refs/heads/$branch:…): it must be a branch
# name as git allows it, the same rule as the parameter's validation (lib/devcontainer/
# git-branch-name.ts), so that neither an option (--upload-pack=…) nor a line break, a `:`
# or a `*` ever reaches git, whatever value got past Coder.
is_branch_name() {
  case $1 in
    '' | -* | HEAD | @ | /* | */ | *. | .* | */.* | *..* | *//* | *.lock | *.lock/*) return 1 ;;
    *[[:cntrl:]]* | *[' ~^:?*[\{']*) return 1 ;;
  esac
}
if ! is_branch_name "$branch"; then
  log "the branch parameter '$(printf '%s' "$branch" | tr -c '[:print:]' '?')' is not a branch name git allows; not cloning"
  exit 1
fi
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

# For log lines only: credentials embedded in an http(s) URL must never reach the log, also
# behind git's <transport>::<address> form (https::https://token@host/...).
display_url() {
  printf '%s\n' "$1" | sed -e 's#^\(\([A-Za-z][A-Za-z0-9+.-]*::\)*[Hh][Tt][Tt][Pp][Ss]*://\)[^/@]*@#\1***@#'
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

# Makes the clone in $folder (the current directory) the user's working copy: sets the
# upstream, writes the marker, removes the in-progress marker. Only logs when a step fails:
# without either marker, the next start keeps the working copy too.
finish_clone() {
  if ! git branch -q --set-upstream-to="origin/$branch" "$branch"; then
    log "could not set the upstream of $branch to origin/$branch (continuing)"
  fi
  # printf, not ":": a failed redirection of a special builtin would end the shell.
  printf '' >"$marker" || log "cannot write $marker (continuing)"
  rm -f "$in_progress" || log "cannot remove $in_progress (continuing)"
}

# Whether the checkout of $target would meet something already in $folder (the current
# directory): anything where it writes a file, or a non-directory where it needs a directory.
# A name git prints quoted (a control character, a quote or a backslash in it) counts as in
# the way, as does a tree git cannot list: the answer only ever withholds the overwrite.
checkout_in_the_way() {
  listing=$(git -c core.quotePath=false ls-tree -r -t "$target") || return 0
  tab=$(printf '\t')
  printf '%s\n' "$listing" | {
    while IFS= read -r entry; do
      [ -n "$entry" ] || continue
      name=${entry#*"$tab"}
      case $name in '"'*) exit 0 ;; esac
      case ${entry%%"$tab"*} in
        *' tree '* | *' commit '*)
          if [ -L "$name" ] || { [ -e "$name" ] && [ ! -d "$name" ]; }; then exit 0; fi
          ;;
        *) if [ -e "$name" ] || [ -L "$name" ]; then exit 0; fi ;;
      esac
    done
    exit 1
  }
}

# Clones into $folder. $1 is 1 when files a stopped checkout of this clone wrote may be in the
# way (the checkout then overwrites them), else 0.
# Runs git in this shell (never in a subshell), in $folder.
clone() {
  force=$1
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
  if [ "$force" = 1 ]; then stage=checkout; else stage=; fi
  if ! mkdir "$git_dir" || ! printf '%s\n' "$stage" >"$in_progress"; then
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

  # From here on the checkout may write files: a retry after a stop must overwrite them, and
  # only them. So "checkout" is written only while nothing stands where the checkout writes;
  # with something in the way the checkout below refuses and lists it, and a retry after a
  # stop does the same. If this write fails, the retry does not overwrite, lists the files in
  # the way and fails. A forced retry's marker reads "checkout" already (written with .git).
  if [ "$force" = 0 ] && ! checkout_in_the_way; then
    printf 'checkout\n' >"$in_progress" || log "cannot write $in_progress (continuing)"
  fi
  if [ "$force" = 1 ]; then set -- -f; else set --; fi
  if ! git checkout -q "$@" -B "$branch" "$target"; then
    if git rev-parse --verify -q 'HEAD^{commit}' >/dev/null; then
      # The checkout set the branch and wrote part of the files: whatever made it fail (a
      # file name too long, a full disk) would fail a retry too. Kept, so no one works in a
      # copy that a later start could take for an interrupted clone.
      log "the checkout failed after it had set $branch and written part of the files (see the errors above)"
      finish_clone
      log "keeping this partial working copy as yours; the clone is not retried. \"git status\" in $folder lists the files that are missing or cannot be read"
      log "to have this template clone again instead, move $git_dir away and restart the workspace"
    elif [ "$force" = 1 ]; then
      log "the checkout failed; removing $git_dir, the next start tries again without overwriting files"
      rm -rf "$git_dir"
    else
      log "the checkout failed (files already in $folder that are in the way are listed above); removing $git_dir"
      rm -rf "$git_dir"
    fi
    return 1
  fi
  finish_clone
  log "checked out $branch at $(git rev-parse --short HEAD)"
}

# git on this template's clone in $git_dir only: GIT_DIR keeps git from walking up to a parent
# repository while .git is not one yet. The working tree is the current directory.
in_clone() {
  GIT_DIR=$git_dir git "$@"
}

# Looks at this template's interrupted clone in $folder (the current directory). Sets
# clone_state to "empty" (nothing but what it fetched, no branch yet: delete it and clone
# again), "checked-out" (its checkout completed and nothing was added: finish it) or "kept"
# (it holds something else; $found says what). Only asks git questions.
inspect_interrupted_clone() {
  found=
  head_ref=$(in_clone symbolic-ref -q HEAD 2>/dev/null)
  rc=$?
  if [ "$rc" -gt 1 ]; then
    # Stopped before or during "git init": not a repository yet.
    clone_state=empty
    return 0
  fi
  [ "$rc" -eq 0 ] || found="$found, a detached HEAD"
  has_branch=0
  has_fetched=0
  if ! refs=$(in_clone for-each-ref --format='%(refname)'); then
    found="$found, refs git cannot list"
  fi
  # Ref names hold no white space or glob characters.
  for ref in $refs; do
    case $ref in
      "refs/heads/$branch") has_branch=1 ;;
      "refs/remotes/origin/$branch") has_fetched=1 ;;
      # The fetch brings tags that point into what it fetched; the history check covers them.
      refs/tags/*) ;;
      refs/heads/*) found="$found, branch ${ref#refs/heads/}" ;;
      *) found="$found, $ref" ;;
    esac
  done
  # Every commit a ref, a reflog entry or HEAD names must be in the fetched history.
  set -- --all --reflog
  [ "$has_fetched" = 0 ] || set -- "$@" --not "refs/remotes/origin/$branch"
  if [ -n "$commit" ] && in_clone cat-file -e "$commit^{commit}" 2>/dev/null; then
    [ "$has_fetched" = 1 ] || set -- "$@" --not
    set -- "$@" "$commit"
  fi
  if ! unfetched=$(in_clone rev-list -n 1 "$@"); then
    found="$found, a history git cannot walk"
  elif [ -n "$unfetched" ]; then
    found="$found, commits that were not fetched (${unfetched%"${unfetched#???????}"}...)"
  fi
  if [ "$has_branch" = 1 ]; then
    if [ "$rc" -eq 0 ] && [ "$head_ref" != "refs/heads/$branch" ]; then
      found="$found, HEAD on ${head_ref#refs/heads/}"
    fi
    # A partial checkout leaves files missing (reported as deleted) or unreadable (an error,
    # not a status line): both count, as does any edit. Untracked files are never touched.
    if ! changes=$(in_clone status --porcelain --untracked-files=no 2>&1) || [ -n "$changes" ]; then
      found="$found, uncommitted changes or files git cannot read (\"git status\" lists them)"
    fi
  elif [ -e "$git_dir/index" ]; then
    found="$found, staged files"
  fi
  found=${found#, }
  if [ -n "$found" ]; then
    clone_state=kept
  elif [ "$has_branch" = 1 ]; then
    clone_state=checked-out
  else
    clone_state=empty
  fi
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
  force=0
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
    if ! cd "$folder"; then
      log "cannot enter $folder"
      return 1
    fi
    inspect_interrupted_clone
    case $clone_state in
      empty)
        stage=
        IFS= read -r stage <"$in_progress" 2>/dev/null
        log "found this template's interrupted clone in $folder, holding nothing but what it fetched; removing its .git and cloning again"
        rm -rf "$git_dir"
        [ "$stage" != checkout ] || force=1
        ;;
      checked-out)
        log "found this template's interrupted clone in $folder with its checkout complete and nothing added; finishing it"
        finish_clone
        log "checked out $branch at $(git rev-parse --short HEAD)"
        return 0
        ;;
      *)
        log "found this template's interrupted clone in $folder, but it holds $found"
        log "keeping it as your working copy: the clone is not retried and nothing in it is changed"
        if ! rm -f "$in_progress"; then
          log "cannot remove $in_progress; keeping the working copy anyway"
          return 0
        fi
        keep_existing_git
        return 0
        ;;
    esac
  fi
  clone "$force"
}

# initializeCommand runs where the Dev Containers tools run it, in the clone (the repository's
# root, ${localWorkspaceFolder}), not in the workspace folder, which may be a subfolder of it or
# elsewhere. The service renders ${localWorkspaceFolder} as $DEVCONTAINER_WORKSPACE_FOLDER, so
# for this hook it names the clone, unless the template says the hook also names the container's
# folder (DC_INITIALIZE_FOLDER_VARIABLE=workspace; the build log then says so).
run_initialize_command() {
  if [ "${DC_INITIALIZE_FOLDER_VARIABLE-}" = workspace ]; then
    (cd "$folder" && exec sh "$1" </dev/null)
  else
    (cd "$folder" &&
      DEVCONTAINER_WORKSPACE_FOLDER=$folder &&
      DEVCONTAINER_WORKSPACE_FOLDER_BASENAME=${folder##*/} &&
      export DEVCONTAINER_WORKSPACE_FOLDER DEVCONTAINER_WORKSPACE_FOLDER_BASENAME &&
      exec sh "$1" </dev/null)
  fi
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
    if [ "$hook" = initializeCommand ]; then
      run_initialize_command "$hook_file"
    else
      (cd "$hooks_folder" && exec sh "$hook_file" </dev/null)
    fi
    rc=$?
    if [ "$rc" -ne 0 ]; then
      log "$hook failed with exit status $rc"
      return "$rc"
    fi
  done
}

prepare_working_copy || exit 1
# The hooks run in the workspace folder, which may be a subfolder the repository lacks.
if [ ! -d "$hooks_folder" ]; then
  log "the workspace folder $hooks_folder is not in the repository; creating it"
  mkdir -p "$hooks_folder" || exit 1
fi
run_hooks || exit $?
log "done"
exit 0
