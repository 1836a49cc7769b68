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
# Each entry is copied under a temporary name beside its target and renamed into place, so a
# copy cut short (the pod stopped or was evicted) leaves no half-written file under the real
# name; the next start removes the temporaries (read-only trees too) and copies what is still
# missing. A temporary that cannot be removed is left, with a warning, and never copied into:
# the entry goes through a fresh name. The names .devcontainer-home-seed.partial* and the
# marker are this script's own: the image's files of those names are not copied.
# A copy that fails without a stop (a full volume) leaves no file cut short either: a file that
# cannot be copied whole is left out, with a warning naming it.
# It never fails the pod: a file that cannot be copied is skipped, and a directory that cannot
# be created (a path the user turned into a symbolic link or a file) is left alone, each with
# a warning.
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
# The name an entry is copied under, beside its target, before it is renamed into place.
partial=.devcontainer-home-seed.partial

# Creates the directory $data/$1 with its parents. When that fails, says which part of the
# path is in the way and goes on: kubelet then reports the mount, but the pod is not held
# here on every start with no way for the user to get in and fix it.
make_dir() {
  if mkdir -p "$data/$1" 2>/dev/null; then return 0; fi
  rest=$1
  path=$data
  why="it cannot be created"
  while [ -n "$rest" ]; do
    path=$path/${rest%%/*}
    case $rest in */*) rest=${rest#*/} ;; *) rest= ;; esac
    if [ -L "$path" ] && [ ! -d "$path" ]; then
      why="${path#"$data"/} is a symbolic link to nothing (or to no directory)"
      break
    elif [ -e "$path" ] && [ ! -d "$path" ]; then
      why="${path#"$data"/} is not a directory"
      break
    fi
  done
  log "warning: cannot create '$1' on the volume: $why; leaving it as it is (a mount there may fail)"
}

for dir in home workspaces workspace-folder; do
  make_dir "$dir"
done

# The lists are space-separated by contract; no globbing while splitting them.
set -f
for dir in ${VOLUME_DIRS-} ${MOUNT_POINT_DIRS-}; do
  case /$dir/ in
    //* | */../* | */./*)
      log "warning: ignoring '$dir': not a plain path relative to the volume"
      continue
      ;;
  esac
  make_dir "$dir"
done
set +f

if [ -e "$marker" ]; then
  log "the home was seeded on an earlier start; leaving it to the user"
  exit 0
fi

# Removes the temporary $1 (a file, a link or a whole tree) and succeeds only when it is gone.
# A copy of a read-only tree (Go's module cache is 0555) is made writable first, or rm could
# not empty it; a link is removed, never followed (chmod would change what it points at).
remove_temporary() {
  if [ ! -L "$1" ] && [ -d "$1" ]; then
    chmod -R u+w "$1" 2>/dev/null || true
  fi
  rm -rf "$1" 2>/dev/null || true
  [ ! -e "$1" ] && [ ! -L "$1" ]
}

# A start that was stopped while copying left temporary copies behind: never renamed into
# place, so nothing under them is the user's. find does not follow symbolic links, and its
# status says nothing about what -exec did: a last find checks that none is left.
if [ -d "$data/home" ]; then
  find "$data/home" -name "$partial*" -prune ! -type l -exec chmod -R u+w {} \; 2>/dev/null || true
  find "$data/home" -name "$partial*" -prune -exec rm -rf {} \; 2>/dev/null || true
  left=$(find "$data/home" -name "$partial*" -prune -print 2>/dev/null | tr '\n' ' ' || true)
  if [ -n "$left" ]; then
    log "warning: cannot remove these leftover temporaries; they stay, and the copy goes around them: $left"
  fi
fi

# After cp failed on the directory $1, copied as $2: cp may have left a file of it cut short
# (a full volume) or empty (BusyBox's cp on a full volume), under its real name inside $2. So
# every regular file of $2 is copied again on its own, as $partial.recopy beside it, and
# replaces the first copy only when that cp succeeds; one that cannot be copied whole is
# removed, with a warning naming it. Fails when a file is left that could be neither replaced
# nor removed: the caller then drops $2 whole. The temporary's name is one the copy skips, so
# no file of the image is mistaken for it.
recopy_files() {
  left=$(find "$2" -type f -exec sh -c '
    src=$1 tmp=$2 partial=$3
    shift 3
    for f do
      t=${f%/*}/$partial.recopy
      if cp -p "$src${f#"$tmp"}" "$t" 2>/dev/null && mv -f "$t" "$f"; then continue; fi
      rm -f "$t"
      if rm -f "$f" && [ ! -e "$f" ]; then
        printf "seed-home: warning: %s could not be copied whole (a full volume?); it is not seeded\n" "$src${f#"$tmp"}" >&2
      else
        printf x
      fi
    done' sh "$1" "$2" "$partial" {} +) || return 1
  [ -z "$left" ]
}

# Copies the entry $1 into the directory $2 as $3 (a name that does not exist yet): first as
# $2/$partial, then renamed, which is atomic. A file that cp could not copy whole is dropped;
# a directory keeps what could be copied whole (cp reports what it skipped; recopy_files drops
# what it cut short). The temporary must not exist, or cp would copy into it: a leftover that
# cannot be removed is passed over for $partial.1, .2, ...; when none is free, the entry is
# skipped with a warning.
copy_entry() {
  tmp=
  for suffix in '' .1 .2 .3 .4 .5 .6 .7 .8 .9; do
    if remove_temporary "$2/$partial$suffix"; then
      tmp=$2/$partial$suffix
      break
    fi
  done
  if [ -z "$tmp" ]; then
    log "warning: no free temporary name in $2; $3 is not seeded"
    copy_failed=1
    return 0
  fi
  if ! cp -R -p "$1" "$tmp"; then
    copy_failed=1
    if [ -L "$1" ] || [ ! -d "$1" ] || [ ! -d "$tmp" ] || ! recopy_files "$1" "$tmp"; then
      remove_temporary "$tmp" || log "warning: cannot remove $tmp; leaving it"
      return 0
    fi
  fi
  if ! mv -f "$tmp" "$3"; then
    copy_failed=1
    remove_temporary "$tmp" || log "warning: cannot remove $tmp; leaving it"
  fi
  return 0
}

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
    case ${entry##*/} in "$partial"*) continue ;; esac
    # The image's own marker file (an image made from a seeded home) is not this start's:
    # copied, it would make a start stopped after it skip everything still missing.
    [ "$2/${entry##*/}" != "$marker" ] || continue
    existing=$2/${entry##*/}
    if [ ! -e "$existing" ] && [ ! -L "$existing" ]; then
      copy_entry "$entry" "$2" "$existing"
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
# printf, not ":": a failed redirection of a special builtin would end the shell here.
if ! printf '' >"$marker"; then
  log "warning: cannot write $marker; the next start tries to seed again"
fi
log "done"
