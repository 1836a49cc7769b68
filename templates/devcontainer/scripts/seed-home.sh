#!/bin/sh
# seed-home: the init container "seed-home" of the workspace pod (run as `sh -c "<this file>"`).
#
# It runs as the remote user, with the workspace PVC mounted whole at /mnt/data, before the
# dev container mounts subPaths of it. It:
#   1. creates the PVC directories that get mounted (home, workspaces, workspace-folder, each
#      volume, each mount point inside another mount), so that kubelet does not create them
#      owned by root;
#   2. on the first start only, copies the image's own home into the PVC's home, never
#      overwriting, then leaves the marker home/.devcontainer-home-seeded. Later starts and
#      rebuilds never seed again: the home belongs to the user.
# A file that cannot be copied is skipped with a warning; it never fails the pod.
#
# POSIX sh on purpose: it runs in the workspace image, which may be BusyBox-based.
#
# Inputs, from the container's env (not prepended to the script):
#   HOME_DIR          (required) the remote user's home in the image. Example: /home/vscode
#   VOLUME_DIRS       the PVC dirs of the volume mounts, space-separated, relative to the PVC.
#                     Example: "volumes/node-modules volumes/anonymous-3"
#   MOUNT_POINT_DIRS  the mount points to pre-create inside other mounts, same form.
#                     Example: "workspace-folder workspaces/app/node_modules home/.cache/pip"
#   SEED_DATA_DIR     where the PVC is mounted. Default /mnt/data; only tests change it.

set -eu

log() {
  printf 'seed-home: %s\n' "$*" >&2
}

data=${SEED_DATA_DIR:-/mnt/data}
home_dir=${HOME_DIR:?HOME_DIR must be set (a template bug)}
marker=$data/home/.devcontainer-home-seeded

mkdir -p "$data/home" "$data/workspaces" "$data/workspace-folder"

# The lists are space-separated by contract; no globbing while splitting them.
set -f
for dir in ${VOLUME_DIRS-} ${MOUNT_POINT_DIRS-}; do
  case /$dir/ in
    //* | */../* | */./*)
      log "warning: ignoring '$dir': not a plain path relative to the volume"
      continue
      ;;
  esac
  mkdir -p "$data/$dir"
done
set +f

if [ -e "$marker" ]; then
  log "the home was seeded on an earlier start; leaving it to the user"
  exit 0
fi

# Copies the entries of directory $1 into the existing directory $2, preserving attributes and
# never overwriting: an entry that exists in $2 is kept, and directories present on both sides
# are merged (the mount points created above may already sit inside the home). Sets
# copy_failed=1 when cp could not copy something.
#
# Not one "cp -R -p -n $1/. $2/": BusyBox's cp -n then skips "$2/." itself, because it exists,
# and copies nothing; it also skips an existing directory whole instead of merging it.
copy_failed=0
copy_missing() {
  if [ ! -r "$1" ] || [ ! -x "$1" ]; then
    log "cannot read $1"
    copy_failed=1
    return 0
  fi
  for entry in "$1"/* "$1"/.[!.]* "$1"/..?*; do
    [ -e "$entry" ] || [ -L "$entry" ] || continue # an unmatched pattern
    existing=$2/${entry##*/}
    if [ ! -e "$existing" ] && [ ! -L "$existing" ]; then
      cp -R -p "$entry" "$2/" || copy_failed=1
    elif [ -d "$entry" ] && [ ! -L "$entry" ] && [ -d "$existing" ] && [ ! -L "$existing" ]; then
      copy_missing "$entry" "$existing"
    fi
  done
  return 0
}

if [ ! -d "$home_dir" ]; then
  log "the image has no $home_dir; the home starts empty"
else
  log "first start: copying $home_dir from the image into the persistent home"
  copy_missing "$home_dir" "$data/home"
  if [ "$copy_failed" = 1 ]; then
    log "warning: some files in $home_dir could not be copied (unreadable files, sockets, ...) and were skipped"
  fi
fi
: >"$marker"
log "done"
