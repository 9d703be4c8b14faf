import type pg from 'pg';
import type { MailList, MailMessage } from '@dash/contracts';
import { withClientTransaction } from '@dash/service-kit';

/** A message as the catcher parsed it, to be kept for a project. */
export interface CaughtMail {
  from: string;
  to: string[];
  subject: string;
  date: Date | null;
  html: string | null;
  text: string | null;
  sizeBytes: number;
}

const SUMMARY = `id, sender as "from", recipients as "to", subject, to_json(received_at) #>> '{}' as received_at`;

/** The project's caught mail in `mail.messages` (the service's own role owns it). */
export class MailStore {
  constructor(
    private readonly pool: pg.Pool,
    /** Messages kept per project; the oldest beyond it are dropped as new ones arrive. */
    private readonly keep: number,
  ) {}

  /** Keeps one message and drops the project's oldest beyond `keep`, in one transaction. */
  async add(ref: string, mail: CaughtMail): Promise<number> {
    return withClientTransaction(this.pool, async (client) => {
      const { rows } = await client.query<{ id: number }>(
        `insert into mail.messages (project_ref, sender, recipients, subject, sent_at, html, body_text, size_bytes)
         values ($1, $2, $3, $4, $5, $6, $7, $8) returning id`,
        [ref, mail.from, mail.to, mail.subject, mail.date, mail.html, mail.text, mail.sizeBytes],
      );
      await client.query(
        `delete from mail.messages where project_ref = $1
           and id < (select min(id) from (select id from mail.messages where project_ref = $1 order by id desc limit $2) newest)`,
        [ref, this.keep],
      );
      return rows[0]!.id;
    });
  }

  /** Newest first. */
  async list(ref: string, offset: number, limit: number): Promise<MailList> {
    const [page, count] = await Promise.all([
      this.pool.query<MailList['emails'][number]>(`select ${SUMMARY} from mail.messages where project_ref = $1 order by id desc offset $2 limit $3`, [ref, offset, limit]),
      this.pool.query<{ total: number }>('select count(*)::int as total from mail.messages where project_ref = $1', [ref]),
    ]);
    return { emails: page.rows, total: count.rows[0]!.total };
  }

  async get(ref: string, id: number): Promise<MailMessage | undefined> {
    const { rows } = await this.pool.query<MailMessage>(
      `select ${SUMMARY}, to_json(sent_at) #>> '{}' as date, html, body_text as text from mail.messages where project_ref = $1 and id = $2`,
      [ref, id],
    );
    return rows[0];
  }

  async deleteAll(ref: string): Promise<number> {
    const { rowCount } = await this.pool.query('delete from mail.messages where project_ref = $1', [ref]);
    return rowCount ?? 0;
  }
}
