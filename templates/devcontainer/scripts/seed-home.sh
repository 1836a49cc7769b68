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
#   3. seeds each named or anonymous volume from the image's content at its target on its
#      first use, as Docker does for a new, empty volume (a cache volume over /usr/local/cargo
#      must still hold cargo): only a volume that is empty, only when the image has something
#      there, and never again once seeded (marker volumes/.devcontainer-seeded/<name>, beside
#      the volumes, so the user never sees it). A volume that already holds files without a
#      marker (from a template version before this one) is marked and left as it is. While a
#      seed is under way, volumes/.devcontainer-seeding/<name> says so: a start stopped during
#      it finishes it on the next start, with the same guarantees as the home's copy.
# Each entry (of the home or a volume) is copied under a temporary name beside its target and
# renamed into place, so a
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
#   SEED_VOLUMES      the volumes to seed: <volume dir>=<target in the image>, space-separated,
#                     each volume once. Example: "volumes/cargo-cache=/usr/local/cargo"
#   SEED_DATA_DIR     where the PVC is mounted. Default /mnt/data; only tests change it.

set -eu

log() {
  printf 'seed-home: %s\n' "$*" >&2
}

data=${SEED_DATA_DIR:-/mnt/data}
home_dir=${HOME_DIR:?HOME_DIR must be set (a template bug)}
marker=$data/home/.devcontainer-home-seeded
# Beside the volumes' directories: no volume is named so (a volume name starts with a letter
# or digit).
volume_seeded=$data/volumes/.devcontainer-seeded
volume_seeding=$data/volumes/.devcontainer-seeding
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

# A start that was stopped while copying into the directory $1 left temporary copies behind:
# never renamed into place, so nothing under them is the user's. find does not follow symbolic
# links, and its status says nothing about what -exec did: a last find checks that none is left.
remove_leftover_temporaries() {
  [ -d "$1" ] || return 0
  find "$1" -name "$partial*" -prune ! -type l -exec chmod -R u+w {} \; 2>/dev/null || true
  find "$1" -name "$partial*" -prune -exec rm -rf {} \; 2>/dev/null || true
  left=$(find "$1" -name "$partial*" -prune -print 2>/dev/null | tr '\n' ' ' || true)
  if [ -n "$left" ]; then
    log "warning: cannot remove these leftover temporaries; they stay, and the copy goes around them: $left"
  fi
}

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

seed_home() {
  if [ -e "$marker" ]; then
    log "the home was seeded on an earlier start; leaving it to the user"
    return 0
  fi
  remove_leftover_temporaries "$data/home"
  if [ ! -d "$home_dir" ]; then
    log "the image has no $home_dir; the home starts empty"
  else
    log "first start: copying $home_dir from the image into the persistent home"
    copy_failed=0
    copy_missing "$home_dir" "$data/home"
    if [ "$copy_failed" = 1 ]; then
      log "warning: some files in $home_dir could not be copied (unreadable files, sockets, ...) and were skipped"
    fi
  fi
  # printf, not ":": a failed redirection of a special builtin would end the shell here.
  if ! printf '' >"$marker"; then
    log "warning: cannot write $marker; the next start tries to seed again"
  fi
}

# Whether the directory $1 holds any entry (hidden ones too).
has_entries() {
  for entry in "$1"/* "$1"/.[!.]* "$1"/..?*; do
    if [ -e "$entry" ] || [ -L "$entry" ]; then return 0; fi
  done
  return 1
}

# Writes the (empty) marker file $1, or says that the next start looks again.
write_marker() {
  if ! printf '' >"$1"; then
    log "warning: cannot write $1; the next start looks at this volume again"
  fi
}

# Seeds the volume directory $1 (volumes/<name>) from the image's $2, on its first use only.
seed_volume() {
  name=${1#volumes/}
  volume=$data/$1
  done_marker=$volume_seeded/$name
  started_marker=$volume_seeding/$name
  if [ -e "$done_marker" ]; then
    log "volume $name was seeded on an earlier start; leaving it as it is"
    return 0
  fi
  if [ ! -d "$volume" ] || [ -L "$volume" ]; then
    log "warning: volume $name has no directory on the disk; not seeding it"
    return 0
  fi
  if [ ! -e "$started_marker" ]; then
    if has_entries "$volume"; then
      # Docker copies an image's content only into an empty volume.
      log "volume $name already holds files; not seeding it from the image"
      write_marker "$done_marker"
      return 0
    fi
    if [ ! -d "$2" ] || ! has_entries "$2"; then
      # Not marked: a rebuilt image with something there seeds it while it is still empty.
      log "the image has nothing at $2; volume $name starts empty"
      return 0
    fi
    if ! printf '' >"$started_marker"; then
      log "warning: cannot write $started_marker; not seeding volume $name on this start"
      return 0
    fi
    log "first use of volume $name: copying $2 from the image into it"
  else
    log "volume $name: finishing the seed a stopped start began"
    remove_leftover_temporaries "$volume"
    if [ ! -d "$2" ]; then
      log "the image has nothing at $2 any more; volume $name keeps what was copied"
    fi
  fi
  copy_failed=0
  [ ! -d "$2" ] || copy_missing "$2" "$volume"
  if [ "$copy_failed" = 1 ]; then
    log "warning: some files in $2 could not be copied into volume $name (unreadable files, sockets, ...) and were skipped"
  fi
  write_marker "$done_marker"
  rm -f "$started_marker" || log "warning: cannot remove $started_marker"
}

seed_home
set -f
for seed in ${SEED_VOLUMES-}; do
  dir=${seed%%=*}
  target=${seed#*=}
  case $dir in
    volumes/*/* | volumes/ | volumes/.*) dir= ;;
    volumes/*) ;;
    *) dir= ;;
  esac
  case $target in
    /*) ;;
    *) dir= ;;
  esac
  case /$target/ in */../* | */./*) dir= ;; esac
  if [ -z "$dir" ] || [ "$seed" = "${seed#*=}" ]; then
    log "warning: ignoring '$seed': not <volume dir>=<absolute target>"
    continue
  fi
  set +f
  if [ ! -d "$volume_seeded" ] && ! mkdir -p "$volume_seeded" "$volume_seeding" 2>/dev/null; then
    log "warning: cannot create $volume_seeded; not seeding volumes on this start"
    break
  fi
  mkdir -p "$volume_seeding" 2>/dev/null || true
  seed_volume "$dir" "$target"
  set -f
done
set +f
log "done"
