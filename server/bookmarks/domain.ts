import { domainOf } from '../../lib/url.ts';

/**
 * A domain filter as a user types it ("WWW.Example.com", "https://example.com/a")
 * in the form bookmarks store it: lowercase host, no www., IDNs as punycode.
 */
export function normaliseDomainFilter(value: string): string {
  const trimmed = value.trim();
  return domainOf(trimmed.includes('://') ? trimmed : `http://${trimmed}`) || trimmed.toLowerCase();
}
