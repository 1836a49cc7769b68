/**
 * Upgrade safety: each template's resource addresses are recorded in
 * test/addresses/<template>.txt. An address that disappears without a `moved` block would
 * destroy that resource (a PVC: the user's files) in every workspace that updates.
 */
import { TEMPLATES } from "../../app/registry";
import { synthTemplate, type SynthesizedTemplate } from "../support/synth-template";
import {
  addressFile,
  compareAddresses,
  isMoveCovered,
  movedAddresses,
  readRecordedAddresses,
  templateAddresses,
} from "../../app/template-addresses";

const HOW_TO =
  "How to fix:\n" +
  "  - a rename or refactor: keep the old address working with a moved block, e.g.\n" +
  '      movedFrom(volume.claim, "kubernetes_persistent_volume_claim_v1.home")  (lib/core/moved.ts),\n' +
  "    then run `npm run addresses:update`;\n" +
  "  - a resource you really mean to drop from existing workspaces: `npm run addresses:update -- --allow-removal`\n" +
  "    and say so in the release notes.\n" +
  "See docs/upgrading.md.";

const synthesized: SynthesizedTemplate[] = [];
const configs = new Map<string, Record<string, unknown>>();

describe("recorded addresses", () => {
  // The run's shared synth of every template (test/support/synth-template.ts), not one more.
  beforeAll(() => {
    for (const t of TEMPLATES) {
      const template = synthTemplate(t.id);
      synthesized.push(template);
      configs.set(t.id, template.config);
    }
  });

  afterAll(() => synthesized.forEach((t) => t.cleanup()));

  describe.each(TEMPLATES.map((t) => t.id))("template %s", (id) => {
    it("removes no recorded address without a moved block, and records the current ones", () => {
      const recorded = readRecordedAddresses(id);
      if (recorded === undefined) {
        throw new Error(
          `${addressFile(id)} does not exist: a new template's addresses must be recorded. ` +
            "Run `npm run addresses:update` and commit the file.",
        );
      }
      const { current, added, removed, uncovered } = compareAddresses(recorded, configs.get(id)!);
      if (uncovered.length > 0) {
        throw new Error(
          `${id}: these addresses disappeared without a moved block. Every existing workspace ` +
            `would DESTROY them on its next build (for a PVC: the user's data):\n  ` +
            `${uncovered.join("\n  ")}\n${HOW_TO}`,
        );
      }
      if (added.length > 0 || removed.length > 0) {
        throw new Error(
          `${id}: the addresses changed (added: ${added.join(", ") || "none"}; moved away: ` +
            `${removed.join(", ") || "none"}). Review them, then run \`npm run addresses:update\` ` +
            `so the change shows up in the diff.`,
        );
      }
      expect(current).toEqual(recorded);
    });

    it("has moved blocks only between addresses Terraform can move", () => {
      const config = configs.get(id)!;
      const current = templateAddresses(config);
      for (const m of movedAddresses(config)) {
        // The target must exist; the source must not (Terraform rejects both mistakes).
        expect(current).toContain(m.to.replace(/\[[^\]]*\]$/, ""));
        expect(current).not.toContain(m.from);
      }
    });
  });
});

describe("compareAddresses", () => {
  const recorded = [
    "coder_agent.main",
    "data.coder_parameter.size",
    "kubernetes_persistent_volume_claim_v1.home",
  ];
  const config = (moved?: unknown) => ({
    resource: {
      coder_agent: { main: {} },
      kubernetes_persistent_volume_claim_v1: { data: {} },
    },
    ...(moved ? { moved } : {}),
  });

  it("reports a renamed PVC without a moved block as uncovered", () => {
    const changes = compareAddresses(recorded, config());
    expect(changes.added).toEqual(["kubernetes_persistent_volume_claim_v1.data"]);
    expect(changes.removed).toEqual([
      "data.coder_parameter.size",
      "kubernetes_persistent_volume_claim_v1.home",
    ]);
    expect(changes.uncovered).toEqual(["kubernetes_persistent_volume_claim_v1.home"]);
  });

  it("accepts the rename once a moved block covers it", () => {
    const moved = [
      {
        from: "kubernetes_persistent_volume_claim_v1.home",
        to: "kubernetes_persistent_volume_claim_v1.data",
      },
    ];
    expect(compareAddresses(recorded, config(moved)).uncovered).toEqual([]);
  });
});

describe("isMoveCovered", () => {
  const moved = [
    {
      from: "kubernetes_persistent_volume_claim_v1.home",
      to: "kubernetes_persistent_volume_claim_v1.data",
    },
    { from: "module.old", to: "module.new" },
  ];

  it.each([
    ["kubernetes_persistent_volume_claim_v1.home", true],
    ["module.old.terraform_data.x", true],
    ["kubernetes_persistent_volume_claim_v1.other", false],
    // Data sources keep no state: dropping or renaming one is safe.
    ["data.coder_parameter.cpu", true],
  ])("%s → %s", (address, covered) => {
    expect(isMoveCovered(address, moved)).toBe(covered);
  });
});
