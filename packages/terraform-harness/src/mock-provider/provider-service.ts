/**
 * The tfplugin6 Provider service for one provider schema, plus the go-plugin side services,
 * registered on a GrpcServer (grpc-server.ts).
 */
import * as fs from "node:fs";
import { type CtyType, decodeValue, encodeValue, toJson } from "./cty-values";
import type { FixtureFile } from "./fixtures";
import type { GrpcServer, Handler } from "./grpc-server";
import {
  loadServices,
  type Message,
  type MethodDefinition,
  type ServiceDefinition,
} from "./protocol-services";
import { blockType, type ProviderSchema, type SchemaBlock } from "./provider-schemas";
import * as behaviour from "./resource-behaviour";
import * as validation from "./validation";

/** What {@link addProviderServices} needs besides the server, the schema and the fixtures. */
export interface ProviderServiceOptions {
  /** Called after go-plugin's Shutdown is answered. */
  readonly onShutdown: () => void;
  /** A file that receives one line per RPC (TFMOCK_LOG). */
  readonly log?: string;
}

/** A resource or data source type's block and the cty type of its object value. */
interface TypedSchema {
  readonly block: SchemaBlock;
  readonly type: CtyType;
}

/**
 * Providers built on terraform-plugin-sdk v2, which plan with the legacy type system: their
 * planned values may differ from the configuration (defaults, zero values of expanded
 * objects) and Terraform accepts it.
 */
const SDK_V2_PROVIDERS = [
  "registry.terraform.io/coder/coder",
  "registry.terraform.io/hashicorp/kubernetes",
];

/** Service definitions by fully qualified service name (method name -> definition). */
const services = loadServices();
const service = (name: string): ServiceDefinition => {
  const definition = services[name];
  if (!definition) throw new Error(`protocol.json has no service ${name}`);
  return definition;
};
const PROVIDER = service("tfplugin6.Provider");
const CONTROLLER = service("plugin.GRPCController");
const HEALTH = service("grpc.health.v1.Health");

/**
 * The Provider service definition, except that a response already serialized (a Buffer) is
 * sent as it is: Terraform asks for the schema twice per command, and encoding the kubernetes
 * schema costs ~8 ms each time.
 */
const PROVIDER_SERVICE: ServiceDefinition = Object.fromEntries(
  Object.entries(PROVIDER).map(([method, definition]): [string, MethodDefinition] => [
    method,
    {
      ...definition,
      responseSerialize: (value) =>
        Buffer.isBuffer(value) ? value : definition.responseSerialize(value),
    },
  ]),
);

/** Methods whose response is a function of the request and the provider schema. */
const MEMOIZED_METHODS = [
  "ValidateResourceConfig",
  "ValidateDataResourceConfig",
  "UpgradeResourceState",
  "ReadResource",
  "PlanResourceChange",
];

/** Serialized GetProviderSchema responses, per provider schema. */
const schemaResponses = new WeakMap<ProviderSchema, Buffer>();

function schemaResponseBytes(provider: ProviderSchema): Buffer {
  let bytes = schemaResponses.get(provider);
  if (!bytes) {
    bytes = (PROVIDER.GetProviderSchema as MethodDefinition).responseSerialize(provider.toProto());
    schemaResponses.set(provider, bytes);
  }
  return bytes;
}

/** Block and cty type of a resource or data source type, per provider schema (built once). */
const typedSchemas = new WeakMap<ProviderSchema, Map<string, TypedSchema>>();

function typedSchema(
  provider: ProviderSchema,
  kind: "resource" | "data",
  typeName: string,
): TypedSchema {
  let byName = typedSchemas.get(provider);
  if (!byName) typedSchemas.set(provider, (byName = new Map()));
  const key = `${kind} ${typeName}`;
  let typed = byName.get(key);
  if (!typed) {
    const block = provider.schemaOf(kind, typeName).block || {};
    typed = { block, type: blockType(block) };
    byName.set(key, typed);
  }
  return typed;
}

/** A dynamic value (msgpack or JSON) decoded with its cty type; null when absent. */
function decode(dynamicValue: Message | undefined, type: CtyType): unknown {
  if (!dynamicValue) return null;
  if (dynamicValue.msgpack && dynamicValue.msgpack.length > 0)
    return decodeValue(dynamicValue.msgpack, type);
  if (dynamicValue.json && dynamicValue.json.length > 0)
    return JSON.parse((dynamicValue.json as Buffer).toString("utf8")) as unknown;
  return null;
}

/** A value as the msgpack dynamic value Terraform reads. */
function encode(value: unknown, type: CtyType): { msgpack: Buffer } {
  return { msgpack: encodeValue(value, type) };
}

/** Each method's answer to a request: a response message, or one already serialized. */
type MethodHandlers = Record<string, (request: Message) => object>;

/** The methods about the provider itself: its metadata, schema and configuration. */
function providerHandlers(provider: ProviderSchema): MethodHandlers {
  return {
    GetMetadata: () => ({
      server_capabilities: { plan_destroy: false, get_provider_schema_optional: true },
      diagnostics: [],
      resources: Object.keys(provider.resources).map((type_name) => ({ type_name })),
      data_sources: Object.keys(provider.dataSources).map((type_name) => ({ type_name })),
    }),
    GetProviderSchema: () => schemaResponseBytes(provider),
    ValidateProviderConfig: () => ({ diagnostics: [] }),
    ConfigureProvider: () => ({ diagnostics: [] }),
    GetFunctions: () => ({ functions: {}, diagnostics: [] }),
    StopProvider: () => ({}),
  };
}

/** The methods on managed resources: validate, upgrade, read, plan, apply and import. */
function resourceHandlers(provider: ProviderSchema, fixtures: FixtureFile): MethodHandlers {
  const typed = (typeName: string) => typedSchema(provider, "resource", typeName);
  const legacyTypeSystem = SDK_V2_PROVIDERS.includes(provider.address);
  return {
    ValidateResourceConfig: (req) => {
      const { type } = typed(req.type_name);
      return { diagnostics: validation.validateConfig(req.type_name, decode(req.config, type)) };
    },
    UpgradeResourceState: (req) => {
      const { block, type } = typed(req.type_name);
      const raw =
        req.raw_state && req.raw_state.json ? req.raw_state.json.toString("utf8") : "null";
      return { upgraded_state: encode(behaviour.upgradeState(block, raw), type), diagnostics: [] };
    },
    ReadResource: (req) => {
      // The mock's "remote objects" never drift: reading returns the stored state.
      const { type } = typed(req.type_name);
      return {
        new_state: encode(decode(req.current_state, type), type),
        diagnostics: [],
        private: req.private,
      };
    },
    PlanResourceChange: (req) => {
      const { block, type } = typed(req.type_name);
      const prior = decode(req.prior_state, type);
      const planned = validation.expandSecurityContexts(
        req.type_name,
        behaviour.planChange(block, prior, decode(req.proposed_new_state, type)),
      );
      return {
        planned_state: encode(planned, type),
        requires_replace: validation.requiresReplace(req.type_name, prior, planned),
        diagnostics: [],
        legacy_type_system: legacyTypeSystem,
      };
    },
    ApplyResourceChange: (req) => {
      const { block, type } = typed(req.type_name);
      const config = decode(req.config, type);
      const fixture = fixtures.valuesFor(
        "resource",
        req.type_name,
        config === null ? {} : toJson(config, null),
      );
      const applied = behaviour.applyChange(
        req.type_name,
        block,
        decode(req.planned_state, type),
        fixture,
      );
      return {
        new_state: encode(applied, type),
        diagnostics: [],
        legacy_type_system: legacyTypeSystem,
      };
    },
    ImportResourceState: (req) => {
      const { block, type } = typed(req.type_name);
      const fixture = fixtures.valuesFor("resource", req.type_name, { id: req.id });
      const state = behaviour.importState(block, req.id, fixture);
      return {
        imported_resources: [{ type_name: req.type_name, state: encode(state, type) }],
        diagnostics: [],
      };
    },
  };
}

/** The methods on data sources: validate and read. */
function dataSourceHandlers(provider: ProviderSchema, fixtures: FixtureFile): MethodHandlers {
  const typed = (typeName: string) => typedSchema(provider, "data", typeName);
  return {
    ValidateDataResourceConfig: (req) => {
      const { type } = typed(req.type_name);
      return { diagnostics: validation.validateConfig(req.type_name, decode(req.config, type)) };
    },
    ReadDataSource: (req) => {
      const { block, type } = typed(req.type_name);
      const config = decode(req.config, type);
      const fixture = fixtures.valuesFor("data", req.type_name, toJson(config));
      const state = behaviour.readDataSource(req.type_name, block, config, fixture);
      let diagnostics: validation.MockDiagnostic[] = [];
      if (req.type_name === "coder_parameter") {
        diagnostics = validation.validateParameter(config, state.value);
      } else if (req.type_name === "coder_secret") {
        const workspace = fixtures.valuesFor("data", "coder_workspace", {});
        diagnostics = validation.validateSecret(config, state.value, workspace.transition);
      }
      return { state: encode(state, type), diagnostics };
    },
  };
}

/**
 * `handler` as a gRPC handler that logs the call (TFMOCK_LOG) and answers an exception with
 * an error diagnostic.
 */
function grpcHandler(
  provider: ProviderSchema,
  method: string,
  handler: (request: Message) => object,
  log: string | undefined,
): Handler {
  return (call, callback) => {
    if (log)
      fs.appendFileSync(
        log,
        `${provider.address} ${method} ${String(call.request.type_name || "")}\n`,
      );
    try {
      callback(null, handler(call.request));
    } catch (error) {
      // Reported as a diagnostic so Terraform prints the mock's error instead of an RPC failure.
      callback(null, {
        diagnostics: [
          {
            severity: "ERROR",
            summary: `mock provider: ${method} failed`,
            detail: String((error as Error).stack || error),
          },
        ],
      });
    }
  };
}

/** Registers the services on `server`. */
export function addProviderServices(
  server: GrpcServer,
  provider: ProviderSchema,
  fixtures: FixtureFile,
  options: ProviderServiceOptions,
): void {
  const handlers: MethodHandlers = {
    ...providerHandlers(provider),
    ...resourceHandlers(provider, fixtures),
    ...dataSourceHandlers(provider, fixtures),
  };
  const implementation: Record<string, Handler> = {};
  for (const [method, handler] of Object.entries(handlers)) {
    implementation[method] = grpcHandler(provider, method, handler, options.log);
  }
  // Answers that depend on the request and the schema alone (not on the fixtures file, which
  // a long-lived server re-reads when it changes); TFMOCK_LOG wants every call handled.
  server.addService(PROVIDER_SERVICE, implementation, {
    memoize: options.log ? [] : MEMOIZED_METHODS,
  });
  server.addService(CONTROLLER, {
    Shutdown: (_call, callback) => {
      callback(null, {});
      options.onShutdown();
    },
  });
  server.addService(HEALTH, {
    Check: (_call, callback) => callback(null, { status: "SERVING" }),
  });
}
