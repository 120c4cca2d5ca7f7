import { browser } from 'wxt/browser';
import { normalizeServerUrl } from '../../lib/client/server-url.ts';

/** What the manifest's host_permissions already grant: plain http on this computer, any port. */
export function isGrantedByManifest(origin: string): boolean {
  const url = new URL(origin);
  return url.protocol === 'http:' && (url.hostname === '127.0.0.1' || url.hostname === 'localhost');
}

/**
 * Asks the browser for access to the server's origin unless the manifest grants
 * it. Call it synchronously in the click or submit handler, before any await:
 * browsers show the prompt only during the user's gesture (Firefox forgets it
 * after the first await). A refusal (or a failed prompt) answers false.
 * Throws a ClientError when the address is not one (VALIDATION_ERROR) or is
 * plain http to a server that is not local and the user has not agreed to it (INSECURE_SERVER).
 */
export function requestServerAccess(serverUrl: string, options: { allowInsecure?: boolean } = {}): Promise<boolean> {
  const origin = new URL(normalizeServerUrl(serverUrl, options)).origin;
  if (isGrantedByManifest(origin)) return Promise.resolve(true);
  return browser.permissions.request({ origins: [`${origin}/*`] }).catch(() => false);
}
