/**
 * A named volume over an image directory, through the template's Terraform (mock providers),
 * then the planned seed-home init container run for real: Docker copies the image's content
 * into a new, empty volume, so `source=cargo-cache,target=/usr/local/cargo,type=volume` must
 * still hold cargo and rustc.
 */
import { chmodSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { PlanResult } from "@coder-cdktf/terraform-harness";
import { runScript, tempDirs } from "../../support/run-script";
import { BadInputPlanner } from "./bad-inputs";
import { createImageSandbox } from "./scripts/helpers";
import { metadata } from "./synthesized";

jest.setTimeout(120_000);

const dirs = tempDirs();

const volume = (source: string | null, target: string) => ({
  kind: "volume",
  source,
  target,
  read_only: false,
});

type Json = Record<string, any>;

describe("devcontainer template: volumes seeded from the image", () => {
  let planner: BadInputPlanner;
  let cargo: PlanResult;
  let mixed: PlanResult;

  beforeAll(async () => {
    planner = await BadInputPlanner.start();
    const [a, b] = await Promise.all(
      planner.planMany([
        { metadata: metadata({ mounts: [volume("cargo-cache", "/usr/local/cargo")] }) },
        {
          metadata: metadata({
            mounts: [
              volume("shared", "/opt/first"),
              { kind: "tmpfs", source: null, target: "/tmp/cache", read_only: false },
              volume("shared", "/opt/second/"),
              volume(null, "/var/lib/anon"),
              // Dropped (a reserved path): never seeded.
              volume("home-again", "/home/vscode"),
            ],
          }),
        },
      ]),
    );
    cargo = a.plan;
    mixed = b.plan;
  });
  afterAll(async () => {
    await planner?.stop();
    dirs.cleanup();
  });

  const initOf = (plan: PlanResult): Json =>
    (plan.resource("kubernetes_deployment_v1.main[0]").after as Json).spec[0].template[0].spec[0]
      .init_container[0];
  const envOf = (plan: PlanResult): Record<string, string> =>
    Object.fromEntries(initOf(plan).env.map((e: Json) => [e.name, e.value]));

  it("tells seed-home each kept volume and its target once: the first mount of a volume seeds it", () => {
    expect(envOf(cargo).SEED_VOLUMES).toBe("volumes/cargo-cache=/usr/local/cargo");
    expect(envOf(mixed).SEED_VOLUMES).toBe(
      "volumes/anonymous-3=/var/lib/anon volumes/shared=/opt/first",
    );
  });

  it("the planned init container, run for real, seeds the cargo volume with the image's toolchain on its first start only", async () => {
    const sandbox = createImageSandbox(dirs, { withGit: false });
    const data = join(sandbox.root, "data");
    const imageCargo = join(sandbox.root, "image", "usr", "local", "cargo");
    mkdirSync(join(imageCargo, "bin"), { recursive: true });
    for (const tool of ["cargo", "rustc"]) {
      writeFileSync(join(imageCargo, "bin", tool), `#!/bin/sh\necho ${tool}\n`);
      chmodSync(join(imageCargo, "bin", tool), 0o755);
    }
    mkdirSync(data);
    const init = initOf(cargo);
    expect(init.command.slice(0, 2)).toEqual(["sh", "-c"]);
    const script = join(sandbox.root, "seed-home.sh");
    writeFileSync(script, init.command[2]);
    const env = envOf(cargo);
    const start = () =>
      runScript({
        script,
        shell: sandbox.shell,
        env: sandbox.env({
          ...env,
          // The image's paths, inside the test's sandbox.
          HOME_DIR: join(sandbox.root, "image", "home", "vscode"),
          SEED_VOLUMES: env.SEED_VOLUMES.replace("=/usr/local/cargo", `=${imageCargo}`),
          SEED_DATA_DIR: data,
        }),
      });

    const first = await start();
    expect(first.exitCode).toBe(0);
    const seeded = join(data, "volumes", "cargo-cache", "bin");
    expect(readFileSync(join(seeded, "cargo"), "utf8")).toBe("#!/bin/sh\necho cargo\n");
    expect(readFileSync(join(seeded, "rustc"), "utf8")).toBe("#!/bin/sh\necho rustc\n");

    // The user removes rustc; a restart (or rebuild) never seeds the volume again.
    rmSync(join(seeded, "rustc"));
    writeFileSync(join(imageCargo, "bin", "cargo"), "#!/bin/sh\necho newer cargo\n");
    const second = await start();
    expect(second.exitCode).toBe(0);
    expect(second.output).toMatch(/volume cargo-cache was seeded on an earlier start/);
    expect(readFileSync(join(seeded, "cargo"), "utf8")).toBe("#!/bin/sh\necho cargo\n");
    expect(existsSync(join(seeded, "rustc"))).toBe(false);
  });
});
