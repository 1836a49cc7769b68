/**
 * The mock provider's rule table (mock-provider/validation-rules.ts): every rule rejects a bad
 * value with the real provider's wording and accepts a good one; coder_parameter's rules;
 * ForceNew replacement; the security_context zero values. One end-to-end plan shows
 * Terraform printing a rule's diagnostic.
 */
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { DERIVED_VALUES } from "../src/mock-provider/resource-behaviour";
import {
  FORCE_NEW,
  POD_SPEC,
  RULES,
  SECURITY_CONTEXT_ZEROS,
} from "../src/mock-provider/validation-rules";
import {
  expandSecurityContexts,
  requiresReplace,
  validateConfig,
  validateParameter,
  validateSecret,
} from "../src/mock-provider/validation";
import { TerraformError, TerraformHarness } from "../src";

interface Sample {
  readonly bad: unknown;
  readonly good: unknown;
  /** Part of the real provider's message for `bad`. */
  readonly message: string | RegExp;
}

const LONG = "x".repeat(64);
/** One sample per rule, keyed by the rule's first type and first path. */
const SAMPLES: Record<string, Sample> = {
  "kubernetes_deployment_v1 metadata.name": {
    bad: "Coder_WS",
    good: "coder-ws",
    message: "metadata.name a lowercase RFC 1123 subdomain must consist of",
  },
  "kubernetes_namespace_v1 metadata.name": {
    bad: "a.b",
    good: "coder",
    message: "a lowercase RFC 1123 label must consist of",
  },
  "kubernetes_deployment_v1 metadata.namespace": {
    bad: "-ns",
    good: "ns",
    message: "metadata.namespace a lowercase RFC 1123 subdomain",
  },
  "kubernetes_deployment_v1 metadata.labels": {
    bad: { "app/": "x", ok: LONG },
    good: { "app.kubernetes.io/name": "coder-workspace" },
    message: 'metadata.labels ("app/") name part must be non-empty',
  },
  "kubernetes_deployment_v1 metadata.annotations": {
    bad: { "a b": "anything" },
    good: { "com.coder.user.email": "alice@example.com" },
    message: 'metadata.annotations ("a b") name part must consist of',
  },
  "kubernetes_deployment_v1 {pod}.toleration.effect": {
    bad: "",
    good: "NoSchedule",
    message: 'to be one of ["NoSchedule" "PreferNoSchedule" "NoExecute"], got ',
  },
  "kubernetes_deployment_v1 {pod}.toleration.operator": {
    bad: "In",
    good: "Exists",
    message: 'to be one of ["Exists" "Equal"], got In',
  },
  "kubernetes_deployment_v1 {pod}.toleration.toleration_seconds": {
    bad: "1".repeat(100),
    good: "300",
    message: "value out of range",
  },
  "kubernetes_deployment_v1 {pod}.security_context.fs_group_change_policy": {
    bad: "Sometimes",
    good: "OnRootMismatch",
    message: 'to be one of ["OnRootMismatch" "Always"], got Sometimes',
  },
  "kubernetes_deployment_v1 {pod}.security_context.seccomp_profile.type": {
    bad: "runtime/default",
    good: "RuntimeDefault",
    message: "got runtime/default",
  },
  "kubernetes_deployment_v1 {pod}.security_context.run_as_user": {
    bad: "root",
    good: "1000",
    message: "cannot parse 'root' as int",
  },
  "kubernetes_deployment_v1 {pod}.termination_grace_period_seconds": {
    bad: -1,
    good: 30,
    message: "to be at least (0), got -1",
  },
  "kubernetes_deployment_v1 {pod}.restart_policy": {
    bad: "Sometimes",
    good: "Always",
    message: "got Sometimes",
  },
  "kubernetes_deployment_v1 {pod}.volume.secret.default_mode": {
    bad: "420",
    good: "0644",
    message: "should start with '0' (octal numeral)",
  },
  "kubernetes_deployment_v1 {pod}.volume.empty_dir.size_limit": {
    bad: "1 Gi",
    good: "1Gi",
    message: "quantities must match the regular expression",
  },
  "kubernetes_deployment_v1 {pod}.volume.empty_dir.medium": {
    bad: "Disk",
    good: "Memory",
    message: "got Disk",
  },
  "kubernetes_deployment_v1 {pod}.{container}.resources.limits": {
    bad: { memory: "8Gii" },
    good: { memory: "8Gi", cpu: "500m" },
    message: 'resources.limits.memory ("8Gii"): unable to parse quantity\'s suffix',
  },
  "kubernetes_deployment_v1 {pod}.{container}.port.container_port": {
    bad: 70000,
    good: 8080,
    message: "must be between 1 and 65535, inclusive",
  },
  "kubernetes_deployment_v1 {pod}.{container}.port.protocol": {
    bad: "HTTP",
    good: "TCP",
    message: "got HTTP",
  },
  "kubernetes_deployment_v1 {pod}.{container}.image_pull_policy": {
    bad: "Sometimes",
    good: "IfNotPresent",
    message: "got Sometimes",
  },
  "kubernetes_persistent_volume_claim_v1 spec.access_modes": {
    bad: ["ReadWriteOnce", "RWX"],
    good: ["ReadWriteOnce"],
    message: "spec.access_modes.1 to be one of",
  },
  "kubernetes_persistent_volume_claim_v1 spec.volume_mode": {
    bad: "Files",
    good: "Filesystem",
    message: "got Files",
  },
  "kubernetes_persistent_volume_claim_v1 spec.resources.limits": {
    bad: { storage: "ten" },
    good: { storage: "10Gi" },
    message: "quantities must match",
  },
  "coder_app display_name": {
    bad: "é".repeat(33),
    good: "é".repeat(32),
    message: "display name is too long (max 64 characters)",
  },
  "coder_app group": { bad: `${LONG}y`, good: LONG, message: "group name is too long" },
  "coder_app tooltip": { bad: "t".repeat(2049), good: "tip", message: "tooltip is too long" },
  "coder_app slug": {
    bad: "port--3000",
    good: "port-3000",
    message: 'invalid "coder_app" slug, must be a valid hostname',
  },
  "coder_app share": { bad: "everyone", good: "owner", message: "got everyone" },
  "coder_app open_in": { bad: "window", good: "tab", message: "got window" },
  "coder_app ": {
    bad: { command: "htop", url: "http://localhost:1", subdomain: null },
    good: { command: "htop", url: null, subdomain: null },
    message: '"command": conflicts with url',
  },
  "coder_script cron": {
    bad: "*/5 * * *",
    good: "0 */5 * * * *",
    message: "*/5 * * * is not a valid cron expression",
  },
  "coder_script timeout": { bad: -5, good: 0, message: "to be at least (0), got -5" },
  "kubernetes_token_request_v1 spec.expiration_seconds": {
    bad: 599,
    good: 600,
    message: "must be greater than or equal to 600",
  },
  "coder_script ": {
    bad: { run_on_start: false, run_on_stop: false, cron: null, start_blocks_login: false },
    good: { run_on_start: true, run_on_stop: false, cron: null, start_blocks_login: true },
    message: "at least one of `run_on_start`, `run_on_stop`, or `cron` must be set",
  },
  "coder_agent os": { bad: "Linux", good: "linux", message: "got Linux" },
  "coder_agent arch": { bad: "x86_64", good: "amd64", message: "got x86_64" },
  "coder_agent metadata": {
    bad: [{ key: "cpu" }, { key: "cpu" }],
    good: [{ key: "cpu" }, { key: "mem" }],
    message: 'duplicate agent metadata key "cpu"',
  },
  "coder_secret env": {
    bad: "MY-TOKEN",
    good: "MY_TOKEN",
    message:
      '`env` must be a POSIX-compliant identifier matching "^[a-zA-Z_][a-zA-Z0-9_]*$"; got "MY-TOKEN"',
  },
  "coder_secret file": {
    bad: "my-token",
    good: "~/my-token",
    message: '`file` must start with `/` or `~/`; got "my-token"',
  },
};

/** What a configuration of the type needs to pass its whole-object rules. */
const BASE: Record<string, Record<string, unknown>> = { coder_script: { run_on_start: true } };

/** A configuration with `value` at the rule path (its placeholders filled). */
function configAt(type: string, rulePath: string, value: unknown): unknown {
  const spec = POD_SPEC[type];
  const filled = rulePath
    .replace("{pod}", spec?.pod ?? "")
    .replace("{podmeta}", spec?.podmeta ?? "")
    .replace("{container}", "container");
  if (filled === "") return value;
  const [first, ...rest] = filled.split(".");
  const inner = rest.reverse().reduce<unknown>((v, name) => ({ [name]: v }), value);
  return { ...BASE[type], [first!]: inner };
}

const ruleKey = (rule: (typeof RULES)[number]) => `${rule.types[0]} ${rule.paths[0]}`;

describe("the mock provider's rule table", () => {
  it("has a sample for every rule and every rule names its source", () => {
    expect(RULES.map(ruleKey).filter((k) => !(k in SAMPLES))).toEqual([]);
    expect(Object.keys(SAMPLES).filter((k) => !RULES.some((r) => ruleKey(r) === k))).toEqual([]);
    for (const rule of RULES) {
      expect(rule.source).toMatch(/^(hashicorp|coder)\/terraform-provider-\w+ v2\.\d+ \S+\.go /);
    }
  });

  it("names the source of every ForceNew entry, unset-field value and derived value", () => {
    const entries = [
      ...FORCE_NEW,
      SECURITY_CONTEXT_ZEROS.container,
      SECURITY_CONTEXT_ZEROS.pod,
      ...DERIVED_VALUES,
    ];
    for (const rule of entries) {
      expect(rule.source).toMatch(/^(hashicorp|coder)\/terraform-provider-\w+ v2\.\d+ \S+\.go /);
    }
  });

  describe.each(RULES.map((rule) => [ruleKey(rule), rule] as const))("%s", (key, rule) => {
    const sample = SAMPLES[key]!;
    const [type] = rule.types;

    it("rejects a bad value with the real wording", () => {
      const diagnostics = validateConfig(type!, configAt(type!, rule.paths[0]!, sample.bad));
      expect(diagnostics.length).toBeGreaterThan(0);
      expect(diagnostics.map((d) => d.summary).join("\n")).toEqual(
        expect.stringContaining(String(sample.message)),
      );
      expect(diagnostics.every((d) => d.severity === "ERROR")).toBe(true);
    });

    it("accepts a good value", () => {
      expect(validateConfig(type!, configAt(type!, rule.paths[0]!, sample.good))).toEqual([]);
    });
  });

  it("walks every element of a block list and names it as the SDK does", () => {
    const config = {
      spec: [
        {
          template: [
            {
              spec: [
                {
                  toleration: [{ effect: "NoSchedule" }, { effect: "" }],
                  init_container: [{ image_pull_policy: "Nope" }],
                },
              ],
            },
          ],
        },
      ],
    };
    const summaries = validateConfig("kubernetes_deployment_v1", config).map((d) => d.summary);
    expect(summaries).toEqual([
      'expected spec.0.template.0.spec.0.toleration.1.effect to be one of ["NoSchedule" "PreferNoSchedule" "NoExecute"], got ',
      'expected spec.0.template.0.spec.0.init_container.0.image_pull_policy to be one of ["Always" "Never" "IfNotPresent"], got Nope',
    ]);
  });
});

describe("coder_secret when it is read (provider/secret.go ReadContext)", () => {
  const secret = (fields: Record<string, unknown>) => ({
    env: null,
    file: null,
    help_message: "Create it",
    ...fields,
  });
  const errors = (fields: Record<string, unknown>, value: string, transition: string) =>
    validateSecret(secret(fields), value, transition).map((d) => d.summary);

  it("needs exactly one of env and file", () => {
    expect(errors({}, "", "stop")).toEqual(["exactly one of `env` or `file` must be set"]);
    expect(errors({ env: "A", file: "~/a" }, "x", "start")).toEqual([
      "exactly one of `env` or `file` must be set",
    ]);
  });

  it("fails a start build without a value, naming the requirement; a stop reads '' and goes on", () => {
    expect(errors({ env: "NPM_TOKEN" }, "", "start")).toEqual([
      'Missing required secret: environment variable "NPM_TOKEN"',
    ]);
    expect(errors({ file: "~/.npmrc" }, "", "start")).toEqual([
      'Missing required secret: file "~/.npmrc"',
    ]);
    expect(errors({ env: "NPM_TOKEN" }, "", "stop")).toEqual([]);
    expect(errors({ env: "NPM_TOKEN" }, "t", "start")).toEqual([]);
  });
});

describe("coder_parameter rules (checked when the data source is read)", () => {
  const parameter = (fields: Record<string, unknown>) => ({
    type: "string",
    default: null,
    option: null,
    validation: null,
    form_type: null,
    mutable: false,
    ephemeral: null,
    order: 1,
    ...fields,
  });
  const errors = (fields: Record<string, unknown>, value: unknown = fields.default) =>
    validateParameter(parameter(fields), value).map((d) => d.summary);

  it.each([
    [{ type: "number", default: "four" }, '"four" is not a number'],
    [{ type: "bool", default: "yes" }, '"yes" is not a bool'],
    [
      { option: [{ name: "A", value: "a" }], default: "b" },
      'default value "b" must be defined as one of options',
    ],
    [{ type: "number", option: [{ name: "A", value: "x" }] }, '"x" is not a number'],
    [
      {
        option: [
          { name: "A", value: "a" },
          { name: "B", value: "a" },
        ],
      },
      'multiple options cannot have the same value "a"',
    ],
    [
      { type: "number", default: "9", validation: [{ min: 1, max: 8 }] },
      "value 9 is more than the maximum 8",
    ],
    [
      { type: "string", default: "x", validation: [{ min: 1, max: null }] },
      "a min cannot be specified for a string type",
    ],
    [{ type: "bool", default: "true", form_type: "slider" }, '"slider" is not supported'],
    [
      { default: "x", ephemeral: true, mutable: false },
      "parameter can't be immutable and ephemeral",
    ],
    [
      {
        type: "list(string)",
        form_type: "multi-select",
        option: [{ name: "A", value: "a" }],
        default: '["b"]',
      },
      'value "b" of the default must be defined as one of options',
    ],
  ])("rejects %j", (fields, message) => {
    expect(errors(fields).join("\n")).toContain(message);
  });

  it.each([
    { type: "number", default: "4", validation: [{ min: 1, max: 8 }] },
    { option: [{ name: "A", value: "a" }], default: "a", form_type: "dropdown" },
    { type: "bool", default: "false", form_type: "checkbox" },
    { default: "x", ephemeral: true, mutable: true },
    { type: "list(string)", default: '["a"]' },
    // A multi-select offers the list's elements as its options.
    {
      type: "list(string)",
      form_type: "multi-select",
      option: [
        { name: "A", value: "a" },
        { name: "B", value: "b" },
      ],
      default: '["b"]',
    },
  ])("accepts %j", (fields) => {
    expect(errors(fields)).toEqual([]);
  });
});

describe("ForceNew replacement", () => {
  const pvc = (fields: Record<string, unknown>) => ({
    id: "x",
    metadata: [{ name: "home", namespace: "ws", labels: { a: "1" } }],
    spec: [{ access_modes: ["ReadWriteOnce"], storage_class_name: null, ...fields }],
  });

  it("asks for replacement when a PVC's access modes or storage class change", () => {
    expect(
      requiresReplace(
        "kubernetes_persistent_volume_claim_v1",
        pvc({}),
        pvc({ access_modes: ["ReadWriteMany"], storage_class_name: "fast" }),
      ),
    ).toEqual([
      {
        steps: [
          { attribute_name: "spec" },
          { element_key_int: 0 },
          { attribute_name: "access_modes" },
        ],
      },
      {
        steps: [
          { attribute_name: "spec" },
          { element_key_int: 0 },
          { attribute_name: "storage_class_name" },
        ],
      },
    ]);
  });

  it("replaces a coder_agent on any change: every attribute of it is ForceNew", () => {
    const agent = (fields: Record<string, unknown>) => ({
      id: "a",
      os: "linux",
      arch: "amd64",
      dir: "/home/coder",
      env: { A: "1" },
      ...fields,
    });
    expect(requiresReplace("coder_agent", agent({}), agent({}))).toEqual([]);
    expect(requiresReplace("coder_agent", agent({}), agent({ dir: "/workspaces/app" }))).toEqual([
      { steps: [{ attribute_name: "dir" }] },
    ]);
    expect(requiresReplace("coder_agent", agent({}), agent({ env: { A: "2" } }))).toEqual([
      { steps: [{ attribute_name: "env" }] },
    ]);
  });

  it("updates in place when only labels change, and never replaces a create", () => {
    const relabeled = { ...pvc({}), metadata: [{ name: "home", namespace: "ws", labels: {} }] };
    expect(requiresReplace("kubernetes_persistent_volume_claim_v1", pvc({}), relabeled)).toEqual(
      [],
    );
    expect(requiresReplace("kubernetes_persistent_volume_claim_v1", null, pvc({}))).toEqual([]);
  });
});

describe("security_context expansion", () => {
  it("plans the zero values the real provider sends", () => {
    const planned = expandSecurityContexts("kubernetes_deployment_v1", {
      spec: [
        {
          template: [
            {
              spec: [
                {
                  security_context: [{ run_as_non_root: null, run_as_user: "1000" }],
                  container: [
                    {
                      security_context: [
                        {
                          allow_privilege_escalation: null,
                          privileged: null,
                          read_only_root_filesystem: null,
                          run_as_non_root: null,
                        },
                      ],
                    },
                    { security_context: [] },
                  ],
                },
              ],
            },
          ],
        },
      ],
    }) as { spec: { template: { spec: Record<string, unknown>[] }[] }[] };
    const pod = planned.spec[0]!.template[0]!.spec[0]!;
    expect(pod.security_context).toEqual([{ run_as_non_root: false, run_as_user: "1000" }]);
    expect(pod.container).toEqual([
      {
        security_context: [
          {
            allow_privilege_escalation: true,
            privileged: false,
            read_only_root_filesystem: false,
            run_as_non_root: false,
          },
        ],
      },
      { security_context: [] },
    ]);
  });
});

describe("through Terraform", () => {
  let tf: TerraformHarness;
  let dir: string;
  beforeAll(async () => {
    tf = await TerraformHarness.start();
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "provider-rules-"));
    fs.writeFileSync(
      path.join(dir, "main.tf.json"),
      JSON.stringify({
        terraform: { required_providers: { coder: { source: "coder/coder" } } },
        variable: { display_name: { type: "string" } },
        resource: {
          coder_agent: { main: { os: "linux", arch: "amd64" } },
          coder_app: {
            web: {
              agent_id: "${coder_agent.main.id}",
              slug: "web",
              display_name: "${var.display_name}",
            },
          },
        },
      }),
    );
  });
  afterAll(async () => {
    await tf.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it("refuses two apps with one slug on one agent, as Coder does", async () => {
    const config = JSON.parse(fs.readFileSync(path.join(dir, "main.tf.json"), "utf8"));
    const twice = fs.mkdtempSync(path.join(os.tmpdir(), "provider-rules-slug-"));
    try {
      config.resource.coder_app.other = { ...config.resource.coder_app.web };
      fs.writeFileSync(path.join(twice, "main.tf.json"), JSON.stringify(config));
      await expect(tf.plan(twice, { variables: { display_name: "Web" } })).rejects.toThrow(
        'duplicate app slug, they must be unique per agent: "web"',
      );
      config.resource.coder_app.other.slug = "other";
      fs.writeFileSync(path.join(twice, "main.tf.json"), JSON.stringify(config));
      const plan = await tf.plan(twice, { variables: { display_name: "Web" } });
      expect(plan.kubernetesApi().violations).toEqual([]);
    } finally {
      fs.rmSync(twice, { recursive: true, force: true });
    }
  });

  it("prints the real provider's diagnostic and accepts a good value", async () => {
    const failure = await tf.plan(dir, { variables: { display_name: "é".repeat(40) } }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(failure).toBeInstanceOf(TerraformError);
    expect((failure as TerraformError).message).toContain(
      "display name is too long (max 64 characters)",
    );
    const plan = await tf.plan(dir, { variables: { display_name: "Web" } });
    expect(plan.resource("coder_app.web").after.display_name).toBe("Web");
  });
});
