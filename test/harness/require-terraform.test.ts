import { chmodSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { compareVersions, requireTerraform } from "./terraform-cli";

describe("requireTerraform", () => {
  const dirs: string[] = [];
  const tempDir = () => {
    const dir = mkdtempSync(join(tmpdir(), "require-tf-"));
    dirs.push(dir);
    return dir;
  };
  afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

  it("fails with a clear message when PATH has no terraform", async () => {
    await expect(requireTerraform({ path: tempDir() })).rejects.toThrow(
      "Terraform >= 1.5 is required on PATH to run the plan tests (terraform was not found;",
    );
  });

  it("fails when the terraform on PATH is too old", async () => {
    const dir = tempDir();
    const fake = join(dir, "terraform");
    writeFileSync(fake, '#!/bin/sh\necho \'{"terraform_version":"1.4.6"}\'\n');
    chmodSync(fake, 0o755);
    await expect(requireTerraform({ path: dir })).rejects.toThrow(
      "Terraform >= 1.5 is required on PATH to run the plan tests (found 1.4.6;",
    );
  });

  it("returns the version of the terraform on PATH", async () => {
    const version = await requireTerraform();
    expect(compareVersions(version, "1.5.0")).toBeGreaterThanOrEqual(0);
  });

  it("compares versions numerically", () => {
    expect(compareVersions("1.11.4", "1.5.0")).toBeGreaterThan(0);
    expect(compareVersions("1.5.0", "1.5")).toBe(0);
    expect(compareVersions("1.4.9", "1.5.0")).toBeLessThan(0);
  });
});
