import { sql } from 'drizzle-orm';
import type { Database } from '../../db/client.js';
import { rowsOf } from '../../db/result-rows.js';
import { quoteIdent } from './backup-archive.js';

// The statements of a backup and a restore. A backup is a logical dump of every public table, whatever its domain,
// so these read the catalogue (pg_class, pg_constraint, pg_sequences) and move rows as JSON, table by table; they
// write only into an empty database being restored.

const qualified = (table: string) => sql.raw(`public.${quoteIdent(table)}`);
const ROW_CURSOR = 'packgate_backup_rows';

/** The public tables (partitions excluded), by name. */
export async function selectPublicTables(db: Database): Promise<string[]> {
  const rows = rowsOf<{ name: string }>(
    await db.execute(sql`
      select c.relname as name from pg_class c join pg_namespace n on n.oid = c.relnamespace
      where n.nspname = 'public' and c.relkind in ('r', 'p') and not c.relispartition order by c.relname`),
  );
  return rows.map((row) => row.name);
}

/** Each foreign key of the public tables as the table holding it and the table it points to. */
export async function selectForeignKeyEdges(db: Database): Promise<{ child: string; parent: string }[]> {
  return rowsOf<{ child: string; parent: string }>(
    await db.execute(sql`
      select child.relname as child, parent.relname as parent from pg_constraint co
      join pg_class child on child.oid = co.conrelid join pg_class parent on parent.oid = co.confrelid
      join pg_namespace n on n.oid = child.relnamespace
      where co.contype = 'f' and n.nspname = 'public'`),
  );
}

/** The public sequences' last values (null for one never used). */
export async function selectSequences(db: Database): Promise<{ name: string; lastValue: string | null }[]> {
  return rowsOf<{ name: string; lastValue: string | null }>(
    await db.execute(sql`
      select sequencename as name, last_value::text as "lastValue" from pg_sequences
      where schemaname = 'public' order by sequencename`),
  );
}

/** Opens a cursor over a table's rows as JSON text, in the transaction `db`; read it with fetchTableRows. */
export async function openTableRows(db: Database, table: string): Promise<void> {
  await db.execute(
    sql`declare ${sql.raw(ROW_CURSOR)} no scroll cursor for select row_to_json(t)::text as r from ${qualified(table)} t`,
  );
}

/** The cursor's next rows, at most `count`; none once it is read to its end. */
export async function fetchTableRows(db: Database, count: number): Promise<string[]> {
  const rows = rowsOf<{ r: string }>(await db.execute(sql.raw(`fetch ${Math.trunc(count)} from ${ROW_CURSOR}`)));
  return rows.map((row) => row.r);
}

export async function closeTableRows(db: Database): Promise<void> {
  await db.execute(sql.raw(`close ${ROW_CURSOR}`));
}

/** How many tables the database holds: the public ones, and drizzle's record of migrations. */
export async function countTables(db: Database): Promise<number> {
  const [tables] = rowsOf<{ n: number }>(
    await db.execute(sql`
      select count(*)::int as n from pg_tables where schemaname = 'public'
        or (schemaname = 'drizzle' and tablename = '__drizzle_migrations')`),
  );
  return Number(tables?.n ?? 0);
}

/** Turns a table's own triggers off or on (a restore's rows already hold what they derive). */
export async function setTableTriggers(db: Database, table: string, enabled: boolean): Promise<void> {
  await db.execute(sql`alter table ${qualified(table)} ${sql.raw(enabled ? 'enable' : 'disable')} trigger user`);
}

export async function setSequenceValue(db: Database, name: string, lastValue: string): Promise<void> {
  await db.execute(sql`select setval(${`public.${quoteIdent(name)}`}::regclass, ${lastValue}::bigint, true)`);
}

/** Inserts rows given as JSON objects (one per line of a backup) into a table. */
export async function insertJsonRows(db: Database, table: string, jsonRows: string[]): Promise<void> {
  await db.execute(
    sql`insert into ${qualified(table)} select * from json_populate_recordset(null::${qualified(table)}, ${`[${jsonRows.join(',')}]`}::json)`,
  );
}
