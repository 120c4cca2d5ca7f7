import type { Result, Router } from 'hono/router';
import { RegExpRouter } from 'hono/router/reg-exp-router';
import { SmartRouter } from 'hono/router/smart-router';
import { TrieRouter } from 'hono/router/trie-router';

/** Paths remembered at most, and the longest remembered: junk paths cost a bounded, small amount of memory. */
const REMEMBERED_PATHS = 1_000;
const REMEMBERED_PATH_MAX_LENGTH = 256;

/**
 * Hono's own router (the one `new Hono()` makes), whose answer for a method and
 * path is remembered: Hono's router takes no route after its first match, so
 * the answer never changes, and Hono only reads it. Shelf's routes need Hono's trie
 * router, whose search costs a request about as much as its own auth check.
 */
export class RememberingRouter<T> implements Router<T> {
  readonly name = 'RememberingRouter';
  private router: Router<T> = new SmartRouter<T>({ routers: [new RegExpRouter(), new TrieRouter()] });
  private answers = new Map<string, Map<string, Result<T>>>();
  private remembered = 0;

  add(method: string, path: string, handler: T): void {
    this.router.add(method, path, handler);
  }

  match(method: string, path: string): Result<T> {
    let byPath = this.answers.get(method);
    const known = byPath?.get(path);
    if (known !== undefined) return known;
    const answer = this.router.match(method, path);
    if (path.length > REMEMBERED_PATH_MAX_LENGTH) return answer;
    if (this.remembered >= REMEMBERED_PATHS) {
      this.answers.clear();
      this.remembered = 0;
      byPath = undefined;
    }
    if (byPath === undefined) this.answers.set(method, (byPath = new Map()));
    byPath.set(path, answer);
    this.remembered++;
    return answer;
  }
}
