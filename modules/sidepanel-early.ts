import { resolve } from 'node:path';
import { addViteConfig, defineWxtModule } from 'wxt/modules';

/**
 * sidepanel.html's first script is sidepanel-early.js (entrypoints/sidepanel-early.ts):
 * async, so the parser never waits for it, and a classic script, so it runs as soon as
 * it has loaded, while the panel's modules are still loading. It starts the storage
 * reads the panel opens with (entrypoints/sidepanel/early-opening.ts).
 */
export default defineWxtModule((wxt) => {
  const panelHtml = resolve(wxt.config.entrypointsDir, 'sidepanel', 'index.html');
  addViteConfig(wxt, () => ({
    plugins: [
      {
        name: 'shelf:sidepanel-early',
        transformIndexHtml: {
          order: 'post',
          handler: (html, { filename }) =>
            resolve(filename) !== panelHtml ? html : { html, tags: [{ tag: 'script', attrs: { src: '/sidepanel-early.js', async: true }, injectTo: 'head-prepend' }] },
        },
      },
    ],
  }));
});
