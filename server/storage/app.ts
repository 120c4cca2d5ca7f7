import { Readable } from 'node:stream';
import { Hono } from 'hono';
import type { ServerDeps } from '../deps.ts';
import { notFound } from '../http/api-error.ts';
import { cors } from '../http/cors.ts';
import { gatewayLimit } from '../http/gatekeeper.ts';
import type { AppEnv } from '../http/env.ts';
import { reply } from '../http/respond.ts';

/**
 * The storage service's HTTP side, mounted at /storage beside /v1. No token: an
 * upload URL's secret token, like a presigned URL, and a cover's unguessable id
 * are the credentials. Answers are not enveloped, except errors. The per-address
 * gateway limit applies, as on /v1.
 */
export function storageApp({ storage, guards }: Pick<ServerDeps, 'storage' | 'guards'>): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  // The extension uploads from its own pages, so these answers need the CORS headers too.
  app.use('*', cors);
  // One per-address budget with /v1: uploads cost disk and reads cost bandwidth, whoever asks.
  app.use('*', gatewayLimit(guards));

  app.post('/uploads/:token', async (c) => {
    const { storageId, refused } = await storage.receiveUpload(c.req.param('token'), c.req.raw.body, c.req.header('Content-Type'));
    if (refused) {
      // The spec lists FILE_TOO_LARGE as the save's error: with the storageId, a client that saves anyway hears it there too.
      const error = { code: refused.code, message: refused.message };
      return reply(c, JSON.stringify({ error, meta: { requestId: c.get('requestId') }, storageId }), 422);
    }
    return reply(c, JSON.stringify({ storageId }), 201);
  });

  app.get('/files/:id', async (c) => {
    const id = c.req.param('id');
    const cover = await storage.coverFile(id);
    if (!cover) throw notFound('file', id);
    const body = Readable.toWeb(cover.stream) as ReadableStream<Uint8Array>;
    return reply(c, body, 200, {
      'Content-Type': cover.type,
      'Content-Length': String(cover.size),
      'Cache-Control': 'public, max-age=31536000, immutable',
      'X-Content-Type-Options': 'nosniff',
    });
  });

  return app;
}
