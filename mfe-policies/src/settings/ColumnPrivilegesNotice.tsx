import { Link } from 'react-router-dom';
import { useProjectRef } from '@dash/shell-sdk';
import { AuthConfigMessages } from '@dash/contracts';

/** Below the Authentication menu: the spec's notice that Column Privileges moved to Database. */
export function ColumnPrivilegesNotice() {
  const ref = useProjectRef();
  return (
    <div className="au-moved" role="note">
      <p>{AuthConfigMessages.columnPrivilegesMoved}</p>
      <Link to={`/project/${ref}/database/column-privileges`}>Go to Column Privileges</Link>
    </div>
  );
}
