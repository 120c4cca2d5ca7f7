import { renderToString } from 'react-dom/server';
import { PopupRoot } from './App.tsx';
import type { Startup } from './startup.ts';

const unanswered = new Promise<never>(() => undefined);
/** Nothing has answered yet: the popup's first frame. */
const UNANSWERED: Startup = { page: unanswered, kept: unanswered, account: unanswered, lookup: unanswered, tags: unanswered, collections: unanswered };

/**
 * popup.html's #root, rendered at build time: the popup's first frame as React
 * renders it in the page (the form, Save enabled), for the browser to show before
 * any of the popup's JavaScript has loaded. main.tsx hydrates it.
 */
export const renderPopupShell = (): string => renderToString(<PopupRoot startup={UNANSWERED} />);
