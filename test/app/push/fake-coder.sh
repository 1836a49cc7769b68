#!/usr/bin/env bash
# A stand-in for the Coder CLI in tests. Each call appends a record to
# $FAKE_CODER_LOG: its argv, one argument per line, and, for `templates push`,
# the files of the folder given with -d (what the real CLI would upload).
# FAKE_CODER_FAIL=push|edit makes that subcommand fail like the real CLI does.
# FAKE_CODER_VERSION (x.y.z, default 2.24.1) is the release `coder version` prints; below
# 2.24 `templates push` refuses `--provisioner-tag=-` as those releases do.
# FAKE_CODER_VERSION=devel prints a development build's version.
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
  major="${version%%.*}"
  rest="${version#*.}"
  minor="${rest%%.*}"
  if [[ "$version" != "devel" ]] && ((major < 2 || (major == 2 && minor < 24))); then
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
  if [[ "${FAKE_CODER_FAIL:-}" == "edit" ]]; then
    echo "error: update template metadata: forbidden" >&2
    exit 3
  fi
  echo "Updated template metadata!"
fi
