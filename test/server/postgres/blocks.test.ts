import { describe, expect, it } from 'vitest';
import { PgBlocks } from '../../../server/store/postgres/blocks.ts';
import { freshDatabases } from './fresh-database.ts';

const { fresh } = freshDatabases();

describe('PgBlocks', () => {
  it('blocks until a time, replacing an earlier block, and answers it only while in force', async () => {
    const blocks = new PgBlocks((await fresh())[0]!);
    await blocks.block('block:10.0.0.1', 1000);
    expect(await blocks.blockedUntil('block:10.0.0.1', 999)).toBe(1000);
    expect(await blocks.blockedUntil('block:10.0.0.1', 1000)).toBeNull();
    await blocks.block('block:10.0.0.1', 500);
    expect(await blocks.blockedUntil('block:10.0.0.1', 0)).toBe(500);
    expect(await blocks.blockedUntil('block:10.0.0.2', 0)).toBeNull();
  });

  it('lists blocks in force soonest first (then by key), lifts and purges', async () => {
    const blocks = new PgBlocks((await fresh())[0]!);
    await blocks.block('block:b', 3000);
    await blocks.block('block:a', 3000);
    await blocks.block('block:c', 2000);
    await blocks.block('block:ended', 100);
    expect(await blocks.list(1000)).toEqual([
      { key: 'block:c', until: 2000 },
      { key: 'block:a', until: 3000 },
      { key: 'block:b', until: 3000 },
    ]);

    // An ended block still counts as one to lift; a key never blocked does not.
    expect(await blocks.unblock('block:ended')).toBe(true);
    expect(await blocks.unblock('block:ended')).toBe(false);
    expect(await blocks.unblock('block:never')).toBe(false);

    expect(await blocks.purgeEnded(2000)).toBe(1);
    expect(await blocks.purgeEnded(2000)).toBe(0);
    expect(await blocks.list(0)).toEqual([
      { key: 'block:a', until: 3000 },
      { key: 'block:b', until: 3000 },
    ]);
  });

  it('is one set of blocks for every instance on the database', async () => {
    const [one, two] = await fresh(2);
    await new PgBlocks(one!).block('block:10.0.0.9', 5000);
    expect(await new PgBlocks(two!).blockedUntil('block:10.0.0.9', 0)).toBe(5000);
    expect(await new PgBlocks(two!).unblock('block:10.0.0.9')).toBe(true);
    expect(await new PgBlocks(one!).list(0)).toEqual([]);
  });
});
