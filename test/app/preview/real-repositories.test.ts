/**
 * `npm run preview` on the kinds of devcontainer.json that well-known repositories have
 * (issue 20): each case writes a file of its own into a temp repository, previews it with
 * the shared session (on the run's synthesized template; one apply per first start) and
 * checks what is printed, in the tables and in `--json`.
 */
import { join } from "node:path";
import {
  deriveMetadata,
  withOldVscodeProperties,
} from "../../../app/preview/devcontainer-metadata";
import { pair, previewBoth, previewWith, section, repositoriesFixture } from "./report-text";

jest.setTimeout(60000);

const fixture = repositoriesFixture("preview-repos-");
const { repository } = fixture;

/** A repository whose .devcontainer/devcontainer.json is `config`. */
function repoWith(name: string, config: Record<string, unknown>): string {
  return repository(name, { ".devcontainer/devcontainer.json": config });
}

const preview = (...argv: string[]) => previewWith(fixture.session, argv);

/** Text and JSON of one preview, both required to succeed. */
const both = (...argv: string[]) => previewBoth(fixture.session, argv);

const IMAGE = "mcr.microsoft.com/devcontainers/base:bookworm";

describe("wrong today", () => {
  it("1. lists the capabilities the pod adds, allowed baseline ones and all with allow_privileged", async () => {
    const dir = repoWith("caps", {
      image: IMAGE,
      capAdd: ["CHOWN"],
      runArgs: ["--cap-add=SYS_PTRACE"],
    });
    const allowed = await both(dir, "--var", "allow_privileged=true");
    expect(pair(section(allowed.text, "Runtime"), "capabilities added")).toBe("CHOWN, SYS_PTRACE");
    expect(allowed.report.workspace.runtime.capabilities).toEqual(["CHOWN", "SYS_PTRACE"]);

    const baseline = await both(dir);
    expect(pair(section(baseline.text, "Runtime"), "capabilities added")).toBe("CHOWN");
    expect(baseline.report.workspace.runtime.capabilities).toEqual(["CHOWN"]);
    expect(baseline.report.workspace.warnings).toEqual([
      expect.stringMatching(/^capAdd: SYS_PTRACE not added.*allow_privileged/),
    ]);
  });

  it("2. moves the old top-level extensions and settings into customizations.vscode, as the CLI does", async () => {
    const config = {
      image: IMAGE,
      extensions: ["ms-python.python", "dbaeumer.vscode-eslint"],
      settings: { "editor.tabSize": 4, "files.eol": "\n" },
      customizations: { vscode: { extensions: ["golang.go"], settings: { "editor.tabSize": 2 } } },
    };
    const moved = withOldVscodeProperties(config);
    expect(moved).toEqual({
      image: IMAGE,
      customizations: {
        vscode: {
          // old extensions after the new ones; a new setting wins over an old one
          extensions: ["golang.go", "ms-python.python", "dbaeumer.vscode-eslint"],
          settings: { "editor.tabSize": 2, "files.eol": "\n" },
        },
      },
    });

    const { text, report } = await both(repoWith("legacy-vscode", config));
    const extensions = ["golang.go", "ms-python.python", "dbaeumer.vscode-eslint"];
    expect(pair(section(text, "At start"), "VS Code extensions")).toBe(extensions.join(", "));
    expect(report.extensions).toEqual(extensions);

    // What the workspace's extension script gets, as planned by Terraform.
    const plan = await fixture.session.firstStart(
      deriveMetadata(config).values,
      // preview's own inputs, so that within a jest run this reads the preview's apply
      {
        namespace: "coder-workspaces",
        devcontainer_builder_endpoint: "http://devcontainer-builder.invalid.svc:8080",
      },
      { repository: "https://git.example.com/legacy-vscode.git" },
      "legacy-vscode",
    );
    const script = String(
      plan.resourceChanges.find((r) => r.address === "coder_script.devcontainer_vscode[0]")?.after
        .script,
    );
    expect(script).toContain(`DC_VSCODE_EXTENSIONS='${extensions.join("\n")}'`);
    const settings = /^DC_VSCODE_SETTINGS_B64='([^']*)'$/m.exec(script)?.[1] ?? "";
    expect(JSON.parse(Buffer.from(settings, "base64").toString("utf8"))).toEqual({
      "editor.tabSize": 2,
      "files.eol": "\n",
    });
  });

  it("3. reads runArgs as docker run does: a flag that takes a value consumes the next word", async () => {
    const { text, report } = await both(
      repoWith("run-args", {
        image: IMAGE,
        runArgs: [
          "--ulimit",
          "memlock=-1:-1",
          "--sysctl",
          "net.ipv4.ip_forward=1",
          "--name",
          "my-dev",
          "-it",
          "-p",
          "8080:80",
          "--shm-size",
          "2g",
        ],
      }),
    );
    const warnings: string[] = report.workspace.warnings;
    expect(warnings).toEqual([
      expect.stringMatching(/^runArgs --ulimit memlock=-1:-1 is not supported.*ignored/),
      expect.stringMatching(/^runArgs --sysctl net\.ipv4\.ip_forward=1 is not supported/),
      expect.stringMatching(/^runArgs --name my-dev is not supported/),
      expect.stringMatching(/^runArgs -i is not supported/),
      expect.stringMatching(/^runArgs -t is not supported/),
      expect.stringMatching(/^runArgs -p 8080:80 is not supported.*forwardPorts/),
    ]);
    // No value is reported as a flag of its own, and the known flag after them still counts.
    expect(warnings.some((w) => /^runArgs (memlock|net\.ipv4|my-dev|8080)/.test(w))).toBe(false);
    expect(section(text, "Warnings in the build log (6)")).toHaveLength(6);
    expect(section(text, "Mounts (container dev)").join("\n")).toMatch(
      /\/dev\/shm\s+emptyDir dshm \(memory, 2147483648\)/,
    );
  });

  it("4. demands only the variables of what the workspace uses", async () => {
    const { text, report } = await both(
      repoWith("ignored-variables", {
        image: IMAGE,
        runArgs: ["--volume=${env:HOME}:${env:HOME}", "-e", "API_URL=${localEnv:API_URL}"],
        mounts: ["type=bind,source=${localEnv:SSH_DIR},target=/root/.ssh"],
        workspaceMount: "source=${localEnv:SRC},target=/src,type=bind",
        containerEnv: { TOKEN: "${localEnv:NPM_TOKEN}" },
      }),
    );
    expect(report.workspace.missingVariables).toEqual(["API_URL", "NPM_TOKEN"]);
    expect(section(text, "Dev Container variables the workspace lacks")).toEqual([
      "  - API_URL",
      "  - NPM_TOKEN",
      expect.stringMatching(/only names are checked/),
    ]);
    expect(report.workspace.warnings).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^runArgs --volume=\$\{env:HOME\}:\$\{env:HOME\} is not supported/),
      ]),
    );
  });

  it("5. refuses a file that names no image, Dockerfile or Compose file, with exit 1", async () => {
    const dir = repoWith("no-image", {
      name: "Mine",
      features: { "ghcr.io/devcontainers/features/node:1": {} },
      build: { context: ".." },
      postCreateCommand: "npm ci",
    });
    const text = await preview(dir);
    expect(text.status).toBe(1);
    expect(text.stdout).toBe("");
    for (const property of ["image", "build.dockerfile", "dockerFile", "dockerComposeFile"]) {
      expect(text.stderr).toContain(`"${property}"`);
    }
    expect(text.stderr).toMatch(/No image information specified in devcontainer\.json/);
    expect(text.stderr).toMatch(/no-image\/\.devcontainer\/devcontainer\.json/);

    const json = await preview(dir, "--json");
    expect(json.status).toBe(1);
    expect(JSON.parse(json.stdout)).toMatchObject({
      error: "no image",
      missing: ["image", "build.dockerfile", "dockerFile", "dockerComposeFile"],
    });
  });

  it("6. says what the workspace does instead of shutdownAction, updateRemoteUserUID, workspaceMount, appPort", async () => {
    const { report } = await both(
      repoWith("ignored-properties", {
        image: IMAGE,
        shutdownAction: "stopContainer",
        updateRemoteUserUID: true,
        workspaceMount: "source=${localWorkspaceFolder},target=/src,type=bind",
        workspaceFolder: "/src",
        appPort: [3000, "8080:80"],
      }),
    );
    const warnings: string[] = report.workspace.warnings;
    const one = (pattern: RegExp) =>
      expect(warnings.filter((w) => pattern.test(w))).toHaveLength(1);
    one(/^shutdownAction "stopContainer" is ignored: the workspace runs until Coder stops it/);
    one(/^updateRemoteUserUID true is ignored: the container runs as the uid and gid recorded/);
    one(/^workspaceMount .*: its source is ignored, .*cloned into its target \(\/src\)/);
    one(/^appPort \[3000,"8080:80"\] is ignored: .*forwardPorts/);
    expect(warnings).toHaveLength(4);
  });

  it("7. names the file the service reads for a configuration in .devcontainer/<name>/", async () => {
    const sub = { image: "mcr.microsoft.com/devcontainers/python:3.12", remoteUser: "vscode" };
    const alone = repository("subfolder-only", { ".devcontainer/python/devcontainer.json": sub });
    const { text, report } = await both(
      join(alone, ".devcontainer", "python", "devcontainer.json"),
    );
    // The workspace is named after the repository, not the subfolder.
    expect(report.workspace.user.workspaceFolder).toBe("/workspaces/subfolder-only");
    expect(report.serviceReads).toBeNull();
    expect(text).toMatch(/^devcontainer-builder reads: no devcontainer\.json/m);
    expect(report.notes[0]).toMatch(
      /^devcontainer-builder reads \.devcontainer\/devcontainer\.json or \.devcontainer\.json, not \.devcontainer\/python\/devcontainer\.json, and cannot be told another path.*fallback image.*move it to \.devcontainer\/devcontainer\.json/,
    );
    expect(section(text, "Notes")[0]).toContain(report.notes[0]);

    // A repository of the same name (in another folder): its first start is the one above,
    // which this jest run has applied already (only what the service reads differs).
    const withMain = repository("with-main/subfolder-only", {
      ".devcontainer/python/devcontainer.json": sub,
      ".devcontainer/devcontainer.json": { image: IMAGE },
    });
    const other = await both(join(withMain, ".devcontainer", "python", "devcontainer.json"));
    expect(other.report.serviceReads).toBe(".devcontainer/devcontainer.json");
    expect(other.report.notes[0]).toMatch(/workspace gets \.devcontainer\/devcontainer\.json/);

    // A repository folder with only subfolder configurations gets the fallback, and says why.
    const folder = await both(alone);
    expect(folder.report.devcontainerFile).toBeNull();
    expect(folder.report.notes[0]).toMatch(
      /never reads \.devcontainer\/python\/devcontainer\.json/,
    );
  });

  it("8. says the base image's metadata is merged in for a Dockerfile or a Compose service", async () => {
    const { text, report } = await both(
      repoWith("base-dockerfile", { build: { dockerfile: "Dockerfile", context: ".." } }),
    );
    const unknown = report.unknowns.find((u: string) => u.startsWith("Image metadata:"));
    expect(unknown).toMatch(
      /the base image of the Dockerfile Dockerfile \(build\.dockerfile; its FROM\)/,
    );
    expect(unknown).toMatch(/devcontainer\.metadata label .* merges them in/);
    expect(section(text, "Only the service knows").join("\n")).toContain(unknown);
    // The other two sources, in the service-side mapping alone (no Terraform involved).
    const of = (config: Record<string, unknown>) =>
      deriveMetadata(config).unknowns.find((u) => u.startsWith("Image metadata:"));
    expect(of({ dockerFile: "../docker/dev.Dockerfile" })).toMatch(
      /the base image of the Dockerfile \.\.\/docker\/dev\.Dockerfile \(dockerFile; its FROM\)/,
    );
    expect(of({ dockerComposeFile: "compose.yml", service: "app" })).toMatch(
      /the base image of the Compose service app .*merges them in/,
    );
  });
});

describe("worth saying", () => {
  it("initializeCommand runs in the pod on every start, not on the host", async () => {
    const { text, report } = await both(
      repoWith("initialize", { image: IMAGE, initializeCommand: "docker volume create cache" }),
    );
    expect(report.notes).toEqual([
      expect.stringMatching(
        /^initializeCommand runs inside the workspace's container on every start, before login.*host/,
      ),
    ]);
    expect(section(text, "Notes")).toEqual([`  - ${report.notes[0]}`]);
    expect(report.workspace.lifecycle[0]).toMatchObject({
      hook: "initializeCommand",
      when: expect.stringMatching(/every start, before login/),
    });
  });

  it('hostRequirements.gpu "optional" means no GPU', async () => {
    const { report } = await both(
      repoWith("gpu-optional", { image: IMAGE, hostRequirements: { gpu: "optional" } }),
    );
    expect(report.workspace.resources.limits["nvidia.com/gpu"]).toBeUndefined();
    expect(report.notes).toEqual([
      expect.stringMatching(
        /^hostRequirements\.gpu "optional": the workspace asks for no GPU and gets none/,
      ),
    ]);
  });

  it("says a containerEnv the shell cannot export is skipped at start, and lists none of it", async () => {
    const { text, report } = await both(
      repoWith("env-names", {
        image: IMAGE,
        runArgs: ["-e", "RUN-ARG=1"],
        // "TWO WORDS" is two exports to the shell (TWO, then WORDS=…): refused as well, since
        // "X PATH" would set PATH.
        containerEnv: { GOOD: "1", "A-B": "x", "9LIVES": "y", "TWO WORDS": "z" },
        remoteEnv: { EDITOR: "vim" },
      }),
    );
    expect(report.notes).toEqual([
      expect.stringMatching(
        /^containerEnv "RUN-ARG", "A-B", "9LIVES", "TWO WORDS": not shell variable names .* skips that whole script .*none of containerEnv is set\.$/,
      ),
    ]);
    expect(section(text, "Notes")).toEqual([`  - ${report.notes[0]}`]);
    const env: { name: string; from: string }[] = report.workspace.environment;
    expect(env.filter((e) => e.from === "containerEnv")).toEqual([]);
    expect(env.filter((e) => e.from === "remoteEnv").map((e) => e.name)).toEqual(["EDITOR"]);
  });

  it("marks host-session variables as empty unless set, not as missing", async () => {
    const { text, report } = await both(
      repoWith("host-session", {
        image: IMAGE,
        containerEnv: {
          WSLENV: "${localEnv:WSLENV}",
          DISPLAY: "${localEnv:DISPLAY}",
          TOKEN: "${localEnv:GH_TOKEN}",
        },
      }),
    );
    // Terraform's check lists all three; preview says which ones most machines leave empty.
    expect(report.workspace.missingVariables).toEqual(["WSLENV", "DISPLAY", "GH_TOKEN"]);
    expect(report.emptyUnlessSet).toEqual(["WSLENV", "DISPLAY"]);
    expect(section(text, "Dev Container variables the workspace lacks").slice(0, 1)).toEqual([
      "  - GH_TOKEN",
    ]);
    expect(section(text, "Empty unless set in Dev Container variables").slice(0, 2)).toEqual([
      "  - WSLENV",
      "  - DISPLAY",
    ]);
  });

  it("quotes the repository's --add-host option in a host-alias warning", async () => {
    const { report } = await both(
      repoWith("add-host", {
        image: IMAGE,
        runArgs: ["--add-host=host.docker.internal:host-gateway", "--add-host", "db:10.1.2.3"],
      }),
    );
    expect(report.workspace.warnings).toEqual([
      'runArgs --add-host=host.docker.internal:host-gateway: "host-gateway" is not an IP address; ' +
        'the host alias for ["host.docker.internal"] is not added. (the build log names it ' +
        "runtime.host_aliases[0].ip)",
    ]);
    expect(report.workspace.runtime.hostAliases).toEqual(["10.1.2.3 db"]);
  });

  it("takes the user, uid and gid the service would report from --remote-user, --uid, --gid", async () => {
    const dir = repoWith("image-user", { image: IMAGE });
    const assumed = await both(dir);
    // The base image's metadata names vscode (issue 34): assumed, no longer root.
    expect(assumed.report.workspace.user).toMatchObject({
      name: "vscode",
      uid: 1000,
      home: "/home/vscode",
    });

    const given = await both(dir, "--remote-user", "vscode", "--uid=1001", "--gid", "1002");
    expect(given.report.workspace.user).toEqual({
      name: "vscode",
      uid: 1001,
      gid: 1002,
      fsGroup: 1002,
      home: "/home/vscode",
      workspaceFolder: "/workspaces/image-user",
      repositoryFolder: "/workspaces/image-user",
    });
    expect(pair(section(given.text, "User"), "user")).toBe(
      "vscode (uid 1001, gid 1002, fsGroup 1002)",
    );
    expect(given.report.assumptions.join("\n")).toMatch(/--remote-user[\s\S]*--uid and --gid/);

    // A negative number goes after `=`: parseArgs reads a separate `-1` as a flag of its own.
    for (const [args, message] of [
      [["--uid=-1"], "--uid -1:"],
      [["--gid", "x"], "--gid x:"],
      [["--remote-user", "a b"], "--remote-user a b:"],
    ] as const) {
      const run = await preview(dir, ...args);
      expect(run.status).toBe(2);
      expect(run.stderr).toContain(message);
    }
  });

  it("shows the environment and the lifecycle commands as they will run", async () => {
    const { text, report } = await both(
      repoWith("environment", {
        image: IMAGE,
        runArgs: ["-e", "FROM_RUN=1"],
        containerEnv: { PATH: "${containerEnv:PATH}:/opt/tools/bin", HOME: "/elsewhere" },
        remoteEnv: { EDITOR: "vim" },
        postCreateCommand: ["npm", "ci"],
        postAttachCommand: "echo attached",
      }),
      "--param",
      "devcontainer_variables=SECRET_NAME=hunter2",
    );
    const env: { name: string; value: string | null; from: string; overridden: boolean }[] =
      report.workspace.environment;
    const get = (name: string) => env.filter((e) => e.name === name);
    expect(get("FROM_RUN")).toEqual([
      { name: "FROM_RUN", value: "1", from: "containerEnv", overridden: false },
    ]);
    expect(get("PATH")[0]).toMatchObject({ value: "${PATH}:/opt/tools/bin", from: "containerEnv" });
    expect(get("EDITOR")[0]).toMatchObject({ value: "vim", from: "remoteEnv" });
    // The template's HOME is exported after containerEnv, so it wins.
    expect(get("HOME")).toEqual([
      { name: "HOME", value: "/elsewhere", from: "containerEnv", overridden: true },
      { name: "HOME", value: "/home/vscode", from: "template", overridden: false },
    ]);
    expect(get("DEVCONTAINER_LOCALENV_SECRET_NAME")[0]).toMatchObject({ value: null });
    expect(get("DEVCONTAINER_BRANCH")[0]).toMatchObject({ value: "main", from: "coder_env" });
    expect(text).not.toContain("hunter2");
    expect(JSON.stringify(report)).not.toContain("hunter2");
    const envLines = section(text, "Environment");
    expect(pair(envLines, "EDITOR")).toBe("vim  remoteEnv");
    expect(pair(envLines, "DEVCONTAINER_LOCALENV_SECRET_NAME")).toBe(
      "(value hidden)  Dev Container variables",
    );

    expect(report.workspace.lifecycle).toEqual([
      {
        hook: "postCreateCommand",
        script: "#!/bin/sh\n'npm' 'ci' || exit $?\n",
        // After login: waitFor defaults to updateContentCommand (issue 34).
        when: expect.stringMatching(/after login/),
        blocksLogin: false,
      },
      {
        hook: "postAttachCommand",
        script: "#!/bin/sh\n/bin/sh -c 'echo attached' || exit $?\n",
        when: expect.stringMatching(/once the login-blocking commands succeeded/),
        blocksLogin: false,
      },
    ]);
    const lifecycle = section(text, "Lifecycle commands as they run");
    expect(lifecycle).toEqual([
      expect.stringMatching(/^ {2}postCreateCommand: every start, after login/),
      "    | #!/bin/sh",
      "    | 'npm' 'ci' || exit $?",
      expect.stringMatching(/^ {2}postAttachCommand: .*once the login-blocking commands succeeded/),
      "    | #!/bin/sh",
      "    | /bin/sh -c 'echo attached' || exit $?",
    ]);
  });
});

describe("must show", () => {
  /** Every string a JSON value holds, keys of objects included. */
  function leaves(value: unknown): string[] {
    if (typeof value === "string") return [value];
    if (typeof value === "number" || typeof value === "boolean") return [];
    if (Array.isArray(value)) return value.flatMap(leaves);
    if (value !== null && typeof value === "object") {
      return Object.entries(value).flatMap(([k, v]) => [k, ...leaves(v)]);
    }
    return [];
  }

  it("--json carries the same facts as the table", async () => {
    const { text, report } = await both(
      repoWith("everything", {
        image: IMAGE,
        remoteUser: "vscode",
        extensions: ["ms-python.python"],
        capAdd: ["CHOWN"],
        runArgs: ["--ulimit", "nofile=1024", "--add-host", "db:10.0.0.9", "--init"],
        containerEnv: { WSLENV: "${localEnv:WSLENV}", TOKEN: "${localEnv:TOKEN}" },
        mounts: ["source=cache,target=/cache,type=volume"],
        forwardPorts: [3000],
        portsAttributes: { "3000": { label: "Web" } },
        hostRequirements: { cpus: 4, gpu: "optional" },
        initializeCommand: "true",
        postStartCommand: "make serve",
        shutdownAction: "none",
        customizations: { kubernetes: { nodeSelector: { pool: "big" } } },
      }),
    );
    // Every value the table shows about the workspace is in the JSON…
    const json = new Set(leaves(report));
    const inJson = (fact: string) =>
      expect({ fact, inJson: json.has(fact) }).toEqual({ fact, inJson: true });
    for (const fact of [
      ...report.workspace.warnings,
      ...report.notes,
      ...report.unknowns,
      ...report.assumptions,
    ]) {
      expect(text).toContain(fact);
    }
    const u = report.workspace.user;
    expect(pair(section(text, "User"), "user")).toBe(
      `${u.name} (uid ${u.uid}, gid ${u.gid}, fsGroup ${u.fsGroup})`,
    );
    expect(pair(section(text, "User"), "home")).toBe(u.home);
    expect(pair(section(text, "User"), "workspace folder")).toBe(u.workspaceFolder);
    for (const title of ["Runtime", "At start"]) {
      for (const line of section(text, title)) {
        const [, ...values] = line.trim().split(/\s{2,}/);
        for (const v of values.join("  ").split(/, |; /)) {
          if (!/^(yes|no|none|default|runtime default|\?)$/.test(v)) {
            inJson(v);
          }
        }
      }
    }
    for (const title of ["Environment", "Mounts (container dev)"]) {
      for (const line of section(text, title).slice(2)) inJson(line.trim().split(/\s{2,}/)[0]);
    }
    for (const name of ["TOKEN", "WSLENV"])
      expect(text).toMatch(new RegExp(`^ {2}- ${name}$`, "m"));
    // …and every fact the JSON holds about the workspace is in the table.
    const w = report.workspace;
    for (const fact of [
      ...w.runtime.capabilities,
      ...w.runtime.hostAliases,
      ...w.mounts.map((m: { path: string }) => m.path),
      ...w.apps.map((a: { name: string }) => a.name),
      ...w.environment.map((e: { name: string }) => e.name),
      ...w.lifecycle.map((c: { hook: string }) => c.hook),
      ...w.lifecycle.flatMap((c: { script: string }) => c.script.trimEnd().split("\n")),
      ...w.missingVariables,
      ...Object.values(w.resources.requests as Record<string, string>),
      ...Object.entries(w.placement.nodeSelector as Record<string, string>).map(
        ([k, v]) => `${k}=${v}`,
      ),
      ...report.extensions,
      report.serviceReads,
      w.user.home,
      w.user.workspaceFolder,
      w.runtime.podSecurity.level,
    ]) {
      expect({ fact, inText: text.includes(String(fact)) }).toEqual({ fact, inText: true });
    }
    expect(w.runtime.capabilities).toEqual(["CHOWN"]);
    expect(w.runtime.shareProcessNamespace).toBe(true);
  });
});

describe("Pod Security level (issue 17)", () => {
  /** The Runtime row, and the JSON's podSecurity, of one preview. */
  async function podSecurity(name: string, config: Record<string, unknown>, ...argv: string[]) {
    const { text, report } = await both(repoWith(name, { image: IMAGE, ...config }), ...argv);
    return {
      row: pair(section(text, "Runtime"), "Pod Security level"),
      json: report.workspace.runtime.podSecurity,
      warnings: report.workspace.warnings as string[],
    };
  }

  it("is baseline by default, as on the workspace page", async () => {
    const { row, json } = await podSecurity("psa-default", { remoteUser: "vscode" });
    expect(json).toEqual({ level: "baseline", requested: "baseline" });
    expect(row).toBe("baseline");
  });

  it("is restricted when the operator asks for it and the image's user is not root", async () => {
    const { row, json, warnings } = await podSecurity(
      "psa-restricted",
      { remoteUser: "vscode" },
      "--var",
      "pod_security_level=restricted",
      "--uid",
      "1000",
    );
    expect(json).toEqual({ level: "restricted", requested: "restricted" });
    expect(row).toBe("restricted");
    expect(warnings.some((w) => /^remoteUser is root/.test(w))).toBe(false);
  });

  it("with a root user, says restricted was asked for, the level met, and warns", async () => {
    const { row, json, warnings } = await podSecurity(
      "psa-root",
      { remoteUser: "root" },
      "--var",
      "pod_security_level=restricted",
    );
    expect(json).toEqual({ level: "baseline", requested: "restricted" });
    expect(row).toBe("baseline (pod_security_level asks for restricted; see the warnings)");
    expect(
      warnings.filter((w) => /^remoteUser is root: .*restricted forbids root/.test(w)),
    ).toHaveLength(1);
  });

  it("is privileged when allow_privileged lets the repository run privileged", async () => {
    const { row, json } = await podSecurity(
      "psa-privileged",
      { remoteUser: "vscode", privileged: true },
      "--var",
      "allow_privileged=true",
    );
    expect(json).toEqual({ level: "privileged", requested: "baseline" });
    expect(row).toBe("privileged (pod_security_level asks for baseline; see the warnings)");
  });
});
