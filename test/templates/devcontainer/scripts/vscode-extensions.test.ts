/**
 * vscode-extensions.sh (coder_script "devcontainer_vscode"): picks a VS Code server, installs
 * extensions through it (a fake code-server that records argv) and merges the repository's
 * settings with the server's bundled node (here: this node).
 */
import { execFileSync } from "node:child_process";
import {
  chmodSync,
  existsSync,
  lstatSync,
  mkdirSync,
  readFileSync,
  readlinkSync,
  rmSync,
  statSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import {
  readRecordedCalls,
  runScript,
  ScriptRun,
  shellQuote,
  tempDirs,
  UnprivilegedUser,
  writeFakeExecutable,
  writeRecordingExecutable,
} from "../../../support/run-script";
import {
  describeEachToolset,
  base64,
  createImageSandbox,
  ImageSandbox,
  ImageToolset,
  scriptPath,
} from "./helpers";

const dirs = tempDirs();
afterAll(() => dirs.cleanup());

const OWN_EXTENSION = "deepspacecartel.devcontainer-builder";
const RETIRED_EXTENSION = "deepspacecartel.devcontainer-builder-rebuild";

/** Like VS Code's CLI: "not found" for unknown IDs, success otherwise. */
const FAKE_CODE_SERVER = `case "$1" in
  --install-extension)
    case "$2" in *missing*) echo "Extension '$2' not found."; exit 1 ;; esac
    echo "Extension '$2' was successfully installed." ;;
esac`;

/**
 * A fake downloader (curl or wget) that serves $FAKE_DOWNLOAD, or fails without it. What curl
 * reads with `-K -` (the URL, as a config line) is appended to $FAKE_CONFIG_LOG.
 */
const FAKE_DOWNLOADER = `out=
while [ $# -gt 0 ]; do
  case "$1" in
    -o | -O) out=$2; shift ;;
    -K) [ "$2" = - ] && cat >>"\${FAKE_CONFIG_LOG:-/dev/null}"; shift ;;
  esac
  shift
done
[ -n "\${FAKE_DOWNLOAD-}" ] || { echo "simulated download failure" >&2; exit 22; }
cp "$FAKE_DOWNLOAD" "$out"`;

interface VscodeFixture {
  readonly sandbox: ImageSandbox;
  readonly extensionsDir: string;
  readonly machineSettings: string;
  readonly appliedFile: string;
  /** Installs a fake server under ~/.vscode-server/cli/servers; returns its argv log. */
  addDesktopServer(name: string, mtimeSeconds: number): string;
  /** Runs the script, as `asUser` when given (the tests run as root, who may write anything). */
  run(env?: Readonly<Record<string, string>>, asUser?: UnprivilegedUser): Promise<ScriptRun>;
}

function createVscodeFixture(toolset: ImageToolset): VscodeFixture {
  const sandbox = createImageSandbox(dirs, { withGit: false, toolset });
  const dataDir = join(sandbox.home, ".vscode-server");
  return {
    sandbox,
    extensionsDir: join(dataDir, "extensions"),
    machineSettings: join(dataDir, "data", "Machine", "settings.json"),
    appliedFile: join(sandbox.home, ".cache", "devcontainer-vscode-settings.applied.json"),
    addDesktopServer(name, mtimeSeconds) {
      const server = join(dataDir, "cli", "servers", name, "server");
      const calls = join(sandbox.root, `${name}-calls`);
      writeRecordingExecutable(join(server, "bin"), "code-server", calls, FAKE_CODE_SERVER);
      symlinkSync(process.execPath, join(server, "node"));
      utimesSync(server, mtimeSeconds, mtimeSeconds);
      return calls;
    },
    run(env = {}, asUser = undefined) {
      return runScript({
        script: scriptPath("vscode-extensions.sh"),
        shell: sandbox.shell,
        asUser,
        env: sandbox.env({
          DC_VSCODE_EXTENSIONS: "",
          DC_VSCODE_SETTINGS_B64: base64("{}"),
          DC_VSCODE_OWN_EXTENSION: "",
          ...env,
        }),
      });
    },
  };
}

function settingsEnv(settings: Record<string, unknown>): Record<string, string> {
  return { DC_VSCODE_SETTINGS_B64: base64(JSON.stringify(settings)) };
}

function readJson(file: string): unknown {
  return JSON.parse(readFileSync(file, "utf8"));
}

describeEachToolset("with %s tools", (toolset) => {
  describe("vscode-extensions.sh: extensions", () => {
    test("does nothing at all when there are no extensions, no own extension and settings {}", async () => {
      const vscode = createVscodeFixture(toolset);
      const downloads = join(vscode.sandbox.root, "curl-calls");
      writeRecordingExecutable(vscode.sandbox.fakeBin, "curl", downloads, FAKE_DOWNLOADER);
      const run = await vscode.run({ DC_VSCODE_EXTENSIONS: "\n \n" });
      expect(run.exitCode).toBe(0);
      expect(run.output).toBe("");
      expect(readRecordedCalls(downloads)).toEqual([]);
    });

    test("uses Desktop's newest server: retires the old extension, forces its own, installs the repository's", async () => {
      const vscode = createVscodeFixture(toolset);
      const olderCalls = vscode.addDesktopServer("Stable-older", 1_600_000_000);
      const newestCalls = vscode.addDesktopServer("Stable-newest", 1_700_000_000);

      const run = await vscode.run({
        DC_VSCODE_OWN_EXTENSION: OWN_EXTENSION,
        DC_VSCODE_EXTENSIONS:
          "ms-python.python\n\nacme.missing-extension\r\nesbenp.prettier-vscode",
      });

      expect(run.exitCode).toBe(0);
      expect(readRecordedCalls(olderCalls)).toEqual([]);
      const dir = ["--extensions-dir", vscode.extensionsDir];
      expect(readRecordedCalls(newestCalls)).toEqual([
        ["--uninstall-extension", RETIRED_EXTENSION, ...dir],
        ["--install-extension", OWN_EXTENSION, "--force", ...dir],
        ["--install-extension", "ms-python.python", ...dir],
        ["--install-extension", "acme.missing-extension", ...dir],
        ["--install-extension", "esbenp.prettier-vscode", ...dir],
      ]);
      expect(run.output).toMatch(/ERROR: could not install the extension acme\.missing-extension/);
      expect(run.output).toMatch(/extension esbenp\.prettier-vscode is ready/);
      expect(run.output).not.toMatch(/ERROR.*prettier/);
    });

    test("an own extension given as a URL is downloaded through a .tmp file and forced", async () => {
      const vscode = createVscodeFixture(toolset);
      const calls = vscode.addDesktopServer("Stable-a", 1_700_000_000);
      const curlCalls = join(vscode.sandbox.root, "curl-calls");
      writeRecordingExecutable(vscode.sandbox.fakeBin, "curl", curlCalls, FAKE_DOWNLOADER);
      const vsixSource = join(vscode.sandbox.root, "build.vsix");
      writeFileSync(vsixSource, "PK fake vsix");
      const url = "https://downloads.example.test/devcontainer-builder-1.2.3.vsix?sig=abc";

      const config = join(vscode.sandbox.root, "curl-config");

      const run = await vscode.run({
        DC_VSCODE_OWN_EXTENSION: url,
        FAKE_DOWNLOAD: vsixSource,
        FAKE_CONFIG_LOG: config,
      });

      expect(run.exitCode).toBe(0);
      const vsix = join(vscode.sandbox.home, ".cache", "devcontainer-builder.vsix");
      // The signed URL reaches curl on its standard input, never in its argv.
      expect(readRecordedCalls(curlCalls)).toEqual([["-fsSL", "-o", `${vsix}.tmp`, "-K", "-"]]);
      expect(readFileSync(config, "utf8")).toBe(`url = "${url}"\n`);
      expect(readFileSync(vsix, "utf8")).toBe("PK fake vsix");
      expect(existsSync(`${vsix}.tmp`)).toBe(false);
      expect(readRecordedCalls(calls)).toContainEqual([
        "--install-extension",
        vsix,
        "--force",
        "--extensions-dir",
        vscode.extensionsDir,
      ]);
    });

    test.each([
      [
        "https://ci-bot:glpat-SECRET123@artifacts.example.com/ext.vsix?X-Amz-Signature=abc",
        "https://***@artifacts.example.com/ext.vsix",
      ],
      [
        "https://ghp_SECRET123@artifacts.example.com:8443/a/ext.vsix#x",
        "https://***@artifacts.example.com:8443/a/ext.vsix",
      ],
      ["http://a:b@c:SECRET123@artifacts.example.com", "http://***@artifacts.example.com"],
    ])("a URL with credentials %s is logged without them, as %s", async (url, shown) => {
      const vscode = createVscodeFixture(toolset);
      vscode.addDesktopServer("Stable-a", 1_700_000_000);
      writeFakeExecutable(vscode.sandbox.fakeBin, "curl", FAKE_DOWNLOADER);

      const run = await vscode.run({ DC_VSCODE_OWN_EXTENSION: url });

      expect(run.exitCode).toBe(0);
      expect(run.output).toContain(`could not download ${shown}; skipping`);
      expect(run.output).not.toContain("SECRET123");
      expect(run.output).not.toContain("ci-bot");
    });

    test("a failed download of the own extension is logged and skipped; the rest goes on", async () => {
      const vscode = createVscodeFixture(toolset);
      const calls = vscode.addDesktopServer("Stable-a", 1_700_000_000);
      writeFakeExecutable(vscode.sandbox.fakeBin, "curl", FAKE_DOWNLOADER);

      const run = await vscode.run({
        DC_VSCODE_OWN_EXTENSION: "https://downloads.example.test/x.vsix?token=s3cret",
        DC_VSCODE_EXTENSIONS: "ms-python.python",
      });

      expect(run.exitCode).toBe(0);
      expect(run.output).toMatch(/could not download https:\/\/downloads\.example\.test\/x\.vsix;/);
      expect(run.output).not.toContain("s3cret");
      const installed = readRecordedCalls(calls).filter(
        (argv) => argv[0] === "--install-extension",
      );
      expect(installed.map((argv) => argv[1])).toEqual(["ms-python.python"]);
    });
  });

  describe("vscode-extensions.sh: the installer when Desktop never connected", () => {
    /** A gzipped tarball shaped like Microsoft's: one top-level directory. */
    function serverTarball(vscode: VscodeFixture, calls: string): string {
      const staging = join(vscode.sandbox.root, "staging");
      const top = join(staging, "vscode-server-linux-x64");
      writeRecordingExecutable(join(top, "bin"), "code-server", calls, FAKE_CODE_SERVER);
      symlinkSync(process.execPath, join(top, "node"));
      const tarball = join(vscode.sandbox.root, "server.tar.gz");
      execFileSync("tar", ["-czf", tarball, "-C", staging, "vscode-server-linux-x64"]);
      return tarball;
    }

    test("quotes a URL's double quotes and backslashes for curl, and refuses a line break", async () => {
      const vscode = createVscodeFixture(toolset);
      vscode.addDesktopServer("Stable-a", 1_700_000_000);
      const curlCalls = join(vscode.sandbox.root, "curl-calls");
      writeRecordingExecutable(vscode.sandbox.fakeBin, "curl", curlCalls, FAKE_DOWNLOADER);
      const vsixSource = join(vscode.sandbox.root, "build.vsix");
      writeFileSync(vsixSource, "PK fake vsix");
      const config = join(vscode.sandbox.root, "curl-config");
      const env = { FAKE_DOWNLOAD: vsixSource, FAKE_CONFIG_LOG: config };

      const quoted = 'https://downloads.example.test/a"b\\c.vsix';
      expect((await vscode.run({ ...env, DC_VSCODE_OWN_EXTENSION: quoted })).exitCode).toBe(0);
      expect(readFileSync(config, "utf8")).toBe(
        'url = "https://downloads.example.test/a\\"b\\\\c.vsix"\n',
      );

      const split = "https://downloads.example.test/x.vsix\noutput = /tmp/elsewhere";
      const run = await vscode.run({ ...env, DC_VSCODE_OWN_EXTENSION: split });
      expect(run.exitCode).toBe(0);
      expect(run.output).toMatch(/a download URL holds a line break; refusing it/);
      expect(run.output).not.toContain("elsewhere");
      expect(run.output).toContain("could not download https://downloads.example.test/x.vsix...;");
      expect(readRecordedCalls(curlCalls)).toHaveLength(1);
    });

    test("downloads the latest stable server once with curl and installs through it", async () => {
      const vscode = createVscodeFixture(toolset);
      writeFakeExecutable(vscode.sandbox.fakeBin, "uname", "echo x86_64");
      const curlCalls = join(vscode.sandbox.root, "curl-calls");
      writeRecordingExecutable(vscode.sandbox.fakeBin, "curl", curlCalls, FAKE_DOWNLOADER);
      const serverCalls = join(vscode.sandbox.root, "installer-calls");
      const config = join(vscode.sandbox.root, "curl-config");
      const env = {
        DC_VSCODE_EXTENSIONS: "ms-python.python",
        FAKE_DOWNLOAD: serverTarball(vscode, serverCalls),
        FAKE_CONFIG_LOG: config,
      };

      expect((await vscode.run(env)).exitCode).toBe(0);
      expect((await vscode.run(env)).exitCode).toBe(0);

      const installer = join(vscode.sandbox.home, ".cache", "vscode-server-installer");
      const curl = readRecordedCalls(curlCalls);
      expect(curl).toHaveLength(1);
      expect(curl[0].slice(-2)).toEqual(["-K", "-"]);
      expect(readFileSync(config, "utf8")).toBe(
        'url = "https://update.code.visualstudio.com/latest/server-linux-x64/stable"\n',
      );
      expect(statSync(join(installer, "bin", "code-server")).isFile()).toBe(true);
      expect(existsSync(`${installer}.tar.gz`)).toBe(false);
      const installs = readRecordedCalls(serverCalls).filter((a) => a[0] === "--install-extension");
      expect(installs).toEqual([
        ["--install-extension", "ms-python.python", "--extensions-dir", vscode.extensionsDir],
        ["--install-extension", "ms-python.python", "--extensions-dir", vscode.extensionsDir],
      ]);
    });

    test("falls back to wget, and asks for the arm64 build on aarch64", async () => {
      const vscode = createVscodeFixture(toolset);
      writeFakeExecutable(vscode.sandbox.fakeBin, "uname", "echo aarch64");
      const wgetCalls = join(vscode.sandbox.root, "wget-calls");
      writeRecordingExecutable(vscode.sandbox.fakeBin, "wget", wgetCalls, FAKE_DOWNLOADER);

      const run = await vscode.run({ DC_VSCODE_EXTENSIONS: "ms-python.python" });

      // The fake fails without FAKE_DOWNLOAD: logged, and still exit 0.
      expect(run.exitCode).toBe(0);
      expect(run.output).toMatch(/could not download or unpack the VS Code server/);
      const installer = join(vscode.sandbox.home, ".cache", "vscode-server-installer");
      expect(readRecordedCalls(wgetCalls)).toEqual([
        [
          "-q",
          "-O",
          `${installer}.tar.gz`,
          "https://update.code.visualstudio.com/latest/server-linux-arm64/stable",
        ],
      ]);
      expect(existsSync(installer)).toBe(false);
      expect(existsSync(`${installer}.tmp`)).toBe(false);
    });

    test("an unknown architecture is logged and skipped with exit 0", async () => {
      const vscode = createVscodeFixture(toolset);
      writeFakeExecutable(vscode.sandbox.fakeBin, "uname", "echo riscv64");
      const curlCalls = join(vscode.sandbox.root, "curl-calls");
      writeRecordingExecutable(vscode.sandbox.fakeBin, "curl", curlCalls, FAKE_DOWNLOADER);
      const run = await vscode.run({ DC_VSCODE_EXTENSIONS: "ms-python.python" });
      expect(run.exitCode).toBe(0);
      expect(run.output).toMatch(/riscv64/);
      expect(readRecordedCalls(curlCalls)).toEqual([]);
    });
  });

  describe("vscode-extensions.sh: the settings merge", () => {
    test("the first start writes every repository key, pretty-printed, and records them", async () => {
      const vscode = createVscodeFixture(toolset);
      vscode.addDesktopServer("Stable-a", 1_700_000_000);
      const settings = { "editor.tabSize": 2, "files.exclude": { "**/.git": true } };

      const run = await vscode.run(settingsEnv(settings));

      expect(run.exitCode).toBe(0);
      expect(readFileSync(vscode.machineSettings, "utf8")).toBe(
        `${JSON.stringify(settings, null, 2)}\n`,
      );
      expect(readJson(vscode.appliedFile)).toEqual(settings);
      expect(run.output).toMatch(/settings set: editor\.tabSize, files\.exclude/);
      const decoded = join(vscode.sandbox.home, ".cache", "devcontainer-vscode-settings.json");
      expect(readJson(decoded)).toEqual(settings);
    });

    test("a key the user changed is kept; a repository change reaches the keys the user left alone", async () => {
      const vscode = createVscodeFixture(toolset);
      vscode.addDesktopServer("Stable-a", 1_700_000_000);
      expect(
        (await vscode.run(settingsEnv({ "editor.tabSize": 2, "files.eol": "\n", "a.same": 1 })))
          .exitCode,
      ).toBe(0);
      // The user changes one key and adds one of their own.
      const edited = {
        ...(readJson(vscode.machineSettings) as object),
        "editor.tabSize": 8,
        mine: "x",
      };
      writeFileSync(vscode.machineSettings, JSON.stringify(edited));

      const repo = { "editor.tabSize": 4, "files.eol": "\r\n", "a.same": 1, "b.new": true };
      const run = await vscode.run(settingsEnv(repo));

      expect(run.exitCode).toBe(0);
      expect(readJson(vscode.machineSettings)).toEqual({
        "editor.tabSize": 8,
        "files.eol": "\r\n",
        "a.same": 1,
        mine: "x",
        "b.new": true,
      });
      expect(run.output).toMatch(/settings set: files\.eol, b\.new/);
      expect(readJson(vscode.appliedFile)).toEqual({
        "files.eol": "\r\n",
        "a.same": 1,
        "b.new": true,
      });

      // Nothing new: the file is not rewritten.
      const before = readFileSync(vscode.machineSettings, "utf8");
      const again = await vscode.run(settingsEnv(repo));
      expect(again.output).toMatch(/nothing to change/);
      expect(readFileSync(vscode.machineSettings, "utf8")).toBe(before);
    });

    test("a target with comments (JSONC) is left untouched", async () => {
      const vscode = createVscodeFixture(toolset);
      vscode.addDesktopServer("Stable-a", 1_700_000_000);
      const jsonc = '{\n  // my font\n  "editor.fontSize": 15,\n}\n';
      mkdirSync(join(vscode.machineSettings, ".."), { recursive: true });
      writeFileSync(vscode.machineSettings, jsonc);

      const run = await vscode.run(settingsEnv({ "editor.tabSize": 2 }));

      expect(run.exitCode).toBe(0);
      expect(readFileSync(vscode.machineSettings, "utf8")).toBe(jsonc);
      expect(run.output).toMatch(/not plain JSON/);
      expect(existsSync(vscode.appliedFile)).toBe(false);
    });
  });
});

// The merge is the server's node's work: the host's and BusyBox's tools around it are enough.
describeEachToolset("with %s tools: a setting the user has is never lost", (toolset) => {
  test("a key the user set to the repository's value stays theirs when the repository changes it", async () => {
    const vscode = createVscodeFixture(toolset);
    vscode.addDesktopServer("Stable-a", 1_700_000_000);
    mkdirSync(join(vscode.machineSettings, ".."), { recursive: true });
    writeFileSync(vscode.machineSettings, JSON.stringify({ "editor.tabSize": 4, mine: true }));

    const first = await vscode.run(settingsEnv({ "editor.tabSize": 4, "editor.rulers": [80] }));
    expect(first.exitCode).toBe(0);
    expect(readJson(vscode.appliedFile)).toEqual({ "editor.rulers": [80] });

    const second = await vscode.run(settingsEnv({ "editor.tabSize": 2, "editor.rulers": [100] }));

    expect(second.exitCode).toBe(0);
    expect(readJson(vscode.machineSettings)).toEqual({
      "editor.tabSize": 4,
      mine: true,
      "editor.rulers": [100],
    });
    expect(second.output).toMatch(/settings set: editor\.rulers$/m);
  });

  test("a symlinked settings.json stays a symlink; the file it points at gets the settings", async () => {
    const vscode = createVscodeFixture(toolset);
    vscode.addDesktopServer("Stable-a", 1_700_000_000);
    const dotfile = join(vscode.sandbox.home, "dotfiles", "vscode.json");
    mkdirSync(join(dotfile, ".."), { recursive: true });
    writeFileSync(dotfile, JSON.stringify({ mine: 1 }));
    mkdirSync(join(vscode.machineSettings, ".."), { recursive: true });
    symlinkSync("../../../dotfiles/vscode.json", vscode.machineSettings);

    const run = await vscode.run(settingsEnv({ "editor.tabSize": 2 }));

    expect(run.exitCode).toBe(0);
    expect(lstatSync(vscode.machineSettings).isSymbolicLink()).toBe(true);
    expect(readlinkSync(vscode.machineSettings)).toBe("../../../dotfiles/vscode.json");
    expect(readJson(dotfile)).toEqual({ mine: 1, "editor.tabSize": 2 });
    expect(existsSync(`${dotfile}.tmp`)).toBe(false);
  });

  test.each([
    ["0600", 0o600],
    ["0400", 0o400],
    ["0640", 0o640],
  ])(
    "a settings.json of mode %s (proxy credentials) keeps its mode, linked or not",
    async (_name, mode) => {
      const vscode = createVscodeFixture(toolset);
      vscode.addDesktopServer("Stable-a", 1_700_000_000);
      mkdirSync(join(vscode.machineSettings, ".."), { recursive: true });
      writeFileSync(vscode.machineSettings, JSON.stringify({ "http.proxy": "http://u:p@proxy" }));
      chmodSync(vscode.machineSettings, mode);
      const dotfile = join(vscode.sandbox.home, "dotfiles", "vscode.json");
      mkdirSync(join(dotfile, ".."), { recursive: true });
      writeFileSync(dotfile, JSON.stringify({ mine: 1 }));
      chmodSync(dotfile, mode);

      const run = await vscode.run(settingsEnv({ "editor.tabSize": 2 }));
      expect(readJson(vscode.machineSettings)).toEqual({
        "http.proxy": "http://u:p@proxy",
        "editor.tabSize": 2,
      });
      expect(statSync(vscode.machineSettings).mode & 0o777).toBe(mode);
      rmSync(vscode.machineSettings);
      symlinkSync(dotfile, vscode.machineSettings);
      const linked = await vscode.run(settingsEnv({ "editor.tabSize": 2, "editor.rulers": [] }));

      for (const r of [run, linked]) expect(r.exitCode).toBe(0);
      expect(readJson(vscode.appliedFile)).toEqual({ "editor.tabSize": 2, "editor.rulers": [] });
      expect(readJson(dotfile)).toEqual({ mine: 1, "editor.tabSize": 2, "editor.rulers": [] });
      expect(statSync(dotfile).mode & 0o777).toBe(mode);
      expect(lstatSync(vscode.machineSettings).isSymbolicLink()).toBe(true);
      expect(existsSync(`${dotfile}.tmp`)).toBe(false);
    },
  );

  test("a settings.json linked to a file it cannot write is left untouched, with one log line and its record kept", async () => {
    const user: UnprivilegedUser = { uid: 4243, gid: 4243 };
    const asUser = process.getuid?.() === 0 ? user : undefined;
    const vscode = createVscodeFixture(toolset);
    vscode.addDesktopServer("Stable-a", 1_700_000_000);
    // The home is the user's; the dotfiles the link points at are not writable for them.
    if (asUser) execFileSync("chown", ["-R", `${user.uid}:${user.gid}`, vscode.sandbox.root]);
    const dotfiles = join(vscode.sandbox.root, "dotfiles");
    const dotfile = join(dotfiles, "vscode.json");
    mkdirSync(dotfiles);
    writeFileSync(dotfile, JSON.stringify({ mine: 1 }));
    if (asUser) execFileSync("chown", ["-R", `${user.uid}:${user.gid}`, dotfiles]);
    mkdirSync(join(vscode.machineSettings, ".."), { recursive: true });
    symlinkSync(dotfile, vscode.machineSettings);
    if (asUser) execFileSync("chown", ["-h", `${user.uid}:${user.gid}`, vscode.machineSettings]);
    const first = await vscode.run(settingsEnv({ "editor.tabSize": 2 }), asUser);
    expect(first.exitCode).toBe(0);
    expect(readJson(vscode.appliedFile)).toEqual({ "editor.tabSize": 2 });
    const before = readFileSync(dotfile, "utf8");

    if (asUser) execFileSync("chown", ["-R", "0:0", dotfiles]);
    chmodSync(dotfiles, 0o555);
    chmodSync(dotfile, 0o444);
    let run: ScriptRun;
    try {
      run = await vscode.run(settingsEnv({ "editor.tabSize": 4, "b.new": true }), asUser);
    } finally {
      chmodSync(dotfiles, 0o755);
      chmodSync(dotfile, 0o644);
      if (asUser) execFileSync("chown", ["-R", `${user.uid}:${user.gid}`, dotfiles]);
    }

    expect(run.exitCode).toBe(0);
    const lines = run.output
      .split("\n")
      .filter((line) => line.includes("settings") || line.includes("vscode.json"));
    expect(lines).toEqual([
      `devcontainer-vscode: cannot write ${vscode.machineSettings} (a link to ${dotfile}) (EACCES); leaving it untouched, without the settings`,
    ]);
    expect(run.output).not.toMatch(/^\s+at |Error:/m);
    expect(readFileSync(dotfile, "utf8")).toBe(before);
    expect(readlinkSync(vscode.machineSettings)).toBe(dotfile);
    expect(existsSync(`${vscode.appliedFile}.pending`)).toBe(false);
    expect(existsSync(`${dotfile}.tmp`)).toBe(false);
    expect(readJson(vscode.appliedFile)).toEqual({ "editor.tabSize": 2 });

    // Writable again: the key the script wrote is still its own to change.
    const again = await vscode.run(settingsEnv({ "editor.tabSize": 4, "b.new": true }), asUser);
    expect(again.exitCode).toBe(0);
    expect(readJson(dotfile)).toEqual({ mine: 1, "editor.tabSize": 4, "b.new": true });
  });

  test("a settings.json linked to nothing is left alone", async () => {
    const vscode = createVscodeFixture(toolset);
    vscode.addDesktopServer("Stable-a", 1_700_000_000);
    mkdirSync(join(vscode.machineSettings, ".."), { recursive: true });
    symlinkSync("/nonexistent/settings.json", vscode.machineSettings);

    const run = await vscode.run(settingsEnv({ "editor.tabSize": 2 }));

    expect(run.exitCode).toBe(0);
    expect(run.output).toMatch(/is a symbolic link to nothing; leaving it untouched/);
    expect(readlinkSync(vscode.machineSettings)).toBe("/nonexistent/settings.json");
  });
});

// The merge is node's work, the same under every shell: one shell is enough to stop it.
describe("with host tools: a stopped settings merge", () => {
  const toolset: ImageToolset = "host";
  test("a merge stopped before or after any write loses no setting, and still owns what it wrote", async () => {
    // The server's node, stopped (SIGKILL) just before or after its n-th rename or removal.
    const preload = join(dirs.make("merge-kill"), "kill-at-step.js");
    writeFileSync(
      preload,
      [
        '"use strict";',
        'const fs = require("fs");',
        "const at = Number(process.env.KILL_AT_STEP);",
        'const after = process.env.KILL_WHEN === "after";',
        "let step = 0;",
        'for (const name of ["renameSync", "rmSync"]) {',
        "  const real = fs[name];",
        "  fs[name] = function (...args) {",
        "    step++;",
        '    if (step === at && !after) process.kill(process.pid, "SIGKILL");',
        "    const result = real.apply(this, args);",
        '    if (step === at && after) process.kill(process.pid, "SIGKILL");',
        "    return result;",
        "  };",
        "}",
      ].join("\n"),
    );
    const r1 = { "editor.tabSize": 2, "files.eol": "\n", "a.same": 1 };
    const r2 = { "editor.tabSize": 4, "files.eol": "\r\n", "a.same": 1, "b.new": true };
    const r3 = { "editor.tabSize": 3, "files.eol": "auto", "a.same": 2, "b.new": false };
    // The start before: r1 merged, then the user changes one key and adds one of their own.
    const before = createVscodeFixture(toolset);
    before.addDesktopServer("Stable-a", 1_700_000_000);
    expect((await before.run(settingsEnv(r1))).exitCode).toBe(0);
    const edited = JSON.stringify({
      ...(readJson(before.machineSettings) as object),
      "editor.tabSize": 8,
      mine: "x",
    });
    const record = readFileSync(before.appliedFile, "utf8");

    let kills = 0;
    for (const when of ["before", "after"]) {
      for (let at = 1; at < 10; at++) {
        const vscode = createVscodeFixture(toolset);
        vscode.addDesktopServer("Stable-a", 1_700_000_000);
        const node = join(vscode.sandbox.home, ".vscode-server/cli/servers/Stable-a/server/node");
        mkdirSync(join(vscode.machineSettings, ".."), { recursive: true });
        writeFileSync(vscode.machineSettings, edited);
        mkdirSync(join(vscode.appliedFile, ".."), { recursive: true });
        writeFileSync(vscode.appliedFile, record);

        rmSync(node);
        writeFakeExecutable(
          join(node, ".."),
          "node",
          `exec ${shellQuote(process.execPath)} --require ${shellQuote(preload)} "$@"`,
        );
        const stopped = await vscode.run({
          ...settingsEnv(r2),
          KILL_AT_STEP: String(at),
          KILL_WHEN: when,
        });
        expect(stopped.exitCode).toBe(0);
        if (!/the settings merge failed/.test(stopped.output)) break; // every step was tried
        kills++;
        // Whatever was written, the user's key and their own are there.
        expect(readJson(vscode.machineSettings)).toMatchObject({ "editor.tabSize": 8, mine: "x" });

        // The next start brings another change: it reaches every key the script wrote,
        // before the stop (r1) or in the stopped merge (r2), and none of the user's.
        expect((await vscode.run(settingsEnv(r3))).exitCode).toBe(0);
        expect([when, at, readJson(vscode.machineSettings)]).toEqual([
          when,
          at,
          { "editor.tabSize": 8, "files.eol": "auto", "a.same": 2, mine: "x", "b.new": false },
        ]);
      }
    }
    // The pending note, the settings, the record, the note's removal: before and after each.
    expect(kills).toBe(8);
  });
});
