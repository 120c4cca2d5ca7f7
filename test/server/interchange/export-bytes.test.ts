import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { writeExport } from '../../../server/interchange/write.ts';
import { generatedLibrary } from '../../support/export-library.ts';

/**
 * The bytes each format had when exports were built whole in memory (recorded from that
 * writer for these libraries): writing page by page must not change one of them.
 */
const RECORDED = {
  0: {
    json: '6a227fa8105b9f1c438667b3e6d57c51e15cae5808898081d313d6d39bc0f4dc',
    csv: 'e7850dde2c14b6092d013f12aebeb31e7eb56bfa53f7b87e9d31e2ec2a975747',
    html: '954a68ab99147d9b789e4d91bbabd8adfb35948964f39d7c27b72ca6debbf625',
  },
  1: {
    json: '0d6265265001fb5f2ed19918712ebd888cb33263af8411c2e9bd13df0bcdcb30',
    csv: 'b79f8bb32081b1fa806684e5b787fbfa84807049d8571b10f804da9e71cd1227',
    html: '092795ba9d974e979395cdea109b898b3f9f4854879d7c92b42352afc7c2a42e',
  },
  2600: {
    json: '44b68f9c863860511f68aecca7a5accb73b5bff05f8dce810a40e760c52889b2',
    csv: 'e49bd08c5f1ab7987d3590581ad034d0472ed39ae64aa475d7903624e20ddee6',
    html: '307e6ceac51fe60044924b87bb2644272f376658b56fd5c936629aace605f8c1',
  },
} as const;

const sha256 = (text: string): string => createHash('sha256').update(text).digest('hex');

describe('an export written page by page', () => {
  for (const count of [0, 1, 2600] as const) {
    it.each(['json', 'csv', 'html'] as const)(`%s of ${count} bookmarks has the bytes the whole-library writer had`, async (format) => {
      expect(sha256(await writeExport(format, generatedLibrary(count)))).toBe(RECORDED[count][format]);
    });
  }
});
