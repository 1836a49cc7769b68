#!/usr/bin/env bash
# Start script (coder_script, run on start): clones the infrastructure repository onto
# the persistent volume once, and links it into the home directory.
#
#   - First start: `git clone` into a scratch directory beside the target, then rename it
#     into place and write the marker <dir>/.git/packer-builder-cloned. A clone cut short
#     (workspace stopped, timeout) only ever leaves the scratch directory, which the next
#     start removes and redoes.
#   - Later starts: a finished clone, or any existing .git, is never touched again. Local
#     edits, commits and branches survive restarts. A target that exists and is not a git
#     repository is left alone and the script fails saying so.
#   - Every start: (re)creates the link CLONE_LINK -> CLONE_DIR (the home directory is not
#     persistent); something that is not a link at that path is left alone.
#
# Credentials never go into argv, the URL or .git/config:
#   - by default git uses what the Coder agent provides (GIT_ASKPASS for external auth over
#     HTTPS, `coder gitssh` for ssh:// and scp-style URLs);
#   - with CLONE_GIT_TOKEN set, a throwaway GIT_ASKPASS helper answers git's prompts from
#     the environment (the helper file contains no secret);
#   - a URL with user:password@ is refused.
#
# Inputs (environment variables; the template prepends NAME='value' lines right after
# the shebang line):
#   CLONE_REPO_URL      repository to clone. Default "" = nothing to clone (exit 0).
#   CLONE_DIR           where the clone lives. Default /persistent/ggl_core_infra.
#   CLONE_LINK          symlink to CLONE_DIR. Default "$HOME/ggl_core_infra"; "" = no link.
#                     Made only when CLONE_DIR exists.
#   CLONE_BRANCH        branch to check out. Default "" = the remote's default branch.
#   CLONE_TIMEOUT       seconds for the clone. Default 600.
#   CLONE_GIT_USERNAME  HTTPS user name for CLONE_GIT_TOKEN. Default "oauth2".
#   CLONE_GIT_TOKEN     HTTPS token or password. Default "" = use the agent's git setup.
# Needs: bash, git, coreutils.

set -euo pipefail

log() { echo "clone: $*" >&2; }
die() {
  echo "clone: $*" >&2
  exit 1
}

url="${CLONE_REPO_URL:-}"
dir="${CLONE_DIR:-/persistent/ggl_core_infra}"
if [[ -v CLONE_LINK ]]; then
  link="${CLONE_LINK}"
elif [[ -n "${HOME:-}" ]]; then
  link="${HOME}/ggl_core_infra"
else
  link=""
fi
branch="${CLONE_BRANCH:-}"
timeout_s="${CLONE_TIMEOUT:-600}"
marker_name="packer-builder-cloned"

link_into_home() {
  [[ -n "${link}" && -d "${dir}" ]] || return 0
  if [[ -L "${link}" ]]; then
    ln -sfn "${dir}" "${link}"
  elif [[ -e "${link}" ]]; then
    log "warning: ${link} exists and is not a symlink; leaving it alone (the clone is in ${dir})"
    return 0
  else
    mkdir -p "$(dirname "${link}")"
    ln -s "${dir}" "${link}"
  fi
  log "${link} -> ${dir}"
}

# Clones into a scratch directory and renames it into place, so ${dir} is either absent or
# a complete working copy.
clone() {
  command -v git >/dev/null || die "git is not installed in the image"
  # ssh://git@host/... is a user name, not a secret; over HTTP(S) any user part may be a token.
  # Also behind git's <transport>::<address> form (https::https://token@host/...).
  local transport='^([a-zA-Z][a-zA-Z0-9+.-]*::)*'
  if [[ "${url}" =~ ${transport}[a-zA-Z][a-zA-Z0-9+.-]*://[^/@]*:[^/@]*@ || "${url}" =~ ${transport}[hH][tT][tT][pP][sS]?://[^/]*@ ]]; then
    die "the repository URL carries credentials; refusing it (configure a token for the template instead)"
  fi
  local parent scratch
  parent="$(dirname "${dir}")"
  scratch="${parent}/.$(basename "${dir}").clone-in-progress"
  mkdir -p "${parent}"
  if [[ -e "${scratch}" ]]; then
    log "removing an unfinished clone from an earlier start (${scratch})"
    rm -rf -- "${scratch}"
  fi

  # Never prompt on a terminal: a missing credential fails the clone instead of hanging it.
  export GIT_TERMINAL_PROMPT=0
  local askpass=""
  if [[ -n "${CLONE_GIT_TOKEN:-}" ]]; then
    askpass="$(mktemp "${TMPDIR:-/tmp}/clone-askpass.XXXXXX")"
    # The helper reads the secret from its environment when git runs it; the single quotes
    # are deliberate, so the file never contains the token.
    # shellcheck disable=SC2016
    printf '%s\n' '#!/bin/sh' \
      'case "$1" in Username*) printf "%s\n" "$CLONE_GIT_USERNAME" ;; *) printf "%s\n" "$CLONE_GIT_TOKEN" ;; esac' \
      >"${askpass}"
    chmod 700 "${askpass}"
    export GIT_ASKPASS="${askpass}" CLONE_GIT_USERNAME="${CLONE_GIT_USERNAME:-oauth2}" CLONE_GIT_TOKEN
  fi

  local args=(clone --quiet)
  if [[ -n "${branch}" ]]; then args+=(--branch "${branch}"); fi
  # The query and fragment are left out: a signed URL or ?access_token= carries a secret there.
  log "cloning ${url%%[?#]*}${branch:+ (branch ${branch})} into ${dir} (timeout ${timeout_s}s)"
  local bounded=(timeout --kill-after=5 "${timeout_s}")
  if ! command -v timeout >/dev/null; then
    log "no timeout command in the image; the clone is not bounded"
    bounded=()
  fi
  local status=0
  "${bounded[@]}" git "${args[@]}" -- "${url}" "${scratch}" || status=$?
  if [[ -n "${askpass}" ]]; then rm -f "${askpass}"; fi
  if ((status != 0)); then
    rm -rf -- "${scratch}"
    if ((status == 124 || status == 137)); then
      die "git clone timed out after ${timeout_s}s; the next start tries again"
    fi
    die "git clone failed (status ${status}); the next start tries again"
  fi
  place_clone "${scratch}"
  touch "${dir}/.git/${marker_name}"
  log "cloned $(git -C "${dir}" rev-parse --short HEAD) into ${dir}"
}

# Renames the finished clone in $1 into ${dir}. Another start script may have made ${dir}
# while git ran (the AI task's module creates its workdir, which is ${dir}): `mv` would then
# move the clone inside it, and every later start would refuse the folder. An empty ${dir}
# is replaced; one that holds files gets the clone's entries beside them, none overwritten.
place_clone() {
  local scratch="$1" entry name kept=()
  if [[ -d "${dir}" && ! -L "${dir}" ]]; then rmdir -- "${dir}" 2>/dev/null || true; fi
  if [[ ! -e "${dir}" && ! -L "${dir}" ]]; then
    mv -- "${scratch}" "${dir}"
    return 0
  fi
  log "${dir} appeared while git cloned (another start script made it); adding the clone to what it holds"
  shopt -s dotglob nullglob
  for entry in "${scratch}"/*; do
    name="$(basename "${entry}")"
    if [[ -e "${dir}/${name}" || -L "${dir}/${name}" ]]; then
      kept+=("${name}")
    else
      mv -- "${entry}" "${dir}/${name}"
    fi
  done
  shopt -u dotglob nullglob
  if ((${#kept[@]} > 0)); then
    log "warning: ${dir} already had ${kept[*]}; the clone's own are left in ${scratch}"
  else
    rmdir -- "${scratch}"
  fi
}

if [[ -z "${url}" ]]; then
  log "no repository configured (CLONE_REPO_URL is empty); nothing to clone"
elif [[ -f "${dir}/.git/${marker_name}" ]]; then
  log "${dir} was cloned before; leaving it as it is"
elif [[ -d "${dir}/.git" ]]; then
  log "${dir} is already a git repository; keeping it as it is"
  touch "${dir}/.git/${marker_name}"
elif [[ -e "${dir}" && -n "$(ls -A "${dir}" 2>/dev/null || echo x)" ]]; then
  die "${dir} exists and is not a git clone; left alone. Move it away and restart to get a fresh clone."
else
  if [[ -d "${dir}" ]]; then rmdir -- "${dir}"; fi
  clone
fi
link_into_home
