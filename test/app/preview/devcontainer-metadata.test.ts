/**
 * The devcontainer.json → data source mapping preview feeds the template (no Terraform).
 */
import { spawnSync } from "node:child_process";
import { parseDevcontainerJson } from "../../../app/preview/devcontainer-file";
import { deriveMetadata, imageSource } from "../../../app/preview/devcontainer-metadata";
import { renderLifecycleScripts } from "../../../app/preview/lifecycle-scripts";
import { mapMounts } from "../../../app/preview/mounts";
import { dockerSizeBytes, parseRunArgs } from "../../../app/preview/run-args";
import { findVariableReferences } from "../../../app/preview/variable-references";
import { busyboxMissing } from "../../templates/devcontainer/scripts/helpers";

describe("parseDevcontainerJson", () => {
  it("accepts comments and trailing commas", () => {
    const read = parseDevcontainerJson('// c\n{ "image": "x", /* y */ "init": true, }\n', "f.json");
    expect(read).toEqual({
      kind: "config",
      file: "f.json",
      config: { image: "x", init: true },
      syntaxErrors: [],
    });
  });

  // The Dev Containers CLI parses with jsonc-parser and ignores its errors (configContainer.ts
  // readDevContainerConfigFile): the service builds what the parser recovers.
  it("reads past a syntax error, as the Dev Containers CLI does, reporting its line and column", () => {
    const read = parseDevcontainerJson('{\n  "a": 1\n  "b": 2\n}', "f.json");
    expect(read).toEqual({
      kind: "config",
      file: "f.json",
      config: { a: 1, b: 2 },
      syntaxErrors: [{ line: 3, column: 3, code: "CommaExpected" }],
    });
  });

  it("reads a file that starts with a byte order mark", () => {
    const read = parseDevcontainerJson('\ufeff{ "image": "x" }', "f.json");
    expect(read).toEqual({
      kind: "config",
      file: "f.json",
      config: { image: "x" },
      syntaxErrors: [{ line: 1, column: 1, code: "InvalidSymbol" }],
    });
  });

  it("rejects a top level that is not an object", () => {
    const read = parseDevcontainerJson("[1]", "f.json");
    expect(read.kind === "invalid" && read.message).toMatch(/not a JSON object/);
  });
});

describe("parseRunArgs", () => {
  it("maps the supported flags in both spellings", () => {
    const run = parseRunArgs([
      "--cap-add=SYS_PTRACE",
      "--cap-add",
      "NET_ADMIN",
      "--privileged",
      "--init",
      "--security-opt",
      "seccomp=unconfined",
      "--shm-size=1g",
      "--hostname",
      "box",
      "--add-host=db:10.0.0.5",
      "--add-host",
      "cache:10.0.0.5",
      "-e",
      "A=1",
      "--cpus=2.5",
      "-m",
      "512m",
    ]);
    expect(run).toEqual({
      capAdd: ["SYS_PTRACE", "NET_ADMIN"],
      privileged: true,
      init: true,
      seccompUnconfined: true,
      shmSizeBytes: 2 ** 30,
      hostname: "box",
      hostAliases: [{ ip: "10.0.0.5", hostnames: ["db", "cache"] }],
      hostAliasSources: [["--add-host=db:10.0.0.5", "--add-host cache:10.0.0.5"]],
      env: [["A", "1"]],
      cpus: 2.5,
      memoryBytes: 512 * 2 ** 20,
      ignored: [],
      warnings: [],
    });
  });

  it("warns about flags a pod cannot honor", () => {
    const run = parseRunArgs([
      "--network=host",
      "--device",
      "/dev/fuse",
      "--gpus",
      "all",
      "--rm",
      "-h",
      "${localEnv:H}",
    ]);
    expect(run.warnings).toHaveLength(5);
    expect(run.warnings.join("\n")).toMatch(
      /--network=host[\s\S]*--device \/dev\/fuse[\s\S]*--gpus all[\s\S]*--rm[\s\S]*variable/,
    );
    expect(run.hostname).toBeUndefined();
  });

  it("reads Docker sizes", () => {
    expect([
      dockerSizeBytes("64m"),
      dockerSizeBytes("2g"),
      dockerSizeBytes("100"),
      dockerSizeBytes("lots"),
    ]).toEqual([64 * 2 ** 20, 2 * 2 ** 30, 100, undefined]);
  });
});

describe("mapMounts", () => {
  it("keeps volume and tmpfs mounts in order and drops bind mounts with a warning", () => {
    const mapped = mapMounts([
      "source=cache,target=/cache,type=volume,readonly",
      { type: "tmpfs", target: "/tmp/x" },
      "type=bind,source=/var/run/docker.sock,target=/var/run/docker.sock",
      "type=volume,target=/anon",
    ]);
    expect(mapped.mounts).toEqual([
      { kind: "volume", source: "cache", target: "/cache", read_only: true },
      { kind: "tmpfs", source: null, target: "/tmp/x", read_only: false },
      { kind: "volume", source: null, target: "/anon", read_only: false },
    ]);
    expect(mapped.warnings).toEqual([expect.stringMatching(/bind mount .*docker\.sock/)]);
  });

  // The CLI's mergeMounts (imageMetadata.ts): the last mount for each target wins.
  it("keeps only the last of the mounts with one target, in its place, as the CLI merges them", () => {
    const mapped = mapMounts([
      "source=first,target=/cache,type=volume",
      { type: "tmpfs", target: "/tmp/x" },
      "type=bind,source=/home,target=/cache",
      "source=last,target=/cache,type=volume",
    ]);
    expect(mapped.mounts).toEqual([
      { kind: "tmpfs", source: null, target: "/tmp/x", read_only: false },
      { kind: "volume", source: "last", target: "/cache", read_only: false },
    ]);
    expect(mapped.warnings).toEqual([]);
    expect(mapped.ignored).toEqual([0, 2]);
  });
});

describe("findVariableReferences", () => {
  it("lists each variable once with every property that uses it", () => {
    const refs = findVariableReferences({
      containerEnv: { TOKEN: "${localEnv:TOKEN}", P: "${containerEnv:PATH}:/x" },
      mounts: ["source=${localEnv:VOL:data},target=/d,type=volume"],
      postCreateCommand: "echo ${env:TOKEN} in ${containerWorkspaceFolder}",
    });
    expect(refs).toEqual([
      {
        kind: "localEnv",
        name: "TOKEN",
        default: null,
        used_in: ["containerEnv.TOKEN", "postCreateCommand"],
      },
      { kind: "containerEnv", name: "PATH", default: null, used_in: ["containerEnv.P"] },
      { kind: "localEnv", name: "VOL", default: "data", used_in: ["mounts[0]"] },
      {
        kind: "context",
        name: "containerWorkspaceFolder",
        default: null,
        used_in: ["postCreateCommand"],
      },
    ]);
  });
});

describe("renderLifecycleScripts", () => {
  it("renders strings through sh -c, lists as argv and objects in parallel", () => {
    const { scripts, warnings } = renderLifecycleScripts({
      onCreateCommand: "echo '${localEnv:A}'",
      postCreateCommand: ["npm", "install", "${containerWorkspaceFolder}"],
      postStartCommand: { a: "x", b: ["y", "z"] },
      postAttachCommand: 42,
    });
    expect(scripts.onCreateCommand).toBe(
      "#!/bin/sh\n/bin/sh -c 'echo '\\''${DEVCONTAINER_LOCALENV_A}'\\''' || exit $?\n",
    );
    expect(scripts.postCreateCommand).toBe(
      `#!/bin/sh\n'npm' 'install' "\${DEVCONTAINER_WORKSPACE_FOLDER}" || exit $?\n`,
    );
    expect(scripts.postStartCommand).toMatch(
      /\( \/bin\/sh -c 'x' \) & pid_0=\$!\n# b\n\( 'y' 'z' \) & pid_1=\$!/,
    );
    expect(scripts.postAttachCommand).toBeUndefined();
    expect(warnings).toEqual([expect.stringMatching(/^postAttachCommand /)]);
  });
});

describe("deriveMetadata", () => {
  it("maps a devcontainer.json to the data source's attributes", () => {
    const { values, unknowns, assumptions } = deriveMetadata({
      image: "debian",
      containerUser: "app",
      workspaceFolder: "/src",
      hostRequirements: { cpus: 4, memory: "8gb", gpu: "optional" },
      runArgs: ["--memory=4g", "-e", "FROM_RUN=1"],
      capAdd: ["SYS_PTRACE"],
      securityOpt: ["apparmor=unconfined"],
      containerEnv: { A: 'say "$HOME" ${containerEnv:PATH}' },
      remoteEnv: { B: "2" },
      forwardPorts: [3000, "8080", "db:5432"],
      portsAttributes: { "3000": { label: "Web", protocol: "https", onAutoForward: "silent" } },
      customizations: {
        vscode: { extensions: ["A.b", "c.d", "a.B", "-c.d"], settings: { "editor.tabSize": 2 } },
        kubernetes: { storage: "20Gi" },
      },
      postCreateCommand: "make",
    });
    expect(values).toMatchObject({
      remote_user: null,
      container_user: "app",
      workspace_folder: "/src",
      // runArgs --memory wins over hostRequirements.memory
      host_requirements: {
        cpus: 4,
        memory_bytes: 4 * 2 ** 30,
        storage_bytes: null,
        gpu_json: '"optional"',
      },
      runtime: { remote_user_uid: 1000, remote_user_home: "/home/app", cap_add: ["SYS_PTRACE"] },
      env_scripts: {
        containerEnv: 'export FROM_RUN="1"\nexport A="say \\"\\$HOME\\" ${PATH}"',
        remoteEnv: 'export B="2"',
      },
      extensions: ["A.b"],
      settings_json: '{"editor.tabSize":2}',
      forward_ports: [
        { port: 3000, label: "Web", protocol: "https", on_auto_forward: "silent" },
        { port: 8080, label: null, protocol: null, on_auto_forward: null },
      ],
      lifecycle_scripts: { postCreateCommand: "#!/bin/sh\n/bin/sh -c 'make' || exit $?\n" },
    });
    expect(values.warnings).toEqual([
      expect.stringMatching(/apparmor=unconfined/),
      expect.stringMatching(/db:5432/),
    ]);
    // The merged configuration lists customizations per contributor and hooks in plural.
    expect(JSON.parse(values.configuration_json as string)).toMatchObject({
      customizations: { kubernetes: [{ storage: "20Gi" }] },
      postCreateCommands: ["make"],
    });
    expect(unknowns.join("\n")).toMatch(/image debian/);
    expect(assumptions.join("\n")).toMatch(/1000:1000 and \/home\/app/);
  });
});

// The CLI's parseBytes (imageMetadata.ts): /^(\d+)([tgmk]b)?$/, anything else is 0.
it("reads hostRequirements sizes as the CLI does, and warns about the ones it would ignore", () => {
  const read = (memory: unknown) =>
    deriveMetadata({ image: "debian", hostRequirements: { memory } });
  expect(read("8gb").values.host_requirements).toMatchObject({ memory_bytes: 8 * 2 ** 30 });
  expect(read(4096).values.host_requirements).toMatchObject({ memory_bytes: 4096 });
  for (const ignored of ["8GB", "1.5gb", "8 gb", "8g", "8Gi", -1, 1.5, true]) {
    const { values } = read(ignored);
    expect(values.host_requirements).toMatchObject({ memory_bytes: null });
    expect(values.warnings).toEqual([
      `hostRequirements.memory ${JSON.stringify(ignored)} is not a size the Dev Containers CLI reads (whole digits, optionally followed by kb, mb, gb or tb in lowercase); it is ignored.`,
    ]);
  }
});

it("warns about a hostRequirements.cpus that is no number, which the CLI reads as nothing", () => {
  const read = (cpus: unknown) => deriveMetadata({ image: "debian", hostRequirements: { cpus } });
  expect(read("4").values.host_requirements).toMatchObject({ cpus: 4 });
  expect(read("4").values.warnings).toEqual([]);
  const { values } = read("four");
  expect(values.host_requirements).toMatchObject({ cpus: null });
  expect(values.warnings).toEqual([
    'hostRequirements.cpus "four" is not a number of CPUs; it is ignored.',
  ]);
});

// The CLI's mergeForwardPorts (imageMetadata.ts): a Set over "localhost:<n>" strings.
it("lists each forwardPorts entry once, with localhost:<port> as the port, as the CLI merges them", () => {
  const { values } = deriveMetadata({
    image: "debian",
    forwardPorts: [3000, "localhost:3000", 3001, "localhost:3002", 3000, "db:5432", "db:5432"],
  });
  expect((values.forward_ports as { port: number }[]).map((p) => p.port)).toEqual([
    3000, 3001, 3002,
  ]);
  expect(values.warnings).toEqual([expect.stringMatching(/^forwardPorts "db:5432" /)]);
});

describe("imageSource", () => {
  it("decides as the Dev Containers CLI: a Dockerfile, then Compose, then image; else none", () => {
    expect(
      imageSource({ image: "x", dockerComposeFile: "c.yml", build: { dockerfile: "D" } }),
    ).toEqual({ kind: "dockerfile", property: "build.dockerfile", dockerfile: "D" });
    expect(imageSource({ image: "x", dockerComposeFile: ["c.yml"], service: "app" })).toEqual({
      kind: "compose",
      service: "app",
    });
    expect(imageSource({ image: "x", dockerFile: "Old" })).toMatchObject({
      property: "dockerFile",
    });
    expect(imageSource({ image: "x" })).toEqual({ kind: "image", image: "x" });
    for (const none of [{}, { image: "" }, { build: { context: ".." } }, { name: "x" }]) {
      expect(imageSource(none)).toBeUndefined();
    }
  });
});

describe("hostile values the stand-in for the service renders", () => {
  // Keys are rendered as written, as the service does: the pod's wrapper refuses a script
  // with a key that is no variable name, and the report's notes say so (workspace-report.ts).
  it("exports every key as written, but no value that is no string, and says so", () => {
    const derived = deriveMetadata({
      containerEnv: { "X PATH": "/evil", N: 5, OK: "fine" },
      remoteEnv: { U: null },
    });
    const scripts = derived.values.env_scripts as Record<string, string>;
    expect(scripts.containerEnv).toBe('export X PATH="/evil"\nexport OK="fine"');
    expect(scripts.remoteEnv).toBeUndefined();
    expect(derived.values.warnings).toEqual([
      "containerEnv N is 5, not a string; it is not set.",
      "remoteEnv U is null: the workspace does not unset it, it keeps the image's value.",
    ]);
  });

  it("warns about the user, folder and env given as other types than the CLI reads", () => {
    const derived = deriveMetadata({
      remoteUser: 1000,
      containerUser: true,
      workspaceFolder: ["/x"],
      containerEnv: "A=1",
    });
    expect(derived.values.warnings).toEqual([
      "remoteUser 1000 is not a string; it is ignored.",
      "containerUser true is not a string; it is ignored.",
      'workspaceFolder ["/x"] is not a string; it is ignored.',
      'containerEnv "A=1" is not an object; it is ignored.',
    ]);
  });

  it("keeps a ${localEnv:X:default} default literal, and a name no shell has expands to its default", () => {
    const derived = deriveMetadata({
      containerEnv: { D: '${localEnv:FOO:de"f$(id)`id`\\}', E: "${localEnv:A-B:x}" },
      postStartCommand: ["echo", '${localEnv:X:a"b $(id)}'],
    });
    const scripts = derived.values.env_scripts as Record<string, string>;
    expect(scripts.containerEnv).toBe(
      'export D="${DEVCONTAINER_LOCALENV_FOO:-de\\"f\\$(id)\\`id\\`\\\\}"\nexport E="x"',
    );
    const hook = (derived.values.lifecycle_scripts as Record<string, string>).postStartCommand;
    expect(hook).toContain(`'echo' "\${DEVCONTAINER_LOCALENV_X:-a\\"b \\$(id)}" || exit $?`);
    expect(derived.values.warnings).toEqual([
      '${localEnv:A-B} names no shell variable, so the workspace cannot set it; it becomes its default "x".',
    ]);
    expect((derived.values.variables as { name: string }[]).map((v) => v.name)).toEqual([
      "FOO",
      "X",
    ]);
  });

  // What the escapes mean is the shells' business: source the rendered script in each.
  const shells: [string, string[], string | undefined][] = [
    ["sh", ["sh"], undefined],
    // --norc: bash reads ~/.bashrc when its stdin is a socket, as Node's pipes are.
    ["bash", ["bash", "--norc"], undefined],
    ["BusyBox sh", ["busybox", "sh"], busyboxMissing()],
  ];
  describe.each(shells)("sourced by %s", (_name, shell, missing) => {
    (missing === undefined ? it : it.skip)(
      `sets the default as the file wrote it${missing ? ` [skipped: ${missing}]` : ""}`,
      () => {
        const literal = 'de"f $(echo INJECTED) `id` \\ end';
        const derived = deriveMetadata({ containerEnv: { D: `\${localEnv:FOO:${literal}}` } });
        const script = (derived.values.env_scripts as Record<string, string>).containerEnv;
        const run = spawnSync(shell[0], [...shell.slice(1), "-c", `${script}\nprintf %s "$D"`], {
          encoding: "utf8",
          env: { PATH: process.env.PATH },
        });
        expect(run.stderr).toBe("");
        expect(run.stdout).toBe(literal);
      },
    );
  });

  it("names a lifecycle command's bad piece and its value, and keeps an entry's name a comment", () => {
    const rendered = renderLifecycleScripts({
      onCreateCommand: ["echo", "$(id)", 5],
      updateContentCommand: { "nl\ntouch /tmp/PWNED #": "true", num: 7 },
      postCreateCommand: 42,
    });
    expect(rendered.warnings).toEqual([
      "onCreateCommand[2] 5 is not a string: a command list holds only strings; onCreateCommand is ignored.",
      "updateContentCommand.num 7 is neither a string nor a list of strings; it is ignored.",
      "postCreateCommand 42 is neither a command, a list nor an object; it is ignored.",
    ]);
    const script = rendered.scripts.updateContentCommand ?? "";
    expect(script.split("\n").filter((l) => l.includes("PWNED"))).toEqual([
      "# nl touch /tmp/PWNED #",
    ]);
  });
});

it("warns about booleans, hostRequirements and port attributes given as other types", () => {
  const derived = deriveMetadata({
    privileged: "true",
    init: 1,
    hostRequirements: "8 cores",
    forwardPorts: [3000],
    portsAttributes: { "3000": { label: ["x"], protocol: 443 } },
  });
  expect(derived.values.warnings).toEqual([
    'hostRequirements "8 cores" is not an object; it is ignored.',
    'privileged "true" is not true or false; it is ignored.',
    "init 1 is not true or false; it is ignored.",
    'portsAttributes["3000"].label ["x"] is not a string; it is ignored.',
    'portsAttributes["3000"].protocol 443 is not a string; it is ignored.',
  ]);
  expect((derived.values.runtime as Record<string, unknown>).privileged).toBe(false);
});

it("splits --add-host as Docker does: host=ip, else at the first colon, brackets around IPv6 dropped", () => {
  const run = parseRunArgs([
    "--add-host=bar:::1",
    "--add-host=br:[::2]",
    "--add-host=eq=10.0.0.1",
    "--add-host=v6=[fe80::3]",
  ]);
  expect(run.warnings).toEqual([]);
  expect(run.hostAliases).toEqual([
    { ip: "::1", hostnames: ["bar"] },
    { ip: "::2", hostnames: ["br"] },
    { ip: "10.0.0.1", hostnames: ["eq"] },
    { ip: "fe80::3", hostnames: ["v6"] },
  ]);
});
