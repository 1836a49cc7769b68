/**
 * A Terraform provider mirror made by the test itself, so that `terraform providers lock
 * -fs-mirror` runs offline: fake provider archives in the packed layout
 * `<mirror>/registry.terraform.io/<namespace>/<type>/terraform-provider-<type>_<version>_<os>_<arch>.zip`.
 * Each archive holds one small file named as a provider binary; Terraform hashes an archive's
 * contents and never runs it while locking. The zip is written here (stored, no compression),
 * so the test needs no `zip` tool.
 */
import { createHash } from "node:crypto";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";

/** One archive in the mirror: provider `namespace/type`, a version, a platform (`linux_amd64`). */
export interface MirroredPackage {
  readonly provider: string;
  readonly version: string;
  readonly platform: string;
}

/** What an archive holds: its one file's name and contents. */
export interface PackageContents {
  readonly name: string;
  readonly data: Buffer;
}

/** Writes the packages into `mirror` and returns what each archive holds, in the same order. */
export function writeProviderMirror(
  mirror: string,
  packages: readonly MirroredPackage[],
): PackageContents[] {
  return packages.map(({ provider, version, platform }) => {
    const [namespace, type] = provider.split("/");
    const dir = join(mirror, "registry.terraform.io", namespace, type);
    mkdirSync(dir, { recursive: true });
    const contents = {
      name: `terraform-provider-${type}_v${version}`,
      data: Buffer.from(`#!/bin/sh\n# not a provider: ${provider} ${version} ${platform}\n`),
    };
    writeFileSync(
      join(dir, `terraform-provider-${type}_${version}_${platform}.zip`),
      storedZip(contents),
    );
    return contents;
  });
}

/**
 * The `h1:` checksum Terraform records for an archive: SHA-256 over the lines
 * `<sha256 hex of the file>  <name>\n` of its files in name order, base64 (Go's dirhash
 * Hash1, which Terraform applies to provider packages).
 */
export function h1Hash(files: readonly PackageContents[]): string {
  const summary = [...files]
    .sort((a, b) => (a.name < b.name ? -1 : 1))
    .map((f) => `${createHash("sha256").update(f.data).digest("hex")}  ${f.name}\n`)
    .join("");
  return `h1:${createHash("sha256").update(summary).digest("base64")}`;
}

/** A zip archive of one file, stored (PKWARE APPNOTE: local header, data, central directory). */
function storedZip({ name, data }: PackageContents): Buffer {
  const fileName = Buffer.from(name, "utf8");
  const crc = crc32(data);
  const local = Buffer.alloc(30);
  local.writeUInt32LE(0x04034b50, 0);
  local.writeUInt16LE(20, 4); // version needed
  local.writeUInt16LE(0x21, 12); // date: 1980-01-01
  local.writeUInt32LE(crc, 14);
  local.writeUInt32LE(data.length, 18);
  local.writeUInt32LE(data.length, 22);
  local.writeUInt16LE(fileName.length, 26);
  const central = Buffer.alloc(46);
  central.writeUInt32LE(0x02014b50, 0);
  central.writeUInt16LE((3 << 8) | 20, 4); // made by: Unix
  central.writeUInt16LE(20, 6);
  central.writeUInt16LE(0x21, 14);
  central.writeUInt32LE(crc, 16);
  central.writeUInt32LE(data.length, 20);
  central.writeUInt32LE(data.length, 24);
  central.writeUInt16LE(fileName.length, 28);
  central.writeUInt32LE((0o100755 << 16) >>> 0, 38); // external attributes: an executable
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(1, 8);
  end.writeUInt16LE(1, 10);
  end.writeUInt32LE(central.length + fileName.length, 12);
  end.writeUInt32LE(local.length + fileName.length + data.length, 16);
  return Buffer.concat([local, fileName, data, central, fileName, end]);
}

/** CRC-32 (IEEE), as zip records it. */
function crc32(data: Buffer): number {
  let crc = 0xffffffff;
  for (const byte of data) {
    crc ^= byte;
    for (let bit = 0; bit < 8; bit++) crc = (crc >>> 1) ^ (0xedb88320 & -(crc & 1));
  }
  return (crc ^ 0xffffffff) >>> 0;
}
