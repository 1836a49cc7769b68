/**
 * Issue 43.10: 1,000 labelled forwardPorts made a build 7.8–13.5× a plain one. Terraform
 * evaluates both sides of a conditional, so the label cut (about a hundred function calls per
 * label) ran for every label, not only for those over 64 bytes. The port table is derived
 * once from the entries read: the labels made display names (the cut only where one is too
 * long), then `local.ports`, which the apps and the slot warning read. These tests plan 1,000
 * labelled ports (real Terraform, mock providers) and read the expressions' shape; the ratio
 * is measured with real Terraform in docs/performance.md, never timed here.
 */
import { BadInputPlanner, type PlannedWorkspace } from "./bad-inputs";
import { metadata, synthesizeDevcontainer } from "./synthesized";
import { DISPLAY_NAME_MAX_BYTES } from "../../../lib/devcontainer/repository-values";
import { FORWARD_PORTS_READ } from "../../../lib/devcontainer/source";

jest.setTimeout(180_000);

const range = (n: number) => Array.from({ length: n }, (_, i) => i);
/** Every 100th label is over the limit (two-byte characters), the rest are short. */
const label = (i: number) => (i % 100 === 0 ? `${"é".repeat(40)}${i}` : `Port label ${i}`);
const LABELLED = range(FORWARD_PORTS_READ).map((i) => ({
  port: i + 1,
  label: label(i),
  protocol: null,
  on_auto_forward: null,
}));

describe("devcontainer template: one port table for 1,000 labelled forwardPorts (issue 43.10)", () => {
  let planner: BadInputPlanner;
  let labelled: PlannedWorkspace;
  let locals: Record<string, string>;

  beforeAll(async () => {
    const template = synthesizeDevcontainer();
    locals = template.config.locals as Record<string, string>;
    template.cleanup();
    planner = await BadInputPlanner.start();
    labelled = await planner.plan(metadata({ forward_ports: LABELLED }));
  });
  afterAll(async () => {
    await planner?.stop();
  });

  it("names the first apps after their labels, the long ones cut to 64 bytes", () => {
    expect(labelled.ports[0].displayName).toBe("é".repeat(DISPLAY_NAME_MAX_BYTES / 2));
    expect(labelled.ports.slice(1).map((p) => p.displayName)).toEqual(
      range(labelled.ports.length).slice(1).map(label),
    );
    const cut = labelled.warnings.filter((w) => / is longer than 64 bytes; /.test(w));
    expect(cut).toHaveLength(FORWARD_PORTS_READ / 100);
    expect(cut[9]).toBe(
      `portsAttributes label "${label(900)}" of forwardPorts[900] is longer than 64 bytes; the app is named "${"é".repeat(32)}".`,
    );
    expect(labelled.warnings).toContainEqual(
      expect.stringMatching(/^forwardPorts has 1000 ports and the template 10 port apps/),
    );
  });

  it("cuts only the labels over the limit: no conditional holds the cut", () => {
    // The cut is the only expression that takes substr() of a label.
    const cutting = Object.keys(locals).filter((name) => /substr\(\(?label\b/.test(locals[name]));
    expect(cutting).toEqual(["forward_ports_labels_cut"]);
    expect(locals.forward_ports_labels_cut).toMatch(
      /^\$\{\{\s*for index, label in local\.forward_ports_labels : index => [\s\S]* if local\.forward_ports_labels_too_long\[index\]\s*\}\}$/,
    );
    expect(locals.forward_ports_names).toBe(
      "${[for index, label in local.forward_ports_labels : lookup(local.forward_ports_labels_cut, index, label)]}",
    );
  });

  it("derives the table once from the entries read; the apps and the slot warning read local.ports", () => {
    const readers = Object.keys(locals).filter((name) =>
      /local\.forward_ports_read\b/.test(locals[name]),
    );
    expect(readers.sort()).toEqual([
      "forward_ports_labels",
      "forward_ports_numbers_valid",
      "port_warnings",
      "ports_valid",
    ]);
    const portsReaders = Object.keys(locals).filter((name) =>
      /local\.ports\b(?!_)/.test(locals[name]),
    );
    expect(portsReaders).toContain("warning_lines");
    expect(portsReaders).not.toContain("ports");
  });
});
