import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { tsImport } from 'tsx/esm/api';
import type { IndexHtmlTransformContext } from 'vite';
import { addViteConfig, defineWxtModule } from 'wxt/modules';
import type * as Shell from '../entrypoints/popup/shell.tsx';

const ROOT_ELEMENT = '<div id="root"></div>';
const STYLESHEET_LINK = /<link rel="stylesheet"[^>]*href="\/([^"]+\.css)"[^>]*>/g;

/**
 * The popup opens with its form already in the page, Save working:
 * - #root holds the form as React first renders it (entrypoints/popup/shell.tsx,
 *   rendered here at build time);
 * - the stylesheet is inlined. An extension page's file arrives some 30 ms after
 *   it is asked for, and the first paint waits for a stylesheet link;
 * - popup-early.js (entrypoints/popup-early.ts) comes first. It is async, so
 *   the parser never waits for it, and render-blocking, so that the form never
 *   shows before it holds what the user does there (Chromium; Firefox ignores
 *   `blocking`, and there the form's method="dialog" makes a click in that
 *   moment do nothing rather than reload the popup). main.tsx hydrates the
 *   form right after the first paint.
 * In development (`wxt dev`) the page stays as written and React renders it.
 */
export default defineWxtModule((wxt) => {
  if (wxt.config.command === 'serve') return;
  const popupHtml = resolve(wxt.config.entrypointsDir, 'popup', 'index.html');
  const shellModule = pathToFileURL(resolve(wxt.config.entrypointsDir, 'popup', 'shell.tsx')).href;
  addViteConfig(wxt, () => ({
    plugins: [
      {
        name: 'shelf:prerender-popup',
        transformIndexHtml: {
          order: 'post',
          async handler(html, { filename, bundle }) {
            if (resolve(filename) !== popupHtml) return html;
            if (!html.includes(ROOT_ELEMENT)) throw new Error(`prerender-popup: ${popupHtml} has no ${ROOT_ELEMENT} to fill`);
            const { renderPopupShell } = (await tsImport(shellModule, import.meta.url)) as typeof Shell;
            const page = html.replace(ROOT_ELEMENT, `<div id="root">${renderPopupShell()}</div>`);
            return {
              html: inlineStylesheets(page, bundle),
              tags: [{ tag: 'script', attrs: { src: '/popup-early.js', async: true, blocking: 'render' }, injectTo: 'head-prepend' }],
            };
          },
        },
      },
    ],
  }));
});

/** Each stylesheet the build emitted for the page becomes a <style> element, and leaves the bundle. */
function inlineStylesheets(html: string, bundle: IndexHtmlTransformContext['bundle']): string {
  let inlined = 0;
  const page = html.replace(STYLESHEET_LINK, (_link, fileName: string) => {
    const asset = bundle?.[fileName];
    if (asset?.type !== 'asset') throw new Error(`prerender-popup: the stylesheet ${fileName} is not in the build`);
    delete bundle![fileName];
    inlined++;
    return `<style>${typeof asset.source === 'string' ? asset.source : new TextDecoder().decode(asset.source)}</style>`;
  });
  if (inlined === 0) throw new Error('prerender-popup: popup.html links no stylesheet to inline');
  return page;
}
