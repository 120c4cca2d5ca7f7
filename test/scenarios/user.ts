/**
 * A user of the extension, whichever browser runs it: the scenarios in this folder are written once against
 * these interfaces and run in Chromium (test/browser, over Playwright) and in Firefox (test/firefox, over
 * Puppeteer and WebDriver BiDi), so that a flow cannot be tested in one browser and forgotten in the other.
 */

/** The ARIA roles the scenarios look for. */
export type Role =
  | 'alert'
  | 'alertdialog'
  | 'button'
  | 'checkbox'
  | 'combobox'
  | 'dialog'
  | 'group'
  | 'heading'
  | 'img'
  | 'link'
  | 'list'
  | 'listitem'
  | 'navigation'
  | 'option'
  | 'radio'
  | 'region'
  | 'searchbox'
  | 'status'
  | 'textbox'
  | 'toolbar'
  | 'tree'
  | 'treeitem';

/** One of the extension's pages, in a tab of its own, found and worked as a user does: by role and accessible name. */
export interface UserPage {
  /** Clicks the element with this role and exact accessible name, as a real click (a user gesture); shift: with Shift held. */
  click(role: Role, name: string, options?: { shift?: boolean }): Promise<void>;
  /** Clicks the element with this role and exact name inside the one with `within`'s role and name (a dialog's button). */
  clickIn(within: readonly [Role, string], role: Role, name: string): Promise<void>;
  /** Clicks the first element with this role whose accessible name starts with `start`: a tree item's name ends with its count. */
  clickStartingWith(role: Role, start: string): Promise<void>;
  /** Chooses the option with this text in the drop-down or list box with this label. */
  select(label: string, option: string): Promise<void>;
  /** Puts a file in the file field with this label, as the user picking it from their disk would. */
  chooseFile(label: string, file: PickedFile): Promise<void>;
  /** Types into the text box with this label, replacing what it held. */
  fill(label: string, text: string): Promise<void>;
  /** Presses a key (`Enter`, `Escape`, a letter of the page's own shortcuts) in the element that has the focus. */
  press(key: 'Enter' | 'Escape' | 'm'): Promise<void>;
  /** The value of the form field with this label. */
  valueOf(label: string): Promise<string>;
  /** Whether the check box or radio button with this name is checked (once it is shown). */
  isChecked(role: 'checkbox' | 'radio', name: string): Promise<boolean>;
  /** The text of each element of this role inside the one with `within`'s role and name, in page order. */
  textsIn(within: readonly [Role, string], role: Role): Promise<string[]>;
  /** Waits until an element's text contains `text` (a string, any case) or matches it (a pattern), as the user reads it. */
  waitForText(text: string | RegExp, options?: { timeoutMs?: number }): Promise<void>;
  /** The errors the page's scripts threw so far (uncaught), oldest first. */
  errors(): string[];
  /** Whether the element with this role and name is disabled (once it is shown). */
  isDisabled(role: Role, name: string): Promise<boolean>;
  /** Waits until such an element is shown (or, with gone, until none is); name omitted: any of that role. */
  waitFor(role: Role, name?: string, options?: { gone?: boolean; timeoutMs?: number }): Promise<void>;
  /** The text of the first element of that role and name, once it is shown. */
  textOf(role: Role, name?: string): Promise<string>;
  /** How many such elements the page shows now. */
  count(role: Role, name?: string): Promise<number>;
  /** An attribute of the element with this role and name (aria-pressed, href), once it is shown; null where it has none. */
  attributeOf(role: Role, name: string, attribute: string): Promise<string | null>;
  /**
   * Drags the first element with this role and name onto the first one with `onto`'s, with the mouse: pressed on
   * the one, moved over the other, released there (the page's own drag and drop events, as the browser fires them).
   * Absent in Firefox: its WebDriver ends a drag session at the mouse's release without a drop (EventUtils'
   * _maybeEndDragSession, "FIXME: ... we need to synthesize a drop"), so no test can drop there.
   */
  dragTo?(from: readonly [Role, string], onto: readonly [Role, string]): Promise<void>;
  reload(): Promise<void>;
  /** Runs fn in the page, where the extension API is `chrome` (promise-based in both browsers). */
  evaluate<A, R>(fn: (arg: A) => R | Promise<R>, arg: A): Promise<R>;
  close(): Promise<void>;
}

/** A file the user picks: its name, type and text. */
export interface PickedFile {
  name: string;
  /** Its media type where the browser takes one from the picker (Chromium); Firefox reads it off the name. */
  type?: string;
  text: string;
}

/** A file the browser downloaded: the name it was saved under and its text. */
export interface DownloadedFile {
  fileName: string;
  text: string;
}

/** A menu item of the extension's context menu: its id (what the extension gets) and its title (what the user reads). */
export interface MenuItem {
  id: string;
  title: string;
}

/** What the user right-clicks in a web page: the page itself, a link to `url`, or an image from `src`. */
export type MenuTarget = { page: true } | { link: string } | { image: string };

export interface ExtensionUser {
  readonly browserName: 'chromium' | 'firefox';
  /** Opens an extension page (popup.html, options.html, sidepanel.html) in a new tab. */
  open(path: string): Promise<UserPage>;
  /**
   * The extension page at `path` that the browser opens next in a new tab (a link with target _blank): called
   * before the click that opens it, answered once it has loaded.
   */
  opened(path: string): Promise<UserPage>;
  /** Opens a web page in a new tab, in front, and answers the tab's id. */
  openTab(url: string): Promise<number>;
  /** The text of the extension's toolbar badge on that tab. */
  badge(tabId: number): Promise<string>;
  /** Runs the extension's keyboard command (its shortcut) on the tab in front, by the browser's own path where a test can reach it. */
  runCommand(name: string): Promise<void>;
  /** Right-clicks the target in the tab's page and chooses the extension's item from the context menu. */
  chooseFromContextMenu(tabId: number, target: MenuTarget, item: MenuItem): Promise<void>;
  /**
   * Unloads the extension's background as the browser does when it is idle (Chromium stops its service worker,
   * Firefox its event page), and answers once it is down: the browser starts it again for the next event.
   */
  unloadBackground(): Promise<void>;
  /** Records, from now on, each system notification the extension's background creates (its own path to them: the browser keeps no text it showed). */
  recordNotifications(): Promise<void>;
  /** The notifications created since recordNotifications, oldest first. */
  notifications(): Promise<Notification[]>;
  /**
   * Types `text` after the extension's address-bar keyword, a key at a time, by the browser's own path to the
   * omnibox events where a test can reach it; answers the suggestions the extension gave for the whole text within
   * `waitMs` of the last key.
   */
  typeInOmnibox(text: string, waitMs: number): Promise<SuggestCall[]>;
  /** Enter in the address bar on `content` (a suggestion's, or the words typed), opened where `disposition` says. */
  enterInOmnibox(content: string, disposition: 'currentTab' | 'newForegroundTab' | 'newBackgroundTab'): Promise<void>;
  /** The files the browser has downloaded so far in this run, oldest first. */
  downloads(): Promise<DownloadedFile[]>;
  close(): Promise<void>;
}

/** A system notification as the user reads it. */
export interface Notification {
  title: string;
  message: string;
}

/** One answer of the extension to the address bar: its suggestions, and when, in ms after the last key. */
export interface SuggestCall {
  at: number;
  suggestions: Array<{ content: string; description: string }>;
}
