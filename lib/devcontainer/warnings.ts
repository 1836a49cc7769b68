/**
 * Apply time: how a workspace tells its user what from devcontainer.json it could not
 * honor, and which `${localEnv:…}` variables it still needs.
 *
 * - All warning lists are combined in a fixed order into `local.all_warnings`.
 * - The build log: a failing `check` block is a Terraform *warning*, which Coder shows
 *   in the workspace build log ("Check block assertion failed") without failing it.
 * - The dashboard: values for the agent metadata items "Dev Container warnings" and
 *   "Dev Container variables".
 *
 * Values derived from the Dev Container data source are marked sensitive (it has a
 * sensitive argument), and Terraform redacts sensitive values in messages. Warnings
 * and variable names are not secret, so they are unwrapped with nonsensitive(), at
 * the list and at the element level. try() keeps that working on Terraform versions
 * where nonsensitive() rejects a value that is not sensitive.
 */
import { Construct, IResolvable } from "../core/cdk";
import { CheckBlock } from "../core/check-block";
import { Expr, hcl, HclValue } from "../core/expr";
import { NamedLocals } from "../core/named-locals";
import { shippedScriptBody } from "../core/embedded-script";
import { controlCharacters } from "./repository-values";
import { SCRIPTS_DIR } from "./scripts";

/** First line of the build-log message that lists the warnings. */
export const WARNINGS_HEADING =
  "These devcontainer.json settings are not honored by this workspace:";

/** The build-log message for missing variables; `%s` is the comma-joined names. */
export const VARIABLES_MESSAGE =
  "Dev Container variables not set here: %s. The repository's devcontainer.json uses them as " +
  "${localEnv:NAME}. A secret value belongs in your own Coder user secret (coder secret create " +
  "<name> --env NAME, or Secrets in your account settings), which the workspace uses at start " +
  "and this check cannot see; any other value is a NAME=value line in the workspace's \"Dev " +
  'Container variables" setting. Then restart the workspace.';

/** A variable name that can be an environment variable (and is safe in the metadata script). */
export const VARIABLE_NAME_PATTERN = "^[A-Za-z_][A-Za-z0-9_]*$";

/** The "Dev Container variables" metadata script, after the `names='A B'` line it is given. */
const VARIABLES_METADATA_SCRIPT = `${SCRIPTS_DIR}/variables-metadata.sh`;

export interface DevcontainerWarningsProps {
  /** 1. The service's warnings (`dc.warnings`; null is treated as none). @default [] */
  readonly serviceWarnings?: HclValue;
  /**
   * 1b. Warnings about the data source's values themselves (e.g. a configuration_json that
   * is not JSON), shown right after the service's. @default []
   */
  readonly configurationWarnings?: HclValue;
  /** 2. Resource warnings (DevcontainerSizing.warnings). @default [] */
  readonly resourceWarnings?: HclValue;
  /** 3. Placement warnings (DevcontainerPlacement.warnings). @default [] */
  readonly placementWarnings?: HclValue;
  /** 4. Mount-collision warnings. @default [] */
  readonly mountWarnings?: HclValue;
  /** 5. The dropped-capabilities warning, as a list. @default [] */
  readonly capabilityWarnings?: HclValue;
  /** 6. The uid-fallback warning, as a list. @default [] */
  readonly uidWarnings?: HclValue;
  /** The data source's `variables` list (`kind`, `name`, `default`, `used_in`); null means none. */
  readonly variables: HclValue;
  /** The "Dev Container variables" parameter text (`NAME=value` lines). */
  readonly variablesText: HclValue;
  /**
   * Names whose values the operator expects from elsewhere (the users' own Coder secrets,
   * which a plan cannot see): never called missing. @default []
   */
  readonly providedVariables?: HclValue;
  /**
   * localEnv names the workspace gives a value when the text sets none
   * ({@link DevcontainerLocalEnv.names}): never required. @default []
   */
  readonly defaultedVariables?: HclValue;
  /** Prefix of every local's and check block's name (tests plan many at once). @default "" */
  readonly localPrefix?: string;
}

const any = (l: Expr) => l;
const str = (l: Expr) => l.asString;
const list = (value: HclValue | undefined) => hcl`try(concat(${value ?? []}, []), [])`;

/** `local.all_warnings`, the two check blocks and the metadata values. */
export class DevcontainerWarnings extends Construct {
  /** `local.all_warnings`: every warning line, in order, not sensitive. */
  public readonly allWarnings: IResolvable;
  /** `local.warnings_status`: "none" or "<n> - see the build log". */
  public readonly warningsStatus: string;
  /** The "Dev Container warnings" metadata script: echoes the status. */
  public readonly warningsMetadataScript: string;
  /** `local.required_variables`: localEnv names the repository needs, not sensitive. */
  public readonly requiredVariables: IResolvable;
  /** `local.missing_variables`: required names without a `NAME=value` line. */
  public readonly missingVariables: IResolvable;
  /** The "Dev Container variables" metadata script: prints `unset: …` or `all set`. */
  public readonly variablesMetadataScript: string;
  /** `check.devcontainer_warnings`. */
  public readonly warningsCheck: CheckBlock;
  /** `check.devcontainer_variables`. */
  public readonly variablesCheck: CheckBlock;

  constructor(scope: Construct, id: string, props: DevcontainerWarningsProps) {
    super(scope, id);
    const locals = new NamedLocals(this, props.localPrefix ?? "");
    const { allWarnings, status, warningsCheck } = this.buildLogWarnings(locals, props);
    this.warningsCheck = warningsCheck;
    const { required, missing, variablesCheck } = this.missingVariableNames(locals, props);
    this.variablesCheck = variablesCheck;

    this.allWarnings = any(allWarnings);
    this.warningsStatus = str(status);
    this.warningsMetadataScript = str(
      locals.add(
        "warnings_metadata_script",
        hcl`format("echo '%s'", ${str(status)})`,
        "The status is fixed words and a number, so it is safe inside the script's quotes.",
      ),
    );
    this.requiredVariables = any(required);
    this.missingVariables = any(missing);
    this.variablesMetadataScript = str(
      locals.add(
        "variables_metadata_script",
        hcl`format("names='%s'\n%s", join(" ", ${any(required)}), ${shippedScriptBody(this, VARIABLES_METADATA_SCRIPT)})`,
        "The names are checked against VARIABLE_NAME_PATTERN, so the script can expand them in eval.",
      ),
    );
  }

  /** Every warning line, once and inert, the check that shows them in the build log, and a count. */
  private buildLogWarnings(
    locals: NamedLocals,
    props: DevcontainerWarningsProps,
  ): {
    readonly allWarnings: Expr;
    readonly status: Expr;
    readonly warningsCheck: CheckBlock;
  } {
    const lines = locals.add(
      "warning_lines",
      hcl`concat(
        ${list(props.serviceWarnings)}, ${list(props.configurationWarnings)},
        ${list(props.resourceWarnings)}, ${list(props.placementWarnings)},
        ${list(props.mountWarnings)}, ${list(props.capabilityWarnings)}, ${list(props.uidWarnings)}
      )`,
      "One fixed order of sources, so the build log lists a workspace's warnings the same each time.",
    );
    // Each line is unmarked before the filter looks at it: a for expression whose condition
    // reads a sensitive value marks its whole result, and Terraform would then redact the
    // check's message ("refers to sensitive values"). The data source's values carry the
    // marks per line, not only on the list. Control characters (a line may quote the
    // repository) become spaces: the `coder` CLI prints the build log to the user's terminal,
    // where an escape sequence would act, and a newline would look like another entry.
    const allWarnings = locals.add(
      "all_warnings",
      hcl`[for line in [for line in try(nonsensitive(${any(lines)}), ${any(lines)}) : try(nonsensitive(line), line)] :
        replace(tostring(line), ${controlCharacters(this)}, " ") if try(trimspace(line) != "", false)]`,
      "Unmarked per line, or the check's message is redacted; control characters act in a terminal.",
    );
    const message = locals.add(
      "warnings_message",
      hcl`format("%s\n%s", ${WARNINGS_HEADING}, join("\n", [for line in ${any(allWarnings)} : format("- %s", line)]))`,
      "A failing check is a warning Coder shows in the build log, without failing the build.",
    );
    const warningsCheck = new CheckBlock(this, "warnings_check", {
      name: locals.nameOf("devcontainer_warnings"),
      assertions: [
        { condition: hcl`length(${any(allWarnings)}) == 0`, errorMessage: str(message) },
      ],
    });
    const status = locals.add(
      "warnings_status",
      hcl`length(${any(allWarnings)}) == 0 ? "none" : format("%d - see the build log", length(${any(allWarnings)}))`,
      "The dashboard shows a count; the lines themselves are in the build log.",
    );
    return { allWarnings, status, warningsCheck };
  }

  /**
   * The localEnv variables a workspace needs, those it lacks, and the check that names the
   * missing ones.
   */
  private missingVariableNames(
    locals: NamedLocals,
    props: DevcontainerWarningsProps,
  ): {
    readonly required: Expr;
    readonly missing: Expr;
    readonly variablesCheck: CheckBlock;
  } {
    // Required: localEnv variables without a default that something other than a mount or
    // the build uses (a mount's source and build.args are resolved by the service, which
    // never sees the workspace's values: no setting of the workspace can reach them). The test is
    // unmarked for the same reason as the warning lines' filter.
    const requiredTest = hcl`try(
      variable.kind == "localEnv" && variable.default == null
      && can(regex(${VARIABLE_NAME_PATTERN}, variable.name))
      && length([for use in concat(variable.used_in, []) : use if try(!startswith(use, "mounts") && !startswith(use, "build."), false)]) > 0,
      false)`;
    // A name listed twice is kept at its first place, found through one map (distinct()
    // compares every pair).
    const requiredListed = locals.add(
      "required_variables_listed",
      hcl`[for variable in try(nonsensitive(${list(props.variables)}), ${list(props.variables)}) :
        tostring(try(nonsensitive(variable.name), variable.name))
        if try(nonsensitive(${requiredTest}), ${requiredTest})
        && !try(contains(${list(props.defaultedVariables)}, nonsensitive(variable.name)), contains(${list(props.defaultedVariables)}, variable.name), false)
      ]`,
      "A mount's source and build.args are resolved by the service: no workspace value reaches them.",
    );
    const requiredFirst = locals.add(
      "required_variables_first_position",
      hcl`{ for position, name in ${any(requiredListed)} : name => position... }`,
      "A name listed twice is kept at its first place: one map, not distinct()'s pairs.",
    );
    const required = locals.add(
      "required_variables",
      hcl`[for position, name in ${any(requiredListed)} : name if ${any(requiredFirst)}[name][0] == position]`,
      "Each name once, in first-use order: the check's message and the metadata list it.",
    );
    // Only the names go into the message: Terraform prints the values a failed check
    // references, and the parameter text holds users' tokens.
    const missing = locals.add(
      "missing_variables",
      hcl`[for name in ${any(required)} : name
        if !contains(${list(props.providedVariables)}, name)
        && !can(regex(format("(?m)^%s=.", name), try(nonsensitive(${props.variablesText}), ${props.variablesText})))]`,
      "Only names reach the message: a failed check prints the values it reads, and tokens are there.",
    );
    const variablesMessage = locals.add(
      "variables_message",
      hcl`format(${VARIABLES_MESSAGE}, join(", ", ${any(missing)}))`,
      "The plan cannot see the user's own secrets: the message names both ways to set a name.",
    );
    const variablesCheck = new CheckBlock(this, "variables_check", {
      name: locals.nameOf("devcontainer_variables"),
      assertions: [
        { condition: hcl`length(${any(missing)}) == 0`, errorMessage: str(variablesMessage) },
      ],
    });
    return { required, missing, variablesCheck };
  }
}
