import pg from "pg";

/**
 * A normalized description of the `public` schema read from PostgreSQL's catalogs: enums, columns, constraints
 * and indexes. Two databases with equal descriptions have the same structure, whatever SQL built them.
 */
export async function describePublicSchema(databaseUrl: string): Promise<Record<string, unknown>> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const enums = await client.query(`
      SELECT t.typname AS name, array_agg(e.enumlabel ORDER BY e.enumsortorder) AS labels
      FROM pg_type t JOIN pg_enum e ON e.enumtypid = t.oid JOIN pg_namespace n ON n.oid = t.typnamespace
      WHERE n.nspname = 'public' GROUP BY t.typname ORDER BY t.typname`);
    const columns = await client.query(`
      SELECT table_name, column_name, data_type, udt_name, is_nullable, column_default, character_maximum_length
      FROM information_schema.columns
      WHERE table_schema = 'public' AND table_name <> '_prisma_migrations'
      ORDER BY table_name, column_name`);
    const constraints = await client.query(`
      SELECT c.conrelid::regclass::text AS table_name, c.conname AS name, pg_get_constraintdef(c.oid) AS definition
      FROM pg_constraint c JOIN pg_namespace n ON n.oid = c.connamespace
      WHERE n.nspname = 'public' AND c.conrelid::regclass::text <> '"_prisma_migrations"'
        AND c.conrelid::regclass::text <> '_prisma_migrations'
      ORDER BY 1, 2`);
    const indexes = await client.query(`
      SELECT tablename, indexname, indexdef FROM pg_indexes
      WHERE schemaname = 'public' AND tablename <> '_prisma_migrations'
      ORDER BY tablename, indexname`);
    return { enums: enums.rows, columns: columns.rows, constraints: constraints.rows, indexes: indexes.rows };
  } finally {
    await client.end();
  }
}
