import { DAY } from '../clock.ts';
import type { ServerDeps } from '../deps.ts';
import type { DueLink, LinkCheckResult } from '../store/link-checks.ts';
import type { LinkVerdict } from './classify.ts';
import { HostPace, hostOf } from './host-pace.ts';

export type LinkCheckDeps = Pick<ServerDeps, 'store' | 'clock' | 'config' | 'instanceId'>;
export type CheckFn = (url: string) => Promise<LinkVerdict>;

/** Links read per round of one user: enough hosts to keep every request slot busy at the pace. */
const ROUND = 500;
/** Results per write: a short transaction, so that requests never wait long behind one. */
const WRITE_CHUNK = 25;
/** Users looked at per search for work. */
const USERS_PER_SEARCH = 20;

const dayOf = (ms: number): number => Math.floor(ms / DAY);

const sleep = (ms: number, signal: AbortSignal): Promise<void> =>
  new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const timer = setTimeout(done, ms);
    function done(): void {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });

/**
 * The server's link checker (docs/api-decisions.md, "Link check"): re-checks every bookmark's URL
 * off the request path, one user at a time per instance, the links never checked first and then
 * the longest unchecked; at most `concurrency` requests in flight, one request per host per
 * `hostPaceMs`, `dailyCap` checks per user and day. A user's links are checked only by the
 * instance holding the user's lease in the database, so two instances never check them twice.
 */
export class LinkChecker {
  private readonly stopping = new AbortController();
  private readonly pace: HostPace;
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | null = null;
  private wanted = false;

  constructor(
    private readonly deps: LinkCheckDeps,
    private readonly check: CheckFn,
  ) {
    this.pace = new HostPace(deps.config.linkCheck.hostPaceMs);
  }

  start(): void {
    if (!this.deps.config.linkCheck.enabled) return;
    this.timer = setInterval(() => this.wake(), this.deps.config.linkCheck.pollMs);
    this.timer.unref();
    this.wake();
  }

  /** Looks for due links now (a re-check was asked for); a search in progress runs once more after this one. */
  wake(): void {
    if (!this.deps.config.linkCheck.enabled || this.stopping.signal.aborted) return;
    if (this.running !== null) {
      this.wanted = true;
      return;
    }
    this.running = this.work()
      .catch((err: unknown) => console.error('link check failed:', err))
      .finally(() => {
        this.running = null;
        if (this.wanted) {
          this.wanted = false;
          this.wake();
        }
      });
  }

  /** Resolves once no check is running nor asked for (tests and the bench). */
  async idle(): Promise<void> {
    while (this.running !== null) await this.running;
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    this.stopping.abort();
    await this.idle();
  }

  /** Until no user has due links this instance may check. */
  private async work(): Promise<void> {
    const { store, clock, config } = this.deps;
    const { recheckMs, dailyCap } = config.linkCheck;
    const signal = this.stopping.signal;
    while (!signal.aborted) {
      const now = clock.now();
      const users = await store.linkChecks.candidates(now - recheckMs, Date.now(), dayOf(now), dailyCap, USERS_PER_SEARCH);
      let checked = 0;
      for (const userId of users) {
        if (signal.aborted) break;
        checked += await this.checkUser(userId, signal);
      }
      if (checked === 0) return;
    }
  }

  /** Checks the user's due links while this instance holds the user's lease; answers how many it wrote. */
  private async checkUser(userId: string, stopping: AbortSignal): Promise<number> {
    const { store, clock, config, instanceId } = this.deps;
    const { recheckMs, dailyCap } = config.linkCheck;
    const leaseMs = config.jobLeaseMs;
    // Real time, as for jobs: a lease is about this process being alive, and the test clock jumps by days.
    if (!(await store.linkChecks.claim(userId, instanceId, Date.now() + leaseMs, Date.now()))) return 0;
    const lost = new AbortController();
    const renew = setInterval(() => {
      store.linkChecks.renew(userId, instanceId, Date.now() + leaseMs).then(
        (held) => held || lost.abort(),
        (err: unknown) => console.error(`link check of user ${userId}: renewing its lease failed:`, err),
      );
    }, leaseMs / 3);
    renew.unref();
    const signal = AbortSignal.any([stopping, lost.signal]);
    let written = 0;
    try {
      while (!signal.aborted) {
        const now = clock.now();
        const left = dailyCap - (await store.linkChecks.checksOn(userId, dayOf(now)));
        if (left <= 0) break;
        const links = await store.linkChecks.due(userId, now - recheckMs, Math.min(left, ROUND));
        if (links.length === 0) break;
        const round = await this.checkRound(userId, links, signal);
        written += round;
        if (round < links.length) break;
      }
    } finally {
      clearInterval(renew);
      await store.linkChecks.release(userId, instanceId);
    }
    return written;
  }

  /**
   * Checks the links, `concurrency` at a time, each host at its pace, writing the results in
   * chunks as they come; answers how many were written (fewer when stopped or the lease was lost).
   */
  private async checkRound(userId: string, links: DueLink[], signal: AbortSignal): Promise<number> {
    const { store, clock, config, instanceId } = this.deps;
    const waiting = [...links];
    const results: LinkCheckResult[] = [];
    let written = 0;
    let leaseLost = false;
    let writing = Promise.resolve();
    const write = (all: boolean): Promise<void> => {
      writing = writing.then(async () => {
        while (results.length >= WRITE_CHUNK || (all && results.length > 0)) {
          const chunk = results.splice(0, WRITE_CHUNK);
          const now = clock.now();
          const n = await store.linkChecks.record(userId, instanceId, chunk, now, dayOf(now));
          written += n;
          if (n === 0) {
            // The lease is lost: another instance has the user now.
            leaseLost = true;
            return;
          }
        }
      });
      return writing;
    };

    const worker = async (): Promise<void> => {
      while (!signal.aborted && !leaseLost && waiting.length > 0) {
        const link = this.nextReady(waiting);
        if (typeof link === 'number') {
          await sleep(link, signal);
          continue;
        }
        const verdict = await this.check(link.url);
        if (signal.aborted || leaseLost) return;
        results.push({ id: link.id, ...verdict });
        if (results.length >= WRITE_CHUNK) await write(false);
      }
    };
    await Promise.all(Array.from({ length: Math.min(config.linkCheck.concurrency, links.length) }, worker));
    if (!signal.aborted && !leaseLost) await write(true);
    await writing;
    return written;
  }

  /** Takes the first waiting link whose host is free now, or answers how long until the soonest is. */
  private nextReady(waiting: DueLink[]): DueLink | number {
    let soonest = Infinity;
    for (let i = 0; i < waiting.length; i++) {
      const wait = this.pace.take(hostOf(waiting[i]!.url));
      if (wait === 0) return waiting.splice(i, 1)[0]!;
      soonest = Math.min(soonest, wait);
    }
    return soonest;
  }
}
