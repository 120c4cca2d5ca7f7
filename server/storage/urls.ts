import type { Context } from 'hono';

/** Where the storage service is mounted, beside /v1 on the same origin. */
export const STORAGE_PATH = '/storage';

/**
 * The origin the client reached us at (scheme, host and port of the request URL,
 * which comes from the Host header), so that the URLs we hand out work behind any
 * host name or port.
 */
export const requestOrigin = (c: Context): string => new URL(c.req.url).origin;

export const uploadUrl = (origin: string, token: string): string => `${origin}${STORAGE_PATH}/uploads/${token}`;
export const fileUrl = (origin: string, fileId: string): string => `${origin}${STORAGE_PATH}/files/${fileId}`;
