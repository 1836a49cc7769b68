import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { parseAllDocuments } from "yaml";
import {
  TerraformHarness,
  DEFAULT_WORKSPACE,
  type PlanResult,
} from "@coder-cdktf/terraform-harness";
import { admissionPolicyFile } from "../../../app/admission-policy";
import {
  BUILD_NAMESPACE_PREFIX,
  TEMPLATE_NAMESPACE_LABEL,
} from "../../../templates/packer-builder";
import { celPolicy, decide, type Verdict } from "./admission-evaluator";
import { REQUIRED_VARIABLES, synthPackerBuilder } from "./synthesized-template";

// The provisioner identity's admission policy (issue 43 item 6): the user of /kubeconfig.yaml
// on Harvester may create namespaces and bind roles in them (the per-workspace mode needs it
// cluster-wide), and the policy limits it to what the template makes. Its CEL is evaluated
// offline with @bufbuild/cel, as the API server would, against hostile and ordinary requests;
// the last tests feed it the objects real Terraform plans for the template, which it must
// admit, and check that the build namespaces' binding selects the namespace the template makes.

const PROVISIONER = "system:serviceaccount:coder:coder-vm-provisioner";
const ID = "0f4a2c1e-7b3d-4e5f-9a8b-1c2d3e4f5a6b";
const WS = `coder-${ID}`;
const OWN = `${BUILD_NAMESPACE_PREFIX}${ID}`;
const OTHER_ID = "9d8c7b6a-5f4e-4d3c-8b2a-1f0e9d8c7b6a";
const SHARED = "packer-dev";
const TEMPLATE_LABELS = {
  [TEMPLATE_NAMESPACE_LABEL.key]: TEMPLATE_NAMESPACE_LABEL.value,
  "app.coder.io/workspace": WS,
};

type Obj = Record<string, any>;

const docs = (options: Parameters<typeof admissionPolicyFile>[0]) =>
  parseAllDocuments(admissionPolicyFile(options)).map((d) => d.toJS());
const DOCS = docs({ provisionerUser: PROVISIONER });
const [policyDoc, bindingDoc] = DOCS.filter(
  (d) => d.metadata.name === "packer-builder-provisioner",
);
const POLICY = celPolicy(policyDoc);

const RESOURCES: Record<string, { group: string; resource: string; subResource?: string }> = {
  Namespace: { group: "", resource: "namespaces" },
  RoleBinding: { group: "rbac.authorization.k8s.io", resource: "rolebindings" },
  ServiceAccount: { group: "", resource: "serviceaccounts" },
  Secret: { group: "", resource: "secrets" },
  TokenRequest: { group: "", resource: "serviceaccounts", subResource: "token" },
};

interface Request {
  readonly kind: keyof typeof RESOURCES;
  readonly operation: "CREATE" | "UPDATE" | "DELETE";
  /** The request's object name (for a TokenRequest: the ServiceAccount's). */
  readonly name: string;
  /** The request's namespace; "" for a Namespace. */
  readonly namespace: string;
  readonly object: Obj | null;
  readonly oldObject?: Obj | null;
  /** @default the provisioner identity */
  readonly username?: string;
}

function admit(request: Request, policy = POLICY): Verdict {
  const { group, resource, subResource } = RESOURCES[request.kind];
  return decide(policy, {
    request: {
      kind: { group, version: "v1", kind: request.kind },
      resource: { group, version: "v1", resource },
      subResource: subResource ?? "",
      name: request.name,
      namespace: request.namespace,
      operation: request.operation,
      userInfo: { username: request.username ?? PROVISIONER, groups: ["system:authenticated"] },
    },
    object: request.object,
    oldObject: request.oldObject ?? null,
  });
}

// --- Objects ------------------------------------------------------------------------------
const namespace = (name: string, labels: Record<string, string> = TEMPLATE_LABELS): Obj => ({
  apiVersion: "v1",
  kind: "Namespace",
  metadata: { name, labels },
});
const createNamespace = (object: Obj): Request => ({
  kind: "Namespace",
  operation: "CREATE",
  name: object.metadata.name,
  namespace: "",
  object,
});
const subject = (name = WS, ns = OWN) => ({ kind: "ServiceAccount", name, namespace: ns });
const roleBinding = (
  ns: string,
  roleRef: { kind: string; name: string },
  subjects: Obj[] = [subject(WS, ns)],
  name = `${WS}-${roleRef.name}`,
): Obj => ({
  apiVersion: "rbac.authorization.k8s.io/v1",
  kind: "RoleBinding",
  metadata: { name, namespace: ns },
  roleRef: { apiGroup: "rbac.authorization.k8s.io", ...roleRef },
  subjects,
});
const createBinding = (object: Obj): Request => ({
  kind: "RoleBinding",
  operation: "CREATE",
  name: object.metadata.name,
  namespace: object.metadata.namespace,
  object,
});
const named = (kind: "ServiceAccount" | "Secret", ns: string, name: string): Request => ({
  kind,
  operation: "CREATE",
  name,
  namespace: ns,
  object: { metadata: { name, namespace: ns } },
});
const tokenFor = (ns: string, account: string): Request => ({
  kind: "TokenRequest",
  operation: "CREATE",
  name: account,
  namespace: ns,
  object: { metadata: { name: account, namespace: ns }, spec: { audiences: [] } },
});
const clusterRole = (name: string) => ({ kind: "ClusterRole", name });
const role = (name: string) => ({ kind: "Role", name });

const ALLOWED: [string, Request][] = [
  [
    "creating a workspace's namespace, named and labeled as the template's",
    createNamespace(namespace(OWN)),
  ],
  [
    "relabeling a workspace's namespace, keeping the template's label",
    {
      kind: "Namespace",
      operation: "UPDATE",
      name: OWN,
      namespace: "",
      object: namespace(OWN, { ...TEMPLATE_LABELS, "com.coder.workspace.name": "renamed" }),
      oldObject: namespace(OWN),
    },
  ],
  [
    "deleting a workspace's namespace (terraform destroy)",
    {
      kind: "Namespace",
      operation: "DELETE",
      name: OWN,
      namespace: "",
      object: null,
      oldObject: namespace(OWN),
    },
  ],
  [
    "binding the ClusterRole packer-builder in the workspace's namespace to its identity",
    createBinding(roleBinding(OWN, clusterRole("packer-builder"))),
  ],
  [
    "binding the ClusterRole packer-builder-read in the workspace's namespace",
    createBinding(roleBinding(OWN, clusterRole("packer-builder-read"))),
  ],
  [
    "binding the Role packer-builder in the shared namespace (shared mode)",
    createBinding(roleBinding(SHARED, role("packer-builder"))),
  ],
  [
    "deleting its binding in the shared namespace",
    {
      kind: "RoleBinding",
      operation: "DELETE",
      name: `${WS}-packer-builder`,
      namespace: SHARED,
      object: null,
      oldObject: roleBinding(SHARED, role("packer-builder")),
    },
  ],
  ["creating the workspace identity in its namespace", named("ServiceAccount", OWN, WS)],
  ["creating the workspace identity in the shared namespace", named("ServiceAccount", SHARED, WS)],
  ["creating the session Secret", named("Secret", OWN, `${WS}-session`)],
  ["minting a token for the workspace identity", tokenFor(OWN, WS)],
  ["minting a token for a workspace identity in the shared namespace", tokenFor(SHARED, WS)],
];

const NOT_MATCHED: [string, Request][] = [
  [
    "an administrator creating any namespace",
    { ...createNamespace(namespace("kube-evil", {})), username: "admin" },
  ],
  [
    "another identity binding cluster-admin",
    {
      ...createBinding(roleBinding("kube-system", clusterRole("cluster-admin"))),
      username: "u-operator",
    },
  ],
];

const NAMESPACE_REFUSAL =
  "creates, changes and deletes only namespaces named packer-<workspace id>";
const BINDING_REFUSAL =
  "binds only the roles the template binds, to its workspace service accounts";
const BROAD_REFUSAL = "may never bind cluster-admin, admin, edit or a system: ClusterRole";
const WRITE_REFUSAL =
  "writes service accounts, Secrets, tokens and RoleBindings only named coder-<workspace id>";
const REFUSED: [string, Request, string][] = [
  [
    "creating a namespace of any other name",
    createNamespace(namespace("kube-evil")),
    NAMESPACE_REFUSAL,
  ],
  [
    "creating a namespace that only starts with the prefix (not a workspace id)",
    createNamespace(namespace("packer-dev2")),
    NAMESPACE_REFUSAL,
  ],
  [
    "creating a workspace-named namespace without the template's label",
    createNamespace(namespace(OWN, { "app.coder.io/workspace": WS })),
    NAMESPACE_REFUSAL,
  ],
  [
    "creating a workspace-named namespace with the label set to another template",
    createNamespace(namespace(OWN, { [TEMPLATE_NAMESPACE_LABEL.key]: "kubernetes" })),
    NAMESPACE_REFUSAL,
  ],
  [
    "deleting the shared namespace packer-dev (it has the prefix)",
    {
      kind: "Namespace",
      operation: "DELETE",
      name: SHARED,
      namespace: "",
      object: null,
      oldObject: namespace(SHARED, TEMPLATE_LABELS),
    },
    NAMESPACE_REFUSAL,
  ],
  [
    "deleting kube-system",
    {
      kind: "Namespace",
      operation: "DELETE",
      name: "kube-system",
      namespace: "",
      object: null,
      oldObject: namespace("kube-system", {}),
    },
    NAMESPACE_REFUSAL,
  ],
  [
    "taking over an existing namespace by labeling it as the template's",
    {
      kind: "Namespace",
      operation: "UPDATE",
      name: `packer-${OTHER_ID}`,
      namespace: "",
      object: namespace(`packer-${OTHER_ID}`),
      oldObject: namespace(`packer-${OTHER_ID}`, {}),
    },
    NAMESPACE_REFUSAL,
  ],
  [
    "removing the template's label from a workspace's namespace (out of the build policy's reach)",
    {
      kind: "Namespace",
      operation: "UPDATE",
      name: OWN,
      namespace: "",
      object: namespace(OWN, { "app.coder.io/workspace": WS }),
      oldObject: namespace(OWN),
    },
    NAMESPACE_REFUSAL,
  ],
  [
    "binding cluster-admin in a workspace's namespace",
    createBinding(roleBinding(OWN, clusterRole("cluster-admin"))),
    BROAD_REFUSAL,
  ],
  [
    "binding admin in the shared namespace",
    createBinding(roleBinding(SHARED, clusterRole("admin"))),
    BROAD_REFUSAL,
  ],
  [
    "binding system:aggregate-to-edit (a piece of edit)",
    createBinding(roleBinding(OWN, clusterRole("system:aggregate-to-edit"))),
    BROAD_REFUSAL,
  ],
  [
    "binding a ClusterRole outside the allow-list",
    createBinding(roleBinding(OWN, clusterRole("harvesterhci.io:edit"))),
    BINDING_REFUSAL,
  ],
  [
    "binding in a workspace's namespace a Role (not what the template binds there)",
    createBinding(roleBinding(OWN, role("packer-builder"))),
    BINDING_REFUSAL,
  ],
  [
    "binding packer-builder in kube-system",
    createBinding(roleBinding("kube-system", clusterRole("packer-builder"), [subject(WS, OWN)])),
    BINDING_REFUSAL,
  ],
  [
    "binding packer-builder to itself (a User subject)",
    createBinding(
      roleBinding(OWN, clusterRole("packer-builder"), [
        { kind: "User", apiGroup: "rbac.authorization.k8s.io", name: PROVISIONER },
      ]),
    ),
    BINDING_REFUSAL,
  ],
  [
    "binding packer-builder to every authenticated user",
    createBinding(
      roleBinding(OWN, clusterRole("packer-builder"), [
        { kind: "Group", apiGroup: "rbac.authorization.k8s.io", name: "system:authenticated" },
      ]),
    ),
    BINDING_REFUSAL,
  ],
  [
    "binding packer-builder to a ServiceAccount of kube-system",
    createBinding(
      roleBinding(OWN, clusterRole("packer-builder"), [subject("default", "kube-system")]),
    ),
    BINDING_REFUSAL,
  ],
  [
    "binding packer-builder to a ServiceAccount named like a workspace's Secret",
    createBinding(roleBinding(OWN, clusterRole("packer-builder"), [subject(`${WS}-session`, OWN)])),
    BINDING_REFUSAL,
  ],
  [
    "deleting an operator's RoleBinding in the shared namespace",
    {
      kind: "RoleBinding",
      operation: "DELETE",
      name: "operators",
      namespace: SHARED,
      object: null,
      oldObject: roleBinding(
        SHARED,
        role("packer-dev-admin"),
        [subject("ops", SHARED)],
        "operators",
      ),
    },
    BINDING_REFUSAL,
  ],
  [
    "a binding of an allowed role under another name than a workspace's",
    createBinding(roleBinding(OWN, clusterRole("packer-builder"), undefined, "ops-binding")),
    WRITE_REFUSAL,
  ],
  [
    "minting a token for kube-system's default account",
    tokenFor("kube-system", "default"),
    WRITE_REFUSAL,
  ],
  [
    "minting a token for a coder-named account outside the template's namespaces",
    tokenFor("kube-system", WS),
    WRITE_REFUSAL,
  ],
  [
    "minting a token for an operator's account in the shared namespace",
    tokenFor(SHARED, "image-uploader"),
    WRITE_REFUSAL,
  ],
  [
    "writing a Secret in kube-system",
    named("Secret", "kube-system", `${WS}-session`),
    WRITE_REFUSAL,
  ],
  [
    "writing an operator's Secret in the shared namespace",
    named("Secret", SHARED, "harvester-admin-kubeconfig"),
    WRITE_REFUSAL,
  ],
  [
    "deleting an operator's Secret in a workspace's namespace",
    {
      kind: "Secret",
      operation: "DELETE",
      name: "registry-credentials",
      namespace: OWN,
      object: null,
      oldObject: { metadata: { name: "registry-credentials" } },
    },
    WRITE_REFUSAL,
  ],
  [
    "creating a ServiceAccount in another namespace",
    named("ServiceAccount", "cattle-system", WS),
    WRITE_REFUSAL,
  ],
];

describe("the provisioner identity's admission policy (issue 43 item 6), evaluated with @bufbuild/cel", () => {
  it.each(ALLOWED)("allows %s", (_name, request) => {
    expect(admit(request)).toEqual({ matched: true, refusals: [] });
  });

  it.each(NOT_MATCHED)("does not constrain %s", (_name, request) => {
    expect(admit(request)).toEqual({ matched: false });
  });

  it.each(REFUSED)("refuses %s", (_name, request, because) => {
    const verdict = admit(request);
    expect(verdict.matched).toBe(true);
    const refusals = verdict.matched ? verdict.refusals : [];
    expect(refusals.length).toBeGreaterThan(0);
    expect(refusals.join("\n")).toContain(because);
  });

  it("names the allowed roles per namespace in its refusal", () => {
    const verdict = admit(createBinding(roleBinding(OWN, clusterRole("view"))));
    expect(verdict).toEqual({
      matched: true,
      refusals: [
        `a RoleBinding of ${PROVISIONER} binds only the roles the template binds, to its workspace service accounts (coder-<workspace id>): in packer-dev: Role/packer-builder, Role/packer-builder-read; in packer-<workspace id>: ClusterRole/packer-builder, ClusterRole/packer-builder-read`,
      ],
    });
  });

  it("binds the policy cluster-wide (no namespaceSelector), denying on failure, for the writes it checks", () => {
    expect(policyDoc.spec.failurePolicy).toBe("Fail");
    expect(bindingDoc.spec).toEqual({
      policyName: "packer-builder-provisioner",
      validationActions: ["Deny"],
    });
    expect(policyDoc.spec.matchConditions).toEqual([
      { name: "provisioner-identity", expression: `request.userInfo.username == '${PROVISIONER}'` },
    ]);
    const rules = policyDoc.spec.matchConstraints.resourceRules as Obj[];
    expect(rules.flatMap((r) => r.resources).sort()).toEqual(
      ["namespaces", "rolebindings", "secrets", "serviceaccounts", "serviceaccounts/token"].sort(),
    );
  });

  it("is only generated when the operator names the identity", () => {
    expect(docs({}).map((d) => d.kind)).toEqual([
      "ValidatingAdmissionPolicy",
      "ValidatingAdmissionPolicyBinding",
      "ValidatingAdmissionPolicyBinding",
    ]);
    expect(() => admissionPolicyFile({ provisionerUser: " " })).toThrow("--provisioner-user");
    expect(() => admissionPolicyFile({ provisionerUser: "a\nb" })).toThrow("on one line");
  });

  it("takes the allow-list from the operator's identityRoleBindings, and refuses to admit a broad one", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "provisioner-policy-"));
    try {
      const file = path.join(dir, "deploy.jsonc");
      const config = (bindings: Obj[]) =>
        fs.writeFileSync(
          file,
          JSON.stringify({
            templates: { "packer-builder": { settings: { identityRoleBindings: bindings } } },
          }),
        );
      config([
        { namespace: "packer-dev", roleKind: "Role", roleName: "packer-builder" },
        {
          namespace: "harvester-public",
          roleKind: "ClusterRole",
          roleName: "coder-packer-builder",
        },
      ]);
      const [policy] = docs({ configFile: file, provisionerUser: PROVISIONER }).filter(
        (d) => d.metadata.name === "packer-builder-provisioner",
      );
      const published = createBinding(
        roleBinding("harvester-public", clusterRole("coder-packer-builder"), [subject(WS, OWN)]),
      );
      expect(admit(published, celPolicy(policy))).toEqual({ matched: true, refusals: [] });
      // The default role it no longer binds is no longer admitted.
      expect(
        admit(
          createBinding(roleBinding(OWN, clusterRole("packer-builder-read"))),
          celPolicy(policy),
        ),
      ).toMatchObject({ matched: true, refusals: [expect.stringContaining(BINDING_REFUSAL)] });

      config([
        { namespace: "packer-dev", roleKind: "ClusterRole", roleName: "edit", allowUnsafe: true },
      ]);
      expect(() => admissionPolicyFile({ configFile: file, provisionerUser: PROVISIONER })).toThrow(
        "identityRoleBindings[0] binds the ClusterRole edit (allowUnsafe): the provisioner policy never admits a binding of it",
      );
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("the policies and the objects the template plans (issue 43 items 3 and 6)", () => {
  let tf: TerraformHarness;
  let template: ReturnType<typeof synthPackerBuilder>;
  let perWorkspace: PlanResult;
  let shared: PlanResult;

  beforeAll(async () => {
    template = synthPackerBuilder();
    tf = await TerraformHarness.start();
    [perWorkspace, shared] = await Promise.all([
      tf.plan(template.dir, {
        variables: { ...REQUIRED_VARIABLES, build_namespace_per_workspace: true },
      }),
      tf.plan(template.dir, { variables: REQUIRED_VARIABLES }),
    ]);
  }, 120_000);
  afterAll(async () => {
    await tf?.stop();
    template?.cleanup();
  });

  const metadataOf = (r: { after: Obj }) => (r.after.metadata as Obj[])[0];

  /** The Harvester objects a plan creates, as the provisioner's requests would carry them. */
  function requestsOf(plan: PlanResult): Request[] {
    const harvester = (r: { after: Obj }) => metadataOf(r).namespace !== "packer-builder";
    const namespaces = plan
      .resources("kubernetes_namespace_v1")
      .map((r) => createNamespace(namespace(metadataOf(r).name, metadataOf(r).labels)));
    const bindings = plan.resources("kubernetes_role_binding_v1").map((r) => {
      const { name, namespace: ns } = metadataOf(r);
      const ref = (r.after.role_ref as Obj[])[0];
      return createBinding({
        metadata: { name, namespace: ns },
        roleRef: { apiGroup: ref.api_group, kind: ref.kind, name: ref.name },
        subjects: (r.after.subject as Obj[]).map((s) => ({
          kind: s.kind,
          name: s.name,
          namespace: s.namespace,
        })),
      });
    });
    const accounts = plan
      .resources("kubernetes_service_account_v1")
      .filter(harvester)
      .map((r) => named("ServiceAccount", metadataOf(r).namespace, metadataOf(r).name));
    const secrets = plan
      .resources("kubernetes_secret_v1")
      .filter(harvester)
      .map((r) => named("Secret", metadataOf(r).namespace, metadataOf(r).name));
    const tokens = plan
      .resources("kubernetes_token_request_v1")
      .map((r) => tokenFor(metadataOf(r).namespace, metadataOf(r).name));
    return [...namespaces, ...bindings, ...accounts, ...secrets, ...tokens];
  }

  it.each([
    ["per-workspace", () => perWorkspace, 1],
    ["shared", () => shared, 0],
  ] as const)("admits every Harvester object the %s mode plans", (_mode, plan, namespaceCount) => {
    const requests = requestsOf(plan());
    expect(requests.filter((r) => r.kind === "Namespace")).toHaveLength(namespaceCount);
    expect(requests.filter((r) => r.kind === "RoleBinding")).toHaveLength(2);
    expect(requests.filter((r) => r.kind === "TokenRequest")).toHaveLength(1);
    for (const request of requests) {
      expect([request.kind, request.namespace, request.name, admit(request)]).toEqual([
        request.kind,
        request.namespace,
        request.name,
        { matched: true, refusals: [] },
      ]);
    }
  });

  it("labels the namespace it creates so that the build namespaces' policy binds to it", () => {
    const [created] = perWorkspace.resources("kubernetes_namespace_v1");
    expect(metadataOf(created).name).toBe(
      `${BUILD_NAMESPACE_PREFIX}${String(DEFAULT_WORKSPACE.id)}`,
    );
    const labeled = DOCS.find(
      (d) => d.metadata.name === "packer-builder-own-objects-packer-dev-labeled-namespaces",
    );
    const selector = labeled!.spec.matchResources.namespaceSelector.matchLabels as Record<
      string,
      string
    >;
    expect(metadataOf(created).labels).toMatchObject(selector);
  });
});
