import { type KeyboardEvent, type ReactNode, type RefObject, useEffect, useId, useRef } from 'react';

const FOCUSABLE = 'button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea:not([disabled]), [tabindex="0"], a[href]';

interface Props {
  title: string;
  onClose(): void;
  children: ReactNode;
  /** `alertdialog` for a confirmation; its `describedBy` element (inside the children) says what is at stake. */
  role?: 'dialog' | 'alertdialog';
  describedBy?: string;
  /** The control that takes the focus first; by default the first one. */
  initialFocus?: RefObject<HTMLElement | null>;
}

/**
 * A modal dialog: the focus goes to its first control, Tab stays inside it,
 * Escape closes it, and the focus returns to what had it before.
 */
export function Dialog({ title, onClose, children, role = 'dialog', describedBy, initialFocus }: Props) {
  const id = useId();
  const ref = useRef<HTMLDivElement>(null);

  useEffect(() => {
    const before = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    (initialFocus?.current ?? ref.current?.querySelector<HTMLElement>(FOCUSABLE))?.focus();
    return () => before?.focus();
  }, []);

  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === 'Escape') {
      event.preventDefault();
      onClose();
      return;
    }
    if (event.key !== 'Tab') return;
    const controls = [...(ref.current?.querySelectorAll<HTMLElement>(FOCUSABLE) ?? [])];
    const first = controls[0];
    const last = controls.at(-1);
    if (!first || !last) return;
    if (event.shiftKey && document.activeElement === first) {
      event.preventDefault();
      last.focus();
    } else if (!event.shiftKey && document.activeElement === last) {
      event.preventDefault();
      first.focus();
    }
  };

  return (
    <div className="fixed inset-0 z-10 flex items-start justify-center overflow-y-auto bg-black/40 p-4 pt-16">
      <div
        ref={ref}
        role={role}
        aria-modal="true"
        aria-labelledby={`${id}-title`}
        aria-describedby={describedBy}
        onKeyDown={onKeyDown}
        className="w-full max-w-md space-y-3 rounded-lg bg-white p-4 text-zinc-900 shadow-lg dark:bg-zinc-900 dark:text-zinc-100"
      >
        <h3 id={`${id}-title`} className="text-base font-semibold">
          {title}
        </h3>
        {children}
      </div>
    </div>
  );
}
