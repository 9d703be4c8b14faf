import type { FeatureFlag } from '@dash/contracts';

/**
 * The flag that shows the column privileges page and its menu item. Apart from the page, which module.tsx
 * must not import (the database area's pages load when the area is opened).
 */
export const COLUMN_PRIVILEGES_FLAG: FeatureFlag = 'columnLevelPrivileges';
