/**
 * How often the bookmark was opened, as its details say it (the API's clickCount, which Shelf raises
 * when a bookmark is opened from it). The API keeps no time of the last open, so none is shown.
 */
export function openedText(clickCount: number): string {
  if (clickCount <= 0) return 'Not opened from Shelf yet';
  return clickCount === 1 ? 'Opened once' : `Opened ${clickCount.toLocaleString('en')} times`;
}
