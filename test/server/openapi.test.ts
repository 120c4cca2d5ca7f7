import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERROR_CODES } from '../../lib/api/error-codes.ts';
import { type OpenApi, renderHttpReference } from '../../lib/api/http-reference.ts';
import { openApiDocument, openApiPath } from '../../lib/api/openapi.ts';
import { type TestServer, startTestServer } from '../support/server.ts';

/** The HTTP reference against the server it describes: its routes, its answer, and the committed docs/http-api.md. */

const doc = openApiDocument() as unknown as OpenApi;
const documented = new Set(
  Object.entries(doc.paths).flatMap(([path, methods]) => Object.keys(methods).map((method) => `${method.toUpperCase()} ${path}`)),
);

/** Every route the Hono app answers, as `METHOD /openapi/{path}` (middleware is registered as ALL). */
const routesOf = (t: TestServer): Set<string> =>
  new Set(t.server.app.routes.filter((r) => r.method !== 'ALL').map((r) => `${r.method} ${openApiPath(r.path)}`));

describe('the OpenAPI document', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer({ testClock: false });
  });
  afterAll(() => t.close());

  it('names every route of the server, and no route it does not have', () => {
    const routes = routesOf(t);
    expect([...routes].filter((r) => !documented.has(r)), 'routes missing from the document').toEqual([]);
    expect([...documented].filter((r) => !routes.has(r)), 'documented routes the server lacks').toEqual([]);
  });

  it('leaves out only the test clock, which exists with --test-clock alone', async () => {
    const withClock = await startTestServer({ testClock: true });
    try {
      expect([...routesOf(withClock)].filter((r) => !documented.has(r))).toEqual(['POST /__test__/clock']);
    } finally {
      await withClock.close();
    }
  });

  it('is served at GET /v1/openapi.json without a token or an envelope', async () => {
    const res = await fetch(`${t.server.origin}/v1/openapi.json`);
    expect(res.status).toBe(200);
    expect(res.headers.get('Content-Type')).toMatch(/^application\/json/);
    expect(res.headers.get('Access-Control-Allow-Origin')).toBe('*');
    expect(await res.json()).toEqual(JSON.parse(JSON.stringify(doc)));
  });

  it('is an OpenAPI 3.1 document whose references all resolve and whose path parameters match their paths', () => {
    expect((doc as unknown as { openapi: string }).openapi).toBe('3.1.0');
    const refs = [...JSON.stringify(doc).matchAll(/"\$ref":"#\/components\/schemas\/([^"]+)"/g)].map((m) => m[1]!);
    expect(refs.length).toBeGreaterThan(50);
    expect(refs.filter((name) => !(name in doc.components.schemas))).toEqual([]);
    for (const [path, methods] of Object.entries(doc.paths)) {
      const inPath = [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
      for (const op of Object.values(methods)) {
        expect(op.parameters.filter((p) => p.in === 'path').map((p) => p.name).sort(), `${path} ${op.operationId}`).toEqual(inPath);
      }
    }
  });

  it('lists only the API error codes, each answer under its own status', () => {
    for (const methods of Object.values(doc.paths)) {
      for (const op of Object.values(methods)) {
        for (const [status, response] of Object.entries(op.responses)) {
          if (Number(status) < 400) continue;
          const codes = [...response.description.matchAll(/`([A-Z_]+)`/g)].map((m) => m[1]!);
          expect(codes.every((c) => (ERROR_CODES as readonly string[]).includes(c)), `${op.operationId} ${status}`).toBe(true);
        }
      }
    }
    const create = doc.paths['/v1/bookmarks']!.post!;
    expect(Object.keys(create.responses)).toEqual(expect.arrayContaining(['200', '201', '400', '401', '403', '404', '429']));
    expect(create.responses['404']!.description).toBe('`NOT_FOUND`');
  });

  it('describes answers the server really gives: a bookmark page validates against its documented fields', async () => {
    const user = await t.user();
    await user.api('POST', '/bookmarks', { body: { url: 'https://example.com/a', title: 'A', description: 'a' } });
    const page = (await user.api('GET', '/bookmarks')).body as { data: { data: Record<string, unknown>[] } };
    const bookmark = doc.components.schemas.Bookmark!;
    expect(Object.keys(page.data.data[0]!).sort()).toEqual(Object.keys(bookmark.properties!).sort());
    expect(bookmark.required!.every((field) => field in page.data.data[0]!)).toBe(true);
  });
});

describe('docs/http-api.md', () => {
  it('is what npm run docs:api writes from the current lib/api/', () => {
    const committed = readFileSync(new URL('../../docs/http-api.md', import.meta.url), 'utf8');
    expect(committed, 'run npm run docs:api and commit docs/http-api.md').toBe(renderHttpReference(doc));
  });
});
