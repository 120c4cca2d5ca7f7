import { type RefObject, useId, useMemo, useState } from 'react';
import { type Term, parseQuery } from '../../../lib/search/parse.ts';
import { focusRing, inputClass, quietButtonClass } from '../../field-styles.ts';
import { useRecentSearches } from './use-recent-searches.ts';

const IS_LABELS = { favorite: 'Favourites', broken: 'Broken links', unsorted: 'Unsorted', untagged: 'Without tags' } as const;

/** A chip's words: what the search understood of one piece of the text. */
export function termLabel(term: Term): string {
  switch (term.kind) {
    case 'word':
      return term.exclude ? `Without: ${term.text}` : `Word: ${term.text}`;
    case 'phrase':
      return term.exclude ? `Without: "${term.text}"` : `Phrase: "${term.text}"`;
    case 'tag':
      return `${term.exclude ? 'Not tagged' : 'Tag'}: ${term.name} (and tags under it)`;
    case 'site':
      return `Site: ${term.domain}`;
    case 'in':
      return `In collection: ${term.collection}`;
    case 'is':
      return IS_LABELS[term.value];
    case 'type':
      return `Type: ${term.value}`;
  }
}

const chipClass = 'rounded-full bg-zinc-100 px-2 py-0.5 text-xs text-zinc-800 dark:bg-zinc-800 dark:text-zinc-200';

interface Props {
  value: string;
  onChange(text: string): void;
  /** Where the search looks when not library-wide (the list open now), shown so the user knows. */
  scopeTitle?: string | null;
  /** The input, for a page that focuses it from a shortcut (the library page's `/`). */
  inputRef?: RefObject<HTMLInputElement | null>;
}

/**
 * The library's search box: the text with its operators, each understood
 * piece shown as a chip and anything not understood said in words, the syntax
 * a click away, and the recent searches to run again. Escape clears it; Enter
 * (or leaving the box) keeps the search among the recent ones.
 */
export function SearchBox({ value, onChange, scopeTitle, inputRef }: Props) {
  const parsed = useMemo(() => parseQuery(value), [value]);
  const recent = useRecentSearches();
  const [showRecent, setShowRecent] = useState(false);
  const recentId = useId();
  const chips = parsed.terms.filter((t) => t.kind !== 'word' || t.exclude);
  const remember = () => {
    if (value.trim()) recent.remember(value);
  };

  return (
    <div className="space-y-1.5">
      <form
        role="search"
        className="flex items-center gap-1"
        onSubmit={(e) => {
          e.preventDefault();
          remember();
        }}
      >
        <label className="min-w-0 flex-1">
          <span className="sr-only">{scopeTitle ? `Search in ${scopeTitle}` : 'Search bookmarks'}</span>
          <input
            ref={inputRef}
            type="search"
            className={inputClass}
            placeholder={scopeTitle ? `Search in ${scopeTitle}` : 'Search bookmarks'}
            value={value}
            onChange={(e) => onChange(e.target.value)}
            onBlur={remember}
            onKeyDown={(e) => {
              if (e.key === 'Escape' && value) {
                e.preventDefault();
                onChange('');
              }
            }}
          />
        </label>
        {recent.list.length > 0 && (
          <button type="button" className={`${quietButtonClass} px-2`} aria-expanded={showRecent} aria-controls={recentId} onClick={() => setShowRecent((v) => !v)}>
            Recent
          </button>
        )}
      </form>
      {showRecent && recent.list.length > 0 && (
        <section id={recentId} aria-label="Recent searches" className="rounded-md border border-zinc-200 p-1 dark:border-zinc-700">
          <ul>
            {recent.list.map((text) => (
              <li key={text}>
                <button
                  type="button"
                  className={`w-full truncate rounded px-2 py-1 text-left text-sm hover:bg-zinc-100 dark:hover:bg-zinc-800 ${focusRing}`}
                  onClick={() => {
                    onChange(text);
                    setShowRecent(false);
                  }}
                >
                  {text}
                </button>
              </li>
            ))}
          </ul>
          <button
            type="button"
            className={`${quietButtonClass} text-xs`}
            onClick={() => {
              recent.clear();
              setShowRecent(false);
            }}
          >
            Clear recent searches
          </button>
        </section>
      )}
      {chips.length > 0 && (
        <ul aria-label="Search filters" className="flex flex-wrap gap-1">
          {chips.map((term, i) => (
            <li key={i} className={chipClass}>
              {termLabel(term)}
            </li>
          ))}
        </ul>
      )}
      {parsed.notes.length > 0 && (
        <ul aria-label="About this search" className="space-y-0.5 text-xs text-amber-800 dark:text-amber-300">
          {parsed.notes.map((note, i) => (
            <li key={i}>{note.text}</li>
          ))}
        </ul>
      )}
      <details className="text-xs text-zinc-600 dark:text-zinc-400">
        <summary className={`cursor-pointer rounded ${focusRing}`}>Search tips</summary>
        <dl className="mt-1 grid grid-cols-[auto_1fr] gap-x-2 gap-y-0.5">
          <dt className="font-mono">#tag</dt>
          <dd>bookmarks with the tag, or a tag under it (#dev/rust)</dd>
          <dt className="font-mono">site:example.com</dt>
          <dd>bookmarks of one site</dd>
          <dt className="font-mono">in:Reading</dt>
          <dd>bookmarks in a collection (in:"Two words")</dd>
          <dt className="font-mono">is:favorite</dt>
          <dd>also is:broken, is:unsorted, is:untagged</dd>
          <dt className="font-mono">type:video</dt>
          <dd>also link, article, image, document</dd>
          <dt className="font-mono">"two words"</dt>
          <dd>the words together</dd>
          <dt className="font-mono">-word -#tag</dt>
          <dd>leave out bookmarks with the word or tag</dd>
        </dl>
      </details>
    </div>
  );
}
