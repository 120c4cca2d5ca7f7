import { bundleServer } from './server-bundle.ts';

/** npm run build:server: the server bundled once into dist/server/ (see bundleServer), what `npm run serve` runs. */
const built = await bundleServer(new URL('../dist/server/', import.meta.url).pathname);
console.log(`built ${built.slice(0, -1).join(', ')} and ${built.at(-1)}`);
