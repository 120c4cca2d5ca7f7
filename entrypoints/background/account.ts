import { createApiClient, type ApiClient } from '../../lib/client/api-client.ts';
import { ClientError } from '../../lib/client/errors.ts';
import { normalizeServerUrl } from '../../lib/client/server-url.ts';
import type { AccountState } from '../../lib/messaging/protocol.ts';
import { settingsItem, tokenItem, userItem } from '../../lib/storage/items.ts';

export interface AccountDeps {
  fetch?: typeof fetch;
  /** Whether the extension may reach this server; for a non-default server the options page asks first. */
  hasHostPermission(origin: string): Promise<boolean>;
}

/** Holds the token: the only place that reads it and builds the API client from it. */
export class Account {
  private cached: { key: string; client: ApiClient } | undefined;

  constructor(private deps: AccountDeps) {}

  async state(): Promise<AccountState> {
    const [{ serverUrl }, token, user] = await Promise.all([settingsItem.get(), tokenItem.get(), userItem.get()]);
    return { serverUrl, signedIn: token !== null, user: token !== null ? user : null };
  }

  /** The client for the signed-in account; NOT_SIGNED_IN when there is none. */
  async client(): Promise<ApiClient> {
    const [{ serverUrl }, token] = await Promise.all([settingsItem.get(), tokenItem.get()]);
    if (token === null) throw new ClientError('NOT_SIGNED_IN', 'Sign in to Shelf in its options page first');
    const key = `${serverUrl}\n${token}`;
    if (this.cached?.key !== key) this.cached = { key, client: this.make(serverUrl, token) };
    return this.cached.client;
  }

  /** Verifies the token with the server before keeping anything, so a bad token never replaces a good one. */
  async signIn(serverUrl: string, token: string): Promise<AccountState> {
    const normalized = normalizeServerUrl(serverUrl);
    if (!(await this.deps.hasHostPermission(new URL(normalized).origin))) {
      throw new ClientError('PERMISSION_DENIED', `Shelf is not allowed to reach ${new URL(normalized).origin}`);
    }
    const user = await this.make(normalized, token).call('verify');
    await settingsItem.set({ serverUrl: normalized });
    await tokenItem.set(token);
    await userItem.set(user);
    return this.state();
  }

  async signOut(): Promise<AccountState> {
    await tokenItem.set(null);
    await userItem.set(null);
    this.cached = undefined;
    return this.state();
  }

  private make(baseUrl: string, token: string): ApiClient {
    return createApiClient({ baseUrl, token, ...(this.deps.fetch && { fetch: this.deps.fetch }) });
  }
}
