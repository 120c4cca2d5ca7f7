/**
 * A user of the extension, whichever browser runs it: the scenarios in this folder are written once against
 * these interfaces and run in Chromium (test/browser, over Playwright) and in Firefox (test/firefox, over
 * Puppeteer and WebDriver BiDi), so that a flow cannot be tested in one browser and forgotten in the other.
 */

/** The ARIA roles the scenarios look for. */
export type Role = 'alert' | 'button' | 'checkbox' | 'heading' | 'link' | 'region' | 'status' | 'textbox';

/** One of the extension's pages, in a tab of its own, found and worked as a user does: by role and accessible name. */
export interface UserPage {
  /** Clicks the element with this role and exact accessible name, as a real click (a user gesture). */
  click(role: Role, name: string): Promise<void>;
  /** Types into the text box with this label, replacing what it held. */
  fill(label: string, text: string): Promise<void>;
  /** Waits until such an element is shown (or, with gone, until none is); name omitted: any of that role. */
  waitFor(role: Role, name?: string, options?: { gone?: boolean; timeoutMs?: number }): Promise<void>;
  /** The text of the first element of that role and name, once it is shown. */
  textOf(role: Role, name?: string): Promise<string>;
  /** How many such elements the page shows now. */
  count(role: Role, name?: string): Promise<number>;
  reload(): Promise<void>;
  /** Runs fn in the page, where the extension API is `chrome` (promise-based in both browsers). */
  evaluate<A, R>(fn: (arg: A) => R | Promise<R>, arg: A): Promise<R>;
  close(): Promise<void>;
}

export interface ExtensionUser {
  readonly browserName: 'chromium' | 'firefox';
  /** Opens an extension page (popup.html, options.html, sidepanel.html) in a new tab. */
  open(path: string): Promise<UserPage>;
  close(): Promise<void>;
}
