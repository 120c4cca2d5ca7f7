import { BookmarkType } from '../api/bookmarks.ts';

/** The `is:` values a search understands. */
export const IS_VALUES = ['favorite', 'broken', 'unsorted', 'untagged'] as const;
export type IsValue = (typeof IS_VALUES)[number];

/** One understood piece of a search, in the order typed: what the search box shows as a chip. */
export type Term =
  | { kind: 'word'; text: string; exclude: boolean }
  | { kind: 'phrase'; text: string; exclude: boolean }
  | { kind: 'tag'; name: string; exclude: boolean }
  | { kind: 'site'; domain: string }
  | { kind: 'in'; collection: string }
  | { kind: 'is'; value: IsValue }
  | { kind: 'type'; value: BookmarkType };

/** Something typed that was not taken as written: the search says so, in words a user reads. */
export interface ParseNote {
  text: string;
}

export interface ParsedQuery {
  terms: Term[];
  notes: ParseNote[];
}

const OPERATORS = ['site', 'in', 'is', 'type'] as const;
type Operator = (typeof OPERATORS)[number];
const isOperator = (name: string): name is Operator => (OPERATORS as readonly string[]).includes(name);

/** `word:value` where word is letters only and the value does not start with `/`: a URL (`https://…`) or a time (`10:30`) stays a word. */
const OPERATOR_LIKE = /^([a-z]+):(.*)$/i;

const EXAMPLES: Record<Operator, string> = {
  site: 'site:example.com',
  in: 'in:Reading or in:"Reading list"',
  is: `is:${IS_VALUES.join(', is:')}`,
  type: `type:${BookmarkType.options.join(', type:')}`,
};

/** The domain as the API stores it: lowercase, without scheme, `www.`, port or path. */
export function siteDomain(value: string): string {
  return value
    .trim()
    .toLowerCase()
    .replace(/^[a-z][a-z0-9+.-]*:\/\//, '')
    .replace(/[/?#].*$/, '')
    .replace(/:\d+$/, '')
    .replace(/^www\./, '')
    .replace(/\.$/, '');
}

interface Token {
  /** The text as typed, for notes. */
  raw: string;
  exclude: boolean;
  /** Set when the token (or an operator's value) was a closed quote. */
  quoted: boolean;
  /** `in:` of `in:"Reading list"`; null for words and phrases. */
  operator: string | null;
  value: string;
}

/** Splits the text into tokens; an unclosed quote is dropped and what follows it read as words. */
function tokenise(text: string, notes: ParseNote[]): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < text.length) {
    if (/\s/.test(text[i]!)) {
      i++;
      continue;
    }
    const start = i;
    const exclude = text[i] === '-' && i + 1 < text.length && !/\s/.test(text[i + 1]!);
    if (exclude) i++;
    // An operator whose value is quoted: in:"Reading list".
    const head = /^([a-z]+):"/i.exec(text.slice(i));
    const quoteAt = text[i] === '"' ? i : head ? i + head[0].length - 1 : -1;
    if (quoteAt !== -1) {
      const close = text.indexOf('"', quoteAt + 1);
      if (close === -1) {
        notes.push({ text: 'A quote is not closed, so the words after it are searched one by one.' });
        // The rest is read again without the quote.
        text = text.slice(0, quoteAt) + text.slice(quoteAt + 1);
        i = start;
        continue;
      }
      tokens.push({ raw: text.slice(start, close + 1), exclude, quoted: true, operator: head ? head[1]!.toLowerCase() : null, value: text.slice(quoteAt + 1, close) });
      i = close + 1;
      continue;
    }
    while (i < text.length && !/\s/.test(text[i]!)) i++;
    const word = text.slice(exclude ? start + 1 : start, i);
    const op = OPERATOR_LIKE.exec(word);
    const operator = op && !op[2]!.startsWith('/') ? op[1]!.toLowerCase() : null;
    tokens.push({ raw: text.slice(start, i), exclude, quoted: false, operator, value: operator ? op![2]! : word });
  }
  return tokens;
}

/** The token kept as words (as typed, without a leading `-`), with a note of why. */
function asWords(token: Token, note: string, notes: ParseNote[]): Term[] {
  notes.push({ text: note });
  const words = (token.exclude ? token.raw.slice(1) : token.raw).replaceAll('"', ' ').split(/\s+/).filter(Boolean);
  return words.map((text) => ({ kind: 'word', text, exclude: token.exclude }));
}

function operatorTerm(token: Token & { operator: string }, notes: ParseNote[]): Term[] {
  const { operator, raw } = token;
  const value = token.value.trim();
  if (!isOperator(operator)) return asWords(token, `"${raw}" is not a search operator, so it is searched as words.`, notes);
  if (value === '') return asWords(token, `"${operator}:" needs something after it, such as ${EXAMPLES[operator]}; it is searched as a word.`, notes);
  if (token.exclude) return asWords(token, `"-${operator}:" cannot exclude; "${raw}" is searched as words.`, notes);
  switch (operator) {
    case 'site': {
      const domain = siteDomain(value);
      if (domain === '') return asWords(token, `"${raw}" names no site, so it is searched as words.`, notes);
      return [{ kind: 'site', domain }];
    }
    case 'in':
      return [{ kind: 'in', collection: value }];
    case 'is': {
      const is = IS_VALUES.find((v) => v === value.toLowerCase() || (v === 'favorite' && value.toLowerCase() === 'favourite'));
      if (!is) return asWords(token, `"${raw}" is not understood (try ${EXAMPLES.is}), so it is searched as words.`, notes);
      return [{ kind: 'is', value: is }];
    }
    case 'type': {
      const type = BookmarkType.options.find((t) => t === value.toLowerCase());
      if (!type) return asWords(token, `"${raw}" is not a type (try ${EXAMPLES.type}), so it is searched as words.`, notes);
      return [{ kind: 'type', value: type }];
    }
  }
}

/**
 * Reads a search as typed: `#tag` (a tag and the tags under it, as `#a/b`),
 * `site:`, `in:`, `is:`, `type:`, `-` before a word, phrase or tag to exclude
 * it, quoted phrases and plain words. Never throws: what it cannot read as
 * typed it keeps as plain words and says so in `notes`.
 */
export function parseQuery(text: string): ParsedQuery {
  const notes: ParseNote[] = [];
  const terms: Term[] = [];
  for (const token of tokenise(text, notes)) {
    if (token.operator !== null) {
      terms.push(...operatorTerm(token as Token & { operator: string }, notes));
    } else if (token.quoted) {
      const phrase = token.value.trim().replace(/\s+/g, ' ');
      if (phrase !== '') terms.push({ kind: phrase.includes(' ') ? 'phrase' : 'word', text: phrase, exclude: token.exclude });
    } else if (token.value.startsWith('#')) {
      const name = token.value.slice(1).replace(/^\/+|\/+$/g, '');
      if (name === '') terms.push(...asWords(token, `"${token.raw}" names no tag, so it is searched as a word.`, notes));
      else terms.push({ kind: 'tag', name, exclude: token.exclude });
    } else {
      terms.push({ kind: 'word', text: token.value, exclude: token.exclude });
    }
  }
  return { terms, notes };
}
