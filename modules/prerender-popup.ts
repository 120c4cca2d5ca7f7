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
 *   rendered here at build time); main.tsx hydrates it after the first paint;
 * - popup-early.js (entrypoints/popup-early.ts) holds what the user does until
 *   React has the form. It is async, so the parser never waits for it, and
 *   render-blocking, so that nothing shows before it listens (Chromium; Firefox
 *   ignores `blocking`, and there the form's method="dialog" makes a click in
 *   that moment do nothing rather than reload the popup);
 * - the stylesheet is inlined. An extension page's file arrives some 30 ms after
 *   it is asked for, and both the first paint and every deferred script wait
 *   for a stylesheet link: inline, the form paints as soon as it is parsed.
 */
export default defineWxtModule((wxt) => {
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
            return {
              html: inlineStylesheets(html.replace(ROOT_ELEMENT, `<div id="root">${renderPopupShell()}</div>`), bundle),
              tags: [{ tag: 'script', attrs: { src: '/popup-early.js', async: true, blocking: 'render' }, injectTo: 'head-prepend' }],
            };
          },
        },
      },
    ],
  }));
});

/** Each stylesheet the build emitted for this page becomes a <style> element, and leaves the bundle (in development there is no bundle: links stay). */
function inlineStylesheets(html: string, bundle: IndexHtmlTransformContext['bundle']): string {
  if (!bundle) return html;
  return html.replace(STYLESHEET_LINK, (link, fileName: string) => {
    const asset = bundle[fileName];
    if (asset?.type !== 'asset') throw new Error(`prerender-popup: the stylesheet ${fileName} is not in the build`);
    delete bundle[fileName];
    return `<style>${String(asset.source)}</style>`;
  });
}
