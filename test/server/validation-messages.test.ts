import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { type Endpoint, endpoints } from '../../lib/api/endpoints.ts';
import { expectError } from '../support/expect.ts';
import type { TestUser } from '../support/server.ts';
import { withServerAndUser } from '../support/server-per-file.ts';

/**
 * Every route that takes a body or query parameters, told something wrong, answers in the
 * API's own words: a wrong type says what was expected, a body that is no JSON object says
 * so, unknown body fields are refused by name, and no library's phrasing gets through.
 */
const all = Object.entries(endpoints) as [string, Endpoint][];

/** Phrases of zod's own messages (English locale), which no answer may carry. */
const LIBRARY_WORDING = /Invalid input|Invalid option|Too big|Too small|Unrecognized key|expected (string|number|array|object|boolean)\b|received|to have [<>]=/;

interface Def {
  type: string;
  shape?: Record<string, z.core.$ZodType>;
  in?: z.core.$ZodType;
  innerType?: z.core.$ZodType;
}
const defOf = (schema: z.core.$ZodType): Def => schema._zod.def as unknown as Def;

/** The fields of an object schema, through the pipes and optionals around it. */
function fieldsOf(schema: z.core.$ZodType): Record<string, z.core.$ZodType> {
  const def = defOf(schema);
  if (def.shape !== undefined) return def.shape;
  const inner = def.in ?? def.innerType;
  return inner === undefined ? {} : fieldsOf(inner);
}

/** The kind of value a field takes, under its optional, nullable and pipe wrappers. */
function kindOf(schema: z.core.$ZodType): string {
  const def = defOf(schema);
  const inner = def.in ?? def.innerType;
  return inner !== undefined && ['optional', 'nullable', 'pipe', 'default'].includes(def.type) ? kindOf(inner) : def.type;
}

/** A value of another type than the field takes. */
const wrongValue = (kind: string): unknown => (kind === 'string' || kind === 'enum' || kind === 'literal' ? 12345 : 'text');
const WRONG = { string: 'a whole number', number: 'a string', int: 'a string', boolean: 'a string', array: 'a string', object: 'a string' } as const;

const takesBody = ([, e]: [string, Endpoint]) => !z.safeParse(e.body, undefined).success || Object.keys(fieldsOf(e.body)).length > 0;
const withBody = all.filter(takesBody);
const withQuery = all.filter(([, e]) => Object.keys(fieldsOf(e.query)).length > 0);
/** Bodies that keep unknown fields to themselves: a cover save carries the reservation as it was answered. */
const LENIENT = new Set(['saveCover']);

const pathOf = (e: Endpoint): string => e.path.replace(':format', 'json').replace(':name{.+}', 'some-tag').replace(/:[a-zA-Z]+/g, 'x_1');

let u: TestUser;
withServerAndUser((started) => ({ u } = started), { raiseLimits: true });

const refusal = async (e: Endpoint, path: string, body?: unknown): Promise<string> => {
  const message = expectError(await u.api(e.method, path, body === undefined ? {} : { body }), 400, 'VALIDATION_ERROR');
  expect(message).not.toMatch(LIBRARY_WORDING);
  return message;
};

it('covers the routes that take bodies and queries', () => {
  expect(withBody.map(([name]) => name)).toEqual(expect.arrayContaining(['createBookmark', 'updateBookmark', 'bulkTag', 'createTag', 'createSmartFolder', 'startImport']));
  expect(withQuery.map(([name]) => name)).toEqual(expect.arrayContaining(['listBookmarks', 'searchBookmarks', 'evaluateSmartFolder', 'tagBookmarksById']));
});

describe.each(withBody)('the body of %s', (name, e) => {
  it.each([
    [[], 'an array'],
    ['"text"', 'a string'], // the test client sends a string body as it is
    [42, 'a whole number'],
    [null, 'null'],
  ])('refuses %s: the body must be a JSON object', async (body, got) => {
    expect(await refusal(e, pathOf(e), body)).toBe(`Invalid body: expected a JSON object, got ${got}`);
  });

  it.runIf(!LENIENT.has(name))('refuses an unknown field by name', async () => {
    expect(await refusal(e, pathOf(e), { notAField: 1 })).toContain('unknown field "notAField"');
  });

  it('says what each field expected when it gets another type', async () => {
    for (const [field, schema] of Object.entries(fieldsOf(e.body))) {
      const kind = kindOf(schema);
      if (kind === 'unknown') continue; // a field the server keeps, which a PATCH may carry as read
      const message = await refusal(e, pathOf(e), { [field]: wrongValue(kind) });
      const problem = message.split('; ').find((p) => p.includes(`${field}: `)) ?? message;
      if (kind in WRONG) expect(problem, field).toMatch(new RegExp(`${field}: expected .+, got ${WRONG[kind as keyof typeof WRONG]}$`));
      else expect(problem, field).toMatch(new RegExp(`${field}: (must be one of|must be|expected) `));
      expect(problem, field).not.toContain('is required');
    }
  });
});

describe('wrong types, worded', () => {
  it.each([
    ['POST', '/bookmarks', { url: 'https://example.com', tags: 'news' }, 'tags: expected an array of strings, got a string'],
    ['POST', '/bookmarks', { url: 'https://example.com', tags: ['ok', 3] }, 'tags.1: expected a string, got a whole number'],
    ['POST', '/bookmarks', { url: 'https://example.com', isFavorite: 'yes' }, 'isFavorite: expected true or false, got a string'],
    ['POST', '/bookmarks', { url: 'https://example.com', type: 'podcast' }, 'type: must be one of "link", "article", "image", "video", "document"'],
    ['POST', '/bookmarks', { url: 'https://example.com', title: 'x'.repeat(2001) }, 'title: must be at most 2000 characters'],
    ['POST', '/bookmarks', { url: 'https://example.com', collectionId: '' }, 'collectionId: must not be empty'],
    ['PATCH', '/bookmarks/x_1', { clickCount: 1.5 }, 'clickCount: expected a whole number, got a number'],
    ['PATCH', '/bookmarks/x_1', { clickCount: -1 }, 'clickCount: must be at least 0'],
    ['POST', '/bookmarks/bulk/trash', { ids: 'bm_1' }, 'ids: expected an array of strings, got a string'],
    ['POST', '/smart-folders', { name: 'x', rules: { match: 'all', conditions: 'tag' } }, 'rules.conditions: expected an array of JSON objects, got a string'],
    ['POST', '/import/start', { jobId: ['x'], storageId: {} }, 'jobId: expected a string, got an array; storageId: expected a string, got a JSON object'],
    ['POST', '/tags', {}, 'name: is required'],
  ])('%s %s %j → %s', async (method, path, body, expected) => {
    const e = all.find(([, ep]) => ep.method === method && pathOf(ep) === path.replace(/\/[^/]*_1$/, '/x_1'))![1];
    expect(await refusal(e, path, body)).toBe(`Invalid body: ${expected}`);
  });

  it('names the missing fields of a request sent without a body', async () => {
    expect(await refusal(endpoints.mergeTags, '/tags/merge')).toBe('Invalid body: sourceTagId: is required; targetTagId: is required');
  });
});

describe.each(withQuery)('the query of %s', (_, e) => {
  it('answers every bad parameter value in its own words, naming the parameter', async () => {
    for (const [param, schema] of Object.entries(fieldsOf(e.query))) {
      for (const value of ['', 'zz-not-valid', '-1']) {
        const res = await u.api(e.method, `${pathOf(e)}?${param}=${value}`);
        if (res.status < 400) continue; // a free-text parameter (q, domain) takes any text
        const message = expectError(res, res.status, res.status === 404 ? 'NOT_FOUND' : 'VALIDATION_ERROR');
        expect(message).not.toMatch(LIBRARY_WORDING);
        if (res.status === 400) expect(message, `${param}=${value} (${kindOf(schema)})`).toMatch(new RegExp(`^Invalid query: (${param}(\\.\\d+)?|q): `)); // a list's item: linkStatus.0
      }
    }
  });
});

it.each([
  ['limit=abc', 'limit: must be a whole number of at least 1'],
  ['sortBy=sideways', 'sortBy: must be one of "newest", "oldest", "title", "domain"'],
  ['isFavorite=maybe', 'isFavorite: must be true or false'],
  ['cursor=', 'cursor: must not be empty'],
])('GET /bookmarks?%s → %s', async (query, expected) => {
  expect(expectError(await u.api('GET', `/bookmarks?${query}`), 400, 'VALIDATION_ERROR')).toBe(`Invalid query: ${expected}`);
});

it('words path parameters the same way', async () => {
  expect(expectError(await u.api('GET', `/bookmarks/${'x'.repeat(65)}`), 400, 'VALIDATION_ERROR')).toBe('Invalid path parameter: id: must be at most 64 characters');
  expect(expectError(await u.api('POST', '/export/xml'), 400, 'VALIDATION_ERROR')).toBe('Invalid path parameter: format: must be one of "json", "csv", "html"');
});
