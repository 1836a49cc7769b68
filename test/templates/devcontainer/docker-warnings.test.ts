/**
 * What a repository built for Docker loses in a workspace, through the template's Terraform
 * (mock providers): the build log names the Compose service the workspace is and says the
 * others do not run, and says that a docker-in-docker or docker-outside-of-docker Feature
 * leaves the workspace without `docker`, naming the lifecycle commands that call it.
 */
import { BadInputPlanner, type PlannedWorkspace } from "./bad-inputs";
import { metadata, synthesizeDevcontainer } from "./synthesized";
import { COMPOSE_FILES_READ, MAX_DOCKER_FEATURES } from "../../../lib/devcontainer/docker-warnings";

jest.setTimeout(120_000);

const MANY_FEATURES = Array.from(
  { length: 300 },
  (_, i) => `ghcr.io/devcontainers/features/docker-in-docker:${i}`,
);

/** Issue 43.5: the Compose file list that took ~50 s to join, a build 83–102× a plain one. */
const MANY_COMPOSE_FILES = Array.from({ length: 60_000 }, (_, i) => `c${i}.yml`);

describe("devcontainer template: Docker in the build log", () => {
  let planner: BadInputPlanner;
  let compose: PlannedWorkspace;
  let dind: PlannedWorkspace;
  let plain: PlannedWorkspace;
  let fromLabel: PlannedWorkspace;
  let many: PlannedWorkspace;
  let manyCompose: PlannedWorkspace;
  let composeString: PlannedWorkspace;
  let mentions: PlannedWorkspace;

  beforeAll(async () => {
    planner = await BadInputPlanner.start();
    [compose, dind, plain, fromLabel, many, manyCompose, composeString, mentions] =
      await Promise.all(
        planner.planMany([
          {
            metadata: metadata({
              configuration_json: JSON.stringify({
                dockerComposeFile: ["../docker-compose.yml", "docker-compose.dev.yml"],
                service: "app",
                runServices: ["app", "db"],
              }),
            }),
          },
          {
            metadata: metadata({
              configuration_json: JSON.stringify({
                features: {
                  "ghcr.io/devcontainers/features/docker-in-docker:2": { moby: true },
                  "ghcr.io/devcontainers/features/node:1": {},
                  "ghcr.io/devcontainers/features/docker-outside-of-docker:1": {},
                },
              }),
              lifecycle_scripts: {
                postCreateCommand: "#!/bin/sh\n/bin/sh -c 'docker compose up -d db' || exit $?\n",
                postStartCommand: "#!/bin/sh\n/bin/sh -c 'npm run dev' || exit $?\n",
                onCreateCommand: "#!/bin/sh\n'docker-compose' 'pull' || exit $?\n",
              },
            }),
          },
          {
            metadata: metadata({
              configuration_json: JSON.stringify({
                features: { "ghcr.io/devcontainers/features/node:1": {} },
              }),
              lifecycle_scripts: { postCreateCommand: "#!/bin/sh\necho dockerfile-lint\n" },
            }),
          },
          {
            // A base image built with the Feature: only its label entry tells.
            metadata: metadata({
              metadata_json: JSON.stringify([
                { id: "ghcr.io/devcontainers/features/docker-in-docker:2", privileged: true },
                { remoteUser: "vscode" },
                { id: 7 },
              ]),
            }),
          },
          {
            // A hostile repository: 300 Docker Features, and each again in the label.
            metadata: metadata({
              configuration_json: JSON.stringify({
                features: Object.fromEntries(MANY_FEATURES.map((id) => [id, {}] as const)),
              }),
              metadata_json: JSON.stringify(MANY_FEATURES.map((id) => ({ id }))),
            }),
          },
          {
            metadata: metadata({
              configuration_json: JSON.stringify({
                dockerComposeFile: MANY_COMPOSE_FILES,
                service: "app",
              }),
            }),
          },
          {
            metadata: metadata({
              configuration_json: JSON.stringify({ dockerComposeFile: "compose.yml" }),
            }),
          },
          {
            // Hooks that mention docker in a word or a comment run no docker (issue 44 item 6);
            // one that runs it behind sudo and && does.
            metadata: metadata({
              configuration_json: JSON.stringify({
                features: { "ghcr.io/devcontainers/features/docker-in-docker:2": {} },
              }),
              lifecycle_scripts: {
                onCreateCommand:
                  "#!/bin/sh\n/bin/sh -c 'echo docker is optional; npm run docker:build' || exit $?\n",
                postCreateCommand:
                  "#!/bin/sh\n/bin/sh -c 'npm ci # docker is not needed here' || exit $?\n# docker\n",
                postStartCommand:
                  "#!/bin/sh\n/bin/sh -c 'cd api && sudo -E docker info' || exit $?\n",
                postAttachCommand: "#!/bin/sh\nmkdir -p ~/.docker && cp config.json ~/.docker/\n",
              },
            }),
          },
        ]),
      );
  });
  afterAll(async () => {
    await planner?.stop();
  });

  it("a Compose configuration: names the files and the service the workspace is; the others do not run", () => {
    expect(compose.warnings).toContainEqual(
      expect.stringMatching(
        /^dockerComposeFile "\.\.\/docker-compose\.yml, docker-compose\.dev\.yml": the workspace is one container, the image of the Compose service "app"; the file's other services .* do not run/,
      ),
    );
  });

  it("each Docker Feature: docker will not be available, naming the lifecycle commands that call it", () => {
    const lines = dind.warnings.filter((w) => w.startsWith("Feature "));
    expect(lines).toEqual([
      expect.stringMatching(
        /^Feature "ghcr\.io\/devcontainers\/features\/docker-in-docker:2" cannot give this workspace Docker: .*`docker` is not available; these lifecycle commands call it: onCreateCommand, postCreateCommand\.$/,
      ),
      expect.stringMatching(
        /^Feature "ghcr\.io\/devcontainers\/features\/docker-outside-of-docker:1"/,
      ),
    ]);
  });

  it("finds a Docker Feature the image was built with from its metadata label", () => {
    expect(fromLabel.warnings).toEqual([
      expect.stringMatching(
        /^Feature "ghcr\.io\/devcontainers\/features\/docker-in-docker:2" cannot give this workspace Docker: .*not available\.$/,
      ),
    ]);
  });

  it(`names ${MAX_DOCKER_FEATURES} Docker Features at most, each once, in order`, () => {
    const named = many.warnings
      .filter((w) => w.startsWith("Feature "))
      .map((w) => /^Feature "([^"]+)"/.exec(w)![1]);
    expect(named).toEqual([...MANY_FEATURES].sort().slice(0, MAX_DOCKER_FEATURES));
  });

  it(`reads ${COMPOSE_FILES_READ} dockerComposeFile entries of 60,000, and says how many were listed (issue 43.5)`, () => {
    expect(manyCompose.warnings).toContain(
      `dockerComposeFile lists 60000 entries; only the first ${COMPOSE_FILES_READ} are read.`,
    );
    const named = manyCompose.warnings.filter((w) => w.startsWith('dockerComposeFile "'));
    expect(named).toHaveLength(1);
    expect(named[0]).toMatch(
      `dockerComposeFile "${MANY_COMPOSE_FILES.slice(0, COMPOSE_FILES_READ).join(", ")}": the workspace is one container, the image of the Compose service "app";`,
    );
    expect(COMPOSE_FILES_READ).toBe(10);
  });

  it("a single Compose file (a string) is named as it is, with no count", () => {
    expect(composeString.warnings).toEqual([
      expect.stringMatching(
        /^dockerComposeFile "compose\.yml": the workspace is one container, the image of the Compose service "\(service not set\)"/,
      ),
    ]);
  });

  it("joins only the cut list: no expression converts or joins the whole dockerComposeFile (issue 43.5)", () => {
    // Terraform's join() (and tolist(), and a conditional whose sides are tuples of different
    // lengths) converts a tuple to a list at the square of its length: the list the
    // repository controls is read only by length(), slice() and a null test.
    const template = synthesizeDevcontainer();
    try {
      const locals = template.config.locals as Record<string, string>;
      const raw = /local\.docker_compose_file\b(?!s)/g;
      const readers = Object.entries(locals).filter(([, e]) => raw.test(String(e)));
      expect(readers.map(([name]) => name).sort()).toEqual([
        "docker_compose_files",
        "docker_compose_files_listed",
        "docker_warnings",
      ]);
      const uses = readers.flatMap(([, e]) =>
        [...String(e).matchAll(/([a-z_]+\()?local\.docker_compose_file\b(?!s)(.{0,4})/g)].map(
          ([, fn, after]) => `${fn ?? ""}…${after.startsWith(" !=") ? " !=" : ""}`,
        ),
      );
      expect(new Set(uses)).toEqual(new Set(["slice(…", "length(…", "…", "… !="]));
      expect(locals.docker_compose_files).toContain(`, ${COMPOSE_FILES_READ})`);
      expect(locals.docker_warnings).toContain('join(", ", local.docker_compose_files)');
    } finally {
      template.cleanup();
    }
  });

  it("names only the hooks that run docker as a command, not those that mention it in a word or a comment", () => {
    expect(mentions.warnings).toEqual([
      expect.stringMatching(/these lifecycle commands call it: postStartCommand\.$/),
    ]);
  });

  it("says nothing for a repository without them", () => {
    expect(plain.warnings).toEqual([]);
    expect(dind.otherDiagnostics).toEqual([]);
  });
});
