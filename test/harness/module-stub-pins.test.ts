import * as fs from "fs";
import * as path from "path";
import { TEMPLATES } from "../../app/registry";
import { IDE_MODULES } from "../../lib/constructs/ide-modules";
import { CLAUDE_CODE_MODULE, CLAUDE_CODE_VERSION } from "../../lib/constructs/claude-code";
import { USER_CONFIG_MODULES } from "../../lib/constructs/user-config-modules";
import { synthTemplate } from "../support/synth-template";
import { MODULE_STUBS_DIR, stubNameFor } from "@coder-cdktf/terraform-harness/src/template-workdir";

// Every registry module a template calls is pinned, and the plan harness replaces it with
// the stub in module-stubs/<name>. A stub stands for one release: its first line names the
// module and the version whose inputs and outputs it copies. When a pin moves without its
// stub, the plan tests would check the template against another release's interface.

const HEADER = /^# Offline stand-in for (\S+) (\d+\.\d+\.\d+):/;

interface ModuleCall {
  readonly template: string;
  readonly name: string;
  readonly source: string;
  readonly version: unknown;
}

function stubRelease(stub: string): { source: string; version: string } | undefined {
  const first = fs.readFileSync(path.join(MODULE_STUBS_DIR, stub, "main.tf"), "utf8");
  const match = HEADER.exec(first);
  return match ? { source: match[1], version: match[2] } : undefined;
}

const calls: ModuleCall[] = TEMPLATES.flatMap((t) => {
  const json = synthTemplate(t.id).config as {
    module?: Record<string, { source: string; version?: unknown }>;
  };
  return Object.entries(json.module ?? {}).map(([name, block]) => ({
    template: t.id,
    name,
    source: block.source,
    version: block.version,
  }));
});

it("finds the registry modules of the templates", () => {
  expect(calls.length).toBeGreaterThan(0);
});

it("has a stub header naming its module and release in every stub", () => {
  const stubs = fs.readdirSync(MODULE_STUBS_DIR).filter((d) => !d.startsWith("."));
  for (const stub of stubs) {
    const release = stubRelease(stub);
    // `<name>@<version>`: an older release, for the upgrade tests' earlier template versions.
    const [name, version] = stub.split("@");
    expect({ stub, release }).toEqual({
      stub,
      release: {
        source: `registry.coder.com/coder/${name}/coder`,
        version: version ?? expect.any(String),
      },
    });
  }
});

it.each(calls.map((c) => [`${c.template}: module.${c.name}`, c] as const))(
  "%s is pinned to the release its stub describes",
  (_, call) => {
    const stub = stubNameFor(call.source);
    expect(stub).toBeDefined();
    expect({ source: call.source, version: call.version }).toEqual(stubRelease(stub!));
  },
);

// The library's IDE constructs pin modules too, some used by no template here (JetBrains
// Gateway): their plan tests (test/constructs/building-blocks.test.ts) see the stub's release.
const LIBRARY_PINS = {
  ...IDE_MODULES,
  ...USER_CONFIG_MODULES,
  claudeCode: { source: CLAUDE_CODE_MODULE, version: CLAUDE_CODE_VERSION },
};
it.each(Object.entries(LIBRARY_PINS))("the library's %s pin is its stub's release", (_, pin) => {
  const stub = stubNameFor(pin.source);
  expect(stub).toBeDefined();
  expect({ source: pin.source, version: pin.version }).toEqual(stubRelease(stub!));
});
