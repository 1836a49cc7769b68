#!/bin/sh
# local-env-secrets: the first lines of the lifecycle scripts (lifecycle.sh, after-lifecycle.sh),
# right after their inputs. The user's own Coder secrets give ${localEnv:NAME} its value: the
# agent puts an environment-variable secret into every script it starts, as the variable of the
# secret's target name, so a non-empty NAME in this script's environment replaces what the pod's
# wrapper set from the "Dev Container variables" line or the default (DEVCONTAINER_LOCALENV_NAME).
# Values are copied as they are, never printed and never expanded again.
#
# Input, written above this by the template: DC_LOCALENV_SECRET_NAMES='A B', the repository's
# ${localEnv:…} names, each matching ^[A-Za-z_][A-Za-z0-9_]*$ (VARIABLE_NAME_PATTERN), so
# expanding them in eval is safe; HOME, USER, LOGNAME, PATH and SHELL are never among them (the
# agent's own are the container's, not the user's choice).
# The comment ends at the first line that is not a comment: keep no blank line after it.
# shellcheck disable=SC2154 # DC_LOCALENV_SECRET_NAMES: the line the template writes above.
for dc_localenv_name in $DC_LOCALENV_SECRET_NAMES; do
  eval "dc_localenv_value=\${$dc_localenv_name:-}"
  if [ -n "$dc_localenv_value" ]; then export "DEVCONTAINER_LOCALENV_$dc_localenv_name=$dc_localenv_value"; fi
done
unset dc_localenv_name dc_localenv_value
