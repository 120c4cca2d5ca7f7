import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { sendLibraryEarlyFirst } from '../../components/library/send.ts';
import { startOpeningReads } from '../../entrypoints/options/opening-reads.ts';
import { sendEarly, takeEarly } from '../../lib/messaging/early-messages.ts';

const groups = { groups: [], total: 0, fetchedAt: 1, nextCheckAt: null };
const pageAt = (hash: string): Window => ({ location: { hash } }) as Window;

describe('the options page’s early message for the Duplicates view', () => {
  let sent: ReturnType<typeof vi.spyOn>;

  beforeEach(() => {
    fakeBrowser.reset();
    sent = vi.spyOn(fakeBrowser.runtime, 'sendMessage').mockResolvedValue({ ok: true, data: groups });
  });
  afterEach(() => {
    // Whatever a test left untaken is not the next one's.
    takeEarly(window, 'findDuplicates');
    vi.restoreAllMocks();
  });

  it('is sent by options-early.js for #duplicates only, before the page asks', () => {
    startOpeningReads(pageAt('#tags'));
    startOpeningReads(pageAt(''));
    expect(sent).not.toHaveBeenCalled();
    startOpeningReads(pageAt('#duplicates'));
    expect(sent).toHaveBeenCalledExactlyOnceWith({ name: 'findDuplicates', input: {} });
  });

  it('answers the page’s first ask, checked, without a second message; a later ask is sent afresh', async () => {
    sendEarly(window, 'findDuplicates', {});
    expect(await sendLibraryEarlyFirst('findDuplicates', {})).toEqual(groups);
    expect(sent).toHaveBeenCalledTimes(1);

    sent.mockResolvedValueOnce({ ok: true, data: { ...groups, fetchedAt: 2 } });
    expect((await sendLibraryEarlyFirst('findDuplicates', {})).fetchedAt).toBe(2);
    expect(sent).toHaveBeenCalledTimes(2);
  });

  it('carries the background’s error to the page as its code', async () => {
    sent.mockResolvedValueOnce({ ok: false, error: { code: 'RATE_LIMITED', message: 'Too many requests', retryAfterSeconds: 20 } });
    sendEarly(window, 'findDuplicates', {});
    await expect(sendLibraryEarlyFirst('findDuplicates', {})).rejects.toMatchObject({ code: 'RATE_LIMITED', retryAfterSeconds: 20 });
  });

  it('refuses an early reply of the wrong shape as any reply is refused', async () => {
    sent.mockResolvedValueOnce({ ok: true, data: { groups: 'none' } });
    sendEarly(window, 'findDuplicates', {});
    await expect(sendLibraryEarlyFirst('findDuplicates', {})).rejects.toMatchObject({ code: 'BAD_MESSAGE' });
  });

  it('sends again when the early message failed to reach the background', async () => {
    sent.mockRejectedValueOnce(new Error('Could not establish connection'));
    sendEarly(window, 'findDuplicates', {});
    expect(await sendLibraryEarlyFirst('findDuplicates', {})).toEqual(groups);
    expect(sent).toHaveBeenCalledTimes(2);
  });
});
