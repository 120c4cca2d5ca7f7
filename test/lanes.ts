/**
 * The vitest projects in the two lanes that `npm test` runs side by side (scripts/test.ts). The browsers' lane mostly
 * waits (rate windows, browsers, restarts); the code's lane keeps a core busy. vitest.config.ts refuses a project
 * that is in neither, which npm test would otherwise never run.
 */
export const CODE_LANE = ['server', 'server-redis', 'server-postgres', 'extension'];
export const BROWSER_LANE = ['browser', 'firefox', 'faults'];
