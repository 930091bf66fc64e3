import { Fragment, type AriaAttributes, type HTMLAttributes, type ReactNode } from 'react';

/**
 * A column header: its text, or its content with a class for the header cell (e.g. `num`) and, on a sortable column,
 * its `aria-sort` state. An empty text is a column without a heading (actions).
 */
export type Column = string | { header: ReactNode; className?: string; sort?: AriaAttributes['aria-sort'] };

/** Attributes for a row's `<tr>` (a class, a click handler, `data-*` ids the tests find rows by). */
export type RowAttributes = HTMLAttributes<HTMLTableRowElement> & { [name: `data-${string}`]: string | undefined };

interface BaseProps<T> {
  /** The table's accessible name. */
  label: string;
  columns: readonly Column[];
  /** Null while loading: neither rows nor the empty message show. */
  rows: readonly T[] | null | undefined;
  /** Shown in one full-width row when the loaded list is empty. */
  empty?: ReactNode;
  /** Extra classes beside `grid` (e.g. `compact`). */
  className?: string;
  /** False for a table nested in another one's row, which has no scrolling frame of its own. */
  framed?: boolean;
  /** Set as `aria-busy` while the rows are being (re)loaded; left off when undefined. */
  busy?: boolean;
}

type RowProps<T> =
  /** The cells of each row; the table supplies the `<tr>`. */
  | { cells: (row: T) => ReactNode; rowProps?: (row: T) => RowAttributes; renderRow?: never }
  /** Whole rows, for entries that take more than one `<tr>` (e.g. an expandable detail row). */
  | { renderRow: (row: T) => ReactNode; cells?: never; rowProps?: never };

export type DataTableProps<T> = BaseProps<T> & RowProps<T>;

/** The app's list table: header row, one row per entry keyed by its id, and an optional empty-state row. */
export function DataTable<T extends { id: string }>({ label, columns, rows, empty, className, framed = true, busy, ...render }: DataTableProps<T>) {
  const table = (
    <table className={className ? `grid ${className}` : 'grid'} aria-label={label} aria-busy={busy}>
      <thead>
        <tr>
          {columns.map((column, index) =>
            typeof column === 'string' ? (
              <th key={index}>{column}</th>
            ) : (
              <th key={index} className={column.className} aria-sort={column.sort}>
                {column.header}
              </th>
            ),
          )}
        </tr>
      </thead>
      <tbody>
        {rows?.map((row) =>
          render.cells ? (
            <tr key={row.id} {...render.rowProps?.(row)}>
              {render.cells(row)}
            </tr>
          ) : (
            <Fragment key={row.id}>{render.renderRow(row)}</Fragment>
          ),
        )}
        {rows?.length === 0 && empty !== undefined && (
          <tr>
            <td colSpan={columns.length} className="empty">
              {empty}
            </td>
          </tr>
        )}
      </tbody>
    </table>
  );
  return framed ? <div className="table-wrap">{table}</div> : table;
}
