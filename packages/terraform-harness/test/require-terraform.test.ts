import { chmodSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { CHECKED_TERRAFORM_ENV, compareVersions, requireTerraform } from "../src/terraform-cli";

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
      "Terraform >= 1.9 is required on PATH to run the plan tests (terraform was not found;",
    );
  });

  it("fails when the terraform on PATH is too old", async () => {
    const dir = tempDir();
    const fake = join(dir, "terraform");
    writeFileSync(fake, '#!/bin/sh\necho \'{"terraform_version":"1.4.6"}\'\n');
    chmodSync(fake, 0o755);
    await expect(requireTerraform({ path: dir })).rejects.toThrow(
      "Terraform >= 1.9 is required on PATH to run the plan tests (found 1.4.6;",
    );
  });

  it("returns the version of the terraform on PATH", async () => {
    const version = await requireTerraform();
    expect(compareVersions(version, "1.9.0")).toBeGreaterThanOrEqual(0);
  });

  describe("with a check recorded for the whole run", () => {
    const saved = process.env[CHECKED_TERRAFORM_ENV];
    afterEach(() => {
      if (saved === undefined) delete process.env[CHECKED_TERRAFORM_ENV];
      else process.env[CHECKED_TERRAFORM_ENV] = saved;
    });

    it("uses it for the PATH it searched, without running terraform", async () => {
      const empty = tempDir();
      process.env[CHECKED_TERRAFORM_ENV] = JSON.stringify({ path: empty, version: "1.9.8" });
      await expect(requireTerraform({ path: empty })).resolves.toBe("1.9.8");
    });

    it("checks again for another PATH, or when the recorded version is too old", async () => {
      const [other, old] = [tempDir(), tempDir()];
      process.env[CHECKED_TERRAFORM_ENV] = JSON.stringify({ path: tempDir(), version: "1.9.8" });
      await expect(requireTerraform({ path: other })).rejects.toThrow("terraform was not found");
      process.env[CHECKED_TERRAFORM_ENV] = JSON.stringify({ path: old, version: "1.4.6" });
      await expect(requireTerraform({ path: old })).rejects.toThrow("terraform was not found");
    });
  });

  it("compares versions numerically", () => {
    expect(compareVersions("1.11.4", "1.5.0")).toBeGreaterThan(0);
    expect(compareVersions("1.5.0", "1.5")).toBe(0);
    expect(compareVersions("1.4.9", "1.5.0")).toBeLessThan(0);
  });
});
