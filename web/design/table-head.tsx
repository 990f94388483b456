// The header row of the app's data tables: the column names, and an unnamed last column for each row's buttons
// (its name is read by screen readers only).
export function TableHead({ columns, actions }: { columns: readonly string[]; actions?: string }) {
  return (
    <thead>
      <tr>
        {columns.map((name) => (
          <th key={name} scope="col">
            {name}
          </th>
        ))}
        {actions ? (
          <th scope="col">
            <span className="visually-hidden">{actions}</span>
          </th>
        ) : null}
      </tr>
    </thead>
  );
}
