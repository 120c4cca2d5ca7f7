import { Hono } from 'hono';
import { z } from 'zod';
import type { ServerDeps } from '../deps.ts';
import type { AppEnv } from '../http/env.ts';
import { readJsonBody } from '../http/read-body.ts';
import { validate } from '../http/validation.ts';

const AdvanceBody = z.object({ advanceMs: z.number().finite().min(0) });

/** POST /__test__/clock, only with --test-clock: moves every time-based rule forward, on every instance that shares the clock. */
export function testClockRoutes({ clock, maintenance }: ServerDeps): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  app.post('/clock', async (c) => {
    const { advanceMs } = validate(AdvanceBody, (await readJsonBody(c)).value, 'body');
    const now = await clock.advanceAll(advanceMs);
    await maintenance.run();
    return c.json({ now });
  });
  return app;
}
