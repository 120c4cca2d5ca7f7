import { type KeyboardEvent, type ReactNode, useEffect, useId, useRef } from 'react';
import { dangerButtonClass, secondaryButtonClass } from '../field-styles.ts';

interface Props {
  title: string;
  children: ReactNode;
  confirmLabel: string;
  onConfirm(): void;
  onCancel(): void;
}

const FOCUSABLE = 'button, [href], input, select, textarea, [tabindex]:not([tabindex="-1"])';

/**
 * A confirmation before an action that cannot be undone. Focus starts on
 * Cancel (the safe choice), stays inside while it is open (Tab wraps), and
 * goes back to what had it when the dialog closes; Escape cancels.
 */
export function ConfirmDialog({ title, children, confirmLabel, onConfirm, onCancel }: Props) {
  const id = useId();
  const boxRef = useRef<HTMLDivElement>(null);
  const cancelRef = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    cancelRef.current?.focus();
    return () => opener?.focus();
  }, []);

  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === 'Escape') {
      event.preventDefault();
      onCancel();
    } else if (event.key === 'Tab') {
      const focusable = [...(boxRef.current?.querySelectorAll<HTMLElement>(FOCUSABLE) ?? [])];
      const first = focusable[0];
      const last = focusable.at(-1);
      if (event.shiftKey && document.activeElement === first) {
        event.preventDefault();
        last?.focus();
      } else if (!event.shiftKey && document.activeElement === last) {
        event.preventDefault();
        first?.focus();
      }
    }
  };

  return (
    <div className="fixed inset-0 z-10 flex items-start justify-center bg-black/30 p-3 pt-16">
      <div
        ref={boxRef}
        role="alertdialog"
        aria-modal="true"
        aria-labelledby={`${id}-title`}
        aria-describedby={`${id}-body`}
        onKeyDown={onKeyDown}
        className="w-full max-w-md space-y-3 rounded-lg bg-white p-4 shadow-lg dark:bg-zinc-900"
      >
        <h3 id={`${id}-title`} className="text-base font-semibold">
          {title}
        </h3>
        <div id={`${id}-body`} className="space-y-2 text-sm">
          {children}
        </div>
        <div className="flex flex-wrap justify-end gap-2">
          <button ref={cancelRef} type="button" className={secondaryButtonClass} onClick={onCancel}>
            Cancel
          </button>
          <button type="button" className={`${dangerButtonClass} border border-red-300 dark:border-red-800`} onClick={onConfirm}>
            {confirmLabel}
          </button>
        </div>
      </div>
    </div>
  );
}
