import { Fragment, type ReactNode } from 'react';

/** A column header: its text, or the text with a class for the header cell (e.g. `num`). An empty text is a column without a heading (actions). */
export type Column = string | { header: string; className?: string };

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
}

type RowProps<T> =
  /** The cells of each row; the table supplies the `<tr>`. */
  | { cells: (row: T) => ReactNode; renderRow?: never }
  /** Whole rows, for entries that take more than one `<tr>` (e.g. an expandable detail row). */
  | { renderRow: (row: T) => ReactNode; cells?: never };

export type DataTableProps<T> = BaseProps<T> & RowProps<T>;

/** The app's list table: header row, one row per entry keyed by its id, and an optional empty-state row. */
export function DataTable<T extends { id: string }>({ label, columns, rows, empty, className, framed = true, ...render }: DataTableProps<T>) {
  const table = (
    <table className={className ? `grid ${className}` : 'grid'} aria-label={label}>
      <thead>
        <tr>
          {columns.map((column, index) =>
            typeof column === 'string' ? <th key={index}>{column}</th> : <th key={index} className={column.className}>{column.header}</th>,
          )}
        </tr>
      </thead>
      <tbody>
        {rows?.map((row) => (render.cells ? <tr key={row.id}>{render.cells(row)}</tr> : <Fragment key={row.id}>{render.renderRow(row)}</Fragment>))}
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
