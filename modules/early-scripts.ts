import { resolve } from 'node:path';
import { addViteConfig, defineWxtModule } from 'wxt/modules';

/**
 * The library pages' first script: sidepanel.html's is sidepanel-early.js, options.html's
 * options-early.js, library.html's library-early.js. Async, so the parser never waits for it, and a classic script, so it
 * runs as soon as it has loaded, while the page's modules are still loading. Each starts
 * the storage reads its page opens with (lib/storage/early-reads.ts).
 */
const EARLY_SCRIPTS: Record<string, string> = { sidepanel: '/sidepanel-early.js', options: '/options-early.js', library: '/library-early.js' };

export default defineWxtModule((wxt) => {
  const pages = new Map(Object.entries(EARLY_SCRIPTS).map(([page, script]) => [resolve(wxt.config.entrypointsDir, page, 'index.html'), script]));
  addViteConfig(wxt, () => ({
    plugins: [
      {
        name: 'shelf:early-scripts',
        transformIndexHtml: {
          order: 'post',
          handler(html, { filename }) {
            const src = pages.get(resolve(filename));
            return src === undefined ? html : { html, tags: [{ tag: 'script', attrs: { src, async: true }, injectTo: 'head-prepend' }] };
          },
        },
      },
    ],
  }));
});
