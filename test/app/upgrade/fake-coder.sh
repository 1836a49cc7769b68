#!/bin/sh
# A stand-in for the `coder` CLI in the plan-upgrade and push --check-upgrade tests. It logs
# every call (one line of arguments) to $FAKE_CODER_LOG and answers:
#   coder version                       "Coder $FAKE_CODER_VERSION+…" (default v2.28.0)
#   coder list --all --output json      the file $FAKE_CODER_LIST
#   coder state pull <owner>/<name>     the file $FAKE_CODER_STATES/<owner>+<name>.json
#   coder templates push|edit …         success
# FAKE_CODER_FAIL=<first word> makes that command fail as a CLI does (a message on stderr,
# exit 1), whose last line is $FAKE_CODER_ERROR when set; FAKE_CODER_EMPTY_STATE=1 makes
# `state pull` print nothing, as for no state.
set -eu
if [ -n "${FAKE_CODER_LOG:-}" ]; then
  printf '%s\n' "$*" >>"$FAKE_CODER_LOG"
fi
if [ "${FAKE_CODER_FAIL:-}" = "$1" ]; then
  echo "Encountered an error running \"coder $1\", see \"coder $1 --help\" for more information" >&2
  echo "${FAKE_CODER_ERROR:-error: GET https://coder.example.com/api/v2/users/me: unexpected status code 401: You must be logged in.}" >&2
  exit 1
fi
case "$1" in
  version)
    echo "Coder ${FAKE_CODER_VERSION:-v2.28.0}+0123abc Fri Nov 28 10:00:00 UTC 2026"
    echo "https://github.com/coder/coder/commit/0123abc"
    ;;
  list)
    cat "$FAKE_CODER_LIST"
    ;;
  state)
    if [ "${FAKE_CODER_EMPTY_STATE:-}" = 1 ]; then
      exit 0
    fi
    owner=${3%%/*}
    name=${3#*/}
    file="$FAKE_CODER_STATES/$owner+$name.json"
    if [ ! -f "$file" ]; then
      echo "error: workspace \"$3\" not found" >&2
      exit 1
    fi
    cat "$file"
    ;;
  templates)
    echo "fake: templates $2 done"
    ;;
  *)
    echo "fake coder: unexpected command: $*" >&2
    exit 2
    ;;
esac
