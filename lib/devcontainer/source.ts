import { Construct, type TerraformVariable } from "../core/cdk";
import { DevcontainerBuilderProvider } from "../../.gen/providers/devcontainerbuilder/provider";
import {
  DevcontainerbuilderBuild,
  type DevcontainerbuilderBuildGitCredentials,
} from "../../.gen/providers/devcontainerbuilder/devcontainerbuilder-build";
import { DataDevcontainerbuilderDevcontainer } from "../../.gen/providers/devcontainerbuilder/data-devcontainerbuilder-devcontainer";
import { Expr, hcl } from "../core/expr";
import { GIT_BRANCH_ERROR, GIT_BRANCH_PATTERN } from "./git-branch-name";
import { NamedLocals } from "../core/named-locals";
import { TerraformData } from "../core/terraform-data";
import type { WorkspaceData } from "../constructs/workspace-data";
import {
  capUtf8Bytes,
  controlCharacters,
  DISPLAY_NAME_MAX_BYTES,
  EXTENSION_ID_PATTERN,
  quotedForWarning,
  utf8Bytes,
} from "./repository-values";

/**
 * `provider "devcontainerbuilder"`: the already running devcontainer-builder service.
 * `request_timeout` stays unset, so the provider's default (30m) applies to builds.
 */
export function devcontainerBuilderProvider(
  scope: Construct,
  endpoint: TerraformVariable,
): DevcontainerBuilderProvider {
  return new DevcontainerBuilderProvider(scope, "devcontainerbuilder", {
    endpoint: endpoint.stringValue,
  });
}

export interface DevcontainerSourceProps {
  readonly workspace: WorkspaceData;
  /** The `repository` parameter's value. */
  readonly repository: Expr<string>;
  /** The `branch` parameter's value. */
  readonly branch: Expr<string>;
  /** The `rebuild` parameter's value (a counter, as a string). */
  readonly rebuild: Expr<string>;
  /** `{ username, token }` or null (see DevcontainerGitCredentials). */
  readonly gitCredentials: Expr<unknown>;
  /**
   * Which credential that is, by name (DevcontainerGitCredentials.credentialName): recorded
   * with the build as {@link DevcontainerSource.gitCredentialUsed}. @default no record
   */
  readonly gitCredentialName?: Expr<string>;
  /** CPU architecture of the nodes and the agent. @default "amd64" */
  readonly arch?: string;
}

/**
 * The longest base64 text of an env script the pod is given (DC_CONTAINER_ENV, DC_REMOTE_ENV).
 * Linux takes at most 131072 bytes for one environment string (MAX_ARG_STRLEN, its name and
 * "=" included) when the container's process starts; the rest is a margin.
 */
export const ENV_SCRIPT_MAX_BASE64 = 131000;

/**
 * forwardPorts entries read from the configuration; the rest is left out with a warning.
 * Ten times the largest max_forwarded_ports, so every app slot can still be filled past
 * entries that are no ports.
 */
export const FORWARD_PORTS_READ = 1000;

/**
 * customizations.vscode extensions read; the rest is left out with a warning. Every list the
 * repository controls is cut before anything walks it (issue 32.2): each entry costs every
 * plan and apply of the workspace.
 */
export const EXTENSIONS_READ = 100;
/** The service's warnings shown; a line says how many more there were. */
export const SERVICE_WARNINGS_READ = 100;
/** `${localEnv:…}`-style variables read from the metadata; the rest is left out with a warning. */
export const VARIABLES_READ = 100;
/** Places read per variable (`used_in`): enough to tell a mount-only variable from a used one. */
export const VARIABLE_USES_READ = 100;
/**
 * runArgs entries the template reads (for `--memory`); the rest is left out with a warning.
 * A docker run line of a real repository has a handful; each entry read costs every plan.
 */
export const RUN_ARGS_READ = 200;

/** forwardPorts as read: how many are listed, the first FORWARD_PORTS_READ, which are TCP ports. */
interface ForwardPortsRead {
  readonly forwardPortsListed: Expr<number>;
  readonly forwardPorts: Expr<unknown[]>;
  readonly portsValid: Expr<boolean[]>;
}

/**
 * Where a workspace's container comes from, and what its Dev Container configuration
 * says (apply time):
 *
 * - `devcontainerbuilder_build.workspace` builds the repository's branch into an image
 *   tagged for this workspace alone (`local.image_tag`). It has no count: a stop never
 *   rebuilds. A new `rebuild` value changes the tag and, through the
 *   `terraform_data.rebuild` tracker, replaces the build (the old tag is deleted
 *   first). A refreshed git token is ignored until then.
 * - `data.devcontainerbuilder_devcontainer.workspace` reads the image's merged
 *   configuration, only while the workspace starts (count = start_count).
 * - Every value the rest of the template uses is a named local with a fallback, because
 *   the data source is absent while stopped, sparse on older services, and may return
 *   null for any collection: a repository's odd configuration never fails a build.
 *
 * The user, uid/gid and home are decided from `dc` by DevcontainerWorkspaceUser (with its own checks).
 * Values derived from `local.dc` are sensitive (the data source has a sensitive input),
 * so messages shown to users are unwrapped with nonsensitive() where they are built.
 */
export class DevcontainerSource extends Construct {
  public readonly build: DevcontainerbuilderBuild;
  public readonly rebuildTracker: TerraformData;
  public readonly devcontainer: DataDevcontainerbuilderDevcontainer;
  /**
   * `terraform_data.git_credential`: the name of the credential the image was built with. Its
   * input is kept (`ignore_changes`) until the build is replaced (`replace_triggered_by`),
   * as the build keeps its own `git_credentials` until a Rebuild: a start after the user
   * links an account still shows what the image was really built with.
   */
  public readonly gitCredentialRecord?: TerraformData;

  /** `local.image_tag`: `ws-<workspace id>-<rebuild>`, sanitized, at most 128 characters. */
  public readonly imageTag: Expr<string>;
  /** `local.arch`: the architecture of nodes, image platform and agent. */
  public readonly arch: Expr<string>;
  /** `local.dc`: the data source's single instance, or null while not started. */
  public readonly dc: Expr<unknown>;
  /** `local.commit`: the commit the image was built from, or "" (service < 0.3.0). */
  public readonly commit: Expr<string>;
  /**
   * `local.runtime`: the runtime object (user ids and home, caps, init, shm, hostname, host
   * aliases) or null. The user and home are decided by DevcontainerWorkspaceUser.
   */
  public readonly runtime: Expr<unknown>;
  /** `local.lifecycle_scripts`: hook name → rendered sh script, non-null ones only. */
  public readonly lifecycleScripts: Expr<Record<string, string>>;
  /**
   * `local.env_scripts`: `containerEnv` / `remoteEnv` → `export K="…"` lines, without a script
   * too large for one environment variable of the pod ({@link ENV_SCRIPT_MAX_BASE64}).
   */
  public readonly envScripts: Expr<Record<string, string>>;
  /** `local.env_script_warnings`: one line per script left out for its size. */
  public readonly envScriptWarnings: Expr<string[]>;
  /** `local.vscode_extensions`: extension IDs in order. */
  public readonly vscodeExtensions: Expr<string[]>;
  /** `local.vscode_settings`: merged settings as a JSON text, "{}" for none. */
  public readonly vscodeSettings: Expr<string>;
  /** `local.host_requirements`: `{cpus, memory_bytes, storage_bytes, gpu_json}` or null. */
  public readonly hostRequirements: Expr<unknown>;
  /** `local.dc_warnings`: what the service could not map, as text lines. */
  public readonly warnings: Expr<string[]>;
  /** `local.variables`: `{kind, name, default, used_in}` of each referenced variable. */
  public readonly variables: Expr<unknown[]>;
  /**
   * `local.ports`: forwardPorts that have a port number: `{port, label, protocol, on_auto_forward}`,
   * the label trimmed and cut to DISPLAY_NAME_MAX_BYTES bytes.
   */
  public readonly ports: Expr<unknown[]>;
  /** `local.port_warnings`: one line per forwardPorts entry that is not a usable port or whose label is cut. */
  public readonly portWarnings: Expr<string[]>;
  /** `local.extension_warnings`: one line per extension ID that is not one (not installed). */
  public readonly extensionWarnings: Expr<string[]>;
  /** `local.variable_warnings`: one line when more than VARIABLES_READ variables are listed. */
  public readonly variableWarnings: Expr<string[]>;
  /** `local.dc_mounts`: `{kind, source, target, read_only}` in the service's order (indexes count). */
  public readonly mounts: Expr<unknown[]>;
  /** `local.dc_configuration`: the merged configuration object, `{}` when absent or not JSON. */
  public readonly configuration: Expr<unknown>;
  /** `local.configuration_warnings`: one line when configuration_json is not a JSON object. */
  public readonly configurationWarnings: Expr<string[]>;
  /** `local.run_args_set_memory`: whether one of the first RUN_ARGS_READ runArgs is `--memory` (`-m`). */
  public readonly runArgsSetMemory: Expr<boolean>;
  /** `local.run_args_warnings`: one line when runArgs lists more than RUN_ARGS_READ entries. */
  public readonly runArgsWarnings: Expr<string[]>;

  constructor(scope: Construct, id: string, props: DevcontainerSourceProps) {
    super(scope, id);
    const ws = props.workspace;

    const locals = new NamedLocals(this, "");
    this.arch = locals.add<string>(
      "arch",
      props.arch ?? "amd64",
      "The nodes' CPU: the image is built for it, the agent runs on it.",
    );
    this.imageTag = locals.add<string>(
      "image_tag",
      hcl`substr(replace(lower(format("ws-%s-%s", ${ws.id}, ${props.rebuild})), "/[^a-z0-9_.-]/", "-"), 0, 128)`,
      "One tag per workspace and Rebuild value: a new value builds anew, and no two workspaces share.",
    );
    ({
      rebuildTracker: this.rebuildTracker,
      build: this.build,
      devcontainer: this.devcontainer,
    } = this.imageBuild(props));
    this.gitCredentialRecord = this.gitCredentialRecordOf(props.gitCredentialName);

    // Every attribute but registry_credentials, rebuilt per instance. The data source marks
    // registry_credentials sensitive, and Terraform carries that mark onto anything computed
    // from an object holding it (one(), comparisons, conditionals): user ids, resources and
    // app URLs would all plan as "(sensitive value)", and each marked path costs plan time.
    const dc = (this.dc = locals.add<unknown>(
      "dc",
      hcl`one([for metadata in ${this.devcontainer.fqn} : { for attribute, value in metadata : attribute => value if attribute != "registry_credentials" }])`,
      "Without registry_credentials: its sensitive mark would spread to every value computed from dc.",
    ));
    this.commit = locals.add<string>(
      "commit",
      hcl`${this.build.commit} == null ? "" : ${this.build.commit}`,
      'A service before 0.3.0 records no commit: "" keeps the scripts\' input a plain string.',
    );
    this.runtime = locals.add<unknown>("runtime", hcl`try(${dc}.runtime, null)`);
    // A for expression fails on null, so try() turns a null collection into its fallback.
    this.lifecycleScripts = locals.add<Record<string, string>>(
      "lifecycle_scripts",
      hcl`try({ for hook, script in ${dc}.lifecycle_scripts : hook => script if script != null && script != "" }, {})`,
      "A for expression fails on null, so try() turns a null map into {}; empty hooks are dropped.",
    );
    ({ envScripts: this.envScripts, envScriptWarnings: this.envScriptWarnings } =
      this.envScriptsThatFit(locals, dc));
    ({ vscodeExtensions: this.vscodeExtensions, extensionWarnings: this.extensionWarnings } =
      this.extensions(locals, dc));
    this.vscodeSettings = locals.add<string>(
      "vscode_settings",
      hcl`try(coalesce(${dc}.settings_json), "{}")`,
      'The settings reach the IDE as a JSON file: none is {} rather than null or "".',
    );
    this.hostRequirements = locals.add<unknown>(
      "host_requirements",
      hcl`try(${dc}.host_requirements, null)`,
    );
    this.warnings = this.serviceWarnings(locals, dc);
    ({ variables: this.variables, variableWarnings: this.variableWarnings } = this.variablesRead(
      locals,
      dc,
    ));
    ({ ports: this.ports, portWarnings: this.portWarnings } = this.forwardPorts(
      locals,
      this.forwardPortsRead(locals, dc),
    ));
    // Not filtered: a mount's index in this list names its volume (anonymous-<i>, tmpfs-<i>).
    // concat(), not a for expression: the list is as long as the repository makes it, and
    // DevcontainerMounts cuts it (MOUNTS_READ) before it walks it.
    this.mounts = locals.add<unknown[]>(
      "dc_mounts",
      hcl`try(concat(${dc}.mounts, []), [])`,
      "Not filtered: a mount's index in this list names its volume (anonymous-<i>, tmpfs-<i>).",
    );
    ({ configuration: this.configuration, configurationWarnings: this.configurationWarnings } =
      this.configurationObject(locals, dc));
    ({ runArgsSetMemory: this.runArgsSetMemory, runArgsWarnings: this.runArgsWarnings } =
      this.runArgsRead(locals, this.configuration));
  }

  /**
   * The image build with its rebuild tracker, and the data source that reads the built image's
   * configuration while the workspace starts.
   */
  private imageBuild(props: DevcontainerSourceProps): {
    readonly rebuildTracker: TerraformData;
    readonly build: DevcontainerbuilderBuild;
    readonly devcontainer: DataDevcontainerbuilderDevcontainer;
  } {
    const rebuildTracker = new TerraformData(this, "rebuild", { input: props.rebuild.asString });

    const build = new DevcontainerbuilderBuild(this, "workspace", {
      repository: props.repository.asString,
      branch: props.branch.asString,
      imageSpec: { tag: this.imageTag.asString },
      // An expression (object or null); the binding passes tokens through as they are.
      gitCredentials: props.gitCredentials as unknown as DevcontainerbuilderBuildGitCredentials,
      lifecycle: {
        ignoreChanges: ["git_credentials"],
        // The service hands the branch to git: the parameter's rule again, so that no value
        // that got past Coder's validation (an option, a line break) ever reaches it.
        precondition: [
          {
            condition: hcl`can(regex(${GIT_BRANCH_PATTERN}, ${props.branch}))`,
            errorMessage: GIT_BRANCH_ERROR,
          },
        ],
      },
    });
    // In JSON, replace_triggered_by takes bare references; cdktf would write "${…}".
    build.addOverride("lifecycle.replace_triggered_by", [
      `${rebuildTracker.terraformResourceType}.${rebuildTracker.friendlyUniqueId}`,
    ]);

    // Addressed data.devcontainerbuilder_devcontainer.workspace, like the build: a scope of its own.
    const metadata = new Construct(this, "metadata");
    const devcontainer = new DataDevcontainerbuilderDevcontainer(metadata, "workspace", {
      count: props.workspace.startCount,
      registry: build.resolvedRegistry,
      name: build.resolvedName,
      tag: build.resolvedTag,
      platform: hcl<string>`format("linux/%s", ${this.arch})`.asString,
    });
    return { rebuildTracker, build, devcontainer };
  }

  /** `terraform_data.git_credential`, replaced only with the build (see the field). */
  private gitCredentialRecordOf(name: Expr<string> | undefined): TerraformData | undefined {
    if (name === undefined) return undefined;
    const record = new TerraformData(this, "git_credential", {
      input: name.asString,
      lifecycle: { ignoreChanges: ["input"] },
    });
    // In JSON, replace_triggered_by takes bare references; cdktf would write "${…}".
    record.addOverride("lifecycle.replace_triggered_by", [
      `${this.build.terraformResourceType}.${this.build.friendlyUniqueId}`,
    ]);
    return record;
  }

  /**
   * The name of the credential the image was built with ("none" without a record). Its
   * `input`, not its `output`: known at plan on a create, and the kept value afterwards.
   */
  get gitCredentialUsed(): string {
    return this.gitCredentialRecord === undefined
      ? "none"
      : hcl<string>`${this.gitCredentialRecord.fqn}.input`.asString;
  }

  /** The env scripts the pod can carry, and a warning for each one too large. */
  private envScriptsThatFit(
    locals: NamedLocals,
    dc: Expr<unknown>,
  ): {
    readonly envScripts: Expr<Record<string, string>>;
    readonly envScriptWarnings: Expr<string[]>;
  } {
    // The pod gets each script as one environment variable, in base64: a longer one than the
    // kernel takes in one variable would make every start of the container fail.
    const fits = hcl`length(base64encode(script)) <= ${ENV_SCRIPT_MAX_BASE64}`;
    const envScripts = locals.add<Record<string, string>>(
      "env_scripts",
      hcl`try({ for kind, script in ${dc}.env_scripts : kind => script if script != null && script != "" && ${fits} }, {})`,
      "The pod gets each script as one environment variable: too long for the kernel, no start works.",
    );
    const envScriptWarnings = locals.add<string[]>(
      "env_script_warnings",
      hcl`try([for kind, script in ${dc}.env_scripts : format(
        "%s is %d characters as base64, more than the %d one environment variable of the pod can carry; none of it is set.",
        kind, length(base64encode(script)), ${ENV_SCRIPT_MAX_BASE64}) if script != null && script != "" && !${fits}], [])`,
    );
    return { envScripts, envScriptWarnings };
  }

  /** customizations.vscode extensions: the first EXTENSIONS_READ that are extension IDs. */
  private extensions(
    locals: NamedLocals,
    dc: Expr<unknown>,
  ): { readonly vscodeExtensions: Expr<string[]>; readonly extensionWarnings: Expr<string[]> } {
    // An ID becomes an argument of `code-server --install-extension`: EXTENSION_ID_PATTERN only.
    const extensionValid = hcl`can(regex(${EXTENSION_ID_PATTERN}, extension))`;
    const extensionsGiven = locals.add<unknown[]>(
      "extensions_given",
      hcl`try(concat(${dc}.extensions, []), [])`,
      "A null or non-list extensions becomes []: a for expression fails on null.",
    );
    const extensionsRead = locals.add<unknown[]>(
      "extensions_read",
      hcl`slice(${extensionsGiven}, 0, min(length(${extensionsGiven}), ${EXTENSIONS_READ}))`,
      "The list is cut before it is walked: every entry costs each plan and apply.",
    );
    const vscodeExtensions = locals.add<string[]>(
      "vscode_extensions",
      hcl`try([for extension in ${extensionsRead} : extension if extension != null && extension != "" && ${extensionValid}], [])`,
      "An ID becomes an argument of code-server --install-extension: only real IDs pass.",
    );
    const extensionWarnings = locals.add<string[]>(
      "extension_warnings",
      hcl`concat(
        length(${extensionsGiven}) > ${EXTENSIONS_READ} ? [format("customizations.vscode.extensions lists %d entries; only the first ${EXTENSIONS_READ} are read.", length(${extensionsGiven}))] : [],
        try([for extension in ${extensionsRead} : format(
        "customizations.vscode.extensions %s is not an extension ID (publisher.name, optionally @version); it is not installed.",
        ${quotedForWarning(Expr.ref("extension"))}) if extension != null && extension != "" && !${extensionValid}], [])
      )`,
    );
    return { vscodeExtensions, extensionWarnings };
  }

  /** The service's warnings about the configuration, the first SERVICE_WARNINGS_READ of them. */
  private serviceWarnings(locals: NamedLocals, dc: Expr<unknown>): Expr<string[]> {
    const warningsGiven = locals.add<unknown[]>(
      "dc_warnings_given",
      hcl`try(concat(${dc}.warnings, []), [])`,
      "A null or non-list warnings becomes []: a for expression fails on null.",
    );
    return locals.add<string[]>(
      "dc_warnings",
      hcl`concat(
        try([for warning in slice(${warningsGiven}, 0, min(length(${warningsGiven}), ${SERVICE_WARNINGS_READ})) : warning if warning != null && warning != ""], []),
        length(${warningsGiven}) > ${SERVICE_WARNINGS_READ} ? [format("The service reported %d more warnings about the configuration; only the first ${SERVICE_WARNINGS_READ} are shown.", length(${warningsGiven}) - ${SERVICE_WARNINGS_READ})] : []
      )`,
    );
  }

  /** The variables the configuration references, the first VARIABLES_READ of them. */
  private variablesRead(
    locals: NamedLocals,
    dc: Expr<unknown>,
  ): { readonly variables: Expr<unknown[]>; readonly variableWarnings: Expr<string[]> } {
    const variablesGiven = locals.add<unknown[]>(
      "variables_given",
      hcl`try(concat(${dc}.variables, []), [])`,
      "A null or non-list variables becomes []: a for expression fails on null.",
    );
    const variables = locals.add<unknown[]>(
      "variables",
      hcl`try([for variable in slice(${variablesGiven}, 0, min(length(${variablesGiven}), ${VARIABLES_READ})) :
        merge(variable, { used_in = try(slice(variable.used_in, 0, min(length(variable.used_in), ${VARIABLE_USES_READ})), []) })
        if variable != null], [])`,
      "Lists are cut before they are walked: every variable and use costs each plan and apply.",
    );
    const variableWarnings = locals.add<string[]>(
      "variable_warnings",
      hcl`length(${variablesGiven}) > ${VARIABLES_READ} ? [format("The configuration references %d variables; only the first ${VARIABLES_READ} are read (the rest are not asked for).", length(${variablesGiven}))] : []`,
    );
    return { variables, variableWarnings };
  }

  /** forwardPorts: the first FORWARD_PORTS_READ entries, and which of them are TCP ports. */
  private forwardPortsRead(locals: NamedLocals, dc: Expr<unknown>): ForwardPortsRead {
    // Only real TCP port numbers become apps; the rest is reported in portWarnings.
    // (try() around the test: && does not short-circuit on a null or a string.)
    const portValid = hcl`try(port.port >= 1 && port.port <= 65535 && floor(port.port) == port.port, false)`;
    const forwardPortsListed = locals.add<number>(
      "forward_ports_listed",
      hcl`try(length(concat(${dc}.forward_ports, [])), 0)`,
      "Counted before anything walks the list, so the warning can say how many were left out.",
    );
    const forwardPorts = locals.add<unknown[]>(
      "forward_ports_read",
      hcl`try(slice(${dc}.forward_ports, 0, min(${forwardPortsListed}, ${FORWARD_PORTS_READ})), [])`,
      "Each entry costs every plan and apply (~1 s per 1,000); no workspace fills 100 apps.",
    );
    // What is decided per entry is a list beside forward_ports_read, by index: the apps and
    // each warning read it there instead of deciding again.
    const portsValid = locals.add<boolean[]>(
      "forward_ports_numbers_valid",
      hcl`[for port in ${forwardPorts} : ${portValid}]`,
      "Only real TCP port numbers become apps: decided once per entry, read by the app and warnings.",
    );
    return { forwardPortsListed, forwardPorts, portsValid };
  }

  /** forwardPorts: one entry per TCP port, its label made a display name, and the warnings. */
  private forwardPorts(
    locals: NamedLocals,
    { forwardPortsListed, forwardPorts, portsValid }: ForwardPortsRead,
  ): { readonly ports: Expr<unknown[]>; readonly portWarnings: Expr<string[]> } {
    // A label becomes a coder_app display_name, which the coder provider limits to
    // DISPLAY_NAME_MAX_BYTES bytes: a longer one is cut on a character boundary (null, so the
    // app is named after its port, when not even one character fits). Its control characters
    // become spaces first: the name is shown wherever Coder lists the workspace's apps, and
    // preview prints it to the operator's terminal, where an escape sequence would act.
    // Looked for in the label as given: trimspace() alone would drop a tab, a line break or a
    // NEL at either end without a word.
    const labels = locals.add<string[]>(
      "forward_ports_labels",
      hcl`[for port in ${forwardPorts} : try(trimspace(replace(port.label, ${controlCharacters(this)}, " ")), null)]`,
      "Control characters become spaces: names reach the dashboard and the operator's terminal.",
    );
    const label = hcl`${labels}[index]`;
    const labelsTooLong = locals.add<boolean[]>(
      "forward_ports_labels_too_long",
      hcl`[for label in ${labels} : try(${utf8Bytes(Expr.ref<string>("label"))} > ${DISPLAY_NAME_MAX_BYTES}, false)]`,
      "The coder provider refuses a display_name over 64 bytes: longer labels are cut.",
    );
    const labelTooLong = hcl`${labelsTooLong}[index]`;
    // Only the labels over the limit are cut, by index: Terraform evaluates both sides of a
    // conditional, so a cut inside `too_long ? cut : label` ran for every label (some 100
    // function calls each), and 1,000 labelled ports made a build 7.8–13.5× a plain one.
    const cutLabels = locals.add<Record<string, string>>(
      "forward_ports_labels_cut",
      hcl`{ for index, label in ${labels} : index => ${capUtf8Bytes(Expr.ref<string>("label"), DISPLAY_NAME_MAX_BYTES)} if ${labelsTooLong}[index] }`,
      "Cut on a character boundary to 64 bytes; null (the app is named after its port) if none fits.",
    );
    const cappedLabel = hcl<string>`${locals.add<string[]>(
      "forward_ports_names",
      hcl`[for index, label in ${labels} : lookup(${cutLabels}, index, label)]`,
      "Each label as the app shows it: its cut when it was too long, else itself.",
    )}[index]`;
    const valid = hcl`${portsValid}[index]`;
    // regex() takes the pattern without replace()'s slashes; one or more found is one found.
    const labelHasControlCharacters = hcl`can(regex(trim(${controlCharacters(this)}, "/"), port.label))`;
    const validPorts = locals.add<unknown[]>(
      "ports_valid",
      hcl`try([for index, port in ${forwardPorts} : merge(port, { label = ${cappedLabel} }) if ${valid}], [])`,
      "A port Coder cannot serve (not 1-65535, a bad label) gets a warning, never an app.",
    );
    // A port listed twice (3000 and "3000" are two entries to the Dev Containers CLI) gets one
    // app, the first entry's: a second would take a slot for the same URL. Each port's first
    // position comes from one map, built once: searching the list for every entry made a list
    // of n ports cost n² (65,535 ports, under preview's size limit, took hours to plan).
    const firstPositions = locals.add<Record<string, number[]>>(
      "ports_first_position",
      hcl`{ for position, port in ${validPorts} : tostring(port.port) => position... }`,
      "A port listed twice gets one app; one map finds each port's first place, not n² searches.",
    );
    const firstOfPort = hcl`${firstPositions}[tostring(port.port)][0] == position`;
    const ports = locals.add<unknown[]>(
      "ports",
      hcl`[for position, port in ${validPorts} : port if ${firstOfPort}]`,
      "One app per port, the first entry's: a second app would take a slot for the same URL.",
    );
    const portWarnings = locals.add<string[]>(
      "port_warnings",
      hcl`try(concat(
        ${forwardPortsListed} > ${FORWARD_PORTS_READ} ? [format("forwardPorts lists %d entries; only the first ${FORWARD_PORTS_READ} are read.", ${forwardPortsListed})] : [],
        try([for index, port in ${forwardPorts} : format("forwardPorts[%d] port = %s: not a TCP port number (1-65535); no app for it", index, jsonencode(try(port.port, null))) if port != null && !${valid}], []),
        try([for index, port in ${forwardPorts} : format(
          "portsAttributes label %s of forwardPorts[%d] is longer than ${DISPLAY_NAME_MAX_BYTES} bytes; the app is named %s.",
          ${quotedForWarning(label)}, index, ${quotedForWarning(hcl`coalesce(${cappedLabel}, format("Port %d", port.port))`)}) if ${valid} && ${labelTooLong}], []),
        try([for index, port in ${forwardPorts} : format(
          "portsAttributes label %s of forwardPorts[%d] holds control or invisible characters; they became spaces.",
          ${quotedForWarning(Expr.ref("port.label"))}, index) if ${valid} && ${labelHasControlCharacters}], []),
        [for port in distinct([for position, port in ${validPorts} : port.port if !(${firstOfPort})]) : format(
          "forwardPorts lists port %d more than once; it gets one app.", port)]
      ), [])`,
    );
    return { ports, portWarnings };
  }

  /** The merged configuration as an object, and a warning when it is not one. */
  private configurationObject(
    locals: NamedLocals,
    dc: Expr<unknown>,
  ): { readonly configuration: Expr<unknown>; readonly configurationWarnings: Expr<string[]> } {
    // merge() rejects anything but an object (it skips null), so a JSON list or string also
    // becomes {}, and text that is no JSON decodes to false, which merge() rejects too.
    // Decoded once: the text is the repository's whole configuration (up to preview's 1 MiB).
    const decoded = locals.add<unknown>(
      "dc_configuration_decoded",
      hcl`try(jsondecode(${dc}.configuration_json), false)`,
      "Decoded once: the text is the repository's whole configuration, up to 1 MiB.",
    );
    const configuration = locals.add<unknown>(
      "dc_configuration",
      hcl`try(merge({}, ${decoded}), {})`,
      "merge() accepts only an object, so a JSON list, string or undecodable text becomes {}.",
    );
    const configurationWarnings = locals.add<string[]>(
      "configuration_warnings",
      hcl`try(coalesce(${dc}.configuration_json), null) != null && !can(merge({}, ${decoded})) ? ["The image's Dev Container configuration is not a JSON object; customizations are ignored."] : []`,
    );
    return { configuration, configurationWarnings };
  }

  /** Whether runArgs set `--memory`, read from its first RUN_ARGS_READ entries. */
  private runArgsRead(
    locals: NamedLocals,
    configuration: Expr<unknown>,
  ): { readonly runArgsSetMemory: Expr<boolean>; readonly runArgsWarnings: Expr<string[]> } {
    const runArgsGiven = locals.add<unknown[]>(
      "run_args_given",
      hcl`try(concat(${configuration}.runArgs, []), [])`,
      "A null or non-list runArgs becomes []: a for expression fails on null.",
    );
    const runArgsSetMemory = locals.add<boolean>(
      "run_args_set_memory",
      hcl`anytrue([for a in slice(${runArgsGiven}, 0, min(length(${runArgsGiven}), ${RUN_ARGS_READ})) : can(regex("^(--memory(=|$)|-m($|[0-9]))", tostring(a)))])`,
      "Cut before it is walked: each entry costs every plan (a 1 MiB list made a start ~80x slower).",
    );
    const runArgsWarnings = locals.add<string[]>(
      "run_args_warnings",
      hcl`length(${runArgsGiven}) > ${RUN_ARGS_READ} ? [format("runArgs lists %d entries; only the first ${RUN_ARGS_READ} are read (a --memory past them is not the limit).", length(${runArgsGiven}))] : []`,
    );
    return { runArgsSetMemory, runArgsWarnings };
  }
}
