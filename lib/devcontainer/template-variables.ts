import { Construct, TerraformVariable } from "../core/cdk";
import { useKubeconfigVariable } from "../constructs/providers";
import { hcl } from "../core/expr";
import { TemplateVariable, type CrossVariableRule } from "../core/template-variable";
import {
  DNS_LABEL,
  DNS_SUBDOMAIN,
  HTTPS_OR_IN_CLUSTER_HTTP_URL,
  POSITIVE_NUMBER,
  emptyOr,
  oneOf,
  wholeNumberBetween,
  type Rule,
} from "../core/validate";
import { GIT_HOST, GIT_HOST_LIST } from "./git-hosts";
import { USER_SECRET_NAMES } from "./user-secrets";

/** The Pod Security levels a devcontainer workspace can be asked to meet. */
export const POD_SECURITY_LEVELS: readonly string[] = ["baseline", "restricted"];

/** Most forwarded-port app slots: each is a coder_app in every running workspace. */
export const MAX_FORWARDED_PORT_SLOTS = 100;

/**
 * An http(s) URL with a user part (`https://user@`, `https://user:password@`), anywhere in
 * the value: the user part is as often a token (`https://glpat-…@`) as a name. Written for
 * both JavaScript and Terraform's RE2.
 */
const HTTP_URL_WITH_USERINFO = "[hH][tT][tT][pP][sS]?://[^\\s/?#@]*@";

/**
 * `vscode_extension`: no credentials in a VSIX URL. Every workspace's script downloads it,
 * so they would be in the template, in process lists and in the logs; a URL that needs
 * them should carry a signed query (an expiring pre-signed URL) instead.
 */
const VSCODE_EXTENSION_WITHOUT_CREDENTIALS: Rule = {
  requirement:
    'a Marketplace ID, an http(s):// URL of a VSIX with no user name or password in it, or ""',
  test: (value) => typeof value === "string" && !new RegExp(HTTP_URL_WITH_USERINFO).test(value),
  condition: (ref) => hcl`!can(regex(${HTTP_URL_WITH_USERINFO}, ${ref}))`,
};

/**
 * `vscode_extension`: one line. Each workspace's script hands a VSIX URL to curl as a config
 * line on its standard input (never in argv); a line break would start an option of its own.
 */
const VSCODE_EXTENSION_ONE_LINE: Rule = {
  requirement: "free of line breaks and other control characters",
  test: (value) => typeof value === "string" && !CONTROL_CHARACTER.test(value),
  condition: (ref) => hcl`!can(regex("[[:cntrl:]]", ${ref}))`,
};
/** What RE2's `[[:cntrl:]]` matches: the C0 controls and DEL. */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL_CHARACTER = /[\x00-\x1f\x7f]/;

/**
 * `external_auth_id` needs `external_auth_host`. Since Coder 2.37 (coder/coder #27854) a
 * workspace's git credential request is answered from the external auth providers its
 * template version declares, and the build gets the user's token only for a repository on
 * `external_auth_host`: with the id alone users are asked to link an account whose token
 * no build ever receives, and private repositories fail with nothing to say why. Checked on
 * the operator's defaults at synth and on what `npm run push` sets (app/push/pipeline.ts);
 * a hand-typed `coder templates push --var` is not checked (the README's example sets both).
 */
export const EXTERNAL_AUTH_NEEDS_ITS_HOST: CrossVariableRule = {
  requirement:
    '"" unless external_auth_host is set too, to the host of that provider (e.g. github.com): ' +
    "without it the user's token is never sent to the image build and private repositories fail",
  test: (value, valueOf) => {
    const host = valueOf("external_auth_host");
    return value === "" || (typeof host === "string" && host !== "");
  },
};

/**
 * The devcontainer template's variables (set once per template version with
 * `coder templates push --var name=value`), declared in this order. Their names,
 * types and defaults are part of the template's stable surface: operators' push
 * scripts set them. Values with a known shape carry rules (lib/core/template-variable.ts):
 * `validation` blocks at push time, and the same checks on coder-cdktf.jsonc defaults.
 */
export class DevcontainerTemplateVariables extends Construct {
  /** `use_kubeconfig` (bool, false): use ~/.kube/config instead of the in-cluster account. */
  public readonly useKubeconfig: TerraformVariable;
  /** `namespace` (string, required): where the workspaces' Deployments and PVCs go. */
  public readonly namespace: TemplateVariable;
  /** `devcontainer_builder_endpoint` (string, required): base URL of the running service. */
  public readonly builderEndpoint: TemplateVariable;
  /** `image_pull_secret_name` (string, ""): a dockerconfigjson Secret in the namespace. */
  public readonly imagePullSecretName: TemplateVariable;
  /** `accept_vscode_license` (bool, true): gates the vscode-web module. */
  public readonly acceptVscodeLicense: TemplateVariable;
  /** `allow_privileged` (bool, false): honor privileged, seccomp unconfined, extra capabilities. */
  public readonly allowPrivileged: TemplateVariable;
  /** `pod_security_level` ("baseline"): the Pod Security level workspace pods meet. */
  public readonly podSecurityLevel: TemplateVariable;
  /** `subdomain_apps` (bool, true): serve web apps on subdomains (wildcard access URL). */
  public readonly subdomainApps: TemplateVariable;
  /** `max_forwarded_ports` (number, 10): coder_app slots for forwardPorts. */
  public readonly maxForwardedPorts: TemplateVariable;
  /**
   * `lifecycle_timeout_minutes` (number, 60): how long the login-blocking lifecycle script
   * (clone and hooks) may run before the agent ends it and lets the user in; 0 is no limit.
   */
  public readonly lifecycleTimeoutMinutes: TemplateVariable;
  /** `vscode_extension` (string): the project's own VS Code extension, ID or VSIX URL; "" for none. */
  public readonly vscodeExtension: TemplateVariable;
  /** `external_auth_id` (string, ""): Coder external auth provider for builds and clones. */
  public readonly externalAuthId: TemplateVariable;
  /** `max_cpu` (number, 8): most cores a repository may reserve. */
  public readonly maxCpu: TemplateVariable;
  /** `max_memory` (number, 32): most GiB a repository may reserve. */
  public readonly maxMemory: TemplateVariable;
  /** `allow_node_placement` (bool, false): honor a repository's nodeSelector and tolerations. */
  public readonly allowNodePlacement: TemplateVariable;
  /** `git_credentials_username` (string, ""): template-wide git username for image builds. */
  public readonly gitCredentialsUsername: TemplateVariable;
  /** `git_credentials_token` (string, "", sensitive): the password or token for that username. */
  public readonly gitCredentialsToken: TemplateVariable;
  /** `git_credentials_hosts` (list(string), []): the only hosts the template-wide credentials go to. */
  public readonly gitCredentialsHosts: TemplateVariable;
  /** `external_auth_host` (string, ""): the host of the external auth provider; its token goes there only. */
  public readonly externalAuthHost: TemplateVariable;
  /** `user_secrets` (list(string), []): names users keep as Coder secrets for `${localEnv:…}`. */
  public readonly userSecrets: TemplateVariable;
  /**
   * `allow_template_git_token_fallback` (bool, false): whether a build may use the template-wide
   * git credentials for a user who has no token of their own for the host.
   */
  public readonly allowTemplateGitTokenFallback: TemplateVariable;

  // long: one declaration per template variable, in the order cdk.tf.json lists them
  constructor(scope: Construct, id: string) {
    super(scope, id);
    this.useKubeconfig = useKubeconfigVariable(this);
    this.namespace = new TemplateVariable(this, "namespace", {
      rules: [DNS_LABEL],
      type: "string",
      description: "Existing Kubernetes namespace for the workspaces' Deployments and PVCs.",
    });
    this.builderEndpoint = new TemplateVariable(this, "devcontainer_builder_endpoint", {
      rules: [HTTPS_OR_IN_CLUSTER_HTTP_URL],
      type: "string",
      description:
        "Base URL of the running devcontainer-builder service, e.g. " +
        "http://devcontainer-builder.devcontainer-builder.svc.cluster.local:8080 " +
        "(https, or http to a Service in the cluster: git tokens are sent there). " +
        "The template does not deploy the service or BuildKit.",
    });
    this.imagePullSecretName = new TemplateVariable(this, "image_pull_secret_name", {
      rules: [emptyOr(DNS_SUBDOMAIN)],
      type: "string",
      default: "",
      description:
        "Name of an existing kubernetes.io/dockerconfigjson Secret in the namespace that nodes " +
        "use to pull workspace images. Empty: anonymous pulls.",
    });
    this.acceptVscodeLicense = new TemplateVariable(this, "accept_vscode_license", {
      type: "bool",
      default: true,
      description:
        "Accept Microsoft's VS Code Server license (https://aka.ms/vscode-server-license) on " +
        "behalf of the users; it enables VS Code in the browser. Set false when workspaces are " +
        "offered outside your organization. VS Code Desktop is not affected.",
    });
    this.allowPrivileged = new TemplateVariable(this, "allow_privileged", {
      type: "bool",
      default: false,
      description:
        "Honor a repository's privileged: true, seccomp=unconfined and capabilities outside the " +
        "Pod Security baseline list.",
    });
    this.podSecurityLevel = new TemplateVariable(this, "pod_security_level", {
      rules: [oneOf(POD_SECURITY_LEVELS)],
      type: "string",
      default: "baseline",
      nullable: false,
      description:
        "The Pod Security level workspace pods meet: baseline, or restricted (no privilege " +
        "escalation, so no sudo; capabilities dropped; RuntimeDefault seccomp; non-root). What a " +
        "repository asks for that the level forbids is dropped with a warning.",
    });
    this.subdomainApps = new TemplateVariable(this, "subdomain_apps", {
      type: "bool",
      default: true,
      description:
        "Serve VS Code in the browser and forwarded ports on subdomains (needs Coder's wildcard " +
        "access URL); false serves them on paths.",
    });
    this.maxForwardedPorts = new TemplateVariable(this, "max_forwarded_ports", {
      rules: [wholeNumberBetween(0, MAX_FORWARDED_PORT_SLOTS)],
      type: "number",
      default: 10,
      description:
        "How many forwardPorts of a repository get an app on the workspace page; unused slots are hidden.",
    });
    // A hook that never returns (a dev server started in the foreground by postStartCommand)
    // would keep the user out of the workspace for good.
    this.lifecycleTimeoutMinutes = new TemplateVariable(this, "lifecycle_timeout_minutes", {
      rules: [wholeNumberBetween(0, 1440)],
      type: "number",
      default: 60,
      description:
        "Minutes the login-blocking Dev Container lifecycle script (the clone and the hooks up to " +
        "postStartCommand) may run before the agent ends it and lets the user in; 0 is no limit.",
    });
    this.vscodeExtension = new TemplateVariable(this, "vscode_extension", {
      rules: [VSCODE_EXTENSION_WITHOUT_CREDENTIALS, VSCODE_EXTENSION_ONE_LINE],
      type: "string",
      default: "deepspacecartel.devcontainer-builder",
      description:
        'The "Dev Containers for Coder in K8S" VS Code extension to keep installed: a Marketplace ' +
        'ID or an http(s):// URL of a VSIX. "" installs nothing.',
    });
    this.externalAuthId = new TemplateVariable(this, "external_auth_id", {
      type: "string",
      default: "",
      crossRules: [EXTERNAL_AUTH_NEEDS_ITS_HOST],
      description:
        "ID of a Coder external auth provider (e.g. github). When set, users must link that " +
        "account, and both the image build (for a repository on external_auth_host) and the " +
        "workspace's clone use their token.",
    });
    this.maxCpu = new TemplateVariable(this, "max_cpu", {
      rules: [POSITIVE_NUMBER],
      type: "number",
      default: 8,
      description:
        "Most CPU cores a repository may reserve (hostRequirements.cpus or " +
        "customizations.kubernetes.resources.requests.cpu).",
    });
    this.maxMemory = new TemplateVariable(this, "max_memory", {
      rules: [POSITIVE_NUMBER],
      type: "number",
      default: 32,
      description:
        "Most memory in GiB a repository may reserve (hostRequirements.memory or " +
        "customizations.kubernetes.resources.requests.memory).",
    });
    this.allowNodePlacement = new TemplateVariable(this, "allow_node_placement", {
      type: "bool",
      default: false,
      description:
        "Honor customizations.kubernetes.nodeSelector and tolerations. The template's " +
        "kubernetes.io/arch selector always wins.",
    });
    this.gitCredentialsUsername = new TemplateVariable(this, "git_credentials_username", {
      type: "string",
      default: "",
      description:
        "Template-wide HTTPS git username for image builds, sent only to git_credentials_hosts, " +
        "and only when allow_template_git_token_fallback is on and the user has no linked " +
        "external_auth_id token for the host: the user's own token always wins.",
    });
    this.gitCredentialsToken = new TemplateVariable(this, "git_credentials_token", {
      type: "string",
      default: "",
      sensitive: true,
      description: "Token or password for git_credentials_username.",
    });
    this.gitCredentialsHosts = new TemplateVariable(this, "git_credentials_hosts", {
      rules: [GIT_HOST_LIST],
      type: "list(string)",
      default: [],
      nullable: false,
      description:
        'Hosts the template-wide git credentials belong to (e.g. ["github.com"], ' +
        '["git.example.com:8443"]): they are sent only with a repository on one of them, over ' +
        "https. Empty: never sent.",
    });
    this.externalAuthHost = new TemplateVariable(this, "external_auth_host", {
      rules: [emptyOr(GIT_HOST)],
      type: "string",
      default: "",
      nullable: false,
      description:
        "Host of the external_auth_id provider (e.g. github.com): the user's token is sent to the " +
        "image build only with a repository on that host, over https. Empty: never sent.",
    });
    this.userSecrets = new TemplateVariable(this, "user_secrets", {
      rules: [USER_SECRET_NAMES],
      type: "list(string)",
      default: [],
      nullable: false,
      description:
        "Names (e.g. NPM_TOKEN) your users keep as their own Coder user secrets for localEnv:NAME " +
        "in devcontainer.json: the build log does not call them missing. Every user secret with an " +
        "environment target gives localEnv its value at run time, listed here or not.",
    });
    // Off by default: the template's token reads what it can read for every user, so a user
    // could build (and read) a repository their own account cannot (issue 43.1).
    this.allowTemplateGitTokenFallback = new TemplateVariable(
      this,
      "allow_template_git_token_fallback",
      {
        type: "bool",
        default: false,
        nullable: false,
        description:
          "Let an image build use the template-wide git credentials (git_credentials_username) " +
          "for a user who has no linked external_auth_id token for the repository's host, and " +
          "for prebuilds. Off: each build uses only the user's own token, so nobody builds a " +
          "repository their account cannot read. Any user may then build whatever that token reads.",
      },
    );
  }
}
