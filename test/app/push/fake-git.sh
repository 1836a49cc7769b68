#!/usr/bin/env bash
# A stand-in for git in the push tests: the three questions `npm run push` asks of the
# checkout the templates come from. FAKE_GIT_SHA (default 1a2b3c4) is HEAD's short SHA,
# FAKE_GIT_SHA=none makes this no checkout at all (git's exit 128); FAKE_GIT_SUBJECT is the
# commit's subject; FAKE_GIT_DIRTY=1 reports an uncommitted change.
set -euo pipefail

sha="${FAKE_GIT_SHA:-1a2b3c4}"
if [[ "$sha" == "none" ]]; then
  echo "fatal: not a git repository (or any of the parent directories): .git" >&2
  exit 128
fi
case "$*" in
  "rev-parse --short HEAD") echo "$sha" ;;
  "log -1 --format=%s") echo "${FAKE_GIT_SUBJECT:-Raise the default memory limit}" ;;
  "status --porcelain")
    if [[ "${FAKE_GIT_DIRTY:-}" == "1" ]]; then echo " M templates/kubernetes/index.ts"; fi
    ;;
  *)
    echo "fake git: unexpected arguments: $*" >&2
    exit 2
    ;;
esac
