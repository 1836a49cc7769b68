/**
 * `npm run preview` on the classes of devcontainer.json where the Dev Containers CLI and the
 * workspace differed (issue 44): each file is written here, shaped as real ones are, and the
 * preview must say what the workspace will do for it.
 */
import { pair, previewBoth, repositoriesFixture, section } from "./report-text";

jest.setTimeout(60000);

const fixture = repositoriesFixture("preview-fidelity-");
const repoWith = (name: string, config: Record<string, unknown>) =>
  fixture.repository(name, { ".devcontainer/devcontainer.json": config });
const both = (...argv: string[]) => previewBoth(fixture.session, argv);

const IMAGE = "mcr.microsoft.com/devcontainers/base:ubuntu";

describe("1. userEnvProbe", () => {
  it("says which shell the workspace probes for the hooks and apps, and warns about a value that names none", async () => {
    const config = {
      image: IMAGE,
      features: { "ghcr.io/devcontainers/features/node:1": { version: "none" } },
      postCreateCommand: "yarn kbn bootstrap",
    };
    const login = await both(repoWith("probe-login", { ...config, userEnvProbe: "loginShell" }));
    expect(section(login.text, "Notes").join("\n")).toMatch(
      /userEnvProbe loginShell: on every start, before the agent starts, the workspace runs the remote user's login shell once as a login shell/,
    );
    const none = await both(repoWith("probe-none", { ...config, userEnvProbe: "none" }));
    expect(none.report.notes.join("\n")).toMatch(/userEnvProbe none: .*not seen/);
    const bad = await both(repoWith("probe-bad", { ...config, userEnvProbe: "zsh" }));
    expect(bad.report.workspace.warnings).toContain(
      'userEnvProbe "zsh" is not one of none, loginShell, interactiveShell, loginInteractiveShell; the workspace probes a loginInteractiveShell (the default).',
    );
  });
});

describe("2. ${localWorkspaceFolder} is the clone", () => {
  it("names the clone in a mount's source and runs initializeCommand from it; says where build.args get it", async () => {
    const dir = repoWith("shop", {
      build: { dockerfile: "Dockerfile", args: { REPO_ROOT: "${localWorkspaceFolder}" } },
      workspaceMount:
        "source=${localWorkspaceFolder},target=/src/${localWorkspaceFolderBasename},type=bind",
      workspaceFolder: "/src/${localWorkspaceFolderBasename}/packages/web",
      mounts: [
        "source=${localWorkspaceFolderBasename}-node_modules,target=${containerWorkspaceFolder}/node_modules,type=volume",
      ],
      initializeCommand: "cp -n ${localWorkspaceFolder}/.env.example ${localWorkspaceFolder}/.env",
    });
    const { report } = await both(dir);
    expect(report.workspace.mounts).toContainEqual(
      expect.objectContaining({
        path: "/src/shop/packages/web/node_modules",
        source: "PVC subPath volumes/shop-node_modules",
      }),
    );
    expect(report.workspace.lifecycle).toContainEqual(
      expect.objectContaining({
        hook: "initializeCommand",
        when: "every start, before login (Dev Container lifecycle), from the repository's clone",
      }),
    );
    expect(report.notes.join("\n")).toMatch(
      /build\.args use \$\{localWorkspaceFolder\}: devcontainer-builder resolves it to its own clone/,
    );
  });
});

describe("3. a workspaceFolder inside the repository", () => {
  it("says the repository is cloned once at its root and the subfolder opened", async () => {
    const dir = fixture.repository("mono", {
      ".devcontainer/devcontainer.json": {
        image: "mcr.microsoft.com/devcontainers/go:1.22",
        workspaceFolder: "/workspaces/${localWorkspaceFolderBasename}/platform",
        mounts: [
          "source=${localWorkspaceFolderBasename}-gocache,target=/home/vscode/.cache/go-build,type=volume",
        ],
      },
      "platform/go.mod": "module platform\n",
    });
    const { text, report } = await both(dir);
    const user = section(text, "User").join("\n");
    expect(user).toMatch(/workspace folder\s+\/workspaces\/mono\/platform/);
    expect(user).toMatch(/repository cloned into\s+\/workspaces\/mono$/);
    expect(report.workspace.mounts).toContainEqual(
      expect.objectContaining({
        source: expect.stringMatching(/^PVC subPath volumes\/mono-gocache/),
      }),
    );
  });
});

describe("6. the Docker warning matches commands, not text", () => {
  it("names only the hooks that run docker", async () => {
    const { report } = await both(
      repoWith("docker-mentions", {
        image: IMAGE,
        features: { "ghcr.io/devcontainers/features/docker-in-docker:2": {} },
        onCreateCommand: "echo 'docker is optional here' && npm run docker:build",
        postCreateCommand: "npm ci # no docker needed",
        postStartCommand: "cd api && docker compose up -d db",
      }),
    );
    expect(report.notes.join("\n")).toContain(
      "These lifecycle commands call docker and will fail: postStartCommand.",
    );
    expect(report.workspace.warnings).toContainEqual(
      expect.stringMatching(/these lifecycle commands call it: postStartCommand\.$/),
    );
  });
});

describe("7. the preview's image user", () => {
  it("takes the user an image's published metadata names, and says 'decided at build time' for any other image", async () => {
    const node = await both(
      repoWith("ts-node", {
        image: "mcr.microsoft.com/devcontainers/typescript-node:1-20-bookworm",
      }),
    );
    expect(node.report.workspace.user.name).toBe("node");
    expect(pair(section(node.text, "User"), "user")).toMatch(/^node \(uid 1000/);
    const coder = await both(repoWith("coder-image", { image: "codercom/enterprise-base:ubuntu" }));
    expect(coder.report.workspace.user.name).toBe("coder");
    for (const image of ["node:20-bookworm", "mcr.microsoft.com/devcontainers/jekyll:2"]) {
      const unknown = await both(repoWith(`unknown-${image.length}`, { image }));
      expect(unknown.report.userDecidedAtBuild).toBe(true);
      expect(pair(section(unknown.text, "User"), "user")).toMatch(
        /^decided at build time \(the image's devcontainer\.metadata remoteUser, else its USER\); planned as root/,
      );
      expect(unknown.report.assumptions.join("\n")).toMatch(/the image decides at build time/);
    }
    // A user the file names is never "decided at build time".
    const named = await both(repoWith("named", { image: "node:20", remoteUser: "node" }));
    expect(named.report.userDecidedAtBuild).toBe(false);
  });
});

describe("8. Compose runtime keys, build.context outside the repository, JetBrains", () => {
  it("names the Compose service's cap_add, shm_size and security_opt as not applied, with their devcontainer.json keys", async () => {
    const dir = fixture.repository("compose-runtime", {
      ".devcontainer/devcontainer.json": {
        dockerComposeFile: "docker-compose.yml",
        service: "app",
        workspaceFolder: "/workspaces/${localWorkspaceFolderBasename}",
      },
      ".devcontainer/docker-compose.yml": [
        "services:",
        "  app:",
        "    image: mcr.microsoft.com/devcontainers/base:bookworm",
        "    cap_add: [SYS_PTRACE]",
        "    shm_size: 2gb",
        "    security_opt: [seccomp:unconfined]",
        "    command: sleep infinity",
        "",
      ].join("\n"),
    });
    const { report } = await both(dir);
    expect(report.notes.join("\n")).toContain(
      'Its cap_add ["SYS_PTRACE"], shm_size "2gb", security_opt ["seccomp:unconfined"] are not applied (the workspace reads devcontainer.json, not the Compose file): set capAdd, runArgs ["--shm-size=<size>"], securityOpt in devcontainer.json instead',
    );
  });

  it("says a build.context outside the repository is not in the service's clone", async () => {
    const dir = fixture.repository("context-outside", {
      ".devcontainer/devcontainer.json": {
        build: { dockerfile: "Dockerfile", context: "../.." },
      },
      ".devcontainer/Dockerfile": "FROM mcr.microsoft.com/devcontainers/base:bookworm\n",
    });
    const { report } = await both(dir);
    expect(report.notes.join("\n")).toMatch(
      /build\.context "\.\.\/\.\." \(.*\) lies outside the repository: devcontainer-builder builds from its clone/,
    );
    const inside = await both(
      fixture.repository("context-inside", {
        ".devcontainer/devcontainer.json": { build: { dockerfile: "Dockerfile", context: ".." } },
        ".devcontainer/Dockerfile": "FROM mcr.microsoft.com/devcontainers/base:bookworm\n",
      }),
    );
    expect(inside.report.notes.join("\n")).not.toMatch(/build\.context/);
  });

  it("warns that customizations.jetbrains is not applied", async () => {
    const { report } = await both(
      repoWith("jetbrains", {
        image: "mcr.microsoft.com/devcontainers/java:21",
        customizations: { jetbrains: { backend: "IntelliJ" } },
      }),
    );
    expect(report.workspace.warnings).toContainEqual(
      expect.stringMatching(
        /^customizations\.jetbrains \(backend; backend "IntelliJ"\) is not applied/,
      ),
    );
  });
});

describe("9. deliberate deviations, decided", () => {
  it("a postAttachCommand that starts a server runs in the background without holding login; with waitFor naming it the preview says login would wait", async () => {
    const config = {
      image: "mcr.microsoft.com/devcontainers/python:3.12",
      postCreateCommand: "pip install -r requirements.txt",
      postAttachCommand: "python manage.py runserver 0.0.0.0:8000",
      forwardPorts: [8000],
    };
    const background = await both(repoWith("django", config));
    expect(background.report.notes.join("\n")).toMatch(
      /postAttachCommand starts a server: as in the Dev Containers CLI it runs in the background/,
    );
    const attach = background.report.workspace.lifecycle.find(
      (c: { hook: string }) => c.hook === "postAttachCommand",
    );
    expect(attach.blocksLogin).toBe(false);
    const waiting = await both(
      repoWith("django-wait", { ...config, waitFor: "postAttachCommand" }),
    );
    expect(waiting.report.notes.join("\n")).toMatch(/login waits until the lifecycle timeout/);
  });

  it("NET_ADMIN is added when the operator allows capabilities, with privilege escalation for sudo, as the CLI's --cap-add", async () => {
    const dir = repoWith("vpn", {
      image: "mcr.microsoft.com/devcontainers/base:bookworm",
      runArgs: ["--cap-add=NET_ADMIN", "--device=/dev/net/tun"],
      postStartCommand: "sudo tailscaled --tun=userspace-networking &",
    });
    const allowed = await both(dir, "--var", "allow_privileged=true");
    expect(allowed.report.workspace.runtime.capabilities).toEqual(["NET_ADMIN"]);
    expect(allowed.report.workspace.warnings.join("\n")).not.toMatch(/NET_ADMIN/);
    const baseline = await both(dir);
    expect(baseline.report.workspace.runtime.capabilities).toEqual([]);
    expect(baseline.report.workspace.warnings).toContainEqual(
      expect.stringMatching(/^capAdd: NET_ADMIN not added.*allow_privileged/),
    );
  });
});

describe("4. Feature entrypoints", () => {
  it("says the desktop and sshd Features' entrypoints start before the hooks, with their logs", async () => {
    const { report } = await both(
      repoWith("desktop", {
        image: "mcr.microsoft.com/devcontainers/base:bookworm",
        features: {
          "ghcr.io/devcontainers/features/desktop-lite:1": {},
          "ghcr.io/devcontainers/features/sshd:1": {},
        },
        forwardPorts: [6080],
        portsAttributes: { "6080": { label: "desktop" } },
      }),
    );
    expect(report.notes.join("\n")).toMatch(
      /ghcr\.io\/devcontainers\/features\/desktop-lite:1, ghcr\.io\/devcontainers\/features\/sshd:1: each has an entrypoint .* starts on every start in the background, as the remote user, before the agent and the hooks, with its log in ~\/\.cache\/devcontainer-features\//,
    );
  });
});

describe("5. a first-party Feature that does not exist", () => {
  it("is 'not found', not listed as installed", async () => {
    const { report } = await both(
      repoWith("flutter", {
        image: "mcr.microsoft.com/devcontainers/base:bookworm",
        features: {
          "ghcr.io/devcontainers/features/flutter:1": {},
          "ghcr.io/devcontainers/features/node:1": {},
        },
      }),
    );
    expect(report.workspace.warnings).toContainEqual(
      expect.stringMatching(/^Feature "ghcr\.io\/devcontainers\/features\/flutter:1": not found\./),
    );
    const installed = report.unknowns.find((u: string) => u.startsWith("Features ("));
    expect(installed).toMatch(/^Features \(ghcr\.io\/devcontainers\/features\/node:1\): installed/);
  });
});
