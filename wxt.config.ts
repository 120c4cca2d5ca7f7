import tailwindcss from '@tailwindcss/vite';
import { defineConfig } from 'wxt';

interface ChunkMeta {
  getModuleInfo(id: string): { importers: readonly string[] } | null;
}

/**
 * The popup's code in two chunks of its own, its first paint and what it loads
 * after: the library pages share modules with it, and without this Rollup
 * would cut the popup's code into more, smaller chunks that compress worse
 * (the popup has a 90 kB budget). The other pages load these shared chunks as they are.
 */
function popupChunks(id: string, { getModuleInfo }: ChunkMeta): string | undefined {
  // A page's main module stays its own: it runs on load, and must not run in the other pages.
  if (/\/entrypoints\/[^/]+\/main\.tsx$/.test(id)) return undefined;
  const reachedFrom = (entry: RegExp) => {
    const seen = new Set<string>();
    const walk = (module: string): boolean => {
      if (entry.test(module)) return true;
      if (seen.has(module)) return false;
      seen.add(module);
      return (getModuleInfo(module)?.importers ?? []).some(walk);
    };
    return walk(id);
  };
  // WXT's per-page module goes with them: one request and one gzip stream fewer for the popup.
  if (reachedFrom(/entrypoints\/popup\/main\.tsx$/) || /modulepreload-polyfill|wxt-html-plugins/.test(id)) return 'popup-core';
  if (reachedFrom(/entrypoints\/popup\/services-module\.ts$/)) return 'popup-services';
  return undefined;
}

export default defineConfig({
  modules: ['@wxt-dev/module-react'],
  // Explicit imports everywhere: a reader sees where each name comes from.
  imports: false,
  manifestVersion: 3,
  manifest: ({ browser }) => ({
    name: 'Shelf',
    description: 'Save the page you are on to your Bookmark Library in one click, with tags, a collection and a note.',
    permissions: [
      'storage',
      'tabs',
      'contextMenus',
      'notifications',
      'alarms',
      // Firefox's sidebar needs no permission (and rejects this one).
      ...(browser === 'firefox' ? [] : ['sidePanel']),
    ],
    // The default server is local; any other server's origin is asked for when the user sets it.
    host_permissions: ['http://127.0.0.1/*', 'http://localhost/*'],
    optional_host_permissions: ['https://*/*', 'http://*/*'],
    // Asked for when the user imports this browser's bookmarks, not before.
    optional_permissions: ['bookmarks'],
    commands: {
      'save-page': { suggested_key: { default: 'Alt+Shift+S' }, description: 'Save the current tab to Shelf' },
      'open-side-panel': { suggested_key: { default: 'Alt+Shift+L' }, description: 'Open the Shelf side panel' },
    },
    ...(browser === 'firefox' && {
      browser_specific_settings: {
        gecko: {
          id: 'shelf@bookmark-library.local',
          strict_min_version: '142.0',
          // Bookmarks go only to the server the user signs in to; nothing is collected for us.
          data_collection_permissions: { required: ['none'] },
        },
      },
    }),
  }),
  vite: () => ({
    plugins: [
      tailwindcss(),
      {
        name: 'shelf-popup-chunks',
        // Only the pages' build splits code; the background and scripts are built whole.
        outputOptions: (options: { codeSplitting?: boolean; inlineDynamicImports?: boolean }) =>
          options.codeSplitting === false || options.inlineDynamicImports ? null : { ...options, manualChunks: popupChunks },
      },
    ],
  }),
});
