import { adminMain } from './admin/main.ts';

/** The accounts "dashboard" of a self-hosted server: each command prints one JSON object on stdout. */

process.exitCode = await adminMain(process.argv.slice(2), process.env, { log: (line) => console.log(line), error: (line) => console.error(line) });
