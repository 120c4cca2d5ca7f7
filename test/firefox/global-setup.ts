import { ensureExtensionBuilt } from '../browser/support.ts';

/** The Firefox tests load the built Firefox extension: build it once when it is missing or older than its sources. */
export default function setup(): void {
  ensureExtensionBuilt('firefox');
}
