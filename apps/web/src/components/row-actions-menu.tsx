import type { ReactNode } from 'react';
import { Dropdown, Spinner } from 'react-bootstrap';

/**
 * Popper's settings for every row menu. Fixed: the menu is placed against the window, so the
 * table's sideways scroller (Table responsive) cannot clip it, and Popper keeps it inside the
 * window (flipping above its toggle when there is no room below).
 */
const POPPER_CONFIG = { strategy: 'fixed' } as const;

interface RowActionsMenuProps {
  /** The toggle's text. */
  label?: string;
  disabled?: boolean;
  /** Shows a spinner in the toggle (an action of this row is running). */
  busy?: boolean;
  /** The menu's Dropdown.Item entries. */
  children: ReactNode;
}

/**
 * A table row's Actions menu: opens under its toggle (above it at the window's bottom), aligned
 * to its right edge, inside the window at any width.
 *
 * The menu carries `position-fixed` from its first render. react-bootstrap leaves Popper's styles
 * to React, so on opening Popper measures the menu before React has made it fixed; measured as
 * Bootstrap's absolute menu, its offsets are taken against the `.dropdown` wrapper and, once
 * fixed, the menu lands at the window's top-right corner instead of at its toggle.
 */
export function RowActionsMenu({
  label = 'Actions',
  disabled,
  busy,
  children,
}: RowActionsMenuProps) {
  return (
    <Dropdown align="end">
      <Dropdown.Toggle size="sm" variant="outline-primary" disabled={disabled}>
        {busy && <Spinner size="sm" className="me-1" aria-hidden="true" />}
        {label}
      </Dropdown.Toggle>
      <Dropdown.Menu className="position-fixed" popperConfig={POPPER_CONFIG}>
        {children}
      </Dropdown.Menu>
    </Dropdown>
  );
}
