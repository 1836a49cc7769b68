/**
 * protocol.json from the vendored .proto files (protobufjs's full build, with the parser,
 * which the mock itself never loads). Regenerate with
 *   node scripts/ts.js packages/terraform-harness/src/mock-provider/protocol-json.ts --write
 */
import { writeFileSync } from "node:fs";
import { relative } from "node:path";
import * as protobuf from "protobufjs";
import { harnessFile } from "../package-files";
import { PROTOCOL_FILE } from "./protocol-services";

const PROTO_FILES = ["tfplugin6.proto", "go-plugin.proto", "health.proto"];

// keepCase: map fields such as resource_schemas must keep their names, or they vanish silently.
const PARSE_OPTIONS: protobuf.IParseOptions = { keepCase: true };

/** protocol.json's content for the .proto files. */
export function protocolFromProtoFiles(): string {
  const root = new protobuf.Root().loadSync(
    PROTO_FILES.map((f) => harnessFile("mock-provider", f)),
    PARSE_OPTIONS,
  );
  return `${JSON.stringify(root.toJSON(), null, 2)}\n`;
}

if (process.argv[1] === __filename) {
  if (process.argv[2] !== "--write") {
    process.stderr.write(
      "usage: node scripts/ts.js packages/terraform-harness/src/mock-provider/protocol-json.ts --write\n",
    );
    process.exit(2);
  }
  writeFileSync(PROTOCOL_FILE, protocolFromProtoFiles());
  process.stdout.write(`wrote ${relative(process.cwd(), PROTOCOL_FILE)}\n`);
}
