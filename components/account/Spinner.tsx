/** A small turning ring for work in progress; the text next to it says what is happening. */
export function Spinner() {
  return <span aria-hidden="true" className="size-4 animate-spin rounded-full border-2 border-current border-t-transparent" />;
}
