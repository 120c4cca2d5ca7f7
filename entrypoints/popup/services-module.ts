// Loaded by services.ts with import(): nothing here is in the popup's first chunk.
export { send } from '../../components/messenger.ts';
export { lastCollectionItem, userItem } from '../../lib/storage/items.ts';
export { DraftBook } from './drafts.ts';
