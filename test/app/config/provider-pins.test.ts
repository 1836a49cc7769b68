/**
 * templates.<id>.providers: the exact provider release a deployment's provisioners resolve.
 * The file's checks (one release per pinnable provider), then synth's: a pin outside the
 * template's computed bound fails with the file's position, the field, the release and the
 * bound (push locks a pin inside it: test/app/push/provider-lock.test.ts).
 */
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { ConfigError, parseOperatorConfig } from "../../../app/operator-config";
import { synthTemplates } from "../../../app/synth";

const KNOWN = ["kubernetes", "devcontainer", "packer-builder"];
const config = (pins: string) =>
  `{\n  "templates": {\n    "packer-builder": {\n      "providers": ${pins}\n    }\n  }\n}\n`;

const errorOf = (text: string): string => {
  try {
    parseOperatorConfig(text, "d.jsonc", KNOWN);
  } catch (e) {
    return (e as Error).message;
  }
  return "";
};

describe("the config file", () => {
  it("takes one release per pinnable provider", () => {
    const parsed = parseOperatorConfig(
      config(`{ "coder": "2.19.0", "kubernetes": "2.38.0" }`),
      "d.jsonc",
      KNOWN,
    );
    expect(parsed.templates?.get("packer-builder")?.providers).toEqual({
      coder: "2.19.0",
      kubernetes: "2.38.0",
    });
    expect(
      parseOperatorConfig(`{ "templates": { "kubernetes": {} } }`, "d.jsonc", KNOWN).templates?.get(
        "kubernetes",
      )?.providers,
    ).toEqual({});
  });

  it.each([
    [
      `{ "coder": "latest" }`,
      `d.jsonc:4:31: templates.packer-builder.providers.coder: "latest" is not allowed; expected one release, such as "2.19.0"`,
    ],
    [
      `{ "coder": ">= 2.17" }`,
      `templates.packer-builder.providers.coder: ">= 2.17" is not allowed`,
    ],
    [
      `{ "devcontainerbuilder": "1.0.0" }`,
      `templates.packer-builder.providers.devcontainerbuilder: unknown field`,
    ],
  ])("refuses %s", (pins, message) => {
    expect(errorOf(config(pins))).toContain(message);
  });
});

describe("synth", () => {
  const synthWith = (pins: string) => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "pins-"));
    try {
      const parsed = parseOperatorConfig(config(pins), "d.jsonc", KNOWN);
      return synthTemplates({ outdir: dir, only: ["packer-builder"], config: parsed });
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  };

  it("refuses a release below the template's bound, naming the position and the bound", () => {
    // packer-builder needs coder >= 2.12.0 (the claude-code module's own requirement).
    expect(() => synthWith(`{ "coder": "2.11.0" }`)).toThrow(ConfigError);
    expect(() => synthWith(`{ "coder": "2.11.0" }`)).toThrow(
      `d.jsonc:4:31: templates.packer-builder.providers.coder: 2.11.0 is outside the template's bound ">= 2.12.0"`,
    );
    expect(() => synthWith(`{ "kubernetes": "4.0.0" }`)).toThrow(
      `4.0.0 is outside the template's bound ">= 2.19.0, < 4.0.0"`,
    );
  });

  it("takes a release inside it", () => {
    expect(synthWith(`{ "coder": "2.12.0", "kubernetes": "3.2.1" }`).map((t) => t.id)).toEqual([
      "packer-builder",
    ]);
  });
});
