/** A bookmark's title is never empty: without one, the URL minus its scheme stands in. */
export const titleOr = (title: string | undefined, url: string): string => title || url.replace(/^https?:\/\//i, '');
