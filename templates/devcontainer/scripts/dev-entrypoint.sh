#!/bin/sh
# dev-entrypoint: the command of the workspace pod's "dev" container (run as `sh -c "<this file>"`).
#
# It prepares the environment the way the Dev Containers CLI would, then execs the Coder agent,
# so that everything the agent starts (terminals, IDEs, the lifecycle hooks) inherits it:
#   1. DEVCONTAINER_WORKSPACE_FOLDER, DEVCONTAINER_WORKSPACE_FOLDER_BASENAME, DEVCONTAINER_ID,
#      which the service's rendered scripts use for ${containerWorkspaceFolder} and friends;
#   2. DEVCONTAINER_LOCALENV_<NAME> for each NAME=value line of the "Dev Container variables"
#      parameter (${localEnv:NAME}); then, for the names every machine the Dev Containers tools
#      run on has (HOME, USER, LOGNAME, PATH, SHELL) and that the user did not set there, the
#      workspace user's own value: with no local host, ${localEnv:HOME} is the workspace's home,
#      not "" (`mkdir -p ${localEnv:HOME}/.m2` would make /.m2);
#   3. containerEnv, then remoteEnv: the service renders them as `export K="..."` lines, sourced
#      here with unset variables expanding to "" (as in the Dev Containers CLI), so that
#      "${PATH}:/x" extends the image's real PATH; a script the shell refuses is skipped with a
#      message, never the end of the container; a PATH they leave without the tools this
#      script and the agent's start need gets the image's PATH appended, with a message;
#   4. HOME, USER and LOGNAME of the remote user.
# Every DC_* input is then removed from the environment and the agent's init script is exec'd.
#
# POSIX sh on purpose: it runs in the workspace image, which may be BusyBox-based.
#
# Inputs, from the container's env:
#   DC_INIT_SCRIPT        (required) the agent's init script (coder_agent.init_script).
#   DC_REMOTE_USER        (required) the remote user's name. Example: vscode
#   DC_HOME               (required) the remote user's home. Example: /home/vscode
#   DC_WORKSPACE_FOLDER   (required) the workspace folder. Example: /workspaces/app
#   DC_ID                 the Coder workspace id, for ${devcontainerId}.
#   DC_VARIABLES          the "Dev Container variables" text: NAME=value lines; blank lines and
#                         lines starting with # are skipped. Example: "NPM_TOKEN=abc"
#   DC_LOCALENV_DEFAULTS  values for ${localEnv:NAME} the variables text does not set, same form
#                         (the template's local.localenv_defaults). Example: "HOME=/home/vscode"
#   DC_CONTAINER_ENV, DC_REMOTE_ENV
#                         base64 of the rendered containerEnv / remoteEnv script, or ''.
# The agent token comes as CODER_AGENT_TOKEN and is left alone: the agent reads it.

set -eu

log() {
  printf 'dev-entrypoint: %s\n' "$*" >&2
}

# 1. Workspace folder and id.
DEVCONTAINER_WORKSPACE_FOLDER=$DC_WORKSPACE_FOLDER
DEVCONTAINER_WORKSPACE_FOLDER_BASENAME=$(basename "$DC_WORKSPACE_FOLDER")
DEVCONTAINER_ID=${DC_ID-}
export DEVCONTAINER_WORKSPACE_FOLDER DEVCONTAINER_WORKSPACE_FOLDER_BASENAME DEVCONTAINER_ID

# 2. ${localEnv:NAME} values. The here-document keeps the loop in this shell, so the exports
#    stay; values are taken as they are (never expanded again). A line that is skipped is named
#    by its number only: what a user typed there (`TOKEN: value`, `TOKEN value=`) may be the
#    secret itself, and the container's log is not the place for it.
#    $1: the NAME=value lines; $2: 1 to set only names not set yet (the defaults), else 0.
read_local_env() {
  number=0
  while IFS= read -r line || [ -n "$line" ]; do
    number=$((number + 1))
    line=${line%"$(printf '\r')"}
    case $line in
      '' | '#'*) continue ;;
    esac
    case $line in
      *=*) ;;
      *)
        log "Dev Container variables: line $number has no '='; skipped"
        continue
        ;;
    esac
    key=${line%%=*}
    case $key in
      '' | *[!A-Za-z0-9_]*)
        log "Dev Container variables: line $number does not start with a variable name (letters, digits, _) and '='; skipped"
        continue
        ;;
    esac
    if [ "$2" = 1 ]; then
      # The key is letters, digits and _ only: safe to expand in eval.
      eval "given=\${DEVCONTAINER_LOCALENV_$key+set}"
      [ -z "$given" ] || continue
    fi
    export "DEVCONTAINER_LOCALENV_$key=${line#*=}"
  done <<EOF_VARIABLES
$1
EOF_VARIABLES
}
read_local_env "${DC_VARIABLES-}" 0
read_local_env "${DC_LOCALENV_DEFAULTS-}" 1
#    PATH and SHELL are the container's own: the image's PATH, the user's login shell.
if [ -z "${DEVCONTAINER_LOCALENV_PATH+set}" ]; then
  export DEVCONTAINER_LOCALENV_PATH="${PATH-}"
fi
if [ -z "${DEVCONTAINER_LOCALENV_SHELL+set}" ]; then
  login_shell=$(sed -n "s#^$DC_REMOTE_USER:[^:]*:[^:]*:[^:]*:[^:]*:[^:]*:\(/[^:]*\)\$#\1#p" /etc/passwd 2>/dev/null | sed -n 1p) || login_shell=
  export DEVCONTAINER_LOCALENV_SHELL="${SHELL:-${login_shell:-/bin/sh}}"
fi

# 3. containerEnv, then remoteEnv. The scripts are evaluated in this shell, and their keys may
#    be any variable name (`home_dir`, `init_script`, `DC_HOME`, ...): so the wrapper's own
#    inputs, both scripts among them, are read first and kept in the positional parameters,
#    which no `export` line can set. After a script runs, this shell reads nothing but them
#    and what it sets itself again: $1 the agent's init script, $2 the remote user, $3 the
#    home, $4 the image's PATH, $5 and $6 the scripts.
set -- "$DC_INIT_SCRIPT" "$DC_REMOTE_USER" "$DC_HOME" "${PATH-}" "${DC_CONTAINER_ENV-}" "${DC_REMOTE_ENV-}"
#    A PATH without the shell or the tools this script uses (`PATH=/opt/tool/bin`, or "") would
#    end the container at its next command, on every start. The scripts' entries stay first.
#    $1: the script's kind; $2: the image's PATH.
repair_path() {
  for tool in sh base64 grep sed env tr; do
    if ! command -v "$tool" >/dev/null 2>&1; then
      log "the PATH $1 set has no $tool; the image's PATH was appended to it"
      PATH=${PATH:+$PATH:}$2
      export PATH
      return
    fi
  done
}
#    An entry the shell refuses (`export A-B="x"`: a key that is no variable name) would end
#    this shell, and the container would fail on every start with no terminal to fix it in;
#    a key the shell reads as another (`export X PATH="…"` sets PATH, `export A=B="…"` A) would
#    set what the file does not name. So a script with such a key is skipped whole, naming the
#    keys (never a value: the shell's own message would print one), and one that fails when
#    tried in a subshell first is skipped too. The scripts are decoded into a variable, not a
#    file: the image's /tmp may be read-only or hold a directory of that name.
#    $1: the script's kind; $2: its base64, or ''; $3: the image's PATH. Every variable it
#    reads is set in this call before the script runs.
apply_env_script() {
  [ -n "$2" ] || return 0
  if ! script=$(printf '%s' "$2" | base64 -d); then
    log "$1 was not applied: it is not base64"
    return 0
  fi
  refused=$(printf '%s\n' "$script" | sed -n 's/^export \([^"]*\)=".*/\1/p' | grep -v '^[A-Za-z_][A-Za-z0-9_]*$' | tr '\n' ' ')
  set +u
  if [ -n "$refused" ] || printf '%s\n' "$script" | grep '^export ' | grep -qv '^export [A-Za-z_][A-Za-z0-9_]*="'; then
    log "$1 was not applied: its keys are not all variable names${refused:+ (${refused% })}"
  elif (eval "$script") >/dev/null 2>&1; then
    eval "$script"
    repair_path "$1" "$3"
  else
    log "$1 was not applied: the shell refused it"
  fi
  set -u
}
apply_env_script containerEnv "$5" "$4"
apply_env_script remoteEnv "$6" "$4"

# 4. The remote user's identity, then the agent with no DC_* inputs left behind. The names are
#    split with the shell's default IFS: a script may have set another (`IFS=","`), and unset
#    is a special builtin whose error would end the shell. The script's IFS stays for the agent.
HOME=$3
USER=$2
LOGNAME=$2
export HOME USER LOGNAME
if [ -n "${IFS+set}" ]; then saved_ifs=$IFS; unset_ifs=; else saved_ifs=; unset_ifs=1; fi
IFS=' 	
'
for name in $(env | sed -n 's/^\(DC_[A-Za-z0-9_]*\)=.*/\1/p'); do
  unset "$name"
done
if [ -n "$unset_ifs" ]; then unset IFS; else IFS=$saved_ifs; fi
exec sh -c "$1"
