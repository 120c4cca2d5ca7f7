import type { QueryClient } from '@tanstack/react-query';
import { putKeptFirstPage } from '../../components/library/queries.ts';
import { DEFAULT_SORT, putKeptChoices, viewKeyOf } from '../../components/library/view-choice.ts';
import { librarySortsItem, libraryViewsItem } from '../../lib/storage/library-items.ts';
import { OPENING_SOURCE } from './opening-reads.ts';

/**
 * What the page opens with, put in the query cache before its first render (library-early.js has mostly read
 * it by now): the view and order of every list, and the opening list's kept first page where it is shown in
 * the default order. The first render then shows the first cards; nothing waits for the page to ask.
 */
export async function readOpening(queryClient: QueryClient, win: Window = window): Promise<void> {
  const [, sorts] = await Promise.all([putKeptChoices(queryClient, libraryViewsItem, win), putKeptChoices(queryClient, librarySortsItem, win)]);
  if ((sorts[viewKeyOf({ kind: 'list', source: OPENING_SOURCE, title: '' })] ?? DEFAULT_SORT) === DEFAULT_SORT) await putKeptFirstPage(queryClient, OPENING_SOURCE, win);
}
