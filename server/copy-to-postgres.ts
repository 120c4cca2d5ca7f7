import { copyMain } from './copy/main.ts';

/** `npm run copy-to-postgres`: a self-hosted library moved to PostgreSQL (see copyMain). */

process.exitCode = await copyMain(process.argv.slice(2), process.env, { log: (line) => console.log(line), error: (line) => console.error(line) });
