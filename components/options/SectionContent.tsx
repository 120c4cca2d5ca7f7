import { Component, type ComponentType, type LazyExoticComponent, type ReactNode, Suspense, lazy, useState } from 'react';
import { secondaryButtonClass } from '../field-styles.ts';

/** An options section whose code is a chunk of its own (entrypoints/options/sections.ts). */
export interface LazySection {
  /** Its address: options.html#id. */
  id: string;
  label: string;
  load(): Promise<ComponentType>;
}

/** Why a section shows no content: its chunk did not load (an extension updated under an open page, say). */
class SectionLoadError extends Error {}

/** Each section's code as asked for: one load per section however often it is opened, asked again only after a failure. */
const loads = new WeakMap<LazySection, LazyExoticComponent<ComponentType>>();

/** Starts loading a section's code, or answers the load under way: the page's start calls it before React's first render. */
export function loadSection(section: LazySection): LazyExoticComponent<ComponentType> {
  let content = loads.get(section);
  if (!content) {
    const loading = section.load().then(
      (Content) => ({ default: Content }),
      (err: unknown) => {
        throw new SectionLoadError(err instanceof Error ? err.message : String(err));
      },
    );
    // Started before anything renders it: a failure is the section's to show when rendered, not an unhandled rejection.
    loading.catch(() => undefined);
    content = lazy(() => loading);
    loads.set(section, content);
  }
  return content;
}

interface LoadFailureProps {
  section: LazySection;
  onRetry(): void;
  children: ReactNode;
}

/** Catches the section's failed load alone: any other error goes on up, as it did before sections were loaded apart. */
class LoadFailure extends Component<LoadFailureProps, { error: unknown }> {
  override state: { error: unknown } = { error: null };

  static getDerivedStateFromError(error: unknown) {
    return { error };
  }

  override render() {
    const { error } = this.state;
    if (error === null) return this.props.children;
    if (!(error instanceof SectionLoadError)) throw error;
    return (
      <div
        role="alert"
        className="space-y-2 rounded-md border border-red-300 bg-red-50 px-3 py-2 text-sm text-red-900 dark:border-red-800 dark:bg-red-950 dark:text-red-100"
      >
        <p className="font-medium">The {this.props.section.label} section could not be loaded.</p>
        <p>If Shelf was updated while this page was open, reload the page; otherwise try again.</p>
        <button type="button" className={secondaryButtonClass} onClick={this.props.onRetry}>
          Try again
        </button>
      </div>
    );
  }
}

/** A section's content, from its chunk: "Loading…" until it has come, its failure with a way to try again. */
export function SectionContent({ section }: { section: LazySection }) {
  const [attempt, setAttempt] = useState(0);
  const Content = loadSection(section);
  const retry = () => {
    loads.delete(section);
    setAttempt((n) => n + 1);
  };
  return (
    // A new attempt is a new boundary: it starts without the failure.
    <LoadFailure key={attempt} section={section} onRetry={retry}>
      <Suspense
        fallback={
          <p role="status" className="text-sm text-zinc-600 dark:text-zinc-400">
            Loading…
          </p>
        }
      >
        <Content />
      </Suspense>
    </LoadFailure>
  );
}
