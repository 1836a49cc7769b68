// `npm run admission-policy [-- --config <file>] [--out <file>]`: prints (or writes) the
// ValidatingAdmissionPolicy and binding operators apply to packer-builder's shared build
// namespace on Harvester (docs/templates/packer-builder.md). The namespace is the
// packer-builder identityNamespace setting of the operator configuration, else packer-dev.
import * as fs from "fs";
import { admissionPolicyFile } from "../../app/admission-policy";

function option(argv: readonly string[], name: string): string | undefined {
  const at = argv.indexOf(name);
  return at >= 0 ? argv[at + 1] : undefined;
}

try {
  const argv = process.argv.slice(2);
  const content = admissionPolicyFile(option(argv, "--config"));
  const out = option(argv, "--out");
  if (out !== undefined) {
    fs.writeFileSync(out, content);
    process.stderr.write(`wrote ${out}\n`);
  } else {
    process.stdout.write(content);
  }
} catch (e) {
  process.stderr.write(`admission-policy failed: ${e instanceof Error ? e.message : String(e)}\n`);
  process.exit(1);
}
