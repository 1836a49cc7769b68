/**
 * Issue 44: classes of real devcontainer.json files where the Dev Containers CLI and the
 * workspace differed, each planned through the template's Terraform (mock providers) with
 * metadata shaped as devcontainer-builder reports it for a file of that class (written here,
 * not copied from any repository).
 */
import { BadInputPlanner, type PlannedWorkspace } from "./bad-inputs";
import { metadata } from "./synthesized";

jest.setTimeout(180_000);

/** A Kibana-like monorepo configuration: node through nvm, yarn in postCreateCommand. */
const NVM_MONOREPO = {
  name: "kibana-like",
  image: "mcr.microsoft.com/devcontainers/base:ubuntu",
  features: { "ghcr.io/devcontainers/features/node:1": { version: "none", nvmVersion: "latest" } },
  postCreateCommand: "yarn kbn bootstrap",
  remoteUser: "vscode",
};

const CASES = {
  probeUnset: { configuration: NVM_MONOREPO },
  probeLoginShell: { configuration: { ...NVM_MONOREPO, userEnvProbe: "loginShell" } },
  probeNone: { configuration: { ...NVM_MONOREPO, userEnvProbe: "none" } },
  probeUnknown: { configuration: { ...NVM_MONOREPO, userEnvProbe: "bash" } },
  probeNumber: { configuration: { ...NVM_MONOREPO, userEnvProbe: 7 } },
} as const;
type CaseName = keyof typeof CASES;

describe("devcontainer template: real-world fidelity (issue 44)", () => {
  let planner: BadInputPlanner;
  const plans = {} as Record<CaseName, PlannedWorkspace>;

  beforeAll(async () => {
    planner = await BadInputPlanner.start();
    const names = Object.keys(CASES) as CaseName[];
    const planned = await Promise.all(
      planner.planMany(
        names.map((name) => ({
          metadata: metadata({
            configuration_json: JSON.stringify(CASES[name].configuration),
            lifecycle_scripts: { postCreateCommand: "#!/bin/sh\nyarn kbn bootstrap\n" },
          }),
        })),
      ),
    );
    names.forEach((name, n) => (plans[name] = planned[n]));
  });
  afterAll(async () => {
    await planner?.stop();
  });

  describe("1. userEnvProbe", () => {
    it("hands the probe to the pod's wrapper: the spec's default loginInteractiveShell, or the file's value", () => {
      expect(plans.probeUnset.pod.env.DC_USER_ENV_PROBE).toBe("loginInteractiveShell");
      expect(plans.probeLoginShell.pod.env.DC_USER_ENV_PROBE).toBe("loginShell");
      expect(plans.probeNone.pod.env.DC_USER_ENV_PROBE).toBe("none");
      for (const name of ["probeUnset", "probeLoginShell", "probeNone"] as const)
        expect(plans[name].warnings.filter((w) => w.includes("userEnvProbe"))).toEqual([]);
    });

    it("a value that names no probe is a build-log warning naming it, and the default, never a failed plan", () => {
      expect(plans.probeUnknown.pod.env.DC_USER_ENV_PROBE).toBe("loginInteractiveShell");
      expect(plans.probeNumber.pod.env.DC_USER_ENV_PROBE).toBe("loginInteractiveShell");
      expect(plans.probeUnknown.warnings).toContain(
        'userEnvProbe "bash" is not one of none, loginShell, interactiveShell, loginInteractiveShell; the workspace probes a loginInteractiveShell (the default).',
      );
      expect(plans.probeNumber.warnings.join("\n")).toMatch(/userEnvProbe 7 is not one of/);
    });
  });
});
