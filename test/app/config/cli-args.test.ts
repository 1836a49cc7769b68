/** The CLIs' command lines, read with node:util parseArgs (app/cli-args.ts, configFlag). */
import { parseCommandLine, UsageError } from "../../../app/cli-args";
import { configFlag } from "../../../app/load-config";
import { thrownMessage } from "../../support/thrown-message";

const OPTIONS = {
  message: { type: "string", short: "m" },
  "dry-run": { type: "boolean" },
  var: { type: "string", multiple: true },
} as const;

describe("parseCommandLine", () => {
  it("reads --flag value, --flag=value, short and repeated flags and positionals", () => {
    const { values, positionals } = parseCommandLine(
      ["t", "-m", "hi", "--dry-run", "--var=a=1", "--var", "b=2"],
      OPTIONS,
      "usage: x",
    );
    expect(values).toEqual({ message: "hi", "dry-run": true, var: ["a=1", "b=2"] });
    expect(positionals).toEqual(["t"]);
  });

  it.each([
    [["--bogus"], "unknown option --bogus\nusage: x"],
    [["--message"], "--message needs a value\nusage: x"],
    [["-m"], "--message needs a value\nusage: x"],
  ])("%j is a usage error naming the flag", (argv, message) => {
    expect(thrownMessage(UsageError, () => parseCommandLine(argv, OPTIONS, "usage: x"))).toBe(
      message,
    );
  });
});

describe("configFlag", () => {
  it("finds --config in any command line and ignores the command's own flags", () => {
    expect(configFlag(["kubernetes", "--dry-run", "--config", "a.jsonc"])).toBe("a.jsonc");
    expect(configFlag(["--config=b.jsonc"])).toBe("b.jsonc");
    expect(configFlag(["--other", "x"])).toBeUndefined();
  });

  it("refuses --config without a file", () => {
    expect(() => configFlag(["--config"])).toThrow("--config needs a file");
    expect(() => configFlag(["--config", "--dry-run"])).toThrow("--config needs a file");
  });
});
