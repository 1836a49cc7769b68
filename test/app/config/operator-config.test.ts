import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import {
  ConfigError,
  CONFIG_ENV_VAR,
  loadOperatorConfig,
  parseOperatorConfig,
  resolveConfigPath,
} from "../../../app/operator-config";
import { projectRoot } from "../../../lib/core/project-root";
import { TEMPLATES } from "../../../app/registry";
import { synthTemplates } from "../../../app/synth";
import { stackConfiguration } from "../../../lib/private/stack-configuration";
import { taggedTemplate } from "../provisioners/tagged-template";
import { thrownMessage } from "../../support/thrown-message";

// The operator configuration: JSONC, checked field by field, errors at file:line:column.

const KNOWN = ["kubernetes", "devcontainer", "packer-builder"];
const parse = (text: string, known = KNOWN) => parseOperatorConfig(text, "deploy.jsonc", known);

/** The message of the ConfigError `fn` throws. */
function configError(fn: () => unknown): string {
  return thrownMessage(ConfigError, fn);
}

const scratch: string[] = [];
function tempDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "config-test-"));
  scratch.push(dir);
  return dir;
}
afterAll(() => scratch.forEach((d) => fs.rmSync(d, { recursive: true, force: true })));

describe("parsing", () => {
  it("reads the shipped example, comments and trailing commas included", () => {
    const file = path.join(projectRoot(), "coder-cdktf.example.jsonc");
    const config = loadOperatorConfig(
      file,
      TEMPLATES.map((t) => t.id),
    );
    expect([...(config.templates?.keys() ?? [])]).toEqual([
      "kubernetes",
      "devcontainer",
      "packer-builder",
    ]);
    expect(config.templates?.get("packer-builder")?.provisionerTags).toEqual({
      cluster: "harvester",
    });
    expect(config.templates?.get("kubernetes")?.variables).toEqual({
      namespace: "coder-workspaces",
      use_kubeconfig: false,
    });
  });

  it("without a templates field lists none, so every template is built", () => {
    expect(parse("// nothing\n{}\n").templates).toBeUndefined();
  });

  it.each([
    [
      '{\n  "templates": {\n    "kubernetes": {}\n    "devcontainer": {}\n  }\n}',
      "deploy.jsonc:4:5: not valid JSONC (expected ',')",
    ],
    [
      '{ "templates": { "kubernetes": { "name": "k8s" } }',
      "deploy.jsonc:1:51: not valid JSONC (expected '}')",
    ],
    ["", "deploy.jsonc:1:1: not valid JSONC (expected a value)"],
    ["[]", "deploy.jsonc:1:1: (top level): a list is not allowed; expected an object"],
    [
      '{\n  "template": {}\n}',
      `deploy.jsonc:2:3: template: unknown field (did you mean "templates"?); allowed: templates`,
    ],
    [
      '{ "templates": {\n  "kubernetes": {},\n  "docker": {}\n} }',
      'deploy.jsonc:3:3: templates.docker: unknown template "docker"; known: kubernetes, devcontainer, packer-builder',
    ],
    [
      '{ "templates": { "kubernetes": {\n    "nmae": "k"\n} } }',
      "deploy.jsonc:2:5: templates.kubernetes.nmae: unknown field; allowed: name, provisionerTags, variables",
    ],
    [
      '{ "templates": { "kubernetes": { "name": "My Template" } } }',
      'deploy.jsonc:1:42: templates.kubernetes.name: "My Template" is not allowed; a Coder template name is letters and digits with single hyphens between, at most 31 characters',
    ],
    [
      '{ "templates": {\n  "kubernetes": { "name": "shared" },\n  "devcontainer": { "name": "shared" }\n} }',
      'deploy.jsonc:3:29: templates.devcontainer.name: "shared" is already the name of templates.kubernetes',
    ],
    [
      '{ "templates": { "kubernetes": {\n  "provisionerTags": { "cluster": "" }\n} } }',
      'deploy.jsonc:2:35: templates.kubernetes.provisionerTags.cluster: "" is not allowed: tag "cluster" has the value ""; a tag value is a non-empty string without surrounding blanks',
    ],
    [
      '{ "templates": { "kubernetes": {\n  "provisionerTags": { "zone": 3 }\n} } }',
      'deploy.jsonc:2:32: templates.kubernetes.provisionerTags.zone: 3 is not allowed: tag "zone" has a number value; a tag value is a non-empty string',
    ],
    [
      '{ "templates": { "kubernetes": {\n  "provisionerTags": { "owner": "me" }\n} } }',
      'deploy.jsonc:2:24: templates.kubernetes.provisionerTags.owner: "me" is not allowed: tag "owner" is set by Coder itself',
    ],
    [
      '{ "templates": { "kubernetes": {\n  "provisionerTags": { "scope": "global" }\n} } }',
      'deploy.jsonc:2:33: templates.kubernetes.provisionerTags.scope: "global" is not allowed: tag "scope" must be one of organization, user',
    ],
    [
      '{ "templates": {\n  "kubernetes": {},\n  "kubernetes": {},\n} }',
      "deploy.jsonc:3:3: templates.kubernetes: is set twice",
    ],
    [
      '{ "templates": { "kubernetes": { "variables": ["namespace"] } } }',
      "deploy.jsonc:1:47: templates.kubernetes.variables: a list is not allowed; expected an object",
    ],
  ])("rejects %j", (text, message) => {
    expect(configError(() => parse(text))).toContain(message);
  });
});

describe("credentials in URLs (issue 15 item 8)", () => {
  const TOKEN = "ghp_9xQ2tokenTOKENtoken0123456789abcd";
  const REFUSED =
    "an http(s) URL with a user name or password in it is not allowed (the value is not shown: it may be a token)";

  it.each([
    [
      "a token as the user name of repository_url",
      `{ "templates": { "packer-builder": { "variables": {\n  "repository_url": "https://${TOKEN}@github.com/org/infra.git"\n} } } }`,
      "deploy.jsonc:2:21: templates.packer-builder.variables.repository_url",
    ],
    [
      "user and password, upper-case scheme",
      `{ "templates": { "devcontainer": { "variables": {\n  "devcontainer_builder_endpoint": "HTTP://bot:${TOKEN}@builder:8080"\n} } } }`,
      "deploy.jsonc:2:36: templates.devcontainer.variables.devcontainer_builder_endpoint",
    ],
    [
      "inside a list of settings",
      `{ "templates": { "packer-builder": { "settings": { "identityRoleBindings": [\n  { "namespace": "packer-dev", "roleKind": "Role", "roleName": "https://${TOKEN}@x" }\n] } } } }`,
      "deploy.jsonc:2:64: templates.packer-builder.settings.identityRoleBindings[0].roleName",
    ],
    [
      "a field nobody reads yet",
      `{ "templates": { "kubernetes": { "nmae": "see https://${TOKEN}@host/" } } }`,
      "deploy.jsonc:1:42: templates.kubernetes.nmae",
    ],
  ])("refuses %s, at the value, naming the field, never the value", (_what, text, where) => {
    const message = configError(() => parse(text));
    expect(message).toBe(
      `${where}: ${REFUSED}. Credentials in this file would ship in the template and in every ` +
        "workspace's scripts; give the URL without them and let Coder provide credentials (external auth, push-time variables).",
    );
    expect(message).not.toContain(TOKEN);
    expect(message).not.toContain("github.com");
  });

  it.each([
    ["ssh://git@git.example.com/infra.git"],
    ["git@git.example.com:infra/core.git"],
    ["https://git.example.com/org/@scope/repo.git"],
    ["https://git.example.com/infra.git?ref=a@b"],
  ])("keeps %s (a user name over ssh, or an @ after the host)", (url) => {
    const text = `{ "templates": { "packer-builder": { "variables": { "repository_url": ${JSON.stringify(url)} } } } }`;
    expect(parse(text).templates?.get("packer-builder")?.variables).toEqual({
      repository_url: url,
    });
  });
});

describe("variable defaults at synth", () => {
  const synthWith = (text: string, templates = [TEMPLATES[0]]) => {
    const config = parseOperatorConfig(
      text,
      "deploy.jsonc",
      templates.map((t) => t.id),
    );
    return synthTemplates({ outdir: tempDir(), config, templates });
  };
  // What synth wrote to the folder (its variables are in main.tf).
  const variablesOf = (dir: string) =>
    stackConfiguration(dir).variable as Record<string, { default?: unknown }>;

  it("become the TerraformVariable defaults in main.tf, and the config names and tags the template", () => {
    const [k8s] = synthWith(
      '{ "templates": { "kubernetes": { "name": "k8s", "provisionerTags": { "cluster": "a" },\n' +
        '  "variables": { "namespace": "ws", "use_kubeconfig": true } } } }',
    );
    expect(variablesOf(k8s.dir).namespace.default).toBe("ws");
    expect(variablesOf(k8s.dir).use_kubeconfig.default).toBe(true);
    expect(k8s.name).toBe("k8s");
    expect(k8s.provisionerTags).toEqual({ cluster: "a" });
  });

  it("an unknown variable fails at its name, listing the template's variables", () => {
    const message = configError(() =>
      synthWith('{ "templates": { "kubernetes": {\n  "variables": {\n    "nmspace": "ws" } } } }'),
    );
    expect(message).toMatch(
      /^deploy\.jsonc:3:5: templates\.kubernetes\.variables\.nmspace: unknown variable "nmspace" \(did you mean "namespace"\?\); template "kubernetes" has: .*namespace.*use_kubeconfig/,
    );
  });

  it("a variable named __proto__ fails as unknown, and hides nothing under it", () => {
    const message = configError(() =>
      synthWith(
        '{ "templates": { "kubernetes": {\n  "variables": {\n    "__proto__": { "no_such_variable": 1 } } } } }',
      ),
    );
    expect(message).toMatch(
      /^deploy\.jsonc:3:5: templates\.kubernetes\.variables\.__proto__: unknown variable "__proto__"/,
    );
  });

  it("a value of the wrong type fails at the value, naming the type", () => {
    expect(
      configError(() =>
        synthWith(
          '{ "templates": { "kubernetes": {\n  "variables": { "use_kubeconfig": "yes" } } } }',
        ),
      ),
    ).toBe(
      'deploy.jsonc:2:36: templates.kubernetes.variables.use_kubeconfig: "yes" is not allowed; the variable has type bool (true or false)',
    );
  });

  it("a sensitive variable cannot take a default from the file", () => {
    expect(
      configError(() =>
        synthWith('{ "templates": { "tagged": {\n  "variables": { "api_token": "t0ken" } } } }', [
          taggedTemplate(),
        ]),
      ),
    ).toContain(
      "deploy.jsonc:2:18: templates.tagged.variables.api_token: the variable is sensitive",
    );
  });

  it("only the listed templates are built, and asking for another one fails", () => {
    const config = parse('{ "templates": { "kubernetes": {} } }');
    const outdir = tempDir();
    const built = synthTemplates({ outdir, config });
    expect(built.map((t) => t.id)).toEqual(["kubernetes"]);
    expect(fs.readdirSync(path.join(outdir, "stacks"))).toEqual(["kubernetes"]);
    expect(() => synthTemplates({ outdir, config, only: ["packer-builder"] })).toThrow(
      'template "packer-builder" is not listed in deploy.jsonc',
    );
  });
});

describe("finding the file", () => {
  it("prefers --config, then $CODER_CDKTF_CONFIG, then coder-cdktf.jsonc at the root", () => {
    const root = tempDir();
    const a = path.join(root, "a.jsonc");
    const b = path.join(root, "b.jsonc");
    fs.writeFileSync(a, "{}");
    fs.writeFileSync(b, "{}");
    expect(resolveConfigPath(root, undefined, {})).toBeUndefined();
    fs.writeFileSync(path.join(root, "coder-cdktf.jsonc"), "{}");
    expect(resolveConfigPath(root, undefined, {})).toBe(path.join(root, "coder-cdktf.jsonc"));
    expect(resolveConfigPath(root, undefined, { [CONFIG_ENV_VAR]: b })).toBe(b);
    expect(resolveConfigPath(root, a, { [CONFIG_ENV_VAR]: b })).toBe(a);
  });

  it("a named file that does not exist is an error, not a silent fallback", () => {
    expect(configError(() => resolveConfigPath(tempDir(), "missing.jsonc", {}))).toBe(
      "missing.jsonc: configuration file not found (named by --config)",
    );
    expect(
      configError(() =>
        resolveConfigPath(tempDir(), undefined, { [CONFIG_ENV_VAR]: "gone.jsonc" }),
      ),
    ).toBe("gone.jsonc: configuration file not found (named by $CODER_CDKTF_CONFIG)");
  });
});
