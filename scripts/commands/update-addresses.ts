/**
 * `npm run addresses:update`: synthesizes every template and rewrites
 * test/addresses/<template>.txt with its current resource addresses.
 *
 * Run it only after reading docs/upgrading.md: a removed address destroys the resource in
 * every existing workspace unless a moved block (lib/core/moved.ts) covers it. This script
 * refuses to record such a removal unless `--allow-removal` is passed.
 */
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import {
  isMoveCovered,
  movedAddresses,
  readRecordedAddresses,
  templateAddresses,
  writeRecordedAddresses,
} from "../../app/template-addresses";
import { synthTemplates } from "../../app/synth";

function main(argv: readonly string[]): number {
  const allowRemoval = argv.includes("--allow-removal");
  const outdir = fs.mkdtempSync(path.join(os.tmpdir(), "addresses-"));
  try {
    let refused = false;
    for (const t of synthTemplates({ outdir })) {
      const config = t.model;
      const current = templateAddresses(config);
      const recorded = readRecordedAddresses(t.id) ?? [];
      const moved = movedAddresses(config);
      const uncovered = recorded.filter((a) => !current.includes(a) && !isMoveCovered(a, moved));
      if (uncovered.length > 0 && !allowRemoval) {
        process.stderr.write(
          `${t.id}: not updated; these addresses disappear without a moved block, which ` +
            `destroys them in existing workspaces:\n  ${uncovered.join("\n  ")}\n` +
            `Add moved blocks (lib/core/moved.ts), or pass --allow-removal if that is intended.\n`,
        );
        refused = true;
        continue;
      }
      writeRecordedAddresses(t.id, current);
      const added = current.filter((a) => !recorded.includes(a)).length;
      const removed = recorded.filter((a) => !current.includes(a)).length;
      process.stdout.write(`${t.id}: ${current.length} addresses (+${added} -${removed})\n`);
    }
    return refused ? 1 : 0;
  } finally {
    fs.rmSync(outdir, { recursive: true, force: true });
  }
}

process.exitCode = main(process.argv.slice(2));
