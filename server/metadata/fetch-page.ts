/**
 * Guarded HTTP GET: follows redirects itself so every hop passes the SSRF
 * guard, connects only to the addresses the guard validated, and bounds the
 * whole operation by time and body size.
 *
 * node:http is used rather than global fetch because fetch offers no way to
 * pin the connection to a pre-validated address.
 */
import type { LookupAddress, LookupOptions } from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import type { Readable } from 'node:stream';
import zlib from 'node:zlib';
import { checkUrl, type GuardResult, type ResolvedAddress } from './ssrf-guard.ts';

export const USER_AGENT = 'ShelfBot/1.0 (+bookmark metadata)';

export interface FetchPageOptions {
  allowPrivate: boolean;
  timeoutMs: number;
  maxBytes: number;
  maxRedirects: number;
  /** Decides from the final response whether its body is worth reading. */
  wantBody: (status: number, contentType: string) => boolean;
  /** The SSRF check run on every hop; replaceable only so tests can simulate hostile DNS. */
  guard?: (url: URL, allowPrivate: boolean) => Promise<GuardResult>;
}

export type FetchOutcome =
  /** The guard would not let us connect (here or on a redirect hop). */
  | { kind: 'refused'; detail: string }
  /** DNS failure, connection error, or no response headers before the deadline. */
  | { kind: 'unreachable'; detail: string }
  | {
      kind: 'response';
      status: number;
      /** The first hop's status: a 3xx when the response came through redirects, else the same as status. */
      firstStatus: number;
      /** URL of the response actually returned, after redirects. */
      url: string;
      contentType: string;
      /** Empty unless `wantBody` said yes; may be cut at maxBytes or at the deadline. */
      body: Buffer;
    };

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

/**
 * A `lookup` that answers with the guard's addresses instead of asking DNS
 * again. Node calls it with `all: true` when Happy Eyeballs is on, so both
 * callback shapes are supported.
 */
function pinnedLookup(addresses: readonly ResolvedAddress[]): LookupFunction {
  return (_hostname: string, options: LookupOptions, callback) => {
    const family = options.family === 'IPv4' ? 4 : options.family === 'IPv6' ? 6 : (options.family ?? 0);
    const usable = addresses.filter((a) => family === 0 || a.family === family);
    const first = usable[0];
    if (!first) {
      const err: NodeJS.ErrnoException = new Error(`no pinned address of family ${family}`);
      err.code = 'ENOTFOUND';
      callback(err, '', 0);
      return;
    }
    if (options.all) callback(null, usable.map((a): LookupAddress => ({ address: a.address, family: a.family })));
    else callback(null, first.address, first.family);
  };
}

/** Resolves with null if the signal fires first; the losing promise is left to settle on its own. */
function unlessAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T | null> {
  if (signal.aborted) return Promise.resolve(null);
  return new Promise((resolve, reject) => {
    const onAbort = (): void => resolve(null);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (err: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(err instanceof Error ? err : new Error(String(err)));
      },
    );
  });
}

type Hop =
  | { kind: 'unreachable'; detail: string }
  | { kind: 'headers'; res: http.IncomingMessage };

/** One request, resolved as soon as response headers arrive (or fail to). */
function requestOnce(url: URL, addresses: readonly ResolvedAddress[], signal: AbortSignal): Promise<Hop> {
  return new Promise((resolve) => {
    const client = url.protocol === 'https:' ? https : http;
    const req = client.request({
      protocol: url.protocol,
      hostname: url.hostname.replace(/^\[|\]$/g, ''),
      port: url.port === '' ? undefined : Number(url.port),
      path: `${url.pathname}${url.search}`,
      method: 'GET',
      headers: {
        'User-Agent': USER_AGENT,
        Accept: 'text/html,*/*;q=0.8',
        // Compressed bodies are still handled (some servers ignore this), but
        // asking for identity keeps maxBytes close to bytes on the wire.
        'Accept-Encoding': 'identity',
      },
      lookup: pinnedLookup(addresses),
      // A pooled socket could be connected to an address from an earlier, different lookup.
      agent: false,
      signal,
    });
    req.once('response', (res) => resolve({ kind: 'headers', res }));
    // `on`, not `once`: an abort after the response can emit a second error,
    // which would otherwise crash the process as unhandled. Later calls to
    // resolve are no-ops.
    req.on('error', (err) => resolve({ kind: 'unreachable', detail: err.message }));
    req.end();
  });
}

/** Drops a response we will not read, without letting its teardown raise an unhandled error. */
function discard(res: http.IncomingMessage): void {
  res.on('error', () => {});
  res.destroy();
}

function decompressed(res: http.IncomingMessage): Readable {
  const encoding = String(res.headers['content-encoding'] ?? '').trim().toLowerCase();
  const decoder =
    encoding === 'gzip' || encoding === 'x-gzip'
      ? zlib.createGunzip()
      : encoding === 'deflate'
        ? zlib.createInflate()
        : encoding === 'br'
          ? zlib.createBrotliDecompress()
          : null;
  if (!decoder) return res;
  res.on('error', (err) => decoder.destroy(err));
  return res.pipe(decoder);
}

/**
 * Reads at most maxBytes of the (decompressed, so a zip bomb cannot inflate
 * past the limit) body. Stops early, keeping what arrived, on the limit, on a
 * stream error, or when the deadline fires: a page that trickles its body
 * still yields its <head>.
 */
function readBody(res: http.IncomingMessage, maxBytes: number, signal: AbortSignal): Promise<Buffer> {
  return new Promise((resolve) => {
    const stream = decompressed(res);
    const chunks: Buffer[] = [];
    let total = 0;
    let done = false;
    const finish = (): void => {
      if (done) return;
      done = true;
      signal.removeEventListener('abort', finish);
      stream.destroy();
      res.destroy();
      resolve(Buffer.concat(chunks, Math.min(total, maxBytes)));
    };
    signal.addEventListener('abort', finish, { once: true });
    if (signal.aborted) finish();
    stream.on('data', (chunk: Buffer) => {
      if (done) return;
      chunks.push(chunk);
      total += chunk.length;
      if (total >= maxBytes) finish();
    });
    stream.on('end', finish);
    stream.on('error', finish);
    stream.on('close', finish);
    res.on('error', finish);
  });
}

/** Never throws: every failure is described by the outcome. */
export async function fetchPage(url: string, options: FetchPageOptions): Promise<FetchOutcome> {
  const guard = options.guard ?? ((u: URL, allow: boolean) => checkUrl(u, allow));
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), options.timeoutMs);
  const { signal } = controller;
  try {
    let current: URL;
    try {
      current = new URL(url);
    } catch {
      return { kind: 'refused', detail: 'invalid URL' };
    }

    let firstStatus: number | undefined;
    for (let redirects = 0; ; redirects++) {
      // DNS cannot be cancelled, so a hung resolver is raced against the deadline.
      const checked = await unlessAborted(guard(current, options.allowPrivate), signal);
      if (checked === null) return { kind: 'unreachable', detail: 'timed out resolving host' };
      if (!checked.ok) {
        return checked.reason === 'refused'
          ? { kind: 'refused', detail: checked.detail }
          : { kind: 'unreachable', detail: checked.detail };
      }

      const hop = await requestOnce(checked.url, checked.addresses, signal);
      if (hop.kind === 'unreachable') {
        return { kind: 'unreachable', detail: signal.aborted ? 'timed out' : hop.detail };
      }
      const { res } = hop;
      const status = res.statusCode ?? 0;
      firstStatus ??= status;
      const contentType = String(res.headers['content-type'] ?? '');
      const location = res.headers.location;

      if (REDIRECT_STATUSES.has(status) && location !== undefined && redirects < options.maxRedirects) {
        discard(res);
        let next: URL;
        try {
          next = new URL(location, checked.url);
        } catch {
          return { kind: 'response', status, firstStatus, url: checked.url.href, contentType, body: Buffer.alloc(0) };
        }
        next.hash = '';
        current = next;
        continue;
      }

      // An exhausted redirect budget lands here too and is reported as that 3xx.
      let body: Buffer = Buffer.alloc(0);
      if (options.wantBody(status, contentType)) body = await readBody(res, options.maxBytes, signal);
      else discard(res);
      return { kind: 'response', status, firstStatus, url: checked.url.href, contentType, body };
    }
  } catch (err) {
    return { kind: 'unreachable', detail: err instanceof Error ? err.message : String(err) };
  } finally {
    clearTimeout(timer);
  }
}
