import { describe, expect, it } from 'vitest';
import { Rules } from '../../lib/api/smart-folders.ts';
import { ApiError } from '../../server/http/api-error.ts';
import { type CursorState, decodeCursor, encodeCursor } from '../../server/smart-folders/cursor.ts';
import { planEvaluation } from '../../server/smart-folders/plan.ts';

const rules = (match: 'all' | 'any', ...conditions: [string, string, string][]) =>
  Rules.parse({ match, conditions: conditions.map(([field, operator, value]) => ({ field, operator, value })) });

describe('planEvaluation', () => {
  const scan = (index: object, createdAfter: number | null = null, createdBefore: number | null = null) => ({
    strategy: 'scan',
    index,
    createdAfter,
    createdBefore,
  });

  it.each([
    ['the first exact tag of a conjunction', rules('all', ['domain', 'equals', 'a.com'], ['tag', 'equals', 'one'], ['tag', 'equals', 'two']), { strategy: 'exact-tag', tag: 'one' }],
    ['an exact tag alone under any', rules('any', ['tag', 'equals', 'one']), { strategy: 'exact-tag', tag: 'one' }],
    ['no exact tag for a disjunction', rules('any', ['tag', 'equals', 'one'], ['type', 'equals', 'video']), scan({ by: 'newest' })],
    ['tag contains is no exact tag', rules('all', ['tag', 'contains', 'one']), scan({ by: 'newest' })],
    ['the domain index before the type index', rules('all', ['type', 'equals', 'video'], ['domain', 'equals', 'A.com']), scan({ by: 'domain', domain: 'a.com' })],
    ['domain contains uses no index', rules('all', ['domain', 'contains', 'a']), scan({ by: 'newest' })],
    ['the type index before the favorite index', rules('all', ['isFavorite', 'equals', 'true'], ['type', 'equals', 'video']), scan({ by: 'type', type: 'video' })],
    ['the favorite index for favorites', rules('all', ['isFavorite', 'equals', 'true']), scan({ by: 'favorite' })],
    ['no index for non-favorites', rules('all', ['isFavorite', 'equals', 'false']), scan({ by: 'newest' })],
    ['the tightest date bounds', rules('all', ['createdAfter', 'equals', '10'], ['createdAfter', 'equals', '20'], ['createdBefore', 'equals', '90'], ['createdBefore', 'equals', '80']), scan({ by: 'newest' }, 20, 80)],
    ['no date bounds for a disjunction', rules('any', ['createdAfter', 'equals', '10'], ['createdBefore', 'equals', '5']), scan({ by: 'newest' })],
    ['no conditions', rules('all'), scan({ by: 'newest' })],
  ])('picks %s', (_, given, plan) => {
    expect(planEvaluation(given)).toEqual(plan);
  });
});

describe('cursor codec', () => {
  const key = 'k'.repeat(64);
  const state: CursorState = { kind: 'scan', createdAt: 1_700_000_000_000, seq: 42, scanned: 1_234, returned: 200 };
  const refusal = (token: string, withKey = key) => {
    try {
      decodeCursor(token, withKey);
    } catch (err) {
      return err;
    }
    throw new Error('accepted');
  };

  it('reads back what it wrote, in a URL-safe form', () => {
    const token = encodeCursor(state, key);
    expect(token).toMatch(/^[\w-]+\.[\w-]+$/);
    expect(decodeCursor(token, key)).toEqual(state);
  });

  it('refuses a cursor signed with another key, altered, or garbled, as VALIDATION_ERROR', () => {
    const token = encodeCursor(state, key);
    const [, signature] = token.split('.');
    const altered = `${Buffer.from(JSON.stringify({ ...state, returned: 0 })).toString('base64url')}.${signature}`;
    for (const [bad, withKey] of [[token, 'x'.repeat(64)], [altered, key], ['', key], ['a.b.c', key], [`${token}=`, key]] as const) {
      const err = refusal(bad, withKey);
      expect(err).toBeInstanceOf(ApiError);
      expect(err).toMatchObject({ code: 'VALIDATION_ERROR', status: 400, message: expect.stringMatching(/^Invalid query: cursor: /) });
    }
  });

  it('refuses a correctly signed cursor whose contents break the limits', () => {
    for (const bad of [{ ...state, scanned: 5_001 }, { ...state, returned: -1 }, { ...state, extra: 1 }, { kind: 'tag' }]) {
      expect(refusal(encodeCursor(bad as CursorState, key))).toMatchObject({ code: 'VALIDATION_ERROR' });
    }
  });
});
