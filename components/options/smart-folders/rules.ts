import type * as z from 'zod/mini';
import { CreateSmartFolderBody, Condition, MAX_CONDITIONS } from '../../../lib/api/smart-folders.ts';

export type Field = Condition['field'];

/** A condition as the form holds it: any text, checked only with the server's own schemas. */
export interface DraftCondition {
  field: Field;
  operator: string;
  value: string;
}

export interface Draft {
  name: string;
  match: 'all' | 'any';
  conditions: DraftCondition[];
}

type FieldOperators = readonly { field: Field; operators: readonly string[] }[];
let fieldOperators: FieldOperators | undefined;

/**
 * Each field and the operators the API allows for it, read from the schemas the server validates with: on first use,
 * as the schemas themselves are made (lazySchema), not as the options page's modules load.
 */
export const fields = (): FieldOperators =>
  (fieldOperators ??= Condition.def.options.map((shape) => ({
    field: shape.shape.field.def.values[0] as Field,
    operators: shape.shape.operator.options,
  })));

export const FIELD_LABELS: Record<Field, string> = {
  tag: 'Tag',
  domain: 'Domain',
  type: 'Type',
  isFavorite: 'Favourite',
  createdAfter: 'Saved after',
  createdBefore: 'Saved before',
  clickCount: 'Times opened',
};

export const OPERATOR_LABELS: Record<string, string> = { equals: 'is', contains: 'contains', gte: 'at least', lte: 'at most' };

/** What a new condition of the field starts with: the first operator, and a value where the field has a fixed set. */
export function blankCondition(field: Field): DraftCondition {
  const operator = fields().find((f) => f.field === field)?.operators[0] ?? 'equals';
  const value = field === 'type' ? 'link' : field === 'isFavorite' ? 'true' : '';
  return { field, operator, value };
}

export { MAX_CONDITIONS };

export type Checked =
  | { ok: true; body: z.output<typeof CreateSmartFolderBody> }
  | { ok: false; nameError: string | null; conditionErrors: Map<number, string>; rulesError: string | null };

/**
 * A condition's problem in the form's words: the schema's message, except where
 * it speaks of the API's encoding (dates and counts travel as digit strings,
 * which the form's date and number boxes hide).
 */
function conditionError(condition: DraftCondition | undefined, part: PropertyKey | undefined, message: string): string {
  if (part === 'value' && (condition?.field === 'createdAfter' || condition?.field === 'createdBefore')) return 'Choose a date';
  if (part === 'value' && condition?.field === 'clickCount') return 'Value must be a whole number, 0 or more';
  return `${typeof part === 'string' ? `${part === 'value' ? 'Value' : 'Operator'} ` : ''}${message}`;
}

/** The draft checked exactly as the server will check it (the same schema), its problems placed where the form shows them. */
export function check(draft: Draft): Checked {
  const parsed = CreateSmartFolderBody.safeParse({ name: draft.name, rules: { match: draft.match, conditions: draft.conditions } });
  if (parsed.success) return { ok: true, body: parsed.data };
  let nameError: string | null = null;
  let rulesError: string | null = null;
  const conditionErrors = new Map<number, string>();
  for (const issue of parsed.error.issues) {
    const [first, second, index, part] = issue.path;
    if (first === 'name') nameError ??= `Name ${issue.message}`;
    else if (second === 'conditions' && typeof index === 'number') {
      if (!conditionErrors.has(index)) conditionErrors.set(index, conditionError(draft.conditions[index], part, issue.message));
    } else rulesError ??= `Conditions ${issue.message}`;
  }
  return { ok: false, nameError, conditionErrors, rulesError };
}

/** A date input's day (local midnight) as the API's milliseconds string, and back. */
export const dayToMs = (day: string): string => (day === '' ? '' : String(new Date(`${day}T00:00:00`).getTime()));
export const msToDay = (ms: string): string => {
  if (!/^\d+$/.test(ms)) return '';
  const d = new Date(Number(ms));
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
};
