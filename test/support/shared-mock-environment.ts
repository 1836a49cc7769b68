/**
 * jest testEnvironment: Node's, plus one mock provider process per jest worker for the plan
 * harness (packages/terraform-harness/src/shared-mock.ts). A worker runs many test files and
 * resets the module registry for each, but loads this module once with its own require: the
 * SharedMock below lives as long as the worker, is started by the first harness that asks,
 * and is started again when it has died. Each test file gets it under SHARED_MOCK_GLOBAL
 * (test/support/harness-setup.ts hands it to the harness). Without this, every test file that
 * plans started its own process (~50 per `npm test`, ~0.12 s of CPU each).
 */
import { TestEnvironment } from "jest-environment-node";
import { SHARED_MOCK_GLOBAL, SharedMock } from "@coder-cdktf/terraform-harness/src/shared-mock";

/** This worker's mock (its environment: the worker's, which every test file copies). */
const shared = new SharedMock();
// Stopped once the worker has nothing left to do, so that it exits before the worker and is
// reaped by it (its CPU time then counts in the worker's, as an unshared mock's did). A
// worker that is killed instead closes the mock's stdin, which ends it too.
process.once("beforeExit", () => void shared.stop());

export default class SharedMockEnvironment extends TestEnvironment {
  constructor(...args: ConstructorParameters<typeof TestEnvironment>) {
    super(...args);
    this.global[SHARED_MOCK_GLOBAL] = shared.provider;
  }
}
