import type { ReactNode } from 'react';

/**
 * The box a wide table scrolls sideways in (Bootstrap's `.table-responsive`), reachable by
 * keyboard: a named region in the Tab order, so a keyboard user can scroll it with the arrow
 * keys even when the table holds nothing focusable (WCAG 2.1.1; axe: scrollable-region-focusable;
 * docs/product.md, Accessibility).
 */
export function ScrollBox({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="table-responsive" role="region" aria-label={label} tabIndex={0}>
      {children}
    </div>
  );
}
