import { browser } from 'wxt/browser';
import type { VerifiedUser } from '../../lib/api/auth.ts';
import { createApiClient, type ApiClient } from '../../lib/client/api-client.ts';
import { ClientError } from '../../lib/client/errors.ts';
import type { RequestScheduler } from '../../lib/client/scheduler.ts';
import { normalizeServerUrl } from '../../lib/client/server-url.ts';
import type { AccountState } from '../../lib/messaging/protocol.ts';
import { type Grant, grantItem, settingsItem, tokenItem, userItem } from '../../lib/storage/items.ts';
import type { TypedItem } from '../../lib/storage/typed-item.ts';
import { type SaveOwner, TokenProblem, sameAccount, tokenProblemItem } from '../../lib/storage/background-items.ts';

export interface AccountDeps {
  fetch?: typeof fetch;
  /** Whether the extension may reach this server; for a non-default server the options page asks first. */
  hasHostPermission(origin: string): Promise<boolean>;
  /** The background's one scheduler, through which every call of every client goes. */
  scheduler: RequestScheduler;
  /** After a sign-in: what waited for a usable token (the save queue) goes on. */
  onSignedIn?: () => void;
}

/** The stored items an account is made of, read together. */
interface Stored {
  serverUrl: string;
  token: string | null;
  user: VerifiedUser | null;
  grant: Grant | null;
  problem: TokenProblem | null;
}
const ACCOUNT_ITEMS = [settingsItem, tokenItem, userItem, grantItem, tokenProblemItem];
const ACCOUNT_KEYS = new Set(ACCOUNT_ITEMS.map((item) => item.key.slice('local:'.length)));

export const notSignedIn = () => new ClientError('NOT_SIGNED_IN', 'Sign in to Shelf in its options page first');

/** Holds the token: the only place that reads it and builds the API client from it. */
export class Account {
  private cached: { key: string; client: ApiClient } | undefined;
  /**
   * A sign-in or sign-out writes several items; reads wait for it to finish, so that none sees the new token
   * beside the old user (a save queued for one account must never go with another's token).
   */
  private switching: Promise<unknown> = Promise.resolve();
  /**
   * The stored account, read once and kept until one of its items changes: every request asks for it, and reading
   * it was five storage reads a request, each a round trip to the browser, on the path of what the user waits for.
   */
  private stored: Promise<Stored> | undefined;

  constructor(private deps: AccountDeps) {
    // Storage's own change events: a write by anything else (a test, the developer tools) is seen too.
    browser.storage.local.onChanged.addListener((changes) => {
      if (Object.keys(changes).some((key) => ACCOUNT_KEYS.has(key))) this.forget();
    });
  }

  async state(): Promise<AccountState> {
    const { serverUrl, token, user, grant, problem } = await this.read();
    const signedIn = token !== null;
    return {
      serverUrl,
      signedIn,
      user: signedIn ? user : null,
      scopes: signedIn ? (grant?.scopes ?? null) : null,
      tokenProblem: signedIn ? problem : null,
    };
  }

  /** The signed-in account, as the save queue names the owner of a save; null when signed out. */
  async owner(): Promise<SaveOwner | null> {
    const { serverUrl, token, user } = await this.read();
    return token === null || user === null ? null : { serverUrl, userId: user.userId, email: user.email };
  }

  /**
   * The client for the signed-in account, refusing unsent what the token may not do; NOT_SIGNED_IN when there
   * is none, or when `as` names an account that is not the one signed in (its saves wait for it).
   */
  async client(as?: SaveOwner): Promise<ApiClient> {
    const { serverUrl, token, grant: stored, problem, user } = await this.read();
    if (token === null) throw notSignedIn();
    if (as && !(user && sameAccount(as, { serverUrl, userId: user.userId }))) {
      throw new ClientError('NOT_SIGNED_IN', `Sign in as ${as.email} at ${as.serverUrl} to send this save`);
    }
    // A refused token is not tried again: every failed attempt counts toward blocking this address.
    if (problem !== null) throw new ClientError(problem.code, problem.message, { status: 401 });
    const key = `${serverUrl}\n${token}`;
    if (this.cached?.key === key && stored !== null) return this.cached.client;
    // Signed in before grants were kept: asked once (any valid token may ask), then kept.
    const grant = stored ?? (await this.fetchGrant(serverUrl, token));
    if (stored === null) await this.write(grantItem, grant);
    this.cached = { key, client: this.make(serverUrl, token, grant.scopes) };
    return this.cached.client;
  }

  /**
   * Whether the account is on the Pro plan, as sign-in kept it: no request. An
   * account kept as not Pro is asked again (one POST /auth/verify), as it may
   * have upgraded since.
   */
  async isPro(): Promise<boolean> {
    if ((await this.read()).user?.plan === 'pro') return true;
    try {
      const user = await (await this.client()).call('verify');
      await this.write(userItem, user);
      return user.plan === 'pro';
    } catch (err) {
      if (err instanceof ClientError && err.code === 'API_ACCESS_PRO_REQUIRED') return false;
      throw err;
    }
  }

  /** The server refused a request for the plan (the account was moved off Pro): kept, so that isPro asks before the next Pro-only action. */
  async lostPro(): Promise<void> {
    const { user } = await this.read();
    if (user && user.plan === 'pro') await this.write(userItem, { ...user, plan: 'free' });
  }

  /** Verifies the token with the server before keeping anything, so a bad token never replaces a good one. */
  async signIn(serverUrl: string, token: string, options: { allowInsecure?: boolean } = {}): Promise<AccountState> {
    const normalized = normalizeServerUrl(serverUrl, options);
    this.deps.scheduler.forgetRefusedTokens();
    if (!(await this.deps.hasHostPermission(new URL(normalized).origin))) {
      throw new ClientError('PERMISSION_DENIED', `Shelf is not allowed to reach ${new URL(normalized).origin}`);
    }
    const user = await this.make(normalized, token).call('verify');
    const grant = await this.fetchGrant(normalized, token);
    await this.switchTo(async () => {
      await settingsItem.set({ serverUrl: normalized });
      await tokenItem.set(token);
      await userItem.set(user);
      await grantItem.set(grant);
      await tokenProblemItem.set(null);
    });
    this.deps.onSignedIn?.();
    return this.state();
  }

  /** The scheduler saw the server refuse a token; when it is the stored one (not one being tried at sign-in), it is not used again. */
  async tokenRefused(error: ClientError, credential: string): Promise<void> {
    const problem = TokenProblem.safeParse({ code: error.code, message: error.message });
    if (!problem.success || credential !== `Bearer ${(await this.read()).token}`) return;
    await this.write(tokenProblemItem, problem.data);
  }

  async signOut(): Promise<AccountState> {
    await this.switchTo(async () => {
      await tokenItem.set(null);
      await userItem.set(null);
      await grantItem.set(null);
      await tokenProblemItem.set(null);
    });
    return this.state();
  }

  private switchTo(write: () => Promise<void>): Promise<void> {
    const run = this.switching.then(write).finally(() => {
      this.cached = undefined;
      this.forget();
    });
    this.switching = run.catch(() => undefined);
    return run;
  }

  /** The stored account, from memory once read; a read that fails is not kept (the next one tries again). */
  private async read(): Promise<Stored> {
    await this.switching;
    if (this.stored) return this.stored;
    const reading = readStored();
    this.stored = reading;
    reading.catch(() => {
      if (this.stored === reading) this.forget();
    });
    return reading;
  }

  /** The item written and the account in memory forgotten at once: its change event may come after the next read. */
  private async write<T>(item: TypedItem<T>, value: T): Promise<void> {
    await item.set(value);
    this.forget();
  }

  private forget(): void {
    this.stored = undefined;
  }

  /** The token's scopes and expiry; a server whose answer has another shape leaves the scopes unknown (the client then guards nothing). */
  private async fetchGrant(baseUrl: string, token: string): Promise<Grant> {
    try {
      const check = await this.make(baseUrl, token).call('checkToken');
      return { scopes: check.scopes, expiresAt: check.expiresAt };
    } catch (err) {
      if (err instanceof ClientError && err.code === 'MALFORMED_RESPONSE') return { scopes: null, expiresAt: null };
      throw err;
    }
  }

  private make(baseUrl: string, token: string, scopes: Grant['scopes'] = null): ApiClient {
    return createApiClient({ baseUrl, token, scopes, scheduler: this.deps.scheduler, ...(this.deps.fetch && { fetch: this.deps.fetch }) });
  }
}

async function readStored(): Promise<Stored> {
  const [{ serverUrl }, token, user, grant, problem] = await Promise.all([settingsItem.get(), tokenItem.get(), userItem.get(), grantItem.get(), tokenProblemItem.get()]);
  return { serverUrl, token, user, grant, problem };
}
