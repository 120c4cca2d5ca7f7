/**
 * Unicode TR39 mixed-script detection, per word, at its "highly restrictive" level: the letters of
 * one word are all of one script, or of one of the mixes a language writes with (Japanese: Latin, Han,
 * Hiragana, Katakana; Chinese: Latin, Han, Bopomofo; Korean: Latin, Han, Hangul). So a Cyrillic "а"
 * inside a Latin word ("pаypal") is caught, while "Москва-trip", "日本語テキストabc" and "café" pass.
 * Scripts come from the engine's Unicode data (Script_Extensions); only the names of TR39's recommended
 * scripts are listed here. Letters of any other script count as one more script, so mixing one with a
 * recommended script is caught too.
 */
const RECOMMENDED = [
  'Arabic', 'Armenian', 'Bengali', 'Bopomofo', 'Cyrillic', 'Devanagari', 'Ethiopic', 'Georgian', 'Greek', 'Gujarati',
  'Gurmukhi', 'Han', 'Hangul', 'Hebrew', 'Hiragana', 'Kannada', 'Katakana', 'Khmer', 'Lao', 'Latin', 'Malayalam',
  'Myanmar', 'Oriya', 'Sinhala', 'Tamil', 'Telugu', 'Thaana', 'Thai', 'Tibetan',
] as const;
type Script = (typeof RECOMMENDED)[number];

const ALLOWED_MIXES: readonly (readonly Script[])[] = [
  ...RECOMMENDED.map((script) => [script]),
  ['Latin', 'Han', 'Hiragana', 'Katakana'],
  ['Latin', 'Han', 'Bopomofo'],
  ['Latin', 'Han', 'Hangul'],
];

interface Patterns {
  ofScript: readonly (readonly [Script, RegExp])[];
  /** Letters that belong to a script: Common and Inherited ones (as "ª" or a combining accent) go with any. */
  scriptLetter: RegExp;
  notLetter: RegExp;
}

let patterns: Patterns | undefined;
/**
 * Made at the first text that is not ASCII: some 30 Unicode-property patterns take milliseconds of CPU to
 * make, which every page that imports the API's schemas spent as its modules were evaluated.
 */
const unicodePatterns = (): Patterns =>
  (patterns ??= {
    ofScript: RECOMMENDED.map((script) => [script, new RegExp(`\\p{scx=${script}}`, 'u')] as const),
    scriptLetter: /(?![\p{scx=Zyyy}\p{scx=Zinh}])[\p{L}\p{M}]/gu,
    notLetter: /[^\p{L}\p{M}]+/u,
  });

/** The scripts a letter may be written in (several for some, as a Han character used in Japanese text). */
function scriptsOf(letter: string): Script[] {
  return unicodePatterns()
    .ofScript.filter(([, pattern]) => pattern.test(letter))
    .map(([script]) => script);
}

function wordMixesScripts(word: string): boolean {
  const letters = word.match(unicodePatterns().scriptLetter);
  if (letters === null) return false;
  const scripts = [...new Set(letters)].map(scriptsOf);
  // A letter of a script not listed: the word must hold no letter of a listed one.
  if (scripts.some((s) => s.length === 0)) return scripts.some((s) => s.length > 0);
  return !ALLOWED_MIXES.some((mix) => scripts.every((s) => s.some((script) => mix.includes(script))));
}

/** Whether some word of the text mixes scripts in a way no language does. */
export function mixesScripts(text: string): boolean {
  // Plain ASCII is Latin and Common only: the usual case costs one test.
  if (!/[^\p{ASCII}]/u.test(text)) return false;
  return text.split(unicodePatterns().notLetter).some(wordMixesScripts);
}
