// `npm run new-template -- <id>`: scaffolds templates/<id>/ (a stack from the building blocks,
// its README, its intent), registers it in app/registry.ts, writes its plan test under
// test/templates/<id>/, and records what the suite checks of every template: its addresses,
// the README's template table, docs/provisioners.md and its snapshots. The id is written once:
// the registry entry names it, the stack and the folder follow from it. docs/adding-a-template.md.
//
// `--record <id>` (run by the scaffold in a fresh process, once the registry holds the new
// template) writes the intent and the addresses from its first synth, and the generated docs
// (`npm run docs`'s work, in the same process: it loads the same templates).
import { spawnSync } from "node:child_process";
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { parseCommandLine, UsageError } from "../../app/cli-args";
import { projectRoot } from "../../lib/core/project-root";
import { templateAddresses, writeRecordedAddresses } from "../../app/template-addresses";
import { deriveIntent, INTENT_FILE } from "../../app/intent";
import { MAX_CODER_TEMPLATE_NAME } from "../../lib/core/coder-names";

const USAGE = `usage: npm run new-template -- <id>   (a lowercase name: letters, digits, dashes; at most ${MAX_CODER_TEMPLATE_NAME} characters)`;
const ID = /^[a-z][a-z0-9]*(-[a-z0-9]+)*$/;
const REGISTRY = "app/registry.ts";

/** `jupyter-lab` → `JupyterLabTemplate`. */
export function className(id: string): string {
  return `${id
    .split("-")
    .map((w) => w[0].toUpperCase() + w.slice(1))
    .join("")}Template`;
}

/**
 * Why `id` cannot be a new template beside those `registry` (app/registry.ts's text) holds, or
 * undefined. The id is the template's default name in Coder, which takes at most
 * MAX_CODER_TEMPLATE_NAME characters, and its class name must be new: `a-1` and `a1` both
 * make `A1Template`, and the registry could not import both.
 */
export function idProblem(id: string, registry: string): string | undefined {
  if (!ID.test(id)) return `template id "${id}": not a lowercase name`;
  if (id.length > MAX_CODER_TEMPLATE_NAME) {
    return `template id "${id}": ${id.length} characters; Coder takes a template name of at most ${MAX_CODER_TEMPLATE_NAME}`;
  }
  const name = className(id);
  if (new RegExp(`\\b${name}\\b`).test(registry)) {
    return `template id "${id}": its class ${name} is already in ${REGISTRY}; choose an id that differs in more than its dashes`;
  }
  return undefined;
}

/** The files of a new template, by path from the project root. */
export function scaffoldFiles(id: string): Record<string, string> {
  const name = className(id);
  const title = id
    .split("-")
    .map((w) => w[0].toUpperCase() + w.slice(1))
    .join(" ");
  return {
    [`templates/${id}/index.ts`]: stackSource(name, title),
    [`templates/${id}/README.md`]: readmeSource(id, title),
    [`test/templates/${id}/plan.test.ts`]: planTestSource(id),
  };
}

// long: the scaffolded stack's source, one text a reader compares with what it writes
function stackSource(name: string, title: string): string {
  return `import {
  agentContainer,
  AgentTokenSecret,
  CodeServer,
  coderProvider,
  type Construct,
  DataVolume,
  DNS_LABEL,
  standardMetadata,
  TemplateStack,
  TemplateVariable,
  useKubeconfigVariable,
  WORKSPACE_POD_ANTI_AFFINITY,
  WorkspaceAgent,
  workspaceClusterProvider,
  WorkspaceData,
  WorkspaceDeployment,
  workspaceObjectMeta,
  WorkspaceParameter,
} from "../../lib";

/** The image's user; its home is the data volume. */
const WORKSPACE_UID = 1000;
const HOME = "/home/coder";

/**
 * ${title}: one pod running the agent as a non-root user, the home on a volume that survives
 * stops, code-server in the browser. Scaffolded by \`npm run new-template\`: change it freely,
 * then run \`npm run addresses:update\` and \`npm run snapshots:update\` and review the diffs.
 */
export class ${name} extends TemplateStack {
  constructor(scope: Construct, id: string) {
    super(scope, id, {
      frontMatter: {
        displayName: "${title}",
        description: "A ${title} workspace on Kubernetes with a persistent home volume",
        icon: "/icon/k8s.png",
      },
    });
    const useKubeconfig = useKubeconfigVariable(this);
    const namespace = new TemplateVariable(this, "namespace", {
      rules: [DNS_LABEL],
      type: "string",
      description: "Existing Kubernetes namespace for the workspaces' pods and volumes.",
    });
    coderProvider(this);
    workspaceClusterProvider(this, useKubeconfig);

    const workspace = new WorkspaceData(this, "workspace");
    const cpu = new WorkspaceParameter(this, "cpu", {
      order: 1,
      displayName: "CPU",
      description: "CPU cores the workspace may use.",
      default: "2",
      mutable: true,
      options: ["2", "4"].map((n) => ({ name: \`\${n} Cores\`, value: n })),
    });
    const memory = new WorkspaceParameter(this, "memory", {
      order: 2,
      displayName: "Memory",
      description: "Memory the workspace may use, in GB.",
      default: "4",
      mutable: true,
      options: ["4", "8"].map((n) => ({ name: \`\${n} GB\`, value: n })),
    });
    const agent = new WorkspaceAgent(this, "agent", { metadata: standardMetadata("Home Disk") });
    const home = new DataVolume(this, "home", {
      name: \`coder-\${workspace.id}-home\`,
      namespace: namespace.stringValue,
      size: "10Gi",
      meta: workspaceObjectMeta(workspace, "pvc"),
    });
    new CodeServer(this, "code_server", { workspace, agent, folder: HOME, order: 1 });
    // The agent's token from a Secret of its own: never a literal in the pod spec.
    const tokenSecret = new AgentTokenSecret(this, "agent_token_secret", {
      workspace,
      agent,
      namespace: namespace.stringValue,
      meta: workspaceObjectMeta(workspace, "agent-token"),
    });
    new WorkspaceDeployment(this, "deployment", {
      workspace,
      name: \`coder-\${workspace.id}\`,
      namespace: namespace.stringValue,
      meta: workspaceObjectMeta(workspace, "workspace"),
      dependsOn: [home.claim],
      pod: {
        securityContext: {
          runAsUser: String(WORKSPACE_UID),
          runAsGroup: String(WORKSPACE_UID),
          fsGroup: String(WORKSPACE_UID),
          runAsNonRoot: true,
        },
        container: [
          agentContainer({
            name: "dev",
            image: "codercom/enterprise-base:ubuntu",
            agent,
            tokenSecret,
            resources: {
              requests: { cpu: "250m", memory: "512Mi" },
              limits: { cpu: cpu.value, memory: \`\${memory.value}Gi\` },
            },
            volumeMounts: [{ name: "home", mountPath: HOME, readOnly: false }],
          }),
        ],
        volume: [
          { name: "home", persistentVolumeClaim: { claimName: home.claimName, readOnly: false } },
        ],
        affinity: WORKSPACE_POD_ANTI_AFFINITY,
      },
    });
  }
}
`;
}

function readmeSource(id: string, title: string): string {
  return `# ${title}

A workspace is one pod in your cluster running the Coder agent as the unprivileged user
\`coder\` (uid 1000), with code-server in the browser. The home folder \`/home/coder\` lives on
a persistent volume: it survives stops and restarts and is deleted only with the workspace.

Synth prepends Coder's front matter (display name, description, icon) from the stack.

## Template variables

| name             | default    | meaning                                                                    |
| ---------------- | ---------- | -------------------------------------------------------------------------- |
| \`namespace\`      | (required) | existing namespace for the pods and volumes                                |
| \`use_kubeconfig\` | \`false\`    | \`true\` when Coder runs outside the cluster and should use \`~/.kube/config\` |

## Push

\`\`\`sh
npm run push -- ${id} --variables-file ${id}-vars.yaml
\`\`\`
`;
}

function planTestSource(id: string): string {
  return `/**
 * The \`${id}\` template, planned by real Terraform against the mock providers: what exists
 * when started and stopped, and the same plan from its JSON and HCL files as from one
 * cdk.tf.json. Scaffolded by \`npm run new-template\`; extend it with the template.
 */
import { TerraformHarness, type PlanResult } from "@coder-cdktf/terraform-harness";
import { planDecisions, withConfigurationInJson } from "../../support/configuration-in-json";
import { type SynthesizedTemplate, synthTemplate } from "../../support/synth-template";

const VARIABLES = { namespace: "coder-workspaces" };

let harness: TerraformHarness;
let template: SynthesizedTemplate;

beforeAll(async () => {
  template = synthTemplate("${id}");
  harness = await TerraformHarness.start();
});

afterAll(async () => {
  await harness?.stop();
  template?.cleanup();
});

function plan(dir: string, startCount: 0 | 1): Promise<PlanResult> {
  return harness.plan(dir, { variables: VARIABLES, workspace: { startCount } });
}

it("validates", async () => {
  const result = await harness.validate(template.dir);
  expect(result.diagnostics.filter((d) => d.severity === "error")).toEqual([]);
});

it("runs the pod and code-server only while started; the agent and the home survive a stop", async () => {
  const [stopped, started] = await Promise.all([plan(template.dir, 0), plan(template.dir, 1)]);
  expect(started.addresses()).toEqual(
    expect.arrayContaining(["coder_agent.main", "kubernetes_deployment_v1.main[0]"]),
  );
  expect(started.addresses().some((a) => a.startsWith("module.code_server[0]"))).toBe(true);
  expect(stopped.resources("kubernetes_deployment_v1")).toEqual([]);
  expect(stopped.addresses()).toContain("kubernetes_persistent_volume_claim_v1.home");
});

it("plans the same from one cdk.tf.json as from its JSON and HCL files", async () => {
  const inJson = withConfigurationInJson(template.dir, template.config);
  try {
    const [again, original] = await Promise.all([plan(inJson.dir, 1), plan(template.dir, 1)]);
    expect(planDecisions(again)).toEqual(planDecisions(original));
  } finally {
    inJson.cleanup();
  }
});
`;
}

/** app/registry.ts with the new template imported and registered last. */
export function registered(registry: string, id: string): string {
  const name = className(id);
  const imports = [...registry.matchAll(/^import .* from "\.\.\/templates\/[^"]+";$/gm)];
  const last = imports[imports.length - 1];
  if (last === undefined) throw new Error(`${REGISTRY}: no template import found`);
  const at = last.index! + last[0].length;
  let text = `${registry.slice(0, at)}\nimport { ${name} } from "../templates/${id}";${registry.slice(at)}`;
  const start = text.indexOf("export const TEMPLATES");
  const end = text.indexOf("\n];", start);
  if (start < 0 || end < 0) throw new Error(`${REGISTRY}: the TEMPLATES list was not found`);
  const entry = `  defineTemplate("${id}", ${name}, { provisioners: WORKSPACE_CLUSTER_PROVISIONERS }),`;
  text = `${text.slice(0, end)}\n${entry}${text.slice(end)}`;
  if (
    !/import \{[^}]*\bdefineTemplate\b/.test(text) &&
    !text.includes("export function defineTemplate")
  ) {
    throw new Error(`${REGISTRY}: defineTemplate is missing`);
  }
  return text;
}

/** Writes the intent and the addresses of `id` from its first synth, then the generated docs. */
async function record(root: string, id: string): Promise<void> {
  // Loaded only here (the templates and cdktf, ~0.4 s): the scaffold itself, a refused id and
  // the helpers' importers (the scaffold's test) never synthesize.
  const { synthTemplates } = await import("../../app/synth");
  const { updateGeneratedDocs } = await import("./docs");
  const outdir = fs.mkdtempSync(path.join(os.tmpdir(), "new-template-"));
  try {
    const [t] = synthTemplates({ outdir, only: [id] });
    const intent = path.join(root, "templates", id, INTENT_FILE);
    fs.writeFileSync(intent, `${JSON.stringify(deriveIntent(t.model), null, 2)}\n`);
    writeRecordedAddresses(id, templateAddresses(t.model));
  } finally {
    fs.rmSync(outdir, { recursive: true, force: true });
  }
  updateGeneratedDocs(false);
}

/** Runs a step; its output is shown only when it fails. */
function run(root: string, args: readonly string[]): void {
  const result = spawnSync(process.execPath, args, { cwd: root, encoding: "utf8" });
  if (result.status !== 0) {
    throw new Error(
      `${args.join(" ")} failed (${result.status}):\n${result.stdout}${result.stderr}`,
    );
  }
}

function scaffold(root: string, id: string): void {
  if (fs.existsSync(path.join(root, "templates", id))) {
    throw new UsageError(`templates/${id} already exists`);
  }
  for (const [file, text] of Object.entries(scaffoldFiles(id))) {
    fs.mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    fs.writeFileSync(path.join(root, file), text);
  }
  const registry = path.join(root, REGISTRY);
  fs.writeFileSync(registry, registered(fs.readFileSync(registry, "utf8"), id));
  const ts = path.join(root, "scripts", "ts.js");
  // A fresh process: it loads the registry with the new template in it.
  run(root, [ts, path.join(root, "scripts", "commands", "new-template.ts"), "--record", id]);
  run(root, [
    path.join(root, "node_modules", "prettier", "bin", "prettier.cjs"),
    "--write",
    "--log-level=warn",
    ...Object.keys(scaffoldFiles(id)),
    REGISTRY,
    `templates/${id}/${INTENT_FILE}`,
  ]);
  // Snapshots of a new template are written; existing ones are only compared.
  run(root, [
    path.join(root, "node_modules", "jest", "bin", "jest.js"),
    "--ci=false",
    "--silent",
    // One file: in band, jest would not start workers to index a fresh checkout's files either.
    "--runInBand",
    "test/snapshots",
  ]);
  process.stdout.write(
    `templates/${id}: created and registered; addresses, docs and snapshots recorded.\n` +
      `Next: npm test, then read docs/adding-a-template.md.\n`,
  );
}

async function main(argv: readonly string[]): Promise<number> {
  try {
    const { values, positionals } = parseCommandLine(
      argv,
      { record: { type: "boolean", default: false } },
      USAGE,
    );
    if (positionals.length !== 1) throw new UsageError(`name the template, once\n${USAGE}`);
    const [id] = positionals;
    const root = projectRoot();
    // --record runs once the registry holds the new template: only the id's own rules apply.
    // A taken id is refused by the scaffold, naming its folder.
    const taken = fs.existsSync(path.join(root, "templates", id));
    const registry =
      values.record || taken ? "" : fs.readFileSync(path.join(root, REGISTRY), "utf8");
    const problem = idProblem(id, registry);
    if (problem !== undefined) throw new UsageError(`${problem}\n${USAGE}`);
    if (values.record) await record(root, id);
    else scaffold(root, id);
    return 0;
  } catch (e) {
    process.stderr.write(`${e instanceof Error ? e.message : String(e)}\n`);
    return e instanceof UsageError ? 2 : 1;
  }
}

if (require.main === module) {
  void main(process.argv.slice(2)).then((code) => (process.exitCode = code));
}
