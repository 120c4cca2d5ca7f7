import { GlobalWindow } from 'happy-dom';
import { populateGlobal } from 'vitest/runtime';

// Loaded again in one worker (after `vi.resetModules`), this module would make a second document while testing-library,
// which Node loaded once, still reads the first one's body: every later file would find nothing.
const LOADED = Symbol.for('shelf.test.dom');
if (LOADED in globalThis) {
  throw new Error('test/extension/support/dom.ts loaded twice in one worker: a file that resets modules belongs in the extension-isolated project (vitest.config.ts)');
}

/**
 * A DOM for component tests that also run the real server in-process. Such a
 * file runs in the `node` environment (`// @vitest-environment node`) and
 * imports this module FIRST, so that React and testing-library see a document
 * when they load. Why not the happy-dom environment: Vitest then transforms
 * every module for the browser, which rewrites the server's
 * `new URL('./migrations/', import.meta.url)` into a page URL, and it replaces
 * fetch with a page-origin one; an extension's background has neither.
 */
const window = new GlobalWindow({ url: 'http://localhost/options.html' });
Object.defineProperty(globalThis, LOADED, { value: true });
populateGlobal(globalThis, window, { bindFunctions: true });

/**
 * The end of a file's use of the DOM: its timers and requests stopped, its nodes removed. The window stays open for
 * the worker's next file (the extension's files share their worker's modules, this one and testing-library's, whose
 * `screen` is bound to this document's body).
 */
export async function closeDom(): Promise<void> {
  await window.happyDOM.abort();
  document.head.replaceChildren();
  document.body.replaceChildren();
}

// Loaded only now that a document exists (testing-library binds `screen` to it when it loads). The suite runs its files
// side by side on a 2-core machine, where a page's first answer from the real server can take over a second (CI once
// took longer than that to list 1,000 collections): a wait still ends as soon as what it waits for is shown, and only a
// failing one takes longer to report.
const { configure } = await import('@testing-library/react');
configure({ asyncUtilTimeout: 5_000 });
