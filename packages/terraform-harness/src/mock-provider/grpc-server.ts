/**
 * The part of a gRPC server the mock needs, on Node's own HTTP/2: unary calls only, framed as
 * gRPC frames them (a 5-byte prefix: compressed flag and length), with the method definitions
 * protocol-services.ts builds (path and (de)serializers). Terraform's client (grpc-go) speaks
 * HTTP/2 with prior knowledge over the unix socket, or over TLS in plugin mode.
 *
 * Why not @grpc/grpc-js: its per-call machinery (interceptors, stream wrappers, channelz) was
 * about half of the mock's CPU time, and loading it a quarter of the mock's start-up; a plan
 * makes ~120 calls. Streaming methods (go-plugin's stdio and broker streams) are answered
 * UNIMPLEMENTED, which go-plugin tolerates.
 */
import * as http2 from "node:http2";
import type { Message, MethodDefinition, ServiceDefinition } from "./protocol-services";

/** A handler's callback, grpc-js style: an error, or the response message. */
export type Callback = (error: Error | null, response?: object) => void;

/** A unary method's handler. */
export type Handler = (call: { readonly request: Message }, callback: Callback) => void;

/** TLS for plugin mode, as PEM: the server's key and certificate, the CA of client certificates. */
export interface ServerTls {
  readonly key: string;
  readonly cert: string;
  readonly clientCa: string;
}

interface RegisteredMethod {
  readonly definition: MethodDefinition;
  readonly handler: Handler;
  /** The response message sent for each request body, for methods whose response depends on the request alone. */
  readonly responses?: Map<string, Buffer>;
}

/** gRPC status codes used here. */
const Status = { OK: 0, UNKNOWN: 2, INTERNAL: 13, UNIMPLEMENTED: 12 };

export class GrpcServer {
  private readonly methods = new Map<string, RegisteredMethod>();
  private readonly sessions = new Set<http2.ServerHttp2Session>();
  private server: http2.Http2Server | http2.Http2SecureServer | undefined;

  /**
   * Registers the unary methods of `service` (a definition from protocol-services.ts) with their
   * handlers `(call: { request }, callback: (error, response) => void)`, grpc-js style.
   * The methods named in `options.memoize` answer a request body they have answered before
   * with the same response, without decoding it again: a module batch plans the same
   * resource configuration once per instance (~90% of its calls repeat an earlier one).
   */
  addService(
    service: ServiceDefinition,
    implementation: Readonly<Record<string, Handler>>,
    options: { readonly memoize?: readonly string[] } = {},
  ): void {
    const memoize = new Set(options.memoize || []);
    for (const [name, definition] of Object.entries(service)) {
      const handler = implementation[name];
      if (!handler || definition.requestStream || definition.responseStream) continue;
      const responses = memoize.has(name) ? new Map() : undefined;
      this.methods.set(definition.path, { definition, handler, responses });
    }
  }

  /**
   * Listens on the unix socket `socketPath`; with `tls` ({ key, cert, clientCa } as PEM) it
   * serves TLS and requires a client certificate signed by `clientCa`.
   */
  listen(socketPath: string, tls?: ServerTls): Promise<void> {
    const server = tls
      ? http2.createSecureServer({
          key: tls.key,
          cert: tls.cert,
          ca: tls.clientCa,
          requestCert: true,
          rejectUnauthorized: true,
        })
      : http2.createServer();
    this.server = server;
    server.on("session", (session) => {
      this.sessions.add(session);
      session.on("close", () => this.sessions.delete(session));
      session.on("error", () => undefined);
    });
    server.on("stream", (stream, headers) => this.onStream(stream, headers));
    return new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(socketPath, () => {
        server.off("error", reject);
        resolve();
      });
    });
  }

  /** Stops listening and drops every connection at once. */
  forceShutdown(): void {
    if (!this.server) return;
    this.server.close();
    for (const session of this.sessions) session.destroy();
    this.sessions.clear();
  }

  private onStream(stream: http2.ServerHttp2Stream, headers: http2.IncomingHttpHeaders): void {
    stream.on("error", () => undefined);
    const method = this.methods.get(headers[":path"] ?? "");
    if (!method) {
      endWithStatus(stream, Status.UNIMPLEMENTED, `unknown method ${headers[":path"]}`);
      return;
    }
    const chunks: Buffer[] = [];
    stream.on("data", (chunk: Buffer) => chunks.push(chunk));
    stream.on("end", () => {
      const body = Buffer.concat(chunks);
      const key = method.responses ? body.toString("latin1") : undefined;
      const known = key === undefined ? undefined : method.responses?.get(key);
      if (known) {
        respondWith(stream, known);
        return;
      }
      let request: Message;
      try {
        request = method.definition.requestDeserialize(unframe(body));
      } catch (error) {
        endWithStatus(stream, Status.INTERNAL, `bad request: ${(error as Error).message}`);
        return;
      }
      method.handler({ request }, (error, response) => {
        if (error) {
          endWithStatus(stream, Status.UNKNOWN, String(error.message || error));
          return;
        }
        const message = method.definition.responseSerialize(response as object);
        if (key !== undefined) method.responses?.set(key, message);
        respondWith(stream, message);
      });
    });
  }
}

/** Answers the call with `message` (serialized) and status OK. */
function respondWith(stream: http2.ServerHttp2Stream, message: Buffer): void {
  if (stream.destroyed) return;
  stream.respond(
    { ":status": 200, "content-type": "application/grpc" },
    {
      waitForTrailers: true,
    },
  );
  stream.once("wantTrailers", () => stream.sendTrailers({ "grpc-status": String(Status.OK) }));
  stream.end(frame(message));
}

/** The message of a request body holding one uncompressed gRPC frame. */
export function unframe(body: Buffer): Buffer {
  if (body.length < 5) throw new Error(`${body.length}-byte body is shorter than a frame header`);
  if (body[0] !== 0) throw new Error("compressed messages are not supported");
  const length = body.readUInt32BE(1);
  if (body.length !== 5 + length) {
    throw new Error(`frame says ${length} bytes, body has ${body.length - 5}`);
  }
  return body.subarray(5);
}

/** One uncompressed gRPC frame around `message`. */
export function frame(message: Buffer): Buffer {
  const framed = Buffer.allocUnsafe(5 + message.length);
  framed[0] = 0;
  framed.writeUInt32BE(message.length, 1);
  message.copy(framed, 5);
  return framed;
}

/** A trailers-only response: the call ends with `code` and no message. */
function endWithStatus(stream: http2.ServerHttp2Stream, code: number, message: string): void {
  if (stream.destroyed) return;
  stream.respond(
    {
      ":status": 200,
      "content-type": "application/grpc",
      "grpc-status": String(code),
      "grpc-message": encodeURIComponent(message),
    },
    { endStream: true },
  );
}
