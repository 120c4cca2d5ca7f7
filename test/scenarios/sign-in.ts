import type { ExtensionUser, UserPage } from './user.ts';

/** Signs in through the options page and answers the page, showing the account. */
export async function signIn(user: ExtensionUser, shelf: { baseUrl: string; token: string }): Promise<UserPage> {
  const page = await user.open('options.html');
  await page.fill('Server URL', shelf.baseUrl);
  await page.fill('API token', shelf.token);
  await page.click('button', 'Sign in');
  await page.waitFor('region', 'Signed in');
  return page;
}
