#!/bin/sh
# Dev Container VS Code extensions: coder_script "devcontainer_vscode" (non-blocking).
#
# On every start, installs into ~/.vscode-server (shared by VS Code Desktop and vscode-web,
# on the persisted home):
#   - the template's own extension (always updated, --force);
#   - the repository's customizations.vscode extensions;
#   - the repository's settings, merged into the Machine settings as defaults: a key is
#     written only when the user does not have it, or still has the value this script wrote
#     (and recorded) last time. A key the user set, even to the repository's value, stays
#     theirs. A symlinked settings.json stays a symlink: its target is rewritten. The file
#     keeps its mode (0600 stays 0600); one that cannot be written is left as it is.
# It also removes the retired extension deepspacecartel.devcontainer-builder-rebuild.
# Problems are logged; the script exits 0 so that a Marketplace hiccup never marks the start
# as failed.
#
# POSIX sh on purpose: a Dev Container image need not have bash. The settings merge runs on
# the `node` bundled with the VS Code server that installs the extensions, so the image needs
# no node (and no jq or python) of its own.
#
# Inputs, prepended by the template as single-quoted assignments after line 1:
#   DC_VSCODE_EXTENSIONS     the repository's extension IDs, one per line, or ''.
#                            Example: "ms-python.python
#                            esbenp.prettier-vscode"
#   DC_VSCODE_SETTINGS_B64   base64 of the merged settings JSON object (settings_json).
#                            '' or base64 of {} means none. Example: eyJhIjoxfQ== ({"a":1})
#   DC_VSCODE_OWN_EXTENSION  the vscode_extension variable: a Marketplace ID, an http(s) URL
#                            of a VSIX, or '' for none.
#                            Example: deepspacecartel.devcontainer-builder
# From the agent's environment: HOME, PATH (curl or wget for downloads, tar, uname, base64).

set -u

log() {
  printf 'devcontainer-vscode: %s\n' "$*" >&2
}

if [ -z "${HOME-}" ]; then
  log "HOME is not set; nothing to do"
  exit 0
fi

data_dir=$HOME/.vscode-server
extensions_dir=$data_dir/extensions
cache_dir=$HOME/.cache
installer_dir=$cache_dir/vscode-server-installer
settings_file=$cache_dir/devcontainer-vscode-settings.json
applied_file=$cache_dir/devcontainer-vscode-settings.applied.json
machine_settings=$data_dir/data/Machine/settings.json
retired_extension=deepspacecartel.devcontainer-builder-rebuild

extensions=${DC_VSCODE_EXTENSIONS-}
own_extension=${DC_VSCODE_OWN_EXTENSION-}
settings='{}'
if [ -n "${DC_VSCODE_SETTINGS_B64-}" ]; then
  if ! settings=$(printf '%s' "$DC_VSCODE_SETTINGS_B64" | base64 -d); then
    log "the repository's settings cannot be decoded; ignoring them"
    settings='{}'
  fi
fi
settings_compact=$(printf '%s' "$settings" | tr -d ' \t\r\n')
if [ "$settings_compact" = '{}' ] || [ -z "$settings_compact" ]; then
  settings_compact='{}'
fi
extensions_compact=$(printf '%s' "$extensions" | tr -d ' \t\r\n')

if [ -z "$extensions_compact" ] && [ -z "$own_extension" ] && [ "$settings_compact" = '{}' ]; then
  exit 0
fi

# Downloads $1 to $2 with curl, else wget. Never prints the URL. curl reads it as a config
# line on its standard input, so a signed URL's query is in no process's argv for others in
# the container to read; BusyBox's wget takes a URL only as an argument. A line break would
# start a config line of its own (`output = ...`), so such a URL is refused.
download() {
  case $1 in
    *"
"* | *"$(printf '\r')"*)
      log "a download URL holds a line break; refusing it"
      return 1
      ;;
  esac
  if command -v curl >/dev/null 2>&1; then
    printf 'url = "%s"\n' "$(printf '%s' "$1" | sed 's/[\\"]/\\&/g')" | curl -fsSL -o "$2" -K -
  elif command -v wget >/dev/null 2>&1; then
    wget -q -O "$2" "$1"
  else
    log "neither curl nor wget is installed"
    return 1
  fi
}

# VS Code Desktop's own server, when Desktop has connected before: the newest one that has an
# executable bin/code-server. Prints its directory, or nothing.
desktop_server() {
  newest=
  for candidate in "$data_dir"/cli/servers/Stable-*/server; do
    [ -x "$candidate/bin/code-server" ] || continue
    if [ -z "$newest" ] || [ -n "$(find "$candidate" -prune -newer "$newest")" ]; then
      newest=$candidate
    fi
  done
  printf '%s' "$newest"
}

# A private copy of the VS Code server, downloaded once into the cache and only used to
# install extensions (it is never served). Prints its directory, or nothing.
installer_server() {
  if [ -x "$installer_dir/bin/code-server" ]; then
    printf '%s' "$installer_dir"
    return 0
  fi
  case $(uname -m) in
    x86_64 | amd64) arch=x64 ;;
    aarch64 | arm64) arch=arm64 ;;
    *)
      log "no VS Code server for the architecture $(uname -m); skipping extensions and settings"
      return 0
      ;;
  esac
  log "downloading the VS Code server ($arch) to install extensions with"
  mkdir -p "$cache_dir" || return 0
  archive=$installer_dir.tar.gz
  unpacked=$installer_dir.tmp
  rm -rf "$archive" "$unpacked"
  if download "https://update.code.visualstudio.com/latest/server-linux-$arch/stable" "$archive" &&
    mkdir -p "$unpacked" &&
    tar -xzf "$archive" --strip-components=1 -C "$unpacked" &&
    [ -x "$unpacked/bin/code-server" ] &&
    rm -rf "$installer_dir" &&
    mv "$unpacked" "$installer_dir"; then
    rm -f "$archive"
    printf '%s' "$installer_dir"
    return 0
  fi
  log "could not download or unpack the VS Code server; skipping extensions and settings"
  rm -rf "$archive" "$unpacked"
}

server=$(desktop_server)
if [ -z "$server" ]; then
  server=$(installer_server)
fi
[ -n "$server" ] || exit 0

code_server() {
  "$server/bin/code-server" "$@" --extensions-dir "$extensions_dir" </dev/null
}

# Installs one extension (an ID or a .vsix path); extra arguments go to code-server.
install_extension() {
  name=$1
  shift
  output=$(code_server --install-extension "$name" "$@" 2>&1)
  rc=$?
  [ -z "$output" ] || printf '%s\n' "$output" >&2
  if [ "$rc" -ne 0 ] || printf '%s\n' "$output" | grep -q -e 'Failed Installing' -e 'not found'; then
    log "ERROR: could not install the extension $name"
    return 1
  fi
  log "extension $name is ready"
}

code_server --uninstall-extension "$retired_extension" >/dev/null 2>&1 || true

case $own_extension in
  '') ;;
  http://* | https://*)
    vsix=$cache_dir/devcontainer-builder.vsix
    # Logged without its query string and fragment, which may carry a signature, and with a
    # user name or password (refused at push time, but older versions took them) as ***.
    shown_url=${own_extension%%[?#]*}
    # Cut at a control character, so a line break cannot start a log line of its own.
    case $shown_url in *[[:cntrl:]]*) shown_url="${shown_url%%[[:cntrl:]]*}..." ;; esac
    rest=${shown_url#*://}
    authority=${rest%%/*}
    case $authority in
      *@*) shown_url="${shown_url%%://*}://***@${authority##*@}${rest#"$authority"}" ;;
    esac
    if mkdir -p "$cache_dir" && download "$own_extension" "$vsix.tmp" && mv -f "$vsix.tmp" "$vsix"; then
      install_extension "$vsix" --force || true
    else
      rm -f "$vsix.tmp"
      log "could not download $shown_url; skipping the template's extension"
    fi
    ;;
  *) install_extension "$own_extension" --force || true ;;
esac

printf '%s\n' "$extensions" | while IFS= read -r id; do
  id=$(printf '%s' "$id" | tr -d ' \t\r')
  [ -n "$id" ] || continue
  install_extension "$id" || true
done

[ "$settings_compact" != '{}' ] || exit 0

node=$server/node
if [ ! -x "$node" ]; then
  log "the VS Code server has no bundled node; cannot apply the repository's settings"
  exit 0
fi
if ! mkdir -p "$cache_dir" || ! printf '%s\n' "$settings" >"$settings_file"; then
  log "cannot write $settings_file"
  exit 0
fi

# The merge: repository settings are defaults. Values are compared as JSON strings.
# The record (applied_file) holds the keys this script wrote, with the value it wrote: only
# those are its own to change later. Before the target is rewritten, the keys about to be
# written are noted in <record>.pending, so that a merge stopped between the two writes
# still knows, on the next start, which values it wrote.
"$node" - "$settings_file" "$machine_settings" "$applied_file" <<'MERGE' || log "the settings merge failed"
"use strict";
const fs = require("fs");
const path = require("path");
const [repoFile, targetFile, appliedFile] = process.argv.slice(2);
const pendingFile = appliedFile + ".pending";
const log = (message) => console.error("devcontainer-vscode: " + message);
const isObject = (v) => typeof v === "object" && v !== null && !Array.isArray(v);
const has = (o, k) => Object.prototype.hasOwnProperty.call(o, k);
const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);
// Writes beside the file and renames, so a stop never leaves it half-written. An existing
// file keeps its mode (a 0600 settings.json may hold proxy credentials): the temporary is
// 0600 while it is written, then gets that mode. Throws with the file unchanged.
const writeAtomically = (file, value) => {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  let mode;
  try {
    mode = fs.statSync(file).mode & 0o7777;
  } catch (e) {
    mode = undefined; // a new file: the umask's mode, as before
  }
  const tmp = file + ".tmp";
  const fd = fs.openSync(tmp, "w", mode === undefined ? 0o666 : 0o600);
  try {
    try {
      if (mode !== undefined) fs.fchmodSync(fd, 0o600); // a leftover temporary keeps its mode
      fs.writeFileSync(fd, JSON.stringify(value, null, 2) + "\n");
      if (mode !== undefined) fs.fchmodSync(fd, mode);
    } finally {
      fs.closeSync(fd);
    }
    fs.renameSync(tmp, file);
  } catch (e) {
    try {
      fs.unlinkSync(tmp);
    } catch (ignored) {
      // already gone
    }
    throw e;
  }
};
const readRecord = (file) => {
  try {
    const recorded = JSON.parse(fs.readFileSync(file, "utf8"));
    return isObject(recorded) ? recorded : {};
  } catch (e) {
    return {};
  }
};

let repo;
try {
  repo = JSON.parse(fs.readFileSync(repoFile, "utf8"));
} catch (e) {
  repo = undefined;
}
if (!isObject(repo)) {
  log("the repository's settings are not a JSON object; ignoring them");
  process.exit(0);
}

// A symlinked settings file (dotfiles) stays a link: the file it points at is rewritten.
let writeTo = targetFile;
let link;
try {
  link = fs.lstatSync(targetFile).isSymbolicLink();
} catch (e) {
  link = false;
}
if (link) {
  try {
    writeTo = fs.realpathSync(targetFile);
  } catch (e) {
    log(targetFile + " is a symbolic link to nothing; leaving it untouched");
    process.exit(0);
  }
}

let target = {};
// Named in messages as the user knows it: the link, and what it points at.
const shown = writeTo === targetFile ? targetFile : targetFile + " (a link to " + writeTo + ")";

if (fs.existsSync(writeTo)) {
  let text;
  try {
    text = fs.readFileSync(writeTo, "utf8");
  } catch (e) {
    log("cannot read " + shown + " (" + (e.code || e.message) + "); leaving it untouched");
    process.exit(0);
  }
  if (text.trim() !== "") {
    try {
      target = JSON.parse(text);
    } catch (e) {
      target = undefined;
    }
    if (!isObject(target)) {
      log(targetFile + " is not plain JSON (comments or trailing commas?); leaving it untouched");
      process.exit(0);
    }
  }
}

const applied = readRecord(appliedFile);
// Written by a merge that was stopped before it could record them.
const pending = readRecord(pendingFile);
for (const key of Object.keys(pending)) {
  if (has(target, key) && same(target[key], pending[key])) applied[key] = pending[key];
}

const written = [];
const changes = {};
const record = {};
for (const key of Object.keys(repo)) {
  const ours = !has(target, key) || (has(applied, key) && same(target[key], applied[key]));
  if (!ours) continue; // the user's: never written, never recorded
  record[key] = repo[key];
  if (!has(target, key) || !same(target[key], repo[key])) {
    changes[key] = repo[key];
    written.push(key);
  }
}
if (written.length > 0) {
  try {
    writeAtomically(pendingFile, changes);
    writeAtomically(writeTo, Object.assign(target, changes));
  } catch (e) {
    // Nothing of this merge reached the target. What is known to be the script's (the
    // record, and keys a stopped merge noted and the target still holds) stays recorded;
    // the note of this merge, never written, goes.
    const why = e.code || e.message;
    log("cannot write " + shown + " (" + why + "); leaving it untouched, without the settings");
    try {
      writeAtomically(appliedFile, applied);
      fs.rmSync(pendingFile, { force: true });
    } catch (ignored) {
      // the cache is not writable either: the next start sees the same note
    }
    process.exit(0);
  }
}
writeAtomically(appliedFile, record);
fs.rmSync(pendingFile, { force: true });

log(written.length > 0 ? "settings set: " + written.join(", ") : "settings: nothing to change");
MERGE
exit 0
