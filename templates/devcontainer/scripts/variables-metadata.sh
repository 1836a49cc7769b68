#!/bin/sh
# variables-metadata: the agent metadata item "Dev Container variables" (DevcontainerWarnings).
# It prints the Dev Container variables the repository requires (`${localEnv:NAME}` without a
# default) that the agent's environment lacks, as "unset: A, B", or "all set".
#
# The template runs the lines after this comment, without the `#!` line and the comment, and
# writes one line above them: names='A B', the required names, each matching
# ^[A-Za-z_][A-Za-z0-9_]*$ (VARIABLE_NAME_PATTERN), so expanding them in eval is safe. A
# variable NAME reaches the agent as DEVCONTAINER_LOCALENV_NAME.
# The comment ends at the first line that is not a comment: keep no blank line after it.
# shellcheck disable=SC2154 # names: the line the template writes above.
unset_names=''
for name in $names; do
  eval "value=\${DEVCONTAINER_LOCALENV_$name:-}"
  [ -n "$value" ] || unset_names="$unset_names${unset_names:+, }$name"
done
if [ -n "$unset_names" ]; then echo "unset: $unset_names"; else echo "all set"; fi
