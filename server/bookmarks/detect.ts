import type { CreateBookmarkBody } from '../../lib/api/bookmarks.ts';
import { defaultFavicon } from '../metadata/extract.ts';
import type { PageMetadata } from '../metadata/index.ts';
import type { DetectedFields } from '../store/bookmarks.ts';
import { titleOr } from './title.ts';

/**
 * Auto-detection for a new bookmark: fetches the page only when the title (an
 * empty one counts as missing) or the description is missing; supplied fields win.
 */
export async function detectFields(
  input: Pick<CreateBookmarkBody, 'url' | 'title' | 'description' | 'type'>,
  fetchMetadata: (url: string) => Promise<PageMetadata>,
): Promise<DetectedFields> {
  const { url, title, description, type } = input;
  if (title && description !== undefined) {
    return {
      title,
      description,
      excerpt: '',
      favicon: defaultFavicon(url),
      type: type ?? 'link',
      httpStatusCode: 0,
      linkStatus: 'unchecked',
      metadataStatus: 'skipped',
    };
  }
  const page = await fetchMetadata(url);
  return {
    title: titleOr(title || page.title, url),
    description: description ?? page.description,
    excerpt: page.excerpt,
    favicon: page.favicon,
    type: type ?? page.type,
    httpStatusCode: page.httpStatus,
    linkStatus: page.linkStatus,
    metadataStatus: metadataStatusOf(page),
  };
}

function metadataStatusOf(page: PageMetadata): string {
  // The SSRF guard refusing the URL is the one case where no fetch was attempted.
  if (page.linkStatus === 'unchecked') return 'skipped';
  return page.fetched && page.title !== '' ? 'complete' : 'failed';
}
