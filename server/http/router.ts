import { RESPONSE_ALREADY_SENT } from '@hono/node-server/utils/response';
import { createHash } from 'node:crypto';
import { ServerResponse } from 'node:http';
import type { Context, Hono } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { z } from 'zod';
import type { Endpoint } from '../../lib/api/endpoints.ts';
import { hasScope } from '../../lib/api/scope-check.ts';
import type { Clock } from '../clock.ts';
import { DAY } from '../clock.ts';
import type { Guards } from '../limits/guards.ts';
import type { IdempotencyStore } from '../store/idempotency.ts';
import { ApiError, invalid } from './api-error.ts';
import { ClaimSettler } from './claim-settler.ts';
import { addHeaders, reply, withCollectedHeaders } from './respond.ts';
import type { CachedBody, ResponseCache } from './response-cache.ts';
import { SerializedJson } from './serialized-json.ts';
import type { UserVersions } from './user-versions.ts';
import type { AppEnv, AuthContext } from './env.ts';
import { readJsonBody } from './read-body.ts';
import { validate } from './validation.ts';

export interface RouteInput<E extends Endpoint> {
  params: z.output<E['params']>;
  query: z.output<E['query']>;
  body: z.output<E['body']>;
  auth: AuthContext;
  c: Context<AppEnv>;
}

const STATUS = Symbol('status');
interface WithStatus<T> {
  [STATUS]: ContentfulStatusCode;
  data: T;
}
/** Answers with another success status than the endpoint's usual one (say 200 instead of 201). */
export const withStatus = <T>(status: ContentfulStatusCode, data: T): WithStatus<T> => ({ [STATUS]: status, data });

type Data<E extends Endpoint> = E['response'] extends z.core.$ZodType ? z.input<E['response']> : never;
export type Reply<E extends Endpoint> = E['response'] extends z.core.$ZodType ? Data<E> | WithStatus<Data<E>> | SerializedJson<Data<E>> : Response;
export type Handler<E extends Endpoint> = (input: RouteInput<E>) => Promise<Reply<E>> | Reply<E>;

const IDEMPOTENCY_TTL_MS = DAY;
const IDEMPOTENCY_KEY = /^[\x21-\x7e]{1,255}$/;

/**
 * Registers routes from the shared endpoint contract: the scope check, input
 * validation, heavy-endpoint limit and Idempotency-Key handling happen here once,
 * so that handlers only do their own work.
 */
export class Router {
  private inFlight = new Map<string, Promise<void>>();
  private claims = new ClaimSettler();
  private readInputs = new Map<string, ReadInput>();
  /** Reads being produced, by cache key and version: requests that miss the cache together share one production. */
  private producing = new Map<string, Promise<Serialized | Response>>();

  constructor(
    private app: Hono<AppEnv>,
    private deps: { guards: Guards; idempotency: IdempotencyStore; clock: Clock; cache: ResponseCache; userVersions: UserVersions },
  ) {}

  add<E extends Endpoint>(endpoint: E, handler: Handler<E>): void {
    const method = endpoint.method.toLowerCase() as 'get' | 'post' | 'put' | 'patch' | 'delete';
    const route: Route<E> = { endpoint, handler, name: `${endpoint.method} ${endpoint.path}` };
    // Methods rather than closures made per request: a read served from the cache makes as few objects as it can.
    this.app[method](endpoint.path, (c) => this.handle(route, c));
  }

  private async handle<E extends Endpoint>(route: Route<E>, c: Context<AppEnv>): Promise<Response> {
    const { endpoint } = route;
    const auth = c.get('auth');
    if (endpoint.scope !== 'token' && !hasScope(auth.scopes, endpoint.scope)) {
      throw new ApiError('SCOPE_REQUIRED', `This request needs a token with the ${endpoint.scope} scope`);
    }
    if (endpoint.method === 'GET') {
      const read = this.readInput(route, c);
      const input = { params: read.params, query: read.query, body: read.body, auth, c } as RouteInput<E>;
      // A read's answer depends only on the data, the user (not on the token, whose scopes differ) and the validated
      // input, so it can be cached; keyed on that input, not the raw URL, junk in a query string cannot make new entries.
      if (endpoint.scope === 'token' || endpoint.response === null) return this.run(route, input);
      if (endpoint.heavy) await this.heavyLimit(route, c); // a cached answer to a heavy read is still a heavy request
      return this.cached(route, input, cacheKey(read, auth.userId));
    }
    const { params, query } = validPathAndQuery(endpoint, c);
    const { raw, value } = await readJsonBody(c);
    const body = validate(endpoint.body, value, 'body');
    const input = { params, query, body, auth, c } as RouteInput<E>;
    const key = c.req.header('Idempotency-Key');
    if (endpoint.method === 'POST' && endpoint.response !== null && key !== undefined) {
      return this.idempotent(c, auth.userId, key, `${c.req.method} ${c.req.path}\n${raw}`, () => this.run(route, input));
    }
    return this.run(route, input);
  }

  /**
   * A read's input is a function of its URL alone: validated once per URL and
   * remembered, so that a page asked for again skips Hono's query parsing, the zod
   * parses and the key's serialisation. Requests share what is remembered, so it is
   * frozen; only short URLs, and a few hundred of them, so that junk costs no memory.
   */
  private readInput(route: Route<Endpoint>, c: Context<AppEnv>): ReadInput {
    const url = c.req.url;
    const known = this.readInputs.get(url);
    if (known?.route === route) return known;
    const { endpoint } = route;
    const { params, query } = validPathAndQuery(endpoint, c);
    const body: unknown = validate(endpoint.body, undefined, 'body');
    const request = `${endpoint.path} ${JSON.stringify(params)} ${JSON.stringify(query)}`;
    const input = { route, params, query, body, request, keys: new Map<string, string>() };
    for (const value of [params, query, body]) Object.freeze(value);
    if (url.length <= REMEMBERED_URL_MAX_LENGTH) {
      if (this.readInputs.size >= REMEMBERED_URLS) this.readInputs.clear();
      this.readInputs.set(url, input);
    }
    return input;
  }

  /** Counted only for work that runs: an idempotent replay of a heavy POST is not another request's work. */
  private async run<E extends Endpoint>(route: Route<E>, input: RouteInput<E>): Promise<Response> {
    if (route.endpoint.heavy) await this.heavyLimit(route, input.c);
    return respond(input.c, await produce(route, input));
  }

  /**
   * The user's data version is read before the answer is made, so an entry is never newer than
   * the version it is filed under; it is read as of the store version the request came in with.
   */
  private async cached<E extends Endpoint>(route: Route<E>, input: RouteInput<E>, key: string): Promise<Response> {
    const { c, auth } = input;
    const known = this.deps.userVersions.of(auth.userId, c.get('dataVersion'));
    const version = typeof known === 'string' ? known : await known; // SQLite's is at hand: no microtask turn for it
    const hit = this.deps.cache.get(auth.userId, key, version);
    if (hit !== undefined) return enveloped(c, hit, 200);
    const reply = await this.producedOnce(route, input, `${version}\n${key}`);
    if (reply instanceof Response || reply.status !== 200) return respond(c, reply);
    this.deps.cache.set(auth.userId, key, version, reply.opened);
    return enveloped(c, reply.opened, 200);
  }

  /**
   * Single flight: the requests that miss one entry while it is being produced (say the first
   * ones after a write, for a list that takes a tenth of a second to build) wait for that one
   * production rather than each holding the server as long again. Only a serialized answer can
   * be shared (a Response's body is read once, so each request makes its own); a refusal is the
   * same for them all.
   */
  private producedOnce<E extends Endpoint>(route: Route<E>, input: RouteInput<E>, slot: string): Promise<Serialized | Response> {
    const running = this.producing.get(slot);
    if (running !== undefined) return running.then((reply) => (reply instanceof Response ? produce(route, input) : reply));
    const production = produce(route, input).finally(() => this.producing.delete(slot));
    this.producing.set(slot, production);
    return production;
  }

  private async heavyLimit(route: Route<Endpoint>, c: Context<AppEnv>): Promise<void> {
    const verdict = await this.deps.guards.heavy(c.get('auth').userId, route.name);
    if (!verdict.allowed) {
      throw new ApiError('RATE_LIMITED', 'Rate limit exceeded', {
        ...verdict.headers,
        'Retry-After': String(verdict.retryAfterSeconds),
      });
    }
  }

  private async idempotent(c: Context<AppEnv>, userId: string, key: string, request: string, run: () => Promise<Response>) {
    if (!IDEMPOTENCY_KEY.test(key)) {
      throw invalid('header', 'Idempotency-Key', 'must be 1 to 255 visible ASCII characters');
    }
    const fingerprint = createHash('sha256').update(request).digest('hex');
    const slot = `${userId}\n${key}`;
    const store = this.deps.idempotency;
    // This instance's requests of one key go one after another, from before the claim: a second one asking the store
    // while the first's claim was written but its answer not yet back here found it in flight and was refused (seen on
    // PostgreSQL, where the two asks go on two connections). Only another instance's claim is in flight now.
    const earlier = this.inFlight.get(slot);
    let done!: () => void;
    const mine = new Promise<void>((resolve) => (done = resolve));
    const turn = (earlier ?? Promise.resolve()).then(() => mine);
    this.inFlight.set(slot, turn);
    try {
      await earlier;
      await this.claims.flush(slot);
      const begun = await store.begin(userId, key, fingerprint, this.deps.clock.now(), IDEMPOTENCY_TTL_MS);
      switch (begun.state) {
        case 'mismatch':
          throw new ApiError('IDEMPOTENCY_KEY_REUSED', 'This Idempotency-Key was already used for a different request; use a new key');
        case 'in-flight':
          throw new ApiError('IDEMPOTENCY_KEY_IN_USE', 'A request with this Idempotency-Key is still being processed; retry shortly');
        case 'replay':
          addHeaders(c, { 'Idempotent-Replayed': 'true' });
          return reply(c, begun.body, begun.status);
        case 'new':
          break;
      }
      try {
        const response = await run();
        // Done is done: an answer the database cannot record now is recorded when it is back, and sent now.
        if (response.ok) {
          const body = await response.clone().text();
          await this.claims.settle(slot, () => store.complete(userId, key, response.status, body));
        } else await this.claims.settle(slot, () => store.release(userId, key));
        return response;
      } catch (err) {
        await this.claims.settle(slot, () => store.release(userId, key));
        throw err;
      }
    } finally {
      if (this.inFlight.get(slot) === turn) this.inFlight.delete(slot);
      done();
    }
  }
}

const ENVELOPE_START = Buffer.from('{"data":');

/**
 * The envelope's start and the serialized data, as bytes in parts: what the response cache keeps,
 * and sends as it is. Already-serialized data keeps its parts, not copied into one buffer: a list
 * at the collection cap is 4.4 MB, and its parts are the very bytes PostgreSQL's kept list holds.
 */
const openEnvelope = (json: string | SerializedJson<unknown>): CachedBody =>
  typeof json === 'string' ? [Buffer.from(`{"data":${json}`)] : [ENVELOPE_START, ...json.parts];

/**
 * The envelope around already-serialized data (`opened`, from openEnvelope): a cached
 * page is sent without being parsed, encoded or copied again. To a GET on node's
 * server it is written straight to node's response, the page's parts and the envelope's
 * few closing characters apart but in one system call (joining them would copy the
 * whole page: a tenth of the server's time on a 40 kB page). The request id is
 * ASCII, so the closing text's length is its byte length.
 */
function enveloped(c: Context<AppEnv>, opened: CachedBody, status: ContentfulStatusCode): Response {
  const close = `,"meta":{"requestId":"${c.get('requestId')}"}}`;
  let length = close.length;
  for (const part of opened) length += part.byteLength;
  const outgoing = c.env.outgoing as unknown;
  if (c.req.method !== 'GET' || !(outgoing instanceof ServerResponse)) {
    return reply(c, Buffer.concat([...opened, Buffer.from(close)], length), status);
  }
  outgoing.writeHead(status, headerList(c.get('headers'), length));
  outgoing.cork(); // end() uncorks: the head and every piece leave in one writev
  for (const part of opened) outgoing.write(part);
  outgoing.end(close, 'latin1');
  // @hono/node-server's documented marker: it then writes nothing more (it is built when this module loads, before serve()).
  return RESPONSE_ALREADY_SENT;
}

/**
 * The collected headers and the JSON ones as node's flat name/value list: node
 * writes a fresh object of a dozen headers, made per request, markedly slower
 * (about 3 µs a request here) than the same headers as a list.
 */
function headerList(collected: Record<string, string>, length: number): string[] {
  const list: string[] = [];
  for (const name in collected) {
    if (name !== 'Content-Type' && name !== 'Content-Length') list.push(name, collected[name]!);
  }
  list.push('Content-Type', 'application/json', 'Content-Length', String(length));
  return list;
}

interface Serialized {
  status: ContentfulStatusCode;
  opened: CachedBody;
}

interface Route<E extends Endpoint> {
  endpoint: E;
  handler: Handler<E>;
  /** "GET /bookmarks/duplicates": what the heavy-endpoint limit counts per. */
  name: string;
}

/** A GET's validated input; `request` is what of it the response cache's key holds. */
interface ReadInput {
  route: Route<Endpoint>;
  params: unknown;
  query: unknown;
  body: unknown;
  request: string;
  /** The cache key for each user lately (see cacheKey). */
  keys: Map<string, string>;
}

/** Users whose cache keys one URL keeps: past that, it starts over. */
export const KEYS_PER_INPUT = 16;

/**
 * The response cache's key, `userId request`, made once per user and URL: a page
 * asked for again is looked up with a string whose hash is already known, rather
 * than with a new one of some 80 characters to join and hash.
 */
function cacheKey(input: ReadInput, userId: string): string {
  let key = input.keys.get(userId);
  if (key === undefined) {
    if (input.keys.size >= KEYS_PER_INPUT) input.keys.clear();
    key = `${userId} ${input.request}`;
    input.keys.set(userId, key);
  }
  return key;
}

const REMEMBERED_URLS = 500;
const REMEMBERED_URL_MAX_LENGTH = 512;

const validPathAndQuery = <E extends Endpoint>(endpoint: E, c: Context<AppEnv>) => ({
  params: validate(endpoint.params, c.req.param(), 'path'),
  query: validate(endpoint.query, c.req.query(), 'query'),
});

async function produce<E extends Endpoint>({ endpoint, handler }: Route<E>, input: RouteInput<E>): Promise<Serialized | Response> {
  const reply = await handler(input);
  if (reply instanceof Response) return reply;
  if (reply instanceof SerializedJson) return { status: endpoint.status ?? 200, opened: openEnvelope(reply) };
  const [status, data]: [ContentfulStatusCode, unknown] = isWithStatus(reply) ? [reply[STATUS], reply.data] : [endpoint.status ?? 200, reply];
  return { status, opened: openEnvelope(JSON.stringify(data)) };
}

const respond = (c: Context<AppEnv>, answer: Serialized | Response): Response =>
  answer instanceof Response ? withCollectedHeaders(c, answer) : enveloped(c, answer.opened, answer.status);

function isWithStatus<T>(value: unknown): value is WithStatus<T> {
  return typeof value === 'object' && value !== null && STATUS in value;
}
