/** The small help line under a field, tied to it with aria-describedby. */
export const hintClass = 'text-xs text-zinc-600 dark:text-zinc-400';
