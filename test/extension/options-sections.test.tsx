// @vitest-environment node
// The DOM comes from ./support/dom.ts, imported first (see why there).
import './support/dom.ts';
import { QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor, within } from '@testing-library/react';
import { Component, type ReactNode } from 'react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { libraryQueryClient } from '../../components/library/query-client.ts';
import { type LazySection, SectionContent } from '../../components/options/SectionContent.tsx';
import { App } from '../../entrypoints/options/App.tsx';
import { SECTIONS } from '../../entrypoints/options/sections.ts';
import { signedInLibrary } from './support/library-page.ts';
import { fakePermissions } from './support/permissions.ts';

const library = signedInLibrary({ width: 560, height: 480 });

function showOptions(hash: string): void {
  window.location.hash = hash;
  render(
    <QueryClientProvider client={libraryQueryClient()}>
      <App />
    </QueryClientProvider>,
  );
}

/** The section's region once its chunk has come: more than its heading, no "Loading <label>…", no failed load. */
async function loadedSection(label: string): Promise<HTMLElement> {
  const region = await screen.findByRole('region', { name: label });
  await waitFor(() => {
    expect(within(region).queryByText(`Loading ${label}…`)).toBeNull();
    expect(within(region).queryByText(/could not be loaded/)).toBeNull();
    expect(region.textContent!.length).toBeGreaterThan(label.length);
  });
  return region;
}

describe('options sections loaded apart', () => {
  // Site access lists the optional origins held (fakeBrowser has no permissions API).
  beforeEach(() => void fakePermissions([], false));

  it.each(SECTIONS.map((s) => [s.id, s.label]))('opens #%s (%s) from the address', async (id, label) => {
    showOptions(`#${id}`);
    await loadedSection(label);
    const link = within(screen.getByRole('navigation', { name: 'Options sections' })).getByRole('link', { name: label });
    expect(link.getAttribute('aria-current')).toBe('page');
  });

  it('opens every section from its link in the navigation, each in turn', async () => {
    showOptions('#account');
    await loadedSection('Account');
    const nav = screen.getByRole('navigation', { name: 'Options sections' });
    for (const { label } of [...SECTIONS.slice(1), SECTIONS[0]]) {
      await library.user.click(within(nav).getByRole('link', { name: label }));
      await loadedSection(label);
      expect(screen.getAllByRole('heading', { level: 2 }).map((h) => h.textContent)).toEqual([label]);
    }
  });
});

describe('a section whose chunk fails to load', () => {
  const failedOnce = (): LazySection & { load: ReturnType<typeof vi.fn> } => ({
    id: 'example',
    label: 'Example',
    load: vi
      .fn<LazySection['load']>()
      .mockRejectedValueOnce(new TypeError('Failed to fetch dynamically imported module: chrome-extension://x/chunks/Example-1.js'))
      .mockResolvedValue(() => <p>The example section</p>),
  });

  it('says so, and Try again loads it again', async () => {
    const section = failedOnce();
    render(<SectionContent section={section} />);
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('The Example section could not be loaded.');
    expect(alert.textContent).toContain('reload the page');
    expect(screen.queryByText('The example section')).toBeNull();

    await library.user.click(within(alert).getByRole('button', { name: 'Try again' }));
    expect(await screen.findByText('The example section')).toBeTruthy();
    expect(screen.queryByRole('alert')).toBeNull();
    expect(section.load).toHaveBeenCalledTimes(2);
  });

  it('is loaded once however often it is shown once it has come', async () => {
    const section = failedOnce();
    section.load.mockReset().mockResolvedValue(() => <p>The example section</p>);
    const { unmount } = render(<SectionContent section={section} />);
    await screen.findByText('The example section');
    unmount();
    render(<SectionContent section={section} />);
    // Shown at once: no "Loading…" in between, no second load.
    expect(screen.getByText('The example section')).toBeTruthy();
    expect(section.load).toHaveBeenCalledTimes(1);
  });

  it('does not take a loaded section’s own failure for a failed load: that goes on up', async () => {
    class Outer extends Component<{ children: ReactNode }, { caught: string | null }> {
      override state = { caught: null as string | null };
      static getDerivedStateFromError(error: unknown) {
        return { caught: String(error) };
      }
      override render() {
        return this.state.caught === null ? this.props.children : <p>Outer caught {this.state.caught}</p>;
      }
    }
    const Broken = () => {
      throw new Error('a bug in the section');
    };
    const section: LazySection = { id: 'broken', label: 'Broken', load: () => Promise.resolve(Broken) };
    const quiet = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    render(
      <Outer>
        <SectionContent section={section} />
      </Outer>,
    );
    expect(await screen.findByText('Outer caught Error: a bug in the section')).toBeTruthy();
    expect(screen.queryByText(/could not be loaded/)).toBeNull();
    quiet.mockRestore();
  });
});
