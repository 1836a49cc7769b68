#!/bin/sh
# variables-metadata: the agent metadata item "Dev Container variables" (DevcontainerWarnings).
# It prints the Dev Container variables the repository requires (`${localEnv:NAME}` without a
# default) that the workspace still lacks, and how a user sets them, or "all set". A name is
# set by the user's own Coder secret (the agent puts it into the scripts it starts as NAME) or
# by a line of the "Dev Container variables" setting (DEVCONTAINER_LOCALENV_NAME, from the
# pod's wrapper). Only names are printed, never a value.
#
# The template runs the lines after this comment, without the `#!` line and the comment, and
# writes one line above them: names='A B', the required names, each matching
# ^[A-Za-z_][A-Za-z0-9_]*$ (VARIABLE_NAME_PATTERN), so expanding them in eval is safe.
# The comment ends at the first line that is not a comment: keep no blank line after it.
# shellcheck disable=SC2154 # names: the line the template writes above.
unset_names=''
for name in $names; do
  eval "value=\${$name:-\${DEVCONTAINER_LOCALENV_$name:-}}"
  [ -n "$value" ] || unset_names="$unset_names${unset_names:+, }$name"
done
if [ -z "$unset_names" ]; then
  echo "all set"
else
  echo "unset: $unset_names. A secret: coder secret create <name> --env NAME (or Secrets in your account); else a NAME=value line in Dev Container variables. Then restart."
fi
