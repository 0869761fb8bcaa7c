import postgres from 'postgres';

export interface LoginStanding {
  /** Whether the login is a superuser. */
  super: boolean;
  /** Whether it owns the database it connected to. */
  owns: boolean;
  /** The error reading `serverFile` gave, or null if the login could read it. */
  readFileError: string | null;
}

/**
 * What the login of `url` is on its server: a superuser or not, the owner of its database or
 * not, and whether it may read the server's file `serverFile` (superusers and
 * pg_read_server_files may).
 */
export async function loginStanding(url: string, serverFile: string): Promise<LoginStanding> {
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  try {
    const [me] = await sql<{ super: boolean; owns: boolean }[]>`
      select r.rolsuper as super, d.datdba = r.oid as owns
      from pg_roles r, pg_database d where r.rolname = current_user and d.datname = current_database()`;
    const readFileError = await sql`select pg_read_binary_file(${serverFile})`.then(
      () => null,
      (error: unknown) => String((error as Error).message),
    );
    return { super: me!.super, owns: me!.owns, readFileError };
  } finally {
    await sql.end();
  }
}
