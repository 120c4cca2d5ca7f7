import { readFileSync } from 'node:fs';

/** Real export files written by other tools (test/fixtures/imports/README.md says which, and from where). */
export const importFixture = (name: string): Buffer => readFileSync(new URL(`../fixtures/imports/${name}`, import.meta.url));
