/**
 * The API's rule for a collection's name, as plain code (no schema library), so that the pickers can say what is
 * wrong before anything is sent. The name schema in collections.ts is built on it.
 */
export const MAX_COLLECTION_NAME_LENGTH = 200;

/** What is wrong with `raw` as a new collection's name, in the user's words; null when the API takes it. */
export function collectionNameProblem(raw: string): string | null {
  const name = raw.trim();
  if (name === '') return 'Give the new collection a name.';
  if (name.length > MAX_COLLECTION_NAME_LENGTH) {
    return `A collection’s name can be at most ${MAX_COLLECTION_NAME_LENGTH} characters long; this one has ${name.length}.`;
  }
  return null;
}
