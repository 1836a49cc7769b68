#!/usr/bin/env bash
# A stand-in for the Coder CLI in tests. Each call appends a record to
# $FAKE_CODER_LOG: its argv, one argument per line, and, for `templates push`,
# the files of the folder given with -d (what the real CLI would upload).
# FAKE_CODER_FAIL=push|edit makes that subcommand fail like the real CLI does.
set -euo pipefail

log="${FAKE_CODER_LOG:?FAKE_CODER_LOG must name the record file}"
{
  echo "=== call"
  echo "cwd: $PWD"
  for arg in "$@"; do
    printf 'arg: %s\n' "$arg"
  done
} >>"$log"

subcommand="${1:-} ${2:-}"
if [[ "$subcommand" == "templates push" ]]; then
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
