import { TerraformOutput, TerraformVariable } from "../../lib/core/cdk";
import { Expr } from "../../lib/core/expr";
import {
  BASELINE_CAPABILITIES,
  DevcontainerRuntime,
  KNOWN_CAPABILITIES,
} from "../../lib/devcontainer/runtime";
import { type ExpressionPlan, planExpressions } from "@coder-cdktf/terraform-harness";
import { KNOWN_CAPABILITIES as HARNESS_CAPABILITIES } from "@coder-cdktf/terraform-harness/src/kubernetes-api";
import { EMPTY_RUNTIME } from "../templates/devcontainer/synthesized";

interface RuntimeCase {
  readonly runtime: unknown;
  readonly allowPrivileged: unknown;
}

/** A runtime object as the provider returns it, every attribute present. */
function runtimeObject(values: Record<string, unknown>): Record<string, unknown> {
  return {
    ...EMPTY_RUNTIME,
    remote_user_uid: 1000,
    remote_user_gid: 1000,
    remote_user_home: "/home/vscode",
    ...values,
  };
}

const EVERYTHING = runtimeObject({
  cap_add: ["SYS_PTRACE", "cap_net_admin", "NET_BIND_SERVICE", "CAP_CHOWN", "chown", "", null],
  privileged: true,
  seccomp_unconfined: true,
  init: true,
  shm_size_bytes: 268435456,
  hostname: "DevBox",
  host_aliases: [
    { ip: "10.0.0.5", hostnames: ["db.local", "Cache"] },
    { ip: "::1", hostnames: ["ipv6.local"] },
  ],
});

const CASES = {
  // Stopped or pre-0.3.0: no runtime at all.
  stopped: { runtime: null, allowPrivileged: false },
  // Provider shape with every attribute null.
  allNull: { runtime: runtimeObject({}), allowPrivileged: false },
  restricted: { runtime: EVERYTHING, allowPrivileged: false },
  allowed: { runtime: EVERYTHING, allowPrivileged: true },
  malformed: {
    runtime: runtimeObject({
      cap_add: ["NET_RAW", "bad cap!"],
      shm_size_bytes: -1,
      hostname: "my.host.example",
      host_aliases: [
        { ip: "host-gateway", hostnames: ["host.docker.internal"] },
        { ip: "192.168.1.300", hostnames: ["a"] },
        { ip: "10.1.1.1", hostnames: ["ok.example", "bad_name"] },
        { ip: "10.1.1.2", hostnames: [] },
        { ip: null, hostnames: null },
      ],
    }),
    allowPrivileged: true,
  },
  fractionalShm: { runtime: runtimeObject({ shm_size_bytes: 1.5 }), allowPrivileged: false },
  unknownAllowed: {
    runtime: runtimeObject({ cap_add: ["FOO_BAR", "SYS_PTRACE", "cap_bogus", "ALL"] }),
    allowPrivileged: true,
  },
  unknownBaseline: {
    runtime: runtimeObject({ cap_add: ["FOO_BAR", "CHOWN"] }),
    allowPrivileged: false,
  },
} satisfies Record<string, RuntimeCase>;

type CaseName = keyof typeof CASES;

interface RuntimeResult {
  capabilities_add: string[];
  privileged: boolean;
  seccomp_profiles: { type: string }[];
  share_process_namespace: boolean;
  shm_size_limit: string;
  hostname: string | null;
  host_aliases: { ip: string; hostnames: string[] }[];
  warnings: string[];
}

let plan: ExpressionPlan;

beforeAll(async () => {
  const variables: Record<string, unknown> = {};
  plan = await planExpressions((stack) => {
    for (const [name, c] of Object.entries(CASES) as [CaseName, RuntimeCase][]) {
      const input = <T>(field: string, value: unknown): Expr<T> => {
        variables[`${name}_${field}`] = value ?? null;
        return Expr.of<T>(
          new TerraformVariable(stack, `${name}_${field}`, { type: "any", nullable: true }).value,
        );
      };
      const runtime = new DevcontainerRuntime(stack, name, {
        runtime: input("runtime", c.runtime),
        allowPrivileged: input("allow_privileged", c.allowPrivileged),
        localPrefix: `${name}_`,
      });
      new TerraformOutput(stack, `${name}_out`, {
        value: {
          capabilities_add: runtime.capabilitiesAdd,
          privileged: runtime.privileged,
          seccomp_profiles: runtime.seccompProfiles,
          share_process_namespace: runtime.shareProcessNamespace,
          shm_size_limit: runtime.shmSizeLimit,
          hostname: runtime.hostname,
          host_aliases: runtime.hostAliases,
          warnings: runtime.warnings,
        },
      });
    }
  }, variables);
}, 60_000);

const result = (name: CaseName) => plan.values[`${name}_out`] as RuntimeResult;

const DEFAULTS: RuntimeResult = {
  capabilities_add: [],
  privileged: false,
  seccomp_profiles: [],
  share_process_namespace: false,
  shm_size_limit: "64Mi",
  hostname: null,
  host_aliases: [],
  warnings: [],
};

describe("DevcontainerRuntime", () => {
  it("maps a missing or all-null runtime to the defaults without warnings", () => {
    expect(result("stopped")).toEqual(DEFAULTS);
    expect(result("allNull")).toEqual(DEFAULTS);
  });

  it("keeps only baseline capabilities without allow_privileged, with one warning listing the rest", () => {
    const r = result("restricted");
    expect(r.capabilities_add).toEqual(["NET_BIND_SERVICE", "CHOWN"]);
    const capWarnings = r.warnings.filter((w) => w.startsWith("capAdd"));
    expect(capWarnings).toEqual([expect.stringContaining("SYS_PTRACE, NET_ADMIN not added")]);
    expect(capWarnings[0]).toContain("allow_privileged");
  });

  it("drops privileged and seccomp unconfined without allow_privileged, each with a warning", () => {
    const r = result("restricted");
    expect(r.privileged).toBe(false);
    expect(r.seccomp_profiles).toEqual([]);
    expect(r.warnings).toEqual([
      expect.stringMatching(/^capAdd: /),
      expect.stringMatching(/^privileged: .*allow_privileged/),
      expect.stringMatching(/^securityOpt seccomp=unconfined: .*allow_privileged/),
    ]);
  });

  it("honors capabilities, privileged and seccomp with allow_privileged, silently", () => {
    const r = result("allowed");
    expect(r.capabilities_add).toEqual(["SYS_PTRACE", "NET_ADMIN", "NET_BIND_SERVICE", "CHOWN"]);
    expect(r.privileged).toBe(true);
    expect(r.seccomp_profiles).toEqual([{ type: "Unconfined" }]);
    expect(r.warnings).toEqual([]);
  });

  it("maps init, shm size, hostname (lower case) and host aliases", () => {
    for (const name of ["restricted", "allowed"] as const) {
      const r = result(name);
      expect(r.share_process_namespace).toBe(true);
      expect(r.shm_size_limit).toBe("268435456");
      expect(r.hostname).toBe("devbox");
      expect(r.host_aliases).toEqual([
        { ip: "10.0.0.5", hostnames: ["db.local", "cache"] },
        { ip: "::1", hostnames: ["ipv6.local"] },
      ]);
    }
  });

  it("drops values Kubernetes would reject, each with a warning naming field and value", () => {
    const r = result("malformed");
    expect(r.capabilities_add).toEqual(["NET_RAW"]);
    expect(r.shm_size_limit).toBe("64Mi");
    expect(r.hostname).toBeNull();
    expect(r.host_aliases).toEqual([{ ip: "10.1.1.1", hostnames: ["ok.example"] }]);
    expect(r.warnings).toEqual([
      'capAdd "BAD CAP!" is not a capability name; it is not added.',
      expect.stringMatching(/^runtime\.shm_size_bytes -1 .*64Mi/),
      expect.stringMatching(/^runtime\.hostname "my\.host\.example" /),
      expect.stringMatching(
        /^runtime\.host_aliases\[0\]\.ip "host-gateway" .*host\.docker\.internal/,
      ),
      expect.stringMatching(/^runtime\.host_aliases\[1\]\.ip "192\.168\.1\.300" /),
      expect.stringMatching(/^runtime\.host_aliases\[2\]\.hostnames: \["bad_name"\] /),
      expect.stringMatching(/^runtime\.host_aliases\[3\] for "10\.1\.1\.2" has no host names/),
      expect.stringMatching(/^runtime\.host_aliases\[4\]\.ip null /),
    ]);
  });

  it("rejects a fractional shm size", () => {
    expect(result("fractionalShm").shm_size_limit).toBe("64Mi");
    expect(result("fractionalShm").warnings).toEqual([
      expect.stringMatching(/shm_size_bytes 1\.5/),
    ]);
  });

  it("drops capability names Linux does not have, even with allow_privileged, quoting each", () => {
    const allowed = result("unknownAllowed");
    expect(allowed.capabilities_add).toEqual(["SYS_PTRACE", "ALL"]);
    expect(allowed.warnings).toEqual([
      'capAdd "FOO_BAR" is not a capability name; it is not added.',
      'capAdd "BOGUS" is not a capability name; it is not added.',
    ]);
    const baseline = result("unknownBaseline");
    expect(baseline.capabilities_add).toEqual(["CHOWN"]);
    expect(baseline.warnings).toEqual([
      'capAdd "FOO_BAR" is not a capability name; it is not added.',
    ]);
  });

  it("knows the same capability names as the plan harness, the baseline among them", () => {
    expect([...KNOWN_CAPABILITIES].sort()).toEqual([...HARNESS_CAPABILITIES].sort());
    expect(new Set(KNOWN_CAPABILITIES).size).toBe(KNOWN_CAPABILITIES.length);
    for (const capability of BASELINE_CAPABILITIES) {
      expect(KNOWN_CAPABILITIES).toContain(capability);
    }
  });
});
