import { Link } from 'react-router-dom';
import { ROLE_LABELS } from '@dash/contracts';
import { useListOrganizationsQuery } from '../api/organizations';
import './org.css';

/** The organizations the user belongs to, each a link to its pages (`/org/{slug}`), with the user's role. */
export function OrganizationLinks() {
  // Read again on each visit: a rename elsewhere is seen here.
  const { data } = useListOrganizationsQuery(undefined, { refetchOnMountOrArgChange: true });
  if (!data || data.organizations.length === 0) return null;
  return (
    <nav aria-label="Organizations">
      <ul className="org-links">
        {data.organizations.map((org) => (
          <li key={org.slug}>
            <Link to={`/org/${org.slug}`}>
              {org.name} <span>{ROLE_LABELS[org.role]}</span>
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}
