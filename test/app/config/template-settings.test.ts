import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { parseOperatorConfig } from "../../../app/operator-config";
import { synthTemplates } from "../../../app/synth";
import { TEMPLATES } from "../../../app/registry";

// Synth-time template settings in the operator configuration: packer-builder's role
// bindings and namespaces come from coder-cdktf.jsonc; what a template does not offer or
// rejects fails with the file position, the field and the reason.

const KNOWN = TEMPLATES.map((t) => t.id);
const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => fs.rmSync(d, { recursive: true, force: true })));

function synth(text: string, only: string) {
  const config = parseOperatorConfig(text, "deploy.jsonc", KNOWN);
  const outdir = fs.mkdtempSync(path.join(os.tmpdir(), "settings-"));
  dirs.push(outdir);
  const [t] = synthTemplates({ outdir, config, only: [only] });
  return t.model as Record<string, any>;
}

/** A Role in the identity namespace: the ClusterRole of its name in the per-workspace mode. */
const BUILD_ROLE_KIND = '${var.build_namespace_per_workspace ? "ClusterRole" : "Role"}';

it("binds the roles an operator lists, e.g. publishing in harvester-public", () => {
  const tf = synth(
    `{
  "templates": {
    "packer-builder": {
      "settings": {
        // a deployment whose RBAC layout needs a binding in the public images namespace
        "identityRoleBindings": [
          { "namespace": "packer-dev", "roleKind": "Role", "roleName": "packer-builder" },
          { "namespace": "harvester-public", "roleKind": "Role", "roleName": "coder-packer-builder" },
        ],
      },
    },
  },
}`,
    "packer-builder",
  );
  const bindings = Object.values(tf.resource.kubernetes_role_binding_v1) as any[];
  const harvester = bindings.filter((b) => b.provider === "kubernetes.harvester");
  expect(
    harvester.map((b) => [b.metadata.namespace, b.role_ref.kind, b.role_ref.name]).sort(),
  ).toEqual([
    ["${local.harvester_namespace}", BUILD_ROLE_KIND, "packer-builder"],
    ["harvester-public", "Role", "coder-packer-builder"],
  ]);
});

it("rejects a setting named __proto__, which would hide the settings under it from the checks", () => {
  expect(() =>
    synth(
      `{ "templates": { "packer-builder": { "settings": { "__proto__": { "identityNamespace": "kube-system" } } } } }`,
      "packer-builder",
    ),
  ).toThrow(
    /^deploy\.jsonc:1:52: templates\.packer-builder\.settings\.__proto__: unknown setting; allowed: /,
  );
});

it("rejects a setting the template does not offer, at the setting's name", () => {
  expect(() =>
    synth(
      `{ "templates": { "packer-builder": { "settings": { "namespace": "x" } } } }`,
      "packer-builder",
    ),
  ).toThrow(
    /^deploy\.jsonc:1:52: templates\.packer-builder\.settings\.namespace: unknown setting; allowed: workspaceNamespace, identityNamespace, identityRoleBindings, uid$/,
  );
  expect(() =>
    synth(`{ "templates": { "kubernetes": { "settings": { "image": "x" } } } }`, "kubernetes"),
  ).toThrow(
    /^deploy\.jsonc:1:48: templates\.kubernetes\.settings\.image: unknown setting; template "kubernetes" has none$/,
  );
});

it("rejects a bad value with the position, the field and the template's reason", () => {
  const text = `{
  "templates": {
    "packer-builder": {
      "settings": {
        "identityRoleBindings": [{ "namespace": "packer-dev", "roleKind": "ClusterRoleBinding", "roleName": "x" }],
      },
    },
  },
}`;
  expect(() => synth(text, "packer-builder")).toThrow(
    /^deploy\.jsonc:5:75: templates\.packer-builder\.settings\.identityRoleBindings\[0\]\.roleKind: template "packer-builder": identityRoleBindings\[0\]\.roleKind = "ClusterRoleBinding": must be one of "Role", "ClusterRole"$/,
  );
  expect(() =>
    synth(
      `{ "templates": { "packer-builder": { "settings": { "identityRoleBindings": "packer-builder" } } } }`,
      "packer-builder",
    ),
  ).toThrow(
    /identityRoleBindings = "packer-builder": must be a non-empty list of \{namespace, roleKind, roleName\} objects$/,
  );
  expect(() =>
    synth(`{ "templates": { "packer-builder": { "settings": { "uid": 0 } } } }`, "packer-builder"),
  ).toThrow(
    /^deploy\.jsonc:1:59: templates\.packer-builder\.settings\.uid: template "packer-builder": uid = 0: must be /,
  );
});

describe("identity role bindings stay within what the template documents (issue 15 item 9)", () => {
  /** A config whose identityRoleBindings are `entries`, one per line from line 3. */
  const withBindings = (entries: readonly object[], extra = "") =>
    `{ "templates": { "packer-builder": { "settings": {${extra}\n  "identityRoleBindings": [\n` +
    entries.map((e) => `    ${JSON.stringify(e)}`).join(",\n") +
    "\n] } } } }";
  const PACKER = { namespace: "packer-dev", roleKind: "Role", roleName: "packer-builder" };
  const REQUIREMENT = (namespaces: string) =>
    `must be a binding in ${namespaces} (the namespaces the template documents) to a role other than ` +
    'the built-in ClusterRoles cluster-admin, admin, edit and system:*; set "allowUnsafe": true on the entry to bind it anyway';

  it.each([
    [{ namespace: "kube-system", roleKind: "ClusterRole", roleName: "cluster-admin" }],
    [{ namespace: "harvester-public", roleKind: "ClusterRole", roleName: "admin" }],
    [{ namespace: "packer-dev", roleKind: "ClusterRole", roleName: "edit" }],
    [{ namespace: "default", roleKind: "Role", roleName: "coder-packer-builder" }],
    // What admin and edit are aggregated from, and the controllers' roles.
    [{ namespace: "packer-dev", roleKind: "ClusterRole", roleName: "system:aggregate-to-edit" }],
    [
      {
        namespace: "harvester-public",
        roleKind: "ClusterRole",
        roleName: "system:aggregate-to-admin",
      },
    ],
    [
      {
        namespace: "packer-dev",
        roleKind: "ClusterRole",
        roleName: "system:controller:namespace-controller",
      },
    ],
  ])("refuses %j, naming the entry at its position", (entry) => {
    expect(() => synth(withBindings([PACKER, entry]), "packer-builder")).toThrow(
      `deploy.jsonc:4:5: templates.packer-builder.settings.identityRoleBindings[1]: ` +
        `template "packer-builder": identityRoleBindings[1] = ${JSON.stringify(entry)}: ` +
        REQUIREMENT("packer-dev or harvester-public"),
    );
  });

  it("refuses a role name bound twice in a namespace at the second entry, whatever its kind", () => {
    const again = { namespace: "packer-dev", roleKind: "ClusterRole", roleName: "packer-builder" };
    expect(() => synth(withBindings([PACKER, again]), "packer-builder")).toThrow(
      `deploy.jsonc:4:5: templates.packer-builder.settings.identityRoleBindings[1]: ` +
        `template "packer-builder": identityRoleBindings[1] = ${JSON.stringify(again)}: ` +
        "must be a role name not bound in packer-dev yet (identityRoleBindings[0] binds packer-builder there); " +
        "bind a role name once per namespace",
    );
    const elsewhere = { ...again, namespace: "harvester-public" };
    expect(() => synth(withBindings([PACKER, elsewhere]), "packer-builder")).not.toThrow();
  });

  it("binds such an entry when the operator sets allowUnsafe on it, and only that entry", () => {
    const unsafe = { namespace: "kube-system", roleKind: "ClusterRole", roleName: "view" };
    const tf = synth(withBindings([PACKER, { ...unsafe, allowUnsafe: true }]), "packer-builder");
    const refs = (Object.values(tf.resource.kubernetes_role_binding_v1) as any[])
      .filter((b) => b.provider === "kubernetes.harvester")
      .map((b) => `${b.metadata.namespace} ${b.role_ref.kind} ${b.role_ref.name}`);
    expect(refs.sort()).toEqual([
      `\${local.harvester_namespace} ${BUILD_ROLE_KIND} packer-builder`,
      "kube-system ClusterRole view",
    ]);
    expect(JSON.stringify(tf)).not.toContain("allowUnsafe");
  });

  it("follows a configured identity namespace", () => {
    const extra = `\n  "identityNamespace": "builds",`;
    const inBuilds = { namespace: "builds", roleKind: "Role", roleName: "packer-builder" };
    expect(() => synth(withBindings([inBuilds], extra), "packer-builder")).not.toThrow();
    expect(() => synth(withBindings([PACKER], extra), "packer-builder")).toThrow(
      REQUIREMENT("builds or harvester-public"),
    );
  });

  it.each([
    [
      { ...PACKER, allowUnsafe: "yes" },
      'deploy.jsonc:3:91: templates.packer-builder.settings.identityRoleBindings[0].allowUnsafe: template "packer-builder": identityRoleBindings[0].allowUnsafe = "yes": must be true or false',
    ],
    [
      { namespace: "packer-dev", roleKind: "Role", roleName: "packer-builder", unsafe: true },
      "deploy.jsonc:3:86: templates.packer-builder.settings.identityRoleBindings[0].unsafe: " +
        'template "packer-builder": identityRoleBindings[0].unsafe = true: must be a field of a binding (namespace, roleKind, roleName, allowUnsafe)',
    ],
  ])("refuses a malformed override %j at the field", (entry, message) => {
    expect(() => synth(withBindings([entry]), "packer-builder")).toThrow(message);
  });
});
