/**
 * The mock provider's long-lived Node process (`mock-provider.js serve`, the bundle of mock-provider/provider.ts), driven over its stdin
 * control channel: each harness call opens its own set of provider servers (with its own
 * fixtures file) and gets the TF_REATTACH_PROVIDERS value pointing at them.
 */
import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import { createInterface } from "node:readline";
import { mockProviderEntry } from "./mock-provider-bundle";

/** How many characters of the mock's stderr are kept for error messages. */
const STDERR_KEPT = 64 * 1024;

/** A control-channel reply. */
interface ControlReply {
  readonly id?: string;
  readonly ready?: boolean;
  readonly reattach?: Record<string, unknown>;
  readonly closed?: boolean;
  readonly error?: string;
}

/** One open set of provider servers. */
export interface ProviderServerSet {
  /** Value for TF_REATTACH_PROVIDERS. */
  readonly reattach: string;
  close(): Promise<void>;
}

export class MockProviderProcess {
  private readonly pending = new Map<string, (reply: ControlReply) => void>();
  private nextId = 0;
  private stderr = "";
  private exited = false;
  private idleUnref = false;

  private constructor(private readonly child: ChildProcessWithoutNullStreams) {
    // The tail only (it ends error messages): a shared mock lives as long as a jest worker.
    child.stderr.on("data", (chunk: Buffer) => {
      this.stderr = (this.stderr + chunk.toString("utf8")).slice(-STDERR_KEPT);
    });
    createInterface({ input: child.stdout }).on("line", (line) => this.onLine(line));
    child.on("exit", () => {
      this.exited = true;
      const failure: ControlReply = { error: `mock provider exited: ${this.stderr.trim()}` };
      for (const resolve of this.pending.values()) resolve(failure);
      this.pending.clear();
      this.updateRef();
    });
  }

  /** Starts the process and waits until it is ready. */
  static async start(env: Readonly<Record<string, string>> = {}): Promise<MockProviderProcess> {
    // The mock verifies no public certificate (unix sockets, its own AutoMTLS pair), and
    // loading a NODE_EXTRA_CA_CERTS bundle costs ~70 ms of every test file's start.
    const inherited = Object.fromEntries(
      Object.entries(process.env).filter(([name]) => name !== "NODE_EXTRA_CA_CERTS"),
    );
    const child = spawn(process.execPath, [mockProviderEntry(), "serve"], {
      stdio: ["pipe", "pipe", "pipe"],
      env: { ...inherited, ...env },
    });
    const server = new MockProviderProcess(child);
    const ready = await server.request("ready", undefined);
    if (!ready.ready)
      throw new Error(`mock provider failed to start: ${ready.error ?? server.stderr}`);
    return server;
  }

  /** The process id of the mock. */
  get pid(): number | undefined {
    return this.child.pid;
  }

  /** Whether the process still runs (it may have exited, or been killed, since it started). */
  get running(): boolean {
    return !this.exited;
  }

  /**
   * Lets the Node process that started the mock exit while no request is pending: a mock
   * shared by a jest worker's test files (shared-mock.ts) must not keep the worker, or a
   * jest that runs in band, alive. When that process exits, the mock's stdin closes and it
   * exits too.
   */
  unrefWhileIdle(): void {
    this.idleUnref = true;
    this.updateRef();
  }

  /**
   * Opens provider servers that answer with the fixtures in `fixturesFile`, serving the
   * providers of `schemaFiles` (absolute paths of schema documents) instead of the default
   * ones of the same address.
   */
  async open(
    fixturesFile: string,
    schemaFiles: readonly string[] = [],
  ): Promise<ProviderServerSet> {
    const id = String(++this.nextId);
    const reply = await this.request(id, {
      op: "open",
      id,
      fixtures: fixturesFile,
      ...(schemaFiles.length > 0 ? { schemas: schemaFiles } : {}),
    });
    if (!reply.reattach) throw new Error(`mock provider could not open servers: ${reply.error}`);
    return {
      reattach: JSON.stringify(reply.reattach),
      close: async () => {
        if (this.exited) return;
        const closed = await this.request(id, { op: "close", id });
        if (!closed.closed)
          throw new Error(`mock provider could not close servers: ${closed.error}`);
      },
    };
  }

  /** Ends the process: closing stdin makes it stop its servers and exit. */
  async stop(): Promise<void> {
    if (this.exited) return;
    // Waiting for the exit holds the event loop, shared or not.
    this.idleUnref = false;
    this.holdEventLoop(true);
    const exited = new Promise<void>((resolve) => this.child.once("exit", () => resolve()));
    this.child.stdin.end();
    await exited;
  }

  private request(id: string, message: object | undefined): Promise<ControlReply> {
    if (this.exited)
      return Promise.resolve({ error: `mock provider exited: ${this.stderr.trim()}` });
    return new Promise((resolve) => {
      this.pending.set(id, resolve);
      this.updateRef();
      if (message) this.child.stdin.write(`${JSON.stringify(message)}\n`);
    });
  }

  /** With {@link unrefWhileIdle}: the child and its pipes hold the event loop only while a request waits. */
  private updateRef(): void {
    if (this.idleUnref) this.holdEventLoop(this.pending.size > 0);
  }

  private holdEventLoop(hold: boolean): void {
    const { child } = this;
    // The pipes are sockets, whose ref() and unref() the stream types do not show.
    const handles = [child, child.stdin, child.stdout, child.stderr] as unknown as {
      ref(): unknown;
      unref(): unknown;
    }[];
    for (const handle of handles) {
      if (hold) handle.ref();
      else handle.unref();
    }
  }

  private onLine(line: string): void {
    let reply: ControlReply;
    try {
      reply = JSON.parse(line) as ControlReply;
    } catch {
      return;
    }
    const id = reply.ready ? "ready" : reply.id;
    const resolve = id === undefined ? undefined : this.pending.get(id);
    if (id !== undefined && resolve) {
      this.pending.delete(id);
      this.updateRef();
      resolve(reply);
    }
  }
}
