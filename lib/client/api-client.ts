import * as z from 'zod/mini';
import { type EndpointName, type Endpoints, endpoints } from '../api/endpoints.ts';
import { StoredFile } from '../api/covers.ts';
import { ErrorCode } from '../api/errors.ts';
import { hasScope } from '../api/scope-check.ts';
import type { Scope } from '../api/scopes.ts';
import { ClientError } from './errors.ts';
import type { Priority, RequestScheduler } from './scheduler.ts';

type Ep<N extends EndpointName> = Endpoints[N];
type InputPart<S> = S extends z.core.$ZodType ? z.input<S> : never;

/** What a call names: path params, query and body, each typed by the shared contract. */
export type CallInput<N extends EndpointName> = {
  params?: InputPart<Ep<N>['params']>;
  query?: InputPart<Ep<N>['query']>;
  body?: InputPart<Ep<N>['body']>;
  /** The key of a create; the client makes one when not given, so every create carries one. */
  idempotencyKey?: string;
  /** Whether a user waits for it (the default) or it is background work, which yields to user work. */
  priority?: Priority;
  /** Longest a call waits for the rate limits before it is refused unsent (RATE_LIMITED); unbounded when not given. */
  maxWaitMs?: number;
};
export type CallOutput<N extends EndpointName> = Ep<N>['response'] extends z.core.$ZodType ? z.output<Ep<N>['response']> : Response;

export interface ApiClientOptions {
  baseUrl: string;
  token: string;
  fetch?: typeof fetch;
  newIdempotencyKey?: () => string;
  /**
   * What the token may do, when known (GET /auth/verify): a call it does not
   * permit is refused here, unsent, because the server counts every refused
   * request toward blocking this address.
   */
  scopes?: readonly Scope[] | null;
  /** The background's one scheduler: every request waits for its turn there. */
  scheduler?: Pick<RequestScheduler, 'send'>;
  /** An answer not come in this long is a network error (the save queue retries it with the same key). */
  timeoutMs?: number;
}

export interface ApiClient {
  call<N extends EndpointName>(name: N, input?: CallInput<N>): Promise<CallOutput<N>>;
  /**
   * `call` whose answer is checked with `shape`, a looser form of the endpoint's response, instead of the whole
   * of it: for a large answer whose parts the caller checks as it uses them (the duplicate groups).
   */
  callShaped<N extends EndpointName, S extends z.ZodMiniType>(name: N, shape: S, input?: CallInput<N>): Promise<z.output<S>>;
  /** Throws the SCOPE_REQUIRED that `call` would, unsent: for work whose first requests are only a step towards this one. */
  checkScope(name: EndpointName): void;
  /**
   * The bytes of a file (a cover, an import) to an upload URL the API handed out:
   * the storage service, whose URL is its own credential, so no token goes with them.
   */
  upload(url: string, bytes: Uint8Array<ArrayBuffer>, contentType: string): Promise<z.output<typeof StoredFile>>;
}

const DEFAULT_TIMEOUT_MS = 30_000;
const LenientErrorEnvelope = z.object({ error: z.object({ code: z.string(), message: z.string() }) });
const IpBlockBody = z.object({ error: z.string() });

/**
 * The typed API client. Every request goes through `send`, the one place where
 * the token is attached, keys are made, and answers become data or a ClientError.
 */
export function createApiClient(options: ApiClientOptions): ApiClient {
  const doFetch = options.fetch ?? globalThis.fetch.bind(globalThis);
  const newKey = options.newIdempotencyKey ?? (() => crypto.randomUUID());
  const base = options.baseUrl.replace(/\/+$/, '');
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;

  function checkScope(name: EndpointName): void {
    const endpoint = endpoints[name];
    if (options.scopes && endpoint.scope !== 'token' && !hasScope(options.scopes, endpoint.scope)) {
      throw new ClientError('SCOPE_REQUIRED', `This needs a token with the ${endpoint.scope} scope; Shelf did not send the request`);
    }
  }

  async function send(name: EndpointName, input: CallInput<EndpointName>, shape: z.ZodMiniType | null = endpoints[name].response): Promise<unknown> {
    const endpoint = endpoints[name];
    checkScope(name);
    const headers: Record<string, string> = { Authorization: `Bearer ${options.token}` };
    let body: string | undefined;
    if (input.body !== undefined) {
      body = JSON.stringify(input.body);
      headers['Content-Type'] = 'application/json';
    }
    if (endpoint.method === 'POST' && endpoint.response !== null) headers['Idempotency-Key'] = input.idempotencyKey ?? newKey();

    const url = buildUrl(base, endpoint.path, input.params, input.query);
    const transmit = async () => {
      try {
        return await doFetch(url, { method: endpoint.method, headers, body, signal: AbortSignal.timeout(timeoutMs) });
      } catch (err) {
        const why = err instanceof Error && err.name === 'TimeoutError' ? `no answer within ${timeoutMs / 1000} s` : err instanceof Error ? err.message : String(err);
        throw new ClientError('NETWORK_ERROR', `Could not reach the server: ${why}`);
      }
    };
    const scheduled = {
      priority: input.priority ?? 'user',
      credential: headers.Authorization!,
      ...(endpoint.heavy && { heavy: name }),
      ...(input.maxWaitMs !== undefined && { maxWaitMs: input.maxWaitMs }),
    };
    const response = await (options.scheduler ? options.scheduler.send(scheduled, transmit) : transmit());
    if (!response.ok) throw await errorFrom(response);
    if (shape === null) return response;

    const json = await response.json().catch(() => undefined);
    const parsed = z.object({ data: shape }).safeParse(json);
    if (!parsed.success) {
      throw new ClientError('MALFORMED_RESPONSE', `The server's answer to ${name} was not what the API promises`, { status: response.status });
    }
    return parsed.data.data;
  }

  async function upload(url: string, bytes: Uint8Array<ArrayBuffer>, contentType: string): Promise<z.output<typeof StoredFile>> {
    // Only to the server signed in to: a reservation from elsewhere is not one of its answers.
    if (new URL(url).origin !== new URL(base).origin) throw new ClientError('MALFORMED_RESPONSE', 'The upload URL points at another server');
    let response: Response;
    try {
      response = await doFetch(url, { method: 'POST', headers: { 'Content-Type': contentType }, body: bytes });
    } catch (err) {
      throw new ClientError('NETWORK_ERROR', `Could not reach the storage service: ${err instanceof Error ? err.message : String(err)}`);
    }
    if (!response.ok) throw await errorFrom(response);
    const parsed = StoredFile.safeParse(await response.json().catch(() => undefined));
    if (!parsed.success) throw new ClientError('MALFORMED_RESPONSE', 'The storage service did not answer an upload with its storageId', { status: response.status });
    return parsed.data;
  }

  return {
    call: (name, input = {}) => send(name, input as CallInput<EndpointName>) as never,
    callShaped: (name, shape, input = {}) => send(name, input as CallInput<EndpointName>, shape) as never,
    checkScope,
    upload,
  };
}

function buildUrl(base: string, path: string, params: object | undefined, query: object | undefined): string {
  const values = (params ?? {}) as Record<string, string>;
  const filled = path.replace(/:([a-zA-Z]+)(\{[^}]*\})?/g, (_, key: string) => {
    const value = values[key];
    if (value === undefined) throw new ClientError('BAD_MESSAGE', `missing path parameter ${key}`);
    return value.split('/').map(encodeURIComponent).join('/');
  });
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(query ?? {})) {
    if (value !== undefined && value !== null) search.set(key, String(value));
  }
  const qs = search.toString();
  return `${base}${filled}${qs ? `?${qs}` : ''}`;
}

async function errorFrom(response: Response): Promise<ClientError> {
  const retryAfter = Number(response.headers.get('Retry-After'));
  const details = { status: response.status, ...(retryAfter > 0 && { retryAfterSeconds: retryAfter }) };
  const json: unknown = await response.json().catch(() => undefined);

  if (response.status === 403 && IpBlockBody.safeParse(json).success) {
    return new ClientError('IP_BLOCKED', IpBlockBody.parse(json).error, details);
  }
  const envelope = LenientErrorEnvelope.safeParse(json);
  if (!envelope.success) {
    return new ClientError('MALFORMED_RESPONSE', `The server answered ${response.status} without an error the API describes`, details);
  }
  const code = ErrorCode.safeParse(envelope.data.error.code);
  return new ClientError(code.success ? code.data : 'UNKNOWN_API_ERROR', envelope.data.error.message, details);
}
