/**
 * Snapshots per template (cdk.tf.json, locals.tf and main.tf, byte for byte), paired with assertions of
 * what the template promises, so that the intent survives a snapshot update: provider
 * constraints, the variables in form order, parameter orders, and which resources live only
 * while the workspace runs and which survive a stop.
 *
 * The promises live next to each template (templates/<id>/intent.json, app/intent.ts).
 * After an intended change: `npm run snapshots:update`, then review the diff.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { TEMPLATES } from "../../app/registry";
import {
  PROVIDER_SOURCES,
  providerVersionConstraint,
  REQUIRED_TERRAFORM_VERSION,
} from "../../lib/constructs/template-stack";
import { HCL_FILES } from "../../lib/private/hcl-files";
import { templateIntent } from "../../app/intent";
import { synthTemplate } from "../support/synth-template";

const START_COUNT = "${data.coder_workspace.me.start_count}";
/** While running and owned by a user: not in an unclaimed prebuild. */
const CLAIMED_START_COUNT =
  "${data.coder_workspace.me.is_prebuild ? 0 : data.coder_workspace.me.start_count}";

it("has an intent next to every template (templates/<id>/intent.json)", () => {
  for (const t of TEMPLATES) expect(() => templateIntent(t.id)).not.toThrow();
});

describe.each(TEMPLATES.map((t) => t.id))("template %s", (id) => {
  // templates/<id>/intent.json; a missing one fails here, naming the file.
  const intent = templateIntent(id);
  /** The text of each configuration file, or a placeholder for one the template lacks. */
  const texts: Record<string, string> = {};
  let config: Record<string, any>;
  beforeAll(() => {
    const synthesized = synthTemplate(id);
    try {
      for (const name of ["cdk.tf.json", ...HCL_FILES]) {
        const file = join(synthesized.dir, name);
        texts[name] = existsSync(file) ? readFileSync(file, "utf8") : `(no ${name})`;
      }
      // The whole configuration as one JSON document (cdk.tf.json with the HCL files' part).
      config = synthesized.config;
    } finally {
      synthesized.cleanup();
    }
  });

  /**
   * Compares what the synth wrote with a promise of the intent file, which the diff names: a
   * deliberate change is made there by hand (docs/adding-a-template.md, "The intent").
   */
  const expectIntent = (field: keyof typeof intent, synthesized: unknown) => {
    const file = `templates/${id}/intent.json`;
    try {
      expect({ [file]: { [field]: synthesized } }).toEqual({ [file]: { [field]: intent[field] } });
    } catch (error) {
      if (error instanceof Error) {
        error.message =
          `The synth no longer keeps the promise "${field}" of ${file}. If the change is ` +
          `deliberate, edit ${file} by hand to the received value ("Received" below); ` +
          `otherwise fix the stack. (docs/adding-a-template.md, "The intent")\n\n${error.message}`;
      }
      throw error;
    }
  };

  /** A resource by its address (`type.name`). */
  const resource = (address: string): Record<string, unknown> => {
    const [type, name] = address.split(".");
    const found = config.resource?.[type]?.[name];
    if (found === undefined) throw new Error(`${id}: no resource ${address}`);
    return found;
  };

  it.each(["cdk.tf.json", ...HCL_FILES])("synthesizes %s as in the snapshot", (name) => {
    expect(texts[name]).toMatchSnapshot();
  });

  it("requires Terraform >= 1.9 and each provider from its source with the project's constraint, without a backend", () => {
    expect(config.terraform.required_version).toBe(REQUIRED_TERRAFORM_VERSION);
    expect(config.terraform).not.toHaveProperty("backend");
    expect(config.terraform.required_providers).toEqual(
      Object.fromEntries(
        intent.providers.map((p) => [
          p,
          { source: PROVIDER_SOURCES[p], version: providerVersionConstraint(p, config) },
        ]),
      ),
    );
  });

  it("configures each provider once per alias", () => {
    const aliases = Object.fromEntries(
      Object.entries(config.provider as Record<string, { alias?: string }[]>).map(
        ([name, blocks]) => [name, blocks.map((b) => b.alias ?? null)],
      ),
    );
    expectIntent("providerAliases", aliases);
  });

  it("writes the template variables in the order Coder should list them", () => {
    expectIntent("variables", Object.keys(config.variable));
  });

  it("orders the workspace parameters explicitly, each at its own position", () => {
    const orders = Object.fromEntries(
      Object.entries(config.data.coder_parameter as Record<string, { order: number }>).map(
        ([name, p]) => [name, p.order],
      ),
    );
    expectIntent("parameterOrders", orders);
  });

  it("counts the pod and its scripts by start_count: they exist only while the workspace runs", () => {
    for (const address of intent.whileRunning) {
      expect({ address, count: resource(address).count }).toEqual({ address, count: START_COUNT });
    }
    for (const address of intent.whileRunningClaimed ?? []) {
      expect({ address, count: resource(address).count }).toEqual({
        address,
        count: CLAIMED_START_COUNT,
      });
    }
  });

  it("gives the agent, the data and the identities no count: they survive a stop", () => {
    for (const address of intent.surviveStop) {
      expect({ address, count: resource(address).count }).toEqual({ address, count: undefined });
    }
  });

  it("keeps the data volume's size fixed after creation", () => {
    const claims = Object.values(
      config.resource.kubernetes_persistent_volume_claim_v1 as Record<string, any>,
    );
    expect(claims).toHaveLength(1);
    expect(claims[0].lifecycle.ignore_changes).toContain("spec[0].resources[0].requests");
  });
});
