import type { Condition, Rules } from '../../lib/api/smart-folders.ts';

/** The index a scan walks newest first; conditions it cannot serve are tested per row. */
export type ScanIndex =
  | { by: 'domain'; domain: string }
  | { by: 'type'; type: string }
  | { by: 'favorite' }
  | { by: 'newest' };

export type EvaluationPlan =
  | { strategy: 'exact-tag'; tag: string }
  | {
      strategy: 'scan';
      index: ScanIndex;
      /** Bounds of created_at the index range can use (exclusive); null when unbounded. */
      createdAfter: number | null;
      createdBefore: number | null;
    };

type Of<F extends Condition['field']> = Extract<Condition, { field: F }>;

/**
 * Picks the strategy of the spec's evaluation rules. Only a conjunction can be
 * narrowed by one of its conditions; a single condition is one under either match.
 */
export function planEvaluation(rules: Rules): EvaluationPlan {
  const conjunctive = rules.match === 'all' || rules.conditions.length === 1;
  if (!conjunctive) return { strategy: 'scan', index: { by: 'newest' }, createdAfter: null, createdBefore: null };

  const all = rules.conditions;
  const having = <F extends Condition['field']>(field: F, pass: (c: Of<F>) => boolean = () => true): Of<F>[] =>
    all.filter((c): c is Of<F> => c.field === field && pass(c as Of<F>));

  // The first exact tag: the choice must not depend on data, or a cursor could change tag between pages.
  const tag = having('tag', (c) => c.operator === 'equals')[0];
  if (tag) return { strategy: 'exact-tag', tag: tag.value };

  const domain = having('domain', (c) => c.operator === 'equals')[0];
  const type = having('type')[0];
  const favorite = having('isFavorite', (c) => c.value === 'true')[0];
  const index: ScanIndex = domain
    ? { by: 'domain', domain: domain.value }
    : type
      ? { by: 'type', type: type.value }
      : favorite
        ? { by: 'favorite' }
        : { by: 'newest' };

  const after = having('createdAfter').map((c) => Number(c.value));
  const before = having('createdBefore').map((c) => Number(c.value));
  return {
    strategy: 'scan',
    index,
    createdAfter: after.length > 0 ? Math.max(...after) : null,
    createdBefore: before.length > 0 ? Math.min(...before) : null,
  };
}
