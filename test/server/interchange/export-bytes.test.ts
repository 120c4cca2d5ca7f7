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
    json: '32637cabd2591e3c179d1e9d8f86aaa1acea329d64f6eed84be637c40712afb2',
    csv: 'db0261797fa4a79519310e1761ab948fe0cfe5e92e9d8177ffd7bcfeac2890b9',
    html: '7f073daba4857cc50b547ffddfc6de4b1e0af4be38f271b6a7498ac1b72e309a',
  },
  1: {
    json: '53216f2c7c8833954d6d2eaff2a126a8ac729bc8310192b28ae762cdc89ad254',
    csv: 'e32d441c293c3b7612a047a233e0d7ffbeacd68eed535037a34bc9a8ea90c165',
    html: '8476c8ea1d42b4539711a9f233c676f8a25530492618dc3cc2af241fdec87dc7',
  },
  2600: {
    json: 'deacb76623501046a24ffe3059332d680857cfa5eb66f6501604e1bec400e6e6',
    csv: '3e52bbfc46c2a3cfc4f2adc04f3da50f460f165b74bd41f4c61c66393257e9cb',
    html: 'fa2c4827960799a06dd6fdb72e4681d4c6eafbcf36f3bd7f0bc1f0bddeaa5f6c',
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
