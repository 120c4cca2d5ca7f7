import tailwindcss from '@tailwindcss/vite';
import { defineConfig, type EntrypointGroup } from 'wxt';

/**
 * The popup is built on its own, apart from the other pages. In a shared build a
 * module that the popup and a library page both use lands in one chunk, whole, with
 * every part of it that any page uses (zod's schema kinds, the API schemas): the
 * options page and the side panel grew the popup's JavaScript (it has a 90 kB
 * budget). On its own, the popup is one chunk that holds only what the popup runs,
 * one request and one gzip stream; the other pages share their chunks as Rollup cuts them.
 */
function buildPopupApart(groups: EntrypointGroup[]): void {
  for (const group of groups) {
    if (!Array.isArray(group)) continue;
    const at = group.findIndex((entry) => entry.type === 'popup');
    if (at < 0 || group.length === 1) continue;
    groups.push(group.splice(at, 1));
    return;
  }
}

export default defineConfig({
  modules: ['@wxt-dev/module-react'],
  // Explicit imports everywhere: a reader sees where each name comes from.
  imports: false,
  manifestVersion: 3,
  hooks: { 'entrypoints:grouped': (_wxt, groups) => buildPopupApart(groups) },
  zip: {
    // The sources zip (for store review) is the project's sources: never a server's data directory
    // (its database holds the user's bookmarks and tokens' hashes), the server bundle or test output.
    excludeSources: ['data/**', '**/shelf.db*', 'dist/**', 'coverage/**', 'test-results/**', 'tmp/**', '**/*.log'],
  },
  manifest: ({ browser }) => ({
    name: 'Shelf',
    description: 'Save the page you are on to your Bookmark Library in one click, with tags, a collection and a note.',
    permissions: [
      'storage',
      'tabs',
      'contextMenus',
      'notifications',
      'alarms',
      // Set as cover: a blob: image is read in its own page. Automatic covers: the saved page's preview image is
      // read, or the visible tab captured, under the access the popup's click, the shortcut or the menu grants.
      'scripting',
      'activeTab',
      // Chrome only: the side panel (Firefox's sidebar needs no permission and rejects this one), and the
      // offscreen document where Set as cover converts SVG and AVIF (Firefox's background page has a DOM).
      ...(browser === 'firefox' ? [] : ['sidePanel', 'offscreen']),
    ],
    // No content_security_policy: Manifest V3's default restricts scripts only, so the popup shows a
    // cover from whatever server the user signs in to (an img-src list could not name that server).
    // The default server is local; any other server's origin is asked for when the user sets it.
    host_permissions: ['http://127.0.0.1/*', 'http://localhost/*'],
    optional_host_permissions: ['https://*/*', 'http://*/*'],
    // Asked for when the user imports this browser's bookmarks, not before.
    optional_permissions: ['bookmarks'],
    // Typing `sh` and a space in the address bar searches the library (background/omnibox.ts).
    omnibox: { keyword: 'sh' },
    // Extension pages run only the extension's own scripts: no inline or remote script, no plugins, no <base>
    // rewriting, no form posting anywhere, and no framing by a web page.
    content_security_policy: {
      extension_pages: "script-src 'self'; object-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
    },
    commands: {
      'save-page': { suggested_key: { default: 'Alt+Shift+S' }, description: 'Save the current tab to Shelf' },
      'open-side-panel': { suggested_key: { default: 'Alt+Shift+L' }, description: 'Open the Shelf side panel' },
    },
    ...(browser === 'firefox' && {
      browser_specific_settings: {
        gecko: {
          id: 'shelf@bookmark-library.local',
          // Firefox 140 ESR: what Debian and many managed installs run; the first with data_collection_permissions.
          strict_min_version: '140.0',
          // Bookmarks go only to the server the user signs in to; nothing is collected for us.
          data_collection_permissions: { required: ['none'] },
        },
        // Firefox for Android is left out on purpose (not ticked on AMO; README, Firefox): it has no menus, commands
        // or sidebar, which the background sets up at start. The key only says that Android knows
        // data_collection_permissions from 142, so that web-ext lint has nothing to warn of.
        gecko_android: { strict_min_version: '142.0' },
      },
    }),
  }),
  vite: () => ({
    plugins: [tailwindcss()],
    // Chrome and Firefox (115+) preload modules themselves: the polyfill would be one more script in every page.
    build: { modulePreload: { polyfill: false } },
  }),
});
