#!/bin/sh
# dev-entrypoint: the command of the workspace pod's "dev" container (run as `sh -c "<this file>"`).
#
# It prepares the environment the way the Dev Containers CLI would, then execs the Coder agent,
# so that everything the agent starts (terminals, IDEs, the lifecycle hooks) inherits it:
#   1. DEVCONTAINER_WORKSPACE_FOLDER, DEVCONTAINER_WORKSPACE_FOLDER_BASENAME, DEVCONTAINER_ID,
#      which the service's rendered scripts use for ${containerWorkspaceFolder} and friends;
#   2. DEVCONTAINER_LOCALENV_<NAME> for each NAME=value line of the "Dev Container variables"
#      parameter (${localEnv:NAME});
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
#   DC_CONTAINER_ENV, DC_REMOTE_ENV
#                         base64 of the rendered containerEnv / remoteEnv script, or ''.
#   DC_ENV_FILE           where the decoded scripts are written while sourced.
#                         Default /tmp/devcontainer-env.sh; only tests change it.
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
#    stay; values are taken as they are (never expanded again).
while IFS= read -r line || [ -n "$line" ]; do
  line=${line%"$(printf '\r')"}
  case $line in
    '' | '#'*) continue ;;
  esac
  case $line in
    *=*) ;;
    *)
      log "Dev Container variables: a line without '=' was skipped"
      continue
      ;;
  esac
  key=${line%%=*}
  case $key in
    '' | *[!A-Za-z0-9_]*)
      log "Dev Container variables: '$key' is not a variable name (letters, digits, _); skipped"
      continue
      ;;
  esac
  export "DEVCONTAINER_LOCALENV_$key=${line#*=}"
done <<EOF_VARIABLES
${DC_VARIABLES-}
EOF_VARIABLES

# 3. containerEnv, then remoteEnv.
env_file=${DC_ENV_FILE:-/tmp/devcontainer-env.sh}
image_path=${PATH-}
#    An entry the shell refuses (`export A-B="x"`: a key that is no variable name) would end
#    this shell, and the container would fail on every start with no terminal to fix it in.
#    So each script is sourced in a subshell first; one that fails there, or complains (bash
#    goes on after a failed `export` inside an `if`), is skipped whole, naming the keys at
#    fault (never a value: the shell's own message would print one). So is a script with a
#    key the shell would read as another: `export X PATH="…"` sets PATH, `export A=B="…"` A.
name_line='^export [A-Za-z_][A-Za-z0-9_]*="'
for kind in containerEnv remoteEnv; do
  if [ "$kind" = containerEnv ]; then encoded=${DC_CONTAINER_ENV-}; else encoded=${DC_REMOTE_ENV-}; fi
  [ -n "$encoded" ] || continue
  printf '%s' "$encoded" | base64 -d >"$env_file"
  set +u
  # shellcheck disable=SC1090 # rendered by devcontainer-builder from devcontainer.json
  if ! grep '^export ' "$env_file" | grep -qv "$name_line" &&
    complaint=$( (. "$env_file") 2>&1 >/dev/null) && [ -z "$complaint" ]; then
    . "$env_file"
  else
    refused=$(sed -n 's/^export \([^"]*\)=".*/\1/p' "$env_file" | grep -v '^[A-Za-z_][A-Za-z0-9_]*$' | tr '\n' ' ')
    if [ -n "$refused" ]; then
      log "$kind was not applied: its keys are not all variable names (${refused% })"
    else
      log "$kind was not applied: the shell refused it"
    fi
  fi
  set -u
done
#    A PATH without the shell or the tools used below (`PATH=/opt/tool/bin`, or "") would end the
#    container at its next command, on every start. The scripts' entries stay first.
for tool in sh rm env sed; do
  if ! command -v "$tool" >/dev/null 2>&1; then
    log "the PATH containerEnv/remoteEnv set has no $tool; the image's PATH was appended to it"
    PATH=${PATH:+$PATH:}$image_path
    export PATH
    break
  fi
done
rm -f "$env_file"

# 4. The remote user's identity, then the agent with no DC_* inputs left behind.
HOME=$DC_HOME
USER=$DC_REMOTE_USER
LOGNAME=$DC_REMOTE_USER
export HOME USER LOGNAME
init_script=$DC_INIT_SCRIPT
for name in $(env | sed -n 's/^\(DC_[A-Za-z0-9_]*\)=.*/\1/p'); do
  unset "$name"
done
exec sh -c "$init_script"
