/**
 * Issue 32.2 through the whole template (real Terraform, mock providers): every list and map
 * a repository controls is cut at a fixed number of entries before the template walks it,
 * and the build log names the field and how many it listed. One start plans a repository
 * that lists a few entries more than each cap allows.
 */
import {
  type ApplyResult,
  TerraformHarness,
  type PlanResult,
} from "@coder-cdktf/terraform-harness";
import {
  KUBERNETES_ENTRIES_READ,
  KUBERNETES_NAMES_READ,
  TOLERATIONS_READ,
  UNKNOWN_KEYS_NAMED,
} from "../../../lib/devcontainer/kubernetes-customizations";
import { COMPOSE_FILES_READ } from "../../../lib/devcontainer/docker-warnings";
import { MOUNTS_READ } from "../../../lib/devcontainer/mounts";
import {
  CAPABILITIES_READ,
  HOST_ALIASES_READ,
  HOST_ALIAS_HOSTNAMES_READ,
} from "../../../lib/devcontainer/runtime";
import {
  EXTENSIONS_READ,
  FORWARD_PORTS_READ,
  SERVICE_WARNINGS_READ,
  VARIABLES_READ,
  RUN_ARGS_READ,
  VARIABLE_USES_READ,
} from "../../../lib/devcontainer/source";
import {
  devcontainerFixtures,
  EMPTY_RUNTIME,
  metadata,
  REPOSITORY,
  REQUIRED_VARIABLES,
  STOPPED_FIRST_BUILD,
  synthesizeDevcontainer,
  type SynthesizedDevcontainer,
} from "./synthesized";

jest.setTimeout(180_000);

type Json = Record<string, any>;

/** Each cap as a number: a change is a decision, made here and in docs/security.md. */
const CAPS: [string, number, number][] = [
  ["FORWARD_PORTS_READ", FORWARD_PORTS_READ, 1000],
  ["MOUNTS_READ", MOUNTS_READ, 200],
  ["EXTENSIONS_READ", EXTENSIONS_READ, 100],
  ["SERVICE_WARNINGS_READ", SERVICE_WARNINGS_READ, 100],
  ["VARIABLES_READ", VARIABLES_READ, 100],
  ["VARIABLE_USES_READ", VARIABLE_USES_READ, 100],
  ["CAPABILITIES_READ", CAPABILITIES_READ, 100],
  ["HOST_ALIASES_READ", HOST_ALIASES_READ, 50],
  ["HOST_ALIAS_HOSTNAMES_READ", HOST_ALIAS_HOSTNAMES_READ, 20],
  ["KUBERNETES_ENTRIES_READ", KUBERNETES_ENTRIES_READ, 20],
  ["KUBERNETES_NAMES_READ", KUBERNETES_NAMES_READ, 32],
  ["TOLERATIONS_READ", TOLERATIONS_READ, 50],
  ["UNKNOWN_KEYS_NAMED", UNKNOWN_KEYS_NAMED, 10],
  ["COMPOSE_FILES_READ", COMPOSE_FILES_READ, 10],
  ["RUN_ARGS_READ", RUN_ARGS_READ, 200],
];

const range = (n: number) => Array.from({ length: n }, (_, i) => i);
const OVER = 5;

/** The entries of customizations.kubernetes: the first holds every map and list over its cap. */
const K8S_ENTRIES = range(20 + OVER).map((i): Json => {
  if (i === 0) {
    return {
      tolerations: range(50 + OVER).map((t) => ({
        key: `k${t}`,
        operator: "Exists",
        effect: "NoSchedule",
      })),
      nodeSelector: Object.fromEntries(range(32 + 8).map((n) => [`k${n}`, "v"])),
      resources: {
        requests: Object.fromEntries(range(32 + 8).map((n) => [`example.com/q${n}`, "1"])),
        limits: Object.fromEntries(range(32 + 8).map((n) => [`example.com/r${n}`, "1"])),
      },
    };
  }
  if (i === 1) return Object.fromEntries(range(10 + OVER).map((k) => [`unknown${k}`, true]));
  // Past the cap: never read, so the disk stays the parameter's.
  if (i === 22) return { storage: "99Gi" };
  return {};
});

const GREEDY = metadata({
  configuration_json: JSON.stringify({
    customizations: { kubernetes: K8S_ENTRIES },
    // Past the cap, so never read: the service's 4 GiB stays a reservation, not the limit.
    runArgs: [...range(200).map((a) => `--label=l${a}`), ...range(OVER).map(() => "--memory=4g")],
  }),
  host_requirements: {
    cpus: null,
    memory_bytes: 4 * 1024 ** 3,
    storage_bytes: null,
    gpu_json: null,
  },
  forward_ports: range(1000 + OVER).map((p) => ({
    port: p + 1,
    label: null,
    protocol: null,
    on_auto_forward: null,
  })),
  mounts: range(200 + OVER).map((m) => ({
    kind: "tmpfs",
    source: null,
    target: `/m/${m}`,
    read_only: false,
  })),
  extensions: range(100 + OVER).map((e) => `-not-an-id-${e}`),
  warnings: range(100 + OVER).map((w) => `service warning ${w}`),
  variables: [
    ...range(100 + OVER - 1).map((v) => ({
      kind: "localEnv",
      name: `V${v}`,
      default: null,
      used_in: ["postCreateCommand"],
    })),
    // Its first VARIABLE_USES_READ uses are in mounts (resolved by the service): the use after
    // them is not read, so the workspace does not ask for it.
    {
      kind: "localEnv",
      name: "MOUNTS_FIRST",
      default: null,
      used_in: [...range(100).map((m) => `mounts[${m}]`), "postCreateCommand"],
    },
  ],
  runtime: {
    ...EMPTY_RUNTIME,
    remote_user_uid: 1001,
    remote_user_gid: 1002,
    remote_user_home: "/home/vscode",
    cap_add: range(100 + OVER).map((c) => `NOT_A_CAP_${c}`),
    host_aliases: range(50 + OVER).map((a) => ({
      ip: "10.0.0.1",
      hostnames: a === 0 ? range(20 + OVER).map((h) => `h${h}.example`) : [`a${a}.example`],
    })),
  },
});

describe("devcontainer template: every list a repository controls is cut (issue 32.2)", () => {
  let tf: TerraformHarness;
  let template: SynthesizedDevcontainer;
  let built: ApplyResult;
  let plan: PlanResult;
  let log: string[];
  let pod: Json;

  beforeAll(async () => {
    tf = await TerraformHarness.start();
    template = synthesizeDevcontainer();
    built = await tf.apply(template.dir, STOPPED_FIRST_BUILD);
    plan = await tf.plan(template.dir, {
      variables: {
        ...REQUIRED_VARIABLES,
        allow_node_placement: true,
        max_extended_resources: Object.fromEntries(
          range(32 + 8).map((n) => [`example.com/r${n}`, 1]),
        ),
      },
      parameters: { repository: REPOSITORY },
      state: built,
      fixtures: devcontainerFixtures(GREEDY),
    });
    log = plan.checkFailures().flatMap((message) => message.split("\n"));
    pod = (plan.resource("kubernetes_deployment_v1.main[0]").after as Json).spec[0].template[0]
      .spec[0];
  });
  afterAll(async () => {
    await tf?.stop();
    template?.cleanup();
  });

  const lines = (pattern: RegExp) => log.filter((line) => pattern.test(line));

  it.each(CAPS)("%s is %d", (_name, cap, pinned) => expect(cap).toBe(pinned));

  it("reads 1,000 forwardPorts and 200 mounts, and says how many were listed", () => {
    expect(log).toContain("- forwardPorts lists 1005 entries; only the first 1000 are read.");
    expect(lines(/^- forwardPorts has 1000 ports and the template 10 port apps/)).toHaveLength(1);
    expect(log).toContain("- mounts lists 205 entries; only the first 200 are read.");
    expect(pod.volume.filter((v: Json) => String(v.name).startsWith("tmpfs-"))).toHaveLength(200);
  });

  it("reads 100 extensions, 100 service warnings and 100 variables", () => {
    expect(log).toContain(
      "- customizations.vscode.extensions lists 105 entries; only the first 100 are read.",
    );
    expect(lines(/^- customizations\.vscode\.extensions ".*" is not an extension ID/)).toHaveLength(
      100,
    );
    expect(lines(/^- service warning \d+$/)).toHaveLength(100);
    expect(log).toContain(
      "- The service reported 5 more warnings about the configuration; only the first 100 are shown.",
    );
    expect(log).toContain(
      "- The configuration references 105 variables; only the first 100 are read (the rest are not asked for).",
    );
    const missing = plan.checkFailures().find((m) => m.startsWith("Dev Container variables"));
    expect(missing).toContain(`V0, V1, `);
    expect(missing).toContain(`V99.`);
    expect(missing).not.toContain("V100");
    expect(missing).not.toContain("MOUNTS_FIRST");
  });

  it("reads 200 runArgs: a --memory past them leaves the reported memory a reservation", async () => {
    expect(log).toContain(
      "- runArgs lists 205 entries; only the first 200 are read (a --memory past them is not the limit).",
    );
    // The service reports --memory as host_requirements.memory_bytes; read, it would be the
    // limit with the default 512Mi request (real-world-fidelity.test.ts, runArgsMemory).
    const late = await tf.plan(template.dir, {
      variables: REQUIRED_VARIABLES,
      parameters: { repository: REPOSITORY },
      state: built,
      fixtures: devcontainerFixtures(
        metadata({
          configuration_json: JSON.stringify({
            image: "node:20",
            runArgs: [...range(200).map((a) => `--label=l${a}`), "--memory=4g"],
          }),
          host_requirements: {
            cpus: null,
            memory_bytes: 4 * 1024 ** 3,
            storage_bytes: null,
            gpu_json: null,
          },
        }),
      ),
    });
    const resources = (late.resource("kubernetes_deployment_v1.main[0]").after as Json).spec[0]
      .template[0].spec[0].container[0].resources[0];
    expect(resources.requests.memory).toBe("4Gi");
    expect(resources.limits.memory).toBe("4Gi");
  });

  it("reads 100 capAdd entries, 50 host aliases of 20 names each", () => {
    expect(log).toContain("- capAdd lists 105 entries; only the first 100 are read.");
    expect(lines(/^- capAdd "NOT_A_CAP_\d+" is not a capability name/)).toHaveLength(100);
    expect(log).toContain("- runtime.host_aliases lists 55 entries; only the first 50 are read.");
    expect(log).toContain(
      "- runtime.host_aliases[0] lists 25 host names; only the first 20 are read.",
    );
    expect(pod.host_aliases).toHaveLength(50);
    expect(pod.host_aliases[0].hostnames).toHaveLength(20);
  });

  it("reads 20 customizations.kubernetes entries, 50 tolerations, 32 names per map", () => {
    expect(log).toContain(
      "- customizations.kubernetes lists 25 entries; only the first 20 are read.",
    );
    expect(plan.resource("coder_agent.main").after).toMatchObject({
      metadata: expect.arrayContaining([
        expect.objectContaining({ script: expect.stringContaining("disk 10Gi") }),
      ]),
    });
    expect(log).toContain(
      "- customizations.kubernetes tolerations lists 55 entries; only the first 50 are read.",
    );
    expect(pod.toleration).toHaveLength(50);
    expect(log).toContain(
      "- customizations.kubernetes nodeSelector names 40 entries; only the first 32 (in name order) are read.",
    );
    expect(Object.keys(pod.node_selector)).toHaveLength(32 + 1); // and kubernetes.io/arch
    for (const section of ["requests", "limits"]) {
      expect(log).toContain(
        `- customizations.kubernetes resources.${section} names 40 entries; only the first 32 (in name order) are read.`,
      );
    }
    const limits = pod.container[0].resources[0].limits;
    expect(Object.keys(limits).filter((name) => name.startsWith("example.com/"))).toHaveLength(32);
    expect(lines(/^- customizations\.kubernetes "unknown\d+" is not a setting/)).toHaveLength(10);
    expect(log).toContain(
      "- customizations.kubernetes: 5 more settings this template does not read are ignored.",
    );
  });
});
