/**
 * The `required_providers` lower bounds: computed per template from the feature table
 * (lib/constructs/provider-features.ts: the provider release that introduced each type,
 * argument, block and read attribute, with the tag and commit as source) and from the pinned
 * modules' own requirements. A template planned with the oldest provider its bound admits has
 * everything it uses: each use is accounted for by the table, and no use or module needs a
 * newer release than the bound. test/templates/provider-releases.test.ts plans each template
 * against schemas of both ends of its bounds, derived from these rows.
 */
import { TEMPLATES } from "../../app/registry";
import {
  compareVersions,
  computedVersionConstraint,
  MODULE_REQUIREMENTS,
  PROVIDER_ATTRIBUTES,
  PROVIDER_TYPES,
  PROVIDER_UPPER_BOUNDS,
  newestRelease,
  providerLowerBound,
  VENDORED_RELEASES,
  unaccountedUses,
  versionOf,
} from "../../lib/constructs/provider-features";
import { moduleUses, providerSchema, providerUses } from "../../lib/constructs/provider-usage";
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { App, TerraformDataSource } from "../../lib/core/cdk";
import { coderProvider } from "../../lib/constructs/providers";
import { TemplateStack } from "../../lib/constructs/template-stack";
import { readProjectFile } from "../../lib/core/project-root";
import { synthTemplate } from "../support/synth-template";

type Config = Record<string, any>;
/** The newest vendored release of each provider (schemas/README.md). */
const VENDORED: Readonly<Record<string, string>> = {
  coder: newestRelease("coder"),
  kubernetes: newestRelease("kubernetes"),
};

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
    "%s: in the newest vendored schema unless removed, no later than its release, with a tag as source",
    (_, row) => {
      if (row.until === undefined) {
        expect(schemaAt(row.provider, row.type)).toBeDefined();
      } else {
        // Removed: gone from the newest schema, there in the last vendored release before.
        expect(schemaAt(row.provider, row.type)).toBeUndefined();
        const before = VENDORED_RELEASES.filter(
          (r) => r.provider === row.provider && compareVersions(r.version, row.until!) < 0,
        ).pop()!;
        const document = JSON.parse(readProjectFile(before.file));
        const key = row.type.startsWith("data.") ? "data_source_schemas" : "resource_schemas";
        const name = row.type.replace(/^data\./, "");
        expect(
          Object.values(document.provider_schemas as Record<string, any>)[0][key][name],
        ).toBeDefined();
        expect(row.removedSource).toContain(`v${row.until}`);
      }
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

  it("fails a configuration that uses a type the newest release removed, naming it and the releases", () => {
    const withSecret = { data: { coder_secret: { s: { env: "X", help_message: "h" } } } };
    expect(() => computedVersionConstraint("coder", withSecret)).toThrow(
      "uses what the newest coder provider release (2.19.0) no longer has, though its bound >= 2.16.0 " +
        "admits that release: data.coder_secret exists only in coder 2.16.0 up to 2.18.0 (removed in 2.18.0: ",
    );
    expect(computedVersionConstraint("coder", { data: { coder_workspace: { me: {} } } })).toBe(
      ">= 2.0.1",
    );
  });

  it("fails synth of a template stack that declares data.coder_secret, naming the stack", () => {
    const app = new App({ outdir: fs.mkdtempSync(path.join(os.tmpdir(), "removed-type-")) });
    const stack = new TemplateStack(app, "t", {
      sourceDir: "templates/kubernetes",
      frontMatter: { displayName: "T", description: "d", icon: "/icon/k8s.png" },
    });
    coderProvider(stack);
    new TerraformDataSource(stack, "secret", {
      terraformResourceType: "coder_secret",
      terraformGeneratorMetadata: { providerName: "coder" },
    }).addOverride("env", "X");
    expect(() => app.synth()).toThrow(
      /data\.coder_secret exists only in coder 2\.16\.0 up to 2\.18\.0/,
    );
  });

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
