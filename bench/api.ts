/**
 * The few API calls the bench makes outside the load generator, with the one
 * distinction the harness needs: an endpoint that is not built yet (the server's
 * catch-all 404 "There is no endpoint ...") versus any other failure.
 */
export class NotAvailable extends Error {
  constructor(readonly what: string) {
    super(`${what}: not available (no such endpoint yet)`);
  }
}

export interface ApiClient {
  readonly baseUrl: string;
  readonly token: string;
  /** A JSON request to {base_url}; answers the envelope's `data`, for the caller to parse with the shared schemas. */
  call(method: string, path: string, body?: unknown): Promise<unknown>;
  /**
   * A request whose answer is not an envelope (uploads, downloads): the raw Response,
   * checked for success. `auth: false` for the storage service, whose URL is the credential.
   */
  raw(method: string, url: string, init?: { body?: Uint8Array<ArrayBuffer>; contentType?: string; auth?: boolean }): Promise<Response>;
}

export function apiClient(baseUrl: string, token: string): ApiClient {
  const authorization = `Bearer ${token}`;
  return {
    baseUrl,
    token,
    async call(method: string, path: string, body?: unknown): Promise<unknown> {
      const headers: Record<string, string> = { Authorization: authorization };
      if (body !== undefined) headers['Content-Type'] = 'application/json';
      const res = await fetch(baseUrl + path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
      const json = (await res.json().catch(() => null)) as { data?: unknown; error?: { code?: string; message?: string } } | null;
      checkAvailable(res, json, `${method} ${path}`);
      if (!res.ok || json === null || !('data' in json)) {
        throw new Error(`${method} ${path}: ${res.status} ${json?.error?.code ?? ''} ${json?.error?.message ?? ''}`.trim());
      }
      return json.data;
    },
    async raw(method, url, init = {}) {
      const headers: Record<string, string> = init.auth === false ? {} : { Authorization: authorization };
      if (init.contentType !== undefined) headers['Content-Type'] = init.contentType;
      const res = await fetch(url, { method, headers, body: init.body });
      if (res.ok) return res;
      const text = await res.text();
      checkAvailable(res, safeJson(text), `${method} ${new URL(url).pathname}`);
      throw new Error(`${method} ${url}: ${res.status} ${text.slice(0, 300)}`);
    },
  };
}

function checkAvailable(res: Response, json: unknown, what: string): void {
  const message = (json as { error?: { message?: unknown } } | null)?.error?.message;
  if (res.status === 404 && typeof message === 'string' && message.startsWith('There is no endpoint')) {
    throw new NotAvailable(what);
  }
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}
