// The header row of the app's data tables: the column names (a column may carry a class that sizes it or hides it
// on phones), and an unnamed last column for each row's buttons (its name is read by screen readers only).
export type TableColumn = string | { name: string; className?: string };

export function TableHead({ columns, actions }: { columns: readonly TableColumn[]; actions?: string }) {
  return (
    <thead>
      <tr>
        {columns.map((column) => {
          const { name, className } = typeof column === "string" ? { name: column, className: undefined } : column;
          return (
            <th key={name} scope="col" className={className}>
              {name}
            </th>
          );
        })}
        {actions ? (
          <th scope="col">
            <span className="visually-hidden">{actions}</span>
          </th>
        ) : null}
      </tr>
    </thead>
  );
}

/** The admin tables' last column: named on screen, as wide as its buttons. */
export const ACTIONS_COLUMN = { name: "Actions", className: "col-actions" } as const;
