/**
 * The synth-time rules of lib/core/validate.ts, and their Terraform form: for every sample, the
 * TypeScript test and the variable `validation` block that Terraform runs at push time give
 * the same verdict (one provider-free plan with one variable per sample).
 */
import { TemplateVariable } from "../../lib/core/template-variable";
import {
  CODER_PARAMETER_NAME,
  CODER_TEMPLATE_NAME,
  DNS_LABEL,
  DNS_SUBDOMAIN,
  GIT_URL_WITHOUT_PASSWORD,
  SHA256_HEX,
  HTTPS_URL,
  HTTP_URL,
  HTTPS_OR_IN_CLUSTER_HTTP_URL,
  IMAGE_REFERENCE,
  LABEL_VALUE,
  NON_EMPTY_STRING,
  POSITIVE_NUMBER,
  POSITIVE_WHOLE_NUMBER,
  RBAC_ROLE_NAME,
  describeValue,
  emptyOr,
  invalidPropMessage,
  oneOf,
  wholeNumberBetween,
  type Rule,
} from "../../lib/core/validate";
import { planExpressions, TerraformError } from "@coder-cdktf/terraform-harness";
import { EXTENDED_RESOURCE_MAXIMA } from "../../lib/devcontainer/quantity-caps";

jest.setTimeout(60_000);

/** [rule name, rule, values it must accept, values it must refuse]. */
const CASES: [string, Rule, unknown[], unknown[]][] = [
  [
    "DNS_LABEL",
    DNS_LABEL,
    ["a", "coder-workspaces", "0ns", "n".repeat(63)],
    ["", "Bad_NS", "-ns", "ns-", "a.b", "n".repeat(64), "ns\n"],
  ],
  [
    "DNS_SUBDOMAIN",
    DNS_SUBDOMAIN,
    ["registry-creds", "a.b-c.d", `${"a".repeat(63)}.${"b".repeat(63)}`, "x".repeat(253)],
    ["", "Registry", "a..b", ".a", "a_b", "x".repeat(254)],
  ],
  [
    "RBAC_ROLE_NAME",
    RBAC_ROLE_NAME,
    ["packer-builder", "system:aggregate-to-view", "r.1"],
    ["", "Role", "-r", "r:", "a b"],
  ],
  ["LABEL_VALUE", LABEL_VALUE, ["", "Alice_1.x", "a".repeat(63)], ["-a", "a b", "a".repeat(64)]],
  [
    "CODER_TEMPLATE_NAME",
    CODER_TEMPLATE_NAME,
    ["kubernetes", "Packer-Builder2", "a".repeat(31)],
    ["", "my template", "a--b", "-a", "a".repeat(32)],
  ],
  [
    "CODER_PARAMETER_NAME",
    CODER_PARAMETER_NAME,
    ["cpu", "home_disk_size", "Region-2", "a".repeat(64)],
    ["", "2cpu", "cpu cores", "a=b", "a".repeat(65)],
  ],
  [
    "IMAGE_REFERENCE",
    IMAGE_REFERENCE,
    [
      "ubuntu",
      "codercom/enterprise-base:ubuntu",
      "localhost:5000/a/b_c:v1.2",
      `registry.example.com/app@sha256:${"0".repeat(64)}`,
    ],
    ["", "Ubuntu", "ubuntu:", "a b", "registry.example.com/app:-tag", "app@sha256:xyz"],
  ],
  [
    "HTTPS_OR_IN_CLUSTER_HTTP_URL",
    HTTPS_OR_IN_CLUSTER_HTTP_URL,
    [
      "https://b.example.com/api/",
      "https://10.0.0.5:8443",
      "http://devcontainer-builder:8080",
      "http://devcontainer-builder.devcontainer-builder.svc.cluster.local:8080",
      "http://builder.ns.svc",
      "http://builder.ns.svc.my-cluster.internal:8080/api",
    ],
    [
      "",
      "http://builder.example.com:8080",
      "http://10.0.0.5:8080",
      "http://svc:pw@builder.ns.svc",
      "https://tok@b.example.com",
      "builder:8080",
      "http://a b",
    ],
  ],
  [
    "HTTP_URL",
    HTTP_URL,
    ["http://builder:8080", "https://b.example.com/api/"],
    ["", "builder:8080", "ftp://b", "https://user:pw@b", "https://tok@b", "http://a b"],
  ],
  [
    "HTTPS_URL",
    HTTPS_URL,
    ["https://harvester.example.com/k8s/clusters/local"],
    ["http://harvester", "https://", "https://admin:pw@harvester"],
  ],
  [
    "GIT_URL_WITHOUT_PASSWORD",
    GIT_URL_WITHOUT_PASSWORD,
    [
      "https://git.example.com/a.git",
      "git@github.com:a/b.git",
      "ssh://git@host/r",
      "",
      "https://git.example.com/org/@scope/r.git",
      "ssh::ssh://git@host/r",
    ],
    [
      "https://user:token@git.example.com/a.git",
      "ssh://git:pw@host/r",
      "https://ghp_0123456789abcdef@github.com/a/b.git",
      "HTTP://tok@host/r",
      // git's <transport>::<address> form hands the address to the transport as it is.
      "https::https://ghp_0123456789abcdef@github.com/a/b.git",
      "http::http://tok@host/r",
      "a::b::ssh://git:pw@host/r",
    ],
  ],
  [
    "SHA256_HEX",
    SHA256_HEX,
    ["ab".repeat(32), "AB".repeat(32)],
    ["", "ab".repeat(31), "g".repeat(64), `${"ab".repeat(32)}\n`],
  ],
  ["NON_EMPTY_STRING", NON_EMPTY_STRING, ["/kubeconfig.yaml", " x "], ["", "  "]],
  ["emptyOr(DNS_SUBDOMAIN)", emptyOr(DNS_SUBDOMAIN), ["", "registry-creds"], [" ", "Registry"]],
  ['oneOf(["Role", "ClusterRole"])', oneOf(["Role", "ClusterRole"]), ["Role"], ["role", ""]],
  ["POSITIVE_NUMBER", POSITIVE_NUMBER, [0.5, 1, 64], [0, -4, -0.1]],
  ["POSITIVE_WHOLE_NUMBER", POSITIVE_WHOLE_NUMBER, [1, 32], [0, -1, 1.5]],
  ["wholeNumberBetween(0, 100)", wholeNumberBetween(0, 100), [0, 10, 100], [-1, 101, 2.5]],
  [
    "EXTENDED_RESOURCE_MAXIMA",
    EXTENDED_RESOURCE_MAXIMA,
    [{}, { "nvidia.com/gpu": 1 }, { "amd.com/gpu": 2, "example.com/fpga": 8 }],
    [
      { gpu: 1 },
      { cpu: 4 },
      { "hugepages-2Mi": 1 },
      { "nvidia.com/gpu": 0 },
      { "nvidia.com/gpu": 1.5 },
      { "foo.kubernetes.io/x": 1 },
      { "requests.example.com/gpu": 1 },
      { "Nvidia.com/gpu": 1 },
    ],
  ],
];

describe.each(CASES)("%s", (_name, rule, good, bad) => {
  it.each(good)("accepts %j", (value) => expect(rule.test(value)).toBe(true));
  it.each(bad)("refuses %j", (value) => expect(rule.test(value)).toBe(false));
});

it("every variable rule has a Terraform form that agrees with it, sample by sample", async () => {
  const samples = CASES.filter(([, rule]) => rule.condition !== undefined).flatMap(
    ([name, rule, good, bad]) =>
      [...good, ...bad].map((value) => ({ name, rule, value, valid: rule.test(value) })),
  );
  const variables: Record<string, unknown> = {};
  samples.forEach((s, i) => (variables[`v${i}`] = s.value));

  const refusedByTerraform = await planExpressions((stack) => {
    samples.forEach(
      (s, i) =>
        new TemplateVariable(stack, `v${i}`, {
          type:
            typeof s.value === "number"
              ? "number"
              : typeof s.value === "object"
                ? "map(number)"
                : "string",
          rules: [s.rule],
        }),
    );
  }, variables).then(
    () => [] as string[],
    (e: unknown) => {
      if (!(e instanceof TerraformError)) throw e;
      return e.diagnostics
        .filter((d) => d.summary === "Invalid value for variable")
        .map((d) => /^(v\d+) must be /.exec(d.detail)?.[1] ?? d.detail);
    },
  );

  const disagreements = samples
    .map((s, i) => ({ ...s, terraformRefuses: refusedByTerraform.includes(`v${i}`) }))
    .filter((s) => s.terraformRefuses === s.valid)
    .map(
      (s) =>
        `${s.name} ${JSON.stringify(s.value)}: TypeScript says ${s.valid ? "valid" : "invalid"}`,
    );
  expect(disagreements).toEqual([]);
  // Not vacuous: Terraform refused every sample the rules refuse.
  expect(refusedByTerraform.sort()).toEqual(
    samples.flatMap((s, i) => (s.valid ? [] : [`v${i}`])).sort(),
  );
});

describe("messages", () => {
  it.each([
    ["https://bot:hunter2@git.example.com/a.git", '"https://***@git.example.com/a.git"'],
    ["https://ghp_token@github.com/a.git", '"https://***@github.com/a.git"'],
    ["https://ghp_token:x-oauth-basic@github.com/a.git", '"https://***@github.com/a.git"'],
    ["https::https://ghp_token@github.com/a.git", '"https::https://***@github.com/a.git"'],
    // A password with an "@" in it: masked up to the host.
    ["ssh://deploy:hunter2@Tail@git.example.com/r.git", '"ssh://deploy:***@git.example.com/r.git"'],
    ["https://a@b@host/r.git?x=1", '"https://***@host/r.git?x=1"'],
    ["ssh://git@host/r", '"ssh://git@host/r"'],
    ["git@github.com:a/b.git", '"git@github.com:a/b.git"'],
  ])("show %j as %s: no password or token reaches a log", (value, shown) => {
    expect(describeValue(value)).toBe(shown);
  });

  it("name the template, the prop, the value and the rule", () => {
    expect(invalidPropMessage("kubernetes", "image", "a b", IMAGE_REFERENCE)).toBe(
      `template "kubernetes": image = "a b": must be ${IMAGE_REFERENCE.requirement}`,
    );
  });
});
