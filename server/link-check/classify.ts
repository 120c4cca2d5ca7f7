import type { LinkStatus } from '../../lib/api/bookmarks.ts';
import type { FetchOutcome } from '../metadata/index.ts';

export interface LinkVerdict {
  linkStatus: LinkStatus;
  /** The status code to show: the permanent redirect's for `redirected`, the final response's otherwise; 0 without a response. */
  httpStatusCode: number;
}

const PERMANENT_REDIRECTS = new Set([301, 308]);
const GONE = new Set([404, 410]);

/**
 * What a fetch says about a link (docs/api-decisions.md, "Link check"). A temporary redirect
 * (302, 303, 307) that ends in a page is `ok`: sites send them to a login or a language, and the
 * bookmark's URL is still the one to keep.
 */
export function classifyLink(outcome: FetchOutcome): LinkVerdict {
  switch (outcome.kind) {
    case 'refused':
      // Consistent with a save: a URL the SSRF guard will not let us fetch stays unchecked.
      return { linkStatus: 'unchecked', httpStatusCode: 0 };
    case 'unreachable':
      return { linkStatus: 'unreachable', httpStatusCode: 0 };
    case 'response': {
      const { status, firstStatus } = outcome;
      if (status >= 200 && status < 300) {
        return PERMANENT_REDIRECTS.has(firstStatus)
          ? { linkStatus: 'redirected', httpStatusCode: firstStatus }
          : { linkStatus: 'ok', httpStatusCode: status };
      }
      return { linkStatus: GONE.has(status) ? 'broken' : 'error', httpStatusCode: status };
    }
  }
}
