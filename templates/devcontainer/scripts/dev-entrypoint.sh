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
#   3. containerEnv, then the remote user's shell environment (userEnvProbe: the user's login
#      shell is started once, as a login and/or interactive shell, at most
#      DC_USER_ENV_PROBE_TIMEOUT_SECONDS, and what it exports is taken over: nvm, sdkman, conda
#      or rustup set PATH there), then remoteEnv: the service renders containerEnv and remoteEnv as `export K="..."` lines, sourced
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
#   DC_USER_ENV_PROBE     userEnvProbe: none, loginShell, interactiveShell or
#                         loginInteractiveShell (the default, also for '' or another word).
#   DC_USER_ENV_PROBE_TIMEOUT_SECONDS
#                         how long the probe may take. Default 10; only tests change it.
#   DC_FEATURE_ENTRYPOINTS
#                         the installed Features' entrypoints, one "<feature id><TAB><path>" line
#                         each (paths checked by the template); each is started in the
#                         background before the agent. Example: "ghcr.io/devcontainers/features/sshd:1	/usr/local/share/ssh-init.sh"
#   DC_PASSWD_FILE        where the remote user's login shell is read. Default /etc/passwd;
#                         only tests change it.
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
login_shell=$(sed -n "s#^$DC_REMOTE_USER:[^:]*:[^:]*:[^:]*:[^:]*:[^:]*:\(/[^:]*\)\$#\1#p" "${DC_PASSWD_FILE:-/etc/passwd}" 2>/dev/null | sed -n 1p) || login_shell=
if [ -z "${DEVCONTAINER_LOCALENV_SHELL+set}" ]; then
  export DEVCONTAINER_LOCALENV_SHELL="${SHELL:-${login_shell:-/bin/sh}}"
fi

# 3. containerEnv, then remoteEnv. The scripts are evaluated in this shell, and their keys may
#    be any variable name (`home_dir`, `init_script`, `DC_HOME`, ...): so the wrapper's own
#    inputs, both scripts among them, are read first and kept in the positional parameters,
#    which no `export` line can set. After a script runs, this shell reads nothing but them
#    and what it sets itself again: $1 the agent's init script, $2 the remote user, $3 the
#    home, $4 the image's PATH, $5 and $6 the scripts.
#    $7 is the remote user's login shell, $8 userEnvProbe and $9 its timeout, ${10} the
#    Features' entrypoints.
set -- "$DC_INIT_SCRIPT" "$DC_REMOTE_USER" "$DC_HOME" "${PATH-}" "${DC_CONTAINER_ENV-}" "${DC_REMOTE_ENV-}" \
  "$login_shell" "${DC_USER_ENV_PROBE-}" "${DC_USER_ENV_PROBE_TIMEOUT_SECONDS:-10}" \
  "${DC_FEATURE_ENTRYPOINTS-}"
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
# Prints PATH $1 with every entry of PATH $2 it lacks, each inserted after the entry it followed
# in $2 (at the front when none did): $1's own entries keep their order and come first among
# equals. Empty entries of $2 are left out.
merge_path() {
  merged=:${1:+$1:}
  after=
  # Called in a command substitution: the IFS set here stays there.
  IFS=:
  for entry in $2; do
    [ -n "$entry" ] || continue
    case $merged in
      *":$entry:"*) after=$entry; continue ;;
    esac
    if [ -z "$after" ]; then
      merged=":$entry$merged"
    else
      merged="${merged%%:"$after":*}:$after:$entry:${merged#*:"$after":}"
    fi
    after=$entry
  done
  merged=${merged#:}
  printf '%s\n' "${merged%:}"
}

# The remote user's shell environment (userEnvProbe), as the Dev Containers tools probe it once
# per container: the user's login shell (else $SHELL, else /bin/sh) runs as a login and/or
# interactive shell with the user's HOME, stdin from /dev/null and its output discarded, and
# prints its environment (NUL-separated, from /proc) to a file through fd 3, so that what its
# startup files echo never mixes in. It is killed after the timeout: a startup file that waits
# (a prompt, a network call) delays the start by that much at most, and the agent starts with
# the environment as it was. Variables are taken as they are (never evaluated): everything
# the shell exports except its own bookkeeping (PWD, SHLVL, ...), the user's identity (set
# below) and the DC_*, CODER_* and DEVCONTAINER_* names of this wrapper and the agent; a value
# with a newline is skipped, naming it. Only names are logged, never values.
# $1: the remote user; $2: the home; $3: the image's PATH; $4: the login shell from passwd;
# $5: userEnvProbe; $6: the timeout in seconds.
probe_user_env() {
  case $5 in
    none) return 0 ;;
    loginShell) probe_flags=-lc ;;
    interactiveShell) probe_flags=-ic ;;
    *) probe_flags=-lic ;;
  esac
  probe_shell=${4:-${SHELL:-/bin/sh}}
  [ -x "$probe_shell" ] || probe_shell=/bin/sh
  probe_timeout=$6
  case $probe_timeout in '' | *[!0-9]*) probe_timeout=10 ;; esac
  probe_cat=$(command -v cat) || probe_cat=
  if [ -z "$probe_cat" ] || [ ! -r /proc/self/environ ]; then
    log "userEnvProbe: not probed (this image has no cat or no /proc)"
    return 0
  fi
  # In the home, the user's own (on the data volume, writable; the image's /tmp may not be),
  # readable by the user only: the environment holds the agent's token.
  probe_out=$2/.cache/devcontainer-env-probe.$$
  if ! mkdir -p "$2/.cache" || ! (umask 077 && rm -f "$probe_out" && printf '' >"$probe_out"); then
    log "userEnvProbe: not probed (cannot write $probe_out)"
    return 0
  fi
  # shellcheck disable=SC2016 # "$0" is the probed shell's: the cat found here
  HOME=$2 USER=$1 LOGNAME=$1 "$probe_shell" "$probe_flags" 'exec "$0" /proc/self/environ >&3' "$probe_cat" \
    3>"$probe_out" </dev/null >/dev/null 2>&1 &
  probe_pid=$!
  (sleep "$probe_timeout" && kill -9 "$probe_pid") </dev/null >/dev/null 2>&1 &
  probe_watcher=$!
  probe_rc=0
  wait "$probe_pid" || probe_rc=$?
  kill "$probe_watcher" 2>/dev/null || :
  if [ "$probe_rc" -eq 137 ] || { [ "$probe_rc" -ne 0 ] && [ ! -s "$probe_out" ]; }; then
    if [ "$probe_rc" -eq 137 ]; then
      log "userEnvProbe: $probe_shell $probe_flags did not finish within $probe_timeout seconds; the hooks and apps run without the shell's environment"
    else
      log "userEnvProbe: $probe_shell $probe_flags failed (exit status $probe_rc); the hooks and apps run without the shell's environment"
    fi
    rm -f "$probe_out"
    return 0
  fi
  probe_path_before=${PATH-}
  probe_soh=$(printf '\001')
  probe_taken=
  probe_skipped=
  # Newlines inside values become \001 and the NULs between entries newlines: one entry a line.
  while IFS= read -r entry || [ -n "$entry" ]; do
    probe_name=${entry%%=*}
    case $probe_name in
      '' | *[!A-Za-z0-9_]* | [0-9]*) continue ;;
      PWD | OLDPWD | SHLVL | _ | HOME | USER | LOGNAME | IFS | PS1 | PS2 | PS4 | PPID | OPTIND | OPTARG | HOSTNAME) continue ;;
      DC_* | CODER_* | DEVCONTAINER_*) continue ;;
    esac
    case $entry in
      *=*) ;;
      *) continue ;;
    esac
    case $entry in
      *"$probe_soh"*)
        probe_skipped="$probe_skipped $probe_name"
        continue
        ;;
    esac
    probe_value=${entry#*=}
    probe_old=
    probe_had=
    eval "probe_old=\${$probe_name-}; probe_had=\${$probe_name+set}"
    [ "$probe_had" != set ] || [ "$probe_old" != "$probe_value" ] || continue
    export "$probe_name=$probe_value"
    probe_taken="$probe_taken $probe_name"
  done <<EOF_PROBE
$(tr '\n\000' '\001\n' <"$probe_out")
EOF_PROBE
  rm -f "$probe_out"
  # A login shell's /etc/profile sets PATH afresh (Debian's does): the image's own entries
  # (ENV PATH=/usr/local/go/bin:...) would be lost, so those the shell dropped come back, each
  # after the entry it followed in the image's PATH.
  PATH=$(merge_path "${PATH-}" "$probe_path_before")
  export PATH
  log "userEnvProbe: the environment of $probe_shell $probe_flags set${probe_taken:- nothing new}"
  [ -z "$probe_skipped" ] || log "userEnvProbe: not taken (a value with a newline):$probe_skipped"
  repair_path userEnvProbe "$3"
}

apply_env_script containerEnv "$5" "$4"
probe_user_env "$2" "$3" "$4" "$7" "$8" "$9"
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

# 5. The Features' entrypoints (desktop-lite, docker-in-docker, sshd, ...), as the Dev Containers
#    CLI starts them before the lifecycle hooks: each in the background, as the remote user, with
#    this environment, stdin from /dev/null and its output in ~/.cache/devcontainer-features/
#    <n>-<name>.log; the path runs as it is (never through a shell's parser). One that is not an
#    executable file is named with the reason; one that fails shows it in its log. The agent
#    (and so every hook) starts right after, never waiting for them.
#    $1: the "<id><TAB><path>" lines.
start_feature_entrypoints() {
  [ -n "$1" ] || return 0
  entry_dir=$HOME/.cache/devcontainer-features
  if ! mkdir -p "$entry_dir" 2>/dev/null; then
    log "Feature entrypoints: not started (cannot create $entry_dir)"
    return 0
  fi
  entry_tab=$(printf '\t')
  entry_n=0
  while IFS= read -r entry_line || [ -n "$entry_line" ]; do
    [ -n "$entry_line" ] || continue
    entry_id=${entry_line%%"$entry_tab"*}
    entry_path=${entry_line#*"$entry_tab"}
    entry_n=$((entry_n + 1))
    if [ ! -f "$entry_path" ]; then
      log "Feature $entry_id: entrypoint $entry_path not started: the image has no such file"
      continue
    fi
    if [ ! -x "$entry_path" ]; then
      log "Feature $entry_id: entrypoint $entry_path not started: it is not executable"
      continue
    fi
    entry_name=${entry_path##*/}
    entry_log=$entry_dir/$entry_n-${entry_name%.sh}.log
    # set -e is on: the status is caught, or a failing entrypoint would skip its last line.
    {
      entry_status=0
      "$entry_path" </dev/null || entry_status=$?
      printf 'devcontainer: the entrypoint ended with exit status %s\n' "$entry_status"
    } >"$entry_log" 2>&1 &
    log "Feature $entry_id: started its entrypoint $entry_path in the background (log: $entry_log)"
  done <<EOF_ENTRYPOINTS
$1
EOF_ENTRYPOINTS
}
start_feature_entrypoints "${10}"
exec sh -c "$1"
