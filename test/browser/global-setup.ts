import { ensureExtensionBuilt } from './support.ts';

/** The browser tests load the built extension: build it once when it is missing or older than its sources. */
export default function setup(): void {
  ensureExtensionBuilt();
}
