/**
 * The gRPC services the mock serves (tfplugin6.Provider, go-plugin's GRPCController, the
 * health service), as method definitions: path, whether a side streams, and the message
 * (de)serializers, in the shape grpc-server.ts registers.
 *
 * They come from protocol.json, protobufjs's JSON form of the three vendored .proto files,
 * read with protobufjs's light build: parsing the .proto text at every mock start cost ~60 ms
 * (a third of the start), 31 times per `npm test`. protocol.json is generated, never edited
 * (protocol-json.ts writes it), and a test checks that it is what the .proto files give.
 */
import { readFileSync } from "node:fs";
import * as protobuf from "protobufjs/light";
import { harnessFile } from "../package-files";

/** protocol.json (found from the package, not from `__dirname`: the mock runs from a bundle in build/). */
export const PROTOCOL_FILE = harnessFile("mock-provider", "protocol.json");

/**
 * A decoded message as the handlers read it: 64-bit integers as numbers, enums by name,
 * absent fields absent, the set member of a oneof named by its oneof.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- each handler reads the fields of its own message type, which protobufjs's JSON descriptor does not type
export type Message = Record<string, any>;

/** One method of a service. */
export interface MethodDefinition {
  readonly path: string;
  readonly requestStream: boolean;
  readonly responseStream: boolean;
  requestDeserialize(bytes: Uint8Array): Message;
  responseSerialize(value: object): Buffer;
  /** The client's side, for tests that call the server. */
  requestSerialize(value: object): Buffer;
  responseDeserialize(bytes: Uint8Array): Message;
}

/** A service's methods by name. */
export type ServiceDefinition = Readonly<Record<string, MethodDefinition>>;

const OBJECT_OPTIONS: protobuf.IConversionOptions = {
  longs: Number,
  enums: String,
  defaults: false,
  oneofs: true,
};

/** Service definitions by fully qualified service name, then method name. */
export function loadServices(): Record<string, ServiceDefinition> {
  const root = protobuf.Root.fromJSON(
    JSON.parse(readFileSync(PROTOCOL_FILE, "utf8")) as protobuf.INamespace,
  );
  const services: Record<string, ServiceDefinition> = {};
  (function walk(namespace: protobuf.NamespaceBase, prefix: string) {
    for (const nested of namespace.nestedArray) {
      const name = prefix ? `${prefix}.${nested.name}` : nested.name;
      if (nested instanceof protobuf.Service) services[name] = serviceDefinition(nested, name);
      else if (nested instanceof protobuf.Namespace) walk(nested, name);
    }
  })(root, "");
  return services;
}

function serviceDefinition(service: protobuf.Service, serviceName: string): ServiceDefinition {
  const definition: Record<string, MethodDefinition> = {};
  for (const method of service.methodsArray) {
    method.resolve();
    const request = method.resolvedRequestType as protobuf.Type;
    const response = method.resolvedResponseType as protobuf.Type;
    definition[method.name] = {
      path: `/${serviceName}/${method.name}`,
      requestStream: Boolean(method.requestStream),
      responseStream: Boolean(method.responseStream),
      requestDeserialize: (bytes) => request.toObject(request.decode(bytes), OBJECT_OPTIONS),
      responseSerialize: (value) =>
        Buffer.from(response.encode(response.fromObject(value)).finish()),
      requestSerialize: (value) => Buffer.from(request.encode(request.fromObject(value)).finish()),
      responseDeserialize: (bytes) => response.toObject(response.decode(bytes), OBJECT_OPTIONS),
    };
  }
  return definition;
}
