/**
 * The entrypoints of the Features an image was built with (desktop-lite, docker-in-docker,
 * sshd, ...): the Dev Containers CLI starts each before the lifecycle hooks. Each Feature's
 * devcontainer.metadata label entry names its `entrypoint` script; the `dev` container's
 * wrapper (dev-entrypoint.sh) starts each in the background, as the remote user, before it
 * starts the agent (and so before any hook), with its output in
 * `~/.cache/devcontainer-features/<n>-<name>.log`, and logs which could not run and why.
 *
 * Clock: apply time (the data source's `metadata_json`). An entrypoint that is not an absolute
 * path of plain characters is not run, with a warning naming the Feature and the value.
 * Inputs may be anything; the plan never fails on them.
 */
import { Construct } from "../core/cdk";
import { hcl, type HclValue } from "../core/hcl";
import { NamedLocals } from "../core/named-locals";
import { quotedForWarning } from "./repository-values";

/** An entrypoint the wrapper runs: an absolute path of these characters only (RE2). */
export const ENTRYPOINT_PATTERN = "^/[A-Za-z0-9._/+-]+$";

/** Entrypoints run at most (each label entry is the image's; a long list is hostile). */
export const MAX_FEATURE_ENTRYPOINTS = 20;

export interface DevcontainerFeatureEntrypointsProps {
  /** The data source's `metadata_json` (the label entries as a JSON array); "[]" when absent. */
  readonly metadataJson: HclValue;
  /** Prefix of the local names, for several instances in one module. @default "" */
  readonly localPrefix?: string;
}

/** Locals (with `localPrefix`): `feature_entrypoints_given`, `feature_entrypoints`, `feature_entrypoint_warnings`. */
export class DevcontainerFeatureEntrypoints extends Construct {
  /** Local `feature_entrypoints`: `<feature id>\t<path>` lines for DC_FEATURE_ENTRYPOINTS. */
  public readonly text: string;
  /** Local `feature_entrypoint_warnings`: one line per entrypoint that is not run. */
  public readonly warnings: string[];

  constructor(scope: Construct, id: string, props: DevcontainerFeatureEntrypointsProps) {
    super(scope, id);
    const locals = new NamedLocals(this, props.localPrefix ?? "");
    const given = locals.add(
      "feature_entrypoints_given",
      hcl`try([for e in jsondecode(${props.metadataJson}) : {
        id = try(tostring(e.id), "(a label entry without id)"),
        entrypoint = tostring(e.entrypoint),
      } if try(tostring(e.entrypoint) != "", false)], [])`,
      "Each Feature's label entry names the script the CLI starts before the hooks.",
    ).expression;
    const usable = hcl`[for e in ${given} : e if can(regex(${ENTRYPOINT_PATTERN}, e.entrypoint)) && can(regex("^[^\\t\\n]*$", e.id))]`;
    this.text = locals.add(
      "feature_entrypoints",
      hcl`join("\n", [for e in slice(${usable}, 0, min(${MAX_FEATURE_ENTRYPOINTS}, length(${usable}))) : format("%s\t%s", e.id, e.entrypoint)])`,
      "One Feature a line for the wrapper: its id (for the log) and the script it runs.",
    ).asString;
    const message =
      "Feature %s: its entrypoint %s is not run (an entrypoint must be an absolute path of letters, digits and . _ / + -).";
    this.warnings = locals.add(
      "feature_entrypoint_warnings",
      hcl`concat(
        [for e in ${given} : format(${message}, ${quotedForWarning(hcl`e.id`)}, ${quotedForWarning(hcl`e.entrypoint`)})
          if !(can(regex(${ENTRYPOINT_PATTERN}, e.entrypoint)) && can(regex("^[^\\t\\n]*$", e.id)))],
        length(${usable}) > ${MAX_FEATURE_ENTRYPOINTS} ? [format("%d Features have an entrypoint; the first ${MAX_FEATURE_ENTRYPOINTS} are run.", length(${usable}))] : []
      )`,
    ).asList;
  }
}
