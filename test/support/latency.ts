/** One wait of the probe: wall time, and the CPU time the whole process spent meanwhile. */
export interface ProbeWait {
  ms: number;
  cpuMs: number;
}

/**
 * Runs `work` while `probe` runs again and again, one at a time: what another user waits
 * for meanwhile. Answers work's result and time and the probe's waits (at least one). The
 * CPU time of a wait (for an in-process server) is the work the probe waited behind, which a
 * busy machine does not inflate as it does the wall time.
 */
export async function latencyDuring<T>(probe: () => Promise<unknown>, work: () => Promise<T>): Promise<{ value: T; ms: number; waits: ProbeWait[] }> {
  const waits: ProbeWait[] = [];
  let done = false;
  const probing = (async () => {
    do {
      const started = performance.now();
      const cpu = process.cpuUsage();
      await probe();
      const used = process.cpuUsage(cpu);
      waits.push({ ms: performance.now() - started, cpuMs: (used.user + used.system) / 1000 });
    } while (!done);
  })();
  const started = performance.now();
  try {
    const value = await work();
    return { value, ms: performance.now() - started, waits };
  } finally {
    done = true;
    await probing;
  }
}
