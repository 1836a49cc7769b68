#!/bin/sh
# Start script (coder_script, run on start): installs one skill, a SKILL.md in the Agent
# Skills format, where the agents look for skills in the workspace:
#   ~/.coder/skills/<name>/SKILL.md   Coder Agents (the workspace agent scans ~/.coder/skills
#                                     and lists each skill's name and description in a chat)
#   ~/.claude/skills/<name>/SKILL.md  Claude Code's personal skills, when it runs here
# Each file is written to a temporary file beside it and renamed into place, so an
# interrupted start leaves the previous SKILL.md or none, never a partial one.
#
# Inputs (environment variables; the template prepends NAME='value' lines right after
# the shebang line):
#   SKILL_NAME   the skill's name (kebab-case; the folder it goes in). Required.
#   SKILL_B64    the SKILL.md, base64-encoded. Required.
#   SKILL_ROOTS  space-separated folders under $HOME. Default ".coder/skills .claude/skills".
set -eu

: "${SKILL_NAME:?SKILL_NAME is required}"
: "${SKILL_B64:?SKILL_B64 is required}"
SKILL_ROOTS="${SKILL_ROOTS-.coder/skills .claude/skills}"

case "$SKILL_NAME" in
  *[!a-z0-9-]* | -* | *- | *--*)
    echo "install-agent-skill: \"$SKILL_NAME\" is not a kebab-case skill name" >&2
    exit 1
    ;;
esac

tmp=""
cleanup() {
  if [ -n "$tmp" ]; then rm -f "$tmp"; fi
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

for root in $SKILL_ROOTS; do
  dir="$HOME/$root/$SKILL_NAME"
  mkdir -p "$dir"
  tmp="$(mktemp "$dir/.SKILL.md.XXXXXX")"
  printf '%s' "$SKILL_B64" | base64 -d >"$tmp"
  chmod 0644 "$tmp"
  mv -f "$tmp" "$dir/SKILL.md"
  tmp=""
  echo "install-agent-skill: $dir/SKILL.md"
done
