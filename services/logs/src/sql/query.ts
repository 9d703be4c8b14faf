/** A parameterised statement for `pg`: text with `$n` placeholders and their values. */
export interface SqlQuery {
  text: string;
  values: unknown[];
}
