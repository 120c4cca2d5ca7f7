/**
 * A server a test starts as a process would otherwise re-check every bookmark's URL in the
 * background, fetching the test's made-up addresses: it checks links only where the test asks
 * (`--link-check`, or says `--no-link-check` itself).
 */
export function linkCheckOffUnlessAsked(args: string[]): string[] {
  return args.includes('--link-check') || args.includes('--no-link-check') ? args : [...args, '--no-link-check'];
}
