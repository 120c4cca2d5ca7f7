import type * as z from 'zod/mini';

type Issue = z.core.$ZodRawIssue;
type Def = z.core.$ZodTypeDef & { element?: z.core.$ZodType; in?: z.core.$ZodType; innerType?: z.core.$ZodType; format?: string };

/**
 * The API's own wording for every problem a schema can find, so that no answer carries a
 * library's phrasing (docs/api-decisions.md, "Validation messages"). A message a schema
 * gives itself (a refine's) comes first; this covers the rest. Each message follows the
 * field's path: "tags: expected an array of strings, got a string".
 */
export function issueMessage(issue: Issue): string {
  switch (issue.code) {
    case 'invalid_type':
      if (issue.input === undefined) return 'is required';
      return `expected ${typeName(issue.inst, issue.expected)}, got ${valueName(issue.input)}`;
    case 'too_big':
      return sizeMessage('at most', issue.origin, Number(issue.maximum), issue.inclusive !== false);
    case 'too_small':
      if (Number(issue.minimum) === 1 && (issue.origin === 'string' || issue.origin === 'array')) return 'must not be empty';
      return sizeMessage('at least', issue.origin, Number(issue.minimum), issue.inclusive !== false);
    case 'invalid_value':
      return issue.values.length === 1 ? `must be ${literal(issue.values[0])}` : `must be one of ${issue.values.map(literal).join(', ')}`;
    case 'unrecognized_keys':
      return `unknown ${issue.keys.length === 1 ? 'field' : 'fields'} ${issue.keys.map((key) => `"${key}"`).join(', ')}`;
    case 'invalid_format':
      return issue.format === 'regex' ? 'is not in the expected form' : `must be a valid ${issue.format}`;
    case 'not_multiple_of':
      return `must be a multiple of ${String(issue.divisor)}`;
    case 'invalid_union':
      return 'matches none of the accepted forms';
    case 'invalid_key':
      return 'has a key that is not valid';
    case 'invalid_element':
      return 'has a value that is not valid';
    case 'custom':
      return 'is not valid';
  }
}

const UNITS: Record<string, [string, string]> = { string: ['character', 'characters'], array: ['item', 'items'] };

function sizeMessage(bound: 'at most' | 'at least', origin: string, limit: number, inclusive: boolean): string {
  const unit = UNITS[origin];
  if (unit !== undefined) return `must ${origin === 'array' ? 'hold' : 'be'} ${bound} ${limit} ${limit === 1 ? unit[0] : unit[1]}`;
  if (!inclusive) return `must be ${bound === 'at most' ? 'less' : 'more'} than ${limit}`;
  return `must be ${bound} ${limit}`;
}

const literal = (value: unknown): string => (typeof value === 'string' ? `"${value}"` : String(value));

/** What a schema takes, as words: "a string", "an array of strings", "a whole number". */
function typeName(schema: unknown, fallback: string, plural = false): string {
  const def = (schema as { _zod?: { def?: Def } } | undefined)?._zod?.def;
  const inner = def?.element ?? def?.in ?? def?.innerType;
  switch (def?.type ?? fallback) {
    case 'array':
      return `${plural ? 'arrays' : 'an array'} of ${inner === undefined ? 'values' : typeName(inner, 'value', true)}`;
    case 'object':
      return plural ? 'JSON objects' : 'a JSON object';
    case 'string':
      return plural ? 'strings' : 'a string';
    case 'number':
    case 'int':
      if (def?.format !== undefined && /int/.test(def.format)) return plural ? 'whole numbers' : 'a whole number';
      return plural ? 'numbers' : 'a number';
    case 'boolean':
      return plural ? 'true or false values' : 'true or false';
    case 'null':
      return 'null';
    case 'pipe':
    case 'optional':
    case 'default':
    case 'prefault':
    case 'readonly':
      return inner === undefined ? (plural ? 'values' : 'a value') : typeName(inner, fallback, plural);
    case 'union': {
      const options = (def as { options?: unknown[] } | undefined)?.options ?? [];
      const named = new Set(options.map((option) => typeName(option, 'value', plural)));
      return named.size === 1 ? [...named][0]! : plural ? 'values' : 'a value';
    }
    case 'nullable':
      return inner === undefined ? 'a value or null' : `${typeName(inner, fallback, plural)} or null`;
    default:
      return plural ? 'values' : 'a value';
  }
}

/** What the client sent, as words. */
function valueName(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  switch (typeof value) {
    case 'string':
      return 'a string';
    case 'number':
      return Number.isInteger(value) ? 'a whole number' : 'a number';
    case 'boolean':
      return String(value);
    case 'object':
      return 'a JSON object';
    default:
      return 'a value of another kind';
  }
}
