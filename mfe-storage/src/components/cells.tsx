/** Short values (role names, MIME types) as a row of code chips. */
export function Chips({ values }: { values: readonly string[] }) {
  return (
    <span className="st-chips">
      {values.map((value) => (
        <code key={value} className="st-chip">
          {value}
        </code>
      ))}
    </span>
  );
}

/** The header cell of a table's row-menu column: named "Actions" for screen readers only. */
export function ActionsHeader() {
  return (
    <th className="st-table__actions">
      <span className="st-visually-hidden">Actions</span>
    </th>
  );
}
