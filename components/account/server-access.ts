import { browser } from 'wxt/browser';
import { hostPatterns } from '../../lib/client/host-patterns.ts';
import { normalizeServerUrl } from '../../lib/client/server-url.ts';

/** What the manifest's host_permissions name: plain http on this computer, any port. */
export function isNamedInManifest(origin: string): boolean {
  const url = new URL(origin);
  return url.protocol === 'http:' && (url.hostname === '127.0.0.1' || url.hostname === 'localhost');
}

/**
 * Asks the browser for access to the server's origin (for this computer, the manifest's any-port pattern).
 * Asked even when the manifest names it: Firefox grants host_permissions only optionally and the user may
 * take them back in about:addons, and a request for access already held answers yes without a prompt.
 * Call it synchronously in the click or submit handler, before any await: browsers show the prompt only
 * during the user's gesture (Firefox forgets it after the first await). A refusal (or a failed prompt)
 * answers false. Throws a ClientError when the address is not one (VALIDATION_ERROR) or is plain http to a
 * server that is not local and the user has not agreed to it (INSECURE_SERVER).
 */
export function requestServerAccess(serverUrl: string, options: { allowInsecure?: boolean } = {}): Promise<boolean> {
  const origin = new URL(normalizeServerUrl(serverUrl, options)).origin;
  const { exact, anyPort } = hostPatterns(origin);
  return browser.permissions.request({ origins: [isNamedInManifest(origin) ? anyPort : exact] }).catch(() => false);
}
