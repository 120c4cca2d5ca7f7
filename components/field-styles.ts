/** Looks shared by the pickers and the popup: one place for focus rings and dark variants. */
export const focusRing =
  'focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-600 dark:focus-visible:outline-blue-400';

export const labelClass = 'block text-xs font-medium text-zinc-700 dark:text-zinc-300';

// Each class list sets a property once (Tailwind does not let a later class win over an earlier one).
const boxClass = 'w-full rounded-md border border-zinc-300 bg-white text-sm dark:border-zinc-600 dark:bg-zinc-900';
const inkClass = 'text-zinc-900 dark:text-zinc-100';
export const inputClass = `${boxClass} ${inkClass} px-2.5 py-1.5 placeholder:text-zinc-400 dark:placeholder:text-zinc-500 ${focusRing}`;
export const readOnlyInputClass = `${boxClass} truncate px-2.5 py-1.5 text-zinc-500 dark:text-zinc-400 ${focusRing}`;
/** A box holding an input without its own border (the tag chips' row): the ring shows around the whole box. */
export const inputBoxClass = `${boxClass} ${inkClass} px-1.5 py-1 focus-within:outline-2 focus-within:outline-offset-2 focus-within:outline-blue-600 dark:focus-within:outline-blue-400`;
/** A button that shows a choice and opens a picker, laid out like a field. */
export const pickerButtonClass = `${boxClass} ${inkClass} flex items-center justify-between gap-2 px-2.5 py-1.5 text-left hover:bg-zinc-50 dark:hover:bg-zinc-800 ${focusRing}`;
export const bareInputClass = 'min-w-0 flex-1 bg-transparent px-1 py-0.5 text-sm outline-none placeholder:text-zinc-400 dark:placeholder:text-zinc-500';

export const popupListClass =
  'max-h-48 overflow-y-auto rounded-md border border-zinc-200 bg-white py-1 text-sm shadow-sm dark:border-zinc-700 dark:bg-zinc-900';
/** One option of a listbox or tree; `active` is the one the arrow keys are on. */
export const optionClass = (active: boolean) =>
  `flex cursor-pointer items-center gap-1.5 px-2.5 py-1 ${active ? 'bg-blue-600 text-white dark:bg-blue-500 dark:text-zinc-950' : 'hover:bg-zinc-100 dark:hover:bg-zinc-800'}`;

const button = `inline-flex items-center justify-center gap-1.5 rounded-md px-3 py-1.5 text-sm font-medium disabled:cursor-not-allowed disabled:opacity-60 ${focusRing}`;
export const primaryButtonClass = `${button} bg-blue-600 text-white hover:bg-blue-700 dark:bg-blue-500 dark:text-zinc-950 dark:hover:bg-blue-400`;
export const secondaryButtonClass = `${button} border border-zinc-300 bg-white text-zinc-800 hover:bg-zinc-100 dark:border-zinc-600 dark:bg-zinc-900 dark:text-zinc-100 dark:hover:bg-zinc-800`;
export const quietButtonClass = `${button} text-zinc-700 hover:bg-zinc-100 dark:text-zinc-300 dark:hover:bg-zinc-800`;
export const dangerButtonClass = `${button} text-red-700 hover:bg-red-50 dark:text-red-400 dark:hover:bg-red-950`;
