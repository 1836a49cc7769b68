/**
 * One mock provider process for many harnesses. Each {@link TerraformHarness.start} spawns its
 * own process by default (~0.12 s of CPU for Node's start, protobufjs and the codecs); a test
 * runner whose workers run many test files in one process can hand the harness a process it
 * keeps for all of them instead (setSharedMockProvider). Sharing is safe because every
 * harness call opens its own server set with its own fixtures file and closes it afterwards
 * (the memo of repeated requests lives in that set's servers), and a harness never stops a
 * shared process: its stop() only refuses further calls (see TerraformHarness.stop).
 *
 * The project's jest environment (test/support/shared-mock-environment.ts) keeps one
 * {@link SharedMock} per worker and hands it to each test file under
 * {@link SHARED_MOCK_GLOBAL}; test/support/harness-setup.ts passes it on here. Outside jest
 * (preview, bench, scripts) no provider is set and nothing is shared.
 */
import { MockProviderProcess } from "./mock-provider-process";

/**
 * Gives a harness the shared process for the mock's environment variables (what
 * {@link mockEnvironment} returns in the harness's process), or undefined when it has none
 * for them: the harness then starts its own.
 */
export type SharedMockProvider = (
  environment: Readonly<Record<string, string>>,
) => Promise<MockProviderProcess> | undefined;

/** The global under which a test environment hands its {@link SharedMockProvider} to test files. */
export const SHARED_MOCK_GLOBAL = "__terraformHarnessSharedMock";

let provider: SharedMockProvider | undefined;

/** Sets where {@link TerraformHarness.start} gets a shared mock process; undefined: nowhere (the default). */
export function setSharedMockProvider(shared: SharedMockProvider | undefined): void {
  provider = shared;
}

/** The shared process for this process's mock environment, if a provider has one. */
export function sharedMockProcess(): Promise<MockProviderProcess> | undefined {
  return provider?.(mockEnvironment(process.env));
}

/**
 * The variables that change what the mock does (TFMOCK_*: schemas, call and CPU logs): a
 * test file that sets one gets a process of its own, started with it.
 */
export function mockEnvironment(env: NodeJS.ProcessEnv): Record<string, string> {
  return Object.fromEntries(
    Object.entries(env)
      .filter(
        (entry): entry is [string, string] =>
          entry[0].startsWith("TFMOCK_") && entry[1] !== undefined,
      )
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)),
  );
}

/**
 * A mock provider process started on first use and started again when it has died (a test
 * killed it, or it crashed), so one broken file does not break the next. It never holds its
 * owner's event loop while idle; it exits when its owner does (its stdin closes).
 */
export class SharedMock {
  private current: Promise<MockProviderProcess> | undefined;
  private started: MockProviderProcess | undefined;
  private readonly key: string;

  /** Shares a process started with this process's environment (`env`: its mock variables). */
  constructor(env: NodeJS.ProcessEnv = process.env) {
    this.key = JSON.stringify(mockEnvironment(env));
  }

  /** The {@link SharedMockProvider} of this process. */
  readonly provider: SharedMockProvider = (environment) => this.get(environment);

  /** The running process, when `environment` is the one it runs with; else undefined. */
  get(environment: Readonly<Record<string, string>>): Promise<MockProviderProcess> | undefined {
    if (JSON.stringify(environment) !== this.key) return undefined;
    if (this.current && this.started && !this.started.running) this.current = undefined;
    if (!this.current) {
      const starting = MockProviderProcess.start().then((mock) => {
        mock.unrefWhileIdle();
        if (this.current === starting) this.started = mock;
        return mock;
      });
      // A start that failed is tried again by the next caller.
      starting.catch(() => {
        if (this.current === starting) this.current = undefined;
      });
      this.started = undefined;
      this.current = starting;
    }
    return this.current;
  }

  /** Stops the process, if one runs (the next {@link get} starts another). */
  async stop(): Promise<void> {
    const current = this.current;
    this.current = undefined;
    this.started = undefined;
    const mock = await current?.catch(() => undefined);
    await mock?.stop();
  }
}
