import { focusRing } from '../field-styles.ts';

/** The library page (entrypoints/library/) in a new tab, from the side panel and the options page. */
export function OpenLibraryLink() {
  return (
    <a href="/library.html" target="_blank" rel="noopener" className={`shrink-0 text-sm text-blue-700 underline hover:no-underline dark:text-blue-400 ${focusRing}`}>
      Open library
    </a>
  );
}
