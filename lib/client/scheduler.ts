import { ClientError } from './errors.ts';

/**
 * The one gate every API request passes (RequestScheduler.send): it keeps the
 * extension inside every limit the server enforces, so that normal use never
 * meets a 429 or the IP block. The server's windows are fixed and start with its
 * own first request; ours are sliding and a little longer, so that any fixed
 * window the server draws holds no more of our requests than it allows.
 */

export type Priority = 'user' | 'background';

export interface Clock {
  now(): number;
  setTimeout(run: () => void, ms: number): unknown;
  clearTimeout(timer: unknown): void;
}

export const realClock: Clock = {
  now: () => Date.now(),
  setTimeout: (run, ms) => setTimeout(run, ms),
  clearTimeout: (timer) => clearTimeout(timer as ReturnType<typeof setTimeout>),
};

/** A heavy endpoint's send times within its window, and the end of a wait the server imposed with a 429. */
export interface HeavySpent {
  sent: number[];
  blockedUntil: number;
}

/**
 * What was spent, as kept in storage so that a restarted service worker (or browser) goes on counting:
 * the account's day window, the send times of the last minute (the server's minute windows outlive the
 * worker), and each heavy endpoint's minute, by endpoint name.
 */
export interface Spent {
  start: number;
  count: number;
  recent?: number[];
  heavy?: Record<string, HeavySpent>;
}
export interface SpentStore {
  load(): Promise<Spent | null>;
  save(spent: Spent): Promise<void>;
}

export interface SchedulerLimits {
  gatewayPerMinute: number;
  accountPerMinute: number;
  accountPerDay: number;
  heavyPerMinute: number;
  /** Slots of each minute kept for what the user waits for: background work never takes them. */
  userReservePerMinute: number;
  userReservePerDay: number;
  /** Added to every window: requests arrive later than they leave, and the server's windows start on arrival. */
  marginMs: number;
  /** Longest a user request waits for a slot unless it says otherwise: past it, it is refused (a save then goes to the queue). */
  userMaxWaitMs: number;
  /** How often a request refused with a 429 is sent again after waiting. */
  retriesAfter429: number;
}

/** The spec's Limits section (heavy: 2 a minute, as this server allows, see docs/api-decisions.md). */
export const SPEC_LIMITS: SchedulerLimits = {
  gatewayPerMinute: 60,
  accountPerMinute: 120,
  accountPerDay: 10_000,
  heavyPerMinute: 2,
  userReservePerMinute: 10,
  userReservePerDay: 500,
  marginMs: 2_000,
  userMaxWaitMs: 15_000,
  retriesAfter429: 3,
};

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;

export interface ScheduledRequest {
  priority: Priority;
  /** The endpoint's name when it is one of the heavy ones: each has its own stricter minute. */
  heavy?: string;
  /** The Authorization header: a token the server refused is never sent again until sign-in. */
  credential?: string;
  /** Longest the caller will wait for a slot; past it the request is refused unsent (RATE_LIMITED or IP_BLOCKED). User requests default to userMaxWaitMs, background ones wait as long as it takes. */
  maxWaitMs?: number;
}

export interface SchedulerStatus {
  /** When the address's IP block ends, while it lasts. */
  ipBlockedUntil: number | null;
  /** Requests waiting for a slot. */
  waiting: number;
  /** Requests counted in the account's current day window. */
  today: number;
}

export interface SchedulerOptions {
  clock?: Clock;
  limits?: SchedulerLimits;
  store?: SpentStore;
  /** The server refused the token (401): every call with it has been stopped. */
  onTokenRefused?: (error: ClientError, credential: string) => void;
}

interface Task {
  request: ScheduledRequest;
  transmit: () => Promise<Response>;
  resolve: (response: Response) => void;
  reject: (error: unknown) => void;
  enqueuedAt: number;
  attempts: number;
}

/** Send times within a sliding period, to tell when one more fits under a limit. */
class SlidingWindow {
  private times: number[] = [];

  constructor(private periodMs: number) {}

  record(now: number): void {
    this.times.push(now);
  }

  /** The send times still inside the period. */
  within(now: number): number[] {
    return this.times.filter((t) => now - t < this.periodMs);
  }

  /** 0 when one more request fits under `limit` now, else how long until it does. */
  waitFor(now: number, limit: number): number {
    this.times = this.times.filter((t) => now - t < this.periodMs);
    if (this.times.length < limit) return 0;
    return this.times[this.times.length - limit]! + this.periodMs - now;
  }
}

/** What the server last said of the account's window (X-RateLimit-*). */
interface ServerWindow {
  remaining: number;
  resetAt: number;
}

const TOKEN_CODES = ['MISSING_TOKEN', 'INVALID_TOKEN', 'TOKEN_REVOKED', 'TOKEN_EXPIRED'] as const;

export class RequestScheduler {
  private readonly clock: Clock;
  private readonly limits: SchedulerLimits;
  private readonly gateway: SlidingWindow;
  private readonly account: SlidingWindow;
  private readonly heavy = new Map<string, SlidingWindow>();
  private readonly heavyBlockedUntil = new Map<string, number>();
  private server: ServerWindow | null = null;
  private blockedUntil = 0;
  private ipBlockedUntil = 0;
  private day: { start: number; count: number } | null = null;
  private readonly loaded: Promise<void>;
  private readonly refused = new Map<string, ClientError>();
  private queue: Task[] = [];
  private inFlight = 0;
  private timer: unknown = null;

  constructor(private options: SchedulerOptions = {}) {
    this.clock = options.clock ?? realClock;
    this.limits = options.limits ?? SPEC_LIMITS;
    const period = MINUTE + this.limits.marginMs;
    this.gateway = new SlidingWindow(period);
    this.account = new SlidingWindow(period);
    this.loaded = (options.store?.load() ?? Promise.resolve(null)).then(
      (stored) => {
        if (!stored || this.day) return;
        const { recent = [], heavy = {}, ...day } = stored;
        this.day = day;
        for (const at of recent) {
          this.gateway.record(at);
          this.account.record(at);
        }
        for (const [name, { sent, blockedUntil }] of Object.entries(heavy)) {
          for (const at of sent) this.heavyWindow(name).record(at);
          this.heavyBlockedUntil.set(name, blockedUntil);
        }
      },
      () => undefined,
    );
  }

  /**
   * Sends one request when every limit has room, user work first. A 429 is
   * waited out and the same request (same headers, same Idempotency-Key) sent
   * again; any other answer is the caller's.
   */
  async send(request: ScheduledRequest, transmit: () => Promise<Response>): Promise<Response> {
    await this.loaded;
    const refusal = request.credential === undefined ? undefined : this.refused.get(request.credential);
    if (refusal) throw refusal;
    return new Promise<Response>((resolve, reject) => {
      this.queue.push({ request, transmit, resolve, reject, enqueuedAt: this.clock.now(), attempts: 0 });
      this.pump();
    });
  }

  status(): SchedulerStatus {
    const now = this.clock.now();
    return {
      ipBlockedUntil: this.ipBlockedUntil > now ? this.ipBlockedUntil : null,
      waiting: this.queue.length,
      today: this.day && now < this.day.start + DAY + this.limits.marginMs ? this.day.count : 0,
    };
  }

  /**
   * How long a request like this would wait for its slot now (0: it would go at once). The heavy endpoints'
   * pages use it to say when the next one is possible, and send it with maxWaitMs 0 only then.
   */
  async waitBefore(request: Pick<ScheduledRequest, 'priority' | 'heavy'>): Promise<number> {
    await this.loaded;
    return this.waitFor({ request }, this.clock.now());
  }

  /** After a sign-in: tokens refused before may be tried again (a new one usually replaces them). */
  forgetRefusedTokens(): void {
    this.refused.clear();
  }

  private pump(): void {
    if (this.timer !== null) {
      this.clock.clearTimeout(this.timer);
      this.timer = null;
    }
    let soonest = Infinity;
    // User work first; within a priority, first come first served. Background work leaves a reserve in every
    // window, so a user request that must wait is never overtaken by background work.
    const order = [...this.queue.filter((t) => t.request.priority === 'user'), ...this.queue.filter((t) => t.request.priority !== 'user')];
    for (const task of order) {
      const now = this.clock.now();
      const wait = this.waitFor(task, now);
      if (wait === 0) {
        this.start(task, now);
        continue;
      }
      const maxWait = task.request.maxWaitMs ?? (task.request.priority === 'user' ? this.limits.userMaxWaitMs : undefined);
      if (maxWait !== undefined && now + wait - task.enqueuedAt > maxWait) {
        this.drop(task, this.tooLong(now, wait));
        continue;
      }
      soonest = Math.min(soonest, wait);
    }
    if (soonest !== Infinity) {
      this.timer = this.clock.setTimeout(() => {
        this.timer = null;
        this.pump();
      }, soonest);
    }
  }

  private waitFor(task: Pick<Task, 'request'>, now: number): number {
    const { limits } = this;
    const background = task.request.priority === 'background';
    const minuteLimit = (limit: number) => (background ? limit - limits.userReservePerMinute : limit);
    const waits = [
      this.blockedUntil - now,
      this.gateway.waitFor(now, minuteLimit(limits.gatewayPerMinute)),
      this.account.waitFor(now, minuteLimit(limits.accountPerMinute)),
      this.dayWait(now, background ? limits.accountPerDay - limits.userReservePerDay : limits.accountPerDay),
    ];
    if (this.server && now < this.server.resetAt && this.server.remaining <= 0) waits.push(this.server.resetAt - now);
    const heavy = task.request.heavy;
    if (heavy !== undefined) {
      waits.push(this.heavyWindow(heavy).waitFor(now, limits.heavyPerMinute), (this.heavyBlockedUntil.get(heavy) ?? 0) - now);
    }
    return Math.max(0, ...waits);
  }

  private dayWait(now: number, limit: number): number {
    const day = this.day;
    if (!day || now >= day.start + DAY + this.limits.marginMs) return 0;
    return day.count < limit ? 0 : day.start + DAY + this.limits.marginMs - now;
  }

  private heavyWindow(name: string): SlidingWindow {
    let window = this.heavy.get(name);
    if (!window) this.heavy.set(name, (window = new SlidingWindow(MINUTE + this.limits.marginMs)));
    return window;
  }

  private start(task: Task, now: number): void {
    this.queue = this.queue.filter((t) => t !== task);
    this.gateway.record(now);
    this.account.record(now);
    if (task.request.heavy !== undefined) this.heavyWindow(task.request.heavy).record(now);
    if (this.server && now < this.server.resetAt) this.server.remaining--;
    this.countDay(now);
    task.attempts++;
    this.inFlight++;
    void task
      .transmit()
      .then(
        (response) => this.answered(task, response),
        (err: unknown) => task.reject(err),
      )
      .finally(() => {
        this.inFlight--;
        this.pump();
      });
  }

  private countDay(now: number): void {
    if (!this.day || now >= this.day.start + DAY + this.limits.marginMs) this.day = { start: now, count: 0 };
    this.day.count++;
    this.keep(now);
  }

  /** Into storage, for the next worker: the heavy minutes only while they still hold something. */
  private keep(now: number): void {
    if (!this.day || !this.options.store) return;
    const heavy: Record<string, HeavySpent> = {};
    for (const [name, window] of this.heavy) {
      const sent = window.within(now);
      const blockedUntil = this.heavyBlockedUntil.get(name) ?? 0;
      if (sent.length > 0 || blockedUntil > now) heavy[name] = { sent, blockedUntil };
    }
    const spent = { ...this.day, recent: this.gateway.within(now), ...(Object.keys(heavy).length > 0 && { heavy }) };
    void this.options.store.save(spent).catch(() => undefined);
  }

  private async answered(task: Task, response: Response): Promise<void> {
    const now = this.clock.now();
    const headers = response.headers;
    const limit = Number(headers.get('X-RateLimit-Limit'));
    const remaining = Number(headers.get('X-RateLimit-Remaining'));
    const reset = Number(headers.get('X-RateLimit-Reset'));
    const hasRateHeaders = headers.has('X-RateLimit-Limit') && Number.isFinite(remaining) && reset > 0 && limit > 0;
    const retryAfter = Number(headers.get('Retry-After'));
    const retryAt = retryAfter > 0 ? now + retryAfter * 1000 : now + MINUTE;
    const heavy = task.request.heavy;
    const heavyAnswer = response.status === 429 && heavy !== undefined && hasRateHeaders && limit === this.limits.heavyPerMinute;

    if (hasRateHeaders && !heavyAnswer) {
      // Requests still on their way were sent after this one was counted: the server has fewer left than it said.
      this.server = { remaining: remaining - this.inFlight + 1, resetAt: reset * 1000 + this.limits.marginMs };
    }

    // A 429 that is not a rate limit (TOO_MANY_PENDING_UPLOADS: five reservations outstanding) is the caller's answer.
    if (response.status === 429 && !(await isRateLimit(response))) {
      task.resolve(response);
      return;
    }
    if (response.status === 429) {
      const until = hasRateHeaders ? reset * 1000 + this.limits.marginMs : retryAt;
      if (heavyAnswer) {
        this.heavyBlockedUntil.set(heavy, until);
        this.keep(now);
      } else this.blockedUntil = Math.max(this.blockedUntil, until);
      if (task.attempts <= this.limits.retriesAfter429) {
        task.enqueuedAt = now;
        this.queue.unshift(task);
        return;
      }
    } else if (response.status === 403 && !hasRateHeaders && headers.has('Retry-After')) {
      // The IP block (only the gateway answers 403 without X-RateLimit headers): nothing goes until it ends.
      // Those waiting longer than they would wait are refused with the time left when the pump next looks.
      this.ipBlockedUntil = this.blockedUntil = Math.max(this.blockedUntil, retryAt);
    } else if (response.status === 401 && task.request.credential !== undefined) {
      this.refuseToken(task.request.credential, await tokenError(response));
    }
    task.resolve(response);
  }

  private refuseToken(credential: string, error: ClientError): void {
    this.refused.set(credential, error);
    this.dropAll((t) => t.request.credential === credential, error);
    this.options.onTokenRefused?.(error, credential);
  }

  private tooLong(now: number, wait: number): ClientError {
    const retryAfterSeconds = Math.max(1, Math.ceil(wait / 1000));
    return now < this.ipBlockedUntil
      ? new ClientError('IP_BLOCKED', 'This address is blocked after repeated failed sign-ins', { retryAfterSeconds })
      : new ClientError('RATE_LIMITED', 'Shelf is keeping within the server’s rate limit', { retryAfterSeconds });
  }

  private drop(task: Task, error: ClientError): void {
    this.queue = this.queue.filter((t) => t !== task);
    task.reject(error);
  }

  private dropAll(which: (task: Task) => boolean, error: ClientError): void {
    for (const task of this.queue.filter(which)) this.drop(task, error);
  }
}

/** The error envelope's `error` of an answer, read from a copy (the caller still reads the answer). */
async function errorOf(response: Response): Promise<{ code?: unknown; message?: unknown } | undefined> {
  const body: unknown = await response
    .clone()
    .json()
    .catch(() => undefined);
  return typeof body === 'object' && body !== null && 'error' in body && typeof body.error === 'object' && body.error !== null ? body.error : undefined;
}

/**
 * This scheduler's own refusal to wait longer for the request budget (nothing was sent, so no status): the
 * server refused nothing, and the request can go once the budget has room, retryAfterSeconds from now.
 */
export function isOwnBudgetWait(error: ClientError): error is ClientError & { retryAfterSeconds: number } {
  return error.code === 'RATE_LIMITED' && error.status === undefined && error.retryAfterSeconds !== undefined;
}

/** A limit's 429 (RATE_LIMITED, or the gateway's, which may carry no envelope), as opposed to another code answered with 429. */
async function isRateLimit(response: Response): Promise<boolean> {
  const code = (await errorOf(response))?.code;
  return code === undefined || code === 'RATE_LIMITED';
}

async function tokenError(response: Response): Promise<ClientError> {
  const error = await errorOf(response);
  const code = TOKEN_CODES.find((c) => c === error?.code) ?? 'INVALID_TOKEN';
  const message = typeof error?.message === 'string' ? error.message : 'The server refused the API token';
  return new ClientError(code, message, { status: 401 });
}
