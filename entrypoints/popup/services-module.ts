// Imported by services.ts with import(): it arrives in the popup's one chunk (wxt.config.ts) but runs only after the first frame.
export { send } from '../../components/messenger.ts';
export { lastCollectionItem, userItem } from '../../lib/storage/items.ts';
export { DraftBook } from './drafts.ts';
