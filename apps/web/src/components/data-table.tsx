import type { KeyboardEvent, ReactNode } from 'react';
import { Alert, Table } from 'react-bootstrap';
import { ScrollBox } from './scroll-box';

export interface Column<T> {
  header: string;
  cell: (row: T) => ReactNode;
  className?: string;
}

export interface DataTableProps<T> {
  columns: readonly Column<T>[];
  rows: readonly T[];
  rowKey: (row: T) => string;
  /** Shown as an info notice instead of the table when there are no rows. */
  emptyText: string;
  /** Makes rows clickable (mouse and Enter key). */
  onRowClick?: (row: T) => void;
  /** Names the table and the box it scrolls in. */
  'aria-label': string;
}

/** A striped, hoverable table with an empty-state notice. */
export function DataTable<T>(props: DataTableProps<T>) {
  const { columns, rows, rowKey, emptyText, onRowClick } = props;
  if (rows.length === 0) {
    return (
      <Alert variant="info" className="mb-0">
        {emptyText}
      </Alert>
    );
  }
  const onKeyDown = (row: T) => (e: KeyboardEvent<HTMLTableRowElement>) => {
    // Only the row itself: Enter on a button inside the row belongs to the button.
    if (e.key === 'Enter' && e.target === e.currentTarget) onRowClick?.(row);
  };
  return (
    <ScrollBox label={props['aria-label']}>
      <Table
        striped
        hover
        className={onRowClick ? 'table-clickable mb-0' : 'mb-0'}
        aria-label={props['aria-label']}
      >
        <thead>
          <tr>
            {columns.map((c) => (
              <th key={c.header} className={c.className}>
                {c.header}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr
              key={rowKey(row)}
              onClick={onRowClick ? () => onRowClick(row) : undefined}
              onKeyDown={onRowClick ? onKeyDown(row) : undefined}
              tabIndex={onRowClick ? 0 : undefined}
            >
              {columns.map((c) => (
                <td key={c.header} className={c.className}>
                  {c.cell(row)}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </Table>
    </ScrollBox>
  );
}
