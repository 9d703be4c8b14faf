/* The schema visualizer's column marks, shared by the table nodes and the page's legend. */

/** A key: the column is (part of) the primary key. */
export function KeyIcon() {
  return (
    <svg className="sv-icon sv-icon--key" viewBox="0 0 16 16" aria-hidden="true">
      <circle cx="5" cy="8" r="3" fill="none" stroke="currentColor" strokeWidth="1.6" />
      <path d="M8 8h6M12 8v2.5M14 8v2" fill="none" stroke="currentColor" strokeWidth="1.6" strokeLinecap="round" />
    </svg>
  );
}

/** A diamond, filled for NOT NULL and hollow for nullable (as the product marks them). */
export function NullIcon({ nullable }: { nullable: boolean }) {
  return (
    <svg className="sv-icon" viewBox="0 0 16 16" aria-hidden="true">
      <path d="M8 3l5 5-5 5-5-5z" fill={nullable ? 'none' : 'currentColor'} stroke="currentColor" strokeWidth="1.4" strokeLinejoin="round" />
    </svg>
  );
}
