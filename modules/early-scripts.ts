import { resolve } from 'node:path';
import { addViteConfig, defineWxtModule } from 'wxt/modules';

/**
 * The library pages' first script: sidepanel.html's is sidepanel-early.js, options.html's
 * options-early.js, library.html's library-early.js, each a classic script in the head that starts
 * the storage reads its page opens with (lib/storage/early-reads.ts). Async, so the parser never
 * waits for it, except options-early.js: it sends the Duplicates view's heavy request, and an async
 * script ran 90-140 ms after the page's JS context, behind the page's module graph; a parser-blocking
 * one of 1 kB runs at once.
 */
const EARLY_SCRIPTS: Record<string, { src: string; async: boolean }> = {
  sidepanel: { src: '/sidepanel-early.js', async: true },
  options: { src: '/options-early.js', async: false },
  library: { src: '/library-early.js', async: true },
};

export default defineWxtModule((wxt) => {
  const pages = new Map(Object.entries(EARLY_SCRIPTS).map(([page, script]) => [resolve(wxt.config.entrypointsDir, page, 'index.html'), script]));
  addViteConfig(wxt, () => ({
    plugins: [
      {
        name: 'shelf:early-scripts',
        transformIndexHtml: {
          order: 'post',
          handler(html, { filename }) {
            const script = pages.get(resolve(filename));
            return script === undefined ? html : { html, tags: [{ tag: 'script', attrs: { src: script.src, async: script.async }, injectTo: 'head-prepend' }] };
          },
        },
      },
    ],
  }));
});
