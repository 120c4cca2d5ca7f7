import { ERROR_CODES, type ErrorCode } from './error-codes.ts';
import { errorStatus } from './errors.ts';

/** docs/http-api.md, written from the OpenAPI document (npm run docs:api), so that both say the same. */

interface Schema {
  $ref?: string;
  type?: string | string[];
  enum?: unknown[];
  const?: unknown;
  anyOf?: Schema[];
  oneOf?: Schema[];
  items?: Schema;
  properties?: Record<string, Schema>;
  required?: string[];
  additionalProperties?: boolean | Schema;
  default?: unknown;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  maxItems?: number;
  minimum?: number;
  maximum?: number;
  pattern?: string;
  format?: string;
}
interface Parameter {
  name: string;
  in: 'path' | 'query';
  required: boolean;
  schema: Schema;
}
interface Response {
  description: string;
  content?: Record<string, { schema?: Schema }>;
}
interface Operation {
  operationId: string;
  summary: string;
  tags: string[];
  security: unknown[];
  'x-scope'?: string;
  'x-heavy'?: boolean;
  parameters: Parameter[];
  requestBody?: { content: Record<string, { schema: Schema }> };
  responses: Record<string, Response>;
}
export interface OpenApi {
  info: { title: string; description: string };
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, Schema> };
}

/** What each code means, for the reference's table. */
const MEANING: Record<ErrorCode, string> = {
  MISSING_TOKEN: 'no `Authorization` header, or it is not `Bearer <token>`',
  INVALID_TOKEN: 'the token is malformed or matches no token',
  TOKEN_REVOKED: 'the token was revoked',
  TOKEN_EXPIRED: 'the token is past its expiry',
  SCOPE_REQUIRED: 'the token lacks the scope the endpoint needs; the message names it',
  API_ACCESS_PRO_REQUIRED: 'the account is not on the Pro plan',
  RATE_LIMITED: 'a rate limit is used up; wait `Retry-After` seconds',
  INVALID_FILE_TYPE: 'the cover file is not JPEG, PNG, GIF or WebP (or its Content-Type says another type)',
  FILE_TOO_LARGE: 'the cover file is larger than 10 MB',
  STORAGE_LIMIT_REACHED: "the user's covers would take more than 500 MB",
  RESERVATION_INVALID: 'the upload reservation expired, was used, or does not match the bookmark or job',
  TOO_MANY_PENDING_UPLOADS: '5 upload reservations are outstanding',
  COLLECTION_TOO_LARGE: 'the collection delete or restore would touch more than 1,000 rows; nothing changed',
  SMART_FOLDER_CURSOR_INVALID: "the folder's rules changed since the cursor was made; start again without it",
  VALIDATION_ERROR: 'a path parameter, query parameter or body field is wrong; the message names each',
  NOT_FOUND: 'no such resource, or no such route (another user\'s ids answer the same)',
  CONFLICT: 'the resource\'s state forbids it (in the trash, a name already taken, ...); the message says why',
  PAYLOAD_TOO_LARGE: 'the body is larger than 1 MB (5 MB for imports)',
  UNSUPPORTED_MEDIA_TYPE: 'the body is not sent as `application/json`',
  IDEMPOTENCY_KEY_REUSED: 'the Idempotency-Key was used for another request',
  IDEMPOTENCY_KEY_IN_USE: 'a request with this Idempotency-Key is still running',
  JOB_NOT_READY: 'the export has not completed (or failed)',
  INTERNAL_ERROR: 'a fault of the server; the request changed nothing',
  SERVICE_UNAVAILABLE: 'the database or the limits\' store (hosted mode) cannot be reached for now; nothing changed, retry after `Retry-After` seconds',
};

const anchor = (name: string) => name.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '');
const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\n/g, ' ');
const count = (n: number, word: string) => `${n.toLocaleString('en-US')} ${word}${n === 1 ? '' : 's'}`;
const refName = (ref: string) => ref.slice(ref.lastIndexOf('/') + 1);

function typeOf(s: Schema): string {
  if (s.$ref) return `[${refName(s.$ref)}](#${anchor(refName(s.$ref))})`;
  if (s.const !== undefined) return `\`${JSON.stringify(s.const)}\``;
  if (s.enum) return s.enum.map((v) => `\`${String(v)}\``).join(' | ');
  const union = s.anyOf ?? s.oneOf;
  if (union) return union.map(typeOf).join(' or ');
  const types = Array.isArray(s.type) ? s.type : s.type ? [s.type] : [];
  if (types.includes('array')) return `${s.items ? typeOf(s.items) : 'any'}[]`;
  // An object with no named fields (any object) reads as one.
  if (s.properties && Object.keys(s.properties).length > 0) {
    const fields = Object.entries(s.properties).map(([name, field]) => `${name}${(s.required ?? []).includes(name) ? '' : '?'}: ${typeOf(field)}`);
    return `{ ${fields.join(', ')} }`;
  }
  if (types.length === 0) return 'any';
  return types.join(' or ');
}

function constraints(s: Schema): string {
  const said: string[] = [];
  if (s.minLength !== undefined) said.push(`at least ${count(s.minLength, 'character')}`);
  if (s.maxLength !== undefined) said.push(`at most ${count(s.maxLength, 'character')}`);
  if (s.minItems !== undefined) said.push(`at least ${count(s.minItems, 'item')}`);
  if (s.maxItems !== undefined) said.push(`at most ${count(s.maxItems, 'item')}`);
  if (s.minimum !== undefined) said.push(`≥ ${s.minimum}`);
  if (s.maximum !== undefined) said.push(`≤ ${s.maximum}`);
  if (s.pattern !== undefined) said.push(`matches \`${s.pattern}\``);
  if (s.items) {
    const inner = constraints(s.items);
    if (inner) said.push(`each ${inner}`);
  }
  if (s.default !== undefined) said.push(`default \`${JSON.stringify(s.default)}\``);
  return said.join(', ');
}

function fieldTable(s: Schema): string[] {
  const rows = Object.entries(s.properties ?? {}).map(
    ([name, field]) => `| \`${name}\` | ${cell(typeOf(field))} | ${(s.required ?? []).includes(name) ? 'yes' : 'no'} | ${cell(constraints(field))} |`,
  );
  if (rows.length === 0) return [`${typeOf(s)}${constraints(s) ? `, ${constraints(s)}` : ''}`];
  const closed = ['', s.additionalProperties === false ? 'Other fields are refused by name.' : 'In a request, other fields are ignored.'];
  return ['| field | type | required | constraints |', '|---|---|---|---|', ...rows, ...closed];
}

function operation(method: string, path: string, op: Operation): string[] {
  const out = [`### ${method.toUpperCase()} ${path}`, '', `${op.summary}.`, ''];
  const facts: string[] = [];
  if (op.security.length === 0) facts.push('No token.');
  else facts.push(op['x-scope'] === 'token' ? 'Scope: any valid token.' : `Scope: \`${op['x-scope']}\`.`);
  if (op['x-heavy']) facts.push('Heavy endpoint (2 a minute per user).');
  out.push(facts.join(' '), '');
  if (op.parameters.length > 0) {
    out.push('| parameter | in | type | required | constraints |', '|---|---|---|---|---|');
    for (const p of op.parameters) {
      out.push(`| \`${p.name}\` | ${p.in} | ${cell(typeOf(p.schema))} | ${p.required ? 'yes' : 'no'} | ${cell(constraints(p.schema))} |`);
    }
    out.push('');
  }
  const body = op.requestBody?.content['application/json']?.schema;
  if (body) out.push(`Body: ${typeOf(body)}.`, '');
  const answers: string[] = [];
  const errors: string[] = [];
  for (const [status, response] of Object.entries(op.responses)) {
    const schema = Object.values(response.content ?? {})[0]?.schema;
    if (Number(status) < 400) {
      const types = Object.keys(response.content ?? {}).map((type) => `\`${type}\``);
      const data = schema?.properties?.data;
      const what = data ? `\`data\`: ${typeOf(data)}` : schema?.$ref ? `${typeOf(schema)} (no envelope)` : types.join(', ');
      answers.push(`\`${status}\` ${what}${response.description === 'success' ? '' : ` (${response.description})`}`);
    } else {
      errors.push(`\`${status}\` ${response.description}`);
    }
  }
  out.push(`Answers: ${answers.join('; ')}.`, '');
  if (errors.length > 0) out.push(`Errors: ${errors.join('; ')}.`, '');
  return out;
}

export function renderHttpReference(doc: OpenApi): string {
  const out = [
    `# ${doc.info.title}`,
    '',
    '<!-- Generated from lib/api/ by `npm run docs:api`; a test fails when it is out of date. Do not edit. -->',
    '',
    'The same reference, as an OpenAPI 3.1 document, is served by every Shelf server at `GET /v1/openapi.json` (no token needed).',
    '',
    '## Conventions',
    '',
    doc.info.description,
    '',
    '## Error codes',
    '',
    '| code | status | meaning |',
    '|---|---|---|',
    ...ERROR_CODES.map((code) => `| \`${code}\` | ${errorStatus[code]} | ${cell(MEANING[code])} |`),
    '| (IP block) | 403 | too many failed authentication attempts from this address; `error` is a plain string |',
    '',
  ];
  const byTag = new Map<string, string[]>();
  for (const [path, methods] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(methods)) {
      const tag = op.tags[0]!;
      byTag.set(tag, [...(byTag.get(tag) ?? []), ...operation(method, path, op)]);
    }
  }
  for (const [tag, lines] of byTag) out.push(`## ${tag[0]!.toUpperCase()}${tag.slice(1)}`, '', ...lines);
  out.push('## Schemas', '');
  for (const [name, schema] of Object.entries(doc.components.schemas)) out.push(`### ${name}`, '', ...fieldTable(schema), '');
  return `${out.join('\n').trimEnd()}\n`;
}
