import { parseArgs } from 'node:util';
import { resolve } from 'node:path';
import { z } from 'zod';

export interface ServerConfig {
  port: number;
  host: string;
  dataDir: string;
  testClock: boolean;
  allowPrivateFetch: boolean;
  trustProxy: boolean;
  /** Benchmarks only: raises the request-count limits out of a load generator's reach. */
  raiseLimits: boolean;
}

const Port = z.coerce.number().int().min(0).max(65535);

/** Flags win over PORT, HOST and DATA_DIR, which win over the defaults. */
export function parseServerConfig(argv: string[], env: NodeJS.ProcessEnv): ServerConfig {
  const { values } = parseArgs({
    args: argv,
    options: {
      port: { type: 'string' },
      host: { type: 'string' },
      data: { type: 'string' },
      'test-clock': { type: 'boolean', default: false },
      'allow-private-fetch': { type: 'boolean', default: false },
      'trust-proxy': { type: 'boolean', default: false },
      'raise-limits': { type: 'boolean', default: false },
    },
    strict: true,
    allowPositionals: false,
  });
  const port = Port.safeParse(values.port ?? env.PORT ?? '8787');
  if (!port.success) throw new Error(`--port must be a number from 0 to 65535, got ${values.port ?? env.PORT}`);
  return {
    port: port.data,
    host: values.host ?? env.HOST ?? '127.0.0.1',
    dataDir: resolve(values.data ?? env.DATA_DIR ?? './data'),
    testClock: values['test-clock'],
    allowPrivateFetch: values['allow-private-fetch'],
    trustProxy: values['trust-proxy'],
    raiseLimits: values['raise-limits'],
  };
}
