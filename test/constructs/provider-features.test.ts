/**
 * The `required_providers` lower bounds: computed per template from the feature table
 * (lib/constructs/provider-features.ts: the provider release that introduced each type,
 * argument, block and read attribute, with the tag and commit as source) and from the pinned
 * modules' own requirements. A template planned with the oldest provider its bound admits has
 * everything it uses: each use is accounted for by the table, and no use or module needs a
 * newer release than the bound. The plan harness's mock works from the vendored (newest)
 * schemas, so it cannot show this; the table's versions do.
 */
import { TEMPLATES } from "../../app/registry";
import {
  compareVersions,
  MODULE_REQUIREMENTS,
  PROVIDER_ATTRIBUTES,
  PROVIDER_TYPES,
  PROVIDER_UPPER_BOUNDS,
  providerLowerBound,
  unaccountedUses,
  versionOf,
} from "../../lib/constructs/provider-features";
import { moduleUses, providerSchema, providerUses } from "../../lib/constructs/provider-usage";
import { synthTemplate } from "../support/synth-template";

type Config = Record<string, any>;
/** The releases the vendored schemas were taken from (coder-and-cdktf-facts.md, docs/testing.md). */
const VENDORED: Readonly<Record<string, string>> = { coder: "2.17.0", kubernetes: "2.38.0" };

const lowerBound = (constraint: string) => /^>= (\d+\.\d+\.\d+)/.exec(constraint)?.[1];

describe.each(TEMPLATES.map((t) => [t.id]))("template %s", (id) => {
  const config = synthTemplate<Config>(id).config;
  const required = config.terraform.required_providers as Record<string, { version: string }>;

  it("uses nothing the feature table does not account for", () => {
    const missing = unaccountedUses(config).map(
      (u) =>
        `${u.provider}: ${u.type}${u.path ? ` ${u.path}` : ""} (add a row with the first release that has it)`,
    );
    expect(missing).toEqual([]);
  });

  it.each(["coder", "kubernetes"])(
    "declares as %s's lower bound the oldest release that has every use and satisfies every module",
    (provider) => {
      const bound = lowerBound(required[provider].version);
      expect(bound).toBe(providerLowerBound(provider, config));
      // Planned with that release, each use exists: none needs a newer one.
      const tooNew = providerUses(config)
        .filter((u) => u.provider === provider)
        .map((u) => ({ use: `${u.type} ${u.path ?? ""}`.trim(), since: versionOf(u)! }))
        .filter((u) => compareVersions(u.since, bound!) > 0);
      expect(tooNew).toEqual([]);
      const modules = moduleUses(config).flatMap((m) =>
        MODULE_REQUIREMENTS.filter(
          (r) => r.source === m.source && r.version === m.version && r.provider === provider,
        ),
      );
      expect(modules.filter((r) => compareVersions(r.since, bound!) > 0)).toEqual([]);
      // And the bound is tight: some use or module needs exactly that release (or it is the floor).
      const needs = [
        ...providerUses(config)
          .filter((u) => u.provider === provider)
          .map((u) => versionOf(u)!),
        ...modules.map((r) => r.since),
      ];
      expect(
        needs.some((v) => compareVersions(v, bound!) === 0) ||
          bound === "2.0.1" ||
          bound === "2.7.0",
      ).toBe(true);
    },
  );

  it("knows the provider requirement of every module it calls", () => {
    const unknown = moduleUses(config).filter(
      (m) => !MODULE_REQUIREMENTS.some((r) => r.source === m.source && r.version === m.version),
    );
    expect(unknown).toEqual([]);
  });

  it("admits kubernetes 3.x (its 3.0.0 changelog deprecates only unversioned resources)", () => {
    expect(required.kubernetes.version).toMatch(/, < 4\.0\.0$/);
    expect(
      providerUses(config).filter((u) => u.provider === "kubernetes" && !u.type.endsWith("_v1")),
    ).toEqual([]);
  });
});

describe("the table", () => {
  /** The schema block at `path` below `type` in the vendored schema, or undefined. */
  function schemaAt(provider: string, type: string, path?: string): unknown {
    const schema = providerSchema(provider)!;
    let block: any = type.startsWith("data.")
      ? schema.dataSources[type.slice(5)]
      : schema.resources[type];
    for (const segment of path?.split(".") ?? []) {
      if (block === undefined) return undefined;
      const nested = block.block_types?.[segment]?.block;
      block = nested ?? block.attributes?.[segment];
    }
    return block;
  }

  it.each(PROVIDER_TYPES.map((t) => [t.type, t] as const))(
    "%s: exists in the vendored schema, no later than its release, with a tag as source",
    (_, row) => {
      expect(schemaAt(row.provider, row.type)).toBeDefined();
      expect(compareVersions(row.since, VENDORED[row.provider])).toBeLessThanOrEqual(0);
      expect(row.source).toContain(`v${row.since} (`);
    },
  );

  it.each(PROVIDER_ATTRIBUTES.map((a) => [`${a.type} ${a.path}`, a] as const))(
    "%s: exists in the vendored schema, after its type, with a tag as source",
    (_, row) => {
      expect(schemaAt(row.provider, row.type, row.path)).toBeDefined();
      const type = PROVIDER_TYPES.find((t) => t.provider === row.provider && t.type === row.type);
      expect(type).toBeDefined();
      expect(compareVersions(row.since, type!.since)).toBeGreaterThan(0);
      expect(compareVersions(row.since, VENDORED[row.provider])).toBeLessThanOrEqual(0);
      expect(row.source).toContain(`v${row.since} (`);
    },
  );

  it("has one requirement per pinned module release", () => {
    const keys = MODULE_REQUIREMENTS.map((r) => `${r.source}@${r.version}`);
    expect(new Set(keys).size).toBe(keys.length);
  });

  it("raises a bound with each newer use, and with a module's requirement", () => {
    const env = (extra: Record<string, unknown>) => ({
      resource: { coder_env: { e: { agent_id: "a", name: "N", value: "v", ...extra } } },
    });
    expect(providerLowerBound("coder", env({}))).toBe("2.0.1");
    expect(providerLowerBound("coder", env({ merge_strategy: "append" }))).toBe("2.15.0");
    expect(
      providerLowerBound("coder", {
        data: { coder_secret: { s: { env: "X", help_message: "h" } } },
      }),
    ).toBe("2.16.0");
    // An attribute read by reference counts too (is_prebuild, 2.4.0).
    expect(
      providerLowerBound("coder", {
        data: { coder_workspace: { me: {} } },
        locals: { p: "${data.coder_workspace.me.is_prebuild}" },
      }),
    ).toBe("2.4.0");
    // A block covers what is inside it.
    expect(
      providerLowerBound("kubernetes", {
        resource: {
          kubernetes_deployment_v1: {
            d: {
              spec: [
                {
                  template: [
                    {
                      spec: [{ security_context: [{ fs_group_change_policy: "OnRootMismatch" }] }],
                    },
                  ],
                },
              ],
            },
          },
        },
      }),
    ).toBe("2.16.0");
    expect(
      providerLowerBound("coder", {
        module: { c: { source: "registry.coder.com/coder/claude-code/coder", version: "5.4.0" } },
      }),
    ).toBe("2.12.0");
    expect(PROVIDER_UPPER_BOUNDS.kubernetes).toBe("< 4.0.0");
  });

  it("reports a use it has no row for", () => {
    expect(
      unaccountedUses({
        resource: { coder_app: { a: { agent_id: "x", slug: "s", brand_new: true } } },
      }),
    ).toEqual([{ provider: "coder", type: "coder_app", path: "brand_new" }]);
  });
});
