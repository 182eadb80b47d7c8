import type { ReactNode } from "react";
import { EmptyState } from "./empty-state";
import { Table, Th } from "./table";

/** A header cell's text; an actions column's name is for screen readers only. */
export type Column = string | { label: string; visuallyHidden: true };

/**
 * A dashboard list: the table with its header row and one `<tr>` per row from `children`, or, when there are no
 * rows and `empty` says what would be here, the empty state instead.
 */
export function DataTable<Row>({
  caption,
  columns,
  rows,
  empty,
  children,
}: {
  caption: string;
  columns: readonly Column[];
  rows: readonly Row[];
  empty?: { title: string; description?: ReactNode; action?: ReactNode };
  children: (row: Row) => ReactNode;
}) {
  if (rows.length === 0 && empty) return <EmptyState {...empty} />;
  return (
    <Table caption={caption}>
      <thead>
        <tr>
          {columns.map((column) =>
            typeof column === "string" ? (
              <Th key={column}>{column}</Th>
            ) : (
              <Th key={column.label}>
                <span className="sr-only">{column.label}</span>
              </Th>
            ),
          )}
        </tr>
      </thead>
      <tbody className="divide-y divide-slate-100">{rows.map(children)}</tbody>
    </Table>
  );
}
