import { provideServerBundle } from '../support/server-bundle-global.ts';
import { ensureExtensionBuilt } from './support.ts';

/** The browser tests load the built extension: build it once when it is missing or older than its sources. */
export default function setup(): Promise<() => void> {
  ensureExtensionBuilt();
  return provideServerBundle();
}
