import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { blockAddress } from "../src/diagnostics";
import { planExpressions } from "../src/index";

describe("blockAddress", () => {
  it("names the block of a .tf header and of a .tf.json key path alike", () => {
    expect(blockAddress('check "cpu_fits"')).toBe("check.cpu_fits");
    expect(blockAddress("check.cpu_fits.assert[0]")).toBe("check.cpu_fits");
    expect(blockAddress('resource "coder_agent" "main"')).toBe("resource.coder_agent.main");
    expect(blockAddress("resource.coder_agent.main.env[2]")).toBe("resource.coder_agent.main");
    expect(blockAddress("locals")).toBe("locals");
    expect(blockAddress("something else")).toBe("something else");
  });
});

describe("a failed check's warning", () => {
  const dirs: string[] = [];
  afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));
  const dirWith = (file: string, text: string): string => {
    const dir = mkdtempSync(join(tmpdir(), "diagnostics-"));
    dirs.push(dir);
    writeFileSync(join(dir, file), text);
    return dir;
  };

  it("points at the same block from a .tf file as from a .tf.json file", async () => {
    const hcl = dirWith(
      "main.tf",
      'variable "x" {\n  default = 1\n}\n\ncheck "c" {\n  assert {\n    condition     = var.x == 2\n    error_message = "no"\n  }\n}\n',
    );
    const json = dirWith(
      "main.tf.json",
      JSON.stringify({
        variable: { x: { default: 1 } },
        check: { c: { assert: [{ condition: "${var.x == 2}", error_message: "no" }] } },
      }),
    );
    const [a, b] = [await planExpressions(hcl), await planExpressions(json)];
    expect(a.warnings.map((w) => w.address)).toEqual(["check.c"]);
    expect(b.warnings).toEqual(a.warnings);
  });
});
