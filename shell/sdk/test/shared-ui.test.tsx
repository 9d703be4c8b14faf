import { act, fireEvent, render, renderHook, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { CountedTextField, FieldError, InlineError, MenuButton, ModalActions, shownError, useDebouncedValue } from '../src';
import { bootstrapRoles, pgRole } from '../testing';

describe('shownError', () => {
  it('shows a string error once the field was left or a submit failed', () => {
    expect(shownError({ error: 'Required', touched: true })).toBe('Required');
    expect(shownError({ error: 'Required', submitFailed: true })).toBe('Required');
  });

  it('hides it before that, and ignores errors that are not text', () => {
    expect(shownError({ error: 'Required' })).toBeUndefined();
    expect(shownError({ error: { nested: 'x' }, touched: true })).toBeUndefined();
    expect(shownError({ touched: true, submitFailed: true })).toBeUndefined();
  });
});

describe('FieldError', () => {
  it('is an alert with the id a control points at', () => {
    render(<FieldError id="name-error" error="Name is required" className="extra" />);
    const alert = screen.getByRole('alert');
    expect(alert.id).toBe('name-error');
    expect(alert.className).toBe('dash-field__error extra');
    expect(alert.textContent).toBe('Name is required');
  });
});

describe('CountedTextField', () => {
  function Controlled({ error }: { error?: string }) {
    const [value, setValue] = useState('abc');
    return <CountedTextField label="Policy name" counterLabel="Name length" maxLength={5} value={value} onChange={(e) => setValue(e.target.value)} error={error} />;
  }

  it('counts the characters used of the limit, and the input refuses more', async () => {
    render(<Controlled />);
    const input = screen.getByRole('textbox', { name: 'Policy name' }) as HTMLInputElement;
    expect(screen.getByLabelText('Name length').textContent).toBe('3/5');
    expect(input.maxLength).toBe(5);
    expect(input.type).toBe('text');
    await userEvent.type(input, 'd');
    expect(screen.getByLabelText('Name length').textContent).toBe('4/5');
    expect(input.getAttribute('aria-invalid')).toBeNull();
    expect(input.getAttribute('aria-describedby')).toBeNull();
  });

  it('shows the error and points the input at it', () => {
    render(<Controlled error="Name is required" />);
    const input = screen.getByRole('textbox', { name: 'Policy name' });
    const alert = screen.getByRole('alert');
    expect(alert.textContent).toBe('Name is required');
    expect(input.getAttribute('aria-invalid')).toBe('true');
    expect(input.getAttribute('aria-describedby')).toBe(alert.id);
  });
});

describe('InlineError', () => {
  it('is an alert with its title, message and a Retry that calls back', async () => {
    const onRetry = jest.fn();
    render(<InlineError title="Failed to retrieve database roles" message="connection refused" onRetry={onRetry} />);
    const alert = screen.getByRole('alert');
    expect(Array.from(alert.querySelectorAll('p')).map((p) => p.textContent)).toEqual(['Failed to retrieve database roles', 'connection refused']);
    await userEvent.click(screen.getByRole('button', { name: 'Retry' }));
    expect(onRetry).toHaveBeenCalledTimes(1);
  });

  it('has no Retry without a callback', () => {
    render(<InlineError title="Failed" />);
    expect(screen.queryByRole('button')).toBeNull();
  });
});

describe('ModalActions', () => {
  it('renders Cancel then the action, which runs its handler', async () => {
    const onCancel = jest.fn();
    const onClick = jest.fn();
    render(
      <ModalActions onCancel={onCancel} onClick={onClick}>
        Save
      </ModalActions>,
    );
    const [cancel, save] = screen.getAllByRole('button') as HTMLButtonElement[];
    expect([cancel!.textContent, save!.textContent]).toEqual(['Cancel', 'Save']);
    expect(save!.className).toContain('dash-btn--primary');
    await userEvent.click(cancel!);
    await userEvent.click(save!);
    expect(onCancel).toHaveBeenCalledTimes(1);
    expect(onClick).toHaveBeenCalledTimes(1);
  });

  it('locks both buttons while busy, and takes a variant and submit props', () => {
    render(
      <ModalActions onCancel={() => undefined} busy variant="danger" type="submit" form="f" cancelLabel="Keep">
        Delete
      </ModalActions>,
    );
    const cancel = screen.getByRole('button', { name: 'Keep' }) as HTMLButtonElement;
    const remove = screen.getByRole('button', { name: 'Delete' }) as HTMLButtonElement;
    expect(cancel.disabled).toBe(true);
    expect(remove.disabled).toBe(true);
    expect(remove.getAttribute('aria-busy')).toBe('true');
    expect(remove.className).toContain('dash-btn--danger');
    expect(remove.type).toBe('submit');
    expect(remove.getAttribute('form')).toBe('f');
  });
});

describe('MenuButton', () => {
  const setup = (items = [
    { label: 'Edit', onSelect: jest.fn() },
    { label: 'Locked', onSelect: jest.fn(), disabledReason: 'No permission' },
    { label: 'Delete', onSelect: jest.fn(), danger: true },
  ]) => {
    render(
      <div>
        <MenuButton label="Actions for x" menuLabel="Menu of x" items={items} />
        <p>outside</p>
      </div>,
    );
    return { items, button: screen.getByRole('button', { name: 'Actions for x' }) };
  };

  it('opens on click with the first enabled item focused; arrows skip disabled items and wrap', async () => {
    const { button } = setup();
    expect(button.getAttribute('aria-expanded')).toBe('false');
    await userEvent.click(button);
    const menu = screen.getByRole('menu', { name: 'Menu of x' });
    expect(button.getAttribute('aria-controls')).toBe(menu.id);
    const [edit, locked, remove] = screen.getAllByRole('menuitem') as HTMLButtonElement[];
    expect(locked!.disabled).toBe(true);
    expect(remove!.className).toContain('dash-menu__item--danger');
    expect(document.activeElement).toBe(edit);
    await userEvent.keyboard('{ArrowDown}');
    expect(document.activeElement).toBe(remove);
    await userEvent.keyboard('{ArrowDown}');
    expect(document.activeElement).toBe(edit);
    await userEvent.keyboard('{ArrowUp}');
    expect(document.activeElement).toBe(remove);
  });

  it('closes on Escape without letting it reach the page, and gives focus back to the button', async () => {
    const { button } = setup();
    const onWindowKey = jest.fn();
    window.addEventListener('keydown', onWindowKey);
    await userEvent.click(button);
    await userEvent.keyboard('{Escape}');
    window.removeEventListener('keydown', onWindowKey);
    expect(screen.queryByRole('menu')).toBeNull();
    expect(document.activeElement).toBe(button);
    expect(onWindowKey).not.toHaveBeenCalled();
  });

  it('closes, then runs the chosen item; a click elsewhere closes it too', async () => {
    const { items, button } = setup();
    await userEvent.click(button);
    await userEvent.click(screen.getByRole('menuitem', { name: 'Delete' }));
    expect(screen.queryByRole('menu')).toBeNull();
    expect(items[2]!.onSelect).toHaveBeenCalledTimes(1);
    await userEvent.click(button);
    fireEvent.mouseDown(screen.getByText('outside'));
    expect(screen.queryByRole('menu')).toBeNull();
    expect(items[0]!.onSelect).not.toHaveBeenCalled();
  });
});

describe('useDebouncedValue', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('gives the value only once it stopped changing for the delay', () => {
    const { result, rerender } = renderHook(({ value }) => useDebouncedValue(value, 300), { initialProps: { value: 'a' } });
    expect(result.current).toBe('a');
    rerender({ value: 'ab' });
    act(() => jest.advanceTimersByTime(200));
    rerender({ value: 'abc' });
    act(() => jest.advanceTimersByTime(200));
    expect(result.current).toBe('a');
    act(() => jest.advanceTimersByTime(100));
    expect(result.current).toBe('abc');
  });
});

describe('role fixtures', () => {
  it('builds an ordinary role unless told otherwise', () => {
    expect(pgRole(1, 'editor')).toMatchObject({ id: 1, name: 'editor', is_superuser: false, can_login: false, inherit_role: true, connection_limit: -1 });
    expect(pgRole(2, 'admin', { is_superuser: true }).is_superuser).toBe(true);
  });

  it('lists the bootstrap roles, a fresh array each time', () => {
    expect(bootstrapRoles().map((r) => r.name)).toEqual(['postgres', 'anon', 'authenticated', 'service_role', 'authenticator', 'dashboard_user']);
    expect(bootstrapRoles()).not.toBe(bootstrapRoles());
  });
});
