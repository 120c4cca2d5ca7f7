import * as z from 'zod/mini';
import { type Endpoint, type PublicRoute, endpoints, pipelineErrors, publicRoutes } from './endpoints.ts';
import { ErrorEnvelope, IpBlockEnvelope, Meta } from './envelope.ts';
import { type ErrorCode, errorStatus } from './errors.ts';
import * as api from './index.ts';

/**
 * The API's HTTP reference as an OpenAPI 3.1 document, built from the endpoint
 * table and its zod schemas, so that it cannot say something the server does not do.
 */

type Json = Record<string, unknown>;

/** The HTTP reference's own words: what holds for every endpoint. */
export const API_DESCRIPTION = `Shelf's Bookmark Library API. Every path under \`/v1\` needs \`Authorization: Bearer tok_<64 hex digits>\`, a token of a Pro account with the scope the endpoint names (a write scope also grants its read scope; \`token\` means any valid token).

Success answers are \`{ "data": ..., "meta": { "requestId": "req_..." } }\`; errors are \`{ "error": { "code", "message" }, "meta": { "requestId" } }\`, except the IP block: \`403 { "error": "<text>", "meta": { "requestId" } }\`. Every answer carries \`X-Request-Id\`.

Limits: 120 requests a minute and 10,000 a day per user (\`X-RateLimit-Limit\`, \`X-RateLimit-Remaining\`, \`X-RateLimit-Reset\` on every authenticated answer); heavy endpoints 2 a minute per user; 60 requests a minute per client address; failed authentication empties a per-address bucket (10, refilling 30 a minute), and 5 failed attempts in 5 minutes block the address for 15 minutes. A 429 carries \`Retry-After\`. Bodies are JSON, at most 1 MB (5 MB under \`/v1/import/\`). A POST that answers JSON may carry \`Idempotency-Key\` (1 to 255 visible ASCII characters): the same key and request within 24 hours gets the first answer back with \`Idempotent-Replayed: true\`.

Query parameters: \`limit\` is a whole number of at least 1, 50 when absent; a larger value than the endpoint's maximum counts as that maximum (200 for bookmark lists, search, trash and bookmarks by tag, 100 for a collection's bookmarks). Booleans are the words \`true\` and \`false\`. A \`cursor\` is opaque: pass back the one the previous page answered (\`cursor\` or \`continueCursor\`; \`null\` means there is no next page). Timestamps are ISO 8601 strings in UTC; ids are opaque strings of at most 64 characters.`;

const refTo = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const capitalised = (s: string) => s[0]!.toUpperCase() + s.slice(1);

/** Names each schema after its export in lib/api, so that the document's components read like the code. */
const exportNames = new Map<unknown, string>();
for (const [name, value] of Object.entries(api).sort(([a], [b]) => a.localeCompare(b))) {
  if (value instanceof z.core.$ZodType && !exportNames.has(value)) exportNames.set(value, name);
}

/** The resources, so that they appear once in components and every answer refers to them. */
const RESOURCES = { Bookmark: api.Bookmark, Collection: api.Collection, Tag: api.Tag, SmartFolder: api.SmartFolder, Job: api.Job };
/** Parts of requests and answers, named so that both refer to one description. */
const PARTS = { Rules: api.Rules, Condition: api.Condition };

/**
 * The named schemas, each described as it is sent (zod's input side): for a request that is the
 * form the server accepts, and for an answer the same as its output but for transforms (a
 * smart-folder domain is normalised, still a string) and open objects (a client ignores fields it
 * does not know, so answers may grow).
 */
class Components {
  private registry = z.registry<{ id: string }>();
  private ids = new Map<unknown, string>();
  private taken = new Set<string>();

  ref(schema: z.ZodMiniType, fallback: string): Json {
    // A list of a named schema made on the spot (z.array(Tag)) is described where it is used.
    if (schema instanceof z.ZodMiniArray && !exportNames.has(schema)) {
      return { type: 'array', items: this.ref(schema._zod.def.element as z.ZodMiniType, `${fallback}Item`) };
    }
    let id = this.ids.get(schema);
    if (id === undefined) {
      id = exportNames.get(schema) ?? fallback;
      if (this.taken.has(id)) throw new Error(`two schemas are named ${id}`);
      this.taken.add(id);
      this.ids.set(schema, id);
      this.registry.add(schema, { id });
    }
    return refTo(id);
  }

  schemas(): Record<string, Json> {
    const uri = (id: string) => `#/components/schemas/${id}`;
    const { schemas } = z.toJSONSchema(this.registry, { io: 'input', unrepresentable: 'any', uri });
    return schemas as Record<string, Json>;
  }
}

/** Query or path parameters from an object schema. */
function parameters(schema: z.ZodMiniType, where: 'query' | 'path'): Json[] {
  const json = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as {
    properties?: Record<string, Json>;
    required?: string[];
  };
  return Object.entries(json.properties ?? {}).map(([name, property]) => ({
    name,
    in: where,
    required: where === 'path' || (json.required ?? []).includes(name),
    schema: property,
  }));
}

/** Hono's `:name{regex}` becomes OpenAPI's `{name}`. */
export const openApiPath = (path: string): string => path.replace(/:([A-Za-z]+)(\{[^}]*\})?/g, '{$1}');

function errorResponses(codes: readonly ErrorCode[], ipBlock: boolean): Record<string, Json> {
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of new Set(codes)) byStatus.set(errorStatus[code], [...(byStatus.get(errorStatus[code]) ?? []), code]);
  const responses: Record<string, Json> = {};
  for (const [status, list] of [...byStatus].sort(([a], [b]) => a - b)) {
    const description = list.map((code) => `\`${code}\``).join(', ');
    responses[String(status)] =
      status === 403 && ipBlock
        ? { description: `${description} or the IP block`, content: { 'application/json': { schema: { oneOf: [refTo('ErrorEnvelope'), refTo('IpBlockEnvelope')] } } } }
        : { description, content: { 'application/json': { schema: refTo('ErrorEnvelope') } } };
  }
  return responses;
}

function apiOperation(name: string, e: Endpoint, components: Components): Json {
  const codes = [...pipelineErrors(e), ...e.errors];
  const success: Record<string, Json> = {};
  const envelope = (schema: z.ZodMiniType) => ({
    type: 'object',
    required: ['data', 'meta'],
    properties: { data: components.ref(schema, `${capitalised(name)}Data`), meta: refTo('Meta') },
  });
  // The one streamed answer is an export's file, in the Content-Type of its format.
  const content =
    e.response === null
      ? { 'application/json': {}, 'text/csv': {}, 'text/html': {} }
      : { 'application/json': { schema: envelope(e.response) } };
  success[String(e.status ?? 200)] = { description: e.response === null ? 'the file, not enveloped' : 'success', content };
  if (e.existingStatus) success[String(e.existingStatus)] = { description: 'the resource already existed', content };

  const operation: Json = {
    operationId: name,
    summary: e.summary,
    tags: [e.path.split('/')[1]],
    security: [{ bearer: [] }],
    'x-scope': e.scope,
    ...(e.heavy && { 'x-heavy': true }),
    parameters: [...parameters(e.params, 'path'), ...parameters(e.query, 'query')],
    responses: { ...success, ...errorResponses(codes, true) },
  };
  if (e.method !== 'GET' && !(e.body instanceof z.ZodMiniOptional)) {
    operation.requestBody = {
      required: true,
      content: { 'application/json': { schema: components.ref(e.body, `${capitalised(name)}Body`) } },
    };
  }
  return operation;
}

function publicOperation(name: string, route: PublicRoute, components: Components): Json {
  const content =
    typeof route.response === 'string'
      ? { [route.response]: { schema: { type: 'string' } } }
      : { 'application/json': { schema: components.ref(route.response, `${capitalised(name)}Data`) } };
  const pathNames = [...route.path.matchAll(/:([A-Za-z]+)/g)].map((m) => m[1]!);
  return {
    operationId: name,
    summary: route.summary,
    tags: ['outside the API'],
    security: [],
    parameters: pathNames.map((p) => ({ name: p, in: 'path', required: true, schema: { type: 'string' } })),
    responses: { [String(route.status ?? 200)]: { description: 'success', content }, ...errorResponses(route.errors, false) },
  };
}

export function openApiDocument(): Json {
  const components = new Components();
  for (const [name, schema] of Object.entries({ Meta, ErrorEnvelope, IpBlockEnvelope, ...RESOURCES, ...PARTS })) components.ref(schema, name);

  const paths: Record<string, Record<string, Json>> = {};
  const add = (path: string, method: string, operation: Json) => {
    (paths[openApiPath(path)] ??= {})[method.toLowerCase()] = operation;
  };
  for (const [name, e] of Object.entries(endpoints) as [string, Endpoint][]) add(`/v1${e.path}`, e.method, apiOperation(name, e, components));
  for (const [name, route] of Object.entries(publicRoutes) as [string, PublicRoute][]) add(route.path, route.method, publicOperation(name, route, components));

  const schemas = components.schemas();
  // Each says which document it came from; inside components they are only noise.
  for (const schema of Object.values(schemas)) {
    delete schema.$schema;
    delete schema.$id;
  }

  return {
    openapi: '3.1.0',
    info: { title: 'Shelf Bookmark Library API', version: '1', description: API_DESCRIPTION },
    servers: [{ url: '/', description: 'the origin this document was read from' }],
    paths,
    components: {
      securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'tok_ followed by 64 hex digits' } },
      schemas: Object.fromEntries(Object.entries(schemas).sort(([a], [b]) => a.localeCompare(b))),
    },
  };
}
