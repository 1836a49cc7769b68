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
import { hcl, type HclValue } from "../core/expr";
import { NamedLocals } from "../core/named-locals";
import { quotedForWarning } from "./repository-values";

/** An entrypoint the wrapper runs: an absolute path of these characters only (RE2). */
export const ENTRYPOINT_PATTERN = "^/[A-Za-z0-9._/+-]+$";

/** Entrypoints run at most (each label entry is the image's; a long list is hostile). */
export const MAX_FEATURE_ENTRYPOINTS = 20;

export interface DevcontainerFeatureEntrypointsProps {
  /**
   * The image's devcontainer.metadata label entries, decoded (a list; each installed Feature
   * has an entry with its `id`): the template decodes the data source's `metadata_json` once.
   */
  readonly metadata: HclValue;
  /** Prefix of the local names, for several instances in one module. @default "" */
  readonly localPrefix?: string;
}

/**
 * Locals (with `localPrefix`): `feature_entrypoints_given`, `feature_entrypoints_runnable`,
 * `feature_entrypoints_usable`, `feature_entrypoints`, `feature_entrypoint_warnings`.
 */
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
      hcl`try([for e in ${props.metadata} : {
        id = try(tostring(e.id), "(a label entry without id)"),
        entrypoint = tostring(e.entrypoint),
      } if try(tostring(e.entrypoint) != "", false)], [])`,
      "Each Feature's label entry names the script the CLI starts before the hooks.",
    );
    // Whether each entry can be run: decided once, read by the list the wrapper gets and by
    // the warnings about the others.
    const runnable = locals.add(
      "feature_entrypoints_runnable",
      hcl`[for e in ${given} : can(regex(${ENTRYPOINT_PATTERN}, e.entrypoint)) && can(regex("^[^\\t\\n]*$", e.id))]`,
      "An entrypoint is run only as an absolute path of plain characters, from an id without tabs.",
    );
    const usable = locals.add(
      "feature_entrypoints_usable",
      hcl`[for i, e in ${given} : e if ${runnable}[i]]`,
      "The runnable ones, in the label's order: the wrapper gets the first of them.",
    );
    const usableCount = locals.add(
      "feature_entrypoints_usable_count",
      hcl`length(${usable})`,
      "Counted once for the cap on entrypoints and the warning that names what it drops.",
    );
    this.text = locals.add(
      "feature_entrypoints",
      hcl`join("\n", [for e in slice(${usable}, 0, min(${MAX_FEATURE_ENTRYPOINTS}, ${usableCount})) : format("%s\t%s", e.id, e.entrypoint)])`,
      "One Feature a line for the wrapper: its id (for the log) and the script it runs.",
    ).asString;
    const message =
      "Feature %s: its entrypoint %s is not run (an entrypoint must be an absolute path of letters, digits and . _ / + -).";
    this.warnings = locals.add(
      "feature_entrypoint_warnings",
      hcl`concat(
        [for i, e in ${given} : format(${message}, ${quotedForWarning(hcl`e.id`)}, ${quotedForWarning(hcl`e.entrypoint`)})
          if !${runnable}[i]],
        ${usableCount} > ${MAX_FEATURE_ENTRYPOINTS} ? [format("%d Features have an entrypoint; the first ${MAX_FEATURE_ENTRYPOINTS} are run.", ${usableCount})] : []
      )`,
    ).asList;
  }
}
