import { GlobalWindow } from 'happy-dom';
import { populateGlobal } from 'vitest/runtime';

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
populateGlobal(globalThis, window, { bindFunctions: true });

export async function closeDom(): Promise<void> {
  await window.happyDOM.abort();
  await window.happyDOM.close();
}
