import tailwindcss from '@tailwindcss/vite';
import { defineConfig } from 'wxt';

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
    ],
    // The default server is local; any other server's origin is asked for when the user sets it.
    host_permissions: ['http://127.0.0.1/*', 'http://localhost/*'],
    optional_host_permissions: ['https://*/*', 'http://*/*'],
    // Extension pages run only the extension's own scripts: no inline or remote script, no plugins, no <base>
    // rewriting, no form posting anywhere, and no framing by a web page.
    content_security_policy: {
      extension_pages: "script-src 'self'; object-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
    },
    commands: {
      'save-page': { suggested_key: { default: 'Alt+Shift+S' }, description: 'Save the current tab to Shelf' },
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
  vite: () => ({ plugins: [tailwindcss()] }),
});
