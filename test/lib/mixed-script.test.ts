import { describe, expect, it } from 'vitest';
import { mixesScripts } from '../../lib/api/mixed-script.ts';

describe('mixed-script words (TR39, highly restrictive)', () => {
  it('catches a letter of another alphabet inside a word', () => {
    for (const text of ['pаypal' /* Cyrillic а */, 'Αpple' /* Greek Α */, 'Москвa' /* Latin a */, 'work/gооgle', 'pay pаl', 'abc中文а']) {
      expect(mixesScripts(text), text).toBe(true);
    }
  });

  it('lets through one script per word, and the mixes languages write with', () => {
    for (const text of ['paypal', 'café', 'naïve', 'Москва-trip', 'Москва trip', 'Ελληνικά', '日本語テキストabc', 'ひらがなカタカナ漢字', '한국어abc漢字', '中文ㄅㄆabc', 'v2.0', '👩‍💻 dev', 'ℌ', '']) {
      expect(mixesScripts(text), text).toBe(false);
    }
  });
});
