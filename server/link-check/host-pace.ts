/**
 * At most one request per host (host:port) every `paceMs` from this process: a check of many
 * bookmarks on one site never becomes a burst against it. Real time: the pace is about the
 * remote host, which the test clock does not move.
 */
export class HostPace {
  private nextFree = new Map<string, number>();

  constructor(
    private readonly paceMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** Takes the host's next slot if it is free now (answers 0), else answers how long until it is. */
  take(host: string): number {
    const now = this.now();
    const free = this.nextFree.get(host) ?? 0;
    if (free > now) return free - now;
    this.nextFree.set(host, now + this.paceMs);
    if (this.nextFree.size > 10_000) this.forgetPast(now);
    return 0;
  }

  private forgetPast(now: number): void {
    for (const [host, free] of this.nextFree) if (free <= now) this.nextFree.delete(host);
  }
}

/** The host a URL's requests go to, as the pace counts them. */
export function hostOf(url: string): string {
  try {
    return new URL(url).host.toLowerCase();
  } catch {
    return '';
  }
}
