import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createActor, setup } from 'xstate';
import { createInspectionStore } from '../../src/machines/inspection';
import { InspectorContext } from '../../src/machines/inspectorContext';
import { inspectorMachine } from '../../src/machines/inspectorMachine';
import { connectStatelyInspector } from '../../src/machines/statelyInspector';
import { InspectorPanel } from '../../src/views/inspector/InspectorPanel';
import { fakeServer, renderApp, userInfo } from './renderApp';

/*
 * The machine inspector panel: the running actors with their state, context and recent events, live; opened
 * by `?inspect=1` or Ctrl+Alt+I for a super admin (or the 'machine-inspector' permission) only;
 * `?inspect=stately` also connects Stately's inspector (here the connection is a spy: it would open a window).
 */

vi.mock('../../src/machines/statelyInspector', () => ({ connectStatelyInspector: vi.fn(async () => () => undefined) }));

/** Sign-in, routes and lookups of the whole app take longer than a second on a busy machine. */
const SIGN_IN = { timeout: 5_000 };

afterEach(() => {
  cleanup();
  vi.mocked(connectStatelyInspector).mockClear();
});

const light = setup({ types: { events: {} as { type: 'light.next' } } }).createMachine({
  id: 'light',
  context: { cycles: 0 },
  initial: 'green',
  states: { green: { on: { 'light.next': 'yellow' } }, yellow: { on: { 'light.next': 'red' } }, red: {} },
});

describe('the inspector panel', () => {
  it("shows an actor's state change, its context and its events as they happen", async () => {
    const store = createInspectionStore();
    const logic = inspectorMachine.provide({ actions: { connectStately: () => undefined } });
    render(
      <InspectorContext.Provider logic={logic} options={{ input: { allowed: true, search: '?inspect=1' } }}>
        <InspectorPanel store={store} />
      </InspectorContext.Provider>,
    );
    const panel = screen.getByTestId('inspector-panel');
    expect(within(panel).getByTestId('inspector-shortcut').textContent).toBe('Ctrl+Alt+I');
    expect(within(panel).getByText('No running actors.')).toBeDefined();

    const actor = createActor(light, { inspect: store.inspect }).start();
    const card = await within(panel).findByTestId('inspector-actor-light');
    expect(within(card).getByTestId('inspector-state').textContent).toBe('"green"');
    expect(within(card).getByTestId('inspector-context').textContent).toContain('"cycles": 0');

    act(() => actor.send({ type: 'light.next' }));
    await waitFor(() => expect(within(card).getByTestId('inspector-state').textContent).toBe('"yellow"'));
    const events = within(card)
      .getAllByTestId('inspector-event')
      .map((item) => item.textContent ?? '');
    expect(events[0]).toContain('light.next');
    expect(events[1]).toContain('xstate.init');

    act(() => actor.stop());
    await waitFor(() => expect(within(panel).queryByTestId('inspector-actor-light')).toBeNull());

    fireEvent.click(within(panel).getByRole('button', { name: 'Close the inspector' }));
    expect(screen.queryByTestId('inspector-panel')).toBeNull();
  });
});

describe('the inspector in the app', () => {
  const admin = userInfo({ roles: ['super admin'], username: 'root' });

  it('opens with ?inspect=1 for a super admin, lists the app actors, and toggles with Ctrl+Alt+I', async () => {
    renderApp(
      '/shopper-connect/mall-home?inspect=1',
      fakeServer({ credential: () => Promise.resolve({ user: admin, csrfToken: 'c' }) }),
    );
    const panel = await screen.findByTestId('inspector-panel', {}, SIGN_IN);
    for (const name of ['app', 'auth', 'navigationGuard', 'layout', 'filterHeader', 'dateRangePicker', 'hourPicker']) {
      expect(await within(panel).findAllByTestId(`inspector-actor-${name}`, {}, SIGN_IN)).toHaveLength(1);
    }
    expect(connectStatelyInspector).not.toHaveBeenCalled();
    fireEvent.keyDown(window, { key: 'i', code: 'KeyI', ctrlKey: true, altKey: true });
    expect(screen.queryByTestId('inspector-panel')).toBeNull();
    fireEvent.keyDown(window, { key: 'I', code: 'KeyI', ctrlKey: true, shiftKey: true });
    expect(screen.queryByTestId('inspector-panel')).toBeNull();
    fireEvent.keyDown(window, { key: 'i', code: 'KeyI', ctrlKey: true, altKey: true });
    expect(screen.getByTestId('inspector-panel')).toBeDefined();
  });

  it("connects Stately's inspector with ?inspect=stately", async () => {
    renderApp(
      '/shopper-connect/mall-home?inspect=stately',
      fakeServer({ credential: () => Promise.resolve({ user: admin, csrfToken: 'c' }) }),
    );
    await screen.findByTestId('inspector-panel', {}, SIGN_IN);
    expect(connectStatelyInspector).toHaveBeenCalledOnce();
  });

  it('opens with the machine-inspector component permission, and never without', async () => {
    const inspector = userInfo({ permissionsComponents: ['machine-inspector'] });
    renderApp(
      '/shopper-connect/mall-home',
      fakeServer({ credential: () => Promise.resolve({ user: inspector, csrfToken: 'c' }) }),
    );
    await screen.findByTestId('navbar-username', {}, SIGN_IN);
    fireEvent.keyDown(window, { key: 'i', code: 'KeyI', ctrlKey: true, altKey: true });
    expect(screen.getByTestId('inspector-panel')).toBeDefined();
    cleanup();

    renderApp(
      '/shopper-connect/mall-home?inspect=stately',
      fakeServer({ credential: () => Promise.resolve({ user: userInfo(), csrfToken: 'c' }) }),
    );
    await screen.findByTestId('navbar-username', {}, SIGN_IN);
    fireEvent.keyDown(window, { key: 'i', code: 'KeyI', ctrlKey: true, altKey: true });
    expect(screen.queryByTestId('inspector-panel')).toBeNull();
    expect(connectStatelyInspector).not.toHaveBeenCalled();
  });
});

describe('the top bar', () => {
  it('is hidden for the showcase account (user.flags.hideTopBar)', async () => {
    const showcase = userInfo({
      username: 'showcase',
      flags: { tenantOnly: false, hideTopBar: true, receiptsHidden: false },
    });
    renderApp(
      '/shopper-connect/mall-home',
      fakeServer({ credential: () => Promise.resolve({ user: showcase, csrfToken: 'c' }) }),
    );
    expect(await screen.findByTestId('nav', {}, SIGN_IN)).toBeDefined();
    expect(await screen.findByTestId('page-title', {}, SIGN_IN)).toBeDefined();
    expect(screen.queryByTestId('top-bar')).toBeNull();
    expect(screen.queryByTestId('navbar-username')).toBeNull();
    // Logout stays in the sidebar.
    expect(screen.getByTestId('sidebar-logout')).toBeDefined();
  });
});
