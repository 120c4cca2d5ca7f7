import { describe, expect, it } from 'vitest';
import { ClientError } from '../../lib/client/errors.ts';
import { type Spent, type Priority, RequestScheduler, SPEC_LIMITS, type SchedulerOptions } from '../../lib/client/scheduler.ts';
import { ManualClock } from '../support/manual-clock.ts';

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;

/** A scheduler on a manual clock, and the requests it let through (name and time), answered by `answer`. */
function setup(options: Omit<SchedulerOptions, 'clock'> = {}, answer: (name: string, attempt: number) => Response = () => ok()) {
  const clock = new ManualClock();
  const scheduler = new RequestScheduler({ ...options, clock });
  const sent: { name: string; at: number }[] = [];
  const attempts = new Map<string, number>();
  const send = (name: string, priority: Priority = 'user', extra: { heavy?: string; credential?: string; maxWaitMs?: number } = {}) =>
    // Unless a test says otherwise, callers here wait as long as it takes.
    scheduler.send({ priority, maxWaitMs: Infinity, ...extra }, async () => {
      sent.push({ name, at: clock.now() - start });
      const attempt = (attempts.get(name) ?? 0) + 1;
      attempts.set(name, attempt);
      return answer(name, attempt);
    });
  const start = clock.now();
  return { clock, scheduler, sent, send, start };
}

const ok = (headers: Record<string, string> = {}) => new Response('{"data":{}}', { status: 200, headers });
const rateHeaders = (remaining: number, resetAt: number, limit = 120) => ({
  'X-RateLimit-Limit': String(limit),
  'X-RateLimit-Remaining': String(remaining),
  'X-RateLimit-Reset': String(Math.ceil(resetAt / 1000)),
});

describe('request scheduler', () => {
  it('sends at most 60 requests in any minute (the per-address gateway), the rest as the window slides', async () => {
    const { clock, sent, send } = setup();
    const answers = Array.from({ length: 70 }, (_, i) => send(`r${i}`));
    await clock.advance(0);
    expect(sent).toHaveLength(60);
    await clock.advance(MINUTE);
    expect(sent).toHaveLength(60);
    await clock.advance(SPEC_LIMITS.marginMs);
    expect(sent).toHaveLength(70);
    expect(sent.at(-1)!.at).toBe(MINUTE + SPEC_LIMITS.marginMs);
    await Promise.all(answers);
  });

  it('sends what the user waits for ahead of background work, and keeps slots of every minute for it', async () => {
    const { clock, sent, send } = setup();
    const background = Array.from({ length: 60 }, (_, i) => send(`sync${i}`, 'background'));
    await clock.advance(0);
    // Background work leaves the user's reserve free: a save goes at once.
    expect(sent).toHaveLength(60 - SPEC_LIMITS.userReservePerMinute);
    const saves = Array.from({ length: 15 }, (_, i) => send(`save${i}`, 'user'));
    await clock.advance(0);
    expect(sent.filter((s) => s.name.startsWith('save'))).toHaveLength(SPEC_LIMITS.userReservePerMinute);
    await clock.advance(MINUTE + SPEC_LIMITS.marginMs);
    // When the window opens, the 5 waiting saves go before the 10 waiting sync pages.
    const next = sent.slice(60).map((s) => s.name);
    expect(next.slice(0, 5)).toEqual(['save10', 'save11', 'save12', 'save13', 'save14']);
    expect(next.slice(5).every((name) => name.startsWith('sync'))).toBe(true);
    await Promise.all([...background, ...saves]);
  });

  it('waits until X-RateLimit-Reset when the server says none are left (another client used them)', async () => {
    const clock0 = new ManualClock();
    const resetAt = clock0.now() + 30_000;
    const { clock, sent, send } = setup({}, (name) => (name === 'first' ? ok(rateHeaders(0, resetAt)) : ok()));
    await send('first');
    const second = send('second');
    await clock.advance(29_000);
    expect(sent.map((s) => s.name)).toEqual(['first']);
    await clock.advance(1_000 + SPEC_LIMITS.marginMs);
    await second;
    expect(sent.map((s) => s.name)).toEqual(['first', 'second']);
  });

  it('on a 429 waits until X-RateLimit-Reset and sends the very same request again', async () => {
    const clock0 = new ManualClock();
    const resetAt = clock0.now() + 20_000;
    const { clock, sent, send } = setup({}, (_, attempt) =>
      attempt === 1 ? new Response('{"error":{"code":"RATE_LIMITED","message":"Rate limit exceeded"}}', { status: 429, headers: { ...rateHeaders(0, resetAt), 'Retry-After': '20' } }) : ok(),
    );
    const answer = send('save');
    await clock.advance(20_000 + SPEC_LIMITS.marginMs);
    expect((await answer).status).toBe(200);
    expect(sent).toEqual([
      { name: 'save', at: 0 },
      { name: 'save', at: 20_000 + SPEC_LIMITS.marginMs },
    ]);
  });

  it('on a gateway 429 (Retry-After only) holds every request back for that long', async () => {
    const { clock, sent, send } = setup({}, (name, attempt) => (name === 'a' && attempt === 1 ? new Response('{}', { status: 429, headers: { 'Retry-After': '7' } }) : ok()));
    const a = send('a');
    await clock.advance(0);
    const b = send('b');
    await clock.advance(6_999);
    expect(sent.map((s) => s.name)).toEqual(['a']);
    await clock.advance(1);
    await Promise.all([a, b]);
    expect(sent.map((s) => s.name)).toEqual(['a', 'a', 'b']);
  });

  it('gives up after a few 429s and hands the last one to the caller', async () => {
    const { clock, sent, send } = setup({}, () => new Response('{}', { status: 429, headers: { 'Retry-After': '1' } }));
    const answer = send('x');
    await clock.advance(10_000);
    expect((await answer).status).toBe(429);
    expect(sent).toHaveLength(SPEC_LIMITS.retriesAfter429 + 1);
  });

  it('keeps each heavy endpoint to 2 a minute, without holding back other requests', async () => {
    const { clock, sent, send } = setup();
    const heavy = [send('dup1', 'user', { heavy: 'duplicates' }), send('dup2', 'user', { heavy: 'duplicates' }), send('dup3', 'user', { heavy: 'duplicates' })];
    const other = send('list');
    await clock.advance(0);
    expect(sent.map((s) => s.name).sort()).toEqual(['dup1', 'dup2', 'list']);
    await clock.advance(MINUTE + SPEC_LIMITS.marginMs);
    await Promise.all([...heavy, other]);
    expect(sent.at(-1)).toEqual({ name: 'dup3', at: MINUTE + SPEC_LIMITS.marginMs });
  });

  it('counts the day across restarts (stored), and keeps the last 500 of the day for the user', async () => {
    let stored: Spent | null = null;
    const store = { load: () => Promise.resolve(stored), save: (spent: Spent) => Promise.resolve(void (stored = spent)) };
    const first = setup({ store });
    await Promise.all([first.send('a'), first.send('b')]);
    expect(stored).toEqual({ start: first.start, count: 2, recent: [first.start, first.start] });

    // A restarted worker, near the end of the day's budget.
    stored = { start: first.start, count: 10_000 - 501 };
    const second = setup({ store });
    await second.send('background-ok', 'background');
    const late = second.send('background-late', 'background');
    await second.clock.advance(0);
    expect(second.sent.map((s) => s.name)).toEqual(['background-ok']);
    await second.send('user-1');
    expect(second.scheduler.status().today).toBe(10_000 - 499);
    // The day is over (with the margin): the background request goes.
    await second.clock.advance(DAY + SPEC_LIMITS.marginMs);
    await late;
    expect(second.sent.map((s) => s.name)).toEqual(['background-ok', 'user-1', 'background-late']);
  });

  it('keeps each heavy endpoint’s minute across restarts (stored), and says how long the next one waits', async () => {
    let stored: Spent | null = null;
    const store = { load: () => Promise.resolve(stored), save: (spent: Spent) => Promise.resolve(void (stored = spent)) };
    const first = setup({ store });
    const evaluation = { priority: 'user', heavy: 'evaluateSmartFolder' } as const;
    expect(await first.scheduler.waitBefore(evaluation)).toBe(0);
    await Promise.all([first.send('e1', 'user', { heavy: 'evaluateSmartFolder' }), first.send('e2', 'user', { heavy: 'evaluateSmartFolder' })]);
    expect(stored!.heavy).toEqual({ evaluateSmartFolder: { sent: [first.start, first.start], blockedUntil: 0 } });
    await first.clock.advance(10_000);

    // A restarted worker, 10 s later: the endpoint's minute goes on; another endpoint and plain requests do not wait.
    const second = setup({ store });
    await second.clock.advance(first.clock.now() - second.clock.now());
    expect(await second.scheduler.waitBefore(evaluation)).toBe(MINUTE + SPEC_LIMITS.marginMs - 10_000);
    expect(await second.scheduler.waitBefore({ priority: 'user', heavy: 'duplicates' })).toBe(0);
    expect(await second.scheduler.waitBefore({ priority: 'user' })).toBe(0);
    // A caller that will not wait is refused unsent, with the time left.
    const refused = await second.send('e3', 'user', { heavy: 'evaluateSmartFolder', maxWaitMs: 0 }).catch((err: unknown) => err);
    expect(refused).toMatchObject({ code: 'RATE_LIMITED', retryAfterSeconds: 52 });
    expect(second.sent).toEqual([]);
    await second.clock.advance(MINUTE + SPEC_LIMITS.marginMs - 10_000);
    expect(await second.scheduler.waitBefore(evaluation)).toBe(0);
  });

  it('keeps a heavy 429’s wait across restarts: the server said when that endpoint is free again', async () => {
    let stored: Spent | null = null;
    const store = { load: () => Promise.resolve(stored), save: (spent: Spent) => Promise.resolve(void (stored = spent)) };
    // Another device spent the allowance: the first evaluation meets the heavy window's 429 (Limit 2).
    const resetAt = new ManualClock().now() + 40_000;
    const tooMany = () => new Response('{"error":{"code":"RATE_LIMITED","message":"Heavy"}}', { status: 429, headers: { ...rateHeaders(0, resetAt, 2), 'Retry-After': '40' } });
    const first = setup({ store }, tooMany);
    const refused = await first.send('e1', 'user', { heavy: 'evaluateSmartFolder', maxWaitMs: 0 }).catch((err: unknown) => err);
    expect(refused).toMatchObject({ code: 'RATE_LIMITED' });
    expect(stored!.heavy?.evaluateSmartFolder?.blockedUntil).toBe(resetAt + SPEC_LIMITS.marginMs);

    const second = setup({ store });
    expect(await second.scheduler.waitBefore({ priority: 'user', heavy: 'evaluateSmartFolder' })).toBe(40_000 + SPEC_LIMITS.marginMs);
    // Only that endpoint: the account's own window was not what refused it.
    expect(await second.scheduler.waitBefore({ priority: 'user' })).toBe(0);
  });

  it('refuses, unsent, a request that would wait longer than its caller allows', async () => {
    const { clock, sent, send } = setup();
    Array.from({ length: 60 }, (_, i) => void send(`r${i}`));
    await clock.advance(0);
    const refused = send('save', 'user', { maxWaitMs: 10_000 });
    const caught = refused.catch((err: unknown) => err);
    await clock.advance(0);
    const error = await caught;
    expect(error).toBeInstanceOf(ClientError);
    expect((error as ClientError).code).toBe('RATE_LIMITED');
    expect((error as ClientError).retryAfterSeconds).toBe(62);
    expect(sent).toHaveLength(60);
  });

  it('a restarted worker goes on from the last minute’s requests: the server’s minute outlives it', async () => {
    let stored: Spent | null = null;
    const store = { load: () => Promise.resolve(stored), save: (spent: Spent) => Promise.resolve(void (stored = spent)) };
    const first = setup({ store });
    await Promise.all(Array.from({ length: 40 }, (_, i) => first.send(`before-${i}`)));
    await first.clock.advance(30_000);

    const second = setup({ store });
    await second.clock.advance(first.clock.now() - second.clock.now()); // the same moment, 30 s after the 40
    const after = Array.from({ length: 30 }, (_, i) => second.send(`after-${i}`));
    await second.clock.advance(0);
    expect(second.sent).toHaveLength(20);
    await second.clock.advance(30_000 + SPEC_LIMITS.marginMs);
    await Promise.all(after);
    expect(second.sent).toHaveLength(30);
  });

  it('a user request waits 15 s at most unless it says otherwise; background work as long as it takes', async () => {
    const clock = new ManualClock();
    const scheduler = new RequestScheduler({ clock });
    const sent: string[] = [];
    const send = (name: string, priority: Priority) => scheduler.send({ priority }, () => (sent.push(name), Promise.resolve(ok())));
    for (let i = 0; i < 60; i++) void send(`r${i}`, 'user');
    await clock.advance(0);
    const user = send('user', 'user').catch((err: unknown) => err);
    const background = send('background', 'background');
    await clock.advance(MINUTE + SPEC_LIMITS.marginMs);
    expect(await user).toMatchObject({ code: 'RATE_LIMITED' });
    await background;
    expect(sent.slice(60)).toEqual(['background']);
  });

  it('an IP block stops everything until it ends, and tells how long is left', async () => {
    const { clock, scheduler, sent, send } = setup({}, (name) =>
      name === 'blocked' ? new Response('{"error":"Too many failed authentication attempts"}', { status: 403, headers: { 'Retry-After': '900' } }) : ok(),
    );
    await send('blocked');
    expect(scheduler.status().ipBlockedUntil).toBe(clock.now() + 900_000);
    await clock.advance(300_000);
    const error = (await send('save', 'user', { maxWaitMs: 10_000 }).catch((err: unknown) => err)) as ClientError;
    expect([error.code, error.retryAfterSeconds]).toEqual(['IP_BLOCKED', 600]);
    const background = send('sync', 'background');
    await clock.advance(599_999);
    expect(sent.map((s) => s.name)).toEqual(['blocked']);
    await clock.advance(1);
    await background;
    expect(sent.map((s) => s.name)).toEqual(['blocked', 'sync']);
    expect(scheduler.status().ipBlockedUntil).toBeNull();
  });

  it('a refused token stops every call that carries it at once, and none is sent again until sign-in', async () => {
    const refusedWith: string[] = [];
    const revoked = () => new Response('{"error":{"code":"TOKEN_REVOKED","message":"This token was revoked"}}', { status: 401 });
    const { clock, scheduler, sent, send } = setup({ onTokenRefused: (e) => refusedWith.push(e.code) }, (name) => (name.startsWith('old') ? revoked() : ok()));
    Array.from({ length: 60 }, (_, i) => void send(`fill${i}`, 'user', { credential: 'Bearer new' }));
    await clock.advance(MINUTE);
    // These wait for slots behind the first, which the server refuses.
    const first = send('old-1', 'user', { credential: 'Bearer old' });
    await clock.advance(SPEC_LIMITS.marginMs);
    const waiting = send('old-2', 'background', { credential: 'Bearer old' }).catch((err: unknown) => err);
    expect((await first).status).toBe(401);
    expect(((await waiting) as ClientError).code).toBe('TOKEN_REVOKED');
    await expect(send('old-3', 'user', { credential: 'Bearer old' })).rejects.toMatchObject({ code: 'TOKEN_REVOKED' });
    expect(sent.filter((s) => s.name.startsWith('old')).map((s) => s.name)).toEqual(['old-1']);
    expect(refusedWith).toEqual(['TOKEN_REVOKED']);
    scheduler.forgetRefusedTokens();
    const again = send('old-4', 'user', { credential: 'Bearer old' });
    await clock.advance(MINUTE);
    expect((await again).status).toBe(401);
  });
});
