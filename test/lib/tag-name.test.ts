import { describe, expect, it } from 'vitest';
import { parseTagInput } from '../../components/tag-suggestions.ts';
import { TagName } from '../../lib/api/bookmarks.ts';
import { normaliseTagName, parseTagName } from '../../lib/api/tag-name.ts';

const ZWSP = '\u200B';
const RLO = '\u202E';

describe('tag names: one spelling for what looks the same', () => {
  it('composes to Unicode NFC', () => {
    const decomposed = 're\u0301sume\u0301';
    expect(normaliseTagName(decomposed)).toBe('r\u00e9sum\u00e9');
    expect(normaliseTagName(decomposed)).toBe(normaliseTagName('r\u00e9sum\u00e9'));
  });

  it('drops controls and invisible characters: zero-width, bidi controls, soft hyphen, BOM, fillers', () => {
    expect(normaliseTagName(`dev${ZWSP}/java\u00ADscript`)).toBe('dev/javascript');
    expect(normaliseTagName(`${RLO}evil\u202C/\u2066x\u2069`)).toBe('evil/x');
    expect(normaliseTagName(`\uFEFFa\u0000b\u007F\u200C\u200D\u2060\u3164`)).toBe('ab');
    // Dropping the combining grapheme joiner lets the accent compose.
    expect(normaliseTagName('e\u034F\u0301')).toBe('\u00e9');
  });

  it('keeps white space as a space, and the joiner inside an emoji sequence', () => {
    expect(normaliseTagName('a\tb\nc')).toBe('a b c');
    expect(normaliseTagName('👩\u200D💻 work')).toBe('👩\u200D💻 work');
    expect(normaliseTagName('👍🏽\u200D')).toBe('👍🏽');
  });

  it('refuses a name or a level that is empty once invisible characters are gone', () => {
    expect(parseTagName(ZWSP)).toBeNull();
    expect(parseTagName(`a/${ZWSP}${RLO} /b`)).toBeNull();
    expect(parseTagName(`a/${ZWSP}b`)).toBe('a/b');
  });

  it('is the same rule in the API schema the server validates with and in the extension\'s tag field', () => {
    const raw = ` Dev ${ZWSP}› re\u0301sume\u0301${RLO} `;
    expect(parseTagInput(raw)).toBe('Dev/r\u00e9sum\u00e9');
    expect(TagName.parse(raw.replace('›', '/'))).toBe('Dev/r\u00e9sum\u00e9');
    expect(TagName.safeParse(`a/${ZWSP}/b`).error?.issues[0]?.message).toBe('must not have an empty level (as in a//b)');
  });
});
