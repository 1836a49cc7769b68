#!/usr/bin/env bash
# A stand-in for the Coder CLI in tests. Each call appends a record to
# $FAKE_CODER_LOG: its argv, one argument per line, and, for `templates push`,
# the files of the folder given with -d (what the real CLI would upload).
# FAKE_CODER_FAIL=push|edit|promote makes that subcommand fail like the real CLI does.
# FAKE_CODER_VERSION (x.y.z, default 2.24.1) is the release `coder version` prints, and the
# flags each subcommand accepts are that release's (from coder/coder's cli/templatepush.go,
# templateedit.go, templateversions.go; app/coder-version.ts has the table): an unknown
# flag fails as the real CLI fails, below 2.24 `templates push` refuses
# `--provisioner-tag=-`, below 2.35 `templates edit` has no --abstract.
# FAKE_CODER_VERSION=devel prints a development build's version (and has every flag).
set -euo pipefail

version="${FAKE_CODER_VERSION:-2.24.1}"

log="${FAKE_CODER_LOG:?FAKE_CODER_LOG must name the record file}"
{
  echo "=== call"
  echo "cwd: $PWD"
  for arg in "$@"; do
    printf 'arg: %s\n' "$arg"
  done
} >>"$log"

subcommand="${1:-} ${2:-}"
major=99
minor=0
if [[ "$version" != "devel" ]]; then
  major="${version%%.*}"
  rest="${version#*.}"
  minor="${rest%%.*}"
fi
# at_least MINOR: whether this release is 2.MINOR or later.
at_least() { ((major > 2 || (major == 2 && minor >= $1))); }

# refuse_unknown_flags ALLOWED... -- ARGS...: fails like the CLI on a flag not in ALLOWED
# (given without its leading dashes; `name=` for a flag that takes a value).
refuse_unknown_flags() {
  local -a allowed=()
  while [[ "$1" != "--" ]]; do
    allowed+=("$1")
    shift
  done
  shift
  local skip_value=0 arg flag known entry
  for arg in "$@"; do
    if ((skip_value)); then
      skip_value=0
      continue
    fi
    [[ "$arg" == -* ]] || continue
    flag="${arg#-}"
    flag="${flag#-}"
    flag="${flag%%=*}"
    known=0
    for entry in "${allowed[@]}"; do
      if [[ "$entry" == "$flag=" ]]; then
        known=1
        [[ "$arg" == *=* ]] || skip_value=1
      elif [[ "$entry" == "$flag" ]]; then
        known=1
      fi
    done
    if ((!known)); then
      echo "Encountered an error running \"coder $subcommand\", see \"coder $subcommand --help\" for more information" >&2
      echo "error: unknown flag: --$flag" >&2
      exit 1
    fi
  done
}

push_flags=(d= directory= yes y provisioner-tag= var= variable= variables-file= name= m= message=
  activate ignore-lockfile always-prompt O= org=)
edit_flags=(display-name= description= icon= name= default-ttl= activity-bump=
  autostart-requirement-weekdays= autostop-requirement-weekdays= autostop-requirement-weeks=
  failure-ttl= dormancy-threshold= dormancy-auto-deletion= allow-user-cancel-workspace-jobs
  allow-user-autostart allow-user-autostop require-active-version private deprecated= yes y
  O= org=)
if at_least 35; then edit_flags+=(abstract=); fi
promote_flags=(template= t= template-version= O= org=)
if [[ "${1:-}" == "version" ]]; then
  if [[ "$version" == "devel" ]]; then
    echo "Coder v0.0.0-devel+0123abc Tue Dec  1 09:00:00 UTC 2026"
  else
    echo "Coder v${version}+0123abc Tue Dec  1 09:00:00 UTC 2026"
  fi
  echo "https://github.com/coder/coder/commit/0123abc"
  echo
  echo "Full build of Coder, supports the server subcommand."
  exit 0
fi
if [[ "$subcommand" == "templates push" ]]; then
  refuse_unknown_flags "${push_flags[@]}" -- "${@:3}"
  if ! at_least 24; then
    for arg in "$@"; do
      if [[ "$arg" == "--provisioner-tag=-" ]]; then
        echo "Encountered an error running \"coder templates push\", see \"coder templates push --help\" for more information" >&2
        echo "error: invalid tag format for \"-\". must be key=value" >&2
        exit 1
      fi
    done
  fi
  dir=""
  previous=""
  for arg in "$@"; do
    if [[ "$previous" == "-d" || "$previous" == "--directory" ]]; then dir="$arg"; fi
    previous="$arg"
  done
  echo "dir: $dir" >>"$log"
  if [[ -n "$dir" ]]; then
    (cd "$dir" && find . -type f | sed 's|^\./||' | LC_ALL=C sort | sed 's/^/file: /') >>"$log"
  fi
  echo "Uploading template files..."
  if [[ "${FAKE_CODER_FAIL:-}" == "push" ]]; then
    echo "Encountered an error running \"coder templates push\", see \"coder templates push --help\" for more information" >&2
    echo "error: template import provisioning failed: terraform plan: exit status 1" >&2
    exit 1
  fi
  echo "Updated version at $(date -u +%Y-%m-%d)!"
elif [[ "$subcommand" == "templates edit" ]]; then
  refuse_unknown_flags "${edit_flags[@]}" -- "${@:3}"
  if [[ "${FAKE_CODER_FAIL:-}" == "edit" ]]; then
    echo "error: update template metadata: forbidden" >&2
    exit 3
  fi
  echo "Updated template metadata!"
elif [[ "$subcommand ${3:-}" == "templates versions promote" ]]; then
  refuse_unknown_flags "${promote_flags[@]}" -- "${@:4}"
  if [[ "${FAKE_CODER_FAIL:-}" == "promote" ]]; then
    echo "error: get template version by name: Resource not found or you do not have access to this resource" >&2
    exit 1
  fi
  echo "Successfully promoted version to active"
fi
