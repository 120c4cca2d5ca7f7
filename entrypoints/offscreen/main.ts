import type { browser } from 'wxt/browser';
import { type RasteriseReply, asRasteriseRequest } from '../../lib/image/offscreen-protocol.ts';
import { rasterise } from '../../lib/image/rasterise.ts';

// Chrome's own global, not wxt/browser: that module would be a chunk shared with the popup (see offscreen-protocol.ts).
declare const chrome: typeof browser;

// Opened by the background for one conversion and closed after it.
chrome.runtime.onMessage.addListener((message: unknown, _sender, sendResponse: (reply: RasteriseReply) => void) => {
  const request = asRasteriseRequest(message);
  if (!request) return undefined; // not ours
  rasterise(request.dataUrl, request.maxBytes).then(
    (dataUrl) => sendResponse({ dataUrl }),
    (err: unknown) => sendResponse({ error: err instanceof Error ? err.message : String(err) }),
  );
  return true; // the answer comes asynchronously
});
