import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { RememberingRouter } from '../../server/http/remembering-router.ts';

const app = () => {
  const hono = new Hono({ router: new RememberingRouter() });
  hono.use('*', async (c, next) => {
    await next();
    c.res.headers.set('X-Seen', 'yes');
  });
  hono.get('/items/:id', (c) => c.text(`item ${c.req.param('id')}`));
  hono.get('/tags/:name{.+}/items', (c) => c.text(`tag ${c.req.param('name')}`));
  hono.post('/items', (c) => c.text('created', 201));
  return hono;
};

const answer = async (hono: Hono, method: string, path: string) => {
  const res = await hono.request(path, { method });
  return `${res.status} ${res.headers.get('X-Seen')} ${await res.text()}`;
};

describe('the remembering router', () => {
  it('answers each path with its own parameters, the second time as the first', async () => {
    const hono = app();
    for (let round = 0; round < 2; round++) {
      expect(await answer(hono, 'GET', '/items/a')).toBe('200 yes item a');
      expect(await answer(hono, 'GET', '/items/b')).toBe('200 yes item b');
      expect(await answer(hono, 'GET', '/tags/x/y/items')).toBe('200 yes tag x/y');
      expect(await answer(hono, 'POST', '/items')).toBe('201 yes created');
      expect(await answer(hono, 'GET', '/items')).toBe('404 yes 404 Not Found');
      expect(await answer(hono, 'DELETE', '/items/a')).toBe('404 yes 404 Not Found');
    }
  });

  it('stays right past the number of paths it remembers, and with paths too long to remember', async () => {
    const hono = app();
    for (let i = 0; i < 2_500; i++) expect(await answer(hono, 'GET', `/items/${i}`)).toBe(`200 yes item ${i}`);
    const long = 'x'.repeat(300);
    expect(await answer(hono, 'GET', `/items/${long}`)).toBe(`200 yes item ${long}`);
    expect(await answer(hono, 'GET', `/items/${long}`)).toBe(`200 yes item ${long}`);
  });

  it("refuses a route added after the first request, as Hono's own router does, so no remembered answer goes stale", async () => {
    const hono = app();
    expect(await answer(hono, 'GET', '/late')).toBe('404 yes 404 Not Found');
    expect(() => hono.get('/late', (c) => c.text('here'))).toThrow(/matcher is already built/);
  });
});
