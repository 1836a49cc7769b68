/**
 * Every template against both ends of its provider bounds (issue 42): the oldest release its
 * `required_providers` admit (a schema derived from the vendored ones and the feature table)
 * and the newest release known (the vendored newest, which the harness serves by default).
 * Each must validate, and plan a first start and a stop; a use of a type that either end
 * lacks must fail, which is what went unseen when every test used one schema (coder 2.18.0
 * removed data.coder_secret).
 */
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { TerraformHarness } from "@coder-cdktf/terraform-harness";
import { compareVersions, newestRelease } from "../../lib/constructs/provider-features";
import { TEMPLATE_INPUTS } from "../prebuilds/template-inputs";
import { releasesAt, schemaFilesAt, type ReleaseEnd } from "../support/provider-releases";
import { synthTemplate } from "../support/synth-template";
import { writeHclFiles } from "../../lib/private/hcl-files";

jest.setTimeout(180_000);

type Config = { terraform: { required_providers: Record<string, { version: string }> } };

let tf: TerraformHarness;
beforeAll(async () => {
  tf = await TerraformHarness.start();
});
afterAll(() => tf?.stop());

const ENDS: readonly ReleaseEnd[] = ["oldest", "newest"];

describe.each(TEMPLATE_INPUTS.map((t) => [t.id, t]))("template %s", (id, input) => {
  const template = synthTemplate<Config>(id);
  const required = template.config.terraform.required_providers;

  it("admits the newest coder release, and its oldest end is older", () => {
    const oldest = releasesAt(required, "oldest");
    expect(releasesAt(required, "newest").coder).toBe(newestRelease("coder"));
    expect(compareVersions(oldest.coder!, newestRelease("coder"))).toBeLessThanOrEqual(0);
  });

  it.each(ENDS)("validates and plans a first start and a stop on the %s releases", async (end) => {
    const schemaFiles = schemaFilesAt(required, end);
    await expect(tf.validate(template.dir, { schemaFiles })).resolves.toEqual({
      valid: true,
      diagnostics: [],
    });
    const start = await tf.plan(template.dir, { ...input.options, schemaFiles });
    expect(start.resourceChanges.some((c) => c.type === "coder_agent")).toBe(true);
    const applied = await tf.apply(template.dir, { ...input.options, schemaFiles });
    const stop = await tf.plan(template.dir, {
      ...input.options,
      schemaFiles,
      state: applied,
      workspace: { startCount: 0 },
    });
    // A stop removes what runs and keeps what a workspace keeps, on this release too.
    const deleted = stop.resourceChanges.filter((c) => c.actions.includes("delete"));
    expect(deleted.length).toBeGreaterThan(0);
    expect(deleted.filter((c) => c.type === "kubernetes_persistent_volume_claim_v1")).toEqual([]);
  });
});

describe("a type outside a release fails on that release", () => {
  // Named, not the default: CODER_CDKTF_PROVIDER_RELEASE=oldest makes the default the oldest.
  const NEWEST_CODER = schemaFilesAt({ coder: { version: ">= 2.17.0" } }, "newest");
  const { dir, config } = synthTemplate<Config>("kubernetes");
  /** A copy of the template whose configuration `edit` changed, written as synth writes it. */
  const copyWith = (edit: (json: Record<string, any>) => void): string => {
    const copy = fs.mkdtempSync(path.join(os.tmpdir(), "provider-releases-"));
    fs.cpSync(dir, copy, { recursive: true });
    const json = JSON.parse(JSON.stringify(config)) as Record<string, any>;
    edit(json);
    writeHclFiles(copy, json);
    return copy;
  };
  const errors = (result: {
    diagnostics: readonly { severity: string; summary: string; detail?: string }[];
  }) =>
    result.diagnostics
      .filter((d) => d.severity === "error")
      .map((d) => `${d.summary}: ${d.detail ?? ""}`);

  it("data.coder_secret: declared on the 2.17.0 schema, refused by the newest", async () => {
    const copy = copyWith((json) => {
      json.data = { ...json.data, coder_secret: { key: { env: "KEY", help_message: "h" } } };
    });
    try {
      const old = schemaFilesAt({ coder: { version: ">= 2.17.0" } }, "oldest");
      expect(await tf.validate(copy, { schemaFiles: old })).toEqual({
        valid: true,
        diagnostics: [],
      });
      const newest = await tf.validate(copy, { schemaFiles: NEWEST_CODER });
      expect(newest.valid).toBe(false);
      expect(errors(newest).join("\n")).toMatch(/does not support data source "coder_secret"/);
    } finally {
      fs.rmSync(copy, { recursive: true, force: true });
    }
  });

  it("a workspace whose state holds data.coder_secret (provider 2.17) plans on the newest release", async () => {
    const copy = copyWith((json) => {
      json.data = { ...json.data, coder_secret: { key: { env: "KEY", help_message: "h" } } };
    });
    try {
      const old = schemaFilesAt({ coder: { version: ">= 2.17.0" } }, "oldest");
      const inputs = TEMPLATE_INPUTS.find((t) => t.id === "kubernetes")!.options;
      const applied = await tf.apply(copy, {
        ...inputs,
        schemaFiles: old,
        fixtures: { data_sources: { coder_secret: { value: "v" } } },
      });
      expect(applied.resources.map((r) => r.address)).toContain("data.coder_secret.key");
      // Today's template on today's provider: the data source is dropped, nothing replaced.
      const plan = await tf.plan(dir, { ...inputs, state: applied, schemaFiles: NEWEST_CODER });
      expect(plan.resourceChanges.filter((c) => c.actions.includes("delete"))).toEqual([]);
    } finally {
      fs.rmSync(copy, { recursive: true, force: true });
    }
  });

  it("coder_env.merge_strategy: refused by the oldest end of a bound below 2.15.0", async () => {
    const bound = config.terraform.required_providers.coder.version;
    const copy = copyWith((json) => {
      json.resource = {
        ...json.resource,
        coder_env: { probe: { agent_id: "x", name: "A", value: "b", merge_strategy: "append" } },
      };
    });
    try {
      const old = schemaFilesAt({ coder: { version: ">= 2.14.0" } }, "oldest");
      const result = await tf.validate(copy, { schemaFiles: old });
      expect(result.valid).toBe(false);
      expect(errors(result).join("\n")).toMatch(/merge_strategy/);
      expect(await tf.validate(copy, { schemaFiles: NEWEST_CODER })).toEqual({
        valid: true,
        diagnostics: [],
      });
      // The template's own bound is computed, so it would have risen to 2.15.0 with the use.
      expect(bound).toMatch(/^>= 2\./);
    } finally {
      fs.rmSync(copy, { recursive: true, force: true });
    }
  });
});
