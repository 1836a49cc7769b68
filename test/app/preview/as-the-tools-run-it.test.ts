/**
 * `npm run preview` on the kinds of devcontainer.json where a workspace differed from what
 * Codespaces, VS Code or the Dev Containers CLI give (issue 34): each case writes a repository
 * of its own, previews it with the shared session (the run's synthesized template, one apply
 * per first start) and checks the text report and `--json`.
 */
import { pair, previewBoth, previewWith, section, repositoriesFixture } from "./report-text";

jest.setTimeout(60000);

const fixture = repositoriesFixture("preview-tools-");
const { repository } = fixture;

const preview = (...argv: string[]) => previewWith(fixture.session, argv);

/** Text and JSON of one preview, both required to succeed. */
const both = (...argv: string[]) => previewBoth(fixture.session, argv);

const IMAGE = "mcr.microsoft.com/devcontainers/base:bookworm";

describe("1. waitFor", () => {
  it("shows which lifecycle commands hold login: by default up to updateContentCommand, the rest after login", async () => {
    const dir = repository("wait-for-default", {
      ".devcontainer/devcontainer.json": {
        image: IMAGE,
        onCreateCommand: "npm ci",
        postCreateCommand: "make migrate",
        postStartCommand: "make frontend-dev",
        postAttachCommand: "echo attached",
      },
    });
    const { text, report } = await both(dir);
    expect(
      report.workspace.lifecycle.map((c: Record<string, unknown>) => [c.hook, c.blocksLogin]),
    ).toEqual([
      ["onCreateCommand", true],
      ["postCreateCommand", false],
      ["postStartCommand", false],
      ["postAttachCommand", false],
    ]);
    expect(report.workspace.scripts).toContain("Dev Container lifecycle after login");
    const lines = section(text, "Lifecycle commands as they run").join("\n");
    expect(lines).toMatch(/onCreateCommand: every start, before login/);
    expect(lines).toMatch(/postStartCommand: every start, after login/);
  });

  it("waitFor postStartCommand holds login until postStartCommand has finished", async () => {
    const dir = repository("wait-for-post-start", {
      ".devcontainer/devcontainer.json": {
        image: IMAGE,
        waitFor: "postStartCommand",
        postCreateCommand: "make migrate",
        postStartCommand: "make seed",
      },
    });
    const { report } = await both(dir);
    expect(
      report.workspace.lifecycle.map((c: Record<string, unknown>) => [c.hook, c.blocksLogin]),
    ).toEqual([
      ["postCreateCommand", true],
      ["postStartCommand", true],
    ]);
  });
});

describe("2. volumes over image directories", () => {
  it("marks each volume seeded from the image on first use, in the table and the JSON", async () => {
    const dir = repository("cargo", {
      ".devcontainer/devcontainer.json": {
        image: "mcr.microsoft.com/devcontainers/rust:1",
        mounts: [
          "source=cargo-cache,target=/usr/local/cargo,type=volume",
          "type=tmpfs,target=/tmp/scratch",
        ],
      },
    });
    const { text, report } = await both(dir);
    const seeded = Object.fromEntries(
      report.workspace.mounts.map((m: Record<string, unknown>) => [m.path, m.seededFromImage]),
    );
    expect(seeded).toMatchObject({
      "/usr/local/cargo": true,
      "/tmp/scratch": false,
      "/workspaces": false,
    });
    expect(pair(section(text, "Mounts (container dev)"), "/usr/local/cargo")).toMatch(
      /PVC subPath volumes\/cargo-cache, seeded from the image on first use/,
    );
  });
});

describe("3. the CLI's folder variables", () => {
  it("resolves ${localWorkspaceFolder} in build.dockerfile before it looks for the file (RAPIDS)", async () => {
    const dir = repository("rapids", {
      ".devcontainer/devcontainer.json": {
        build: { dockerfile: "${localWorkspaceFolder}/.devcontainer/Dockerfile", context: "." },
      },
      ".devcontainer/Dockerfile": "FROM mcr.microsoft.com/devcontainers/base:bookworm\n",
    });
    const { text, report } = await both(dir);
    expect(report.notes.join("\n")).not.toMatch(/is not in the repository|never starts/);
    expect(text).not.toMatch(/never starts/);

    const missing = repository("rapids-missing", {
      ".devcontainer/devcontainer.json": {
        build: { dockerfile: "${localWorkspaceFolderBasename}/../Dockerfile.dev" },
      },
    });
    const notes = (await both(missing)).report.notes.join("\n");
    expect(notes).toMatch(/build\.dockerfile ".*Dockerfile\.dev" .* is not in the repository/);
  });
});

describe("5. workspaceMount's target", () => {
  it("clones the repository into the target; workspaceFolder is where the IDE opens", async () => {
    const dir = repository("cuml", {
      ".devcontainer/devcontainer.json": {
        image: IMAGE,
        remoteUser: "coder",
        workspaceMount:
          "source=${localWorkspaceFolder},target=/home/coder/cuml,type=bind,consistency=cached",
        workspaceFolder: "/home/coder/cuml/python",
      },
    });
    const { text, report } = await both(dir);
    expect(report.workspace.user).toMatchObject({
      workspaceFolder: "/home/coder/cuml/python",
      repositoryFolder: "/home/coder/cuml",
    });
    expect(pair(section(text, "User"), "repository cloned into")).toBe("/home/coder/cuml");
    expect(report.workspace.warnings.join("\n")).toMatch(
      /cloned into its target \(\/home\/coder\/cuml\)/,
    );
  });
});

describe("6. docker-compose repositories", () => {
  const compose = [
    "services:",
    "  app:",
    "    build:",
    "      context: ..",
    "      dockerfile: .devcontainer/Dockerfile",
    "    volumes:",
    "      - ../..:/workspaces:cached",
    "    environment:",
    "      DATABASE_URL: postgres://postgres:hunter2@db/app",
    "  db:",
    "    image: postgres:16",
    "    volumes:",
    "      - postgres-data:/var/lib/postgresql/data",
    "    environment:",
    "      - POSTGRES_PASSWORD=hunter2",
    "      - POSTGRES_DB=app",
    "  redis:",
    "    image: redis:7",
    "volumes:",
    "  postgres-data:",
    "",
  ].join("\n");

  it("names the services that will not run, their volumes and environment, and the service the workspace is", async () => {
    const dir = repository("compose", {
      ".devcontainer/devcontainer.json": {
        dockerComposeFile: "docker-compose.yml",
        service: "app",
        workspaceFolder: "/workspaces/${localWorkspaceFolderBasename}",
      },
      ".devcontainer/docker-compose.yml": compose,
      ".devcontainer/Dockerfile": "FROM mcr.microsoft.com/devcontainers/python:3\n",
    });
    const { text, report } = await both(dir);
    const note = report.notes.find((n: string) => n.startsWith("The workspace is one container"));
    expect(note).toMatch(/the image of the Compose service "app" \(built from its build section\)/);
    expect(note).toMatch(/environment DATABASE_URL/);
    expect(note).toMatch(
      /do not run.*db \(image postgres:16; volumes postgres-data:\/var\/lib\/postgresql\/data; environment POSTGRES_PASSWORD, POSTGRES_DB\), redis \(image redis:7\)/,
    );
    // Names only: the values may be secrets.
    expect(JSON.stringify(report)).not.toContain("hunter2");
    expect(text).not.toContain("hunter2");
    // And the build log's line, from the template's Terraform.
    expect(report.workspace.warnings).toContainEqual(
      expect.stringMatching(
        /^dockerComposeFile "docker-compose\.yml": the workspace is one container, the image of the Compose service "app"/,
      ),
    );
    expect(section(text, "Notes").join("\n")).toMatch(
      /These services of "docker-compose\.yml" do not run/,
    );
  });

  it("says the build fails when the Compose file is not in the repository", async () => {
    const dir = repository("compose-missing", {
      ".devcontainer/devcontainer.json": {
        dockerComposeFile: ["../docker-compose.yml", "${localWorkspaceFolder}/compose.dev.yml"],
        service: "app",
      },
      "compose.dev.yml": "services:\n  app:\n    image: node:20\n  cache:\n    image: redis:7\n",
    });
    const { report } = await both(dir);
    const notes = report.notes.join("\n");
    expect(notes).toMatch(
      /dockerComposeFile "\.\.\/docker-compose\.yml" \(.*\) is not in the repository: the image build fails and the workspace never starts/,
    );
    // The second file, after the CLI's substitution, is read.
    expect(notes).toMatch(
      /These services of "\$\{localWorkspaceFolder\}\/compose\.dev\.yml" do not run.*cache \(image redis:7\)/,
    );
  });
});

describe("7. Docker-in-Docker and Docker-outside-of-Docker Features", () => {
  it("says docker will not be available and which lifecycle commands call it, in the notes and the build log", async () => {
    const dir = repository("dind", {
      ".devcontainer/devcontainer.json": {
        image: IMAGE,
        features: {
          "ghcr.io/devcontainers/features/docker-in-docker:2": {},
          "ghcr.io/devcontainers/features/github-cli:1": {},
        },
        postCreateCommand: "docker compose up -d",
        postStartCommand: ["npm", "run", "dev"],
      },
    });
    const { report } = await both(dir);
    const note = report.notes.find((n: string) => n.startsWith("docker will not be available"));
    expect(note).toMatch(/ghcr\.io\/devcontainers\/features\/docker-in-docker:2/);
    expect(note).toMatch(
      /These lifecycle commands call docker and will fail: postCreateCommand\.$/,
    );
    expect(note).not.toMatch(/github-cli/);
    expect(report.workspace.warnings).toContainEqual(
      expect.stringMatching(
        /^Feature "ghcr\.io\/devcontainers\/features\/docker-in-docker:2" cannot give this workspace Docker: .*these lifecycle commands call it: postCreateCommand\.$/,
      ),
    );
  });
});

describe("4. ${localEnv:HOME} without a local host", () => {
  it("shows the value the workspace uses, and does not ask for it", async () => {
    const dir = repository("maven", {
      ".devcontainer/devcontainer.json": {
        image: "mcr.microsoft.com/devcontainers/java:21",
        containerEnv: { MAVEN_CONFIG: "${localEnv:HOME}/.m2" },
        postCreateCommand: "mkdir -p ${localEnv:HOME}/.m2",
      },
    });
    const { report } = await both(dir);
    expect(report.workspace.missingVariables).toEqual([]);
    const env = report.workspace.environment as { name: string; value: string; from: string }[];
    expect(env.find((e) => e.name === "DEVCONTAINER_LOCALENV_HOME")).toMatchObject({
      value: "/home/vscode",
      from: "workspace user (no local host)",
    });
    expect(env.find((e) => e.name === "MAVEN_CONFIG")?.value).toBe("/home/vscode/.m2");
  });
});

describe("8. preview's own accuracy", () => {
  it("takes the user from a Dockerfile's last USER, or from a well-known base image, as assumed", async () => {
    const fromDockerfile = repository("dockerfile-user", {
      ".devcontainer/devcontainer.json": { build: { dockerfile: "Dockerfile" } },
      ".devcontainer/Dockerfile":
        "FROM node:20 AS build\nUSER builder\nFROM python:3.12\nRUN useradd -m dev\nUSER dev:dev\n",
    });
    const a = await both(fromDockerfile);
    expect(a.report.workspace.user).toMatchObject({ name: "dev", home: "/home/dev" });
    expect(a.report.assumptions.join("\n")).toMatch(
      /assumed "dev" from the Dockerfile's last USER/,
    );

    const b = await both(
      repository("base-image-user", { ".devcontainer/devcontainer.json": { image: IMAGE } }),
    );
    expect(b.report.workspace.user).toMatchObject({ name: "vscode", uid: 1000 });
    expect(b.report.assumptions.join("\n")).toMatch(
      /assumed "vscode" from the metadata of mcr\.microsoft\.com\/devcontainers\/base/,
    );

    const c = await both(
      repository("base-dockerfile-user", {
        ".devcontainer/devcontainer.json": { build: { dockerfile: "Dockerfile" } },
        ".devcontainer/Dockerfile": "FROM mcr.microsoft.com/devcontainers/universal:2\n",
      }),
    );
    expect(c.report.workspace.user.name).toBe("codespace");
  });

  it("keeps the checkout folder's name as written", async () => {
    const { report } = await both(
      repository("MyApp", { ".devcontainer/devcontainer.json": { image: IMAGE } }),
    );
    expect(report.workspace.user.workspaceFolder).toBe("/workspaces/MyApp");
  });

  it("does not ask for build.args variables: it says no value reaches the build", async () => {
    const dir = repository("build-args", {
      ".devcontainer/devcontainer.json": {
        build: { dockerfile: "Dockerfile", args: { NODE_VERSION: "${localEnv:NODE_VERSION}" } },
      },
      ".devcontainer/Dockerfile": "FROM node:20\n",
    });
    const { report } = await both(dir);
    expect(report.workspace.missingVariables).toEqual([]);
    expect(report.notes.join("\n")).toMatch(
      /build\.args use \$\{localEnv:NODE_VERSION\}: .*no value set for the workspace reaches the build/,
    );
  });

  it("shows sizes in the units people read, the same in the text and --json, and the workspace folder expanded", async () => {
    const dir = repository("sizes", {
      ".devcontainer/devcontainer.json": {
        image: IMAGE,
        hostRequirements: { memory: "4gb", storage: "32gb" },
        containerEnv: { APP_HOME: "${containerWorkspaceFolder}/app" },
      },
    });
    const { text, report } = await both(dir);
    const page = "CPU 250m / 2 · memory 4Gi / 4Gi · disk 32Gi · from hostRequirements";
    const resources = section(text, "Resources");
    // The template's own words: the --json summary and the text's line are one and the same.
    expect(report.workspace.resources.summary).toBe(page);
    expect(resources).toContain(`  workspace page: ${page}`);
    expect(resources.find((l) => l.trimStart().startsWith("memory"))?.split(/\s+/)).toEqual([
      "",
      "memory",
      "4Gi",
      "4Gi",
    ]);
    expect(report.workspace.resources.disk).toBe("32Gi");
    expect(resources.join("\n")).not.toMatch(/GiB|\d{7,}/);
    expect(
      report.workspace.environment.find((e: { name: string }) => e.name === "APP_HOME")?.value,
    ).toBe("/workspaces/sizes/app");
  });

  it("notes the keys the template ignores: secrets, portsAttributes without forwardPorts, unknown customizations.vscode keys", async () => {
    const dir = repository("ignored-keys", {
      ".devcontainer/devcontainer.json": {
        image: IMAGE,
        secrets: { OPENAI_API_KEY: { description: "for the assistant" } },
        forwardPorts: [3000],
        portsAttributes: { "3000": { label: "App" }, "9229": { label: "Debugger" } },
        customizations: { vscode: { extensions: ["golang.go"], mcp: { servers: {} } } },
      },
    });
    const notes = (await both(dir)).report.notes.join("\n");
    expect(notes).toMatch(/^secrets \(OPENAI_API_KEY\): ignored/m);
    expect(notes).toMatch(/^portsAttributes 9229: no app/m);
    expect(notes).not.toMatch(/portsAttributes 3000/);
    expect(notes).toMatch(/^customizations\.vscode mcp: ignored/m);
  });

  it("says which coder-cdktf.jsonc it applied", async () => {
    const text = await preview(
      repository("config-line", { ".devcontainer/devcontainer.json": { image: IMAGE } }),
    );
    expect(text.stdout).toMatch(
      /^Operator configuration: none \(no coder-cdktf\.jsonc: the template's defaults\)$/m,
    );
  });
});
