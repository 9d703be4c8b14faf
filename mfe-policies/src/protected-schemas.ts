import { PROTECTED_SCHEMAS } from '@dash/contracts';

/** The platform's schemas (contracts): read-only on the policies screen (spec section 2). */
export { PROTECTED_SCHEMAS };

export const isProtectedSchema = (schema: string) => PROTECTED_SCHEMAS.includes(schema);
