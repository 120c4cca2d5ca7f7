import { expect, it } from 'vitest';
import { sidePanelScenarios } from '../scenarios/side-panel.ts';
import { launchChromiumUser } from './chromium-user.ts';

sidePanelScenarios(launchChromiumUser, (world) => {
  // Chromium only: Playwright runs a script in the page before the extension's own (addInitScript).
  it('carries out a click on the kept paint, made before React has the panel, once React has it', async () => {
    const { user } = world();
    // The click is made in the page the moment the paint is in (a click sent from here could come after React,
    // in a few ms), and each click says whether React had the panel by then.
    const panel = await user.extension.context.newPage();
    const problems: string[] = [];
    panel.on('pageerror', (error) => problems.push(error.message));
    await panel.addInitScript(`
      window.__clicks = [];
      document.addEventListener('click', () => window.__clicks.push(performance.getEntriesByName('shelf:panel-taken-over').length > 0), true);
      new MutationObserver((_, observer) => {
        if (performance.getEntriesByName('shelf:panel-snapshot-shown').length === 0) return;
        observer.disconnect();
        document.querySelector('[aria-label="Select Fresh"]').click();
      }).observe(document, { subtree: true, childList: true });
    `);
    await panel.goto(user.extension.url('sidepanel.html'));
    await panel.getByText('1 selected').waitFor({ timeout: 10_000 });
    expect(await panel.getByRole('checkbox', { name: 'Select Fresh', exact: true }).isChecked()).toBe(true);
    // Before React (false), then replayed on React's checkbox (true).
    expect(await panel.evaluate(() => (window as unknown as { __clicks: boolean[] }).__clicks)).toEqual([false, true]);
    expect(problems).toEqual([]);
    await panel.close();
  });
});
